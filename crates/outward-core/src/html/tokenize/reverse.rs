//! Reverse tokenizer (paper 002 §2.1): reads tokens from a position towards the start of a
//! cleaned buffer. Each `>`…`<` pair read backwards is a tag; the bytes between two tags are
//! a text token.
//!
//! State machine: `Data` (the byte before the position is text) scans back to the previous
//! `>` (memrchr) — the text's start; `TagClose` (the byte before is `>`) scans back to the
//! previous `<` (memrchr) — the tag's start. Because the cleaner turned every `<`/`>` in text
//! and attribute values into references, these pairs are exact: a `>` inside a quoted
//! attribute value of the source never reaches this buffer.
//! Invariants: the position only shrinks; on a cleaned buffer the tokens are exactly those
//! of the forward tokenizer in reverse order (on other bytes: total, never a panic).

use super::{Token, TokenKind, tag_kind};
use memchr::{memrchr, memrchr2};

pub struct ReverseTokenizer<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> ReverseTokenizer<'a> {
    /// Start at `pos` (a token boundary); tokens come from `buf[..pos]`.
    pub fn new(buf: &'a [u8], pos: usize) -> Self {
        ReverseTokenizer {
            buf,
            pos: pos.min(buf.len()),
        }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }
}

impl Iterator for ReverseTokenizer<'_> {
    type Item = Token;

    #[inline]
    fn next(&mut self) -> Option<Token> {
        let buf = self.buf;
        let end = self.pos;
        if end == 0 {
            return None;
        }
        if buf[end - 1] == b'>' {
            // TagClose: the tag starts at the last `<` before it, unless another `>` comes
            // first (then the `>` is junk text in an uncleaned buffer).
            if let Some(lt) = memrchr2(b'<', b'>', &buf[..end - 1])
                && buf[lt] == b'<'
            {
                self.pos = lt;
                return Some(Token {
                    kind: tag_kind(buf, lt),
                    start: lt as u32,
                    end: end as u32,
                });
            }
        }
        // Data: text back to just after the previous `>` (or a `<` that starts a tag the
        // forward reader would have stopped at). On a cleaned buffer, one scan for either.
        let start = match memrchr2(b'<', b'>', &buf[..end]) {
            Some(lt) if buf[lt] == b'<' => Some(lt),
            Some(gt) if gt + 1 < end => Some(gt + 1),
            _ => None,
        };
        if let Some(start) = start {
            self.pos = start;
            return Some(Token {
                kind: TokenKind::Text,
                start: start as u32,
                end: end as u32,
            });
        }
        // Junk (a `>` right before the position that starts no tag): the general rule.
        let start = match memrchr(b'>', &buf[..end]) {
            Some(gt) if gt + 1 < end || buf[end - 1] != b'>' => gt + 1,
            _ => 0,
        };
        let start = match memrchr(b'<', &buf[start..end]) {
            Some(lt) => start + lt,
            None => start,
        };
        self.pos = start;
        Some(Token {
            kind: TokenKind::Text,
            start: start as u32,
            end: end as u32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::forward::ForwardTokenizer;
    use super::*;

    #[test]
    fn reverse_equals_forward_reversed() {
        let bufs: [&[u8]; 5] = [
            b"<p>ab</p>c",
            b"x<div id=\"a\"><br>t &amp; u</div>",
            b"",
            b"plain",
            b"<p>",
        ];
        for buf in bufs {
            let fwd: Vec<_> = ForwardTokenizer::new(buf, 0).collect();
            let mut rev: Vec<_> = ReverseTokenizer::new(buf, buf.len()).collect();
            rev.reverse();
            assert_eq!(fwd, rev, "{:?}", String::from_utf8_lossy(buf));
        }
    }
}
