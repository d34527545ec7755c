//! The `notices` guard: a short block that only tells the reader what the page needs to
//! work — "This slideshow requires JavaScript.", "You need to enable JavaScript to run this
//! app.", "Powered by Discourse, best viewed with JavaScript enabled", "Please update your
//! browser!" — is page chrome, not the story: the `<noscript>` fallbacks that are left
//! visible, and the banners of pages built for scripts. It sits inside R often (a gallery's
//! fallback line in the article body, a forum's footer in the thread's container), where no
//! boilerplate hint marks it.
//!
//! A notice is an element of at most [`NOTICE_MAX_WORDS`] words that names JavaScript with
//! a word of need (enable, require, disabled, turn on, not supported, best viewed, …), or
//! says the browser does not support the page or needs an update. Sentences *about*
//! JavaScript ("React components are JavaScript functions") name no need; long ones are
//! prose. Never an ancestor of the seed.
//!
//! Measured: see `docs/methods.md` (the rules table) and the commit that added it. On the
//! `fulltext` of all 4,866 dev pages these words match 22 lines, none of them in a truth.

use crate::html::tree::Tree;
use crate::methods::reverse::scores::BlockScores;
use crate::text::page_title::flat_text;
use memchr::memmem::Finder;
use std::sync::LazyLock;

/// A notice has at most this many words.
pub(in crate::methods::reverse) const NOTICE_MAX_WORDS: usize = 12;

/// Text weight above which an element cannot be a notice (a cheap test before its text is
/// read: twelve long words).
const NOTICE_MAX_WEIGHT: f64 = 160.0;

/// Words that, beside "JavaScript", make a line a notice.
const NEED_WORDS: &[&str] = &[
    "enable",
    "enabled",
    "require",
    "requires",
    "required",
    "disabled",
    "need",
    "needs",
    "activate",
    "activated",
    "unavailable",
];
/// Phrases that, beside "JavaScript", make a line a notice.
const NEED_PHRASES: &[&str] = &[
    "turn on",
    "turned off",
    "not available",
    "not supported",
    "not enabled",
    "does not support",
    "doesn't support",
    "best viewed",
];
/// Phrases that make a line a notice alone.
const BROWSER_PHRASES: &[&str] = &[
    "browser does not support",
    "browser doesn't support",
    "upgrade your browser",
    "update your browser",
    "browser is out of date",
    "browser is not supported",
    "outdated browser",
];

/// Parts of "JavaScript" and "browser" in their usual cases, searchers built once.
static NAME_PARTS: LazyLock<[Finder<'static>; 4]> =
    LazyLock::new(|| [b"ava".as_slice(), b"AVA", b"rowser", b"ROWSER"].map(Finder::new));

/// Whether element `id` of `tree` (over the cleaned `buf`) is a notice (see the module doc).
pub(in crate::methods::reverse) fn is_notice(
    tree: &Tree,
    buf: &[u8],
    scores: &BlockScores,
    id: u32,
) -> bool {
    let n = tree.node(id);
    let t = scores.range(n.start, n.end);
    if t.weight <= 0.0 || t.weight > NOTICE_MAX_WEIGHT {
        return false;
    }
    let bytes = &buf[n.start as usize..(n.end as usize).min(buf.len())];
    // Most short blocks name neither: skip reading their text.
    let names_either = NAME_PARTS.iter().any(|w| w.find(bytes).is_some());
    names_either && says_what_the_page_needs(&flat_text(buf, n.start as usize, n.end as usize))
}

/// Whether `text` is a notice's text (see the module doc).
pub(in crate::methods::reverse) fn says_what_the_page_needs(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() || words.len() > NOTICE_MAX_WORDS {
        return false;
    }
    let line = words.join(" ").to_lowercase();
    if BROWSER_PHRASES.iter().any(|p| line.contains(p)) {
        return true;
    }
    if !line.contains("javascript") && !line.contains("java script") {
        return false;
    }
    line.split(|c: char| !(c.is_ascii_alphabetic() || c == '\''))
        .any(|w| NEED_WORDS.contains(&w))
        || NEED_PHRASES.iter().any(|p| line.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_and_sentences_about_javascript() {
        for notice in [
            "This slideshow requires JavaScript.",
            "You need to enable JavaScript to run this app.",
            "Powered by Discourse, best viewed with JavaScript enabled",
            "Please turn on your JavaScript for this page to function normally.",
            "Please update your browser!",
            "Your browser does not support the video tag.",
        ] {
            assert!(says_what_the_page_needs(notice), "{notice}");
        }
        for prose in [
            "React components are JavaScript functions that return markup:",
            "JavaScript bindings are available via NPM:",
            "Write custom JavaScript or Python",
            // Long: prose about the subject, not a notice.
            "Basic workflows require no coding, but having JavaScript or API knowledge helps \
             when building advanced logic.",
            "",
        ] {
            assert!(!says_what_the_page_needs(prose), "{prose}");
        }
    }
}
