//! The `notices` guard: a short block that speaks to the reader about the page instead of
//! telling the story is page chrome. Two kinds:
//! - what the page needs to work — "This slideshow requires JavaScript.", "You need to
//!   enable JavaScript to run this app.", "Powered by Discourse, best viewed with JavaScript
//!   enabled", "Please update your browser!": the `<noscript>` fallbacks left visible, the
//!   banners of pages built for scripts;
//! - a prompt to sign in, sign up or subscribe — "Sign up using Email and Password",
//!   "Please Log in or Create an account to join the conversation.", "You must be logged in
//!   to post a comment.", "Subscribe to our newsletter".
//!
//! Both sit inside R often (a gallery's fallback line in the article body, a thread's
//! sign-in box in its container, a newsletter line after the story), where no boilerplate
//! hint marks them.
//!
//! A notice is the innermost block (one holding no other block) of at most
//! [`NOTICE_MAX_WORDS`] words that names JavaScript with a word of need (enable, require,
//! disabled, turn on, not supported, best viewed, …), says the browser does not support the
//! page or needs an update, opens with a prompt (log in, sign up, register, subscribe,
//! create an account, … — a whole word: "Registered: 2004" is a profile line) or holds
//! one ("must be logged in", "subscribe to our newsletter", …). Sentences *about*
//! JavaScript ("React components are JavaScript functions") name no need; long lines are
//! prose. Never an ancestor of the seed.
//!
//! Measured: see `docs/methods.md` (the rules table) and the commit that added it.

use crate::html::tree::{Kind, Tree};
use crate::methods::reverse::scores::BlockScores;
use crate::text::page_title::flat_text;
use aho_corasick::AhoCorasick;
use std::sync::LazyLock;

/// A notice has at most this many words.
pub(in crate::methods::reverse) const NOTICE_MAX_WORDS: usize = 12;

/// Text weight above which an element cannot be a notice (a cheap test before its text is
/// read: twelve long words).
const NOTICE_MAX_WEIGHT: f64 = 160.0;

/// Bytes of cleaned markup above which an element cannot be a notice: twelve words and the
/// few canonical tags (name, id, class) of a banner or a fallback line.
const NOTICE_MAX_BYTES: usize = 1024;

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

/// Openings (after an optional "please ") that make a short line a prompt to sign in, sign
/// up or subscribe: followed by a space, punctuation or the end, never by a letter
/// ("Registered: 2004" is a profile line, not a prompt).
const PROMPT_OPENINGS: &[&str] = &[
    "log in",
    "login",
    "sign in",
    "signin",
    "sign up",
    "signup",
    "register",
    "subscribe",
    "create an account",
    "create a free account",
    "join now",
    "already a member",
    "already a subscriber",
];
/// Phrases that make a short line a prompt wherever they stand.
const PROMPT_PHRASES: &[&str] = &[
    "must be logged in",
    "must be signed in",
    "log in to ",
    "login to ",
    "sign in to ",
    "sign up for our newsletter",
    "sign up for the newsletter",
    "subscribe to our newsletter",
    "newsletter sign up",
    "newsletter signup",
    "forgot your password",
    "forgot password",
];

/// A word every notice holds one of, any case: one pass over a block's bytes tells whether
/// its text is worth reading.
static NOTICE_WORDS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build([
            "javascript",
            "java script",
            "browser",
            "log in",
            "login",
            "logged in",
            "sign in",
            "signin",
            "signed in",
            "sign up",
            "signup",
            "register",
            "subscribe",
            "account",
            "join now",
            "already a",
            "password",
        ])
        .expect("fixed patterns build")
});

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
    // The innermost block holding the words is judged, not each of its short ancestors
    // (whose text is then that block's alone: nothing is left of them to emit).
    let holds_block = tree.children(id).any(|c| {
        let c = tree.node(c);
        c.kind == Kind::Element && c.tag.is_block()
    });
    if holds_block {
        return false;
    }
    // Most short blocks name none of the words: skip reading their text.
    let bytes = &buf[n.start as usize..(n.end as usize).min(buf.len())];
    if bytes.len() > NOTICE_MAX_BYTES || !NOTICE_WORDS.is_match(bytes) {
        return false;
    }
    is_notice_text(&flat_text(buf, n.start as usize, n.end as usize))
}

/// Whether `text` is a notice's: at most [`NOTICE_MAX_WORDS`] words that say what the page
/// needs or ask the reader to sign in.
fn is_notice_text(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() || words.len() > NOTICE_MAX_WORDS {
        return false;
    }
    let line = words.join(" ").to_lowercase();
    says_what_the_page_needs(&line) || asks_to_sign_in(&line)
}

/// Whether `line` (lowercase, one space between words) says the page needs JavaScript or
/// another browser.
fn says_what_the_page_needs(line: &str) -> bool {
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

/// Whether `line` (lowercase, one space between words) asks the reader to sign in, sign up
/// or subscribe.
fn asks_to_sign_in(line: &str) -> bool {
    let rest = line.strip_prefix("please ").unwrap_or(line);
    PROMPT_OPENINGS.iter().any(|o| {
        rest.strip_prefix(o)
            .is_some_and(|after| !after.starts_with(|c: char| c.is_alphabetic()))
    }) || PROMPT_PHRASES.iter().any(|p| line.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_and_sentences_about_javascript() {
        for text in [
            "This slideshow requires JavaScript.",
            "You need to enable JavaScript to run this app.",
            "Powered by Discourse, best viewed with JavaScript enabled",
            "Please turn on your JavaScript for this page to function normally.",
            "Please update your browser!",
            "Your browser does not support the video tag.",
            "Sign up using Email and Password",
            "Please Log in or Create an account to join the conversation.",
            "You must be logged in to post a comment.",
            "Subscribe to our newsletter",
            "Register",
        ] {
            assert!(is_notice_text(text), "{text}");
        }
        for prose in [
            "React components are JavaScript functions that return markup:",
            "JavaScript bindings are available via NPM:",
            "Write custom JavaScript or Python",
            "Registered: June 02, 2004",
            "Signing the treaty took three weeks of talks.",
            // Long: prose about the subject, not a notice.
            "Basic workflows require no coding, but having JavaScript or API knowledge helps \
             when building advanced logic.",
            "",
        ] {
            assert!(!is_notice_text(prose), "{prose}");
        }
    }
}
