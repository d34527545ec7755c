//! `paper`: the published algorithm of seed paper 002, exactly, on the shared parser:
//! the two longest text nodes → their lowest common ancestor R (parsing outward from the
//! longest until R holds the second) → while R has a sibling with Sim ≥ threshold, R = its
//! parent → emit R's text. No other heuristics (no noscript fallback, no pruning).
//!
//! Invariants: nodes_parsed ≤ nodes_total; never panics; the climb's comparisons are bounded per
//! page (`ExtractOptions::max_comparisons`; when they run out the climb stops and the
//! extraction is marked degraded).

use crate::html::partial::PartialParse;
use crate::html::similarity::{SimMemo, Similarity};
use crate::html::tree::Kind;
use crate::text::emit::{TextSink, emit_subtree};
use crate::text::page_title::page_title;
use crate::{Blocks, ExtractOptions, ExtractStats, Extraction, Extractor, Page, SiteContext};

pub struct Paper {
    pub threshold: f64,
    pub max_comparisons: u64,
}

impl Paper {
    pub fn new(options: &ExtractOptions) -> Self {
        Paper {
            threshold: options.similarity_threshold,
            max_comparisons: options.max_comparisons,
        }
    }
}

impl Extractor for Paper {
    fn name(&self) -> &'static str {
        "paper"
    }

    fn options_key(&self) -> String {
        // The budget joins the key only when set, so runs without it keep their config hash.
        if self.max_comparisons == crate::DEFAULT_MAX_COMPARISONS {
            format!("similarity={}", self.threshold)
        } else {
            format!(
                "similarity={}; max_comparisons={}",
                self.threshold, self.max_comparisons
            )
        }
    }

    fn extract(&self, page: &Page, _site: &SiteContext) -> Extraction {
        let cleaned = page.cleaned();
        let title = page_title(cleaned);
        let mut stats = ExtractStats {
            nodes_total: cleaned.nodes_total,
            ..ExtractStats::of_page(page)
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
                site_rule: None,
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
        // Climb while R has a similar sibling (within the page's comparison budget).
        let mut memo = SimMemo::new(self.max_comparisons);
        while let Some(parent) = pp.complete_level(level + 1) {
            let mut sim = Similarity::new(&pp.tree, buf, &mut memo);
            let similar = pp.tree.children(parent).any(|s| {
                s != r
                    && pp.tree.node(s).kind == Kind::Element
                    && sim.sim(r, s, self.threshold) >= self.threshold
            });
            if !similar || memo.exhausted {
                break;
            }
            level += 1;
            r = parent;
        }
        let mut sink = TextSink::default();
        emit_subtree(&pp.tree, buf, r, &mut sink, |_| false);
        stats.nodes_parsed = pp.nodes_built();
        stats.bytes_touched = pp.bytes_touched();
        stats.similarity_pairs = memo.pairs;
        stats.work = pp.bytes_touched() + pp.nodes_built() + memo.pairs;
        stats.degraded = memo.exhausted;
        Extraction {
            blocks: sink.finish(),
            title,
            stats,
            site_rule: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An article (two long paragraphs) among `n` sibling sections of about its size and
    /// five other shapes.
    fn page(n: usize) -> String {
        let article = format!(
            "<section><p>{}</p><p>{}</p>{}</section>",
            "The article's first paragraph, long. ".repeat(20),
            "Its second paragraph, a little shorter. ".repeat(12),
            "<div><p>x</p></div>".repeat(30)
        );
        let other = |i: usize| {
            format!(
                "<section>{}</section>",
                "<div><span>y</span></div>".repeat(30 + i % 5)
            )
        };
        let others: String = (0..n).map(other).collect();
        format!("<html><body><main>{article}{others}</main></body></html>")
    }

    #[test]
    fn the_comparison_budget_stops_the_climb_and_marks_the_page() {
        let html = page(200);
        let unlimited = Paper {
            threshold: 0.8,
            max_comparisons: u64::MAX,
        }
        .extract_html(&html);
        assert!(!unlimited.stats.degraded);
        assert!(unlimited.stats.similarity_pairs > 1000);
        let tight = Paper {
            threshold: 0.8,
            max_comparisons: 1000,
        }
        .extract_html(&html);
        assert!(tight.stats.degraded);
        assert_eq!(tight.stats.similarity_pairs, 1000);
        assert!(tight.text().contains("The article's first paragraph"));
        assert!(tight.stats.nodes_parsed <= tight.stats.nodes_total);
        // The default is far above what this page asks.
        let default = Paper::new(&ExtractOptions::default()).extract_html(&html);
        assert!(!default.stats.degraded);
        assert_eq!(default.text(), unlimited.text());
    }
}
