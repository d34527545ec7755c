//! The WARC side of `WarcReader`: [`WarcRecords`] iterates a WARC file's records with fastwarc,
//! turns each into one item (`classify`) and goes on after damage (`crate::resync`).
//!
//! Invariants: every record read becomes exactly one item; no input makes it panic or hang;
//! what it shares with the ARC reader comes from `record` and `resync`, and it imports neither
//! the ARC reader nor `reader`.
//!
//! Implementation (fastwarc 2.0.0, see `docs/design.md`, "Measured facts and pitfalls"; gzip members are decoded by
//! `gzip::MemberGzipReader`, as fastwarc's own gzip reader decodes them on intact files; see
//! `gzip.rs` for what differs on damaged ones):
//! - `ArchiveIterator` in quirks mode (LF-only headers, junk between records, WARC/0.18),
//!   1 MiB header limit, `AutoDecode::None`: `RawPage::body` is the HTTP body exactly as
//!   stored (still chunked / gzip / br if the archiver kept it so); the decoder stage undoes
//!   Transfer- and Content-Encoding. HTTP heads are parsed here, per record, so a broken head
//!   becomes that record's `BadRecord` instead of an anonymous iterator error.
//! - Memory: one record at a time; only page bodies (≤ `max_record_bytes`) are copied, every
//!   other record is drained through fastwarc's buffer without a copy.
//! - `BadRecord`: a block shorter than its Content-Length (cut file: the file also becomes
//!   `Partial`), no Content-Length, an unparseable HTTP head or status line, or a record
//!   (page or skipped) whose block is directly followed by something other than CR/LF, EOF or
//!   `WARC/` (Content-Length off; junk after a proper trailer is just skipped by the resync).
//!   In an uncompressed file the reader then goes on at the first `WARC/1.` line, or
//!   `WARC/1.0`/`WARC/1.1` CR LF version line wherever it begins, after that record's start, so
//!   a Content-Length that is too long does not swallow the records after it, nor one too short
//!   the record its stray bytes run into; in a gzip file whose bad record's member holds that
//!   record alone, at the next member that starts `WARC/`.
//! - `Partial { offset, error }`: `offset` is the gzip member that failed to decode (found by a
//!   cold-path rescan from the last good member) or, for other failures, the offset of the
//!   last record read; for a cut last record, that record's offset.
//! - A corrupt gzip member (fastwarc returns `Err` and drops its reader) becomes one
//!   `Skipped(BadRecord)` item with `record_id: None` at the member's offset; the reader then
//!   resyncs on the next gzip member that decodes to `WARC/` and goes on (file `Partial`).
//!   The failed fastwarc iterator is never polled again; 64 errors in one file end it.

use crate::gzip::{CutMember, MemberGzipReader};
use crate::record::{
    FileStatus, GZIP_MAGIC, LZ4_MAGIC, MAX_HEADER_LEN, ReadItem, ReaderOptions, Skip, ZSTD_MAGIC,
};
use crate::resync::{
    MAX_ERRORS, find_next_member, find_next_warc_line, locate_gzip_damage, member_holds_one_record,
};
use crate::source::{ByteSource, extension};
use classify::{Framing, classify};
use fastwarc::warc::iter::{ArchiveIterator, ArchiveIteratorOptions};
use fastwarc::warc::record::AutoDecode;
use outward_base::counts::SkipReason;
use std::io::{BufRead, Seek};
use std::sync::Arc;

mod classify;
#[cfg(test)]
mod tests;

/// The WARC side of `WarcReader`: fastwarc's iterator plus resync state.
pub(crate) struct WarcRecords {
    iter: Option<ArchiveIterator>,
    options: ReaderOptions,
    status: FileStatus,
    /// Start offset of the last record read (where a later error is reported by default).
    last_offset: u64,
    /// Iterator errors so far (each one is a resync; `MAX_ERRORS` ends the file).
    errors: u32,
    /// Iteration has ended (EOF or a fatal error); `status` is final.
    done: bool,
    /// Read again from later offsets after damage (cold path only).
    source: Arc<dyn ByteSource>,
    /// The file is gzip (its first bytes are gzip's magic).
    gzip: bool,
    /// The file is not compressed (resyncs search its bytes for `WARC/` lines).
    plain: bool,
    /// Set by the gzip readers when the file ends inside a member: a cut file, even when the
    /// cut falls after a record's last byte (only its gzip trailer lost).
    cut: CutMember,
}

impl WarcRecords {
    pub(crate) fn open(
        source: Arc<dyn ByteSource>,
        options: ReaderOptions,
    ) -> std::io::Result<WarcRecords> {
        use fastwarc::stream_io::{lz4::Lz4Reader, zstd::ZstdReader};
        let mut stream = std::io::BufReader::with_capacity(1 << 20, source.open_at(0)?);
        let magic = stream.fill_buf()?;
        let gzip = magic.starts_with(GZIP_MAGIC);
        let zstd_or_lz4 = magic.starts_with(ZSTD_MAGIC) || magic.starts_with(LZ4_MAGIC);
        // The decompressor by extension (.gz/.zst/.lz4), as fastwarc's `from_path` picks it,
        // with magic sniffing then off; for any other name sniffing stays on, so that
        // `x.warc.gz.bad` still works.
        let fixed = ArchiveIteratorOptions {
            stream_detect: false,
            ..ArchiveIteratorOptions::default()
        };
        let cut = CutMember::default();
        let iter = match extension(source.name()) {
            Some("gz") => {
                // The sniffed bytes go to the gzip reader, which buffers on its own.
                let start = stream.stream_position()?;
                let read = stream.buffer().to_vec();
                let gz = MemberGzipReader::with_read_bytes(stream.into_inner(), start, read)
                    .report_cut_to(cut.clone());
                ArchiveIterator::with_options(gz, fixed)
            }
            Some("zst") => ArchiveIterator::with_options(ZstdReader::new(stream), fixed),
            Some("lz4") => ArchiveIterator::with_options(Lz4Reader::new(stream), fixed),
            _ => ArchiveIterator::with_options(stream, ArchiveIteratorOptions::default()),
        };
        Ok(WarcRecords {
            iter: Some(configure(iter)),
            options,
            status: FileStatus::Complete,
            last_offset: 0,
            errors: 0,
            done: false,
            source,
            gzip,
            plain: !gzip && !zstd_or_lz4,
            cut,
        })
    }

    /// Valid once iteration has returned `None`.
    pub(crate) fn status(&self) -> FileStatus {
        self.status.clone()
    }

    fn mark_partial(&mut self, offset: u64, error: String) {
        if self.status == FileStatus::Complete {
            self.status = FileStatus::Partial { offset, error };
        }
    }

    fn finish(&mut self) -> Option<ReadItem> {
        if let Some(at) = self.cut.offset() {
            self.mark_partial(
                at,
                format!(
                    "the file ends inside the gzip member at byte {at}: it was cut short (an \
                     unfinished or failed download?)"
                ),
            );
        }
        self.done = true;
        self.iter = None;
        None
    }
}

impl Iterator for WarcRecords {
    type Item = ReadItem;

    fn next(&mut self) -> Option<ReadItem> {
        if self.done {
            return None;
        }
        let item = loop {
            match self.iter.as_mut()?.next() {
                Some(item) => break item,
                // fastwarc's gzip reader takes an empty gzip member (valid, if rare) for the
                // end of the file: go on at the next member that starts a record, if any.
                None => match self.resume_after_empty_member() {
                    Some((iter, start)) => {
                        self.iter = Some(iter);
                        self.last_offset = start;
                    }
                    None => return self.finish(),
                },
            }
        };
        match item {
            Ok(rec) => {
                let Ok(mut rec) = rec.try_borrow_mut() else {
                    self.mark_partial(self.last_offset, "record busy".to_string());
                    return self.finish();
                };
                let (item, framing) = classify(&mut rec, &self.options);
                let offset = rec.stream_pos();
                drop(rec);
                self.last_offset = offset;
                if let Framing::Cut(error) = &framing {
                    self.mark_partial(offset, error.clone());
                }
                // A plain file whose record claims more bytes than it has (a lying
                // Content-Length, not only a cut file) has read the records after it as its
                // block: go on at the next record start after its start, if there is one.
                // In a gzip file of a member per record, the bytes after a misframed block
                // run into the next member's `WARC/1.0`, which fastwarc's resync (line starts
                // only) does not find: go on at the next member, only when the record's
                // member holds no other record (a file of many records per member loses
                // nothing by the jump).
                let resync = if framing == Framing::Sound || self.errors >= MAX_ERRORS {
                    None
                } else if self.plain {
                    self.resync_plain_after(offset)
                } else if self.gzip
                    && framing == Framing::Misframed
                    && member_holds_one_record(self.source.as_ref(), offset)
                {
                    self.resync_after(offset)
                } else {
                    None
                };
                if let Some((iter, start)) = resync {
                    self.errors += 1;
                    self.iter = Some(iter);
                    self.last_offset = start;
                }
                Some(item)
            }
            Err(e) => {
                // The failed fastwarc iterator is never polled again (after an error it either
                // repeats it forever or has dropped its reader): resync or stop.
                self.errors += 1;
                let damage = locate_gzip_damage(self.source.as_ref(), self.last_offset);
                let offset = damage.unwrap_or(self.last_offset);
                let error = e.to_string();
                self.mark_partial(offset, error.clone());
                // Resync on the next intact gzip member after the damaged one, so one bad
                // member does not cost the rest of the file.
                let resync = if self.errors >= MAX_ERRORS {
                    None
                } else if self.gzip {
                    damage.and_then(|d| self.resync_after(d))
                } else if self.plain {
                    // A plain file (a header over the limit, say): the next `WARC/` line.
                    self.resync_plain_after(self.last_offset)
                } else {
                    None
                };
                match resync {
                    Some((iter, start)) => {
                        self.iter = Some(iter);
                        // A later error is searched for from here on (progress guaranteed).
                        self.last_offset = start;
                    }
                    None => {
                        // Nothing to resume on: the damage is reported, iteration ends.
                        self.done = true;
                        self.iter = None;
                    }
                }
                // The damaged region is counted as one bad record at its offset.
                Some(ReadItem::Skipped(Skip {
                    reason: SkipReason::BadRecord,
                    record_id: None,
                    offset,
                    detail: error,
                }))
            }
        }
    }
}

impl WarcRecords {
    /// Where a gzip file goes on when its iterator ended: the first member after the last
    /// record read that starts a record (`None` at the true end, or for other files). Offsets
    /// only grow, so this ends.
    fn resume_after_empty_member(&self) -> Option<(ArchiveIterator, u64)> {
        if !self.gzip {
            return None;
        }
        self.resync_after(self.last_offset)
    }

    /// Opens a fresh iterator on a plain file at the first line after `damaged` that starts
    /// `WARC/1.` (a record's first line). Offsets stay absolute (the file is seeked).
    fn resync_plain_after(&self, damaged: u64) -> Option<(ArchiveIterator, u64)> {
        let start = find_next_warc_line(self.source.as_ref(), damaged + 1)?;
        let file = std::io::BufReader::with_capacity(1 << 20, self.source.open_at(start).ok()?);
        let options = ArchiveIteratorOptions {
            stream_detect: false,
            ..ArchiveIteratorOptions::default()
        };
        Some((
            configure(ArchiveIterator::with_options(file, options)),
            start,
        ))
    }

    /// Opens a fresh iterator on the first gzip member after `damaged` whose content starts with
    /// `WARC/`. Offsets stay absolute (fastwarc takes the member position from the file).
    fn resync_after(&self, damaged: u64) -> Option<(ArchiveIterator, u64)> {
        let start = find_next_member(self.source.as_ref(), damaged + 1, 5, &|head| {
            head == b"WARC/"
        })?;
        let gz =
            MemberGzipReader::new(self.source.open_at(start).ok()?).report_cut_to(self.cut.clone());
        let options = ArchiveIteratorOptions {
            stream_detect: false,
            ..ArchiveIteratorOptions::default()
        };
        Some((configure(ArchiveIterator::with_options(gz, options)), start))
    }
}

/// The iterator settings used for every file (see module docs).
fn configure(iter: ArchiveIterator) -> ArchiveIterator {
    iter.with_quirks_mode(true)
        // HTTP is parsed by hand in `classify` so that a broken HTTP head is attributed to
        // its record (the iterator would return a bare `Err` without the record).
        .with_parse_http(false)
        .with_decode_http_payload(AutoDecode::None)
        .with_max_header_len(MAX_HEADER_LEN)
}
