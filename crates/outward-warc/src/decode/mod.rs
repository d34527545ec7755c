//! Decoder stage: an HTTP body as stored → UTF-8 HTML, with the charset and how it was chosen.
//! Knows nothing of WARC. Submodules: [`http`] (chunked, Content-Encoding, sniffing) and
//! [`charset`] (the one charset routine). Invariants: never panics; decoded size is capped at
//! `max_decoded_bytes`; every failure is a [`DecodeError`] with a [`SkipReason`].
//!
//! Interface:
//! - [`decode_body`] undoes Transfer-Encoding chunked and Content-Encoding gzip/deflate/br/zstd
//!   (capped against decompression bombs), sniffs HTML when the content type is missing, then
//!   picks the charset and decodes.
//! - [`decode_charset`] is the one charset routine: BOM → valid UTF-8 (with non-ASCII) → HTTP
//!   header charset → `<meta>` prescan → chardetng on a ≤16 KiB prefix; all-ASCII bytes with
//!   no usable declaration are reported as UTF-8 / `Default` (same text as windows-1252).
//!   A declared UTF-8 on bytes that are not UTF-8 is ignored (see [`charset`]).

use outward_base::counts::SkipReason;
use std::borrow::Cow;

pub mod charset;
pub mod http;

pub use charset::decode_charset;

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
    /// Text handed over already decoded (a Python `str`): nothing was decoded.
    Given,
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
            CharsetSource::Given => "given",
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
///
/// Steps: size cap on the stored body → de-chunk when `Transfer-Encoding: chunked` (a body that
/// is not really chunked stays raw) → undo `Content-Encoding` (capped at `max_decoded_bytes`;
/// a body that fails to decode but already looks like HTML is used raw, which covers Common
/// Crawl's decoded payloads under `Content-Encoding: gzip`; otherwise a stream that breaks off
/// after producing HTML keeps the decoded part, as browsers do) → empty check → HTML check
/// (declared non-HTML media type, or sniffing when the type is missing; binary junk is never
/// HTML) → [`decode_charset`].
///
/// An owned body (`Vec<u8>`) that needs no transformation becomes the page's text without a
/// copy when it is UTF-8 (or ASCII); a borrowed one is copied once.
pub fn decode_body<'a>(
    headers: &[(String, String)],
    content_type: Option<&str>,
    body: impl Into<Cow<'a, [u8]>>,
    options: &DecodeOptions,
) -> Result<DecodedPage, DecodeError> {
    let body: Cow<'a, [u8]> = body.into();
    let cap = options.max_decoded_bytes;
    if body.len() > cap {
        return Err(err(SkipReason::TooBig, "body over max_decoded_bytes"));
    }
    let mut te_chunked = false;
    let mut content_encoding: Option<&str> = None;
    // Common Crawl keeps the original coding here once it has decoded the payload.
    let mut crawler_decoded = false;
    for (k, v) in headers {
        if k.eq_ignore_ascii_case("x-crawler-content-encoding") {
            crawler_decoded = true;
        } else if k.eq_ignore_ascii_case("transfer-encoding") {
            te_chunked |= v.to_ascii_lowercase().contains("chunked");
        } else if k.eq_ignore_ascii_case("content-encoding") {
            content_encoding = Some(v.as_str());
        }
    }
    let stored: Cow<'a, [u8]> = match te_chunked.then(|| http::dechunk(&body)).flatten() {
        Some(dechunked) => Cow::Owned(dechunked),
        None => body,
    };
    // `None`: the stored bytes are the page's (no coding, an identity coding, or a coding
    // that fails on what already is HTML).
    let decoded: Option<Vec<u8>> = match content_encoding {
        Some(ce) if !ce.trim().is_empty() => match http::decode_content(ce, &stored, cap) {
            Ok(Cow::Owned(d)) => Some(d),
            Ok(Cow::Borrowed(_)) => None,
            Err(_) if crawler_decoded || http::looks_like_html(&stored) => None,
            Err(http::Error::TooBig) => {
                return Err(err(
                    SkipReason::TooBig,
                    "decoded body over max_decoded_bytes",
                ));
            }
            Err(http::Error::Truncated(partial)) if http::looks_like_html(&partial) => {
                Some(partial)
            }
            Err(http::Error::Truncated(_)) => {
                return Err(err(SkipReason::DecodeError, "truncated stream, no HTML"));
            }
            Err(http::Error::Failed(e)) => return Err(err(SkipReason::DecodeError, &e)),
        },
        _ => None,
    };
    let bytes: Cow<'a, [u8]> = match decoded {
        Some(d) => Cow::Owned(d),
        None => stored,
    };
    if bytes.trim_ascii().is_empty() {
        return Err(err(SkipReason::Empty, "empty body"));
    }
    let media = content_type
        .map(|c| c.split(';').next().unwrap_or("").trim())
        .filter(|m| !m.is_empty());
    match media {
        Some(m)
            if !(m.eq_ignore_ascii_case("text/html")
                || m.eq_ignore_ascii_case("application/xhtml+xml")) =>
        {
            return Err(err(SkipReason::NotHtml, "content type is not HTML"));
        }
        Some(_) => {
            if http::is_binary(&bytes) {
                return Err(err(SkipReason::NotHtml, "binary content"));
            }
        }
        None => {
            if http::is_binary(&bytes) || !http::sniff_html(&bytes) {
                return Err(err(SkipReason::NotHtml, "sniffed: not HTML"));
            }
        }
    }
    Ok(decode_charset(
        bytes,
        content_type.and_then(charset_from_content_type),
    ))
}

fn err(reason: SkipReason, detail: &str) -> DecodeError {
    DecodeError {
        reason,
        detail: detail.to_string(),
    }
}

/// `charset=...` parameter of a Content-Type value.
pub fn charset_from_content_type(content_type: &str) -> Option<&str> {
    let lower = content_type.to_ascii_lowercase();
    let at = lower.find("charset=")?;
    let value = &content_type[at + 8..];
    let value = value.trim_start_matches(['"', '\'']);
    let end = value.find([';', '"', '\'', ' ']).unwrap_or(value.len());
    Some(&value[..end]).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const PAGE: &str = "<!DOCTYPE html><html><body><p>Grüße, welt</p></body></html>";

    fn h(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn chunk(data: &[u8], size: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for c in data.chunks(size) {
            out.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes());
            out.extend_from_slice(c);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n\r\n");
        out
    }

    fn ok(headers: &[(&str, &str)], ct: Option<&str>, body: &[u8]) -> DecodedPage {
        decode_body(&h(headers), ct, body, &DecodeOptions::default()).unwrap()
    }

    fn fail(headers: &[(&str, &str)], ct: Option<&str>, body: &[u8]) -> SkipReason {
        decode_body(&h(headers), ct, body, &DecodeOptions::default())
            .unwrap_err()
            .reason
    }

    #[test]
    fn chunked_then_gzip() {
        let body = chunk(&gzip(PAGE.as_bytes()), 7);
        let hd = [
            ("Transfer-Encoding", "chunked"),
            ("Content-Encoding", "gzip"),
        ];
        let d = ok(&hd, Some("text/html; charset=utf-8"), &body);
        assert_eq!(d.html, PAGE);
        assert_eq!(d.charset_source, CharsetSource::Utf8Valid);
    }

    #[test]
    fn chunked_header_but_not_chunked_is_raw() {
        let d = ok(
            &[("Transfer-Encoding", "chunked")],
            Some("text/html"),
            PAGE.as_bytes(),
        );
        assert_eq!(d.html, PAGE);
    }

    #[test]
    fn common_crawl_already_decoded_gzip() {
        let hd = [
            ("Content-Encoding", "gzip"),
            ("X-Crawler-Content-Encoding", "gzip"),
        ];
        let d = ok(&hd, Some("text/html"), PAGE.as_bytes());
        assert_eq!(d.html, PAGE);
        // Decoded text that does not start like HTML: the crawler header says it is decoded.
        let text = b"Just text, then <b>bold</b> and more.";
        assert_eq!(
            ok(&hd, Some("text/html"), text).html,
            "Just text, then <b>bold</b> and more."
        );
        assert_eq!(
            fail(&[("Content-Encoding", "gzip")], Some("text/html"), text),
            SkipReason::DecodeError
        );
        // Also for br (no magic to check): fails to decode, looks like HTML, used raw.
        assert_eq!(
            ok(
                &[("Content-Encoding", "br")],
                Some("text/html"),
                PAGE.as_bytes()
            )
            .html,
            PAGE
        );
    }

    #[test]
    fn corrupt_encoding_is_decode_error() {
        let mut gz = gzip(PAGE.as_bytes());
        let n = gz.len();
        gz[n / 2..].iter_mut().for_each(|b| *b ^= 0x5a);
        assert_eq!(
            fail(&[("Content-Encoding", "gzip")], Some("text/html"), &gz),
            SkipReason::DecodeError
        );
        assert_eq!(
            fail(
                &[("Content-Encoding", "br")],
                Some("text/html"),
                b"\x8b\x02\x80garbage\x00\x01"
            ),
            SkipReason::DecodeError
        );
    }

    #[test]
    fn truncated_gzip_keeps_the_decoded_part() {
        let page: String = std::iter::once("<html><body>".to_string())
            .chain((0..5000).map(|i| format!("<p>paragraph {i}</p>")))
            .collect();
        let gz = gzip(page.as_bytes());
        let d = ok(
            &[("Content-Encoding", "gzip")],
            Some("text/html"),
            &gz[..gz.len() / 2],
        );
        assert!(d.html.len() > 1000 && page.starts_with(&d.html));
    }

    #[test]
    fn bomb_is_too_big() {
        let big = vec![b' '; 4 << 20];
        let gz = gzip(&big);
        let opts = DecodeOptions {
            max_decoded_bytes: 1 << 20,
        };
        let e = decode_body(
            &h(&[("Content-Encoding", "gzip")]),
            Some("text/html"),
            &gz,
            &opts,
        )
        .unwrap_err();
        assert_eq!(e.reason, SkipReason::TooBig);
        let e = decode_body(&[], Some("text/html"), &big, &opts).unwrap_err();
        assert_eq!(e.reason, SkipReason::TooBig);
    }

    #[test]
    fn sniffing_and_types() {
        assert_eq!(
            ok(&[], None, b"  <html><p>x</p></html>").html,
            "  <html><p>x</p></html>"
        );
        assert_eq!(fail(&[], None, b"{\"a\": 1}"), SkipReason::NotHtml);
        assert_eq!(
            fail(&[], None, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00"),
            SkipReason::NotHtml
        );
        assert_eq!(fail(&[], Some("image/png"), b"<html>"), SkipReason::NotHtml);
        assert_eq!(
            fail(
                &[],
                Some("text/html"),
                b"\x00\x01\x02\x03\x04\x05\x06\x07\x08<html>"
            ),
            SkipReason::NotHtml
        );
        assert!(
            ok(&[], Some("application/xhtml+xml"), b"<html/>")
                .html
                .starts_with("<html")
        );
    }

    #[test]
    fn empty_bodies() {
        assert_eq!(fail(&[], Some("text/html"), b""), SkipReason::Empty);
        assert_eq!(fail(&[], Some("text/html"), b" \r\n "), SkipReason::Empty);
        let gz = gzip(b"");
        assert_eq!(
            fail(&[("Content-Encoding", "gzip")], Some("text/html"), &gz),
            SkipReason::Empty
        );
    }

    #[test]
    fn charset_from_header_value() {
        assert_eq!(
            charset_from_content_type("text/html; charset=\"GBK\""),
            Some("GBK")
        );
        assert_eq!(
            charset_from_content_type("text/html;Charset=utf-8;x=y"),
            Some("utf-8")
        );
        assert_eq!(charset_from_content_type("text/html"), None);
        assert_eq!(charset_from_content_type("text/html; charset="), None);
    }

    #[test]
    fn header_charset_reaches_decoder() {
        let (b, _, _) = encoding_rs::WINDOWS_1251.encode("<html><body>Привет</body></html>");
        let d = ok(&[], Some("text/html; charset=windows-1251"), &b);
        assert_eq!(
            (d.charset, d.charset_source),
            ("windows-1251", CharsetSource::HttpHeader)
        );
        assert_eq!(d.html, "<html><body>Привет</body></html>");
    }
}
