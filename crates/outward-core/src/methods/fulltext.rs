//! `fulltext`: every visible text node of the page, in document order, one line per block.
//! The baseline method.
//!
//! Built on the same cleaner as the partial methods (so "visible" means the same thing:
//! no head, script, style, template, comments, hidden elements, form controls; `<noscript>`
//! content only when the page has no other text) and the same text sink (entities decoded,
//! whitespace folded, empty lines dropped). A single forward token walk over the cleaned
//! buffer: no tree, no recursion. Every node of the page counts as parsed.

use crate::text::emit::{TextSink, emit_flat};
use crate::text::page_title::page_title;
use crate::{ExtractStats, Extraction, Extractor, Page, SiteContext};

pub struct Fulltext;

impl Extractor for Fulltext {
    fn name(&self) -> &'static str {
        "fulltext"
    }

    fn options_key(&self) -> String {
        String::new()
    }

    fn extract(&self, page: &Page, _site: &SiteContext) -> Extraction {
        let cleaned = page.visible();
        let mut sink = TextSink::default();
        emit_flat(&cleaned.buf, &[], &mut sink);
        Extraction {
            blocks: sink.finish(),
            title: page_title(cleaned),
            stats: ExtractStats::whole_page(page),
            site_rule: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_hidden_and_splits_blocks() {
        let html = "<html><head><title>T &amp; U</title><style>p{}</style></head><body>\
                    <p>Hello <b>big</b>\n world</p><script>var x='<p>no</p>';</script>\
                    <div>Second&nbsp;line</div><noscript>hidden</noscript><!-- c -->\
                    <p>A long visible paragraph keeps the noscript fallback off: it has sentences, \
                    commas, and enough words to count as the page's real text. Another sentence \
                    follows here, and one more, so the page is clearly not empty without scripts.</p>\
                    </body></html>";
        let ex = Fulltext.extract_html(html);
        let text = ex.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[..2], ["Hello big world", "Second line"]);
        assert_eq!(lines.len(), 3, "{}", ex.text());
        assert!(!ex.text().contains("hidden") && !ex.text().contains("var x"));
        assert_eq!(ex.title.as_deref(), Some("T & U"));
        assert_eq!(ex.stats.nodes_parsed, ex.stats.nodes_total);
        assert!(ex.stats.nodes_total >= 6, "{:?}", ex.stats);
    }

    #[test]
    fn noscript_only_page_keeps_noscript_text() {
        let html = "<html><body><noscript><p>Post one: the forum content served without JavaScript, \
                    long enough to count as text, with several sentences. And another sentence here.</p>\
                    </noscript></body></html>";
        assert!(
            Fulltext
                .extract_html(html)
                .text()
                .starts_with("Post one: the forum content")
        );
    }

    #[test]
    fn blocks_carry_the_kind_of_their_element() {
        use crate::BlockKind::*;
        let html = "<body><h2>Scores</h2><p>Per <a href=/x>set</a>:</p>\
                    <ol><li>dragnet<ul><li>same host</ul><li>wcxb</ol>\
                    <table><tr><th>set<th>F1<tr><td>a<td><div>0.9</div></table>\
                    <blockquote><p>Quoted.</p></blockquote><pre>let x = 1;</pre>\
                    <div>Line one<br>line two</div></body>";
        let ex = Fulltext.extract_html(html);
        let got: Vec<(crate::BlockKind, &str)> =
            ex.blocks.iter().map(|b| (b.kind, b.text)).collect();
        let cell = |header, row_start| TableCell { header, row_start };
        assert_eq!(
            got,
            [
                (Heading(2), "Scores"),
                (Paragraph, "Per set:"),
                (
                    ListItem {
                        ordered: true,
                        depth: 1
                    },
                    "dragnet"
                ),
                (
                    ListItem {
                        ordered: false,
                        depth: 2
                    },
                    "same host"
                ),
                (
                    ListItem {
                        ordered: true,
                        depth: 1
                    },
                    "wcxb"
                ),
                (cell(true, true), "set"),
                (cell(true, false), "F1"),
                (cell(false, true), "a"),
                (cell(false, false), "0.9"),
                (Quote, "Quoted."),
                (Preformatted, "let x = 1;"),
                (Paragraph, "Line one"),
                (Paragraph, "line two"),
            ]
        );
        assert_eq!(
            ex.render(crate::Format::Markdown),
            "## Scores\n\nPer set:\n\n1. dragnet\n  - same host\n2. wcxb\n\n\
             | set | F1 |\n| --- | --- |\n| a | 0.9 |\n\n> Quoted.\n\n\
             ```\nlet x = 1;\n```\n\nLine one\n\nline two"
        );
    }

    #[test]
    fn empty_page_gives_empty_text() {
        let ex = Fulltext.extract_html("<html><body>  </body></html>");
        assert_eq!(ex.text(), "");
        assert_eq!(ex.title, None);
    }
}
