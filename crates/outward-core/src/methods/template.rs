//! `template`: seed 001 (Yan, Wang 2020) on outward's cleaned page: the site's template
//! library, then the paper's block SVM on what remains.
//!
//! 1. The template library (see `site::leaves`): leaf texts with the same tag and a
//!    near-equal text (edit distance ≤ min(len) / 8; texts of ≤ 8 characters equal) on at
//!    least N2 = 3 of a batch of N1 = 10 pages of the host. Site memory builds it from the
//!    host's first ten sample pages (by page hash: the same batch whatever the page order).
//!    Every text of the page that matches it is removed.
//! 2. The block classifier of `svm` (R1..R5 of `body`/`section`/`div` blocks, RBF SVM; its
//!    shipped model or `--model`) judges the blocks of what remains; the text of the blocks it
//!    calls content is the page's text, in page order.
//!
//! Without site memory of the host, step 1 removes nothing and the method is `svm`. Every
//! node counts as parsed: the method reads the whole page.

use crate::methods::svm::Svm;
use crate::site::leaves::{leaf_runs, template_runs};
use crate::{ExtractOptions, Extraction, Extractor, Page, SiteContext};

pub struct Template {
    classifier: Svm,
}

impl Template {
    pub fn new(options: &ExtractOptions) -> Template {
        Template {
            classifier: Svm::new(options),
        }
    }
}

impl Extractor for Template {
    fn name(&self) -> &'static str {
        "template"
    }

    /// The classifier's model (see `svm`).
    fn options_key(&self) -> String {
        self.classifier.options_key()
    }

    fn extract(&self, page: &Page, site: &SiteContext) -> Extraction {
        let removed: Vec<u32> = match site.template_library().filter(|l| !l.is_empty()) {
            Some(library) => {
                let cleaned = page.visible();
                let runs = leaf_runs(cleaned);
                let template = template_runs(cleaned, &runs, library);
                runs.iter()
                    .zip(template)
                    .filter(|(_, t)| *t)
                    .map(|(r, _)| r.start)
                    .collect()
            }
            None => Vec::new(),
        };
        let mut extraction = self.classifier.extract_without(page, &removed);
        extraction.stats.template_removed = removed.len() as u32;
        extraction
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::builder_of;
    use crate::site::leaves::drawn_words as words;

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
    fn near_equal_site_texts_go_before_the_blocks_are_judged() {
        let pages: Vec<(String, String)> = (0..10)
            .map(|n| (format!("https://g.example/news/{n}"), page(n)))
            .collect();
        let memory = builder_of(&pages).finish(3);
        let html = page(42);
        let p = Page::new(&html, Some("https://g.example/news/42"));
        let site = memory.context(p.host());
        assert!(site.template_library().is_some_and(|l| l.len() >= 2));
        let text = Template::new(&ExtractOptions::default())
            .extract(&p, &site)
            .text()
            .to_string();
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

        // Alone, the page is judged by the classifier alone: `svm`.
        let alone = Template::new(&ExtractOptions::default()).extract(&p, SiteContext::none());
        assert_eq!(
            alone,
            Svm::new(&ExtractOptions::default()).extract(&p, SiteContext::none())
        );
        assert!(
            alone.text().contains("Posted by") && alone.text().contains("Main Street"),
            "{}",
            alone.text()
        );
    }
}
