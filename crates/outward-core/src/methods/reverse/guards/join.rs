//! The `join` guard: an article in several regions (a question and its answers, a post split
//! around a box). When R holds less than [`JOIN_MAX_SHARE`] of the page's good text (the
//! site-memory template counted, as the share was measured without memory) and another
//! seed's region scores at least [`JOIN_MIN_SCORE`] of R's, R becomes their smallest common
//! ancestor, unless that holds more bad than good text. It runs only on an article (the
//! listing guard did not fire).
//!
//! Measured: 2026-11-23 (2ef9778), together with the listing guard: pages missed 307 → 251,
//! macro F1 0.8754 → 0.8790 (see `listing`).

use crate::methods::reverse::climb::{Climb, climber_from_text};
use crate::methods::reverse::read::PageRead;
use crate::methods::reverse::scores::{BAD_WEIGHT, BlockScores};

/// R is joined with another seed's region when it holds less than this share of the page's
/// good text...
pub(in crate::methods::reverse) const JOIN_MAX_SHARE: f64 = 0.5;
/// ...that region scores at least this share of R's score...
pub(in crate::methods::reverse) const JOIN_MIN_SCORE: f64 = 0.3;
/// ...and their smallest common ancestor holds no more bad text than good text.
const JOIN_MAX_BAD: f64 = 1.0;

/// Recall guard for articles in several regions (a question and its answers, a post
/// split around a box), for R holding less than `JOIN_MAX_SHARE` of the page's good text
/// (its template counted; the caller checks): when another seed's region scores at
/// least `JOIN_MIN_SCORE` of R's, R grows to the smallest ancestor holding both, unless
/// that ancestor holds more bad than good text.
pub(in crate::methods::reverse) fn join_guard(
    read: &PageRead,
    scores: &BlockScores,
    seed_at: usize,
    chosen: Climb,
    others: &[Climb],
) -> Climb {
    let buf = &read.cleaned.buf;
    if chosen.score <= 0.0 {
        return chosen;
    }
    let (mut lo, mut hi) = chosen.range;
    for other in others {
        let (s, e) = other.range;
        let inside = chosen.range.0 <= s && e <= chosen.range.1;
        if !inside && other.score >= JOIN_MIN_SCORE * chosen.score {
            lo = lo.min(s);
            hi = hi.max(e);
        }
    }
    if (lo, hi) == chosen.range {
        return chosen;
    }
    // The smallest ancestor of the seed's text covering [lo, hi), by ranges.
    let mut climber = climber_from_text(buf, seed_at);
    let mut level = 0;
    let mut range = climber.parent().unwrap_or((0, buf.len()));
    while !(range.0 <= lo && hi <= range.1) {
        level += 1;
        match climber.parent() {
            Some(r) => range = r,
            None => {
                range = (0, buf.len());
                break;
            }
        }
    }
    read.add_work(climber.bytes_touched());
    let j = scores.range(range.0 as u32, range.1 as u32);
    if j.bad > JOIN_MAX_BAD * j.good {
        return chosen;
    }
    Climb {
        level,
        score: j.good - BAD_WEIGHT * j.bad,
        range,
        bytes: chosen.bytes.max(climber.bytes_touched()),
        wider: None,
    }
}
