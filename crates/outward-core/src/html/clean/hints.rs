//! Boilerplate and content hints: class/id words (Readability's lists, found by one hash
//! probe of each position's first four bytes), ARIA roles, `itemprop=articleBody`, and
//! inline styles that hide an element.
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

/// A word that names comments or replies (a thread's posts on a forum).
pub(super) const COMMENTS: u8 = 32;

/// A word in the class names that hide an element (see [`class_hides`]): a candidate only.
pub(super) const HIDES: u8 = 64;

/// Class/id substrings (lowercase letters, at least 4) and their hints. Boilerplate words
/// follow Readability's "unlikely" list.
const HINT_WORDS: [(&[u8], u8); 50] = [
    (b"advert", BOILER),
    (b"article", MAYBE | GOOD),
    (b"breadcrumb", BOILER),
    (b"banner", BOILER),
    (b"body", MAYBE | GOOD),
    (b"comment", BOILER | STRONG | COMMENTS),
    (b"cookie", BOILER | STRONG | PRIVACY),
    (b"consent", BOILER | STRONG | PRIVACY),
    (b"combx", BOILER),
    (b"community", BOILER),
    (b"copyright", BOILER),
    (b"column", MAYBE),
    (b"content", MAYBE | GOOD),
    (b"disqus", BOILER | STRONG | COMMENTS),
    (b"entry", GOOD),
    (b"footer", BOILER),
    (b"gdpr", BOILER),
    (b"hidden", HIDES),
    (b"hide", HIDES),
    (b"menu", BOILER),
    (b"masthead", BOILER),
    (b"main", MAYBE | GOOD),
    (b"newsletter", BOILER),
    (b"none", HIDES),
    (b"navbar", BOILER),
    (b"navigation", BOILER),
    (b"outbrain", BOILER),
    (b"onetrust", BOILER | STRONG | PRIVACY),
    (b"popup", BOILER),
    (b"pagination", BOILER),
    (b"pager", BOILER),
    (b"promo", BOILER),
    (b"post", GOOD),
    (b"related", BOILER),
    (b"recommend", BOILER),
    (b"remark", BOILER | STRONG | COMMENTS),
    (b"replies", BOILER | STRONG | COMMENTS),
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
    (b"toolbar", BOILER),
    (b"taboola", BOILER),
    (b"text", GOOD),
];

/// The first four bytes of a word, as one number.
const fn head_of(word: &[u8]) -> u32 {
    u32::from_le_bytes([word[0], word[1], word[2], word[3]])
}

/// ASCII letters of a 4-byte head, lowercased at once; other bytes stay non-letters, so a
/// match with a word's (all-letter) head is a case-insensitive match.
const LOWER_4: u32 = 0x2020_2020;

/// The slot of a 4-byte head in [`HINT_SLOTS`] (multiplicative hashing, top 8 bits).
const fn slot_of(head: u32) -> usize {
    (head.wrapping_mul(0x9E37_79B1) >> 24) as usize
}

/// Per hash slot of a head, up to two `HINT_WORDS` indices plus one (0: empty). Built at
/// compile time; a third word in one slot fails the build.
static HINT_SLOTS: [[u8; 2]; 256] = {
    let mut slots = [[0u8; 2]; 256];
    let mut k = 0;
    while k < HINT_WORDS.len() {
        let word = HINT_WORDS[k].0;
        let mut b = 0;
        while b < word.len() {
            assert!(
                word[b].is_ascii_lowercase(),
                "hint words are lowercase letters"
            );
            b += 1;
        }
        let s = slot_of(head_of(word));
        if slots[s][0] == 0 {
            slots[s][0] = k as u8 + 1;
        } else {
            assert!(slots[s][1] == 0, "three hint words share a hash slot");
            slots[s][1] = k as u8 + 1;
        }
        k += 1;
    }
    slots
};

/// Letter pairs that start a hint word or "ad" (bit `second & 31` of `BIGRAMS[first]`,
/// both lowercase): a cheap filter in front of the hash probe.
static BIGRAMS: [u32; 256] = {
    let mut table = [0u32; 256];
    table[b'a' as usize] |= 1 << (b'd' & 31);
    let mut k = 0;
    while k < HINT_WORDS.len() {
        let word = HINT_WORDS[k].0;
        table[word[0] as usize] |= 1 << (word[1] & 31);
        k += 1;
    }
    table
};

/// Hint bits of one class or id value: every hint word it contains (case-insensitive), and
/// "ad" / "ads" as whole words. A position passes a letter-pair filter before the one hash
/// probe of its first four bytes; no copy.
#[inline]
pub(super) fn value_hints(value: &[u8]) -> u8 {
    let mut bits = 0;
    for (i, pair) in value.windows(2).enumerate() {
        // `| 0x20` lowercases letters and makes no other byte a lowercase letter; the
        // second byte's low five bits may alias a non-letter (the probe then says no).
        let (first, second) = (pair[0] | 0x20, pair[1] | 0x20);
        if BIGRAMS[first as usize] & (1 << (second & 31)) == 0 {
            continue;
        }
        if (first, second) == (b'a', b'd') && is_ad_word_at(value, i) {
            bits |= BOILER;
        }
        let Some(window) = value.get(i..i + 4) else {
            continue;
        };
        let head = u32::from_le_bytes([window[0], window[1], window[2], window[3]]) | LOWER_4;
        for &entry in &HINT_SLOTS[slot_of(head)] {
            let Some((word, kind)) = (entry as usize).checked_sub(1).map(|k| HINT_WORDS[k]) else {
                break;
            };
            if head_of(word) == head
                && value.len() >= i + word.len()
                && value[i + 4..i + word.len()]
                    .iter()
                    .zip(&word[4..])
                    .all(|(&v, &w)| v | 0x20 == w)
            {
                bits |= kind;
            }
        }
    }
    bits
}

/// Prefixes of class names that carry a post's taxonomy, not its layout: WordPress's
/// `post_class()` gives an entry `category-<slug>` and `tag-<slug>` for each of its
/// categories and tags, whose words are the author's (`category-social-media`,
/// `tag-advertising`); TypePad and Movable Type give it `entry-category-<slug>`
/// (`entry-category-social_media`).
const TAXONOMY_CLASS_PREFIXES: [&[u8]; 5] = [
    b"category-",
    b"tag-",
    b"post_tag-",
    b"entry-category-",
    b"entry-tag-",
];

/// The hint bits of a class value (`bits`, from [`value_hints`]) without its taxonomy class
/// names (see [`TAXONOMY_CLASS_PREFIXES`]); `bits` unchanged when it has none.
fn layout_class_hints(value: &[u8], bits: u8) -> u8 {
    let is_taxonomy = |name: &[u8]| {
        TAXONOMY_CLASS_PREFIXES
            .iter()
            .any(|p| name.len() > p.len() && name[..p.len()].eq_ignore_ascii_case(p))
    };
    let names = class_names(value);
    if !names.clone().any(is_taxonomy) {
        return bits;
    }
    names
        .filter(|n| !is_taxonomy(n))
        .fold(0, |acc, n| acc | value_hints(n))
}

/// Whether the "ad" (any case) at `i` is a whole word "ad" or "ads" (between non-alphanumeric
/// bytes or the ends).
fn is_ad_word_at(value: &[u8], i: usize) -> bool {
    let alnum_at = |k: usize| value.get(k).is_some_and(|b| b.is_ascii_alphanumeric());
    let end = if value.get(i + 2).is_some_and(|&b| b | 0x20 == b's') {
        i + 3
    } else {
        i + 2
    };
    (i == 0 || !alnum_at(i - 1)) && !alnum_at(end)
}

/// The class names of a class value (split at whitespace).
fn class_names(value: &[u8]) -> impl Iterator<Item = &[u8]> + Clone {
    value.split(|&b| is_ws(b)).filter(|n| !n.is_empty())
}

/// The words of an id (split at `-` and `_`).
fn id_words(id: &[u8]) -> impl Iterator<Item = &[u8]> {
    id.split(|&b| b == b'-' || b == b'_')
        .filter(|w| !w.is_empty())
}

/// An id made of four or more words joined by `-`/`_` (a heading slug, a generated id).
pub(super) fn is_slug(id: &[u8]) -> bool {
    id_words(id).count() >= 4
}

/// Whether a class list hides its element on every screen: a class name that style sheets
/// define as `display: none` (Bootstrap's `hidden`, `hide`, `d-none`, Tailwind's `hidden`),
/// with no responsive class that shows it again on some screens (Tailwind's `md:block`,
/// Bootstrap's `d-md-block`).
fn class_hides(class: &[u8]) -> bool {
    if class.len() < 4 || class.len() > MAX_HINTED_VALUE {
        return false;
    }
    let names = || class_names(class);
    let hides = |n: &[u8]| {
        n.eq_ignore_ascii_case(b"hidden")
            || n.eq_ignore_ascii_case(b"hide")
            || n.eq_ignore_ascii_case(b"d-none")
    };
    let shows_somewhere = |n: &[u8]| {
        n.contains(&b':') || (n.len() > 2 && n[..2].eq_ignore_ascii_case(b"d-") && !hides(n))
    };
    names().any(hides) && !names().any(shows_somewhere)
}

/// Whether a hidden element is the collapsed panel of a disclosure widget, which a click on
/// its visible tab or heading opens: `role="tabpanel"`, an accordion's `role="region"`, an
/// element labelled by its trigger (`aria-labelledby`) with no role of its own, or one whose
/// class names an accordion or a collapsible part (`accordion-content`, `chakra-collapse`).
/// Its text is the page's (FAQ answers, a product's details, a quickstart's code in other
/// languages); dialogs, menus and tooltips, which have roles of their own, stay hidden.
pub(super) fn is_collapsed_panel(attrs: &Attrs) -> bool {
    let role = attrs.role;
    let class_names_a_panel = || {
        attrs.class.len() <= MAX_HINTED_VALUE
            && (contains_ignore_case(attrs.class, b"accordion")
                || contains_ignore_case(attrs.class, b"collapse"))
    };
    role.eq_ignore_ascii_case(b"tabpanel")
        || role.eq_ignore_ascii_case(b"region")
        || (role.is_empty() && (attrs.labelled || class_names_a_panel()))
}

/// Whether `word` (lowercase) occurs in `value`, ignoring ASCII case.
fn contains_ignore_case(value: &[u8], word: &[u8]) -> bool {
    value
        .windows(word.len())
        .any(|w| w.eq_ignore_ascii_case(word))
}

/// Whether an id names the page's sidebar: one of its words (between `-` and `_`) is
/// "sidebar" (`sidebar`, `primary-sidebar`). Such an id is a strong hint, trusted even when
/// the sidebar holds most of the page's text beside a short post; the class word is weak, as
/// layouts name their wrappers `has-sidebar` or `content-with-sidebar`.
fn names_the_sidebar(id: &[u8]) -> bool {
    id_words(id).any(|w| w.eq_ignore_ascii_case(b"sidebar"))
}

/// An element's hints from its attributes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Hints {
    pub boiler: bool,
    /// Trusted even on big elements (comment sections, dialogs).
    pub strong: bool,
    /// Never main text, whatever it holds: privacy and cookie dialogs, `role=dialog`.
    pub never_content: bool,
    /// Hinted by a word naming comments or replies.
    pub comments: bool,
    pub good: bool,
    /// Its class hides it on every screen (see [`class_hides`]).
    pub hides: bool,
}

/// What a class attribute's value says by itself: its hint bits (with the names of a post's
/// taxonomy set aside) and whether it hides its element on every screen. A pure function of
/// the value, which pages repeat on many elements: the cleaner memoizes it ([`ClassMemo`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct ClassValue {
    bits: u8,
    hides: bool,
}

/// Longest `id` or `class` value whose words are read (longer ones are generated data).
const MAX_HINTED_VALUE: usize = 300;

/// Whether an `id` or `class` value is read for hints at all (an empty or overlong one says
/// nothing).
fn is_hinted(value: &[u8]) -> bool {
    !value.is_empty() && value.len() <= MAX_HINTED_VALUE
}

pub(super) fn class_value(class: &[u8]) -> ClassValue {
    if !is_hinted(class) {
        return ClassValue::default();
    }
    let mut bits = value_hints(class);
    let hides = bits & HIDES != 0 && class_hides(class);
    if bits & BOILER != 0 {
        bits = layout_class_hints(class, bits);
    }
    ClassValue { bits, hides }
}

/// What an `id` value says by itself: its hint bits (none for a heading's slug) and whether
/// it names the sidebar.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct IdValue {
    bits: u8,
    sidebar: bool,
}

#[inline]
pub(super) fn id_value(id: &[u8]) -> IdValue {
    // Ids that are slugs of headings ("evolve-shared-mutable-history") say nothing.
    if !is_hinted(id) || is_slug(id) {
        return IdValue::default();
    }
    let bits = value_hints(id);
    IdValue {
        bits,
        sidebar: bits & BOILER != 0 && names_the_sidebar(id),
    }
}

/// [`class_value`] memoized over one page: a direct-mapped table of the last value seen in
/// each slot (a slot from the value's length and its first and last eight bytes), checked
/// byte for byte, so a hit gives exactly what computing it again would. 256 slots: 1,024 find
/// no more repeats on dev pages.
pub(super) struct ClassMemo<'a> {
    slots: Vec<(&'a [u8], ClassValue)>,
}

/// A power of two.
const MEMO_SLOTS: usize = 256;

impl<'a> ClassMemo<'a> {
    pub(super) fn new() -> Self {
        ClassMemo {
            slots: vec![(&[][..], ClassValue::default()); MEMO_SLOTS],
        }
    }

    /// [`class_value`] of `class`, or what it gave for the same bytes before (a value read
    /// for no hints, most often none at all, is not looked up).
    #[inline]
    pub(super) fn get(&mut self, class: &'a [u8]) -> ClassValue {
        if !is_hinted(class) {
            return ClassValue::default();
        }
        let slot = &mut self.slots[memo_slot(class)];
        if slot.0 == class {
            return slot.1;
        }
        let computed = class_value(class);
        *slot = (class, computed);
        computed
    }
}

/// The memo slot of a non-empty value: its length mixed with its first and last (up to)
/// eight bytes.
fn memo_slot(value: &[u8]) -> usize {
    let word = |bytes: &[u8]| {
        let mut w = [0u8; 8];
        w[..bytes.len()].copy_from_slice(bytes);
        u64::from_le_bytes(w)
    };
    let n = value.len();
    let head = word(&value[..n.min(8)]);
    let tail = word(&value[n.saturating_sub(8)..]);
    let mixed = (head ^ tail.rotate_left(29) ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> (64 - MEMO_SLOTS.ilog2())) as usize
}

/// The boilerplate and content hints of an element's attributes (the cleaner memoizes what
/// the values say: [`hints_of`]).
#[cfg(test)]
pub(super) fn class_hints(attrs: &Attrs) -> Hints {
    hints_of(attrs, id_value(attrs.id), class_value(attrs.class))
}

/// [`class_hints`] from what the `id` and `class` values say by themselves (see [`ClassMemo`]).
#[inline]
pub(super) fn hints_of(attrs: &Attrs, id: IdValue, class: ClassValue) -> Hints {
    let mut boiler = false;
    let mut strong = false;
    let mut never_content = false;
    let mut comments = false;
    let mut good = false;
    for (bits, sidebar) in [(id.bits, id.sidebar), (class.bits, false)] {
        if bits & BOILER != 0 && (bits & MAYBE == 0 || bits & PRIVACY != 0) {
            boiler = true;
            strong |= bits & STRONG != 0 || sidebar;
            never_content |= bits & PRIVACY != 0;
            comments |= bits & COMMENTS != 0;
        }
        if bits & GOOD != 0 {
            good = true;
        }
    }
    let hides = class.hides;
    let role = attrs.role;
    if role.eq_ignore_ascii_case(b"navigation")
        || role.eq_ignore_ascii_case(b"complementary")
        || role.eq_ignore_ascii_case(b"contentinfo")
        || role.eq_ignore_ascii_case(b"menu")
        || role.eq_ignore_ascii_case(b"alert")
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
        comments = false;
    }
    Hints {
        boiler,
        strong,
        never_content,
        comments,
        good,
        hides,
    }
}

pub(super) fn value_hints_articlebody(itemprop: &[u8]) -> bool {
    contains_ignore_case(itemprop, b"articlebody")
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition: lowercase the value, then every hint word it contains and "ad"
    /// / "ads" as whole words.
    fn reference_hints(value: &[u8]) -> u8 {
        let lower = value.to_ascii_lowercase();
        let mut bits = 0;
        for (word, kind) in HINT_WORDS {
            if lower.windows(word.len()).any(|w| w == word) {
                bits |= kind;
            }
        }
        if lower
            .split(|b| !b.is_ascii_alphanumeric())
            .any(|w| w == b"ad" || w == b"ads")
        {
            bits |= BOILER;
        }
        bits
    }

    #[test]
    fn hash_probe_finds_what_the_plain_definition_finds() {
        let mut values: Vec<Vec<u8>> = [
            &b"post-body entry-content"[..],
            b"comments-area",
            b"COMMUNITY_Nav",
            b"site-footer sharing",
            b"pager pagination",
            b"ad",
            b"Ads top-ad",
            b"adsense",
            b"head lead",
            b"x-ad-y",
            b"ad-s",
            b"ADS",
            b"badge",
            b"main",
            b"mai",
            b"\xc3\xa9commentaire",
            b"sharE",
            b"shar",
            b"navbarnavigation",
            b"",
        ]
        .iter()
        .map(|v| v.to_vec())
        .collect();
        // Every word alone, in upper case, and cut short by one byte.
        for (word, _) in HINT_WORDS {
            values.push(word.to_vec());
            values.push(word.to_ascii_uppercase());
            values.push(format!("x-{}", String::from_utf8_lossy(word)).into_bytes());
            values.push(word[..word.len() - 1].to_vec());
        }
        // Bytes that are letters only after `| 0x20` would be wrong: `@` is not `` ` ``.
        values.push(b"M@IN".to_vec());
        for v in &values {
            assert_eq!(
                value_hints(v),
                reference_hints(v),
                "{}",
                String::from_utf8_lossy(v)
            );
        }
        assert_eq!(value_hints(b"Comment-List"), BOILER | STRONG | COMMENTS);
        assert_eq!(value_hints(b"headline"), 0);
    }

    #[test]
    fn an_id_naming_the_sidebar_is_a_strong_hint() {
        let hints = |id: &[u8], class: &[u8]| {
            class_hints(&Attrs {
                id,
                class,
                ..Attrs::default()
            })
        };
        for id in [&b"sidebar"[..], b"Primary-Sidebar", b"sidebar_right"] {
            let h = hints(id, b"");
            assert!(h.boiler && h.strong, "{h:?}");
        }
        for (id, class) in [
            (&b""[..], &b"sidebar"[..]),
            (b"", b"layout has-sidebar"),
            (b"sidebarnav", b""),
        ] {
            let h = hints(id, class);
            assert!(h.boiler && !h.strong, "{h:?}");
        }
    }

    #[test]
    fn taxonomy_class_names_give_no_hint() {
        let hints = |class: &[u8]| {
            class_hints(&Attrs {
                class,
                ..Attrs::default()
            })
        };
        // WordPress's post_class() of a post filed under "Social Media", tagged "ads".
        let post = hints(b"post-9749 post type-post hentry category-social-media tag-ads");
        assert!(!post.boiler && post.good, "{post:?}");
        assert!(!hints(b"Category-Menu-Drops tag-sidebar").boiler);
        // TypePad's entry of a post filed under "Social Media".
        let entry = hints(b"entry-category-case_studies entry-category-social_media entry");
        assert!(!entry.boiler && entry.good, "{entry:?}");
        // The other class names still count, and so does a name that only starts alike.
        assert!(hints(b"sidebar category-news").boiler);
        assert!(hints(b"social-share category-news").boiler);
        assert!(!hints(b"category-sharing").boiler);
        assert!(hints(b"categorysharing").boiler);
        // An id is no class list.
        let id = class_hints(&Attrs {
            id: b"category-sidebar",
            ..Attrs::default()
        });
        assert!(id.boiler);
    }

    #[test]
    fn the_class_memo_gives_what_computing_again_gives() {
        // More distinct values than slots, so slots are shared and overwritten; values that
        // agree in length and in their first and last eight bytes land in one slot.
        let mut values: Vec<Vec<u8>> = (0..600)
            .map(|k| match k % 4 {
                0 => format!("menu-item menu-item-{k}").into_bytes(),
                1 => format!("post-{k} entry-content hentry").into_bytes(),
                2 => format!("sidebar-widget{k}").into_bytes(),
                _ => format!("hide d-md-block{k}").into_bytes(),
            })
            .collect();
        values.push(b"comments-area xxxxxxxx footer-widgets".to_vec());
        values.push(b"comments-area yyyyyyyy footer-widgets".to_vec());
        values.push(b"hidden".to_vec());
        values.push(b"x".repeat(MAX_HINTED_VALUE + 1));
        let mut memo = ClassMemo::new();
        // Each value three times, in an order that revisits slots between the visits.
        for round in 0..3 {
            for k in 0..values.len() {
                // 7 is prime to the number of values: every value once per round.
                let v = &values[(k * 7 + round * 13) % values.len()][..];
                let shown = String::from_utf8_lossy(v);
                assert_eq!(memo.get(v), class_value(v), "{shown}");
            }
        }
        assert!(class_value(b"hidden").hides);
        assert_ne!(class_value(b"sidebar-widget2"), ClassValue::default());
    }
}
