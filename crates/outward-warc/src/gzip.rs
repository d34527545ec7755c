//! Gzip input of `.warc.gz` files: [`MemberGzipReader`] decodes a file of gzip members (one
//! WARC record each, as crawlers write them) a whole member at a time with libdeflate, which
//! is faster than streaming inflate (measured on dev dragnet's 1,382 members: 72 ms against
//! fastwarc's `GzipReader`, zlib-rs, at 92 ms).
//!
//! Invariants:
//! - On a file zlib decodes without error, the decoded bytes are those of fastwarc's
//!   `GzipReader`, whole member by whole member. A member libdeflate cannot decode whole
//!   (damaged, cut, not gzip, or over [`WHOLE_OUTPUT_MAX`] decoded bytes) is decoded from its
//!   first byte by streaming zlib-rs inflate, as fastwarc does, so a damaged member fails with
//!   fastwarc's error and message; a member with a header CRC-16 (which libdeflate does not
//!   check) streams too. What differs on damaged files: the bytes of a damaged member decoded
//!   before its error are dropped a buffer at a time, as fastwarc drops them, but our buffers
//!   are bigger (1 MiB) than fastwarc's (128 KiB at first); and a member zlib refuses but
//!   libdeflate decodes with a matching CRC-32 and length (libdeflate takes a few incomplete
//!   Huffman codes zlib refuses) is kept, its CRC vouching for it. So on any input one of the
//!   two byte sequences is a prefix of the other, and they are equal when fastwarc has no
//!   error: the `gzip_members` fuzz target checks this.
//! - A buffer never spans two members; an empty member reads as an empty buffer (the end of
//!   the stream, as fastwarc takes it).
//! - Positions (fastwarc's `WarcRead`): [`WarcRead::frame_start_position`] is the start of the
//!   member being read (so a record's offset is its member's); [`WarcRead::inner_stream_position`]
//!   is that member start while a whole member's bytes are served, else the compressed bytes
//!   consumed so far.
//! - Memory is bounded: at most [`WHOLE_INPUT_MAX`] compressed and [`WHOLE_OUTPUT_MAX`]
//!   decoded bytes are held; bigger members stream.
//! - A read error while reading ahead is kept until the bytes before it are decoded, so the
//!   records before a failing region are still read.
//!
//! The only `unsafe` of the crate is in [`Libdeflate`] (libdeflate's allocation, decode call
//! and free, and `Send` for its handle), each block with its proof.

use fastwarc::stream_io::traits::{ReadSeek, WarcRead};
use std::any::Any;
use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use zlib_rs::{Inflate, InflateFlush, Status};

/// Compressed bytes kept buffered ahead of a member's start, so that a member usually lies
/// whole in the buffer (crawl members are tens of KiB).
const LOOKAHEAD: usize = 1 << 20;
/// Largest compressed member decoded whole; a bigger one streams.
const WHOLE_INPUT_MAX: usize = 16 << 20;
/// First size of the decoded buffer (doubled while a member does not fit).
const OUTPUT_START: usize = 1 << 20;
/// Largest decoded member held whole; a bigger one streams through a buffer of this size.
const WHOLE_OUTPUT_MAX: usize = 8 << 20;
/// zlib's window bits for a gzip header and a 32 KiB window (fastwarc's setting).
const GZIP_WINDOW_BITS: u8 = 15 + 16;

/// Where a [`MemberGzipReader`] found its input ending inside a gzip member: shared with the
/// reader's owner, who cannot reach the reader once fastwarc's iterator holds it.
#[derive(Debug, Clone)]
pub struct CutMember(Arc<AtomicU64>);

impl Default for CutMember {
    fn default() -> Self {
        CutMember(Arc::new(AtomicU64::new(u64::MAX)))
    }
}

impl CutMember {
    /// The offset of the member the input ended inside, if it did.
    pub fn offset(&self) -> Option<u64> {
        Some(self.0.load(Ordering::Relaxed)).filter(|&at| at != u64::MAX)
    }

    fn set(&self, at: u64) {
        self.0.store(at, Ordering::Relaxed);
    }
}

/// Reads the decoded bytes of a file of gzip members (see the module docs).
pub struct MemberGzipReader<T: ReadSeek> {
    source: T,
    /// Compressed bytes; `input[in_start..in_end]` are read from the source and not consumed.
    input: Vec<u8>,
    in_start: usize,
    in_end: usize,
    /// File offset of `input[in_start]`: the compressed bytes consumed so far.
    in_offset: u64,
    /// The source has nothing more (end of file, or `pending_error`).
    source_done: bool,
    /// A read error met while reading ahead, returned once its bytes are needed.
    pending_error: Option<io::Error>,
    /// Decoded bytes; `out[out_pos..out_len]` are not yet consumed.
    out: Vec<u8>,
    out_pos: usize,
    out_len: usize,
    /// `out` holds a whole member (else a chunk of a streamed one, or nothing).
    serving_whole: bool,
    /// Decoded bytes consumed: the position of the decoded stream.
    stream_pos: u64,
    /// Start offset of the member being read.
    member_pos: u64,
    /// The member being streamed, when it could not be decoded whole.
    streaming: Option<Box<Inflate>>,
    /// Told when the input ends inside a member.
    cut: CutMember,
    /// `None` when libdeflate could not allocate: every member streams.
    whole: Option<Libdeflate>,
}

impl<T: ReadSeek> MemberGzipReader<T> {
    /// A reader of the members from `source`'s current position on (offsets are `source`'s).
    pub fn new(mut source: T) -> Self {
        let start = source.stream_position().unwrap_or(0);
        MemberGzipReader::with_read_bytes(source, start, Vec::new())
    }

    /// A reader of the members from offset `start` on, whose first bytes, `read`, were already
    /// taken from `source` (a sniffing buffer's): `source` goes on after them.
    pub fn with_read_bytes(source: T, start: u64, read: Vec<u8>) -> Self {
        MemberGzipReader {
            source,
            in_start: 0,
            in_end: read.len(),
            input: read,
            in_offset: start,
            source_done: false,
            pending_error: None,
            out: Vec::new(),
            out_pos: 0,
            out_len: 0,
            serving_whole: false,
            stream_pos: 0,
            member_pos: start,
            streaming: None,
            whole: Libdeflate::new(),
            cut: CutMember::default(),
        }
    }

    /// Tells `cut` when the input ends inside a member (fastwarc's reader, like zlib's
    /// streaming API, takes that for the end of the stream: a file cut just after a record's
    /// last deflate block would read as whole).
    pub fn report_cut_to(mut self, cut: CutMember) -> Self {
        self.cut = cut;
        self
    }

    fn buffered(&self) -> usize {
        self.in_end - self.in_start
    }

    /// Reads from the source until at least `want` bytes are buffered or the source is done.
    /// Consumed bytes are dropped from the buffer's front first.
    fn read_ahead(&mut self, want: usize) {
        if self.buffered() >= want || self.source_done {
            return;
        }
        self.input.copy_within(self.in_start..self.in_end, 0);
        self.in_end -= self.in_start;
        self.in_start = 0;
        // At least twice the lookahead, so that a compaction moves at most about as many
        // bytes as were consumed since the last one.
        let capacity = want.max(2 * LOOKAHEAD);
        if self.input.len() < capacity {
            self.input.resize(capacity, 0);
        }
        while self.in_end < want {
            match self.source.read(&mut self.input[self.in_end..]) {
                Ok(0) => {
                    self.source_done = true;
                    return;
                }
                Ok(n) => self.in_end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.pending_error = Some(e);
                    self.source_done = true;
                    return;
                }
            }
        }
    }

    /// Makes `out[..n]` hold the next member decoded whole and returns `n`, or `None` when
    /// libdeflate cannot or should not (the member then streams from its first byte).
    fn decode_whole(&mut self) -> Option<usize> {
        self.whole.as_ref()?;
        // FLG's FHCRC bit: a header CRC-16, checked by zlib only.
        const FHCRC: u8 = 0x02;
        if self
            .input
            .get(self.in_start + 3)
            .is_some_and(|flg| flg & FHCRC != 0)
        {
            return None;
        }
        loop {
            let input = &self.input[self.in_start..self.in_end];
            let whole = self.whole.as_mut()?;
            match whole.gzip_member(input, &mut self.out) {
                Whole::Decoded { consumed, produced } => {
                    self.in_start += consumed;
                    self.in_offset += consumed as u64;
                    return Some(produced);
                }
                Whole::NoRoom if self.out.len() < WHOLE_OUTPUT_MAX => {
                    let len = (2 * self.out.len()).min(WHOLE_OUTPUT_MAX);
                    self.out.resize(len, 0);
                }
                // Bad data, or a member longer than what is buffered: read more while that
                // can help, then leave the member to the streaming decoder.
                Whole::Bad if !self.source_done && self.buffered() < WHOLE_INPUT_MAX => {
                    let want = (2 * self.buffered()).min(WHOLE_INPUT_MAX);
                    self.read_ahead(want);
                }
                Whole::NoRoom | Whole::Bad => return None,
            }
        }
    }

    /// Decodes more of the streamed member into `out`, as fastwarc's `GzipReader` does: until
    /// the member ends, `out` is full, or no progress is possible (the end of the input).
    fn stream(&mut self) -> io::Result<()> {
        loop {
            if self.in_start == self.in_end {
                if let Some(e) = self.pending_error.take() {
                    return Err(e);
                }
                self.read_ahead(1);
            }
            let Some(inflate) = self.streaming.as_mut() else {
                return Ok(());
            };
            let (total_in, total_out) = (inflate.total_in(), inflate.total_out());
            // On an error, what this call decoded is dropped with it, as in fastwarc.
            let status = inflate
                .decompress(
                    &self.input[self.in_start..self.in_end],
                    &mut self.out[self.out_len..],
                    InflateFlush::NoFlush,
                )
                .map_err(|e| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("Gzip decompression error: {}", e.as_str()),
                    )
                })?;
            let consumed = (inflate.total_in() - total_in) as usize;
            let produced = (inflate.total_out() - total_out) as usize;
            self.in_start += consumed;
            self.in_offset += consumed as u64;
            self.out_len += produced;
            if status == Status::StreamEnd {
                self.streaming = None;
                return Ok(());
            }
            if consumed == 0 && produced == 0 && self.source_done && self.buffered() == 0 {
                // The input ended before the member did (its trailer, or more).
                self.cut.set(self.member_pos);
            }
            if self.out_len == self.out.len() || (consumed == 0 && produced == 0) {
                return Ok(());
            }
        }
    }
}

impl<T: ReadSeek> BufRead for MemberGzipReader<T> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.out_pos < self.out_len {
            return Ok(&self.out[self.out_pos..self.out_len]);
        }
        self.out_pos = 0;
        self.out_len = 0;
        self.serving_whole = false;
        if self.out.is_empty() {
            self.out.resize(OUTPUT_START, 0);
        }
        if self.streaming.is_none() {
            // A member starts here.
            self.read_ahead(LOOKAHEAD);
            if self.in_start == self.in_end {
                return match self.pending_error.take() {
                    Some(e) => Err(e),
                    None => Ok(&[]),
                };
            }
            self.member_pos = self.in_offset;
            if let Some(n) = self.decode_whole() {
                self.out_len = n;
                self.serving_whole = true;
                return Ok(&self.out[..n]);
            }
            self.streaming = Some(Box::new(Inflate::new(true, GZIP_WINDOW_BITS)));
        }
        self.stream()?;
        Ok(&self.out[..self.out_len])
    }

    fn consume(&mut self, amount: usize) {
        let amount = amount.min(self.out_len - self.out_pos);
        self.out_pos += amount;
        self.stream_pos += amount as u64;
    }
}

impl<T: ReadSeek> Read for MemberGzipReader<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.read(buf)?;
        self.consume(n);
        Ok(n)
    }
}

impl<T: ReadSeek> Seek for MemberGzipReader<T> {
    /// Seeks forward in the decoded stream (by reading); backward and from the end are
    /// unsupported, as in fastwarc's decoders.
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let target = match pos {
            SeekFrom::Start(p) => p,
            SeekFrom::Current(d) => self.stream_pos.checked_add_signed(d).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "seek before the start")
            })?,
            SeekFrom::End(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "seeking from the end is not supported",
                ));
            }
        };
        if target < self.stream_pos {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "backward seeking is not supported",
            ));
        }
        while self.stream_pos < target {
            let left = target - self.stream_pos;
            let n = (self.fill_buf()?.len() as u64).min(left) as usize;
            if n == 0 {
                break;
            }
            self.consume(n);
        }
        Ok(self.stream_pos)
    }

    fn stream_position(&mut self) -> io::Result<u64> {
        Ok(self.stream_pos)
    }
}

impl<T: ReadSeek> WarcRead for MemberGzipReader<T> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }

    /// Seeks the compressed source; decoding restarts there, at what must be a member start.
    fn inner_seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        if pos == SeekFrom::Current(0) {
            return self.inner_stream_position();
        }
        let at = self.source.seek(pos)?;
        self.in_start = 0;
        self.in_end = 0;
        self.in_offset = at;
        self.source_done = false;
        self.pending_error = None;
        self.out_pos = 0;
        self.out_len = 0;
        self.serving_whole = false;
        self.stream_pos = 0;
        self.member_pos = at;
        self.streaming = None;
        Ok(at)
    }

    fn inner_stream_position(&mut self) -> io::Result<u64> {
        if self.serving_whole && self.out_pos < self.out_len {
            Ok(self.member_pos)
        } else {
            Ok(self.in_offset)
        }
    }

    fn frame_start_position(&mut self) -> io::Result<Option<u64>> {
        Ok(Some(self.member_pos))
    }

    fn is_stream_decoder(&self) -> bool {
        true
    }
}

/// What one libdeflate call made of the bytes at a member's start.
#[derive(Debug, PartialEq, Eq)]
enum Whole {
    /// The first member of the input: its compressed and decoded lengths.
    Decoded { consumed: usize, produced: usize },
    /// The member decodes to more bytes than the output holds.
    NoRoom,
    /// Not one whole valid member (damaged, cut off by the input's end, or not gzip).
    Bad,
}

/// An owned libdeflate decompressor.
struct Libdeflate(NonNull<libdeflate_sys::libdeflate_decompressor>);

// SAFETY: a libdeflate decompressor is heap memory with no thread affinity or shared state;
// `Libdeflate` owns it alone (no `Clone`, no `Sync` needed) and uses it only through
// `&mut self`, so moving it to another thread is sound.
unsafe impl Send for Libdeflate {}

impl Libdeflate {
    /// `None` when libdeflate cannot allocate its state.
    fn new() -> Option<Libdeflate> {
        // SAFETY: no preconditions; the result is a new decompressor or NULL.
        let raw = unsafe { libdeflate_sys::libdeflate_alloc_decompressor() };
        NonNull::new(raw).map(Libdeflate)
    }

    /// Decodes the gzip member at the start of `input` into `out` (checked: header, CRC-32
    /// and length of the trailer).
    fn gzip_member(&mut self, input: &[u8], out: &mut [u8]) -> Whole {
        let mut consumed = 0usize;
        let mut produced = 0usize;
        // SAFETY: the decompressor is valid (allocated in `new`, freed only in `drop`) and
        // used by no one else (`&mut self`). libdeflate reads at most `input.len()` bytes from
        // `input` and writes at most `out.len()` bytes to `out`, two live slices that do not
        // overlap (one is shared, one exclusive), and writes one `usize` to each of the two
        // counters, which are live locals. It keeps no pointer after returning.
        let result = unsafe {
            libdeflate_sys::libdeflate_gzip_decompress_ex(
                self.0.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                &mut consumed,
                &mut produced,
            )
        };
        match result {
            libdeflate_sys::libdeflate_result_LIBDEFLATE_SUCCESS
                if consumed <= input.len() && produced <= out.len() =>
            {
                Whole::Decoded { consumed, produced }
            }
            libdeflate_sys::libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE => Whole::NoRoom,
            _ => Whole::Bad,
        }
    }
}

impl Drop for Libdeflate {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `libdeflate_alloc_decompressor` and is freed once,
        // here; nothing uses it afterwards.
        unsafe { libdeflate_sys::libdeflate_free_decompressor(self.0.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fastwarc::stream_io::gzip::GzipReader;
    use outward_testkit::{DecodedMembers, SplitMix64, decode_members};
    use std::io::Cursor;

    /// Our decoding of `file`, after checking that it has the same bytes, error and member
    /// starts as fastwarc's reader.
    fn same_as_fastwarc(file: &[u8]) -> DecodedMembers {
        let ours = decode_members(MemberGzipReader::new(Cursor::new(file.to_vec())));
        let theirs = decode_members(GzipReader::new(Cursor::new(file.to_vec())));
        assert_eq!(ours.0, theirs.0, "decoded bytes");
        assert_eq!(ours.1, theirs.1, "error");
        assert_eq!(ours.2, theirs.2, "member starts");
        ours
    }

    /// A page-like text of `n` bytes that compresses like HTML does, not to nothing.
    fn text(n: usize, seed: u64) -> Vec<u8> {
        const BYTES: &[u8] = b"<p>the quick brown fox, jumps over; lazy dogs</p>\n";
        let mut rng = SplitMix64::new(seed);
        (0..n).map(|_| BYTES[rng.below(BYTES.len())]).collect()
    }

    fn members(parts: &[Vec<u8>]) -> (Vec<u8>, Vec<u64>) {
        let mut file = Vec::new();
        let mut starts = Vec::new();
        for p in parts {
            starts.push(file.len() as u64);
            file.extend(outward_testkit::gzip(p));
        }
        (file, starts)
    }

    /// A file of one member per part decodes to the parts, without error, as fastwarc decodes
    /// it, and each member's start is seen.
    fn decodes_whole(parts: &[Vec<u8>]) {
        let (file, starts) = members(parts);
        let (bytes, error, seen) = same_as_fastwarc(&file);
        assert_eq!(bytes, parts.concat());
        assert_eq!(error, None);
        assert_eq!(seen, starts);
    }

    #[test]
    fn members_decode_whole_with_their_start_offsets() {
        let parts: Vec<Vec<u8>> = (0..5).map(|i| text(1000 + 7000 * i, i as u64)).collect();
        decodes_whole(&parts);
    }

    #[test]
    fn a_member_bigger_than_the_first_buffers_still_decodes() {
        // Decoded: 3 MiB (over OUTPUT_START); compressed: 2.5 MB, more than the first
        // read-ahead holds.
        let big = text(3 << 20, 7);
        let mut rng = SplitMix64::new(1);
        let incompressible: Vec<u8> = (0..2_500_000).map(|_| rng.next_u64() as u8).collect();
        decodes_whole(&[text(500, 1), big, incompressible, text(500, 2)]);
    }

    #[test]
    fn a_member_over_the_whole_limit_streams() {
        decodes_whole(&[text(WHOLE_OUTPUT_MAX + 12345, 3), text(2000, 4)]);
    }

    #[test]
    fn damaged_cut_and_trailing_bytes_read_as_fastwarc_reads_them() {
        let parts: Vec<Vec<u8>> = (0..3).map(|i| text(20_000, 10 + i)).collect();
        let (file, starts) = members(&parts);
        // A flipped byte inside the second member's deflate data.
        let mut flipped = file.clone();
        flipped[starts[1] as usize + 200] ^= 0x55;
        let (bytes, error, _) = same_as_fastwarc(&flipped);
        assert!(error.is_some());
        assert!(bytes.starts_with(&parts[0]));
        // A broken CRC in the second member's trailer: the first member, then the error.
        let mut crc = file.clone();
        crc[starts[2] as usize - 6] ^= 1;
        let (bytes, error, _) = same_as_fastwarc(&crc);
        assert!(error.unwrap().contains("Gzip decompression error"));
        assert!(bytes.starts_with(&parts[0]));
        // Cut in the middle of the last member: the first two whole, then what streams.
        let cut = &file[..starts[2] as usize + 300];
        let (bytes, _, _) = same_as_fastwarc(cut);
        assert!(bytes.starts_with(&parts[..2].concat()));
        // Junk after the last member.
        let mut junk = file.clone();
        junk.extend_from_slice(b"\r\nnot gzip");
        let (bytes, error, _) = same_as_fastwarc(&junk);
        assert_eq!(&bytes[..], &parts.concat()[..]);
        assert!(error.is_some());
    }

    #[test]
    fn a_header_crc_is_checked_as_zlib_checks_it() {
        // Two members, the second with FHCRC set and a CRC-16 of its header after it.
        let first = outward_testkit::gzip(&text(2000, 30));
        let plain = outward_testkit::gzip(&text(2000, 31));
        let header_crc = |good: bool| {
            let mut header = plain[..10].to_vec();
            header[3] |= 0x02;
            let mut crc = flate2::Crc::new();
            crc.update(&header);
            let crc16 = (crc.sum() & 0xffff) as u16 ^ if good { 0 } else { 1 };
            [&header[..], &crc16.to_le_bytes(), &plain[10..]].concat()
        };
        let good = [first.clone(), header_crc(true)].concat();
        let (bytes, error, _) = same_as_fastwarc(&good);
        assert_eq!(bytes, [text(2000, 30), text(2000, 31)].concat());
        assert_eq!(error, None);
        // A wrong header CRC is an error, as in fastwarc (libdeflate would not see it).
        let bad = [first, header_crc(false)].concat();
        let (bytes, error, _) = same_as_fastwarc(&bad);
        assert_eq!(bytes, text(2000, 30));
        assert!(error.is_some());
    }

    #[test]
    fn an_empty_member_ends_the_stream_as_in_fastwarc() {
        let (file, _) = members(&[text(3000, 5), Vec::new(), text(3000, 6)]);
        let (bytes, error, _) = same_as_fastwarc(&file);
        assert_eq!(bytes, text(3000, 5));
        assert_eq!(error, None);
    }

    /// A source whose reads fail after `ok` bytes: the whole members before the failure are
    /// still decoded, then the error is returned.
    struct FailingAfter {
        data: Cursor<Vec<u8>>,
        ok: u64,
    }

    impl Read for FailingAfter {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let left = self.ok.saturating_sub(self.data.position());
            if left == 0 {
                return Err(io::Error::other("connection reset"));
            }
            let n = buf.len().min(left as usize);
            self.data.read(&mut buf[..n])
        }
    }

    impl Seek for FailingAfter {
        fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
            self.data.seek(pos)
        }
    }

    #[test]
    fn a_read_error_ahead_keeps_the_members_before_it() {
        let parts: Vec<Vec<u8>> = (0..4).map(|i| text(30_000, 20 + i)).collect();
        let (file, starts) = members(&parts);
        let source = FailingAfter {
            data: Cursor::new(file),
            ok: starts[3] + 10,
        };
        let (bytes, error, seen) = decode_members(MemberGzipReader::new(source));
        assert_eq!(bytes, parts[..3].concat());
        assert_eq!(error.as_deref(), Some("connection reset"));
        assert_eq!(seen, starts[..3]);
    }

    #[test]
    fn offsets_are_those_of_the_source() {
        let (file, starts) = members(&[text(4000, 8), text(4000, 9)]);
        let mut source = Cursor::new(file);
        source.set_position(starts[1]);
        let (bytes, _, seen) = decode_members(MemberGzipReader::new(source));
        assert_eq!(bytes, text(4000, 9));
        assert_eq!(seen, vec![starts[1]]);
        // Bytes already read by a sniffing buffer are decoded first, at their offsets.
        let (file, starts) = members(&[text(4000, 8), text(4000, 9), text(4000, 10)]);
        let mut source = Cursor::new(file.clone());
        source.set_position(starts[1] + 5);
        let read = file[starts[1] as usize..starts[1] as usize + 5].to_vec();
        let (bytes, _, seen) =
            decode_members(MemberGzipReader::with_read_bytes(source, starts[1], read));
        assert_eq!(bytes, [text(4000, 9), text(4000, 10)].concat());
        assert_eq!(seen, starts[1..]);
    }
}
