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
//!   WARC reader's HTTP parser and skip rules (`reader::http_response_head`,
//!   `reader::page_check`): a `RawPage` for a 200 with an HTML or missing type.
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

use crate::reader::{
    self, FileStatus, GZIP_MAGIC, MAX_ERRORS, MAX_HEADER_LEN, RawPage, ReadItem, ReaderOptions,
    Skip, ZSTD_MAGIC,
};
use crate::source::{ByteSource, SourceStream};
use fastwarc::warc::header::{HeaderEncoding, HeaderMap};
use outward_base::base32;
use outward_base::counts::SkipReason;
use sha1::{Digest, Sha1};
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;

/// Longest ARC header line accepted.
const MAX_LINE: usize = 64 << 10;
/// Decoded bytes looked at to accept a gzip member as a resync point.
const RESYNC_HEAD: usize = 8 << 10;

/// A read failure of the input itself (I/O error, or compressed data that does not decode).
#[derive(Debug, Clone)]
struct Damage {
    /// Where: the failing gzip member / zstd frame, or the plain-file position.
    offset: u64,
    error: String,
}

/// The input file, counting bytes consumed (the compressed position).
struct Counting {
    inner: BufReader<Box<dyn SourceStream>>,
    pos: u64,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl BufRead for Counting {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.pos += n as u64;
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Codec {
    Plain,
    Gzip,
    Zstd,
}

/// The decoder of one gzip member or zstd frame; it owns the input while it runs.
enum Member {
    Gzip(Box<flate2::bufread::GzDecoder<Counting>>),
    Zstd(zstd::stream::read::Decoder<'static, Counting>),
}

impl Member {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Member::Gzip(d) => d.read(buf),
            Member::Zstd(d) => d.read(buf),
        }
    }
    fn into_inner(self) -> Counting {
        match self {
            Member::Gzip(d) => (*d).into_inner(),
            Member::Zstd(d) => d.finish(),
        }
    }
}

/// The decoded byte stream of a file, with the offset each byte is reported at.
struct Source {
    codec: Codec,
    /// The input, when no member decoder holds it (`None` after damage, until a restart).
    input: Option<Counting>,
    member: Option<Member>,
    /// Compressed offset of the member the buffered bytes come from.
    member_start: u64,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    /// Plain files: file offset of `buf[0]`.
    buf_offset: u64,
    /// Set by the first read failure; returned until [`Source::restart_at`].
    failed: Option<Damage>,
}

impl Source {
    fn open(source: &dyn ByteSource) -> io::Result<Source> {
        let mut input = Counting {
            inner: BufReader::with_capacity(1 << 20, source.open_at(0)?),
            pos: 0,
        };
        let head = input.fill_buf()?;
        let codec = if head.starts_with(GZIP_MAGIC) {
            Codec::Gzip
        } else if head.starts_with(ZSTD_MAGIC) {
            Codec::Zstd
        } else {
            Codec::Plain
        };
        Ok(Source {
            codec,
            input: Some(input),
            member: None,
            member_start: 0,
            buf: vec![0; 1 << 16],
            pos: 0,
            len: 0,
            buf_offset: 0,
            failed: None,
        })
    }

    /// Starts reading again at compressed offset `at` (a member start), after damage.
    fn restart_at(&mut self, source: &dyn ByteSource, at: u64) -> io::Result<()> {
        let file = source.open_at(at)?;
        self.input = Some(Counting {
            inner: BufReader::with_capacity(1 << 20, file),
            pos: at,
        });
        self.member = None;
        self.member_start = at;
        (self.pos, self.len) = (0, 0);
        self.failed = None;
        Ok(())
    }

    /// The next decoded bytes (empty at the end of the file).
    fn fill(&mut self) -> Result<&[u8], Damage> {
        if self.pos < self.len {
            return Ok(&self.buf[self.pos..self.len]);
        }
        if let Some(d) = &self.failed {
            return Err(d.clone());
        }
        match self.refill() {
            Ok(n) => {
                (self.pos, self.len) = (0, n);
                Ok(&self.buf[..n])
            }
            Err(d) => {
                (self.pos, self.len) = (0, 0);
                self.input = None;
                self.member = None;
                self.failed = Some(d.clone());
                Err(d)
            }
        }
    }

    fn refill(&mut self) -> Result<usize, Damage> {
        if self.codec == Codec::Plain {
            let Some(input) = self.input.as_mut() else {
                return Ok(0);
            };
            return match input.read(&mut self.buf) {
                Ok(n) => {
                    self.buf_offset = input.pos - n as u64;
                    Ok(n)
                }
                Err(e) => Err(Damage {
                    offset: input.pos,
                    error: format!("read error: {e}"),
                }),
            };
        }
        loop {
            if self.member.is_none() {
                let Some(mut input) = self.input.take() else {
                    return Ok(0);
                };
                match input.fill_buf() {
                    Ok([]) => {
                        self.input = Some(input);
                        return Ok(0);
                    }
                    Ok(_) => {}
                    Err(e) => {
                        return Err(Damage {
                            offset: input.pos,
                            error: format!("read error: {e}"),
                        });
                    }
                }
                self.member_start = input.pos;
                self.member = Some(match self.codec {
                    Codec::Zstd => match zstd::stream::read::Decoder::with_buffer(input) {
                        Ok(d) => Member::Zstd(d.single_frame()),
                        Err(e) => return Err(self.damage(&e)),
                    },
                    _ => Member::Gzip(Box::new(flate2::bufread::GzDecoder::new(input))),
                });
            }
            let Some(member) = self.member.as_mut() else {
                return Ok(0);
            };
            match member.read(&mut self.buf) {
                Ok(0) => {
                    // The member is done: the next one starts where it ended.
                    let input = match self.member.take() {
                        Some(m) => m.into_inner(),
                        None => return Ok(0),
                    };
                    if input.pos == self.member_start {
                        // Nothing consumed: stop rather than loop.
                        return Err(self.damage(&"member decodes to nothing"));
                    }
                    self.input = Some(input);
                }
                Ok(n) => return Ok(n),
                Err(e) => return Err(self.damage(&e)),
            }
        }
    }

    fn damage(&self, e: &dyn std::fmt::Display) -> Damage {
        let what = if self.codec == Codec::Zstd {
            "zstd frame"
        } else {
            "gzip member"
        };
        Damage {
            offset: self.member_start,
            error: format!("{what} at byte {}: {e}", self.member_start),
        }
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.len);
    }

    /// Offset reported for the next byte (valid after `fill` returned bytes).
    fn offset(&self) -> u64 {
        match self.codec {
            Codec::Plain => self.buf_offset + self.pos as u64,
            _ => self.member_start,
        }
    }

    /// Consumes CR, LF, space and tab.
    fn skip_blank(&mut self) -> Result<(), Damage> {
        loop {
            let chunk = self.fill()?;
            if chunk.is_empty() {
                return Ok(());
            }
            let n = chunk
                .iter()
                .position(|b| !matches!(b, b'\r' | b'\n' | b' ' | b'\t'))
                .unwrap_or(chunk.len());
            let all = n == chunk.len();
            self.consume(n);
            if !all {
                return Ok(());
            }
        }
    }

    /// Reads one line, its `\n` consumed but not returned.
    fn read_line(&mut self, max: usize) -> Result<Line, Damage> {
        let mut line = Vec::new();
        loop {
            let chunk = self.fill()?;
            if chunk.is_empty() {
                return Ok(Line::Eof);
            }
            match memchr::memchr(b'\n', chunk) {
                Some(i) if line.len() + i <= max => {
                    line.extend_from_slice(&chunk[..i]);
                    self.consume(i + 1);
                    return Ok(Line::Full(line));
                }
                None if line.len() + chunk.len() <= max => {
                    line.extend_from_slice(chunk);
                    let n = chunk.len();
                    self.consume(n);
                }
                _ => {
                    // Too long: drop the rest of the line, keeping nothing.
                    loop {
                        let chunk = self.fill()?;
                        if chunk.is_empty() {
                            break;
                        }
                        match memchr::memchr(b'\n', chunk) {
                            Some(i) => {
                                self.consume(i + 1);
                                break;
                            }
                            None => {
                                let n = chunk.len();
                                self.consume(n);
                            }
                        }
                    }
                    return Ok(Line::TooLong);
                }
            }
        }
    }
}

enum Line {
    Full(Vec<u8>),
    /// The file ended before a `\n`.
    Eof,
    TooLong,
}

/// The five fields of an ARC v1 header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArcHeader {
    pub url: String,
    pub ip: String,
    pub date: String,
    pub content_type: String,
    pub length: String,
}

impl ArcHeader {
    /// Splits a header line (no line ending) from the right, as warcio does: the last four
    /// space-separated fields, the rest is the URL. `None` with fewer than five fields.
    pub(crate) fn parse(line: &[u8]) -> Option<ArcHeader> {
        let text = match std::str::from_utf8(line) {
            Ok(s) => s.to_string(),
            // warcio falls back to ISO-8859-1.
            Err(_) => line.iter().map(|&b| char::from(b)).collect(),
        };
        let mut parts = text.trim_end().rsplitn(5, ' ');
        let length = parts.next()?.to_string();
        let content_type = parts.next()?.to_string();
        let date = parts.next()?.to_string();
        let ip = parts.next()?.to_string();
        let url = parts.next()?.to_string();
        if url.is_empty() {
            return None;
        }
        Some(ArcHeader {
            url,
            ip,
            date,
            content_type,
            length,
        })
    }

    /// Archive-length as a number (`None` for `-1`, `abc`, …).
    pub(crate) fn length(&self) -> Option<u64> {
        if self.length.is_empty() || !self.length.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.length.parse().ok()
    }

    /// Strict enough to resync on after damage: a numeric length and date, a scheme in the URL.
    pub(crate) fn plausible(&self) -> bool {
        self.length().is_some()
            && self.date.len() >= 8
            && self.date.bytes().all(|b| b.is_ascii_digit())
            && self.url.contains(':')
            && !self.url.bytes().any(|b| b.is_ascii_control())
    }

    fn kind(&self) -> Kind {
        let url = self.url.as_bytes();
        let has = |scheme: &[u8]| {
            url.len() >= scheme.len() && url[..scheme.len()].eq_ignore_ascii_case(scheme)
        };
        if self.url.starts_with("filedesc://") {
            Kind::FileDesc
        } else if has(b"http:") || has(b"https:") {
            Kind::Http
        } else {
            Kind::Other
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The `filedesc://` version block (warcio's `arc_header`).
    FileDesc,
    /// An HTTP(S) capture: the block is an HTTP response.
    Http,
    /// Any other scheme: the block is the content, typed by the ARC header.
    Other,
}

/// An ARC date (`YYYYMMDDhhmmss`; digits past 14 ignored) as ISO 8601 UTC.
pub(crate) fn iso_date(date: &str) -> Option<String> {
    let d = date.as_bytes();
    if d.len() < 14 || !d.iter().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let num = |a: usize, b: usize| -> u32 {
        d[a..b]
            .iter()
            .fold(0u32, |n, &c| n * 10 + u32::from(c - b'0'))
    };
    let (y, mo, day, h, mi, s) = (
        num(0, 4),
        num(4, 6),
        num(6, 8),
        num(8, 10),
        num(10, 12),
        num(12, 14),
    );
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match mo {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > days || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    Some(format!("{y:04}-{mo:02}-{day:02}T{h:02}:{mi:02}:{s:02}Z"))
}

/// The block of the record being read: how much is left, and the running record id.
struct Block {
    len: u64,
    read: u64,
    hasher: Sha1,
}

impl Block {
    fn new(line: &[u8], len: u64) -> Block {
        let mut hasher = Sha1::new();
        hasher.update(line.strip_suffix(b"\r").unwrap_or(line));
        hasher.update(b"\n");
        Block {
            len,
            read: 0,
            hasher,
        }
    }

    fn remaining(&self) -> u64 {
        self.len - self.read
    }

    /// Reads up to `n` more block bytes (fewer only at EOF) into `out`, or nowhere.
    fn read(
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

    fn drain(&mut self, src: &mut Source) -> Result<(), Damage> {
        self.read(src, self.remaining(), None).map(|_| ())
    }

    /// The start of an HTTP head: `None` when the block does not start with `HTTP/`; else the
    /// bytes up to and including the first blank line (or the block's end, or just over
    /// [`MAX_HEADER_LEN`], which the parser then refuses).
    fn read_http_head(&mut self, src: &mut Source) -> Result<Option<Vec<u8>>, Damage> {
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

    fn record_id(&self) -> String {
        // A SHA-1 is 32 base32 characters, with no padding.
        format!(
            "<urn:sha1:{}>",
            base32::encode(&self.hasher.clone().finalize())
        )
    }
}

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
                    return skip(SkipReason::NotHtml, reader::NOT_HTTP);
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
                let (content_type, headers) = match reader::http_response_head(&map) {
                    Ok(v) => v,
                    Err((reason, detail)) => return skip(reason, detail),
                };
                (content_type, headers, head[used..].to_vec())
            }
        };
        let body_len = body.len() as u64 + block.remaining();
        let content_type = match reader::page_check(content_type, body_len, &self.options) {
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
            && reader::find_next_member(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::WarcReader;
    use std::io::Write;

    const FILEDESC: &str = "filedesc://t.arc 127.0.0.1 20140216050221 text/plain 65\n\
                            1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n\n";

    fn http(status: &str, ctype: &str, body: &str) -> String {
        format!(
            "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    }

    /// One ARC record: header line, block, newline.
    fn record(url: &str, date: &str, block: &str) -> String {
        format!(
            "{url} 93.184.216.119 {date} text/html {}\n{block}\n",
            block.len()
        )
    }

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// Reads `bytes` as an ARC file (directly, whatever it starts with).
    fn read(bytes: &[u8], options: ReaderOptions) -> (Vec<ReadItem>, FileStatus) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.arc");
        std::fs::write(&path, bytes).unwrap();
        let mut r = ArcReader::open(crate::source::LocalFile::shared(&path), options).unwrap();
        let items: Vec<ReadItem> = r.by_ref().collect();
        (items, r.status())
    }

    fn outline(items: &[ReadItem]) -> Vec<String> {
        items
            .iter()
            .map(|i| match i {
                ReadItem::Page(p) => format!("page {}", p.target_uri.as_deref().unwrap_or("")),
                ReadItem::Skipped(s) => s.reason.as_str().to_string(),
            })
            .collect()
    }

    fn offsets(items: &[ReadItem]) -> Vec<u64> {
        items
            .iter()
            .map(|i| match i {
                ReadItem::Page(p) => p.offset,
                ReadItem::Skipped(s) => s.offset,
            })
            .collect()
    }

    fn page(item: &ReadItem) -> &RawPage {
        match item {
            ReadItem::Page(p) => p,
            other => panic!("not a page: {other:?}"),
        }
    }

    fn skipped(item: &ReadItem) -> &Skip {
        match item {
            ReadItem::Skipped(s) => s,
            other => panic!("not a skip: {other:?}"),
        }
    }

    #[test]
    fn header_lines_split_from_the_right() {
        let h = ArcHeader::parse(
            b"http://e.com/a b?c=Examples From The Web 1.2.3.4 20140216050221 text/html 1591\r",
        )
        .unwrap();
        assert_eq!(h.url, "http://e.com/a b?c=Examples From The Web");
        assert_eq!(
            (h.ip.as_str(), h.date.as_str(), h.content_type.as_str()),
            ("1.2.3.4", "20140216050221", "text/html")
        );
        assert_eq!(h.length(), Some(1591));
        assert!(h.plausible());
        // Latin-1 bytes in the URL are kept as their characters.
        let h = ArcHeader::parse(b"http://e.com/\xe9 1.2.3.4 20140216050221 text/html 0").unwrap();
        assert_eq!(h.url, "http://e.com/\u{e9}");
        for bad_len in ["-1", "abc", "", "+5", "99999999999999999999999"] {
            let line = format!("http://e.com/ 1.2.3.4 20140216050221 text/html {bad_len}");
            let h = ArcHeader::parse(line.as_bytes());
            assert!(h.as_ref().is_none_or(|h| h.length().is_none()), "{bad_len}");
        }
        assert_eq!(ArcHeader::parse(b"1 0 LiveWeb Capture"), None);
        assert_eq!(ArcHeader::parse(b"HTTP/1.1 200 OK"), None);
        assert_eq!(ArcHeader::parse(b""), None);
        // Five fields but not a header worth resyncing on.
        let h = ArcHeader::parse(b"URL IP-address Archive-date Content-type Archive-length");
        assert!(h.is_some_and(|h| !h.plausible()));
    }

    #[test]
    fn dates() {
        assert_eq!(
            iso_date("20140216050221").as_deref(),
            Some("2014-02-16T05:02:21Z")
        );
        // Digits past 14 are ignored (warcio does the same).
        assert_eq!(
            iso_date("201404010000000000").as_deref(),
            Some("2014-04-01T00:00:00Z")
        );
        assert_eq!(
            iso_date("20000229235959").as_deref(),
            Some("2000-02-29T23:59:59Z")
        );
        for bad in [
            "2014021605022",
            "20140230000000",
            "20141301000000",
            "2014021624000x",
            "",
        ] {
            assert_eq!(iso_date(bad), None, "{bad}");
        }
        assert_eq!(iso_date("19000229000000"), None);
    }

    #[test]
    fn space_in_url_page_with_deterministic_id() {
        let url = "http://example.com/index.cfm?Title=Examples From The Live Web&x=1";
        let block = http("200 OK", "text/html", "<p>hello</p>");
        let rec = record(url, "20140216050221", &block);
        let file = format!("{FILEDESC}{rec}");
        let (items, status) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(status, FileStatus::Complete);
        assert_eq!(
            outline(&items),
            ["other_type".to_string(), format!("page {url}")]
        );
        let p = page(&items[1]);
        assert_eq!(p.body, b"<p>hello</p>");
        assert_eq!(p.date.as_deref(), Some("2014-02-16T05:02:21Z"));
        assert_eq!(p.offset, FILEDESC.len() as u64);
        assert_eq!(p.content_type.as_deref(), Some("text/html"));
        assert_eq!(p.http_headers.len(), 2);
        assert_eq!(p.payload_digest, None);
        // The id is the SHA-1 of header line + "\n" + block, whatever precedes the record.
        let line = rec.lines().next().unwrap();
        let want = format!(
            "<urn:sha1:{}>",
            base32::encode(&Sha1::digest(format!("{line}\n{block}").as_bytes()))
        );
        assert_eq!(p.record_id, want);
        assert_eq!(want.len(), "<urn:sha1:>".len() + 32);
        let other = format!(
            "{FILEDESC}{}{rec}",
            record("http://a/", "20140216050221", "x")
        );
        let (items2, _) = read(other.as_bytes(), ReaderOptions::default());
        assert_eq!(page(&items2[2]).record_id, want);
        // CRLF after the header line gives the same id.
        let crlf = file.replacen(&format!("{line}\n"), &format!("{line}\r\n"), 1);
        let (items3, _) = read(crlf.as_bytes(), ReaderOptions::default());
        assert_eq!(page(&items3[1]).record_id, want);
    }

    #[test]
    fn record_kinds_and_skip_reasons() {
        let mut file = FILEDESC.to_string();
        file += &record(
            "http://a/",
            "20140216050221",
            &http("404 Not Found", "text/html", "x"),
        );
        file += &record(
            "https://b/",
            "20140216050221",
            &http("200 OK", "image/png", "x"),
        );
        file += &record("http://c/", "20140216050221", "not http at all");
        file += &record("http://d/", "20140216050221", "");
        file += &record("http://e/", "20140216050221", "HTTP/1.1 200 OK\r\n\r\n");
        file += "dns:example.com 1.2.3.4 20140216050221 text/dns 16\n20140216 1.2.3.4\n";
        file += &record("ftp://f/x.html", "20140216050221", "<p>ftp page</p>");
        file += &record(
            "http://g/",
            "20140216050221",
            &http("200 OK", "text/html", "<p>g</p>"),
        );
        let (items, status) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(status, FileStatus::Complete);
        assert_eq!(
            outline(&items),
            [
                "other_type",
                "status",
                "not_html",
                "not_html",
                "empty",
                "empty",
                "not_html",
                "page ftp://f/x.html",
                "page http://g/",
            ]
        );
        // Non-HTTP schemes are typed by the ARC header: text/dns is not HTML, ftp's text/html is.
        let p = page(&items[7]);
        assert!(p.http_headers.is_empty());
        assert_eq!(p.body, b"<p>ftp page</p>");
        assert_eq!(p.content_type.as_deref(), Some("text/html"));
        // Skips carry the deterministic id too; offsets are where each header line starts.
        assert!(
            skipped(&items[1])
                .record_id
                .as_deref()
                .unwrap()
                .starts_with("<urn:sha1:")
        );
        let offs = offsets(&items);
        assert!(offs.windows(2).all(|w| w[0] < w[1]), "{offs:?}");
        assert_eq!(&file.as_bytes()[offs[8] as usize..][..9], b"http://g/");
        // Too big: skipped without being copied.
        let opts = ReaderOptions {
            max_record_bytes: 3,
        };
        let (items, _) = read(file.as_bytes(), opts);
        assert_eq!(outline(&items)[8], "too_big");
    }

    #[test]
    fn truncated_block_is_bad_and_partial() {
        let good = record(
            "http://a/",
            "20140216050221",
            &http("200 OK", "text/html", "<p>a</p>"),
        );
        let body = "<p>this body is cut</p>".repeat(20);
        let cut = record(
            "http://b/",
            "20140216050221",
            &http("200 OK", "text/html", &body),
        );
        let at = cut.len() - 100;
        let file = format!("{FILEDESC}{good}{}", &cut[..at]);
        let (items, status) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(
            outline(&items),
            ["other_type", "page http://a/", "bad_record"]
        );
        let off = (FILEDESC.len() + good.len()) as u64;
        assert_eq!(skipped(&items[2]).offset, off);
        match status {
            FileStatus::Partial { offset, error } => {
                assert_eq!(offset, off);
                assert!(error.contains("truncated record"), "{error}");
            }
            other => panic!("{other:?}"),
        }
        // A header line cut by the end of the file.
        let file = format!("{FILEDESC}{good}http://b/ 1.2.3.4 2014");
        let (items, status) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(
            outline(&items),
            ["other_type", "page http://a/", "bad_record"]
        );
        assert!(matches!(status, FileStatus::Partial { offset, .. } if offset == off));
    }

    #[test]
    fn length_past_eof_with_a_complete_http_body_is_a_page() {
        // warcio's example-space-in-url.arc: CRs stripped from the HTTP head after the ARC
        // length was written, so the length runs past the end of the file.
        let block = http("200 OK", "text/html", "<p>all here</p>\n");
        let head = format!(
            "http://a/ 1.2.3.4 20140216050221 text/html {}\n",
            block.len() + 14
        );
        let file = format!("{FILEDESC}{head}{block}\n");
        let (items, status) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(status, FileStatus::Complete);
        assert_eq!(page(&items[1]).body, b"<p>all here</p>\n");
        // Without a Content-Length nothing shows the body is whole: cut.
        let block = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>all here?</p>";
        let head = format!(
            "http://a/ 1.2.3.4 20140216050221 text/html {}\n",
            block.len() + 14
        );
        let file = format!("{FILEDESC}{head}{block}\n");
        let (items, status) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(outline(&items), ["other_type", "bad_record"]);
        assert!(matches!(status, FileStatus::Partial { .. }));
    }

    #[test]
    fn garbage_and_bad_lengths_are_counted_and_skipped() {
        let a = record(
            "http://a/",
            "20140216050221",
            &http("200 OK", "text/html", "<p>a</p>"),
        );
        let b = record(
            "http://b/",
            "20140216050221",
            &http("200 OK", "text/html", "<p>b</p>"),
        );
        // A junk line where a header should be: one bad record, the next record kept.
        let file = format!("{FILEDESC}{a}this is junk\nmore junk, and more\n\x00\x01\n{b}");
        let (items, status) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(status, FileStatus::Complete);
        assert_eq!(
            outline(&items),
            [
                "other_type",
                "page http://a/",
                "bad_record",
                "page http://b/"
            ]
        );
        assert_eq!(skipped(&items[2]).record_id, None);
        assert_eq!(skipped(&items[2]).offset, (FILEDESC.len() + a.len()) as u64);
        // A line far over the limit (no newline for 100 KiB).
        let long = "x".repeat(100 << 10);
        let file = format!("{FILEDESC}{a}{long}\n{b}");
        let (items, _) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(
            outline(&items),
            [
                "other_type",
                "page http://a/",
                "bad_record",
                "page http://b/"
            ]
        );
        // A length that is not a number, with its block after it: one bad record, then b.
        let block = http("200 OK", "text/html", "<p>lost</p>");
        let file = format!("{FILEDESC}http://x/ 1.2.3.4 20140216050221 text/html -1\n{block}\n{b}");
        let (items, status) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(
            outline(&items),
            ["other_type", "bad_record", "page http://b/"]
        );
        assert_eq!(status, FileStatus::Complete);
        // A length too short: the block does not end at a line end; b is found again.
        let block = http("200 OK", "text/html", "<p>short</p>");
        let file = format!(
            "{FILEDESC}http://s/ 1.2.3.4 20140216050221 text/html {}\n{block}\n{b}",
            block.len() - 5
        );
        let (items, _) = read(file.as_bytes(), ReaderOptions::default());
        assert_eq!(
            outline(&items),
            ["other_type", "bad_record", "page http://b/"]
        );
    }

    #[test]
    fn gzip_per_record_offsets_and_damage() {
        let recs = [
            FILEDESC.to_string(),
            record(
                "http://a/",
                "20140216050221",
                &http("200 OK", "text/html", "<p>a</p>"),
            ),
            record(
                "http://b/",
                "20140216050221",
                &http("200 OK", "text/html", "<p>b</p>"),
            ),
            record(
                "http://c/",
                "20140216050221",
                &http("200 OK", "text/html", "<p>c</p>"),
            ),
        ];
        let members: Vec<Vec<u8>> = recs.iter().map(|r| gz(r.as_bytes())).collect();
        let starts: Vec<u64> = members
            .iter()
            .scan(0u64, |at, m| {
                let s = *at;
                *at += m.len() as u64;
                Some(s)
            })
            .collect();
        let file = members.concat();
        let (items, status) = read(&file, ReaderOptions::default());
        assert_eq!(status, FileStatus::Complete);
        assert_eq!(offsets(&items), starts);
        // The same records as plain ARC give the same ids.
        let (plain, _) = read(recs.concat().as_bytes(), ReaderOptions::default());
        assert_eq!(page(&items[2]).record_id, page(&plain[2]).record_id);
        // Member 2 corrupt: one bad record at its offset, file Partial there, c still read.
        let mut bad = members.clone();
        let mid = bad[2].len() / 2;
        bad[2][mid..mid + 6].copy_from_slice(b"\xff\xff\xff\xff\xff\xff");
        let (items, status) = read(&bad.concat(), ReaderOptions::default());
        assert_eq!(
            outline(&items),
            [
                "other_type",
                "page http://a/",
                "bad_record",
                "page http://c/"
            ]
        );
        assert_eq!(skipped(&items[2]).offset, starts[2]);
        assert_eq!(offsets(&items)[3], starts[3]);
        assert!(
            matches!(&status, FileStatus::Partial { offset, .. } if *offset == starts[2]),
            "{status:?}"
        );
        // Cut inside the last member: the last record is bad, Partial at its member.
        let cut = &file[..file.len() - 20];
        let (items, status) = read(cut, ReaderOptions::default());
        assert_eq!(
            outline(&items),
            [
                "other_type",
                "page http://a/",
                "page http://b/",
                "bad_record"
            ]
        );
        assert!(matches!(status, FileStatus::Partial { offset, .. } if offset == starts[3]));
    }

    #[test]
    fn zstd_frames_are_members_too() {
        let recs = [
            FILEDESC.to_string(),
            record(
                "http://a/",
                "20140216050221",
                &http("200 OK", "text/html", "<p>a</p>"),
            ),
        ];
        let frames: Vec<Vec<u8>> = recs
            .iter()
            .map(|r| zstd::stream::encode_all(r.as_bytes(), 3).unwrap())
            .collect();
        let (items, status) = read(&frames.concat(), ReaderOptions::default());
        assert_eq!(status, FileStatus::Complete);
        assert_eq!(outline(&items), ["other_type", "page http://a/"]);
        assert_eq!(offsets(&items), [0, frames[0].len() as u64]);
    }

    #[test]
    fn warc_reader_dispatches_arc_files() {
        let dir = tempfile::tempdir().unwrap();
        let file = format!(
            "{FILEDESC}{}",
            record(
                "http://a/",
                "20140216050221",
                &http("200 OK", "text/html", "<p>a</p>")
            )
        );
        for (name, bytes) in [
            ("x.arc", file.as_bytes().to_vec()),
            ("x.arc.gz", gz(file.as_bytes())),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let mut r = WarcReader::open(&path, ReaderOptions::default()).unwrap();
            let items: Vec<ReadItem> = r.by_ref().collect();
            assert_eq!(outline(&items), ["other_type", "page http://a/"], "{name}");
            assert_eq!(r.status(), FileStatus::Complete, "{name}");
        }
    }

    /// Every prefix of a file and every single-byte corruption of it: no panic, no hang, and
    /// never more items than lines (each item consumes at least one line).
    #[test]
    fn any_damage_ends_cleanly() {
        let mut file = FILEDESC.to_string();
        for u in ["http://a/", "http://b c/", "dns:x"] {
            file += &record(
                u,
                "20140216050221",
                &http("200 OK", "text/html", "<p>x</p>\n"),
            );
        }
        let plain = file.into_bytes();
        let lines = plain.iter().filter(|&&b| b == b'\n').count() + 1;
        let gzipped: Vec<u8> = plain
            .split_inclusive(|&b| b == b'\n')
            .collect::<Vec<_>>()
            .chunks(4)
            .flat_map(|c| gz(&c.concat()))
            .collect();
        for bytes in [&plain, &gzipped] {
            for cut in 0..bytes.len() {
                let (items, _) = read(&bytes[..cut], ReaderOptions::default());
                assert!(items.len() <= lines, "cut {cut}: {}", items.len());
            }
            for at in (0..bytes.len()).step_by(3) {
                for v in [0u8, b'\n', b' ', 0xff] {
                    let mut b = bytes.to_vec();
                    b[at] = v;
                    let (items, _) = read(&b, ReaderOptions::default());
                    assert!(items.len() <= lines, "byte {at}: {}", items.len());
                }
            }
        }
    }
}
