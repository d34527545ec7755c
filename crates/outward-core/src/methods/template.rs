//! `template`: seed 001 (Yan, Wang 2020) on outward's cleaned page: the site's template
//! library, then a judgement of the blocks that remain.
//!
//! 1. The template library (see `site::leaves`): leaf texts with the same tag and a
//!    near-equal text (edit distance ≤ min(len) / 8; texts of ≤ 8 characters equal) on at
//!    least N2 = 3 of a batch of N1 = 10 pages of the host. Site memory builds it from the
//!    host's first ten sample pages (by page hash: the same batch whatever the page order).
//!    Every text of the page that matches it is removed.
//! 2. Blocks are `body`, `section` and `div`; a block's text is its own, not that of the
//!    blocks nested in it (the paper's unit).
//! 3. The paper then classifies blocks with an SVM over five ratios (R1-R5). Until a trained
//!    classifier is wired here, the judgement is the density rule the paper's R5 stands for:
//!    a block whose link text exceeds [`LINK_RATIO`] of its text (after step 1) is dropped,
//!    the rest kept, in page order.
//!
//! Without site memory of the host, step 1 removes nothing. Every node counts as parsed:
//! the method reads the whole page.

use crate::html::clean::IN_LINK;
use crate::methods::layout::LINK_RATIO;
use crate::site::leaves::{NO_BLOCK, leaf_runs, template_runs};
use crate::text::emit::{TextSink, emit_flat};
use crate::text::page_title::page_title;
use crate::{ExtractStats, Extraction, Extractor, Page, SiteContext};

pub struct Template;

impl Extractor for Template {
    fn name(&self) -> &'static str {
        "template"
    }

    /// `template` reads no run option.
    fn options_key(&self) -> String {
        String::new()
    }

    fn extract(&self, page: &Page, site: &SiteContext) -> Extraction {
        let cleaned = page.visible();
        let buf = &cleaned.buf;
        let (runs, blocks) = leaf_runs(cleaned);
        let is_template = match site.template_library() {
            Some(library) => template_runs(cleaned, &runs, library),
            None => vec![false; runs.len()],
        };
        // Each block's own text and link text, template leaves left out.
        let mut text = vec![0u64; blocks.len()];
        let mut links = vec![0u64; blocks.len()];
        for (r, &template) in runs.iter().zip(&is_template) {
            let Some(run) = cleaned.runs.get(r.run as usize) else {
                continue;
            };
            if template || r.block == NO_BLOCK {
                continue;
            }
            let w = run.measure.weight as u64;
            text[r.block as usize] += w;
            if run.flags & IN_LINK != 0 {
                links[r.block as usize] += w;
            }
        }
        let kept: Vec<bool> = text
            .iter()
            .zip(&links)
            .map(|(&t, &l)| t > 0 && l as f64 <= LINK_RATIO * t as f64)
            .collect();
        let skip: Vec<(u32, u32)> = runs
            .iter()
            .zip(&is_template)
            .filter(|(r, template)| **template || (r.block != NO_BLOCK && !kept[r.block as usize]))
            .map(|(r, _)| (r.start, r.end))
            .collect();
        let mut sink = TextSink::default();
        emit_flat(buf, &skip, &mut sink);
        Extraction {
            blocks: sink.finish(),
            title: page_title(cleaned),
            stats: ExtractStats::whole_page(page),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SiteMemoryBuilder;
    use crate::site::leaves::drawn_words as words;
    use crate::site::page_prints;

    fn page(n: usize) -> String {
        let story: String = (0..3)
            .map(|k| format!("<p>Story {n} part {k}: {}.</p>", words(n * 3 + k)))
            .collect();
        format!(
            "<body><div class=menu><a href=/a>Alpha</a> <a href=/b>Beta</a></div>\
             <div class=main><p class=by>Posted by the desk on 2015-0{}-1{}</p>{story}\
             <p>Read <a href=/more>more</a> about story {n}: {}.</p></div>\
             <div class=foot><p>Gazette, 1 Main Street, since 19{:02}.</p></div></body>",
            n % 9 + 1,
            n % 10,
            words(1000 + n),
            n % 100,
        )
    }

    #[test]
    fn near_equal_site_texts_go_and_link_blocks_go() {
        let mut b = SiteMemoryBuilder::default();
        for n in 0..10 {
            let url = format!("https://g.example/news/{n}");
            b.add(page_prints(&Page::new(&page(n), Some(&url))).unwrap());
        }
        let memory = b.finish(3);
        let html = page(42);
        let p = Page::new(&html, Some("https://g.example/news/42"));
        let site = memory.context(p.host());
        assert!(site.template_library().is_some_and(|l| l.len() >= 2));
        let text = Template.extract(&p, &site).text().to_string();
        for k in 0..3 {
            assert!(text.contains(&format!("Story 42 part {k}")), "{text}");
        }
        // Leaves are texts, not sentences: "Read" and the link "more" repeat on every page,
        // so they go as the paper has it; the words of this page stay.
        assert!(text.contains("about story 42"), "{text}");
        assert!(!text.contains("more"), "{text}");
        // The byline and the footer differ by a date on every page: template all the same.
        assert!(!text.contains("Posted by"), "{text}");
        assert!(!text.contains("Main Street"), "{text}");
        assert!(!text.contains("Alpha"), "{text}");

        // Alone, only the link rule applies.
        let alone = Template.extract(&p, SiteContext::none()).text().to_string();
        assert!(
            alone.contains("Posted by") && alone.contains("Main Street"),
            "{alone}"
        );
        assert!(!alone.contains("Alpha"), "{alone}");
    }
}
