//! The window of windowed reading (issue #38): from the skim alone
//! ([`crate::html::clean::skim`]), the part of the raw page the content root lies in, so
//! that the full reading (the cleaner, the climb, the partial parse) can run over it instead
//! of over the page. Seeds are ranked as `seeds` ranks the cleaner's blocks
//! ([`rank_seeds`], the same neighbourhood score) on what the skim measured: text outside
//! links is good (halved without a sentence mark, [`UNPUNCTUATED_GOOD`]), a link list (link
//! text over [`LINK_LIST_RATIO`]) counts [`LINK_LIST_BAD`] of its text as bad, a block inside `nav`/`aside`/`footer`
//! is bad (for the seed, soft: it keeps [`SOFT_BOILER`] of its good text). From the best
//! seed the climb walks the skim's elements upward and keeps the ancestor with the most
//! good − bad text (looking `climb`'s `LOOKAHEAD_LEVELS` past the best, as `climb` does);
//! the window is that ancestor, widened by a number of levels the caller chooses.
//!
//! Not used by `reverse`: measured 2026-11-29 (`examples/windowed_reading.rs`, callgrind,
//! dragnet's 1,381 pages), the skim (1,277M instructions) plus the cleaner over its window
//! (1,044M; the window is a median 33 % of a page's bytes, but it is where the tags and text
//! are) cost 108 % of the cleaner over the whole page (2,149M), and the window holds the
//! default method's output (≥ 95 % of its tokens) on 87.5 % of the dev pages. Even a free
//! ranking over the bare lexing floor (664M) would save a fifth of the cleaner. See
//! `docs/design.md`, "Measured facts".
//!
//! Invariants: one pass over the blocks and one walk up the elements; never panics; the
//! window is an element's raw byte range (it starts at a `<`), or the whole page.

use super::climb::LOOKAHEAD_LEVELS;
use super::scores::{BAD_WEIGHT, LINK_LIST_BAD, LINK_LIST_RATIO, UNPUNCTUATED_GOOD};
use super::seeds::{SOFT_BOILER, rank_seeds};
use crate::html::clean::skim::{NO_PARENT, Skim, SkimBlock};

/// A block's good and bad text; `soft`: for ranking seeds (boilerplate keeps some good).
fn block_value(b: &SkimBlock, soft: bool) -> (f64, f64) {
    let text = f64::from(b.text);
    if f64::from(b.link_text) > LINK_LIST_RATIO * text {
        return (0.0, LINK_LIST_BAD * text);
    }
    let mut good = text - f64::from(b.link_text);
    if b.marks == 0 {
        good *= UNPUNCTUATED_GOOD;
    }
    match (b.boiler, soft) {
        (false, _) => (good, 0.0),
        (true, true) => (SOFT_BOILER * good, text),
        (true, false) => (0.0, text),
    }
}

/// The raw byte range `[start, end)` of the page `skim` read that holds the content root,
/// widened by `widen` levels above the climb's best ancestor; `None` when the page has no
/// text.
pub fn window(skim: &Skim, page_len: usize, widen: usize) -> Option<(usize, usize)> {
    let blocks = &skim.blocks;
    if blocks.is_empty() {
        return None;
    }
    let (goods, bads): (Vec<f64>, Vec<f64>) = blocks.iter().map(|b| block_value(b, true)).unzip();
    let ranked = rank_seeds(&goods, &bads, || {
        (0..blocks.len()).max_by_key(|&i| blocks[i].text - blocks[i].link_text)
    });
    let &(seed, _) = ranked.first()?;
    // Prefix sums of good − bad (hard boilerplate) over the blocks, by start offset.
    let mut net = Vec::with_capacity(blocks.len() + 1);
    net.push(0.0);
    for b in blocks {
        let (g, bad) = block_value(b, false);
        net.push(net.last().copied().unwrap_or(0.0) + g - BAD_WEIGHT * bad);
    }
    let starts: Vec<u32> = blocks.iter().map(|b| b.start).collect();
    let value = |start: u32, end: u32| {
        let lo = starts.partition_point(|&s| s < start);
        let hi = starts.partition_point(|&s| s < end).max(lo);
        net[hi] - net[lo]
    };
    let mut at = blocks[seed].element;
    if at == NO_PARENT {
        return Some((0, page_len));
    }
    let (mut best, mut best_value, mut since_best) = (at, f64::MIN, 0);
    while at != NO_PARENT {
        let e = skim.elements[at as usize];
        let v = value(e.start, e.end);
        if v > best_value {
            (best, best_value, since_best) = (at, v, 0);
        } else {
            since_best += 1;
            if since_best > LOOKAHEAD_LEVELS {
                break;
            }
        }
        at = e.parent;
    }
    let mut chosen = best;
    for _ in 0..widen {
        match skim.elements[chosen as usize].parent {
            NO_PARENT => return Some((0, page_len)),
            p => chosen = p,
        }
    }
    let e = skim.elements[chosen as usize];
    Some((e.start as usize, (e.end as usize).min(page_len)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::clean::skim::skim;

    #[test]
    fn the_window_is_the_article_not_the_page() {
        let story = "<p>A sentence of the story, long enough to count. And one more.</p>".repeat(8);
        let page = format!(
            "<html><body><nav><a href=/>Home</a> <a href=/a>About</a></nav>\
             <div id=main><article>{story}</article><aside>Related: one, two.</aside></div>\
             <footer>Copyright, all rights reserved.</footer></body></html>"
        );
        let s = skim(page.as_bytes());
        let (start, end) = window(&s, page.len(), 0).expect("a page with text");
        assert!(page[start..].starts_with("<article>"), "{}", &page[start..]);
        assert!(page[..end].ends_with("</article>"));
        // One level wider: the article's container, still not the page.
        let (start, _) = window(&s, page.len(), 1).expect("a page with text");
        assert!(page[start..].starts_with("<div id=main>"));
        assert_eq!(window(&skim(b"<p> </p>"), 8, 0), None);
    }
}
