//! Text emission: the text of a subtree as [`Blocks`]. Block elements (and `br`) end a line,
//! inline elements join, character references are decoded, whitespace runs fold to one
//! space, lines are trimmed and empty lines dropped; each line is tagged with the kind of the
//! element it sits in (see `blocks`).
//!
//! Invariants: iterative walk; every block holds a non-empty line with no `\n` and never
//! two spaces in a row; opening and closing block elements never changes where lines break.

use crate::html::entities::append_decoded;
use crate::html::find::{ONES, equal_bytes};
use crate::html::tags::Tag;
use crate::html::tree::{Kind, NONE, Tree};
use crate::text::blocks::{BlockContext, Blocks};

/// Builds blocks line by line.
#[derive(Default)]
pub struct TextSink {
    blocks: Blocks,
    line: String,
    scratch: String,
    context: BlockContext,
}

impl TextSink {
    /// Ends the current line (a `br`, or text around a block element).
    pub fn end_line(&mut self) {
        let trimmed = self.line.trim_end().len();
        self.line.truncate(trimmed);
        if !self.line.is_empty() {
            let kind = self.context.line_kind();
            if self.blocks.is_empty() {
                // The first line becomes the text as is: a page of one huge text node is
                // not held twice.
                self.blocks
                    .push_first_line(kind, std::mem::take(&mut self.line));
            } else {
                self.blocks.push_line(kind, &self.line);
            }
        }
        self.line.clear();
    }

    /// A block element opens: the line before it ends.
    pub fn open_block(&mut self, tag: Tag) {
        self.end_line();
        self.context.open(tag);
    }

    /// A block element closes: its last line ends.
    pub fn close_block(&mut self, tag: Tag) {
        self.end_line();
        self.context.close(tag);
    }

    /// Append raw (entity-encoded) text.
    pub fn push_raw(&mut self, raw: &[u8]) {
        // `from_utf8` checks ASCII a word at a time; the lossy decoder only when it must.
        let s = match std::str::from_utf8(raw) {
            Ok(valid) => std::borrow::Cow::Borrowed(valid),
            Err(_) => String::from_utf8_lossy(raw),
        };
        if memchr::memchr(b'&', raw).is_none() {
            // No entity: no decoded copy.
            self.push_decoded(&s);
            return;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        append_decoded(&mut scratch, &s);
        self.push_decoded(&scratch);
        self.scratch = scratch;
    }

    /// Append already decoded text.
    pub fn push_decoded(&mut self, text: &str) {
        let mut rest = text;
        loop {
            // A run of visible ASCII, with the single spaces between its words, is copied at
            // once: a space is taken only where it would be written (after a visible
            // character, or first on a line that does not end with one).
            let space_ok = !self.line.is_empty() && !self.line.ends_with(' ');
            let run = visible_run(rest.as_bytes(), space_ok);
            self.line.push_str(&rest[..run]);
            rest = &rest[run..];
            let Some(ch) = rest.chars().next() else {
                return;
            };
            if ch.is_whitespace() {
                if !self.line.is_empty() && !self.line.ends_with(' ') {
                    self.line.push(' ');
                }
            } else {
                self.line.push(ch);
            }
            rest = &rest[ch.len_utf8()..];
        }
    }

    pub fn finish(mut self) -> Blocks {
        self.end_line();
        self.blocks
    }
}

/// Emit every text of a cleaned buffer in document order with one forward token walk (no
/// tree), leaving out the elements and texts occupying the `skip` ranges (sorted, disjoint,
/// each the whole of an element from its start tag to its end tag, or one text token). A
/// left-out block element still ends the line before it, as an empty one would.
pub fn emit_flat(buf: &[u8], skip: &[(u32, u32)], sink: &mut TextSink) {
    use crate::html::tokenize::forward::ForwardTokenizer;
    use crate::html::tokenize::{TokenKind, parse_tag};
    let mut next_skip = 0;
    let mut tokens = ForwardTokenizer::new(buf, 0);
    while let Some(token) = tokens.next() {
        while next_skip < skip.len() && skip[next_skip].0 < token.start {
            next_skip += 1;
        }
        if let Some(&(start, end)) = skip.get(next_skip)
            && start == token.start
            && token.kind != TokenKind::EndTag
        {
            if token.kind == TokenKind::StartTag {
                let tag = parse_tag(buf, token).tag;
                if tag.is_block() {
                    sink.open_block(tag);
                    sink.close_block(tag);
                }
            }
            tokens = ForwardTokenizer::new(buf, end as usize);
            next_skip += 1;
            continue;
        }
        match token.kind {
            TokenKind::Text => sink.push_raw(&buf[token.start as usize..token.end as usize]),
            TokenKind::StartTag => {
                let tag = parse_tag(buf, token).tag;
                if tag.is_block() {
                    sink.open_block(tag);
                }
            }
            TokenKind::EndTag => {
                let tag = parse_tag(buf, token).tag;
                if tag.is_block() {
                    sink.close_block(tag);
                }
            }
        }
    }
}

/// Emit the text of `root`'s subtree, leaving out the subtrees for which `skip` is true.
pub fn emit_subtree(
    tree: &Tree,
    buf: &[u8],
    root: u32,
    sink: &mut TextSink,
    mut skip: impl FnMut(u32) -> bool,
) {
    if root == NONE {
        return;
    }
    let is_block = |id: u32| {
        let n = tree.node(id);
        n.kind != Kind::Text && n.tag.is_block()
    };
    // Iterative walk with parent/sibling links; blocks open on entry and close on exit.
    let mut id = root;
    loop {
        let n = tree.node(id);
        let mut entered = false;
        match n.kind {
            Kind::Text => {
                let (s, e) = (n.start as usize, (n.end as usize).min(buf.len()));
                if s < e {
                    sink.push_raw(&buf[s..e]);
                }
            }
            _ if id == root || !skip(id) => {
                if n.tag.is_block() {
                    sink.open_block(n.tag);
                }
                entered = true;
            }
            // A skipped block still separates the lines around it.
            _ if n.tag.is_block() => sink.end_line(),
            _ => {}
        }
        if entered && n.first_child != NONE {
            id = n.first_child;
            continue;
        }
        if entered && is_block(id) {
            sink.close_block(n.tag);
        }
        // Leave `id` and its ancestors until one has a next sibling.
        loop {
            if id == root {
                return;
            }
            let n = tree.node(id);
            if n.next != NONE {
                id = n.next;
                break;
            }
            id = n.parent;
            if id == NONE {
                return;
            }
            if is_block(id) {
                sink.close_block(tree.node(id).tag);
            }
        }
    }
}

const HIGHS: u64 = ONES * 0x80;

/// The length of the leading run of `text` that is copied as it is: visible ASCII with single
/// spaces between, where a space is taken only after a visible character (`space_ok` says
/// whether the line so far ends with one). Eight bytes at a time while a word holds only
/// such bytes, then a byte at a time to the exact end.
fn visible_run(text: &[u8], mut space_ok: bool) -> usize {
    let mut i = 0;
    while let Some(chunk) = text.get(i..i + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        // ASCII (high bits clear) at least `!` (adding 0x5f sets the high bit of a byte from
        // 0x21 up, without a carry out of an ASCII byte; a word with another byte is refused
        // whatever the carries), and not DEL: visible.
        let visible =
            !word & word.wrapping_add(ONES * 0x5f) & HIGHS & !equal_bytes(word, ONES * 0x7f);
        let spaces = equal_bytes(word, ONES * u64::from(b' '));
        // Every byte visible or a space, no space after a space, none first unless allowed.
        if visible | spaces != HIGHS
            || spaces & (spaces << 8) != 0
            || (!space_ok && spaces & 0x80 != 0)
        {
            break;
        }
        space_ok = visible >> 63 != 0;
        i += 8;
    }
    i + text[i..]
        .iter()
        .position(|&b| {
            if b.is_ascii_graphic() {
                space_ok = true;
            } else if b == b' ' && space_ok {
                space_ok = false;
            } else {
                return true;
            }
            false
        })
        .unwrap_or(text.len() - i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `push_decoded` as first written, one character at a time after each visible-ASCII run.
    fn push_decoded_by_char(line: &mut String, text: &str) {
        for ch in text.chars() {
            if ch.is_whitespace() {
                if !line.is_empty() && !line.ends_with(' ') {
                    line.push(' ');
                }
            } else {
                line.push(ch);
            }
        }
    }

    #[test]
    fn decoded_text_folds_whitespace_as_character_by_character() {
        // Every sequence of up to five of these pieces, after a line that is empty, ends
        // with a space, or ends with a letter.
        let pieces = [
            "a", "b.", " ", "  ", "\t", "\n", "\u{a0}", "é", "\u{3000}", "中",
        ];
        let mut texts = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
                .collect();
            texts.extend(longer);
            texts.dedup();
        }
        for before in ["", "x ", "x"] {
            for text in &texts {
                let mut sink = TextSink::default();
                sink.line.push_str(before);
                sink.push_decoded(text);
                let mut expected = before.to_string();
                push_decoded_by_char(&mut expected, text);
                assert_eq!(sink.line, expected, "{before:?} + {text:?}");
            }
        }
    }

    #[test]
    fn long_decoded_texts_fold_as_character_by_character() {
        // Texts long enough for the eight-byte steps, from pieces chosen by a fixed
        // generator: words, single and double spaces, tabs, DEL, non-ASCII.
        let pieces = [
            "word",
            "a",
            " ",
            "  ",
            "\t",
            "\n",
            "x.y",
            "\u{7f}",
            "\u{a0}",
            "é",
            "中",
            "longerword!",
            " b ",
            "~",
            "\u{1}",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..(state % 40) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push_str(pieces[(state % pieces.len() as u64) as usize]);
            }
            for before in ["", "x ", "x"] {
                let mut sink = TextSink::default();
                sink.line.push_str(before);
                sink.push_decoded(&text);
                let mut expected = before.to_string();
                push_decoded_by_char(&mut expected, &text);
                assert_eq!(sink.line, expected, "{before:?} + {text:?}");
            }
        }
    }
}
