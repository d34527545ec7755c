//! [`Page`]: one record's HTML, analysed once. Every method reads the same `Page`; none
//! cleans the page again. Analysis is the cleaner's single pass (see `html::clean`) and, for
//! a page that shows almost no text, or less than one of its `<noscript>` elements holds, a
//! second pass that keeps `<noscript>` content (Discourse and friends serve their content
//! there; Blogger serves its posts in a script and again there).
//!
//! Invariants: `cleaned()` is the page as written (`<noscript>` dropped), what the published
//! methods see; `visible()` is the page a reader sees, never lighter in text than
//! `cleaned()`; the host is lowercased, without user info or port.

use crate::html::clean::{CleanOptions, Cleaned, clean};
use std::borrow::Cow;

/// Pages whose cleaned text weighs less than this, or less than one `<noscript>` of theirs
/// holds (Blogger serves its posts in a script and again in `<noscript>`), get a second look
/// with `<noscript>` kept.
const NOSCRIPT_RETRY_WEIGHT: u64 = 200;

/// A page analysed for extraction.
#[derive(Debug)]
pub struct Page<'a> {
    html: &'a str,
    url: Option<&'a str>,
    host: Option<String>,
    cleaned: Cleaned,
    /// The page cleaned again keeping `<noscript>`, when that shows more text.
    with_noscript: Option<Cleaned>,
}

impl<'a> Page<'a> {
    /// Analyses `html`, the decoded text of a page fetched from `url` (when known).
    pub fn new(html: &'a str, url: Option<&'a str>) -> Page<'a> {
        let (cleaned, with_noscript) = analyse(html, CleanOptions::default());
        Page {
            html,
            url,
            host: url.and_then(host_of),
            cleaned,
            with_noscript,
        }
    }

    /// The page's HTML as decoded.
    pub fn html(&self) -> &'a str {
        self.html
    }

    /// Bytes of the decoded page its analysis read: all of them. The cleaner's one pass reads
    /// every byte (seeds are ranked over the whole page, and hints sit in any start tag); a
    /// first pass that skips attribute values plus a full reading of the climb's window costs
    /// more than that one pass (issue #38: 108 % of its instructions on dragnet), so no
    /// method reads less. A page cleaned twice (`<noscript>` kept) counts its bytes once.
    pub fn bytes_read(&self) -> u64 {
        self.html.len() as u64
    }

    /// The URL the page was fetched from.
    pub fn url(&self) -> Option<&'a str> {
        self.url
    }

    /// The URL's host, lowercased (`www.example.com`), when the URL has one.
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    /// The cleaned page as written: `<noscript>` content dropped.
    pub fn cleaned(&self) -> &Cleaned {
        &self.cleaned
    }

    /// The cleaned page a reader sees: as written, or with its `<noscript>` content when the
    /// page shows almost nothing else.
    pub fn visible(&self) -> &Cleaned {
        self.with_noscript.as_ref().unwrap_or(&self.cleaned)
    }

    /// The cleaned page with each second look switched: `noscript`, the page with its
    /// `<noscript>` content when it shows less text than that holds ([`Page::visible`]);
    /// `reveal_hidden`, the page with its heaviest hidden element shown when that holds more
    /// text than the page shows (the cleaner's second pass). Both on is [`Page::visible`];
    /// `reveal_hidden` off cleans the page again (for measuring `reverse`'s guards).
    pub fn view(&self, noscript: bool, reveal_hidden: bool) -> Cow<'_, Cleaned> {
        if reveal_hidden {
            return Cow::Borrowed(if noscript {
                self.visible()
            } else {
                self.cleaned()
            });
        }
        let (cleaned, with_noscript) = analyse(
            self.html,
            CleanOptions {
                hidden_stays_hidden: true,
                ..CleanOptions::default()
            },
        );
        Cow::Owned(match with_noscript {
            Some(again) if noscript => again,
            _ => cleaned,
        })
    }
}

/// `html` cleaned with `options`, and again with `<noscript>` kept when the page shows
/// less than [`NOSCRIPT_RETRY_WEIGHT`] of text or less than one `<noscript>` element holds
/// (that second cleaning only when it shows more).
fn analyse(html: &str, options: CleanOptions) -> (Cleaned, Option<Cleaned>) {
    let cleaned = clean(html.as_bytes(), options);
    let with_noscript = ((cleaned.text_weight < NOSCRIPT_RETRY_WEIGHT
        || cleaned.noscript_max > cleaned.text_weight)
        && cleaned.saw_noscript)
        .then(|| {
            clean(
                html.as_bytes(),
                CleanOptions {
                    keep_noscript: true,
                    ..options
                },
            )
        })
        .filter(|again| again.text_weight > cleaned.text_weight);
    (cleaned, with_noscript)
}

/// The host of an absolute URL (`scheme://[user@]host[:port]/…`), lowercased.
pub fn host_of(url: &str) -> Option<String> {
    let rest = &url[url.find("://")? + 3..];
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let host_port = &authority[authority.rfind('@').map_or(0, |at| at + 1)..];
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        &host_port[..v6.find(']').map_or(host_port.len(), |end| end + 2)]
    } else {
        &host_port[..host_port.find(':').unwrap_or(host_port.len())]
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        let cases = [
            ("https://www.Example.com/a/b?c#d", Some("www.example.com")),
            ("http://user:pw@host.org:8080/x", Some("host.org")),
            ("http://[2001:db8::1]:80/", Some("[2001:db8::1]")),
            ("https://example.com?q=1", Some("example.com")),
            ("https://example.com", Some("example.com")),
            ("mailto:someone@example.com", None),
            ("/relative/path", None),
            ("http:///nohost", None),
        ];
        for (url, want) in cases {
            assert_eq!(host_of(url).as_deref(), want, "{url}");
        }
    }

    #[test]
    fn noscript_is_kept_only_when_the_page_shows_less_than_it_holds() {
        let empty = "<body><div id=app></div><noscript><p>The whole forum post, readable \
                     without scripts, with enough words to count as text.</p></noscript></body>";
        let page = Page::new(empty, None);
        assert_eq!(page.cleaned().text_weight, 0);
        assert!(page.visible().text_weight > 0);

        let article = format!(
            "<body><p>{}</p><noscript><p>Please enable JavaScript.</p></noscript></body>",
            "An article paragraph with words. ".repeat(20)
        );
        let page = Page::new(&article, Some("https://News.example/a"));
        assert!(std::ptr::eq(page.visible(), page.cleaned()));
        assert_eq!(page.host(), Some("news.example"));

        // ai.googleblog.com: the post is written by a script and again in `<noscript>`; the
        // page shows a sidebar archive, heavier than the threshold but lighter than the post.
        let blogger = format!(
            "<body><ul>{}</ul><script>document.write(post)</script><noscript><p>{}</p>\
             </noscript></body>",
            "<li><a href=/2020/07>July 2020</a></li>".repeat(30),
            "High dynamic range imaging captures shadows and highlights. ".repeat(20)
        );
        let page = Page::new(&blogger, None);
        assert!(page.cleaned().text_weight > NOSCRIPT_RETRY_WEIGHT);
        assert!(page.visible().text_weight > 2 * page.cleaned().text_weight);
    }
}
