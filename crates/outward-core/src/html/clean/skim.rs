//! The skim: the first pass of windowed reading (issue #38). One forward pass over the raw
//! page that reads where markup starts and ends, tag names, and the lengths and sentence
//! marks of text runs, and nothing else: a tag's attributes are stepped over as the
//! cleaner's [`scan_attrs`] steps over them (quotes honoured, nothing recorded), so no
//! attribute value is ever read, and no character reference is decoded. What it gives
//! ([`Skim`]) is enough to rank seeds and to climb from one without the cleaner: the
//! elements as raw byte ranges with their parents, and the page's blocks (the text between
//! two block boundaries) with their text, link text and marks.
//!
//! Measured (2026-11-29, `examples/windowed_reading.rs`, callgrind, dragnet): 59 % of the
//! cleaner's instructions, against 31 % for the bare lexing ([`count_start_tags`]); the
//! cleaner over its window costs 49 % more, so `reverse` does not use it (see
//! `methods::reverse::window`). A search for `>` and quotes alone instead of `scan_attrs`
//! measured slower: pages quote every value.
//!
//! It shares the cleaner's lexing (`lex`: comments, raw-text and script ends, tag ends) so
//! that both passes agree on where markup is; its tree rules are a subset of the cleaner's
//! (`p`, `li`, `dt`/`dd`, table rows and cells, `option` end where HTML ends them; an end
//! tag closes the nearest open element of its name among the innermost
//! [`END_TAG_SEARCH`], else it is ignored). Elements whose content is never shown
//! (`script`, `style`, `template`, `svg`, `noscript`, ...) hold no text here (`svg` and
//! `math` are stepped over to their end tag, as raw text is); what the cleaner hides by
//! attributes (`hidden`, `display:none`) a skim cannot see.
//!
//! Invariants: linear time (every stack search is capped), no recursion, never panics on
//! any bytes; element ranges nest (a child lies inside its parent); blocks are in page
//! order; the result does not change when the bytes of any attribute value change (other
//! than its quotes and `>`).

use super::lex::{
    Markup, find_raw_end, find_script_end, lowercase_tag, markup_at, scan_attrs, skip_end_tag,
    skip_to_gt, tag_name_end,
};
use crate::html::find::find_byte;
use crate::html::tags::Tag;
use crate::html::textstats::sentence_marks;

/// `SkimElement::parent` of the outermost elements.
pub const NO_PARENT: u32 = u32::MAX;

/// How deep into the open elements an end tag looks for its start tag.
pub const END_TAG_SEARCH: usize = 32;

/// One element of the raw page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkimElement {
    /// Offset of its start tag's `<`.
    pub start: u32,
    /// Offset just past its end tag (or where an implied end or the input ended it).
    pub end: u32,
    /// Index of its parent in [`Skim::elements`], or [`NO_PARENT`].
    pub parent: u32,
    pub tag: Tag,
}

/// The text between two block boundaries of the raw page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkimBlock {
    /// Offset of its first text run.
    pub start: u32,
    /// Bytes of text that are not whitespace.
    pub text: u32,
    /// Of those, the bytes inside links.
    pub link_text: u32,
    /// Sentence marks (`.`, `!`, `?`, `,`, `;` and their CJK forms).
    pub marks: u32,
    /// Index of the innermost element open at its first text run, or [`NO_PARENT`].
    pub element: u32,
    /// Inside an element that is boilerplate by its tag (`nav`, `aside`, `footer`, `dialog`).
    pub boiler: bool,
}

/// What the skim read of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skim {
    /// Every element, in the order of its start tag.
    pub elements: Vec<SkimElement>,
    /// Every block with text, in page order.
    pub blocks: Vec<SkimBlock>,
}

/// The start tags of `src` as the skim's lexer finds them, and nothing else (no names, no
/// text, no tree): the floor of any first pass that must know where markup is, measured
/// against [`skim`] and the cleaner in `docs/benchmarks.md` (`examples/windowed_reading.rs`).
pub fn count_start_tags(src: &[u8]) -> usize {
    let n = src.len();
    let (mut i, mut tags) = (0, 0);
    while let Some(k) = find_byte(b'<', &src[i.min(n)..]) {
        let lt = i + k;
        i = match markup_at(src, lt) {
            Markup::Skipped(next) | Markup::Text(next) => next,
            Markup::EndTag => skip_to_gt(src, lt + 2),
            Markup::StartTag => {
                tags += 1;
                let name_end = tag_name_end(src, lt + 1);
                let Some(after) = scan_attrs(src, name_end, None) else {
                    break;
                };
                match lowercase_tag(&src[lt + 1..name_end]) {
                    Tag::Script => skip_end_tag(src, find_script_end(src, after)),
                    t if t.is_raw_text() => skip_end_tag(src, find_raw_end(src, after, t.name())),
                    _ => after,
                }
            }
        };
    }
    tags
}

/// An element open during the skim.
struct Open {
    index: u32,
    tag: Tag,
}

/// The skim's state over one page.
struct Skimmer<'a> {
    src: &'a [u8],
    out: Skim,
    stack: Vec<Open>,
    block: SkimBlock,
    links: u32,
    boiler: u32,
    hidden: u32,
    /// Stack position of the open `head`, if one is open.
    head_at: Option<usize>,
}

/// Skims `src` (the decoded page). See the module docs.
pub fn skim(src: &[u8]) -> Skim {
    let mut s = Skimmer {
        src,
        out: Skim::default(),
        stack: Vec::new(),
        block: SkimBlock::default(),
        links: 0,
        boiler: 0,
        hidden: 0,
        head_at: None,
    };
    s.run();
    s.out
}

impl Skimmer<'_> {
    fn run(&mut self) {
        let src = self.src;
        let n = src.len();
        let mut i = 0;
        while i < n {
            let lt = match find_byte(b'<', &src[i..]) {
                Some(k) => i + k,
                None => n,
            };
            self.text(i, lt);
            if lt >= n {
                break;
            }
            i = match markup_at(src, lt) {
                Markup::Skipped(next) => next,
                Markup::EndTag => self.end_tag(lt),
                Markup::StartTag => match self.start_tag(lt) {
                    Some(next) => next,
                    // A start tag that never ends: it and the rest are dropped.
                    None => n,
                },
                Markup::Text(end) => {
                    self.text(lt, end);
                    end
                }
            };
        }
        self.flush();
        let end = n as u32;
        while let Some(open) = self.stack.pop() {
            self.out.elements[open.index as usize].end = end;
        }
    }

    /// Counts the text run `src[from..to]` into the open block (unless it is not shown).
    fn text(&mut self, from: usize, to: usize) {
        if from >= to || self.hidden > 0 {
            return;
        }
        let (text, marks) = text_and_marks(&self.src[from..to]);
        if text == 0 {
            return;
        }
        if self.block.text == 0 {
            self.block.start = from as u32;
            self.block.element = self.stack.last().map_or(NO_PARENT, |o| o.index);
            self.block.boiler = self.boiler > 0;
        }
        self.block.text += text;
        self.block.marks += marks;
        if self.links > 0 {
            self.block.link_text += text;
        }
    }

    /// Ends the open block (a block boundary).
    fn flush(&mut self) {
        if self.block.text > 0 {
            self.out.blocks.push(self.block);
        }
        self.block = SkimBlock::default();
    }

    /// A start tag at `lt`: where reading goes on.
    fn start_tag(&mut self, lt: usize) -> Option<usize> {
        let src = self.src;
        let name_end = tag_name_end(src, lt + 1);
        let tag = lowercase_tag(&src[lt + 1..name_end]);
        let after = scan_attrs(src, name_end, None)?;
        self.implied_ends(tag, lt);
        if tag.is_block() {
            self.flush();
        }
        let index = self.out.elements.len() as u32;
        let parent = self.stack.last().map_or(NO_PARENT, |o| o.index);
        let mut element = SkimElement {
            start: lt as u32,
            end: after as u32,
            parent,
            tag,
        };
        if tag.is_raw_text() || matches!(tag, Tag::Noscript | Tag::Svg | Tag::Math) {
            // Content that is never markup, up to its end tag, or (`svg`, `math`: foreign
            // content, whose `<path/>` closes itself) markup that is never shown: stepped
            // over to its end tag.
            let content_end = match tag {
                Tag::Script => find_script_end(src, after),
                _ => find_raw_end(src, after, tag.name()),
            };
            let next = skip_end_tag(src, content_end);
            element.end = next as u32;
            self.out.elements.push(element);
            return Some(next);
        }
        self.out.elements.push(element);
        if tag.is_void() {
            return Some(after);
        }
        self.enter(tag, 1);
        if tag == Tag::Head && self.head_at.is_none() {
            self.head_at = Some(self.stack.len());
        }
        self.stack.push(Open { index, tag });
        Some(after)
    }

    /// An end tag at `lt`: closes the nearest open element of its name (and every element
    /// inside it); ignored when none is open within [`END_TAG_SEARCH`].
    fn end_tag(&mut self, lt: usize) -> usize {
        let src = self.src;
        let name_end = tag_name_end(src, lt + 2);
        let tag = lowercase_tag(&src[lt + 2..name_end]);
        let next = skip_end_tag(src, lt);
        if tag.is_block() {
            self.flush();
        }
        let depth = self.stack.len();
        let found = self.stack[depth.saturating_sub(END_TAG_SEARCH)..]
            .iter()
            .rposition(|o| o.tag == tag);
        if let Some(k) = found {
            self.close(
                depth.saturating_sub(END_TAG_SEARCH) + k,
                lt as u32,
                next as u32,
            );
        }
        next
    }

    /// HTML's implied end tags for a start tag `tag` at `lt`: an open `p` ends at a block
    /// that closes it, `li` at `li`, `dt`/`dd` at either, a cell at a cell or row, a row at a
    /// row, an `option` at an `option`.
    fn implied_ends(&mut self, tag: Tag, lt: usize) {
        use Tag::*;
        // `head` ends where the body starts (many pages never close it).
        if (tag == Body || tag.is_block())
            && let Some(k) = self.head_at
        {
            self.close(k, lt as u32, lt as u32);
        }
        let closes: &[Tag] = match tag {
            Li => &[Li, P],
            Dt | Dd => &[Dt, Dd, P],
            Td | Th => &[Td, Th],
            Tr => &[Tr, Td, Th],
            Option => &[Option],
            t if t.closes_p() => &[P],
            _ => return,
        };
        // Only the innermost open elements, up to a container that scopes them.
        let depth = self.stack.len();
        let mut k = depth;
        while k > depth.saturating_sub(END_TAG_SEARCH) {
            let open = self.stack[k - 1].tag;
            if closes.contains(&open) {
                self.close(k - 1, lt as u32, lt as u32);
                return;
            }
            if matches!(open, Ul | Ol | Dl | Table | Tbody | Thead | Tfoot | Select)
                || open.is_special_scope_stop()
            {
                return;
            }
            k -= 1;
        }
    }

    /// Closes the open element at stack position `k` (ending at `end`) and every element
    /// inside it (ending at `inner_end`, where an implied end or the end tag starts).
    fn close(&mut self, k: usize, inner_end: u32, end: u32) {
        while self.stack.len() > k {
            let open = self.stack.pop().expect("longer than k");
            let at = if self.stack.len() == k {
                end
            } else {
                inner_end
            };
            self.out.elements[open.index as usize].end = at;
            self.enter(open.tag, -1);
        }
        if self.head_at.is_some_and(|h| h >= self.stack.len()) {
            self.head_at = None;
        }
    }

    /// Entering (`by` = 1) or leaving (−1) an element of `tag`: the link, boilerplate and
    /// not-shown depths it counts in.
    fn enter(&mut self, tag: Tag, by: i32) {
        let add = |d: &mut u32| *d = d.wrapping_add_signed(by);
        if tag == Tag::A {
            add(&mut self.links);
        }
        if tag.is_boilerplate() {
            add(&mut self.boiler);
        }
        if tag.is_removed() {
            add(&mut self.hidden);
        }
    }
}

/// The bytes of `run` that are not whitespace (every byte up to the space, control
/// characters too), and its sentence marks ([`sentence_marks`]).
fn text_and_marks(run: &[u8]) -> (u32, u32) {
    let shown = run.iter().filter(|&&b| b > b' ').count();
    if shown == 0 {
        // Whitespace between tags, most runs: no marks to look for.
        return (0, 0);
    }
    (shown as u32, sentence_marks(run) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(s: &Skim) -> Vec<Tag> {
        s.elements.iter().map(|e| e.tag).collect()
    }

    #[test]
    fn elements_nest_and_blocks_hold_their_text() {
        let page = b"<html><body><div id=a><p>One two.<p>Three <a href=x>four</a></div>\
            <script>if (a<b) x='<p>';</script><nav>Menu</nav></body></html>";
        let s = skim(page);
        use Tag::*;
        assert_eq!(tags(&s), [Html, Body, Div, P, P, A, Script, Nav]);
        // The first `p` ends where the second starts; both end inside the div.
        let [_, _, div, p1, p2, ..] = s.elements[..] else {
            panic!("eight elements")
        };
        assert_eq!(p1.end, p2.start);
        assert!(div.start < p2.start && p2.end <= div.end);
        assert_eq!(p2.parent, 2);
        let texts: Vec<(u32, u32, u32, bool)> = s
            .blocks
            .iter()
            .map(|b| (b.text, b.link_text, b.marks, b.boiler))
            .collect();
        // "One two." (7 non-space bytes, 1 mark); "Three four" (9, 4 in the link); "Menu".
        assert_eq!(texts, [(7, 0, 1, false), (9, 4, 0, false), (4, 0, 0, true)]);
    }

    /// Regression: the skim ended `<!-->` and `<!--->` (complete, empty comments) at the
    /// next `-->`, hiding the text between, which the cleaner shows; both now read markup
    /// through `lex::markup_at`. A `</` ending the input is text to both.
    #[test]
    fn the_skim_reads_markup_as_the_cleaner_does() {
        // (page, the text the cleaner writes (`<` escaped), the skim's text bytes).
        for (page, shown, skimmed) in [
            ("<p><!-->Shown one.<!-- hidden --></p>", "Shown one.", 9),
            ("<p><!--->Shown two.</p><!-- -->", "Shown two.", 9),
            ("<p>a</>b<!x>c<?y>d</ z>e</p>", "abcde", 5),
            ("<p>end</", "end&lt;/", 5),
        ] {
            let cleaned = super::super::clean(page.as_bytes(), Default::default());
            let text = String::from_utf8_lossy(&cleaned.buf);
            assert!(
                text.contains(shown),
                "{page}: the cleaner shows {shown:?} in {text:?}"
            );
            let bytes: u32 = skim(page.as_bytes()).blocks.iter().map(|b| b.text).sum();
            assert_eq!(bytes, skimmed, "{page}");
        }
    }

    #[test]
    fn attribute_values_are_never_read() {
        let page = "<div class=\"story body\" data-x='a > b'><p title=\"Hello. World!\">Text \
            here.</p><a href=\"/x?y=1&amp;z=2\">link</a></div>";
        let scrambled = "<div class=\"xxxxx xxxx\" data-x='x > x'><p title=\"xxxxxxxxxxxxx\">Text \
            here.</p><a href=\"xxxxxxxxxxxxxx\">link</a></div>";
        assert_eq!(page.len(), scrambled.len());
        assert_eq!(skim(page.as_bytes()), skim(scrambled.as_bytes()));
        // "Text here." and the link after the paragraph.
        assert_eq!(skim(page.as_bytes()).blocks.len(), 2);
    }

    /// `page` with every byte of every quoted attribute value of its start tags but the
    /// quotes and `>` replaced (letters by `x`, others by `-`).
    fn scrambled(page: &str) -> Vec<u8> {
        let mut out = page.as_bytes().to_vec();
        let (mut in_tag, mut quote, mut after_eq) = (false, 0u8, false);
        for i in 0..out.len() {
            let b = out[i];
            if quote != 0 {
                if b == quote {
                    quote = 0;
                } else if b != b'>' {
                    out[i] = if b.is_ascii_alphabetic() { b'x' } else { b'-' };
                }
            } else if !in_tag {
                in_tag = b == b'<' && out.get(i + 1).is_some_and(u8::is_ascii_alphabetic);
            } else if b == b'>' {
                in_tag = false;
            } else if (b == b'"' || b == b'\'') && after_eq {
                quote = b;
            }
            if quote == 0 && !b.is_ascii_whitespace() {
                after_eq = b == b'=';
            }
        }
        out
    }

    #[test]
    fn the_skim_of_real_pages_reads_no_attribute_value() {
        let pages = [
            include_str!("../../../../../testdata/extract/en_article.html"),
            include_str!("../../../../../testdata/extract/zh_article.html"),
            include_str!("../../../../../testdata/extract/broken_markup.html"),
            include_str!("../../../../../testdata/extract/comments.html"),
            include_str!("../../../../../testdata/extract/link_lists_only.html"),
            include_str!("../../../../../testdata/extract/table_layout.html"),
        ];
        for page in pages {
            let changed = scrambled(page);
            assert_ne!(changed, page.as_bytes(), "the page has attribute values");
            let s = skim(page.as_bytes());
            assert!(!s.blocks.is_empty());
            assert_eq!(s, skim(&changed));
        }
    }

    #[test]
    fn hostile_input_is_linear_and_total() {
        // 100,000 unclosed divs (inside an unclosed head: each closes nothing more), a tag
        // that never ends, stray end tags, bare `<`.
        let mut page = "<head>".to_string();
        page.push_str(&"<div>".repeat(100_000));
        page.push_str("</span></p> a < b <<>< text");
        let s = skim(page.as_bytes());
        assert_eq!(s.elements.len(), 100_001);
        // The head ends at the first div; every div runs to the end.
        assert_eq!(s.elements[0].end, 6);
        assert!(s.elements[1..].iter().all(|e| e.end as usize == page.len()));
        assert_eq!(skim(b"<p>ok<div class=\"never ends").blocks.len(), 1);
        for cut in 0..40 {
            let _ = skim(&b"<p a='<'>x</p><!-- c --><script>y</script>"[..cut]);
        }
    }
}
