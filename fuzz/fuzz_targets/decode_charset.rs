//! The one charset routine on arbitrary bytes and declared labels. Input: `label, "\0",
//! bytes` (no NUL: no label). No panic, deterministic, the declared label only ever picks
//! among real encodings, and valid UTF-8 with non-ASCII stays itself (module docs: a valid
//! UTF-8 body is read as UTF-8 whatever the label says, unless a BOM says otherwise).
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_warc::decode::{CharsetSource, decode_charset};

fuzz_target!(|data: &[u8]| {
    let (declared, bytes) = match data.iter().position(|&b| b == 0) {
        Some(i) => (
            Some(String::from_utf8_lossy(&data[..i]).into_owned()),
            &data[i + 1..],
        ),
        None => (None, data),
    };
    let a = decode_charset(bytes, declared.as_deref());
    let b = decode_charset(bytes, declared.as_deref());
    assert_eq!(a.html, b.html, "decode_charset is not deterministic");
    assert_eq!((a.charset, a.charset_source), (b.charset, b.charset_source));
    assert!(!a.charset.is_empty());
    if a.charset_source == CharsetSource::Utf8Valid {
        assert_eq!(a.charset, "UTF-8");
        if std::str::from_utf8(bytes).is_ok() {
            assert_eq!(a.html.as_bytes(), bytes, "valid UTF-8 changed");
        }
    }
});
