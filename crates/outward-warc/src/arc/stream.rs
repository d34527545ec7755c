//! The decoded byte stream of an ARC file: plain bytes, or gzip members / zstd frames decoded
//! one at a time, with the offset every byte is reported at (the plain-file position, or the
//! start of the member / frame it comes from), and the line reads the record loop needs.
//!
//! Invariants: the first read failure is kept ([`Damage`]) and returned until a restart at a
//! later member; every read consumes input or ends, so no caller can loop on it.

use crate::record::{GZIP_MAGIC, ZSTD_MAGIC};
use crate::source::{ByteSource, SourceStream};
use std::io::{self, BufRead, BufReader, Read};

/// A read failure of the input itself (I/O error, or compressed data that does not decode).
#[derive(Debug, Clone)]
pub(super) struct Damage {
    /// Where: the failing gzip member / zstd frame, or the plain-file position.
    pub(super) offset: u64,
    pub(super) error: String,
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
pub(super) enum Codec {
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
pub(super) struct Source {
    pub(super) codec: Codec,
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
    pub(super) fn open(source: &dyn ByteSource) -> io::Result<Source> {
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
    pub(super) fn restart_at(&mut self, source: &dyn ByteSource, at: u64) -> io::Result<()> {
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
    pub(super) fn fill(&mut self) -> Result<&[u8], Damage> {
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

    pub(super) fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.len);
    }

    /// Offset reported for the next byte (valid after `fill` returned bytes).
    pub(super) fn offset(&self) -> u64 {
        match self.codec {
            Codec::Plain => self.buf_offset + self.pos as u64,
            _ => self.member_start,
        }
    }

    /// Consumes CR, LF, space and tab.
    pub(super) fn skip_blank(&mut self) -> Result<(), Damage> {
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
    pub(super) fn read_line(&mut self, max: usize) -> Result<Line, Damage> {
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

pub(super) enum Line {
    Full(Vec<u8>),
    /// The file ended before a `\n`.
    Eof,
    TooLong,
}
