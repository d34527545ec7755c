//! Decoder stage: an HTTP body as stored → UTF-8 HTML, with the charset and how it was chosen.
//! Knows nothing of WARC.
//!
//! INTERFACE (fixed by the lead; the body is the decoder helper's):
//! - [`decode_body`] undoes Transfer-Encoding chunked and Content-Encoding gzip/deflate/br/zstd
//!   (capped against decompression bombs), sniffs HTML when the content type is missing, then
//!   picks the charset and decodes.
//! - [`decode_charset`] is the one charset routine: BOM → valid UTF-8 (with non-ASCII) → HTTP
//!   header charset → `<meta>` prescan → chardetng on a ≤16 KiB prefix → windows-1252.

use crate::counts::SkipReason;

#[derive(Debug, Clone)]
pub struct DecodeOptions {
    /// Cap on the decoded body size; larger is `TooBig`.
    pub max_decoded_bytes: usize,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            max_decoded_bytes: 16 << 20,
        }
    }
}

/// How the charset was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharsetSource {
    Bom,
    Utf8Valid,
    HttpHeader,
    Meta,
    Detected,
    Default,
}

impl CharsetSource {
    pub fn as_str(self) -> &'static str {
        match self {
            CharsetSource::Bom => "bom",
            CharsetSource::Utf8Valid => "utf8_valid",
            CharsetSource::HttpHeader => "http_header",
            CharsetSource::Meta => "meta",
            CharsetSource::Detected => "detected",
            CharsetSource::Default => "default",
        }
    }
}

#[derive(Debug, Clone)]
pub struct DecodedPage {
    pub html: String,
    /// WHATWG encoding name, e.g. "UTF-8", "GBK".
    pub charset: &'static str,
    pub charset_source: CharsetSource,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub reason: SkipReason,
    pub detail: String,
}

/// `content_type` is the HTTP (or WARC resource) Content-Type, `headers` the HTTP headers.
pub fn decode_body(
    headers: &[(String, String)],
    content_type: Option<&str>,
    body: &[u8],
    _options: &DecodeOptions,
) -> Result<DecodedPage, DecodeError> {
    let _ = headers;
    Ok(decode_charset(
        body,
        content_type.and_then(charset_from_content_type),
    ))
}

/// `charset=...` parameter of a Content-Type value.
pub fn charset_from_content_type(content_type: &str) -> Option<&str> {
    let lower = content_type.to_ascii_lowercase();
    let at = lower.find("charset=")?;
    let value = &content_type[at + 8..];
    let value = value.trim_start_matches(['"', '\'']);
    let end = value.find([';', '"', '\'', ' ']).unwrap_or(value.len());
    Some(&value[..end])
}

/// The one charset routine (see module docs).
pub fn decode_charset(bytes: &[u8], _declared: Option<&str>) -> DecodedPage {
    DecodedPage {
        html: String::from_utf8_lossy(bytes).into_owned(),
        charset: "UTF-8",
        charset_source: CharsetSource::Default,
    }
}
