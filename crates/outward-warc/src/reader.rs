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
    /// A WARC file: `WARC/` first.
    Warc,
    /// Compressed data whose start does not decompress, or LZ4 (which the reader
    /// decompresses itself): left to the WARC reader, which keeps what decodes and reports
    /// where the damage is.
    Undecoded,
    /// An ARC (v1) file: `filedesc://` first.
    Arc,
    /// A file of zero bytes.
    Empty,
    /// A WARC file of derived records and no captured page: Common Crawl's WET (`conversion`
    /// records: text already extracted) or WAT (`metadata` records: JSON of each capture).
    Derived(Derived),
    /// Anything else: its compression, if any, and its first bytes (decompressed) as text.
    Other {
        compression: Option<&'static str>,
        starts_with: String,
    },
}

/// See [`FileKind::Derived`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derived {
    Wet,
    Wat,
}

impl Derived {
    pub fn name(self) -> &'static str {
        match self {
            Derived::Wet => "WET",
            Derived::Wat => "WAT",
        }
    }

    /// The record type it holds instead of captured pages.
    pub fn record_type(self) -> &'static str {
        match self {
            Derived::Wet => "conversion",
            Derived::Wat => "metadata",
        }
    }
}

impl std::fmt::Display for FileKind {
    /// What a person should hear of a file that is not read: "not a WARC or ARC file
    /// (gzip data; decompressed, it starts with "<html>…"): an HTML page …".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileKind::Warc => write!(f, "a WARC file"),
            FileKind::Undecoded => write!(f, "compressed data that does not decompress"),
            FileKind::Arc => write!(f, "an ARC file"),
            FileKind::Empty => write!(f, "an empty file"),
            FileKind::Derived(d) => write!(
                f,
                "a {} file ({} records, no captured page): outward extracts from the WARC files \
                 of a crawl, not from its {} files",
                d.name(),
                d.record_type(),
                d.name()
            ),
            FileKind::Other {
                compression,
                starts_with,
            } => {
                match compression {
                    Some(c) => write!(
                        f,
                        "not a WARC or ARC file ({c} data; decompressed, it starts with \"{starts_with}\")"
                    )?,
                    None => write!(
                        f,
                        "not a WARC or ARC file (it starts with \"{starts_with}\")"
                    )?,
                }
                let lower = starts_with.trim_start().to_ascii_lowercase();
                if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
                    write!(f, ": an HTML page (outward extract reads those)")?;
                } else if lower.starts_with('{') {
                    write!(f, ": JSON, perhaps a shard outward wrote")?;
                }
                Ok(())
            }
        }
    }
}

/// Sniffs `path`. Compressed data that will not decompress is [`FileKind::Undecoded`], left
/// to the reader, so a file damaged after its start keeps its good records.
pub fn sniff(path: &Path) -> std::io::Result<FileKind> {
    sniff_source(&LocalFile::new(path))
}

/// [`sniff`] for any source: its first 64 KiB are read once (one range of a remote object),
/// and decompressed up to 256 KiB.
pub fn sniff_source(source: &dyn ByteSource) -> std::io::Result<FileKind> {
    const RAW: u64 = 64 << 10;
    const DECODED: u64 = 256 << 10;
    let mut raw = Vec::with_capacity(4096);
    source.open_at(0)?.take(RAW).read_to_end(&mut raw)?;
    if raw.is_empty() {
        return Ok(FileKind::Empty);
    }
    // Raw bytes cut at 64 KiB may end inside a compressed member: a decoding error keeps
    // what decoded before it.
    let mut decoded = Vec::new();
    let compression = if raw.starts_with(GZIP_MAGIC) {
        let _ = flate2::read::MultiGzDecoder::new(raw.as_slice())
            .take(DECODED)
            .read_to_end(&mut decoded);
        Some("gzip")
    } else if raw.starts_with(ZSTD_MAGIC) {
        if let Ok(d) = zstd::stream::read::Decoder::new(raw.as_slice()) {
            let _ = d.take(DECODED).read_to_end(&mut decoded);
        }
        Some("zstd")
    } else if raw.starts_with(LZ4_MAGIC) {
        // LZ4 frames: the reader decompresses them itself.
        return Ok(FileKind::Undecoded);
    } else {
        None
    };
    let text = if compression.is_some() {
        decoded.as_slice()
    } else {
        raw.as_slice()
    };
    if text.is_empty() {
        return Ok(FileKind::Undecoded);
    }
    let start = text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(text.len());
    let head = &text[start..];
    Ok(if head.starts_with(b"WARC/") {
        derived_kind(text).map_or(FileKind::Warc, FileKind::Derived)
    } else if head.starts_with(b"filedesc://") {
        FileKind::Arc
    } else {
        FileKind::Other {
            compression,
            starts_with: head
                .iter()
                .take(16)
                .flat_map(|&b| std::ascii::escape_default(b))
                .map(char::from)
                .collect(),
        }
    })
}

/// WET or WAT, when the record types in the first bytes of a WARC are only `warcinfo` and
/// that kind's derived records: no `request`, `response`, `resource` or `revisit`.
fn derived_kind(text: &[u8]) -> Option<Derived> {
    let (mut conversion, mut metadata) = (false, false);
    for line in text.split(|&b| b == b'\n') {
        let Some(value) = line
            .get(..10)
            .filter(|name| name.eq_ignore_ascii_case(b"WARC-Type:"))
            .map(|_| line[10..].trim_ascii())
        else {
            continue;
        };
        match value.to_ascii_lowercase().as_slice() {
            b"warcinfo" => {}
            b"conversion" => conversion = true,
            b"metadata" => metadata = true,
            _ => return None,
        }
    }
    match (conversion, metadata) {
        (true, false) => Some(Derived::Wet),
        (false, true) => Some(Derived::Wat),
        _ => None,
    }
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
                    compression: None,
                    starts_with: "\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR".into(),
                },
            ),
            // A gzip stream cut inside its first member: left to the reader, which keeps
            // what decodes and reports where the damage is.
            (
                "t.warc.gz",
                vec![0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x0b],
                FileKind::Undecoded,
            ),
        ];
        for (name, bytes, want) in cases {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            assert_eq!(sniff(&path).unwrap(), want, "{name}");
        }
        assert!(sniff(&dir.path().join("missing.warc")).is_err());
    }

    /// A gzip file that is not a WARC is described by what is inside, and Common Crawl's
    /// WET and WAT files (WARC files of derived records) are told apart from WARC files.
    #[test]
    fn sniff_describes_what_is_inside() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let gzip = |bytes: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        };
        let record = |kind: &str| {
            format!("WARC/1.0\r\nWARC-Type: {kind}\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n")
        };
        let wet = [
            record("warcinfo"),
            record("conversion"),
            record("conversion"),
        ]
        .concat();
        let wat = [record("warcinfo"), record("metadata")].concat();
        let warc = [
            record("warcinfo"),
            record("request"),
            record("response"),
            record("metadata"),
        ]
        .concat();
        let page = gzip(b"<!DOCTYPE html><html><body>hello</body></html>");
        let cases: [(&str, Vec<u8>, &str); 5] = [
            (
                "page.warc.gz",
                page,
                "not a WARC or ARC file (gzip data; decompressed, it starts with \"<!DOCTYPE html><\"): an HTML page",
            ),
            (
                "x.warc.wet.gz",
                gzip(wet.as_bytes()),
                "a WET file (conversion records",
            ),
            (
                "x.warc.wat",
                wat.clone().into_bytes(),
                "a WAT file (metadata records",
            ),
            ("x.warc.gz", gzip(warc.as_bytes()), "a WARC file"),
            (
                "s.warc.zst",
                zstd::stream::encode_all(&b"{\"id\": 1}"[..], 3).unwrap(),
                "(zstd data; decompressed, it starts with \"{\\\"id\\\": 1}\"): JSON",
            ),
        ];
        for (name, bytes, want) in cases {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let kind = sniff(&path).unwrap().to_string();
            assert!(
                kind.starts_with(want) || kind.contains(want),
                "{name}: {kind}"
            );
        }
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
