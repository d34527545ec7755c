//! `reverse`'s per-block scores: which blocks (lines) of the cleaned page are good text (content,
//! halved without sentence punctuation), bad text (hard boilerplate, half of each link
//! list), link lists, listed content and menu items, as prefix sums so that any element's
//! totals are two binary searches away; and the page's template from site memory, whose
//! blocks count as neither.
//!
//! Invariants: one pass over the blocks per [`BlockScores::new`]; every prefix sum has
//! `blocks + 1` entries, starting at 0, never decreasing.

use crate::SiteContext;
use crate::html::clean::{BlockStats, Cleaned};
use crate::site::template_ranges;

/// Share of its text a block without sentence punctuation counts as good.
pub(super) const UNPUNCTUATED_GOOD: f64 = 0.5;

/// A link-list block with less text than this is a menu item, not a list item (a product
/// name, a headline).
const MENU_ITEM_WEIGHT: f64 = 15.0;

/// Weight of bad text against good text when choosing R (α in good − α·bad).
pub(super) const BAD_WEIGHT: f64 = 1.0;

/// Link text share above which a block (or an element inside R) is a link list.
pub(super) const LINK_LIST_RATIO: f64 = 0.6;

/// Link lists count this much against R: pruning removes most of them from the output.
pub(super) const LINK_LIST_BAD: f64 = 0.5;

/// whose links are part of the text (a Wikipedia lead) rather than a list of links.
const PROSE_PLAIN_RUNS: u32 = 3;

/// A block whose text is mostly links, and not prose that links many of its words.
fn is_link_list(blk: &BlockStats) -> bool {
    let weight = blk.weight as f64;
    let prose = blk.plain_runs >= PROSE_PLAIN_RUNS
        && blk.link_runs >= PROSE_PLAIN_RUNS
        && blk.punct >= 2
        && (blk.weight - blk.link_weight) as f64 >= 0.15 * weight;
    weight > 0.0 && blk.link_weight as f64 > LINK_LIST_RATIO * weight && !prose
}

/// The page's template, from site memory: the outermost elements seen on enough pages of
/// the host, and which blocks lie inside them.
pub(super) struct Template {
    /// Sorted, disjoint byte ranges of the cleaned buffer.
    pub(super) ranges: Vec<(u32, u32)>,
    /// Per block of the cleaned page (empty when there is no template): inside a range.
    blocks: Vec<bool>,
}

impl Template {
    pub(super) fn new(cleaned: &Cleaned, site: &SiteContext) -> Self {
        let ranges = template_ranges(cleaned, site);
        let mut blocks = Vec::new();
        if !ranges.is_empty() {
            let mut k = 0;
            blocks = cleaned
                .blocks
                .iter()
                .map(|b| {
                    while k < ranges.len() && ranges[k].1 <= b.start {
                        k += 1;
                    }
                    ranges
                        .get(k)
                        .is_some_and(|&(s, e)| s <= b.start && b.start < e)
                })
                .collect();
        }
        Template { ranges, blocks }
    }

    /// No template: what the page's shares are measured against (see `run`).
    pub(super) fn none() -> Self {
        Template {
            ranges: Vec::new(),
            blocks: Vec::new(),
        }
    }

    /// Whether an element starting at `start` is one of the template's outermost elements.
    pub(super) fn starts_at(&self, start: u32) -> bool {
        self.ranges.binary_search_by_key(&start, |r| r.0).is_ok()
    }
}

/// Per-block good/bad text and their prefix sums.
pub(super) struct BlockScores {
    pub(super) starts: Vec<u32>,
    /// prefix[i] = totals of blocks[..i].
    pub(super) good: Vec<f64>,
    pub(super) bad: Vec<f64>,
    pub(super) weight: Vec<f64>,
    pub(super) link: Vec<f64>,
    /// Text of blocks outside hard boilerplate and the template, link lists included.
    pub(super) content: Vec<f64>,
    /// Text of hard boilerplate blocks.
    pub(super) hard: Vec<f64>,
    /// Text of menu items: short link lists outside hard boilerplate and the template.
    pub(super) menu: Vec<f64>,
}

pub(super) struct Totals {
    pub(super) good: f64,
    pub(super) bad: f64,
    pub(super) weight: f64,
    pub(super) link: f64,
    pub(super) content: f64,
    pub(super) hard: f64,
    pub(super) menu: f64,
}

impl BlockScores {
    /// `boiler(block)`: 0 = not boilerplate, otherwise the factor its good text keeps (0 =
    /// hard boilerplate, which also counts as bad text).
    pub(super) fn new(
        blocks: &[BlockStats],
        template: &Template,
        boiler: impl Fn(&BlockStats) -> Option<f64>,
    ) -> (Self, Vec<f64>) {
        let n = blocks.len();
        let mut s = BlockScores {
            starts: Vec::with_capacity(n),
            good: Vec::with_capacity(n + 1),
            bad: Vec::with_capacity(n + 1),
            weight: Vec::with_capacity(n + 1),
            link: Vec::with_capacity(n + 1),
            content: Vec::with_capacity(n + 1),
            hard: Vec::with_capacity(n + 1),
            menu: Vec::with_capacity(n + 1),
        };
        let mut goods = Vec::with_capacity(n);
        let (mut g, mut b, mut w, mut l, mut c, mut h) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        let mut m = 0.0;
        s.menu.push(0.0);
        s.content.push(0.0);
        s.hard.push(0.0);
        s.good.push(0.0);
        s.bad.push(0.0);
        s.weight.push(0.0);
        s.link.push(0.0);
        for (i, blk) in blocks.iter().enumerate() {
            let weight = blk.weight as f64;
            let link = blk.link_weight as f64;
            let keep = boiler(blk);
            let link_list = is_link_list(blk);
            let hard_boiler = keep == Some(0.0);
            let in_template = template.blocks.get(i).copied().unwrap_or(false);
            let good = if hard_boiler || link_list || in_template {
                0.0
            } else {
                // Links inside running text are content.
                let g = if blk.punct > 0 {
                    weight
                } else {
                    weight * UNPUNCTUATED_GOOD
                };
                g * keep.unwrap_or(1.0)
            };
            let bad = if hard_boiler {
                weight
            } else if link_list {
                LINK_LIST_BAD * weight
            } else {
                0.0
            };
            goods.push(good);
            s.starts.push(blk.start);
            g += good;
            b += bad;
            w += weight;
            // Only the links of link lists count against an element (prose keeps its links).
            if link_list {
                l += link;
            }
            if hard_boiler {
                h += weight;
            } else if !in_template {
                c += weight;
                if link_list && weight < MENU_ITEM_WEIGHT {
                    m += weight;
                }
            }
            s.menu.push(m);
            s.content.push(c);
            s.hard.push(h);
            s.good.push(g);
            s.bad.push(b);
            s.weight.push(w);
            s.link.push(l);
        }
        (s, goods)
    }

    /// The blocks starting in `[start, end)`: `blocks[lo..hi]`.
    pub(super) fn block_span(&self, start: u32, end: u32) -> (usize, usize) {
        let lo = self.starts.partition_point(|&s| s < start);
        let hi = self.starts.partition_point(|&s| s < end);
        (lo, hi.max(lo))
    }

    /// Totals of the blocks starting in `[start, end)`.
    pub(super) fn range(&self, start: u32, end: u32) -> Totals {
        let (lo, hi) = self.block_span(start, end);
        Totals {
            good: self.good[hi] - self.good[lo],
            bad: self.bad[hi] - self.bad[lo],
            weight: self.weight[hi] - self.weight[lo],
            link: self.link[hi] - self.link[lo],
            content: self.content[hi] - self.content[lo],
            hard: self.hard[hi] - self.hard[lo],
            menu: self.menu[hi] - self.menu[lo],
        }
    }
}
