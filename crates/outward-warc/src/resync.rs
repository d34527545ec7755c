//! Where a reader goes on after damage: cold-path scans of a [`ByteSource`] from a later offset.
//! Both readers use [`find_next_member`] (the next gzip member that starts a record: `WARC/` for
//! WARC, an ARC header line for ARC); the WARC reader also looks for the next `WARC/1.` line of
//! a plain file, the member a damaged gzip file fails at, and whether a member holds one record.
//!
//! Invariants: every scan reads forward from the offset it is given and is bounded (by the
//! file's end, or a count of members / decoded bytes); the readers give up after [`MAX_ERRORS`]
//! resyncs in one file. Knows nothing of items or skip reasons.

use crate::source::{ByteSource, extension, read_full};
use std::io::{BufRead, Read, Seek};

/// After this many iterator errors (resyncs) in one file, stop.
pub(crate) const MAX_ERRORS: u32 = 64;

/// Offset of the first record start at or after `from` in a plain file: a line that starts
/// `WARC/1.`, or a `WARC/1.0` / `WARC/1.1` version line (CR LF) wherever it begins (a record
/// whose Content-Length is short leaves stray bytes before the next record's version line).
/// Read in 1 MiB windows; a mark too near a window's end is looked at again in the next.
pub(crate) fn find_next_warc_line(source: &dyn ByteSource, from: u64) -> Option<u64> {
    const MARK: &[u8] = b"WARC/1.";
    /// Bytes from a mark's start needed to judge it: `WARC/1.0\r\n`.
    const NEED: usize = 10;
    let len = source.len().ok()?;
    // Start one byte early so that a line starting exactly at `from` has its `\n`.
    let mut pos = from.saturating_sub(1);
    let mut buf = vec![0u8; 1 << 20];
    while pos < len {
        let n = read_full(&mut source.open_at(pos).ok()?, &mut buf)?;
        if n == 0 {
            return None;
        }
        let at_end = n < buf.len();
        let window = &buf[..n];
        let mut next = pos + n.saturating_sub(NEED).max(1) as u64;
        for i in memchr::memmem::find_iter(window, MARK) {
            let at = pos + i as u64;
            if at < from {
                continue;
            }
            if i + NEED > n && !at_end {
                // Judge it in the next window, its preceding byte included.
                next = at.saturating_sub(1).max(pos + 1);
                break;
            }
            let line_start = i > 0 && window[i - 1] == b'\n';
            let version_line = matches!(window.get(i + 7), Some(b'0' | b'1'))
                && window.get(i + 8..i + 10) == Some(b"\r\n".as_slice());
            if line_start || version_line {
                return Some(at);
            }
        }
        if at_end {
            return None;
        }
        pos = next;
    }
    None
}

/// Offset of the first gzip member at or after `from` whose first `head_len` decoded bytes (fewer
/// when the member ends or fails first) satisfy `accept`: `WARC/` for WARC, an ARC header line
/// for ARC (a 3-byte magic match alone could be chance inside compressed data).
pub(crate) fn find_next_member(
    source: &dyn ByteSource,
    from: u64,
    head_len: usize,
    accept: &dyn Fn(&[u8]) -> bool,
) -> Option<u64> {
    let len = source.len().ok()?;
    let mut pos = from;
    let mut buf = vec![0u8; 1 << 20];
    while pos < len {
        let n = read_full(&mut source.open_at(pos).ok()?, &mut buf)?;
        if n < 3 {
            return None;
        }
        let mut i = 0;
        while let Some(j) = memchr::memmem::find(&buf[i..n], b"\x1f\x8b\x08") {
            let cand = pos + (i + j) as u64;
            if member_head(source, cand, head_len).is_some_and(|h| accept(&h)) {
                return Some(cand);
            }
            i += j + 1;
        }
        if n < buf.len() {
            return None;
        }
        // Overlap by 2 bytes so a magic split across reads is still seen.
        pos += (n - 2) as u64;
    }
    None
}

/// Whether the gzip member at `offset` decodes to one record: no `WARC/1.` after its first
/// bytes, within `MAX_RECORD_MEMBER` decoded bytes (false when it does not decode, or is
/// bigger).
pub(crate) fn member_holds_one_record(source: &dyn ByteSource, offset: u64) -> bool {
    const MAX_RECORD_MEMBER: u64 = 256 << 20;
    const MARK: &[u8] = b"WARC/1.";
    let Ok(file) = source.open_at(offset) else {
        return false;
    };
    let mut member = flate2::read::GzDecoder::new(std::io::BufReader::new(file));
    let mut buf = vec![0u8; 1 << 16];
    // The last bytes of the previous chunk, so that a mark split across chunks is seen.
    let mut carry: Vec<u8> = Vec::new();
    let mut decoded = 0u64;
    loop {
        let n = match member.read(&mut buf) {
            Ok(0) => return decoded > 0,
            Ok(n) => n,
            Err(_) => return false,
        };
        let mut window = std::mem::take(&mut carry);
        let base = decoded - window.len() as u64;
        window.extend_from_slice(&buf[..n]);
        if memchr::memmem::find_iter(&window, MARK).any(|i| base + i as u64 > 0) {
            return false;
        }
        decoded += n as u64;
        if decoded > MAX_RECORD_MEMBER {
            return false;
        }
        carry = window[window.len().saturating_sub(MARK.len() - 1)..].to_vec();
    }
}

/// Up to `len` decoded bytes of the gzip member at `at` (fewer when it ends or fails first).
fn member_head(source: &dyn ByteSource, at: u64, len: usize) -> Option<Vec<u8>> {
    let file = source.open_at(at).ok()?;
    let dec = flate2::read::GzDecoder::new(std::io::BufReader::with_capacity(4096, file));
    let mut head = Vec::with_capacity(len.min(1 << 16));
    let mut dec = dec.take(len as u64);
    let mut chunk = [0u8; 4096];
    loop {
        match dec.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(&chunk[..n]),
        }
    }
    Some(head)
}

/// After an iterator error in a gzip file: walks the gzip members from `from` (the member of
/// the last good record) and returns the offset of the first member that fails to decode (or
/// the end of the last complete member for a cut file). `None` for non-gzip files or when no
/// damage is found within a bounded number of members. Cold path: runs once per damaged file.
pub(crate) fn locate_gzip_damage(source: &dyn ByteSource, from: u64) -> Option<u64> {
    if extension(source.name()) != Some("gz") {
        return None;
    }
    let mut file = std::io::BufReader::new(source.open_at(from).ok()?);
    for _ in 0..1024 {
        let start = file.stream_position().ok()?;
        if file.fill_buf().ok()?.is_empty() {
            return None;
        }
        let mut member = flate2::bufread::GzDecoder::new(&mut file);
        if std::io::copy(&mut member, &mut std::io::sink()).is_err() {
            return Some(start);
        }
    }
    None
}
