//! The `listing` guard (and the `landing` guard inside it): a page without an article gives
//! its densest list. When R holds almost no prose (a shop category, a front page, a forum
//! index), the block with the most listed text (content outside hard boilerplate and the
//! template, menu items left out) within ±[`LISTING_WINDOW`] blocks seeds a second climb;
//! its region wins when it holds [`LISTING_GAIN`] times R's listed text, and inside it only
//! menus are pruned (its items are links). A landing page, told by its URL (the root or a
//! path of at most two short segments without digits: `/`, `/c/bike-helmets`,
//! `/category/science/`; tracking parameters aside, no query; see `url_kind`), has no
//! article under [`LANDING_MAX_PROSE`] of good text, and when R holds under
//! [`LANDING_MIN_SHARE`] of its listed text the region is the whole page: a hero text or a
//! feature box beside the page's items.
//!
//! Measured:
//! - 2026-11-23 (2ef9778, with the join guard and privacy dialogs never a seed): pages
//!   missed 307 → 251 (7.98% → 6.52%), macro F1 0.8754 → 0.8790, wcxb 0.800 → 0.819, no
//!   set's miss rate up, precision down at most 0.0028 (dragnet).
//! - 2026-11-26 (b9f141d, `landing`, with `role=alert` a weak hint): pages missed 216 → 197
//!   (wcxb 111 → 95, cleaneval 19 → 17), macro F1 0.8832 → 0.8841 (wcxb 0.8276 → 0.8344,
//!   cleaneval 0.9230 → 0.9237); cleanportaleval 0.9336 → 0.9328 (one page already missed,
//!   a BBC section of 5 true tokens); trafilatura_eval 0.8836 → 0.8840. Losses, in wcxb: a
//!   front page whose truth is one featured list (producthunt.com), agency pages whose
//!   truth is their intro.
//!
//! Its flag (`listing`) is also an input of the learned stage (`listing page`): with the
//! guard off, every page is seen by the stage as no listing.

use crate::methods::reverse::climb::climb_by;
use crate::methods::reverse::read::PageRead;
use crate::methods::reverse::seeds::Root;

/// A region whose good text is below this is not an article: the page may be a listing
/// (a shop category, a front page, a forum index) whose main text is its list of items.
const LISTING_MAX_PROSE: f64 = 200.0;
/// The same on a landing page (see `is_landing_url`): its main text is its items, and a
/// region of a few paragraphs (a hero text, an "about us") is no article.
const LANDING_MAX_PROSE: f64 = 1000.0;
/// On a landing page, a region holding less than this share of the page's listed text is a
/// box beside the page's items: the whole page (menus and hard boilerplate pruned) is the
/// main text.
const LANDING_MIN_SHARE: f64 = 0.2;
/// Blocks on each side of a block that count towards its list mass (a list is long).
const LISTING_WINDOW: usize = 16;
/// The list region replaces R when it holds this many times R's listed text.
const LISTING_GAIN: f64 = 1.5;

/// Recall guard for pages without an article. When R holds almost no prose, the page's
/// main text is its densest list: the block with the most listed text (content outside
/// hard boilerplate and the template, menu items left out) within ±`LISTING_WINDOW`
/// blocks seeds a second climb that scores listed text − hard boilerplate − menu items.
/// Its region wins when it holds `LISTING_GAIN` times R's listed text. On a landing page
/// (`landing`, see `is_landing_url`) R may hold up to `LANDING_MAX_PROSE` of good text,
/// and when it holds under `LANDING_MIN_SHARE` of the page's listed text the climb goes
/// to the root: a home page, a section or a shop category whose items are spread over
/// several lists beside a hero text. Returns the list seed's block, its climb and its
/// scores.
pub(in crate::methods::reverse) fn listing_guard(read: &PageRead, root: &Root) -> Option<Root> {
    let (scores, chosen, landing) = (&root.scores, &root.climb, read.url_kind.landing);
    let r = scores.range(chosen.range.0 as u32, chosen.range.1 as u32);
    let (buf, blocks) = (&read.cleaned.buf[..], &read.cleaned.blocks[..]);
    let max_prose = if landing {
        LANDING_MAX_PROSE
    } else {
        LISTING_MAX_PROSE
    };
    if r.good >= max_prose {
        return None;
    }
    let listed = |i: usize| {
        (scores.content[i + 1] - scores.content[i]) - (scores.menu[i + 1] - scores.menu[i])
    };
    // Sliding sum of listed text over [i - w, i + w]; the first maximum wins.
    let n = blocks.len();
    read.add_work(n as u64);
    let w = LISTING_WINDOW;
    let mut window: f64 = (0..n.min(w)).map(listed).sum();
    let mut best: Option<(f64, usize)> = None;
    for i in 0..n {
        if i + w < n {
            window += listed(i + w);
        }
        if i > w {
            window -= listed(i - w - 1);
        }
        if listed(i) > 0.0 && best.is_none_or(|(b, _)| window > b) {
            best = Some((window, i));
        }
    }
    let (_, seed) = best?;
    let seed_at = blocks[seed].seed;
    let list_scores = read.scores_for(seed_at);
    let page = scores.range(0, buf.len() as u32);
    let whole_page = landing && r.content - r.menu < LANDING_MIN_SHARE * (page.content - page.menu);
    // The whole page: text never falls as the climb widens, so it reaches the root.
    let list = if whole_page {
        climb_by(buf, &list_scores, seed_at as usize, |t| t.weight)
    } else {
        climb_by(buf, &list_scores, seed_at as usize, |t| {
            t.content - 2.0 * t.menu - t.hard
        })
    };
    read.add_work(list.bytes);
    let l = list_scores.range(list.range.0 as u32, list.range.1 as u32);
    let gain = (l.content - l.menu) >= LISTING_GAIN * (r.content - r.menu).max(1.0);
    gain.then_some(Root {
        seed,
        climb: list,
        scores: list_scores,
    })
}
