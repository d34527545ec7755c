//! Reader stage: WARC files (`.warc`, `.warc.gz` gzip-per-record, `.warc.zst`, `.warc.lz4`) and
//! ARC (v1) files (`.arc`, `.arc.gz`, see `arc/`) → candidate HTML records. Knows nothing
//! of HTML beyond the HTTP Content-Type.
//!
//! Interface:
//! - [`WarcReader::open`] opens a path: an ARC file ([`sniff`] says [`FileKind::Arc`]) goes to
//!   the ARC reader (`arc/`), anything else to the WARC reader (`warc/`: fastwarc in quirks
//!   mode). Both yield the same items and status and share the HTTP-head and skip rules
//!   (`record::http_response_head`, `record::page_check`).
//! - Iterating yields [`ReadItem`]s in file order: every record read becomes exactly one item,
//!   either a [`RawPage`] (a `response` with HTTP 200 and an HTML or missing content type, or an
//!   HTML `resource`) or a [`Skip`] with its [`SkipReason`].
//! - After iteration, [`WarcReader::status`] says whether the file was read to its end.
//! - Never panics on any input; a reader error makes the file `Partial` (see `warc/` and
//!   `arc/` for where each format reports it).
//!
//! This module owns the dispatch (sniffing a file's first bytes) and the public names: the
//! item types are defined in `record` and exported from here. The WARC and ARC readers sit
//! below it and share only `record` and `resync`: neither imports the other, nor this module.
//!
//! [`SkipReason`]: outward_base::counts::SkipReason

use crate::arc::ArcReader;
use crate::record::{GZIP_MAGIC, LZ4_MAGIC, ZSTD_MAGIC};
use crate::source::{ByteSource, LocalFile};
use crate::warc::WarcRecords;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

pub use crate::record::{FileStatus, RawPage, ReadItem, ReaderOptions, Skip};

/// Reads one input file, WARC or ARC, as [`ReadItem`]s (see the module docs).
pub struct WarcReader {
    inner: Inner,
}

enum Inner {
    Warc(WarcRecords),
    Arc(Box<ArcReader>),
}

/// What a file holds, judged from its first bytes (decompressed first when they are gzip
/// or zstd): what `outward run` checks before it reads an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileKind {
    /// A WARC file (or compressed data the reader will judge record by record).
    Warc,
    /// An ARC (v1) file: `filedesc://` first.
    Arc,
    /// A file of zero bytes.
    Empty,
    /// Anything else, with its first bytes shown as text.
    Other { starts_with: String },
}

/// Sniffs `path`. Compressed data that will not decompress is left to the reader (`Warc`), so
/// a file damaged after its start keeps its good records.
pub fn sniff(path: &Path) -> std::io::Result<FileKind> {
    sniff_source(&LocalFile::new(path))
}

/// [`sniff`] for any source: its first 64 KiB are read once (one range of a remote object).
pub fn sniff_source(source: &dyn ByteSource) -> std::io::Result<FileKind> {
    const RAW: u64 = 64 << 10;
    let mut raw = Vec::with_capacity(4096);
    source.open_at(0)?.take(RAW).read_to_end(&mut raw)?;
    if raw.is_empty() {
        return Ok(FileKind::Empty);
    }
    let mut head = Vec::with_capacity(64);
    let decoded = if raw.starts_with(GZIP_MAGIC) {
        flate2::read::MultiGzDecoder::new(raw.as_slice())
            .take(64)
            .read_to_end(&mut head)
            .map(|_| ())
    } else if raw.starts_with(ZSTD_MAGIC) {
        zstd::stream::read::Decoder::new(raw.as_slice())
            .and_then(|d| d.take(64).read_to_end(&mut head).map(|_| ()))
    } else if raw.starts_with(LZ4_MAGIC) {
        // LZ4 frames: the reader decompresses them itself.
        return Ok(FileKind::Warc);
    } else {
        head = raw[..raw.len().min(64)].to_vec();
        Ok(())
    };
    if decoded.is_err() || head.is_empty() {
        return Ok(FileKind::Warc);
    }
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let head = &head[start..];
    Ok(if head.starts_with(b"WARC/") {
        FileKind::Warc
    } else if head.starts_with(b"filedesc://") {
        FileKind::Arc
    } else {
        FileKind::Other {
            starts_with: raw
                .iter()
                .take(16)
                .flat_map(|&b| std::ascii::escape_default(b))
                .map(char::from)
                .collect(),
        }
    })
}

impl WarcReader {
    /// Opens `path`: an ARC (v1) file ([`sniff`] finds `filedesc://` first, plain or gzip) is
    /// read by the ARC reader (`arc/`); anything else as WARC (`.gz`/`.zst`/`.lz4` by
    /// extension, gzip/zstd/lz4 by magic bytes otherwise). A missing or unreadable file is an
    /// `Err`.
    pub fn open(path: &Path, options: ReaderOptions) -> std::io::Result<WarcReader> {
        WarcReader::open_source(LocalFile::shared(path), options)
    }

    /// [`WarcReader::open`] for any source (a remote object, bytes in memory): the extension
    /// is that of its name.
    pub fn open_source(
        source: Arc<dyn ByteSource>,
        options: ReaderOptions,
    ) -> std::io::Result<WarcReader> {
        let inner = if sniff_source(source.as_ref())? == FileKind::Arc {
            Inner::Arc(Box::new(ArcReader::open(source, options)?))
        } else {
            Inner::Warc(WarcRecords::open(source, options)?)
        };
        Ok(WarcReader { inner })
    }

    /// Valid once iteration has returned `None`.
    pub fn status(&self) -> FileStatus {
        match &self.inner {
            Inner::Warc(r) => r.status(),
            Inner::Arc(r) => r.status(),
        }
    }
}

impl Iterator for WarcReader {
    type Item = ReadItem;

    fn next(&mut self) -> Option<ReadItem> {
        match &mut self.inner {
            Inner::Warc(r) => r.next(),
            Inner::Arc(r) => r.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff_tells_warc_arc_and_other_files_apart() {
        let dir = tempfile::tempdir().unwrap();
        let warc =
            b"\r\nWARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n".to_vec();
        let gz = {
            use std::io::Write;
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(&warc).unwrap();
            e.finish().unwrap()
        };
        let zst = zstd::stream::encode_all(&warc[..], 3).unwrap();
        let arc = b"filedesc://IA-001102.arc 0 19960923142103 text/plain 76\n".to_vec();
        let cases: [(&str, Vec<u8>, FileKind); 7] = [
            ("a.warc", warc.clone(), FileKind::Warc),
            ("a.warc.gz", gz, FileKind::Warc),
            ("a.warc.zst", zst, FileKind::Warc),
            ("a.arc", arc, FileKind::Arc),
            ("e.warc", Vec::new(), FileKind::Empty),
            (
                "p.warc",
                b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
                FileKind::Other {
                    starts_with: "\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR".into(),
                },
            ),
            // A gzip stream cut inside its first member: left to the reader, which keeps
            // what decodes and reports where the damage is.
            (
                "t.warc.gz",
                vec![0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x0b],
                FileKind::Warc,
            ),
        ];
        for (name, bytes, want) in cases {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            assert_eq!(sniff(&path).unwrap(), want, "{name}");
        }
        assert!(sniff(&dir.path().join("missing.warc")).is_err());
    }

    /// Moved from the ARC reader's tests, with a WARC file beside it: `open` sends a file to the
    /// reader of what it holds, whatever its name says.
    #[test]
    fn open_dispatches_arc_and_warc_files() {
        let dir = tempfile::tempdir().unwrap();
        let http =
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 8\r\n\r\n<p>a</p>";
        let arc = format!(
            "filedesc://t.arc 127.0.0.1 20140216050221 text/plain 65\n\
             1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n\n\
             http://a/ 93.184.216.119 20140216050221 text/html {}\n{http}\n",
            http.len()
        );
        let warc = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a/\r\n\
             Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n\
             {http}\r\n\r\n",
            http.len()
        );
        let cases: [(&str, Vec<u8>, &[&str]); 4] = [
            (
                "x.arc",
                arc.clone().into_bytes(),
                &["other_type", "page http://a/"],
            ),
            (
                "x.arc.gz",
                outward_testkit::gzip(arc.as_bytes()),
                &["other_type", "page http://a/"],
            ),
            ("x.warc", warc.clone().into_bytes(), &["page http://a/"]),
            ("x.arc.warc", warc.into_bytes(), &["page http://a/"]),
        ];
        for (name, bytes, want) in cases {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let mut r = WarcReader::open(&path, ReaderOptions::default()).unwrap();
            let outline: Vec<String> = r
                .by_ref()
                .map(|i| match i {
                    ReadItem::Page(p) => format!("page {}", p.target_uri.unwrap_or_default()),
                    ReadItem::Skipped(s) => s.reason.as_str().to_string(),
                })
                .collect();
            assert_eq!(outline, want, "{name}");
            assert_eq!(r.status(), FileStatus::Complete, "{name}");
        }
    }
}
