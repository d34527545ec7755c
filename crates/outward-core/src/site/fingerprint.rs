//! Element fingerprints: one 64-bit hash per element subtree of a cleaned page (its
//! canonical start tag — name, flags, id, class — and its content, recursively), computed
//! bottom-up in one forward pass over the cleaned buffer. Two elements have the same
//! fingerprint when their cleaned markup is byte-identical, whatever page they sit on: this
//! is what "the same block on several pages of a site" means for site memory.
//!
//! Only elements that can be removed as a whole are reported: block-level or unknown
//! (custom) elements holding visible text, never `html`/`body` (see [`is_removable`]).
//!
//! Invariants: O(buffer) time, no recursion (an explicit stack: 1M-deep nesting costs
//! memory linear in the depth, never the call stack); the hash is fixed (no per-process
//! seed), the same on every platform and every run, so stored counts stay valid; never
//! panics on any buffer, balanced or not.

use crate::html::clean::{Cleaned, IN_LINK};
use crate::html::tags::Tag;
use crate::html::tokenize::forward::ForwardTokenizer;
use crate::html::tokenize::{TokenKind, parse_tag};

/// One element of a cleaned page and its fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElementPrint {
    /// Byte range of the element (start tag to end tag) in the cleaned buffer.
    pub start: u32,
    pub end: u32,
    pub hash: u64,
    /// Text weight inside the element (see `textstats`).
    pub weight: u32,
    /// Of which outside links.
    pub plain: u32,
}

/// Elements that may be removed as a whole: blocks and unknown elements, not the page.
pub fn is_removable(tag: Tag) -> bool {
    (tag.is_block() || tag == Tag::Other) && !matches!(tag, Tag::Body | Tag::Html | Tag::Br)
}

/// A fixed 64-bit hash state (multiply-rotate over 8-byte words; not for adversaries, who
/// can at most make their own site's blocks collide).
#[derive(Clone, Copy)]
struct Hasher(u64);

const K0: u64 = 0x9E37_79B9_7F4A_7C15;
const K1: u64 = 0xC2B2_AE3D_27D4_EB4F;

impl Hasher {
    fn new(seed: u64) -> Self {
        Hasher(seed ^ K0)
    }

    #[inline]
    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(K1).rotate_left(29);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        self.word(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 56));
    }

    fn finish(self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(K0);
        h ^= h >> 29;
        h
    }
}

struct Open {
    start: u32,
    tag: Tag,
    hasher: Hasher,
    weight: u32,
    plain: u32,
}

/// The fingerprints of `cleaned`'s removable elements that hold text, in end-tag order
/// (children before their parents), and the fingerprint of the whole page.
pub fn element_prints(cleaned: &Cleaned) -> (Vec<ElementPrint>, u64) {
    let buf = &cleaned.buf[..];
    let runs = &cleaned.runs;
    let mut next_run = 0usize;
    let mut prints = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut root = Hasher::new(1);
    for tok in ForwardTokenizer::new(buf, 0) {
        let bytes = &buf[tok.start as usize..(tok.end as usize).min(buf.len())];
        match tok.kind {
            TokenKind::Text => {
                // Non-blank text runs are the cleaner's runs, in buffer order.
                while next_run < runs.len() && runs[next_run].start < tok.start {
                    next_run += 1;
                }
                let (weight, plain) = match runs.get(next_run) {
                    Some(r) if r.start == tok.start => {
                        let w = r.measure.weight;
                        (w, if r.flags & IN_LINK != 0 { 0 } else { w })
                    }
                    _ => (0, 0),
                };
                match stack.last_mut() {
                    Some(top) => {
                        top.hasher.bytes(bytes);
                        top.weight = top.weight.saturating_add(weight);
                        top.plain = top.plain.saturating_add(plain);
                    }
                    None => root.bytes(bytes),
                }
            }
            TokenKind::StartTag => {
                let info = parse_tag(buf, tok);
                if info.tag.is_void() {
                    match stack.last_mut() {
                        Some(top) => top.hasher.bytes(bytes),
                        None => root.bytes(bytes),
                    }
                    continue;
                }
                let mut hasher = Hasher::new(2);
                hasher.bytes(bytes);
                stack.push(Open {
                    start: tok.start,
                    tag: info.tag,
                    hasher,
                    weight: 0,
                    plain: 0,
                });
            }
            TokenKind::EndTag => {
                // A stray end tag (never in a cleaned buffer) closes nothing.
                let Some(open) = stack.pop() else { continue };
                close(open, tok.end, &mut stack, &mut root, &mut prints);
            }
        }
    }
    // Unclosed elements (never in a cleaned buffer) end with the buffer.
    while let Some(open) = stack.pop() {
        close(open, buf.len() as u32, &mut stack, &mut root, &mut prints);
    }
    (prints, root.finish())
}

fn close(
    open: Open,
    end: u32,
    stack: &mut [Open],
    root: &mut Hasher,
    prints: &mut Vec<ElementPrint>,
) {
    let hash = open.hasher.finish();
    if open.weight > 0 && is_removable(open.tag) {
        prints.push(ElementPrint {
            start: open.start,
            end,
            hash,
            weight: open.weight,
            plain: open.plain,
        });
    }
    match stack.last_mut() {
        Some(parent) => {
            parent.hasher.word(hash);
            parent.weight = parent.weight.saturating_add(open.weight);
            parent.plain = parent.plain.saturating_add(open.plain);
        }
        None => root.word(hash),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::clean::{CleanOptions, clean};

    fn prints(html: &str) -> (Vec<ElementPrint>, u64, Cleaned) {
        let cleaned = clean(html.as_bytes(), CleanOptions::default());
        let (p, root) = element_prints(&cleaned);
        (p, root, cleaned)
    }

    fn text_of(c: &Cleaned, p: &ElementPrint) -> String {
        String::from_utf8_lossy(&c.buf[p.start as usize..p.end as usize]).into_owned()
    }

    #[test]
    fn same_markup_same_print_on_other_pages() {
        let nav = "<div class=nav><ul><li><a href=/>Home</a></li><li><a href=/news>News</a></li></ul></div>";
        let a = format!("<body>{nav}<div id=main><p>First article text.</p></div></body>");
        let b = format!("<body><div id=main><p>Another story entirely.</p></div>{nav}</body>");
        let (pa, ra, ca) = prints(&a);
        let (pb, rb, cb) = prints(&b);
        assert_ne!(ra, rb);
        let nav_a = pa
            .iter()
            .find(|p| text_of(&ca, p).starts_with("<div class=\"nav\""))
            .unwrap();
        let nav_b = pb
            .iter()
            .find(|p| text_of(&cb, p).starts_with("<div class=\"nav\""))
            .unwrap();
        assert_eq!(nav_a.hash, nav_b.hash);
        // The articles differ, and so do their wrappers.
        let main_a = pa
            .iter()
            .find(|p| text_of(&ca, p).contains("id=\"main\""))
            .unwrap();
        let main_b = pb
            .iter()
            .find(|p| text_of(&cb, p).contains("id=\"main\""))
            .unwrap();
        assert_ne!(main_a.hash, main_b.hash);
        assert!(main_a.weight > 0 && nav_a.weight > 0);
    }

    #[test]
    fn content_and_attributes_change_the_print() {
        let base = prints("<body><div class=x><p>Same words</p></div></body>").0;
        let other_class = prints("<body><div class=y><p>Same words</p></div></body>").0;
        let other_text = prints("<body><div class=x><p>Same wordz</p></div></body>").0;
        let last = |p: &Vec<ElementPrint>| p.last().unwrap().hash;
        assert_ne!(last(&base), last(&other_class));
        assert_ne!(last(&base), last(&other_text));
        // The inner paragraph is the same under both classes.
        assert_eq!(base[0].hash, other_class[0].hash);
    }

    #[test]
    fn inline_and_empty_elements_are_not_reported() {
        let (p, _, c) = prints(
            "<body><p>Text with <b>bold</b> and <a href=/x>a link</a>.</p><div class=empty></div></body>",
        );
        let tags: Vec<String> = p.iter().map(|p| text_of(&c, p)).collect();
        assert_eq!(p.len(), 1, "{tags:?}");
        assert!(tags[0].starts_with("<p>"), "{tags:?}");
    }

    #[test]
    fn deep_nesting_is_linear_and_does_not_recurse() {
        let depth = 200_000;
        let html = format!(
            "{}deep text{}",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        let (p, _, _) = prints(&html);
        assert_eq!(p.len(), depth);
        // Children come before their parents; every wrapper holds the text.
        assert!(
            p.windows(2)
                .all(|w| w[0].start > w[1].start && w[0].end < w[1].end)
        );
    }
}
