//! HTTP body decoding: Transfer-Encoding `chunked`, Content-Encoding gzip/x-gzip, deflate
//! (zlib or raw), br, zstd; HTML sniffing and binary-junk detection.
//!
//! Invariants: never panics; every decompression is capped at the caller's byte limit
//! (`Error::TooBig` beyond it, so a bomb never allocates more than the cap + one buffer);
//! a body that is not actually encoded as declared is handed back raw when it already looks
//! like HTML (Common Crawl stores decoded payloads but keeps `Content-Encoding: gzip`).

use std::borrow::Cow;
use std::io::Read;

/// Why a body could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Decoded size exceeds the cap.
    TooBig,
    /// The named encoding failed (corrupt stream or unknown coding).
    Failed(String),
    /// The stream broke off after producing some output (a body cut at a crawler's size limit);
    /// the bytes decoded up to the break.
    Truncated(Vec<u8>),
}

/// Undoes `Transfer-Encoding: chunked`. Tolerant: chunk extensions (`;name=value`), LF-only
/// line ends, a missing final `0` chunk or a truncated last chunk (the bytes present are kept).
/// Returns `None` when the body does not start with a valid chunk-size line, i.e. it is not
/// chunked at all (the caller then keeps it raw).
pub fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut pos = 0usize;
    let mut first = true;
    while pos < body.len() {
        let line_end = match memchr::memchr(b'\n', &body[pos..]) {
            Some(i) => pos + i,
            None if first => return None,
            None => break,
        };
        let line = &body[pos..line_end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let size_part = match memchr::memchr(b';', line) {
            Some(i) => &line[..i],
            None => line,
        };
        let size_part = size_part.trim_ascii();
        let size = parse_hex(size_part);
        let Some(size) = size else {
            if first {
                return None;
            }
            // A bad size line mid-body: keep what was decoded so far.
            break;
        };
        first = false;
        pos = line_end + 1;
        if size == 0 {
            break;
        }
        let end = pos.saturating_add(size).min(body.len());
        out.extend_from_slice(&body[pos..end]);
        pos = end;
        // Chunk data is followed by CRLF (or LF).
        if body[pos..].starts_with(b"\r\n") {
            pos += 2;
        } else if body[pos..].starts_with(b"\n") {
            pos += 1;
        }
    }
    Some(out)
}

fn parse_hex(s: &[u8]) -> Option<usize> {
    if s.is_empty() || s.len() > 15 {
        return None;
    }
    let mut v = 0usize;
    for &b in s {
        let d = (b as char).to_digit(16)?;
        v = v * 16 + d as usize;
    }
    Some(v)
}

/// Reads `r` to the end, failing with `TooBig` past `cap` bytes.
fn read_capped(
    mut r: impl Read,
    cap: usize,
    what: &str,
    size_hint: usize,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(size_hint.min(cap).saturating_add(1));
    let n = match (&mut r).take(cap as u64 + 1).read_to_end(&mut out) {
        Ok(n) => n,
        Err(_) if !out.is_empty() && out.len() <= cap => return Err(Error::Truncated(out)),
        Err(e) => return Err(Error::Failed(format!("{what}: {e}"))),
    };
    if n > cap {
        return Err(Error::TooBig);
    }
    Ok(out)
}

/// Decodes one Content-Encoding token. `identity`/empty return the input unchanged.
pub fn decode_one<'a>(
    coding: &str,
    body: Cow<'a, [u8]>,
    cap: usize,
) -> Result<Cow<'a, [u8]>, Error> {
    let hint = body.len().saturating_mul(4);
    let coding = coding.trim();
    let out = if coding.eq_ignore_ascii_case("gzip") || coding.eq_ignore_ascii_case("x-gzip") {
        if !body.starts_with(&[0x1f, 0x8b]) {
            return Err(Error::Failed("gzip: no gzip magic".into()));
        }
        read_capped(
            flate2::read::MultiGzDecoder::new(&body[..]),
            cap,
            "gzip",
            hint,
        )?
    } else if coding.eq_ignore_ascii_case("deflate") {
        // RFC says zlib; many servers send raw deflate. zlib header: CMF=0x?8, FCHECK valid.
        let zlib = body.len() >= 2
            && body[0] & 0x0f == 8
            && (u16::from(body[0]) << 8 | u16::from(body[1])) % 31 == 0;
        if zlib {
            match read_capped(
                flate2::read::ZlibDecoder::new(&body[..]),
                cap,
                "deflate",
                hint,
            ) {
                Ok(v) => v,
                Err(Error::TooBig) => return Err(Error::TooBig),
                Err(Error::Truncated(p)) => return Err(Error::Truncated(p)),
                Err(Error::Failed(_)) => read_capped(
                    flate2::read::DeflateDecoder::new(&body[..]),
                    cap,
                    "deflate",
                    hint,
                )?,
            }
        } else {
            read_capped(
                flate2::read::DeflateDecoder::new(&body[..]),
                cap,
                "deflate",
                hint,
            )?
        }
    } else if coding.eq_ignore_ascii_case("br") {
        read_capped(brotli::Decompressor::new(&body[..], 4096), cap, "br", hint)?
    } else if coding.eq_ignore_ascii_case("zstd") {
        let dec = zstd::stream::read::Decoder::new(&body[..])
            .map_err(|e| Error::Failed(format!("zstd: {e}")))?;
        read_capped(dec, cap, "zstd", hint)?
    } else if coding.is_empty()
        || coding.eq_ignore_ascii_case("identity")
        || coding.eq_ignore_ascii_case("none")
    {
        return Ok(body);
    } else {
        return Err(Error::Failed(format!("unknown coding {coding}")));
    };
    Ok(Cow::Owned(out))
}

/// Undoes a Content-Encoding header value (`gzip`, `gzip, br`, ...: applied last-first).
pub fn decode_content<'a>(
    encodings: &str,
    body: &'a [u8],
    cap: usize,
) -> Result<Cow<'a, [u8]>, Error> {
    let mut cur = Cow::Borrowed(body);
    let codings: Vec<&str> = encodings.rsplit(',').collect();
    let last = codings.len() - 1;
    for (i, coding) in codings.into_iter().enumerate() {
        cur = match decode_one(coding, cur, cap) {
            Ok(c) => c,
            // A partial result is only meaningful from the outermost (last applied) coding.
            Err(Error::Truncated(_)) if i != last => {
                return Err(Error::Failed(format!("{coding}: truncated stream")));
            }
            Err(e) => return Err(e),
        };
    }
    Ok(cur)
}

const SNIFF_TAGS: &[&[u8]] = &[
    b"<!doctype html",
    b"<html",
    b"<head",
    b"<script",
    b"<iframe",
    b"<h1",
    b"<div",
    b"<font",
    b"<table",
    b"<a",
    b"<style",
    b"<title",
    b"<b",
    b"<body",
    b"<br",
    b"<p",
    b"<!--",
    b"<meta",
    b"<link",
    b"<span",
    b"<center",
    b"<form",
    b"<ul",
    b"<img",
    b"<section",
    b"<header",
    b"<nav",
];

/// Skips a UTF-8 BOM and leading whitespace.
fn content_start(body: &[u8]) -> &[u8] {
    let b = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let ws = b
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'))
        .count();
    &b[ws..]
}

fn starts_with_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.len() >= needle.len() && hay[..needle.len()].eq_ignore_ascii_case(needle)
}

/// WHATWG-style HTML sniff: after BOM/whitespace the body starts with an HTML tag (followed by
/// space or `>`), or an `<?xml` prolog followed by `<html` in the first KiB; UTF-16 BOMs count.
pub fn sniff_html(body: &[u8]) -> bool {
    if body.starts_with(b"\xFF\xFE") || body.starts_with(b"\xFE\xFF") {
        return true;
    }
    let s = content_start(body);
    for tag in SNIFF_TAGS {
        if starts_with_ci(s, tag) {
            if *tag == b"<!--" {
                return true;
            }
            match s.get(tag.len()) {
                None | Some(b' ' | b'>' | b'\t' | b'\n' | b'\r' | b'/') => return true,
                _ => {}
            }
        }
    }
    if starts_with_ci(s, b"<?xml") {
        let head = &s[..s.len().min(1024)];
        return contains_ci(head, b"<html") || contains_ci(head, b"<!doctype html");
    }
    false
}

/// Case-insensitive substring test on ASCII needles (short haystacks only).
pub fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// Looks like HTML although the headers said otherwise (used to keep an undecodable body raw).
pub fn looks_like_html(body: &[u8]) -> bool {
    if is_binary(body) {
        return false;
    }
    if sniff_html(body) {
        return true;
    }
    let head = &body[..body.len().min(1024)];
    contains_ci(head, b"<html") || contains_ci(head, b"<!doctype") || contains_ci(head, b"<body")
}

/// Binary junk: in the first KiB, more than 1 in 16 bytes is NUL or a C0 control other than
/// TAB/LF/FF/CR/ESC (ESC is used by ISO-2022-JP). UTF-16 with BOM is not junk.
pub fn is_binary(body: &[u8]) -> bool {
    if body.starts_with(b"\xFF\xFE") || body.starts_with(b"\xFE\xFF") {
        return false;
    }
    let head = &body[..body.len().min(1024)];
    let bad = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | 0x1b))
        .count();
    bad * 16 > head.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const PAGE: &[u8] = b"<!doctype html><html><body><p>Hello chunks and codings</p></body></html>";

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn dechunk_plain_extensions_and_lf() {
        let body = b"5\r\n<html\r\n3;name=val\r\n><p\r\n0\r\nTrailer: x\r\n\r\n";
        assert_eq!(dechunk(body).unwrap(), b"<html><p");
        let lf = b"4\n<htm\nA\nl><p>hi</p\n0\n\n";
        // 0xA = 10 bytes: "l><p>hi</p" is 10 bytes.
        assert_eq!(dechunk(lf).unwrap(), b"<html><p>hi</p");
        let upper = b"1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n";
        assert_eq!(dechunk(upper).unwrap(), b"abcdefghijklmnopqrstuvwxyz");
    }

    #[test]
    fn dechunk_rejects_unchunked_and_keeps_partial() {
        assert_eq!(dechunk(b"<html><body>not chunked</body></html>"), None);
        assert_eq!(dechunk(b"zz\r\nabc\r\n"), None);
        // Truncated last chunk: keep the bytes present.
        assert_eq!(dechunk(b"5\r\nabcde\r\n10\r\nxyz").unwrap(), b"abcdexyz");
        // Bad size line mid-body: keep what came before.
        assert_eq!(dechunk(b"3\r\nabc\r\nqq\r\nzzz").unwrap(), b"abc");
        // Missing final 0 chunk.
        assert_eq!(dechunk(b"3\r\nabc\r\n").unwrap(), b"abc");
    }

    #[test]
    fn gzip_and_x_gzip_and_stacked() {
        let gz = gzip(PAGE);
        assert_eq!(decode_content("gzip", &gz, 1 << 20).unwrap().as_ref(), PAGE);
        assert_eq!(
            decode_content("X-GZIP", &gz, 1 << 20).unwrap().as_ref(),
            PAGE
        );
        let twice = gzip(&gz);
        assert_eq!(
            decode_content("gzip, gzip", &twice, 1 << 20)
                .unwrap()
                .as_ref(),
            PAGE
        );
        assert_eq!(
            decode_content("identity", PAGE, 1 << 20).unwrap().as_ref(),
            PAGE
        );
        // No gzip magic (Common Crawl: already decoded) is an error here; decode_body keeps raw.
        assert!(matches!(
            decode_content("gzip", PAGE, 1 << 20),
            Err(Error::Failed(_))
        ));
        assert!(matches!(
            decode_content("compress", PAGE, 1 << 20),
            Err(Error::Failed(_))
        ));
    }

    #[test]
    fn truncated_gzip_gives_partial_output() {
        let big: Vec<u8> = (0..20_000u32)
            .flat_map(|i| format!("<p>line {i}</p>").into_bytes())
            .collect();
        let gz = gzip(&big);
        match decode_content("gzip", &gz[..gz.len() / 2], 1 << 24) {
            Err(Error::Truncated(p)) => {
                assert!(p.len() > 1000 && big.starts_with(&p), "{}", p.len());
            }
            other => panic!("{:?}", other.map(|c| c.len())),
        }
        // Cut inside the gzip header: nothing decoded, a plain failure.
        assert!(matches!(
            decode_content("gzip", &gz[..5], 1 << 24),
            Err(Error::Failed(_))
        ));
    }

    #[test]
    fn deflate_zlib_and_raw() {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(PAGE).unwrap();
        let zlib = z.finish().unwrap();
        let mut r = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        r.write_all(PAGE).unwrap();
        let raw = r.finish().unwrap();
        assert_eq!(
            decode_content("deflate", &zlib, 1 << 20).unwrap().as_ref(),
            PAGE
        );
        assert_eq!(
            decode_content("deflate", &raw, 1 << 20).unwrap().as_ref(),
            PAGE
        );
    }

    #[test]
    fn brotli_and_zstd() {
        let mut br = Vec::new();
        {
            let mut w = brotli::CompressorWriter::new(&mut br, 4096, 5, 22);
            w.write_all(PAGE).unwrap();
        }
        assert_eq!(decode_content("br", &br, 1 << 20).unwrap().as_ref(), PAGE);
        let zs = zstd::encode_all(PAGE, 3).unwrap();
        assert_eq!(decode_content("zstd", &zs, 1 << 20).unwrap().as_ref(), PAGE);
        assert!(matches!(
            decode_content("br", b"\xff\xff\xff garbage", 1 << 20),
            Err(Error::Failed(_))
        ));
        assert!(matches!(
            decode_content("zstd", b"not zstd", 1 << 20),
            Err(Error::Failed(_))
        ));
    }

    #[test]
    fn bomb_is_capped() {
        let zeros = vec![b'a'; 8 << 20];
        let gz = gzip(&zeros);
        assert!(gz.len() < 100_000);
        assert_eq!(decode_content("gzip", &gz, 1 << 20), Err(Error::TooBig));
        assert_eq!(decode_content("gzip", &gz, 8 << 20).unwrap().len(), 8 << 20);
        let zs = zstd::encode_all(&zeros[..], 3).unwrap();
        assert_eq!(decode_content("zstd", &zs, 1 << 20), Err(Error::TooBig));
        let mut br = Vec::new();
        {
            let mut w = brotli::CompressorWriter::new(&mut br, 4096, 5, 22);
            w.write_all(&zeros).unwrap();
        }
        assert_eq!(decode_content("br", &br, 1 << 20), Err(Error::TooBig));
    }

    #[test]
    fn sniffing() {
        assert!(sniff_html(b"\xEF\xBB\xBF  \n<!DOCTYPE HTML PUBLIC>"));
        assert!(sniff_html(b"<html lang=en>"));
        assert!(sniff_html(b"\r\n<HEAD>"));
        assert!(sniff_html(b"<p>x"));
        assert!(sniff_html(b"<div class=a>"));
        assert!(sniff_html(b"<!-- c --><html>"));
        assert!(sniff_html(
            b"<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\">"
        ));
        assert!(!sniff_html(b"<?xml version=\"1.0\"?><rss>"));
        assert!(!sniff_html(b"<pre>")); // `<p` must be followed by space or `>`
        assert!(!sniff_html(b"{\"json\": true}"));
        assert!(!sniff_html(b"%PDF-1.4"));
        assert!(!sniff_html(b""));
    }

    #[test]
    fn binary_detection() {
        assert!(is_binary(
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06"
        ));
        assert!(!is_binary(PAGE));
        assert!(!is_binary(b"\xFF\xFE<\x00h\x00t\x00m\x00l\x00>\x00"));
        assert!(!is_binary(b"\x1b$B8=\x1b(B <html>"));
    }
}
