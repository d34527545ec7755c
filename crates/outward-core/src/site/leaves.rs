//! Leaf texts and seed 001's template library (Yan, Wang 2020): the short texts a site
//! repeats with small variations ("Posted by … on …", "© 2015 …", menu labels, bylines).
//!
//! - [`leaf_runs`]: every non-blank text run of a cleaned page, with the element it sits in
//!   (its leaf tag).
//! - [`page_leaves`]: a page's distinct leaves (tag name, whitespace-folded text) as site
//!   memory keeps them for its sample pages: texts of at most [`MAX_LEAF_BYTES`] bytes, at most
//!   [`MAX_LEAVES_PER_PAGE`] per page, packed in one buffer ([`LeafSet`]: a builder holds a
//!   sample page for every host it saw, so two allocations per leaf would dominate its size).
//! - [`near_equal`]: the paper's test, edit distance D ≤ min(len) / 8 in characters, texts
//!   of at most 8 characters equal.
//! - [`TemplateLibrary`]: the leaves found, with the same tag and a near-equal text, on at
//!   least [`MIN_REPEATS`] (N2 = 3) of a batch of [`BATCH_PAGES`] (N1 = 10) pages of a host.
//!
//! Invariants: pure and deterministic (libraries are built from sorted inputs and hold
//! sorted entries); edit distances are banded (O(len · D)), candidates are found by length
//! windows, so a library costs far less than all pairs of leaves; no recursion, no panics.

use crate::html::clean::{Cleaned, IN_LINK};
use crate::html::tags::Tag;
use crate::html::tokenize::forward::ForwardTokenizer;
use crate::html::tokenize::{TokenKind, parse_tag};
use std::collections::BTreeMap;

/// Pages of a host read for its template library (the paper's N1).
pub const BATCH_PAGES: usize = 10;
/// Pages of the batch that must hold a leaf for it to be template (the paper's N2).
pub const MIN_REPEATS: u32 = 3;
/// Longest leaf text kept for the library: templates are labels, menus and bylines; a long
/// paragraph repeated as is, is already an identical element for site memory.
pub const MAX_LEAF_BYTES: usize = 256;
/// Leaves kept per sample page (the first in page order).
pub const MAX_LEAVES_PER_PAGE: usize = 1024;

/// A leaf: the name of the element a text sits in and the text, whitespace folded.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Leaf {
    pub tag: String,
    pub text: String,
}

/// Distinct leaves, sorted, packed in one buffer: per leaf a byte of tag length, the tag, two
/// bytes (little-endian) of text length, the text. Leaves that do not fit (a tag of more than
/// 255 bytes, a text of more than [`MAX_LEAF_BYTES`]) are never in a set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeafSet {
    packed: Box<[u8]>,
    len: u32,
}

impl LeafSet {
    /// The set of `leaves` (sorted and made distinct here; leaves that do not fit dropped).
    pub fn new(mut leaves: Vec<Leaf>) -> LeafSet {
        leaves.retain(|l| l.tag.len() <= 255 && l.text.len() <= MAX_LEAF_BYTES);
        leaves.sort_unstable();
        leaves.dedup();
        let mut packed =
            Vec::with_capacity(leaves.iter().map(|l| 3 + l.tag.len() + l.text.len()).sum());
        for leaf in &leaves {
            packed.push(leaf.tag.len() as u8);
            packed.extend_from_slice(leaf.tag.as_bytes());
            packed.extend_from_slice(&(leaf.text.len() as u16).to_le_bytes());
            packed.extend_from_slice(leaf.text.as_bytes());
        }
        LeafSet {
            packed: packed.into_boxed_slice(),
            len: leaves.len() as u32,
        }
    }

    /// Leaves in the set.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the set holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.packed.len()
    }

    /// The leaves as (tag, text), sorted.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut rest = &self.packed[..];
        std::iter::from_fn(move || {
            let (&tag_len, tail) = rest.split_first()?;
            let (tag, tail) = tail.split_at_checked(tag_len as usize)?;
            let (len, tail) = tail.split_at_checked(2)?;
            let (text, tail) =
                tail.split_at_checked(u16::from_le_bytes([len[0], len[1]]) as usize)?;
            rest = tail;
            // Both parts were `str`s when packed.
            Some((
                std::str::from_utf8(tag).unwrap_or_default(),
                std::str::from_utf8(text).unwrap_or_default(),
            ))
        })
    }
}

/// One non-blank text run of a cleaned page and where it sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafRun {
    /// Byte range of the text in the cleaned buffer.
    pub start: u32,
    pub end: u32,
    /// The element the text sits in, and its name's range in the buffer.
    pub tag: Tag,
    pub name: (u32, u16),
    /// Index into `Cleaned::runs`.
    pub run: u32,
}

/// The text runs of `cleaned` in page order.
pub fn leaf_runs(cleaned: &Cleaned) -> Vec<LeafRun> {
    struct Open {
        tag: Tag,
        name: (u32, u16),
    }
    let buf = &cleaned.buf[..];
    let runs = &cleaned.runs;
    let mut next_run = 0usize;
    let mut stack: Vec<Open> = Vec::new();
    let mut leaves = Vec::new();
    for tok in ForwardTokenizer::new(buf, 0) {
        match tok.kind {
            TokenKind::Text => {
                while next_run < runs.len() && runs[next_run].start < tok.start {
                    next_run += 1;
                }
                if runs.get(next_run).is_none_or(|r| r.start != tok.start) {
                    continue;
                }
                let (tag, name) = stack
                    .last()
                    .map_or((Tag::Other, (0, 0)), |o| (o.tag, o.name));
                leaves.push(LeafRun {
                    start: tok.start,
                    end: tok.end,
                    tag,
                    name,
                    run: next_run as u32,
                });
            }
            TokenKind::StartTag => {
                let info = parse_tag(buf, tok);
                if info.tag.is_void() {
                    continue;
                }
                stack.push(Open {
                    tag: info.tag,
                    name: (info.name_start, info.name_len),
                });
            }
            TokenKind::EndTag => {
                stack.pop();
            }
        }
    }
    leaves
}

/// The text of `run`, ASCII whitespace folded to single spaces and trimmed.
pub fn leaf_text(buf: &[u8], run: &LeafRun) -> String {
    let raw = &buf[run.start as usize..(run.end as usize).min(buf.len())];
    let mut out = Vec::with_capacity(raw.len());
    let mut space = false;
    for &b in raw {
        if b.is_ascii_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(b' ');
                space = false;
            }
            out.push(b);
        }
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The name of `run`'s leaf tag.
pub fn leaf_tag<'b>(buf: &'b [u8], run: &LeafRun) -> &'b str {
    let (start, len) = run.name;
    std::str::from_utf8(&buf[start as usize..start as usize + len as usize]).unwrap_or("")
}

/// The distinct leaves of `cleaned` that a template library may hold, sorted.
pub fn page_leaves(cleaned: &Cleaned) -> LeafSet {
    let runs = leaf_runs(cleaned);
    let mut leaves: Vec<Leaf> = Vec::new();
    for r in &runs {
        if leaves.len() >= MAX_LEAVES_PER_PAGE {
            break;
        }
        if (r.end - r.start) as usize > MAX_LEAF_BYTES * 2 {
            continue;
        }
        let text = leaf_text(&cleaned.buf, r);
        if !text.is_empty() && text.len() <= MAX_LEAF_BYTES {
            leaves.push(Leaf {
                tag: leaf_tag(&cleaned.buf, r).to_string(),
                text,
            });
        }
    }
    LeafSet::new(leaves)
}

/// Per run of `runs` (from [`leaf_runs`] on `cleaned`), whether `library` holds it.
pub fn template_runs(cleaned: &Cleaned, runs: &[LeafRun], library: &TemplateLibrary) -> Vec<bool> {
    runs.iter()
        .map(|r| {
            !library.is_empty()
                && (r.end - r.start) as usize <= 2 * MAX_LEAF_BYTES
                && library.matches(leaf_tag(&cleaned.buf, r), &leaf_text(&cleaned.buf, r))
        })
        .collect()
}

/// Whether a run is inside a link (its text is link text).
pub fn in_link(cleaned: &Cleaned, run: &LeafRun) -> bool {
    cleaned
        .runs
        .get(run.run as usize)
        .is_some_and(|r| r.flags & IN_LINK != 0)
}

/// Seed 001's near-equality: edit distance (in characters) at most min(len) / 8; texts of at
/// most 8 characters must be equal.
pub fn near_equal(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    near_equal_prepared(&Prepared::new(a), &Prepared::new(b))
}

/// A text ready to compare: its characters and a histogram of them in [`BUCKETS`] buckets.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Prepared {
    chars: Vec<char>,
    histogram: [u8; BUCKETS],
}

const BUCKETS: usize = 32;

impl Prepared {
    fn new(text: &str) -> Prepared {
        let chars: Vec<char> = text.chars().collect();
        let mut histogram = [0u8; BUCKETS];
        for &c in &chars {
            let h = &mut histogram[c as usize % BUCKETS];
            *h = h.saturating_add(1);
        }
        Prepared { chars, histogram }
    }
}

fn near_equal_prepared(a: &Prepared, b: &Prepared) -> bool {
    let (la, lb) = (a.chars.len(), b.chars.len());
    let shortest = la.min(lb);
    if shortest <= 8 {
        return a.chars == b.chars;
    }
    let k = shortest / 8;
    if la.abs_diff(lb) > k {
        return false;
    }
    // A lower bound of the distance first: every edit changes at most one character of
    // each text, so the characters of `a` missing from `b` (counted by bucket, which can
    // only merge differences) are at most the distance.
    let missing: usize = a
        .histogram
        .iter()
        .zip(&b.histogram)
        .map(|(&x, &y)| x.saturating_sub(y) as usize)
        .sum();
    missing <= k && edit_distance_within(&a.chars, &b.chars, k)
}

/// Whether the Levenshtein distance of `a` and `b` is at most `k` (a band of 2k + 1 cells
/// per row; stops as soon as a row exceeds `k`). Rows live on the stack for leaves up to
/// [`MAX_LEAF_BYTES`] characters.
fn edit_distance_within(a: &[char], b: &[char], k: usize) -> bool {
    const ROW: usize = MAX_LEAF_BYTES + 1;
    if b.len() >= ROW {
        let mut prev = vec![0usize; b.len() + 1];
        let mut cur = vec![0usize; b.len() + 1];
        return banded(a, b, k, &mut prev, &mut cur);
    }
    let mut prev = [0usize; ROW];
    let mut cur = [0usize; ROW];
    banded(a, b, k, &mut prev[..=b.len()], &mut cur[..=b.len()])
}

fn banded(a: &[char], b: &[char], k: usize, prev: &mut [usize], cur: &mut [usize]) -> bool {
    let (mut prev, mut cur) = (prev, cur);
    let far = k + 1;
    for (j, cell) in prev.iter_mut().enumerate() {
        *cell = j.min(far);
    }
    for i in 1..=a.len() {
        let lo = i.saturating_sub(k).max(1);
        let hi = (i + k).min(b.len());
        // Only the band is computed; the cells just outside it read as `far`.
        cur[0] = i.min(far);
        if lo > 1 {
            cur[lo - 1] = far;
        }
        let mut best = cur[0];
        for j in lo..=hi {
            let substitute = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let value = substitute.min(prev[j] + 1).min(cur[j - 1] + 1).min(far);
            cur[j] = value;
            best = best.min(value);
        }
        if hi < b.len() {
            cur[hi + 1] = far;
        }
        if best > k {
            return false;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()] <= k
}

/// One leaf of the library, ready to compare.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    prepared: Prepared,
    text: String,
}

/// A host's template leaves (see the module header).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemplateLibrary {
    /// Per tag name, the entries sorted by (length in characters, text).
    by_tag: BTreeMap<String, Vec<Entry>>,
}

impl TemplateLibrary {
    /// The library of a batch of pages, each given as its distinct leaves.
    pub fn build(pages: &[&LeafSet]) -> TemplateLibrary {
        // Every leaf with the pages holding it exactly, grouped by tag then length.
        let mut exact: BTreeMap<(&str, usize, &str), u32> = BTreeMap::new();
        for (p, leaves) in pages.iter().enumerate().take(32) {
            for (tag, text) in leaves.iter() {
                *exact.entry((tag, text.chars().count(), text)).or_insert(0) |= 1 << p;
            }
        }
        let items: Vec<((&str, usize, &str), u32)> = exact.into_iter().collect();
        let prepared: Vec<Prepared> = items
            .iter()
            .map(|((_, _, t), _)| Prepared::new(t))
            .collect();
        let mut by_tag: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
        for (i, &((tag, len, text), own)) in items.iter().enumerate() {
            let mut holders = own;
            // Candidates: the same tag, lengths within an eighth (a longer text may differ by
            // at most an eighth of the shorter one).
            let lowest = len.saturating_sub(len / 8 + 1);
            let highest = len + len / 8;
            let mut j = i;
            while j > 0 {
                j -= 1;
                let ((t, l, _), pages_j) = items[j];
                if t != tag || l < lowest {
                    break;
                }
                if pages_j & !holders != 0 && near_equal_prepared(&prepared[i], &prepared[j]) {
                    holders |= pages_j;
                }
            }
            for (j, &((t, l, _), pages_j)) in items.iter().enumerate().skip(i + 1) {
                if t != tag || l > highest {
                    break;
                }
                if pages_j & !holders != 0 && near_equal_prepared(&prepared[i], &prepared[j]) {
                    holders |= pages_j;
                }
            }
            if holders.count_ones() >= MIN_REPEATS {
                by_tag.entry(tag.to_string()).or_default().push(Entry {
                    prepared: prepared[i].clone(),
                    text: text.to_string(),
                });
            }
        }
        TemplateLibrary { by_tag }
    }

    /// Leaves in the library.
    pub fn len(&self) -> usize {
        self.by_tag.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_tag.is_empty()
    }

    /// Whether a leaf `tag` with `text` is template: the library holds a near-equal text
    /// under the same tag.
    pub fn matches(&self, tag: &str, text: &str) -> bool {
        let Some(entries) = self.by_tag.get(tag) else {
            return false;
        };
        let prepared = Prepared::new(text);
        let len = prepared.chars.len();
        let lowest = len.saturating_sub(len / 8 + 1);
        let first = entries.partition_point(|e| e.prepared.chars.len() < lowest);
        entries[first..]
            .iter()
            .take_while(|e| e.prepared.chars.len() <= len + len / 8)
            .any(|e| e.text == text || near_equal_prepared(&e.prepared, &prepared))
    }

    /// The library's leaves, sorted by tag, length and text (for digests and tests).
    pub fn leaves(&self) -> impl Iterator<Item = (&str, &str)> {
        self.by_tag
            .iter()
            .flat_map(|(tag, entries)| entries.iter().map(move |e| (tag.as_str(), e.text.as_str())))
    }
}

/// Nine words of letters drawn from `seed`, for tests: no two seeds share a sentence (the
/// pages of a test site must not be near-equal by accident).
#[cfg(test)]
pub(crate) fn drawn_words(seed: usize) -> String {
    let mut x = (seed as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(1);
    (0..9)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (0..3 + x % 5)
                .map(|i| (b'a' + ((x >> (8 * i)) % 26) as u8) as char)
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::clean::{CleanOptions, clean};

    fn leaves_of(html: &str) -> LeafSet {
        page_leaves(&clean(html.as_bytes(), CleanOptions::default()))
    }

    #[test]
    fn a_leaf_set_is_sorted_distinct_and_bounded() {
        let leaf = |tag: &str, text: &str| Leaf {
            tag: tag.into(),
            text: text.into(),
        };
        let set = LeafSet::new(vec![
            leaf("p", "Posted by"),
            leaf("a", "Home"),
            leaf("p", "Posted by"),
            leaf("a", "新闻"),
            leaf("p", &"x".repeat(MAX_LEAF_BYTES + 1)),
            leaf(&"t".repeat(256), "too long a tag"),
        ]);
        let seen: Vec<(&str, &str)> = set.iter().collect();
        assert_eq!(seen, vec![("a", "Home"), ("a", "新闻"), ("p", "Posted by")]);
        assert_eq!(set.len(), 3);
        assert!(LeafSet::default().iter().next().is_none());
    }

    #[test]
    fn near_equal_follows_the_paper() {
        // Short texts must be equal.
        assert!(near_equal("Home", "Home"));
        assert!(!near_equal("Home", "Homo"));
        assert!(!near_equal("12345678", "12345679"));
        // 16 characters allow 2 edits, not 3.
        assert!(near_equal("Posted 2015-03-01", "Posted 2016-04-01"));
        assert!(!near_equal("Posted 2015-03-01", "Posted 2026-04-11"));
        // A length difference over min/8 is never near-equal.
        assert!(!near_equal(
            "Copyright 2015 Gazette",
            "Copyright 2015 Gazette Ltd."
        ));
        // Characters, not bytes.
        assert!(near_equal(
            "版权所有 新华网 二〇一五年 保留所有权利",
            "版权所有 新华网 二〇一六年 保留所有权利"
        ));
    }

    #[test]
    fn runs_know_their_leaf_tag() {
        let cleaned = clean(
            b"<body><div id=nav><a href=/>Home</a></div><section><p>Story <b>bold</b> end</p></section></body>",
            CleanOptions::default(),
        );
        let runs = leaf_runs(&cleaned);
        let seen: Vec<(String, String, Tag)> = runs
            .iter()
            .map(|r| {
                (
                    leaf_tag(&cleaned.buf, r).to_string(),
                    leaf_text(&cleaned.buf, r),
                    r.tag,
                )
            })
            .collect();
        assert_eq!(
            seen,
            vec![
                ("a".into(), "Home".into(), Tag::A),
                ("p".into(), "Story".into(), Tag::P),
                ("b".into(), "bold".into(), Tag::B),
                ("p".into(), "end".into(), Tag::P),
            ]
        );
        assert!(in_link(&cleaned, &runs[0]) && !in_link(&cleaned, &runs[1]));
    }

    const STORIES: [&str; 10] = [
        "The council met on Tuesday to vote on the harbour budget.",
        "A storm closed the coast road for most of the weekend.",
        "Schools reopen next week after the summer repairs ended.",
        "The museum shows a collection of maps lent by a collector.",
        "Farmers expect a late harvest after a cold and wet spring.",
        "The football club signed two players from the second league.",
        "A new bakery opened in the old post office on Main Street.",
        "Rail works will shut the northern line for three nights.",
        "The library extends its hours for students during exams.",
        "Volunteers planted four hundred trees along the river bank.",
    ];

    #[test]
    fn the_library_holds_what_three_of_ten_pages_repeat() {
        let page = |i: usize| {
            leaves_of(&format!(
                "<body><div class=nav><a href=/>Home</a><a href=/n>News</a></div>\
                 <p class=by>Posted by the desk on 2015-0{}-1{}</p>\
                 <p>{}</p>\
                 <p>{}</p></body>",
                i % 9 + 1,
                i % 10,
                STORIES[i],
                if i < 2 {
                    "Only two pages say this."
                } else {
                    ""
                }
            ))
        };
        let pages: Vec<LeafSet> = (0..10).map(page).collect();
        let refs: Vec<&LeafSet> = pages.iter().collect();
        let library = TemplateLibrary::build(&refs);
        assert!(library.matches("a", "Home") && library.matches("a", "News"));
        // A byline that varies by its date is one template leaf under its tag.
        assert!(library.matches("p", "Posted by the desk on 2019-07-17"));
        assert!(!library.matches("div", "Posted by the desk on 2019-07-17"));
        assert!(!library.matches("p", STORIES[3]));
        assert!(!library.matches("p", "Only two pages say this."));
        // The same pages in another order give the same library.
        let mut backwards = refs.clone();
        backwards.reverse();
        assert_eq!(TemplateLibrary::build(&backwards), library);
    }

    #[test]
    fn long_and_many_leaves_are_bounded() {
        let long = "word ".repeat(200);
        let many: String = (0..3000).map(|i| format!("<p>leaf {i}</p>")).collect();
        let leaves = leaves_of(&format!("<body><p>{long}</p>{many}</body>"));
        assert_eq!(leaves.len(), MAX_LEAVES_PER_PAGE);
        assert!(leaves.iter().all(|(_, text)| text.len() <= MAX_LEAF_BYTES));
        assert_eq!(leaves.iter().count(), leaves.len());
    }
}
