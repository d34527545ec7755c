//! Decoder over committed charset fixtures (`testdata/decode/`) and, when `../shared` is
//! present, over the Chinese dev pages (undeclared GBK must not turn into mojibake).

use outward_warc::decode::{CharsetSource, DecodeOptions, decode_body, decode_charset};
use outward_warc::reader::{ReadItem, ReaderOptions, WarcReader};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        outward_testkit::repo_root()
            .join("testdata/decode")
            .join(name),
    )
    .unwrap()
}

#[test]
fn fixtures_pick_the_right_charset() {
    // (file, HTTP-declared charset, expected encoding, expected source, text that must appear)
    let cases: [(&str, Option<&str>, &str, CharsetSource, &str); 6] = [
        (
            "gbk_undeclared.html",
            None,
            "GBK",
            CharsetSource::Detected,
            "中华人民共和国",
        ),
        (
            "cp1252_labelled_utf8.html",
            Some("utf-8"),
            "windows-1252",
            CharsetSource::Detected,
            "l’été à Noël",
        ),
        (
            "utf8_labelled_latin1.html",
            Some("iso-8859-1"),
            "UTF-8",
            CharsetSource::Utf8Valid,
            "Grüße aus Köln",
        ),
        (
            "sjis_meta.html",
            None,
            "Shift_JIS",
            CharsetSource::Meta,
            "東京の桜",
        ),
        (
            "utf16le_bom.html",
            Some("iso-8859-1"),
            "UTF-16LE",
            CharsetSource::Bom,
            "Привет, мир",
        ),
        (
            "utf16le_bom.html",
            None,
            "UTF-16LE",
            CharsetSource::Bom,
            "тестовая",
        ),
    ];
    for (name, declared, charset, source, text) in cases {
        let d = decode_charset(fixture(name), declared);
        assert_eq!((d.charset, d.charset_source), (charset, source), "{name}");
        assert!(d.html.contains(text), "{name}: {}", d.html);
        assert!(!d.html.contains('\u{FFFD}'), "{name}");
    }
}

#[test]
fn decode_body_uses_http_charset() {
    let ct = "text/html; charset=\"Shift_JIS\"";
    let d = decode_body(
        &[],
        Some(ct),
        fixture("sjis_meta.html"),
        &DecodeOptions::default(),
    )
    .unwrap();
    assert_eq!(
        (d.charset, d.charset_source),
        ("Shift_JIS", CharsetSource::HttpHeader)
    );
    // Missing content type: the UTF-16 page is sniffed as HTML through its BOM.
    let d = decode_body(
        &[],
        None,
        fixture("utf16le_bom.html"),
        &DecodeOptions::default(),
    )
    .unwrap();
    assert!(d.html.starts_with("<html>"));
}

#[test]
fn chinese_dev_pages_decode_cleanly() {
    let Some(path) = outward_testkit::shared_data("data/dev/cwced_zh.warc.gz") else {
        return;
    };
    let (mut pages, mut gbk) = (0, 0);
    for item in WarcReader::open(&path, ReaderOptions::default()).unwrap() {
        let ReadItem::Page(p) = item else { continue };
        let d = decode_body(
            &p.http_headers,
            p.content_type.as_deref(),
            &p.body,
            &DecodeOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{:?}: {e:?}", p.target_uri));
        pages += 1;
        if d.charset == "GBK" || d.charset == "gb18030" {
            gbk += 1;
        }
        let cjk = d
            .html
            .chars()
            .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
            .count();
        let bad = d.html.matches('\u{FFFD}').count();
        assert!(
            cjk > 50,
            "{:?}: {} CJK chars ({})",
            p.target_uri,
            cjk,
            d.charset
        );
        assert!(bad * 100 <= cjk, "{:?}: {bad} U+FFFD", p.target_uri);
    }
    assert_eq!(pages, 38);
    assert!(gbk >= 20, "{gbk}");
}
