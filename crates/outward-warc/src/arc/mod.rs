//! ARC (v1) files (`.arc`, `.arc.gz` gzip-per-record, also zstd) → the same [`ReadItem`]s and
//! [`FileStatus`] as the WARC reader. Owns ARC record framing, the ARC record id, the ARC
//! date and ARC damage handling; callers never see it: `WarcReader::open` sends here every
//! file that `sniff` calls `FileKind::Arc`. warcio 1.8.1 (`recordloader.py`,
//! `archiveiterator.py`) is the reference for what counts as a record.
//!
//! Format: each record is a header line `URL IP-address Archive-date Content-type
//! Archive-length`, then exactly Archive-length bytes of block, then a newline. The line is
//! split from the right: the last four space-separated fields are IP, date, content type and
//! length, everything before them is the URL (real ARCs have spaces in URLs). Blank lines
//! between records are skipped.
//!
//! Records, each exactly one item:
//! - `filedesc://…` (the version block, warcio's `arc_header`): `Skipped(OtherType)`.
//! - `http:`/`https:` URL (warcio's `response`): the block is an HTTP response, parsed with the
//!   WARC reader's HTTP parser and skip rules (`record::http_response_head`,
//!   `record::page_check`): a `RawPage` for a 200 with an HTML or missing type.
//! - any other scheme (`dns:`, `ftp:`, …): like a WARC `resource`: the ARC content type decides.
//!
//! [`RawPage`] fields: `record_id` = `<urn:sha1:BASE32>`, the SHA-1 of the header line as stored
//! (without its line ending) + `\n` + the block bytes read. ARC has no record id, and this one
//! is the same for the same record in any file (`x.arc` and `x.arc.gz`), any run, any offset.
//! `target_uri` = the URL as stored (spaces kept); `date` = Archive-date (`YYYYMMDDhhmmss`, digits
//! past 14 ignored as warcio does) as `YYYY-MM-DDThh:mm:ssZ`, `None` if it is not a valid date;
//! `offset` = the byte offset of the header line (plain) or of the gzip member / zstd frame the
//! header line starts in (compressed); `payload_digest` = `None`.
//!
//! Bad input (never a panic, never a hang: every loop consumes input or ends):
//! - Length not a decimal number (`-1`, `abc`): `BadRecord` (`OtherType` for `filedesc`, whose
//!   block is then its two version lines), block taken as empty, as warcio does: the next line
//!   may be a header (warcio's `bad.arc`: 4 records). If it is not, resync silently (the
//!   record is counted already): lines are skipped until a plausible header line (digits for
//!   length and date, a `:` in the URL).
//! - A line that is not a header line where one is due (fewer than 5 fields, or over 64 KiB):
//!   one `BadRecord` (`record_id: None`) for it and the junk after it, then resync. The file
//!   stays `Complete` (warcio stops reading there).
//! - A block that ends where no newline (or EOF) follows: `BadRecord` for a page (the length is
//!   off), then resync. A too-long length eats the next record's start, which is lost.
//! - A block cut by EOF: `BadRecord` and the file `Partial` at the record's offset, except when
//!   it is an HTML 200 whose HTTP body is complete by its own `Content-Length` (the ARC length
//!   was wrong, nothing is missing, as in warcio's `example-space-in-url.arc`): then a page,
//!   body cut to that `Content-Length`, file `Complete`. A header line cut by EOF: `BadRecord`,
//!   `Partial`.
//! - A gzip member / zstd frame that does not decode: one `BadRecord` (`record_id: None`) at
//!   the record (or member) offset, none if the record of that member was already counted;
//!   file `Partial` at the member's offset; gzip then resyncs on the next member that decodes
//!   to a plausible ARC header line (64 errors end the file). A whole-file gzip (one member,
//!   which warcio refuses) is read, every offset 0.
//!
//! Memory: one record at a time: header line ≤ 64 KiB, HTTP head ≤ 1 MiB, and only page bodies
//! (≤ `max_record_bytes`, checked before allocating) are copied; other blocks stream through
//! the SHA-1 without being kept.
//!
//! Layout: `stream` (the decoded byte stream and its offsets), `header` (the header line and
//! the ARC date), `block` (a record's block and its id), this module (records → items, damage).
//! What it shares with the WARC reader comes from `record` and `resync`; it imports neither the
//! WARC reader nor `reader`.

use crate::record::{
    FileStatus, MAX_HEADER_LEN, NOT_HTTP, RawPage, ReadItem, ReaderOptions, Skip,
    http_response_head, page_check,
};
use crate::resync::{MAX_ERRORS, find_next_member};
use crate::source::ByteSource;
use block::Block;
use fastwarc::warc::header::{HeaderEncoding, HeaderMap};
use header::{ArcHeader, Kind, iso_date};
use outward_base::counts::SkipReason;
use sha1::Digest;
use std::io;
use std::sync::Arc;
use stream::{Codec, Damage, Line, Source};

mod block;
mod header;
mod stream;
#[cfg(test)]
mod tests;

/// Longest ARC header line accepted.
const MAX_LINE: usize = 64 << 10;
/// Decoded bytes looked at to accept a gzip member as a resync point.
const RESYNC_HEAD: usize = 8 << 10;

/// What the reader expects the next non-blank line to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A header line; anything else is one `BadRecord`, then `Resync`.
    Normal,
    /// After a record whose length was not a number (counted bad already): a header line
    /// (any five fields, as warcio takes it), or else silently `Resync`.
    AfterBadLength,
    /// Where the next header is is unknown: lines are skipped until a plausible header line.
    Resync,
}

/// What a record turned into before the end-of-block checks.
enum Outcome {
    Page {
        content_type: Option<String>,
        http_headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    Skip(SkipReason, String),
}

/// The ARC side of `WarcReader` (see the module docs).
pub(crate) struct ArcReader {
    src: Source,
    source: Arc<dyn ByteSource>,
    options: ReaderOptions,
    status: FileStatus,
    done: bool,
    /// Read failures so far (each one a resync; [`MAX_ERRORS`] ends the file).
    errors: u32,
    /// What the next line is expected to be.
    mode: Mode,
    /// Offset of the record being read, for a read failure inside it (`None` between records
    /// and while skipping junk).
    record_offset: Option<u64>,
    /// Offset of the last item returned.
    last_item_offset: Option<u64>,
}

impl ArcReader {
    pub(crate) fn open(
        source: Arc<dyn ByteSource>,
        options: ReaderOptions,
    ) -> io::Result<ArcReader> {
        Ok(ArcReader {
            src: Source::open(source.as_ref())?,
            source,
            options,
            status: FileStatus::Complete,
            done: false,
            errors: 0,
            mode: Mode::Normal,
            record_offset: None,
            last_item_offset: None,
        })
    }

    /// Valid once iteration has returned `None`.
    pub(crate) fn status(&self) -> FileStatus {
        self.status.clone()
    }

    fn mark_partial(&mut self, offset: u64, error: &str) {
        if self.status == FileStatus::Complete {
            self.status = FileStatus::Partial {
                offset,
                error: error.to_string(),
            };
        }
    }

    /// The next record, or `None` at the end of the file.
    fn read_record(&mut self) -> Result<Option<ReadItem>, Damage> {
        self.record_offset = None;
        loop {
            self.src.skip_blank()?;
            if self.src.fill()?.is_empty() {
                return Ok(None);
            }
            let offset = self.src.offset();
            let mode = self.mode;
            self.record_offset = (mode != Mode::Resync).then_some(offset);
            let bad = |detail: String| {
                Ok(Some(ReadItem::Skipped(Skip {
                    reason: SkipReason::BadRecord,
                    record_id: None,
                    offset,
                    detail,
                })))
            };
            match self.src.read_line(MAX_LINE)? {
                Line::Full(line) => match ArcHeader::parse(&line) {
                    Some(h) if mode != Mode::Resync || h.plausible() => {
                        self.mode = Mode::Normal;
                        self.record_offset = Some(offset);
                        return self.read_block(&h, &line, offset).map(Some);
                    }
                    _ if mode == Mode::Normal => {
                        self.mode = Mode::Resync;
                        return bad(format!(
                            "not an ARC header line: \"{}\"",
                            escape_prefix(&line)
                        ));
                    }
                    // Junk after a record already counted bad: part of that record.
                    _ => self.mode = Mode::Resync,
                },
                Line::TooLong if mode == Mode::Normal => {
                    self.mode = Mode::Resync;
                    return bad(format!("ARC header line over {MAX_LINE} bytes"));
                }
                Line::TooLong => self.mode = Mode::Resync,
                Line::Eof if mode != Mode::Normal => return Ok(None),
                Line::Eof => {
                    let e = "ARC header cut short at end of file";
                    self.mark_partial(offset, e);
                    return bad(e.to_string());
                }
            }
        }
    }

    /// Reads the block of the record whose header line is `line` and makes its item.
    fn read_block(&mut self, h: &ArcHeader, line: &[u8], offset: u64) -> Result<ReadItem, Damage> {
        let kind = h.kind();
        let Some(len) = h.length() else {
            // Where the block ends is unknown. As warcio: a `filedesc` block is its two version
            // lines; any other block is taken as empty, and the next line may be a header.
            self.mode = Mode::AfterBadLength;
            let mut block = Block::new(line, 0);
            let (reason, detail) = match kind {
                Kind::FileDesc => {
                    for _ in 0..2 {
                        if let Line::Full(l) = self.src.read_line(MAX_LINE)? {
                            block.hasher.update(&l);
                            block.hasher.update(b"\n");
                        }
                    }
                    (SkipReason::OtherType, "arc_header".to_string())
                }
                _ => (
                    SkipReason::BadRecord,
                    format!("bad ARC length \"{}\"", h.length),
                ),
            };
            return Ok(skip(reason, block.record_id(), offset, detail));
        };
        let mut block = Block::new(line, len);
        let outcome = self.classify(h, kind, &mut block)?;
        block.drain(&mut self.src)?;
        let record_id = block.record_id();
        let (reason, detail) = match outcome {
            Outcome::Skip(reason, detail) if block.read == block.len => {
                if !self.at_boundary() {
                    self.mode = Mode::Resync;
                }
                (reason, detail)
            }
            Outcome::Page {
                content_type,
                http_headers,
                mut body,
            } => {
                let ok = if block.read < block.len {
                    // Cut by EOF: keep the page only if its HTTP body is complete anyway.
                    match http_content_length(&http_headers) {
                        Some(n) if kind == Kind::Http && n > 0 && body.len() as u64 >= n => {
                            body.truncate(usize::try_from(n).unwrap_or(body.len()));
                            true
                        }
                        _ => false,
                    }
                } else if self.at_boundary() {
                    true
                } else {
                    self.mode = Mode::Resync;
                    return Ok(skip(
                        SkipReason::BadRecord,
                        record_id,
                        offset,
                        "ARC length does not end at a record boundary".into(),
                    ));
                };
                if ok {
                    return Ok(ReadItem::Page(RawPage {
                        record_id,
                        target_uri: Some(h.url.clone()),
                        date: iso_date(&h.date),
                        offset,
                        payload_digest: None,
                        content_type,
                        // Only 200 responses with an HTTP head become pages.
                        http_status: (!http_headers.is_empty()).then_some(200),
                        http_headers,
                        body,
                    }));
                }
                (SkipReason::BadRecord, String::new())
            }
            Outcome::Skip(..) => (SkipReason::BadRecord, String::new()),
        };
        if block.read < block.len {
            let e = format!("truncated record: {} of {} bytes", block.read, block.len);
            self.mark_partial(offset, &e);
            return Ok(skip(SkipReason::BadRecord, record_id, offset, e));
        }
        Ok(skip(reason, record_id, offset, detail))
    }

    /// Reads as much of the block as deciding needs; a page's body is read whole.
    fn classify(
        &mut self,
        h: &ArcHeader,
        kind: Kind,
        block: &mut Block,
    ) -> Result<Outcome, Damage> {
        let skip = |reason: SkipReason, detail: &str| Ok(Outcome::Skip(reason, detail.to_string()));
        let (content_type, http_headers, mut body) = match kind {
            Kind::FileDesc => return skip(SkipReason::OtherType, "arc_header"),
            Kind::Other => (Some(h.content_type.clone()), Vec::new(), Vec::new()),
            Kind::Http if block.len == 0 => return skip(SkipReason::Empty, "empty block"),
            Kind::Http => {
                let Some(head) = block.read_http_head(&mut self.src)? else {
                    return skip(SkipReason::NotHtml, NOT_HTTP);
                };
                let mut cursor = io::Cursor::new(head);
                let mut map = HeaderMap::new(HeaderEncoding::Latin1);
                let parsed = map.parse_with_opts(&mut cursor, true, MAX_HEADER_LEN, true);
                let head = cursor.into_inner();
                let used = match parsed {
                    Ok(n) => n.min(head.len()),
                    Err(e) => {
                        return skip(SkipReason::BadRecord, &format!("bad HTTP head: {e}"));
                    }
                };
                let (content_type, headers) = match http_response_head(&map) {
                    Ok(v) => v,
                    Err((reason, detail)) => return skip(reason, detail),
                };
                (content_type, headers, head[used..].to_vec())
            }
        };
        let body_len = body.len() as u64 + block.remaining();
        let content_type = match page_check(content_type, body_len, &self.options) {
            Ok(c) => c,
            Err((reason, detail)) => return skip(reason, detail),
        };
        body.reserve(usize::try_from(block.remaining()).unwrap_or(0));
        block.read(&mut self.src, block.remaining(), Some(&mut body))?;
        Ok(Outcome::Page {
            content_type,
            http_headers,
            body,
        })
    }

    /// After a whole block: EOF or a line ending follows (a read failure here is left for the
    /// next record to report).
    fn at_boundary(&mut self) -> bool {
        match self.src.fill() {
            Ok(next) => matches!(next.first(), None | Some(b'\n' | b'\r')),
            Err(_) => true,
        }
    }

    /// A read failure: one bad record, the file `Partial`, then a resync on the next intact
    /// gzip member, or the end. No item (`None`) when no record was in progress and the
    /// damaged member is the one the last item came from: that record is counted already.
    fn on_damage(&mut self, d: Damage) -> Option<ReadItem> {
        self.errors += 1;
        let in_record = self.record_offset.take();
        let counted = in_record.is_none() && self.last_item_offset == Some(d.offset);
        let offset = in_record.unwrap_or(d.offset);
        self.mark_partial(d.offset, &d.error);
        let resumed = self.errors < MAX_ERRORS
            && self.src.codec == Codec::Gzip
            && find_next_member(
                self.source.as_ref(),
                d.offset + 1,
                RESYNC_HEAD,
                &starts_with_header,
            )
            .is_some_and(|at| self.src.restart_at(self.source.as_ref(), at).is_ok());
        if resumed {
            self.mode = Mode::Normal;
        } else {
            self.done = true;
        }
        (!counted).then_some(ReadItem::Skipped(Skip {
            reason: SkipReason::BadRecord,
            record_id: None,
            offset,
            detail: d.error,
        }))
    }
}

impl Iterator for ArcReader {
    type Item = ReadItem;

    fn next(&mut self) -> Option<ReadItem> {
        // Each pass reads a record, ends the file, or resyncs past a damaged member (at most
        // `MAX_ERRORS` times, each further into the file).
        while !self.done {
            let item = match self.read_record() {
                Ok(Some(item)) => Some(item),
                Ok(None) => {
                    self.done = true;
                    None
                }
                Err(d) => self.on_damage(d),
            };
            if let Some(item) = item {
                self.last_item_offset = Some(match &item {
                    ReadItem::Page(p) => p.offset,
                    ReadItem::Skipped(s) => s.offset,
                });
                return Some(item);
            }
        }
        None
    }
}

fn skip(reason: SkipReason, record_id: String, offset: u64, detail: String) -> ReadItem {
    ReadItem::Skipped(Skip {
        reason,
        record_id: Some(record_id),
        offset,
        detail,
    })
}

/// The HTTP `Content-Length`, when there is exactly one valid value.
fn http_content_length(headers: &[(String, String)]) -> Option<u64> {
    let mut values = headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("content-length"));
    let (_, v) = values.next()?;
    if values.next().is_some() {
        return None;
    }
    v.trim().parse().ok()
}

/// A gzip member worth resyncing on: it decodes to a plausible ARC header line.
fn starts_with_header(head: &[u8]) -> bool {
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let head = &head[start..];
    memchr::memchr(b'\n', head)
        .and_then(|i| ArcHeader::parse(&head[..i]))
        .is_some_and(|h| h.plausible())
}

/// The first bytes of `line`, printable.
fn escape_prefix(line: &[u8]) -> String {
    line.iter()
        .take(40)
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect()
}
