//! `paper`: the published algorithm of seed paper 002, exactly, on the shared parser:
//! the two longest text nodes → their lowest common ancestor R (parsing outward from the
//! longest until R holds the second) → while R has a sibling with Sim ≥ threshold, R = its
//! parent → emit R's text. No other heuristics (no noscript fallback, no pruning).
//!
//! Invariants: nodes_parsed ≤ nodes_total; never panics; work linear-ish (Sim is bounded).

use crate::html::partial::PartialParse;
use crate::html::similarity::Similarity;
use crate::html::tree::Kind;
use crate::text::emit::{TextSink, emit_subtree};
use crate::text::page_title::page_title;
use crate::{Blocks, ExtractOptions, ExtractStats, Extraction, Extractor, Page, SiteContext};

pub struct Paper {
    pub threshold: f64,
}

impl Paper {
    pub fn new(options: &ExtractOptions) -> Self {
        Paper {
            threshold: options.similarity_threshold,
        }
    }
}

impl Extractor for Paper {
    fn name(&self) -> &'static str {
        "paper"
    }

    fn options_key(&self) -> String {
        format!("similarity={}", self.threshold)
    }

    fn extract(&self, page: &Page, _site: &SiteContext) -> Extraction {
        let cleaned = page.cleaned();
        let title = page_title(cleaned);
        let mut stats = ExtractStats {
            nodes_total: cleaned.nodes_total,
            ..ExtractStats::default()
        };
        // The two longest text nodes (by characters).
        let mut first: Option<usize> = None;
        let mut second: Option<usize> = None;
        for (i, run) in cleaned.runs.iter().enumerate() {
            let len = run.measure.chars;
            if first.is_none_or(|f| len > cleaned.runs[f].measure.chars) {
                second = first;
                first = Some(i);
            } else if second.is_none_or(|s| len > cleaned.runs[s].measure.chars) {
                second = Some(i);
            }
        }
        let Some(first) = first else {
            return Extraction {
                blocks: Blocks::default(),
                title,
                stats,
            };
        };
        let buf = &cleaned.buf;
        let mut pp = PartialParse::new(buf, cleaned.runs[first].start as usize);
        pp.read_start_node();
        let target = second.map(|s| cleaned.runs[s].start);
        // R: the lowest ancestor holding the second-longest text node.
        let mut level = 0;
        while let Some(id) = pp.complete_level(level) {
            let n = pp.tree.node(id);
            let holds = target.is_none_or(|t| n.start <= t && t < n.end);
            if holds || n.kind == Kind::Root {
                break;
            }
            level += 1;
        }
        let mut r = pp.spine[level.min(pp.spine.len() - 1)];
        // Climb while R has a similar sibling.
        while let Some(parent) = pp.complete_level(level + 1) {
            let mut sim = Similarity::new(&pp.tree, buf);
            let similar = pp.tree.children(parent).any(|s| {
                s != r
                    && pp.tree.node(s).kind == Kind::Element
                    && sim.sim(r, s, self.threshold) >= self.threshold
            });
            if !similar {
                break;
            }
            level += 1;
            r = parent;
        }
        let mut sink = TextSink::default();
        emit_subtree(&pp.tree, buf, r, &mut sink, |_| false);
        stats.nodes_parsed = pp.nodes_built();
        stats.bytes_touched = pp.bytes_touched();
        Extraction {
            blocks: sink.finish(),
            title,
            stats,
        }
    }
}
