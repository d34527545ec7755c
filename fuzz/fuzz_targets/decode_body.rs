//! HTTP body decoding (`decode_body`) with arbitrary headers, codings and bodies.
//!
//! Input: `flags byte, header lines ("name: value\n"), "\n", body`. A header named
//! `content-type` is also the content type. With flag 0x80 the body is plain and this target
//! encodes it itself (gzip / deflate-zlib / deflate-raw / br / zstd layers, then chunked with a
//! chunk size from the flags) and sets the headers: decoding must then give exactly what the
//! plain body gives. Without it the headers and body are used as they come (corrupt streams,
//! bogus chunk sizes, unknown codings). Both: no panic, same input → same result, the
//! decoded size cap holds.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_warc::decode::{DecodeOptions, decode_body};

const CAP: usize = 1 << 16;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let split = rest
        .windows(2)
        .position(|w| w == b"\n\n")
        .unwrap_or(rest.len());
    let head = String::from_utf8_lossy(&rest[..split]);
    let body = rest.get(split + 2..).unwrap_or(&[]);
    let mut headers: Vec<(String, String)> = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let content_type = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        .map(|(_, v)| v.clone());
    let options = DecodeOptions {
        max_decoded_bytes: CAP,
    };
    let result = decode_body(&headers, content_type.as_deref(), body, &options);
    let again = decode_body(&headers, content_type.as_deref(), body, &options);
    let key = |r: &Result<outward_warc::decode::DecodedPage, outward_warc::decode::DecodeError>| {
        format!("{r:?}")
    };
    assert_eq!(
        key(&result),
        key(&again),
        "decode_body is not deterministic"
    );
    if let Ok(page) = &result {
        // Charset decoding can grow bytes (one byte → up to 3 UTF-8 bytes, U+FFFD).
        assert!(
            page.html.len() <= 3 * CAP + 3,
            "decoded {} bytes",
            page.html.len()
        );
    }

    if flags & 0x80 == 0 || body.len() > CAP / 2 {
        return;
    }
    // Generate mode: encode `body` ourselves; the result must equal the plain body's.
    headers.retain(|(k, _)| {
        !k.eq_ignore_ascii_case("content-encoding")
            && !k.eq_ignore_ascii_case("transfer-encoding")
            && !k.eq_ignore_ascii_case("x-crawler-content-encoding")
    });
    let plain = decode_body(&headers, content_type.as_deref(), body, &options);
    let mut encoded = body.to_vec();
    let mut codings = Vec::new();
    for (bit, name) in [(1, "gzip"), (2, "deflate"), (4, "br"), (8, "zstd")] {
        if flags & bit != 0 {
            encoded = match name {
                "gzip" => outward_fuzz::gzip(&encoded),
                "deflate" if flags & 0x20 != 0 => outward_fuzz::raw_deflate(&encoded),
                "deflate" => outward_fuzz::zlib(&encoded),
                "br" => outward_fuzz::brotli(&encoded),
                _ => outward_fuzz::zstd(&encoded),
            };
            codings.push(name);
        }
    }
    if !codings.is_empty() {
        headers.push(("Content-Encoding".into(), codings.join(", ")));
    }
    if flags & 0x10 != 0 {
        let size = 1 + (flags as usize & 0x40) * 2 + (encoded.len() % 7);
        let mut chunked = Vec::new();
        for chunk in encoded.chunks(size) {
            chunked.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
            chunked.extend_from_slice(chunk);
            chunked.extend_from_slice(b"\r\n");
        }
        chunked.extend_from_slice(b"0\r\n\r\n");
        encoded = chunked;
        headers.push(("Transfer-Encoding".into(), "chunked".into()));
    }
    let decoded = decode_body(&headers, content_type.as_deref(), &encoded, &options);
    if encoded.len() > CAP {
        return;
    }
    match (&plain, &decoded) {
        (Ok(a), Ok(b)) => assert_eq!(a.html, b.html, "encoded body decodes differently"),
        (Err(a), Err(b)) => assert_eq!(a.reason, b.reason, "{a:?} vs {b:?}"),
        (a, b) => panic!("plain {a:?} but encoded {b:?} ({codings:?})"),
    }
});
