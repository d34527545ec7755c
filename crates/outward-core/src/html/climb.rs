//! Range climbing without a tree: from the byte range of a complete element of a cleaned
//! (balanced) buffer, find the range of each enclosing element in turn by counting tag depth
//! with the reverse and forward tokenizers. No node is built: the methods score candidate
//! ancestors from flat per-block statistics over these ranges and build the tree only for
//! the ancestor they keep.
//!
//! Invariants: each byte is tokenized at most once over all calls (the tokenizers continue
//! where they stopped); ranges only grow; O(1) memory.

use crate::html::tokenize::forward::ForwardTokenizer;
use crate::html::tokenize::reverse::ReverseTokenizer;
use crate::html::tokenize::{TokenKind, parse_tag};

pub struct RangeClimber<'a> {
    buf: &'a [u8],
    back: ReverseTokenizer<'a>,
    fwd: ForwardTokenizer<'a>,
    start: usize,
    end: usize,
}

impl<'a> RangeClimber<'a> {
    /// Start from the element occupying `buf[start..end]`.
    pub fn new(buf: &'a [u8], start: usize, end: usize) -> Self {
        let end = end.min(buf.len());
        let start = start.min(end);
        RangeClimber {
            buf,
            back: ReverseTokenizer::new(buf, start),
            fwd: ForwardTokenizer::new(buf, end),
            start,
            end,
        }
    }

    /// Bytes tokenized so far (the current range).
    pub fn bytes_touched(&self) -> u64 {
        (self.end - self.start) as u64
    }

    /// The range of the enclosing element, or `None` at the top of the document.
    pub fn parent(&mut self) -> Option<(usize, usize)> {
        let buf = self.buf;
        // Backward: the first start tag without a pending end tag.
        let mut depth = 0usize;
        let start = loop {
            let tok = self.back.next()?;
            match tok.kind {
                TokenKind::Text => {}
                TokenKind::EndTag => depth += 1,
                TokenKind::StartTag => {
                    if parse_tag(buf, tok).tag.is_void() {
                        continue;
                    }
                    if depth == 0 {
                        break tok.start as usize;
                    }
                    depth -= 1;
                }
            }
        };
        // Forward: the first end tag without an open start tag.
        depth = 0;
        let end = loop {
            let Some(tok) = self.fwd.next() else {
                break buf.len();
            };
            match tok.kind {
                TokenKind::Text => {}
                TokenKind::StartTag => {
                    if !parse_tag(buf, tok).tag.is_void() {
                        depth += 1;
                    }
                }
                TokenKind::EndTag => {
                    if depth == 0 {
                        break tok.end as usize;
                    }
                    depth -= 1;
                }
            }
        };
        self.start = start;
        self.end = end;
        Some((start, end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn climbs_enclosing_elements() {
        let buf = b"<body><div><p>a</p><br><p>b</p></div><p>c</p></body>";
        // The second <p>b</p>.
        let s = 23;
        assert_eq!(&buf[s..s + 3], b"<p>");
        let mut c = RangeClimber::new(buf, s, s + 8);
        assert_eq!(c.parent(), Some((6, 37)));
        assert_eq!(c.parent(), Some((0, buf.len())));
        assert_eq!(c.parent(), None);
    }
}
