//! `reverse`: the product method. Paper 002's reverse-order partial parse, with the seed and
//! the content root R chosen by evidence instead of by the two longest text nodes.
//!
//! 1. Clean (see `clean`); when the page shows almost no text but had `<noscript>`, clean
//!    again keeping it (Discourse and friends serve their content there).
//! 2. Score every block (line) of the cleaned page from the cleaner's flat statistics:
//!    good = text outside links, in blocks that are not link lists or boilerplate-hinted,
//!    halved when the block has no sentence punctuation; bad = link text + text in
//!    boilerplate-hinted elements. Prefix sums give any subtree's totals in O(log n).
//! 3. Seed = the block with the most good text. Parse outward from it one ancestor at a
//!    time; R = the ancestor maximising good − α·bad; stop one level above the best.
//! 4. Emit R, pruning block elements inside it that are boilerplate-hinted or link lists
//!    (seed 000 rules 1-2), never an ancestor of the seed.
//!
//! Invariants: only R's parent's subtree (plus the spine) is ever built;
//! nodes_parsed ≤ nodes_total; never panics.

use super::clean::{Block, CleanOptions, Cleaned, IN_BOILER, clean};
use super::emit::{TextSink, emit_subtree};
use super::page::page_title;
use super::partial::PartialParse;
use super::tree::{F_BOILER, Kind};
use super::{ExtractOptions, ExtractStats, Extraction, Extractor, Method};

/// Pages whose cleaned text weighs less than this get a second look with `<noscript>`.
const NOSCRIPT_RETRY_WEIGHT: u64 = 200;

pub struct Reverse {
    /// Weight of bad text against good text when choosing R.
    pub bad_weight: f64,
    /// Link text share above which a block (or an element inside R) is a link list.
    pub link_list_ratio: f64,
}

impl Reverse {
    pub fn new(_options: &ExtractOptions) -> Self {
        Reverse {
            bad_weight: 1.0,
            link_list_ratio: 0.5,
        }
    }
}

/// Per-block good/bad text and their prefix sums.
struct BlockScores {
    starts: Vec<u32>,
    /// prefix[i] = totals of blocks[..i].
    good: Vec<f64>,
    bad: Vec<f64>,
    weight: Vec<f64>,
    link: Vec<f64>,
}

struct Totals {
    good: f64,
    bad: f64,
    weight: f64,
    link: f64,
}

impl BlockScores {
    fn new(blocks: &[Block], link_list_ratio: f64) -> (Self, Vec<f64>) {
        let n = blocks.len();
        let mut s = BlockScores {
            starts: Vec::with_capacity(n),
            good: Vec::with_capacity(n + 1),
            bad: Vec::with_capacity(n + 1),
            weight: Vec::with_capacity(n + 1),
            link: Vec::with_capacity(n + 1),
        };
        let mut goods = Vec::with_capacity(n);
        let (mut g, mut b, mut w, mut l) = (0.0, 0.0, 0.0, 0.0);
        s.good.push(0.0);
        s.bad.push(0.0);
        s.weight.push(0.0);
        s.link.push(0.0);
        for blk in blocks {
            let weight = blk.weight as f64;
            let link = blk.link_weight as f64;
            let plain = weight - link;
            let boiler = blk.flags & IN_BOILER != 0;
            let link_list = weight > 0.0 && link > link_list_ratio * weight;
            let good = if boiler || link_list {
                0.0
            } else if blk.punct > 0 {
                plain
            } else {
                plain * 0.5
            };
            let bad = link + if boiler { plain } else { 0.0 };
            goods.push(good);
            s.starts.push(blk.start);
            g += good;
            b += bad;
            w += weight;
            l += link;
            s.good.push(g);
            s.bad.push(b);
            s.weight.push(w);
            s.link.push(l);
        }
        (s, goods)
    }

    /// Totals of the blocks starting in `[start, end)`.
    fn range(&self, start: u32, end: u32) -> Totals {
        let lo = self.starts.partition_point(|&s| s < start);
        let hi = self.starts.partition_point(|&s| s < end);
        let hi = hi.max(lo);
        Totals {
            good: self.good[hi] - self.good[lo],
            bad: self.bad[hi] - self.bad[lo],
            weight: self.weight[hi] - self.weight[lo],
            link: self.link[hi] - self.link[lo],
        }
    }
}

fn reclean_if_empty(html: &str, cleaned: Cleaned) -> Cleaned {
    if cleaned.text_weight >= NOSCRIPT_RETRY_WEIGHT || !cleaned.saw_noscript {
        return cleaned;
    }
    let again = clean(
        html.as_bytes(),
        CleanOptions {
            keep_noscript: true,
        },
    );
    if again.text_weight > cleaned.text_weight {
        again
    } else {
        cleaned
    }
}

impl Extractor for Reverse {
    fn method(&self) -> Method {
        Method::Reverse
    }

    fn extract(&self, html: &str) -> Extraction {
        let cleaned = reclean_if_empty(html, clean(html.as_bytes(), CleanOptions::default()));
        let title = page_title(&cleaned);
        let mut stats = ExtractStats {
            nodes_total: cleaned.nodes_total,
            ..ExtractStats::default()
        };
        let (scores, goods) = BlockScores::new(&cleaned.blocks, self.link_list_ratio);
        let seed = goods
            .iter()
            .enumerate()
            .filter(|(_, g)| **g > 0.0)
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(i, _)| i)
            .or_else(|| {
                // Nothing looks like content: fall back to the block with the most text.
                (0..cleaned.blocks.len())
                    .filter(|&i| cleaned.blocks[i].weight > 0)
                    .max_by_key(|&i| cleaned.blocks[i].weight - cleaned.blocks[i].link_weight)
            });
        let Some(seed) = seed else {
            return Extraction {
                text: String::new(),
                title,
                stats,
            };
        };
        let seed_at = cleaned.blocks[seed].seed;
        let buf = &cleaned.buf;
        let mut pp = PartialParse::new(buf, seed_at as usize);
        pp.read_start_node();

        // Climb: R = the ancestor maximising good - α·bad; stop once a level does not improve.
        let mut best_level = 0;
        let mut best_score = f64::NEG_INFINITY;
        let mut level = 0;
        while let Some(id) = pp.complete_level(level) {
            let n = pp.tree.node(id);
            let t = scores.range(n.start, n.end);
            let score = t.good - self.bad_weight * t.bad;
            if score > best_score {
                best_score = score;
                best_level = level;
            } else if score < best_score || level > best_level + 2 {
                break;
            }
            if n.kind == Kind::Root {
                break;
            }
            level += 1;
        }
        let r = pp.spine[best_level];

        // Prune link lists and boilerplate inside R (never an ancestor of the seed).
        let tree = &pp.tree;
        let ratio = self.link_list_ratio;
        let skip = |id: u32| {
            let n = tree.node(id);
            if n.kind != Kind::Element || !(n.tag.is_block() || n.tag == super::tags::Tag::Other) {
                return false;
            }
            if n.start <= seed_at && seed_at < n.end {
                return false;
            }
            if n.flags & F_BOILER != 0 {
                return true;
            }
            let t = scores.range(n.start, n.end);
            t.weight > 0.0 && t.link > ratio * t.weight
        };
        let mut sink = TextSink::default();
        emit_subtree(tree, buf, r, &mut sink, skip);
        stats.nodes_parsed = pp.nodes_built();
        stats.bytes_touched = pp.bytes_touched();
        Extraction {
            text: sink.finish(),
            title,
            stats,
        }
    }
}
