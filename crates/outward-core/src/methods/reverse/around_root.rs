//! What the confidence reads of the page around the content root R (issue #37): how much
//! good text a wider root would add, how much of R's one of its parts holds, how much good
//! text another seed's region apart from R holds, and how much prose lies outside R. A page
//! whose text R might be too narrow or too wide for is a page the model should doubt: these
//! are the measures of those doubts, from `reverse`'s prefix sums, its climb and R's
//! subtree, already built (nothing is parsed for them).
//!
//! Measured leave one dataset out (`outward eval --lodo`, 3,847 pages; `docs/methods.md`):
//! the share of the pages missed among the 5 % least confident went from 31.5 % to 33.3 %
//! (10 %: 46.4 % to 50.0 %), Spearman's ρ with the page's F1 0.4544 → 0.4554; with
//! `--favor recall`, pages missed 124 → 122.
//!
//! Its prose measure also decides `--favor recall`'s `prose-outside` guard
//! (`guards/prose_outside.rs`).
//!
//! Invariants: pure functions of the page, R and the climb; time linear in the page's
//! blocks and in R's children and grandchildren.

use super::climb::Climb;
use super::scores::{BlockScores, Totals};
use crate::html::clean::Cleaned;
use crate::html::tree::{Kind, NONE, Tree};

/// A child or grandchild of R counts as one of its parts when it holds at least this share
/// of R's text (and less than all of it: a wrapper is R again).
const PART_MIN_SHARE: f64 = 0.1;

/// The good text the nearest level above R (byte range `r`, good text `r_good`) that adds
/// text (as the climb saw it) adds to R's, over the page's good text `page_good`; 0 when the
/// climb looked at none.
pub(super) fn wider_good_gain(
    scores: &BlockScores,
    climb: &Climb,
    r: (u32, u32),
    r_good: f64,
    page_good: f64,
) -> f64 {
    let Some((s, e)) = climb.wider else {
        return 0.0;
    };
    let (s, e) = (s as u32, e as u32);
    if s > r.0 || e < r.1 {
        // Not an ancestor of R: a guard chose R apart from this climb.
        return 0.0;
    }
    let gain = scores.range(s, e).good - r_good;
    gain.max(0.0) / page_good.max(1.0)
}

/// The largest share of R's good text that one of R's parts holds; 0 without one. R's
/// parts are the children and grandchildren, below the wrappers that hold all of R's text
/// (the climb keeps a wrapper that adds nothing), holding [`PART_MIN_SHARE`] of R's text
/// and less than all of it. `rt`: R's totals.
pub(super) fn largest_part_good_share(
    tree: &Tree,
    scores: &BlockScores,
    r: u32,
    rt: &Totals,
) -> f64 {
    let totals = |id: u32| {
        let n = tree.node(id);
        scores.range(n.start, n.end)
    };
    let is_element = |id: u32| tree.node(id).kind == Kind::Element;
    // Down the wrappers: the element child holding all of the text (a finite walk down).
    let mut top = r;
    while let Some(inner) = tree
        .children(top)
        .find(|&c| is_element(c) && totals(c).weight >= rt.weight)
    {
        top = inner;
    }
    let floor = PART_MIN_SHARE * rt.weight;
    let mut best: f64 = 0.0;
    let mut child = tree.node(top).first_child;
    while child != NONE {
        for id in std::iter::once(child).chain(tree.children(child)) {
            if !is_element(id) {
                continue;
            }
            let t = totals(id);
            if t.weight >= floor && t.weight < rt.weight && t.weight > 0.0 {
                best = best.max(t.good / rt.good.max(1.0));
            }
        }
        child = tree.node(child).next;
    }
    best
}

/// The most good text of the regions of the other seeds' climbs (`tried`) that lie apart
/// from R, over the page's good text.
pub(super) fn other_region_good_share(
    scores: &BlockScores,
    tried: &[Climb],
    r: (u32, u32),
    page_good: f64,
) -> f64 {
    let best = tried
        .iter()
        .map(|c| (c.range.0 as u32, c.range.1 as u32))
        .filter(|&(s, e)| e <= r.0 || r.1 <= s)
        .map(|(s, e)| scores.range(s, e).good)
        .fold(0.0, f64::max);
    best / page_good.max(1.0)
}

/// ln(1 + prose outside R) − ln(1 + R's text): prose being the blocks with sentence
/// punctuation whose text is mostly not links (the comments a truth may keep, a second
/// story). R's blocks are those `scores` places in its byte range `r`.
pub(super) fn prose_outside(
    cleaned: &Cleaned,
    scores: &BlockScores,
    r: (u32, u32),
    r_weight: f64,
) -> f64 {
    let (lo, hi) = scores.block_span(r.0, r.1);
    let prose: f64 = cleaned.blocks[..lo]
        .iter()
        .chain(&cleaned.blocks[hi..])
        .filter(|b| is_prose(b))
        .map(|b| f64::from(b.weight))
        .sum();
    prose.ln_1p() - r_weight.ln_1p()
}

/// Whether a block is prose as [`prose_outside`] counts it: sentence punctuation, and text
/// mostly not links.
pub(super) fn is_prose(block: &crate::html::clean::BlockStats) -> bool {
    block.punct > 0 && 2 * block.link_weight < block.weight
}

#[cfg(test)]
pub(super) mod tests {
    use crate::methods::confidence::Signals;
    use crate::methods::reverse::Reverse;
    use crate::{ExtractOptions, Page, SiteContext};

    fn signals(html: &str) -> Signals {
        let reverse = Reverse::with_stage(&ExtractOptions::default());
        let page = Page::new(html, Some("https://gazette.example/2024/05/the-bridge"));
        let (_, signals) = reverse.confidence_signals(&page, SiteContext::none());
        signals.expect("an article gives a root")
    }

    /// `n` paragraphs of one sentence each, numbered after `what`.
    pub(in crate::methods::reverse) fn paragraphs(what: &str, n: usize) -> String {
        (0..n)
            .map(|k| {
                format!(
                    "<p>{what} {k} says that the council met on Monday, and that the new \
                     bridge over the river will open in the spring of next year.</p>"
                )
            })
            .collect()
    }

    /// A story alone; the same story beside a long thread of comments (prose outside R); and
    /// the same story whose container also holds a second part of equal length (a wider
    /// root would add good text) inside one wrapper.
    #[test]
    fn the_text_around_the_root_is_measured() {
        let story = paragraphs("Paragraph", 8);
        let alone = signals(&format!(
            "<html><body><div class=story><h1>Bridge</h1>{story}</div></body></html>"
        ));
        let comments: String = (0..12)
            .map(|k| {
                format!(
                    "<div class=comment>{}</div>",
                    paragraphs(&format!("Comment {k}"), 1)
                )
            })
            .collect();
        let commented = signals(&format!(
            "<html><body><div class=story><h1>Bridge</h1>{story}</div>\
             <div class=comments>{comments}</div></body></html>"
        ));
        assert!(alone.prose_outside_r < -3.0, "{}", alone.prose_outside_r);
        assert!(
            commented.prose_outside_r > alone.prose_outside_r + 3.0,
            "{} {}",
            commented.prose_outside_r,
            alone.prose_outside_r
        );
        // The story is R's one large part when R holds the story and a short box.
        let boxed = signals(&format!(
            "<html><body><div class=main><div class=story>{story}</div>\
             <div class=box><p>Our weekly letter brings the best stories to your inbox.</p>\
             </div></div></body></html>"
        ));
        assert!(
            boxed.largest_part_good_share > 0.8 && boxed.largest_part_good_share <= 1.0,
            "{}",
            boxed.largest_part_good_share
        );
        // Alone, R's parts are its paragraphs, an eighth of its good text each.
        assert!(
            (alone.largest_part_good_share - 0.125).abs() < 0.01,
            "{}",
            alone.largest_part_good_share
        );
        for s in [&alone, &commented, &boxed] {
            assert!(
                (0.0..=1.0).contains(&s.wider_good_gain),
                "{}",
                s.wider_good_gain
            );
            assert!((0.0..=1.0).contains(&s.other_region_good_share));
        }
        // The comments grow the page, not the output.
        assert!(commented.output_over_page < alone.output_over_page - 0.5);
    }
}
