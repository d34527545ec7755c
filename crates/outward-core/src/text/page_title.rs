//! Helpers shared by the partial-parse methods: the page title of a cleaned page and the
//! assembly of an [`Extraction`].
//!
//! Invariants: pure functions of the cleaned page; no parse beyond the `<h1>` range.

use crate::html::clean::Cleaned;
use crate::html::tokenize::TokenKind;
use crate::html::tokenize::forward::ForwardTokenizer;
use crate::text::emit::TextSink;
use crate::text::title::choose_title;

/// Text of `buf[start..end]` with tags dropped and everything joined on one line.
pub fn flat_text(buf: &[u8], start: usize, end: usize) -> String {
    let end = end.min(buf.len());
    let start = start.min(end);
    let mut sink = TextSink::default();
    for tok in ForwardTokenizer::new(&buf[..end], start) {
        if tok.kind == TokenKind::Text {
            sink.push_raw(&buf[tok.start as usize..tok.end as usize]);
        }
    }
    sink.finish().into_text()
}

/// Text of the page's first `<h1>`, if it has one and it is not the site's name (an `<h1>`
/// linking to the site's home page, [`Cleaned::h1_links_home`]: a blog's title over every
/// post names no page).
pub fn h1_text(cleaned: &Cleaned) -> Option<String> {
    let (s, e) = cleaned.headline()?;
    let t = flat_text(&cleaned.buf, s as usize, e as usize);
    (!t.is_empty()).then_some(t)
}

/// The page title (see `title`).
pub fn page_title(cleaned: &Cleaned) -> Option<String> {
    let h1 = h1_text(cleaned);
    choose_title(cleaned.title.as_deref(), h1.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::clean::{CleanOptions, clean};

    #[test]
    fn a_site_name_linking_home_is_no_page_title() {
        let title = |html: &str| page_title(&clean(html.as_bytes(), CleanOptions::default()));
        assert_eq!(
            title("<h1>The bridge vote</h1><p>Text.</p>").as_deref(),
            Some("The bridge vote")
        );
        assert_eq!(
            title("<h1><a href=\"/\">City Notes</a></h1><p>Text.</p>"),
            None
        );
        assert_eq!(
            title("<title>The bridge vote</title><h1><a href=\"/\">City Notes</a></h1>").as_deref(),
            Some("The bridge vote")
        );
    }
}
