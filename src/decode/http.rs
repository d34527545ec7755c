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
    let n = (&mut r)
        .take(cap as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| Error::Failed(format!("{what}: {e}")))?;
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
                Err(_) => read_capped(
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
    for coding in encodings.rsplit(',') {
        cur = decode_one(coding, cur, cap)?;
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
