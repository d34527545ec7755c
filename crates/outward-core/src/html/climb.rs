//! Range climbing without a tree: from the byte range of a complete element of a cleaned
//! (balanced) buffer, find the range of each enclosing element in turn by counting tag depth
//! backwards and forwards. No node is built: the methods score candidate ancestors from flat
//! per-block statistics over these ranges and build the tree only for the ancestor they keep.
//!
//! In a cleaned buffer every `<` starts a tag (text holds `&lt;`), so depth counting visits
//! only the `<` bytes (one short search each) and reads the byte after each: `/` for an end
//! tag, a void start tag (`br`, `hr`) changes no depth. Text and the rest of each tag are
//! never tokenized.
//!
//! Invariants: each byte is scanned at most once over all calls (the scans continue where
//! they stopped); ranges only grow; O(1) memory; total on any bytes (on a buffer that is not
//! cleaned the ranges may be wrong, never a panic).

use crate::html::find::{find_byte, rfind_byte};
use crate::html::tokenize::is_void_start;

pub struct RangeClimber<'a> {
    buf: &'a [u8],
    /// Backward scan: the next `<` looked for lies before this position.
    back: usize,
    /// Forward scan: the next `<` looked for lies at or after this position.
    fwd: usize,
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
            back: start,
            fwd: end,
            start,
            end,
        }
    }

    /// Bytes scanned so far (the current range).
    pub fn bytes_touched(&self) -> u64 {
        (self.end - self.start) as u64
    }

    /// The range of the enclosing element, or `None` at the top of the document.
    pub fn parent(&mut self) -> Option<(usize, usize)> {
        let buf = self.buf;
        // Backward: the first start tag without a pending end tag.
        let mut depth = 0usize;
        let start = loop {
            let lt = rfind_byte(b'<', &buf[..self.back])?;
            self.back = lt;
            if buf.get(lt + 1) == Some(&b'/') {
                depth += 1;
            } else if !is_void_start(buf, lt) {
                if depth == 0 {
                    break lt;
                }
                depth -= 1;
            }
        };
        // Forward: the first end tag without an open start tag; the range ends after its `>`.
        depth = 0;
        let end = loop {
            let Some(at) = find_byte(b'<', &buf[self.fwd..]) else {
                self.fwd = buf.len();
                break buf.len();
            };
            let lt = self.fwd + at;
            self.fwd = lt + 1;
            if buf.get(lt + 1) == Some(&b'/') {
                if depth == 0 {
                    let end = find_byte(b'>', &buf[lt..]).map_or(buf.len(), |gt| lt + gt + 1);
                    self.fwd = end;
                    break end;
                }
                depth -= 1;
            } else if !is_void_start(buf, lt) {
                depth += 1;
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
