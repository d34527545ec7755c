//! The one charset routine: bytes (+ the HTTP-declared label) → UTF-8 text, the encoding used
//! and how it was chosen.
//!
//! Order (measured on crawl data, see NOTES "Charset"):
//! 1. BOM (UTF-8, UTF-16LE/BE).
//! 2. Valid UTF-8 containing non-ASCII → UTF-8 whatever is declared (declarations lie: many
//!    pages say iso-8859-1 / gb2312 while being UTF-8). "Nearly valid" UTF-8 (≥ 8 multi-byte
//!    characters and at most 1 invalid sequence per 8 of them, a truncated tail ignored) counts
//!    too: a few stray windows-1252 bytes (in an injected `<meta>`, a comment) must not turn a
//!    whole UTF-8 page into mojibake. Measured on the dev WARCs: of 10 pages that declare UTF-8
//!    but are not strictly valid, 5 are UTF-8 with 1-4 stray bytes among 25-499 UTF-8
//!    characters (→ UTF-8, 1-4 U+FFFD), 5 are windows-1252 or mixed with ≤ 13 UTF-8 characters
//!    (→ detection, windows-1252).
//! 3. HTTP header charset; 4. `<meta>` prescan of the first 1024 bytes. A declared UTF-8 on
//!    bytes that are *not* UTF-8 (step 2 failed) is ignored and falls through to detection:
//!    windows-1252 pages mislabelled as UTF-8 would otherwise be full of U+FFFD.
//!    A `<meta>` UTF-16 means UTF-8 (as in browsers); an HTTP UTF-16 label is only honoured
//!    when the bytes look like UTF-16 (NULs in the first KiB).
//! 5. chardetng on a ≤ 16 KiB prefix (only when there are non-ASCII bytes).
//! 6. All-ASCII → UTF-8 (identical to windows-1252 on ASCII), source `Default`.
//!
//! Invariants: never fails or panics (encoding_rs replaces malformed input with U+FFFD);
//! UTF-8 is validated once over the whole body; an owned body of UTF-8 (or ASCII) becomes the
//! text without a copy; the detector only ever sees a prefix.

use super::{CharsetSource, DecodedPage};
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};
use std::borrow::Cow;

/// Prefix fed to chardetng (it runs at only ~10 MB/s).
const DETECT_PREFIX: usize = 16 << 10;
/// Bytes scanned for `<meta charset>`.
const META_PREFIX: usize = 1024;

fn page(html: String, enc: &'static Encoding, source: CharsetSource) -> DecodedPage {
    DecodedPage {
        html,
        charset: enc.name(),
        charset_source: source,
    }
}

fn decode_with(bytes: &[u8], enc: &'static Encoding, source: CharsetSource) -> DecodedPage {
    let (text, _had_errors) = enc.decode_without_bom_handling(bytes);
    page(text.into_owned(), enc, source)
}

/// Counts (multi-byte chars, invalid sequences) for bytes that failed strict validation.
/// An incomplete sequence at the very end (a cut body) is not counted as invalid.
fn utf8_quality(bytes: &[u8]) -> (usize, usize) {
    let mut multi = 0usize;
    let mut bad = 0usize;
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                multi += count_leads(s.as_bytes());
                break;
            }
            Err(e) => {
                let (good, tail) = rest.split_at(e.valid_up_to());
                multi += count_leads(good);
                match e.error_len() {
                    None => break,
                    Some(n) => {
                        bad += 1;
                        rest = &tail[n..];
                    }
                }
            }
        }
    }
    (multi, bad)
}

fn count_leads(b: &[u8]) -> usize {
    b.iter().filter(|&&c| c >= 0xC0).count()
}

fn is_utf8(enc: &'static Encoding) -> bool {
    enc == UTF_8
}

fn is_utf16(enc: &'static Encoding) -> bool {
    enc == UTF_16LE || enc == UTF_16BE
}

/// Text that is all ASCII, decoded as `enc`: the same characters for every ASCII-compatible
/// encoding (no copy), else decoded.
fn decode_ascii(text: String, enc: &'static Encoding, source: CharsetSource) -> DecodedPage {
    if enc.is_ascii_compatible() {
        page(text, enc, source)
    } else {
        decode_with(text.as_bytes(), enc, source)
    }
}

/// The bytes as text when they are valid UTF-8 (moved, not copied, when they are owned), or
/// the bytes back with where they stop being valid.
fn utf8_text(bytes: Cow<'_, [u8]>) -> Result<String, (Cow<'_, [u8]>, usize)> {
    match bytes {
        Cow::Owned(v) => String::from_utf8(v).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            (Cow::Owned(e.into_bytes()), valid)
        }),
        Cow::Borrowed(b) => match std::str::from_utf8(b) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => Err((Cow::Borrowed(b), e.valid_up_to())),
        },
    }
}

/// The one charset routine (see module docs). An owned `Vec<u8>` of UTF-8 (or ASCII) becomes
/// the page's text without a copy; borrowed bytes are copied once.
pub fn decode_charset<'a>(bytes: impl Into<Cow<'a, [u8]>>, declared: Option<&str>) -> DecodedPage {
    let bytes: Cow<'a, [u8]> = bytes.into();
    // 1. BOM.
    if let Some((enc, bom_len)) = Encoding::for_bom(&bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        return page(text.into_owned(), enc, CharsetSource::Bom);
    }
    // 2. Valid UTF-8 with non-ASCII (one SIMD-fast validation of the whole body).
    let bytes = match utf8_text(bytes) {
        Ok(text) if !text.is_ascii() => return page(text, UTF_8, CharsetSource::Utf8Valid),
        Ok(ascii) => return decode_all_ascii(ascii, declared),
        Err((bytes, valid_up_to)) => {
            let (multi, bad) = utf8_quality(&bytes[valid_up_to..]);
            let multi = multi + count_leads(&bytes[..valid_up_to]);
            if multi >= 8 && bad * 8 <= multi {
                return decode_with(&bytes, UTF_8, CharsetSource::Utf8Valid);
            }
            bytes
        }
    };
    // 3. HTTP header; 4. <meta> prescan (a declared UTF-8 is not: step 2 failed).
    if let Some(enc) = http_encoding(declared, &bytes, false) {
        return decode_with(&bytes, enc, CharsetSource::HttpHeader);
    }
    if let Some(enc) = meta_encoding(&bytes).filter(|&enc| !is_utf8(enc)) {
        return decode_with(&bytes, enc, CharsetSource::Meta);
    }
    // 5. Detection on a prefix.
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    let prefix = &bytes[..bytes.len().min(DETECT_PREFIX)];
    det.feed(prefix, prefix.len() == bytes.len());
    let enc = det.guess(None, chardetng::Utf8Detection::Deny);
    decode_with(&bytes, enc, CharsetSource::Detected)
}

/// Step 3: the encoding the HTTP header declares, when it can be believed for these bytes:
/// UTF-8 only on all-ASCII bytes (others are not UTF-8, or step 2 had taken them), UTF-16
/// only on bytes that look like it.
fn http_encoding(
    declared: Option<&str>,
    bytes: &[u8],
    all_ascii: bool,
) -> Option<&'static Encoding> {
    let enc = Encoding::for_label(declared?.trim().as_bytes())?;
    let usable = if is_utf8(enc) {
        all_ascii
    } else if is_utf16(enc) {
        looks_utf16(bytes)
    } else {
        true
    };
    usable.then_some(enc)
}

/// Step 4: the encoding a `<meta>` in the first bytes declares, as browsers take it (UTF-16
/// means UTF-8, x-user-defined windows-1252).
fn meta_encoding(bytes: &[u8]) -> Option<&'static Encoding> {
    let enc = meta_prescan(&bytes[..bytes.len().min(META_PREFIX)])?;
    Some(if is_utf16(enc) {
        UTF_8
    } else if enc == encoding_rs::X_USER_DEFINED {
        WINDOWS_1252
    } else {
        enc
    })
}

/// Steps 3, 4 and 6 for bytes that are all ASCII (step 5 needs non-ASCII bytes).
fn decode_all_ascii(text: String, declared: Option<&str>) -> DecodedPage {
    // 3. HTTP header; 4. <meta> prescan.
    if let Some(enc) = http_encoding(declared, text.as_bytes(), true) {
        return decode_ascii(text, enc, CharsetSource::HttpHeader);
    }
    if let Some(enc) = meta_encoding(text.as_bytes()) {
        return decode_ascii(text, enc, CharsetSource::Meta);
    }
    // 6. All ASCII.
    page(text, UTF_8, CharsetSource::Default)
}

/// UTF-16 without BOM: many NULs in the first KiB (ASCII markup has a NUL every other byte).
fn looks_utf16(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    head.iter().filter(|&&b| b == 0).count() * 4 > head.len()
}

/// A small version of the WHATWG "prescan a byte stream to determine its encoding": finds
/// `<meta charset=X>` or `<meta http-equiv=content-type content="...charset=X">` in `head`,
/// skipping comments. Returns the first recognised label's encoding.
pub fn meta_prescan(head: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0usize;
    while i < head.len() {
        let rest = &head[i..];
        if rest.starts_with(b"<!--") {
            i += match memchr::memmem::find(&rest[4..], b"-->") {
                Some(p) => 4 + p + 3,
                None => return None,
            };
            continue;
        }
        if rest.len() > 5 && rest[..5].eq_ignore_ascii_case(b"<meta") && is_space_or_slash(rest[5])
        {
            let (enc, consumed) = parse_meta(&rest[5..]);
            if enc.is_some() {
                return enc;
            }
            i += 5 + consumed;
            continue;
        }
        i += match memchr::memchr(b'<', &rest[1..]) {
            Some(p) => p + 1,
            None => return None,
        };
    }
    None
}

fn is_space_or_slash(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/')
}

/// Parses the attributes of one `<meta ...>`; returns its encoding (if any) and bytes used.
fn parse_meta(s: &[u8]) -> (Option<&'static Encoding>, usize) {
    let mut pos = 0usize;
    let mut http_equiv_ct = false;
    let mut charset: Option<&'static Encoding> = None;
    let mut content_charset: Option<&'static Encoding> = None;
    loop {
        // Skip whitespace and slashes.
        while pos < s.len() && is_space_or_slash(s[pos]) {
            pos += 1;
        }
        if pos >= s.len() || s[pos] == b'>' {
            break;
        }
        let name_start = pos;
        while pos < s.len() && !matches!(s[pos], b'=' | b'>') && !is_space_or_slash(s[pos]) {
            pos += 1;
        }
        let name = &s[name_start..pos];
        while pos < s.len() && s[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let mut value: &[u8] = b"";
        if pos < s.len() && s[pos] == b'=' {
            pos += 1;
            while pos < s.len() && s[pos].is_ascii_whitespace() {
                pos += 1;
            }
            if pos < s.len() && matches!(s[pos], b'"' | b'\'') {
                let q = s[pos];
                pos += 1;
                let start = pos;
                while pos < s.len() && s[pos] != q {
                    pos += 1;
                }
                value = &s[start..pos];
                pos = (pos + 1).min(s.len());
            } else {
                let start = pos;
                while pos < s.len() && !s[pos].is_ascii_whitespace() && s[pos] != b'>' {
                    pos += 1;
                }
                // Lenient: `charset=gbk/>` means gbk.
                value = &s[start..pos];
                while let [rest @ .., b'/'] = value {
                    value = rest;
                }
            }
        }
        if name.eq_ignore_ascii_case(b"charset") {
            if charset.is_none() {
                charset = Encoding::for_label(value.trim_ascii());
            }
        } else if name.eq_ignore_ascii_case(b"http-equiv") {
            http_equiv_ct |= value.trim_ascii().eq_ignore_ascii_case(b"content-type");
        } else if name.eq_ignore_ascii_case(b"content") && content_charset.is_none() {
            content_charset = charset_in_content(value);
        }
    }
    let enc = charset.or(if http_equiv_ct { content_charset } else { None });
    (enc, pos)
}

/// `text/html; charset=X` → encoding of X.
fn charset_in_content(value: &[u8]) -> Option<&'static Encoding> {
    let lower: Vec<u8> = value.to_ascii_lowercase();
    let at = memchr::memmem::find(&lower, b"charset")?;
    let mut rest = value[at + 7..].trim_ascii_start();
    rest = rest.strip_prefix(b"=")?.trim_ascii_start();
    let rest = rest
        .strip_prefix(b"\"")
        .or_else(|| rest.strip_prefix(b"'"))
        .unwrap_or(rest);
    let end = rest
        .iter()
        .position(|&b| matches!(b, b';' | b'"' | b'\'') || b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    Encoding::for_label(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{BIG5, GB18030, GBK, SHIFT_JIS, WINDOWS_1251};

    fn enc(text: &str, e: &'static Encoding) -> Vec<u8> {
        let (b, _, unmappable) = e.encode(text);
        assert!(!unmappable, "test text not representable in {}", e.name());
        b.into_owned()
    }

    /// The pipeline hands its body over: UTF-8 and ASCII pages (most of a crawl) become their
    /// text in place, whatever label an ASCII-compatible declaration gives them.
    #[test]
    fn an_owned_utf8_or_ascii_body_becomes_the_text_without_a_copy() {
        for (body, declared, source) in [
            (
                "<p>Grüße, welt</p>",
                Some("iso-8859-1"),
                CharsetSource::Utf8Valid,
            ),
            (
                "<p>plain words</p>",
                Some("iso-8859-1"),
                CharsetSource::HttpHeader,
            ),
            ("<p>plain words</p>", None, CharsetSource::Default),
        ] {
            let bytes = body.as_bytes().to_vec();
            let at = bytes.as_ptr();
            let d = decode_charset(bytes, declared);
            assert_eq!((d.html.as_str(), d.charset_source), (body, source));
            assert_eq!(d.html.as_ptr(), at, "{body} was copied");
        }
        // Borrowed bytes give the same page.
        let d = decode_charset("<p>Grüße, welt</p>".as_bytes(), None);
        assert_eq!(d.html, "<p>Grüße, welt</p>");
    }

    const ZH: &str = "<html><head><title>新闻</title></head><body><p>中华人民共和国成立以来，经济发展取得了巨大的成就。\
        我们要继续努力，建设社会主义现代化国家。今天天气很好，我们去公园散步吧。这个问题需要认真研究和讨论。</p></body></html>";

    #[test]
    fn gbk_without_declaration_is_detected() {
        let bytes = enc(ZH, GBK);
        let d = decode_charset(&bytes, None);
        assert_eq!(d.charset_source, CharsetSource::Detected);
        assert!(
            d.charset == "GBK" || d.charset == "gb18030",
            "{}",
            d.charset
        );
        assert_eq!(d.html, ZH);
    }

    #[test]
    fn gb18030_declared_in_http() {
        let bytes = enc(ZH, GB18030);
        let d = decode_charset(&bytes, Some("gb18030"));
        assert_eq!(
            (d.charset, d.charset_source),
            ("gb18030", CharsetSource::HttpHeader)
        );
        assert_eq!(d.html, ZH);
    }

    #[test]
    fn big5_and_shift_jis_detected() {
        let tw = "<html><body><p>這是一個關於臺灣歷史與文化的網頁，我們將介紹許多有趣的故事和傳統節日。\
            歡迎大家一起來學習，認識這塊土地上的人們與他們的生活方式。</p></body></html>";
        let d = decode_charset(enc(tw, BIG5), None);
        assert_eq!(
            (d.charset, d.charset_source),
            ("Big5", CharsetSource::Detected)
        );
        assert_eq!(d.html, tw);
        let ja = "<html><body><p>これは日本語のウェブページです。今日はとても良い天気ですね。\
            東京の桜は本当に美しいと思います。皆さん、ぜひ遊びに来てください。</p></body></html>";
        let d = decode_charset(enc(ja, SHIFT_JIS), None);
        assert_eq!(
            (d.charset, d.charset_source),
            ("Shift_JIS", CharsetSource::Detected)
        );
        assert_eq!(d.html, ja);
    }

    #[test]
    fn windows_1252_mislabelled_as_utf8_falls_to_detection() {
        let fr = "<html><head><meta charset=\"utf-8\"></head><body><p>Café crème, déjà vu — \
            l’été à Noël, où êtes-vous? Ça coûte 5 €.</p></body></html>";
        let bytes = enc(fr, WINDOWS_1252);
        for declared in [Some("utf-8"), None] {
            let d = decode_charset(&bytes, declared);
            assert_eq!(d.charset_source, CharsetSource::Detected);
            assert_eq!(d.charset, "windows-1252");
            assert_eq!(d.html, fr);
            assert!(!d.html.contains('\u{FFFD}'));
        }
    }

    #[test]
    fn utf8_declared_iso_8859_1_stays_utf8() {
        let text = "<html><head><meta charset=iso-8859-1></head><body>Grüße aus Köln – naïve café</body></html>";
        let d = decode_charset(text.as_bytes(), Some("iso-8859-1"));
        assert_eq!(
            (d.charset, d.charset_source),
            ("UTF-8", CharsetSource::Utf8Valid)
        );
        assert_eq!(d.html, text);
        // GB2312-declared Chinese page that is really UTF-8.
        let d = decode_charset(ZH.as_bytes(), Some("gb2312"));
        assert_eq!(
            (d.charset, d.charset_source),
            ("UTF-8", CharsetSource::Utf8Valid)
        );
        assert_eq!(d.html, ZH);
    }

    #[test]
    fn nearly_valid_utf8_stays_utf8() {
        let mut bytes = ZH.as_bytes().to_vec();
        bytes.extend_from_slice(b"<!-- caf\xE9 -->"); // one stray latin-1 byte
        let d = decode_charset(&bytes, Some("utf-8"));
        assert_eq!(
            (d.charset, d.charset_source),
            ("UTF-8", CharsetSource::Utf8Valid)
        );
        assert!(d.html.starts_with(ZH));
        assert_eq!(d.html.matches('\u{FFFD}').count(), 1);
        // A body cut inside a multi-byte character is still UTF-8.
        let cut = &ZH.as_bytes()[..ZH.find("我们").unwrap() + 1];
        let d = decode_charset(cut, None);
        assert_eq!(d.charset_source, CharsetSource::Utf8Valid);
    }

    #[test]
    fn bom_utf16_and_utf8() {
        let text = "<html><body>Привет, мир</body></html>";
        let mut le = vec![0xFF, 0xFE];
        for u in text.encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode_charset(&le, Some("iso-8859-1"));
        assert_eq!(
            (d.charset, d.charset_source),
            ("UTF-16LE", CharsetSource::Bom)
        );
        assert_eq!(d.html, text);
        let mut be = vec![0xFE, 0xFF];
        for u in text.encode_utf16() {
            be.extend_from_slice(&u.to_be_bytes());
        }
        let d = decode_charset(&be, None);
        assert_eq!(
            (d.charset, d.charset_source),
            ("UTF-16BE", CharsetSource::Bom)
        );
        assert_eq!(d.html, text);
        let mut u8b = b"\xEF\xBB\xBF".to_vec();
        u8b.extend_from_slice(text.as_bytes());
        let d = decode_charset(&u8b, Some("windows-1251"));
        assert_eq!((d.charset, d.charset_source), ("UTF-8", CharsetSource::Bom));
        assert_eq!(d.html, text);
    }

    #[test]
    fn http_header_then_meta() {
        let ru = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">\
            </head><body>Привет, мир</body></html>";
        let bytes = enc(ru, WINDOWS_1251);
        let d = decode_charset(&bytes, None);
        assert_eq!(
            (d.charset, d.charset_source),
            ("windows-1251", CharsetSource::Meta)
        );
        assert_eq!(d.html, ru);
        // The HTTP header wins over <meta>.
        let d = decode_charset(&bytes, Some("koi8-r"));
        assert_eq!(
            (d.charset, d.charset_source),
            ("KOI8-R", CharsetSource::HttpHeader)
        );
        // Unknown HTTP label is ignored.
        let d = decode_charset(&bytes, Some("x-bogus"));
        assert_eq!(d.charset_source, CharsetSource::Meta);
    }

    #[test]
    fn meta_prescan_forms() {
        assert_eq!(
            meta_prescan(b"<meta charset=\"Shift_JIS\">"),
            Some(SHIFT_JIS)
        );
        assert_eq!(meta_prescan(b"<META CHARSET=gbk/>"), Some(GBK));
        assert_eq!(
            meta_prescan(b"<meta content='text/html; charset=big5' http-equiv='content-type'>"),
            Some(BIG5)
        );
        // content charset without http-equiv does not count
        assert_eq!(
            meta_prescan(b"<meta content=\"text/html; charset=big5\">"),
            None
        );
        // inside a comment
        assert_eq!(meta_prescan(b"<!-- <meta charset=gbk> --><p>"), None);
        assert_eq!(meta_prescan(b"<metadata charset=gbk>"), None);
        assert_eq!(
            meta_prescan(b"<meta name=x><meta charset=koi8-r>"),
            Some(encoding_rs::KOI8_R)
        );
    }

    #[test]
    fn meta_utf16_means_utf8_and_ascii_default() {
        let d = decode_charset(b"<meta charset=utf-16><p>plain</p>", None);
        assert_eq!(
            (d.charset, d.charset_source),
            ("UTF-8", CharsetSource::Meta)
        );
        let d = decode_charset(b"<p>plain ascii</p>", None);
        assert_eq!(
            (d.charset, d.charset_source),
            ("UTF-8", CharsetSource::Default)
        );
        assert_eq!(d.html, "<p>plain ascii</p>");
        // HTTP UTF-16 on ASCII bytes is not honoured.
        let d = decode_charset(b"<p>plain ascii</p>", Some("utf-16"));
        assert_eq!(d.charset_source, CharsetSource::Default);
    }
}
