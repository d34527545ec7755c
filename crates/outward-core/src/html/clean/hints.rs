//! Boilerplate and content hints: class/id words (Readability's lists, bucketed by first
//! byte), ARIA roles, `itemprop=articleBody`, and inline styles that hide an element.
//!
//! Invariants: pure functions of attribute values; values are looked at up to a fixed
//! length, so a hostile attribute costs linear time.

use super::*;

/// Hint kinds of class/id words.
pub(super) const BOILER: u8 = 1;

/// Keeps an element even when a boilerplate word matched (Readability's "maybe" list).
pub(super) const MAYBE: u8 = 2;

pub(super) const GOOD: u8 = 4;

/// A boilerplate word that is trusted even on big elements (comment sections).
pub(super) const STRONG: u8 = 8;

/// A boilerplate word that a "maybe" word beside it does not excuse: privacy and cookie
/// dialogs (`fides-consent-content`, `cookie-banner-content`) are never the article.
pub(super) const PRIVACY: u8 = 16;

/// Class/id substrings (lowercase) and their hints, bucketed by first byte so a scan tries
/// only a few words per position. Boilerplate words follow Readability's "unlikely" list.
#[inline]
pub(super) fn hint_words(first: u8) -> &'static [(&'static [u8], u8)] {
    match first {
        b'a' => &[(b"advert", BOILER), (b"article", MAYBE | GOOD)],
        b'b' => &[
            (b"breadcrumb", BOILER),
            (b"banner", BOILER),
            (b"body", MAYBE | GOOD),
        ],
        b'c' => &[
            (b"comment", BOILER | STRONG),
            (b"cookie", BOILER | STRONG | PRIVACY),
            (b"consent", BOILER | STRONG | PRIVACY),
            (b"combx", BOILER),
            (b"community", BOILER),
            (b"copyright", BOILER),
            (b"column", MAYBE),
            (b"content", MAYBE | GOOD),
        ],
        b'd' => &[(b"disqus", BOILER | STRONG)],
        b'e' => &[(b"entry", GOOD)],
        b'f' => &[(b"footer", BOILER)],
        b'g' => &[(b"gdpr", BOILER)],
        b'm' => &[
            (b"menu", BOILER),
            (b"masthead", BOILER),
            (b"main", MAYBE | GOOD),
        ],
        b'n' => &[
            (b"newsletter", BOILER),
            (b"navbar", BOILER),
            (b"navigation", BOILER),
        ],
        b'o' => &[
            (b"outbrain", BOILER),
            (b"onetrust", BOILER | STRONG | PRIVACY),
        ],
        b'p' => &[
            (b"popup", BOILER),
            (b"pagination", BOILER),
            (b"pager", BOILER),
            (b"promo", BOILER),
            (b"post", GOOD),
        ],
        b'r' => &[
            (b"related", BOILER),
            (b"recommend", BOILER),
            (b"remark", BOILER | STRONG),
            (b"replies", BOILER | STRONG),
        ],
        b's' => &[
            (b"sidebar", BOILER),
            (b"share", BOILER),
            (b"sharing", BOILER),
            (b"social", BOILER),
            (b"sponsor", BOILER),
            (b"subscribe", BOILER),
            (b"shoutbox", BOILER),
            (b"skyscraper", BOILER),
            (b"shadow", MAYBE),
            (b"story", GOOD),
        ],
        b't' => &[(b"toolbar", BOILER), (b"taboola", BOILER), (b"text", GOOD)],
        _ => &[],
    }
}

/// Hint bits of one class or id value.
#[inline]
pub(super) fn value_hints(value: &[u8]) -> u8 {
    let mut lower = [0u8; 300];
    let n = value.len().min(lower.len());
    for (d, s) in lower.iter_mut().zip(value) {
        *d = s.to_ascii_lowercase();
    }
    let v = &lower[..n];
    let mut bits = 0;
    for i in 0..n {
        for (word, kind) in hint_words(v[i]) {
            if v[i..].starts_with(word) {
                bits |= kind;
            }
        }
    }
    // "ad" / "ads" as whole words.
    if v.split(|b| !b.is_ascii_alphanumeric())
        .any(|w| w == b"ad" || w == b"ads")
    {
        bits |= BOILER;
    }
    bits
}

/// An id made of four or more words joined by `-`/`_` (a heading slug, a generated id).
pub(super) fn is_slug(id: &[u8]) -> bool {
    id.split(|&b| b == b'-' || b == b'_')
        .filter(|w| !w.is_empty())
        .count()
        >= 4
}

/// An element's hints from its attributes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Hints {
    pub boiler: bool,
    /// Trusted even on big elements (comment sections, dialogs).
    pub strong: bool,
    /// Never main text, whatever it holds: privacy and cookie dialogs, `role=dialog`.
    pub never_content: bool,
    pub good: bool,
}

/// The boilerplate and content hints of an element's attributes.
#[inline]
pub(super) fn class_hints(attrs: &Attrs) -> Hints {
    let mut boiler = false;
    let mut strong = false;
    let mut never_content = false;
    let mut good = false;
    for value in [attrs.id, attrs.class] {
        if value.is_empty() || value.len() > 300 {
            continue;
        }
        // Ids that are slugs of headings ("evolve-shared-mutable-history") say nothing.
        if std::ptr::eq(value, attrs.id) && is_slug(value) {
            continue;
        }
        let bits = value_hints(value);
        if bits & BOILER != 0 && (bits & MAYBE == 0 || bits & PRIVACY != 0) {
            boiler = true;
            strong |= bits & STRONG != 0;
            never_content |= bits & PRIVACY != 0;
        }
        if bits & GOOD != 0 {
            good = true;
        }
    }
    let role = attrs.role;
    if role.eq_ignore_ascii_case(b"navigation")
        || role.eq_ignore_ascii_case(b"complementary")
        || role.eq_ignore_ascii_case(b"contentinfo")
        || role.eq_ignore_ascii_case(b"menu")
    {
        boiler = true;
    }
    if role.eq_ignore_ascii_case(b"dialog") || role.eq_ignore_ascii_case(b"alertdialog") {
        boiler = true;
        strong = true;
        never_content = true;
    }
    if role.eq_ignore_ascii_case(b"main") || value_hints_articlebody(attrs.itemprop) {
        good = true;
        boiler = false;
        strong = false;
        never_content = false;
    }
    Hints {
        boiler,
        strong,
        never_content,
        good,
    }
}

pub(super) fn value_hints_articlebody(itemprop: &[u8]) -> bool {
    itemprop.len() >= 11
        && itemprop
            .windows(11)
            .any(|w| w.eq_ignore_ascii_case(b"articlebody"))
}

pub(super) fn style_hides(style: &[u8]) -> bool {
    if style.len() > 2000 {
        return false;
    }
    let mut compact = [0u8; 64];
    let mut n = 0;
    // Look for display:none / visibility:hidden ignoring spaces and case.
    for &b in style {
        if is_ws(b) {
            continue;
        }
        if b == b';' {
            if is_hiding(&compact[..n]) {
                return true;
            }
            n = 0;
            continue;
        }
        if n < compact.len() {
            compact[n] = b.to_ascii_lowercase();
            n += 1;
        }
    }
    is_hiding(&compact[..n])
}

pub(super) fn is_hiding(decl: &[u8]) -> bool {
    // visibility:hidden is left alone: WeChat and others hide the article until a script
    // reveals it.
    decl.starts_with(b"display:none")
}
