//! RFC 4648 base32 (section 6: the upper-case alphabet `A`–`Z`, `2`–`7`, padded with `=` to a
//! multiple of 8 characters), as WARC digests (`sha1:<base32>`) and ARC record ids
//! (`<urn:sha1:<base32>>`) write it.
//!
//! Invariant: the RFC's text, byte for byte; a SHA-1 (20 bytes, 160 bits) is exactly 32
//! characters with no padding.

/// `data` in RFC 4648 base32, upper case, padded.
pub fn encode(data: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::with_capacity(data.len().div_ceil(5) * 8);
    for chunk in data.chunks(5) {
        let mut buf = [0u8; 5];
        buf[..chunk.len()].copy_from_slice(chunk);
        let bits = buf.iter().fold(0u64, |acc, &x| (acc << 8) | x as u64);
        let symbols = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < symbols {
                out.push(ALPHABET[((bits >> (35 - 5 * i)) & 31) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_rfc4648_vectors() {
        // RFC 4648, section 10.
        for (input, want) in [
            ("", ""),
            ("f", "MY======"),
            ("fo", "MZXQ===="),
            ("foo", "MZXW6==="),
            ("foob", "MZXW6YQ="),
            ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI======"),
        ] {
            assert_eq!(encode(input.as_bytes()), want, "{input:?}");
        }
    }

    #[test]
    fn twenty_bytes_need_no_padding() {
        // The SHA-1 of the empty string, the digest WARC files carry for an empty block.
        let sha1_empty = [
            0xda, 0x39, 0xa3, 0xee, 0x5e, 0x6b, 0x4b, 0x0d, 0x32, 0x55, 0xbf, 0xef, 0x95, 0x60,
            0x18, 0x90, 0xaf, 0xd8, 0x07, 0x09,
        ];
        assert_eq!(encode(&sha1_empty), "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }
}
