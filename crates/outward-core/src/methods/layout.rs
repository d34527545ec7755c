//! `layout`: seed 000 (Yang, Li, Geng 2015), layout similarity between pages of one site, as
//! published, on outward's cleaned page.
//!
//! 1. Preprocessing is the cleaner's (scripts, styles, forms' controls, hidden elements,
//!    comments gone; see `html::clean`); `form` itself is kept (ASP.NET wraps whole pages in
//!    one) — the one departure from the paper's list.
//! 2. The reference page: of the pages site memory kept whole for this host, the one whose
//!    URL is most similar, cl / max(la, lb), preferring similarity below 1
//!    ([`SiteContext::reference_for`]).
//! 3. Every element identical to one of the reference page (same tag, same id/class, same
//!    content recursively: equal fingerprints, see `site::fingerprint`) is removed. Only block
//!    and unknown elements are candidates: an inline element inside running text never is
//!    (the guard the prototype measured).
//! 4. Link rules on what remains, at the innermost blocks: rule 1, link text / text >
//!    [`LINK_RATIO`] drops the block; rule 2 (only links separated by no real text) is the
//!    case of rule 1 with a ratio near 1.
//! 5. The text of everything left, in document order.
//!
//! Without a reference page (no site memory, a host with too few pages) steps 3 is skipped
//! and the page is judged by the link rules alone. Every node counts as parsed: the method
//! reads the whole page.

use crate::site::fingerprint::element_prints;
use crate::site::outermost;
use crate::text::emit::{TextSink, emit_flat};
use crate::text::page_title::page_title;
use crate::{ExtractStats, Extraction, Extractor, Page, SiteContext};

/// Rule 1: a block whose link text exceeds this share of its text is navigation (the paper
/// gives 0.25-0.3).
pub const LINK_RATIO: f64 = 0.3;

pub struct Layout;

impl Extractor for Layout {
    fn name(&self) -> &'static str {
        "layout"
    }

    /// `layout` reads no run option.
    fn options_key(&self) -> String {
        String::new()
    }

    fn extract(&self, page: &Page, site: &SiteContext) -> Extraction {
        let cleaned = page.visible();
        let (prints, root) = element_prints(cleaned);
        let reference = page.url().and_then(|url| site.reference_for(url, root));
        // Prints come children first: an element holds another print exactly when the print
        // just before it lies inside it.
        let mut dropped = Vec::new();
        let mut identical_prints = Vec::new();
        for (i, p) in prints.iter().enumerate() {
            let identical = reference.is_some_and(|r| r.elements.binary_search(&p.hash).is_ok());
            let innermost = i == 0 || prints[i - 1].start < p.start;
            let links = p.weight.saturating_sub(p.plain) as f64;
            let navigation = innermost && links > LINK_RATIO * p.weight as f64;
            if identical || navigation {
                dropped.push(*p);
            }
            if identical {
                identical_prints.push(*p);
            }
        }
        let skip = outermost(dropped);
        let template_removed = outermost(identical_prints).len() as u32;
        let mut sink = TextSink::default();
        emit_flat(&cleaned.buf, &skip, &mut sink);
        Extraction {
            blocks: sink.finish(),
            title: page_title(cleaned),
            stats: ExtractStats {
                template_removed,
                ..ExtractStats::whole_page(page)
            },
            site_rule: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::builder_of;

    fn page(section: &str, n: usize) -> String {
        let story: String = (0..4)
            .map(|k| format!("<p>Item {n} line {k} of the {section} section, its own words.</p>"))
            .collect();
        format!(
            "<body><div class=menu><ul><li><a href=/a>Alpha</a></li><li><a href=/b>Beta</a></li></ul></div>\
             <div class=side><p>The {section} desk answers letters every Monday.</p></div>\
             <div class=main>{story}<p>Read <a href=/more>more</a> about item {n} and its story in our archive, every week.</p></div>\
             <div class=foot><p>Gazette, 1 Main Street.</p></div></body>"
        )
    }

    #[test]
    fn blocks_identical_to_the_reference_page_go_and_link_blocks_go() {
        let pages: Vec<(String, String)> = [("news", 1), ("news", 2), ("sport", 3)]
            .into_iter()
            .map(|(section, n)| (format!("https://g.example/{section}/{n}"), page(section, n)))
            .collect();
        let memory = builder_of(&pages).finish(3);
        let html = page("news", 9);
        let p = Page::new(&html, Some("https://g.example/news/9"));
        let site = memory.context(p.host());
        // The reference is a news page (similarity 1/2), not the sport one (0).
        let (_, root) = element_prints(p.visible());
        let reference = site
            .reference_for("https://g.example/news/9", root)
            .unwrap();
        assert!(reference.url.contains("/news/"), "{}", reference.url);
        let extraction = Layout.extract(&p, &site);
        // The menu's list, the news desk box and the footer: identical on the reference.
        assert_eq!(extraction.stats.template_removed, 3);
        let text = extraction.text().to_string();
        for k in 0..4 {
            assert!(text.contains(&format!("Item 9 line {k}")), "{text}");
        }
        // The menu (links), the news desk box and the footer (identical on the reference).
        assert!(!text.contains("Alpha"), "{text}");
        assert!(!text.contains("desk answers"), "{text}");
        assert!(!text.contains("Main Street"), "{text}");
        // Prose with one link stays (a link word in a sentence).
        assert!(text.contains("Read more about item 9"), "{text}");

        // Alone, only the link rules apply.
        let alone = Layout.extract(&p, SiteContext::none()).text().to_string();
        assert!(
            alone.contains("desk answers") && !alone.contains("Alpha"),
            "{alone}"
        );
    }
}
