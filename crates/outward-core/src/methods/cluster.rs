//! `cluster`: seed 003 (2017) on outward's cleaned page: pages of one template are
//! clustered by their tag paths, and per cluster the block rule with the highest summed
//! score H is applied to every page of the cluster (see `site::rules` for H, the rules and
//! the clustering).
//!
//! 1. The page's layout: its tag-path signature and every block with its score H and rule
//!    (`#id` > `tag.class` > tag path, the paper's priority).
//! 2. The rule: that of the host's cluster most similar to the page (site memory clusters
//!    the host's sample pages, up to 32); without one (no memory, a host with too few pages,
//!    a page of a template the samples do not show), the page is a cluster of one and its
//!    own best-scored block's rule applies.
//! 3. The block: of the page's blocks the rule names, the best scored; when the rule names
//!    none on this page, the page's own best block. Its text is the page's text.
//!
//! Every node counts as parsed: the method reads the whole page.

use crate::site::rules::page_layout;
use crate::text::emit::{TextSink, emit_flat};
use crate::text::page_title::page_title;
use crate::{ExtractStats, Extraction, Extractor, Page, SiteContext};

pub struct Cluster;

impl Extractor for Cluster {
    fn name(&self) -> &'static str {
        "cluster"
    }

    /// `cluster` reads no run option.
    fn options_key(&self) -> String {
        String::new()
    }

    fn extract(&self, page: &Page, site: &SiteContext) -> Extraction {
        let cleaned = page.visible();
        let layout = page_layout(cleaned);
        // The cluster's rule when site memory has one that names a block of this page (and
        // it is reported), else the page's own best-scored block.
        let (block, site_rule) = match site
            .cluster_rule(&layout.signature)
            .and_then(|c| Some((layout.block_for(&c.rule)?, c.rule.clone())))
        {
            Some((b, rule)) => (Some(b), Some(rule)),
            None => (layout.best_block(), None),
        };
        let mut sink = TextSink::default();
        if let Some(b) = block {
            let buf = &cleaned.buf;
            let (start, end) = (b.start as usize, (b.end as usize).min(buf.len()));
            emit_flat(&buf[start..end], &[], &mut sink);
        }
        Extraction {
            blocks: sink.finish(),
            title: page_title(cleaned),
            stats: ExtractStats::whole_page(page),
            site_rule,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::builder_of;
    use crate::site::leaves::drawn_words as words;

    /// An article page of a site: the story in `div.story`, a sidebar of short news
    /// (`div.side`), longer than the story on some pages.
    fn page(n: usize, side_items: usize) -> String {
        let story: String = (0..3)
            .map(|k| format!("<p>{}, {}.</p>", words(n * 3 + k), words(500 + n * 3 + k)))
            .collect();
        let side: String = (0..side_items)
            .map(|k| format!("<p>{}.</p>", words(9000 + n * 50 + k)))
            .collect();
        format!(
            "<body><div id=nav><a href=/>Home</a> <a href=/n>News</a></div>\
             <div class=story><h1>Story {n}</h1>{story}</div><div class=side>{side}</div></body>"
        )
    }

    #[test]
    fn the_clusters_rule_finds_the_story_where_the_page_alone_would_not() {
        let pages: Vec<(String, String)> = (0..6)
            .map(|n| (format!("https://g.example/news/{n}"), page(n, 2)))
            .collect();
        let memory = builder_of(&pages).finish(3);
        // This page's sidebar holds more prose than its story.
        let html = page(42, 12);
        let p = Page::new(&html, Some("https://g.example/news/42"));
        let alone = Cluster.extract(&p, SiteContext::none());
        assert!(!alone.text().contains("Story 42"), "{}", alone.text());
        // Judged alone, no site rule applied (the page's own best block was taken).
        assert_eq!(alone.site_rule, None);
        let site = memory.context(p.host());
        let layout = page_layout(p.visible());
        assert_eq!(
            site.cluster_rule(&layout.signature).unwrap().rule,
            "div.story"
        );
        let extraction = Cluster.extract(&p, &site);
        assert_eq!(extraction.site_rule.as_deref(), Some("div.story"));
        let text = extraction.text().to_string();
        assert!(text.starts_with("Story 42\n"), "{text}");
        assert!(!text.contains("Home"), "{text}");
        assert_eq!(text.lines().count(), 4, "{text}");
    }
}
