//! Byte codings of test data: HTTP body codings ([`gzip`], [`deflate`], [`brotli`],
//! [`zstd_frame`], [`chunked`]), legacy charsets ([`encode_as`]), and the WARC digests
//! ([`payload_digest`], base32 from `outward_base`).

use outward_base::base32;
use std::io::Write;

/// One gzip member (mtime 0, so deterministic).
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).expect("writing to a Vec");
    enc.finish().expect("writing to a Vec")
}

/// zlib-wrapped deflate, as HTTP `Content-Encoding: deflate` means.
pub fn deflate(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).expect("writing to a Vec");
    enc.finish().expect("writing to a Vec")
}

/// Brotli (quality 5, window 22).
pub fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(data).expect("writing to a Vec");
        w.flush().expect("writing to a Vec");
    }
    out
}

/// One zstd frame (level 3).
pub fn zstd_frame(data: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(data, 3).expect("compressing into memory")
}

/// HTTP/1.1 chunked transfer coding with chunks of `chunk` bytes (plus the last, empty chunk).
pub fn chunked(data: &[u8], chunk: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / chunk.max(1) * 8 + 16);
    for piece in data.chunks(chunk.max(1)) {
        out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

/// `text` encoded in the charset named by `label` (a WHATWG label: "gbk", "shift_jis",
/// "big5", "windows-1252", ...). Panics on an unknown label or unmappable characters: test
/// data must be exactly what its author meant.
pub fn encode_as(text: &str, label: &str) -> Vec<u8> {
    let enc = encoding_rs::Encoding::for_label(label.as_bytes())
        .unwrap_or_else(|| panic!("unknown charset label {label}"));
    let (bytes, used, unmappable) = enc.encode(text);
    assert_eq!(used, enc, "{label} cannot be an output encoding");
    assert!(!unmappable, "text has characters {label} cannot encode");
    bytes.into_owned()
}

/// `sha256:<base32>` digest of a payload.
pub fn payload_digest(data: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("sha256:{}", base32::encode(&Sha256::digest(data)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn body_codings_roundtrip() {
        let data = b"<html><body><p>Hello, world. Hello, world.</p></body></html>".repeat(50);
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(&deflate(&data)[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, data);
        out.clear();
        brotli::Decompressor::new(&brotli(&data)[..], 4096)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, data);
        assert_eq!(
            zstd::stream::decode_all(&zstd_frame(&data)[..]).unwrap(),
            data
        );
        assert_eq!(
            chunked(b"abcde", 2),
            b"2\r\nab\r\n2\r\ncd\r\n1\r\ne\r\n0\r\n\r\n"
        );
        assert_eq!(encode_as("中文", "gbk"), vec![0xd6, 0xd0, 0xce, 0xc4]);
    }
}
