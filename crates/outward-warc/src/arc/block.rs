//! The block of the ARC record being read: how much of its Archive-length is left, reads of it
//! (a page body, an HTTP head, or a drain), and its record id, the SHA-1 of the header line and
//! the block bytes read, written `<urn:sha1:BASE32>`.
//!
//! Invariants: never reads past the block's length; every byte read is hashed, so the id is the
//! same for the same record in any file, run or offset.

use super::stream::{Damage, Source};
use crate::record::MAX_HEADER_LEN;
use outward_base::base32;
use sha1::{Digest, Sha1};

/// The block of the record being read: how much is left, and the running record id.
pub(super) struct Block {
    pub(super) len: u64,
    pub(super) read: u64,
    pub(super) hasher: Sha1,
}

impl Block {
    pub(super) fn new(line: &[u8], len: u64) -> Block {
        let mut hasher = Sha1::new();
        hasher.update(line.strip_suffix(b"\r").unwrap_or(line));
        hasher.update(b"\n");
        Block {
            len,
            read: 0,
            hasher,
        }
    }

    pub(super) fn remaining(&self) -> u64 {
        self.len - self.read
    }

    /// Reads up to `n` more block bytes (fewer only at EOF) into `out`, or nowhere.
    pub(super) fn read(
        &mut self,
        src: &mut Source,
        n: u64,
        mut out: Option<&mut Vec<u8>>,
    ) -> Result<u64, Damage> {
        let n = n.min(self.remaining());
        let mut done = 0u64;
        while done < n {
            let chunk = src.fill()?;
            if chunk.is_empty() {
                break;
            }
            let take = usize::try_from(n - done).map_or(chunk.len(), |left| left.min(chunk.len()));
            self.hasher.update(&chunk[..take]);
            if let Some(out) = out.as_deref_mut() {
                out.extend_from_slice(&chunk[..take]);
            }
            src.consume(take);
            done += take as u64;
        }
        self.read += done;
        Ok(done)
    }

    pub(super) fn drain(&mut self, src: &mut Source) -> Result<(), Damage> {
        self.read(src, self.remaining(), None).map(|_| ())
    }

    /// The start of an HTTP head: `None` when the block does not start with `HTTP/`; else the
    /// bytes up to and including the first blank line (or the block's end, or just over
    /// [`MAX_HEADER_LEN`], which the parser then refuses).
    pub(super) fn read_http_head(&mut self, src: &mut Source) -> Result<Option<Vec<u8>>, Damage> {
        let mut head = Vec::new();
        let mut line_start = 0;
        let mut checked = false;
        while self.remaining() > 0 && head.len() <= MAX_HEADER_LEN {
            let chunk = src.fill()?;
            if chunk.is_empty() {
                break;
            }
            let room = (MAX_HEADER_LEN + 1 - head.len()).min(chunk.len());
            let room = usize::try_from(self.remaining()).map_or(room, |r| r.min(room));
            let (take, eol) = match memchr::memchr(b'\n', &chunk[..room]) {
                Some(i) => (i + 1, true),
                None => (room, false),
            };
            head.extend_from_slice(&chunk[..take]);
            self.hasher.update(&chunk[..take]);
            src.consume(take);
            self.read += take as u64;
            if !checked && (head.len() >= 5 || eol || self.remaining() == 0) {
                if !head.starts_with(b"HTTP/") {
                    return Ok(None);
                }
                checked = true;
            }
            if eol {
                if head[line_start..].trim_ascii_end().is_empty() {
                    break;
                }
                line_start = head.len();
            }
        }
        if !checked && !head.starts_with(b"HTTP/") {
            return Ok(None);
        }
        Ok(Some(head))
    }

    pub(super) fn record_id(&self) -> String {
        // A SHA-1 is 32 base32 characters, with no padding.
        format!(
            "<urn:sha1:{}>",
            base32::encode(&self.hasher.clone().finalize())
        )
    }
}
