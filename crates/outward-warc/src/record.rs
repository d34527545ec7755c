//! What a reader makes of a record, and the rules for it that the WARC reader (`warc/`) and the
//! ARC reader (`arc/`) share: the items ([`ReadItem`]: a [`RawPage`] or a [`Skip`]), the file
//! status, the reader options, the magic bytes and header limit both read files by, and the
//! HTTP-head and page rules (`http_response_head`, `page_check`) that make a 200 HTML response
//! a page in either format.
//!
//! Invariants: the one place these are defined (the public types are exported by `reader`,
//! their one public path); knows no file format's framing, and imports neither reader.

use outward_base::counts::SkipReason;

/// First bytes of a gzip member, a zstd frame and an LZ4 frame.
pub(crate) const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];
pub(crate) const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
pub(crate) const LZ4_MAGIC: &[u8] = &[0x04, 0x22, 0x4d, 0x18];

/// Largest WARC/HTTP header block accepted (fastwarc's default is 32 KiB; ClueWeb needs more).
pub(crate) const MAX_HEADER_LEN: usize = 1 << 20;

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
    /// HTTP status of a response (always 200: other codes are skipped); `None` for resource
    /// records, which have no HTTP message.
    pub http_status: Option<u16>,
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

impl FileStatus {
    /// `complete` or `partial`, as the manifest and the summaries name it.
    pub fn name(&self) -> &'static str {
        match self {
            FileStatus::Complete => "complete",
            FileStatus::Partial { .. } => "partial",
        }
    }
}

/// A response's Content-Type and HTTP headers in order.
pub(crate) type HttpHead = (Option<String>, Vec<(String, String)>);
/// Why a record is skipped: the reason and its detail text.
pub(crate) type SkipWhy = (SkipReason, &'static str);

/// Skip detail of a response whose block is not an HTTP message.
pub(crate) const NOT_HTTP: &str = "response without HTTP";

/// The parsed HTTP head of a response: its Content-Type and headers (in order) when the status
/// is 200, else the skip (`Status` for another code, `BadRecord` for no status line). Shared by
/// the WARC and ARC readers.
pub(crate) fn http_response_head(
    h: &fastwarc::warc::header::HeaderMap,
) -> Result<HttpHead, SkipWhy> {
    match h.status_code() {
        Some(200) => {}
        Some(_) => return Err((SkipReason::Status, "non-200")),
        None => return Err((SkipReason::BadRecord, "no HTTP status")),
    }
    let mut headers = Vec::with_capacity(h.len());
    let mut content_type = None;
    for (k, v) in h.items() {
        if content_type.is_none() && k.eq_ignore_ascii_case("content-type") {
            content_type = Some(v.trim().to_string());
        }
        headers.push((k.into_owned(), v.into_owned()));
    }
    Ok((content_type, headers))
}

/// Whether a 200 response (or a resource) with this content type and a body of `body_len`
/// bytes becomes a page: HTML or no type (`NotHtml`), at most `max_record_bytes` (`TooBig`),
/// not empty (`Empty`). Returns the content type with a blank one made `None`. Shared by the
/// WARC and ARC readers.
pub(crate) fn page_check(
    content_type: Option<String>,
    body_len: u64,
    options: &ReaderOptions,
) -> Result<Option<String>, SkipWhy> {
    let content_type = content_type.filter(|c| !c.is_empty());
    if !is_html_or_missing(content_type.as_deref()) {
        return Err((SkipReason::NotHtml, "not HTML"));
    }
    if body_len > options.max_record_bytes {
        return Err((SkipReason::TooBig, "body over max_record_bytes"));
    }
    if body_len == 0 {
        return Err((SkipReason::Empty, "empty body"));
    }
    Ok(content_type)
}

/// Media type (before `;`) is HTML, or the type is missing/blank (the decoder sniffs).
fn is_html_or_missing(content_type: Option<&str>) -> bool {
    let Some(ct) = content_type else { return true };
    let media = ct.split(';').next().unwrap_or("").trim();
    media.is_empty()
        || media.eq_ignore_ascii_case("text/html")
        || media.eq_ignore_ascii_case("application/xhtml+xml")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_types() {
        assert!(is_html_or_missing(None));
        assert!(is_html_or_missing(Some("")));
        assert!(is_html_or_missing(Some("text/html")));
        assert!(is_html_or_missing(Some("Text/HTML; charset=UTF-8")));
        assert!(is_html_or_missing(Some(" application/xhtml+xml ;q")));
        assert!(!is_html_or_missing(Some("text/plain")));
        assert!(!is_html_or_missing(Some("image/png")));
        assert!(!is_html_or_missing(Some("text/htmlx")));
    }
}
