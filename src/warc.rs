//! Reader stage: WARC files (`.warc`, `.warc.gz` gzip-per-record, `.warc.zst`) → candidate
//! HTML records. Knows nothing of HTML beyond the HTTP Content-Type.
//!
//! INTERFACE (fixed by the lead; the body is the reader helper's):
//! - [`WarcReader::open`] opens a path with fastwarc in quirks mode.
//! - Iterating yields [`ReadItem`]s in file order: every record read becomes exactly one item,
//!   either a [`RawPage`] (a `response` with HTTP 200 and an HTML or missing content type, or an
//!   HTML `resource`) or a [`Skip`] with its [`SkipReason`].
//! - After iteration, [`WarcReader::status`] says whether the file was read to its end.
//! - Never panics on any input; a repeating reader error ends iteration with `Partial`.

use crate::counts::SkipReason;
use std::path::Path;

/// Reader settings.
#[derive(Debug, Clone)]
pub struct ReaderOptions {
    /// Records whose HTTP body is larger than this are skipped as `TooBig` without copying.
    pub max_record_bytes: u64,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            max_record_bytes: 16 << 20,
        }
    }
}

/// One HTML candidate, payload copied out of fastwarc (so it is `Send`).
#[derive(Debug, Clone, Default)]
pub struct RawPage {
    /// WARC-Record-ID as written, e.g. `<urn:uuid:...>`.
    pub record_id: String,
    pub target_uri: Option<String>,
    /// WARC-Date as written.
    pub date: Option<String>,
    /// Byte offset of the record in the input file (compressed offset for `.gz`/`.zst`).
    pub offset: u64,
    pub payload_digest: Option<String>,
    /// HTTP Content-Type (response) or WARC Content-Type (resource), if any.
    pub content_type: Option<String>,
    /// HTTP headers in order (empty for resource records).
    pub http_headers: Vec<(String, String)>,
    /// HTTP body as stored: Transfer-/Content-Encoding not yet decoded.
    pub body: Vec<u8>,
}

/// A record that will not become a document, with where it was.
#[derive(Debug, Clone)]
pub struct Skip {
    pub reason: SkipReason,
    pub record_id: Option<String>,
    pub offset: u64,
    pub detail: String,
}

#[derive(Debug)]
pub enum ReadItem {
    Page(RawPage),
    Skipped(Skip),
}

/// How far a file was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileStatus {
    Complete,
    /// Reading stopped early: the error and the byte offset where it happened.
    Partial {
        offset: u64,
        error: String,
    },
}

pub struct WarcReader {
    _private: (),
}

impl WarcReader {
    pub fn open(_path: &Path, _options: ReaderOptions) -> std::io::Result<WarcReader> {
        Err(std::io::Error::other("reader not implemented yet"))
    }

    /// Valid once iteration has returned `None`.
    pub fn status(&self) -> FileStatus {
        FileStatus::Complete
    }
}

impl Iterator for WarcReader {
    type Item = ReadItem;
    fn next(&mut self) -> Option<ReadItem> {
        None
    }
}
