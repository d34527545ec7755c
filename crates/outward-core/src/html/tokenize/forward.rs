//! Forward tokenizer: reads tokens from a position towards the end of a cleaned buffer.
//!
//! State machine: `Data` (at a text byte or a `<`) → on `<`: `TagOpen` scans to the next
//! `>` (memchr2, stopping at a stray `<`) and emits a tag; otherwise text runs to the next
//! `<`.
//! Invariants: the position only grows; each call is O(token length).

use super::{Token, TokenKind, tag_kind};
use crate::html::find::find_byte;
use memchr::memchr2;

pub struct ForwardTokenizer<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> ForwardTokenizer<'a> {
    /// Start at `pos` (a token boundary).
    pub fn new(buf: &'a [u8], pos: usize) -> Self {
        ForwardTokenizer {
            buf,
            pos: pos.min(buf.len()),
        }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }
}

impl Iterator for ForwardTokenizer<'_> {
    type Item = Token;

    #[inline]
    fn next(&mut self) -> Option<Token> {
        let buf = self.buf;
        let start = self.pos;
        if start >= buf.len() {
            return None;
        }
        if buf[start] == b'<' {
            // TagOpen: the tag ends at the first `>`. A `<` before it would mean the buffer
            // was not cleaned: then that `<` ends the text-like junk instead (keeps both
            // directions in agreement); so does the end of the buffer.
            let (end, kind) = match memchr2(b'<', b'>', &buf[start + 1..]) {
                Some(at) if buf[start + 1 + at] == b'>' => (start + at + 2, tag_kind(buf, start)),
                Some(at) => (start + 1 + at, TokenKind::Text),
                None => (buf.len(), TokenKind::Text),
            };
            self.pos = end;
            return Some(Token {
                kind,
                start: start as u32,
                end: end as u32,
            });
        }
        // Data: text up to the next `<`.
        let end = match find_byte(b'<', &buf[start..]) {
            Some(at) => start + at,
            None => buf.len(),
        };
        self.pos = end;
        Some(Token {
            kind: TokenKind::Text,
            start: start as u32,
            end: end as u32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_in_order() {
        let buf = b"<p>ab</p>c";
        let toks: Vec<_> = ForwardTokenizer::new(buf, 0).collect();
        let kinds: Vec<_> = toks.iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds,
            vec![
                TokenKind::StartTag,
                TokenKind::Text,
                TokenKind::EndTag,
                TokenKind::Text
            ]
        );
        assert_eq!((toks[1].start, toks[1].end), (3, 5));
    }
}
