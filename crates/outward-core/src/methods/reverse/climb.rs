//! `reverse`'s climb: from a seed's text, its ancestors are found by depth counting over the
//! cleaned buffer ([`RangeClimber`], no tree) and scored from the prefix sums of
//! [`BlockScores`]; R is the ancestor with the best score, looking a few text-adding levels
//! past the best before stopping.
//!
//! Invariants: a climb tokenizes each byte at most once ([`Climb::bytes`] counts them); it
//! builds nothing.

use super::scores::{BAD_WEIGHT, BlockScores, Totals};
use crate::html::climb::RangeClimber;

/// Levels the climb looks past a level that did not improve R's score (a forum post's
/// parent adds a header link before the grandparent adds the other posts).
pub(super) const LOOKAHEAD_LEVELS: usize = 3;
/// The climb stops at once when a level loses more than this share of the best score.
const LOOKAHEAD_DROP: f64 = 0.3;

/// A range climber starting at the text token at `seed_at` (up to the next tag).
pub(super) fn climber_from_text(buf: &[u8], seed_at: usize) -> RangeClimber<'_> {
    let text_end =
        memchr::memchr(b'<', &buf[seed_at.min(buf.len())..]).map_or(buf.len(), |k| seed_at + k);
    RangeClimber::new(buf, seed_at, text_end)
}

/// Result of climbing from one seed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Climb {
    /// Chosen ancestor level (0 = the seed text's parent).
    pub(super) level: usize,
    pub(super) score: f64,
    /// Byte range of the chosen ancestor.
    pub(super) range: (usize, usize),
    /// Bytes the climb tokenized.
    pub(super) bytes: u64,
    /// The byte range of the nearest level above the chosen one that adds text, when the
    /// climb looked at one (the confidence's measure of what a wider root would add);
    /// `None` when it stopped first, or a guard chose the range.
    pub(super) wider: Option<(usize, usize)>,
}

impl Climb {
    /// Whether the chosen ancestor holds the byte at `at` (a seed's text).
    pub(super) fn holds(&self, at: usize) -> bool {
        self.range.0 <= at && at < self.range.1
    }
}

/// Climb from the text token at `seed_at`: R = the ancestor maximising good − α·bad,
/// scored from byte ranges found by depth counting (no tree); look a few text-adding
/// levels past the best before stopping.
pub(super) fn climb(buf: &[u8], scores: &BlockScores, seed_at: usize) -> Climb {
    climb_by(buf, scores, seed_at, |t| t.good - BAD_WEIGHT * t.bad)
}

/// [`climb`] with another score of an ancestor's totals (the listing guard's).
pub(super) fn climb_by(
    buf: &[u8],
    scores: &BlockScores,
    seed_at: usize,
    score_of: impl Fn(&Totals) -> f64,
) -> Climb {
    let mut climber = climber_from_text(buf, seed_at);
    let mut at_root = false;
    let mut range = match climber.parent() {
        Some(r) => r,
        None => {
            at_root = true;
            (0, buf.len())
        }
    };
    let mut best = Climb {
        level: 0,
        score: f64::NEG_INFINITY,
        range,
        bytes: 0,
        wider: None,
    };
    let mut best_weight = f64::NEG_INFINITY;
    let mut level = 0;
    // Levels since the best that added text (wrappers adding nothing are free).
    let mut worse_levels = 0;
    let mut last_weight = -1.0;
    loop {
        let t = scores.range(range.0 as u32, range.1 as u32);
        let score = score_of(&t);
        let added_text = t.weight != last_weight;
        last_weight = t.weight;
        if score >= best.score {
            best.score = score;
            best.level = level;
            best.range = range;
            best.wider = None;
            best_weight = t.weight;
            worse_levels = 0;
        } else {
            if best.wider.is_none() && t.weight > best_weight {
                best.wider = Some(range);
            }
            if added_text {
                worse_levels += 1;
            }
            if score < best.score - LOOKAHEAD_DROP * best.score.abs()
                || worse_levels >= LOOKAHEAD_LEVELS
            {
                break;
            }
        }
        if at_root {
            break;
        }
        range = match climber.parent() {
            Some(r) => r,
            None => {
                at_root = true;
                (0, buf.len())
            }
        };
        level += 1;
    }
    best.bytes = climber.bytes_touched();
    best
}
