//! Byte search tuned for markup, where the byte looked for is usually near: the next `<`
//! after the whitespace between two tags, the closing quote of a short attribute value.
//! `memchr` pays a fixed set-up cost per call that dominates at such distances; the first
//! 32 bytes are searched eight at a time in a general-purpose register instead, and only a
//! longer haystack goes to `memchr`.
//!
//! Invariants: same results as `memchr::memchr` / `memrchr` / `memchr2(b'<', b'>')` on any
//! input; no `unsafe`.

/// One in each byte: `ONES * b` repeats byte `b` over a word.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
const LOWS: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The high bit of each byte of `word` that equals the byte repeated in `pattern` (exact:
/// no carry crosses a byte).
#[inline]
pub(crate) fn equal_bytes(word: u64, pattern: u64) -> u64 {
    let x = word ^ pattern;
    !(((x & LOWS) + LOWS) | x | LOWS)
}

/// Bytes searched without `memchr` before handing over to it.
const NEAR: usize = 32;

/// The index of the first `needle` in `haystack`.
#[inline]
pub fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    let pattern = ONES * u64::from(needle);
    find_near(
        haystack,
        |word| equal_bytes(word, pattern),
        |b| b == needle,
        |far| memchr::memchr(needle, far),
    )
}

/// The index of the first `<` or `>` in `haystack` (as `memchr::memchr2(b'<', b'>', ..)`).
#[inline]
pub fn find_angle(haystack: &[u8]) -> Option<usize> {
    // `<` (0x3c) and `>` (0x3e) differ only in bit 1, and no other byte has that bit set
    // to 0x3e: one comparison finds both.
    find_near(
        haystack,
        |word| equal_bytes(word | (ONES * 2), ONES * u64::from(b'>')),
        |b| b == b'<' || b == b'>',
        |far| memchr::memchr2(b'<', b'>', far),
    )
}

/// The first index whose byte `is_match` accepts: the first [`NEAR`] bytes through `in_word`
/// (the high bit of each matching byte of an 8-byte word), the rest through `far`.
#[inline]
fn find_near(
    haystack: &[u8],
    in_word: impl Fn(u64) -> u64,
    is_match: impl Fn(u8) -> bool,
    far: impl Fn(&[u8]) -> Option<usize>,
) -> Option<usize> {
    let mut at = 0;
    while at < NEAR {
        let Some(word) = haystack.get(at..at + 8) else {
            return haystack
                .get(at..)?
                .iter()
                .position(|&b| is_match(b))
                .map(|k| at + k);
        };
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let found = in_word(word);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    far(&haystack[at..]).map(|k| at + k)
}

/// The index of the last `needle` in `haystack`.
#[inline]
pub fn rfind_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    let pattern = ONES * u64::from(needle);
    let mut end = haystack.len();
    while haystack.len() - end < NEAR {
        let Some(start) = end.checked_sub(8) else {
            return haystack[..end].iter().rposition(|&b| b == needle);
        };
        let word = u64::from_le_bytes(haystack[start..end].try_into().expect("eight bytes"));
        let found = equal_bytes(word, pattern);
        if found != 0 {
            return Some(start + 7 - (found.leading_zeros() / 8) as usize);
        }
        end = start;
    }
    memchr::memrchr(needle, &haystack[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_memchr_at_every_distance_and_length() {
        for len in 0..80 {
            for at in 0..=len {
                let mut hay = vec![b'a'; len];
                // Bytes one above and below the needle, and 0x80 (borrow traps), around it.
                for (k, b) in hay.iter_mut().enumerate() {
                    *b = [b'a', b'=', b'?', 0x80, 0xff, 0][k % 6];
                }
                if at < len {
                    hay[at] = b'>';
                }
                assert_eq!(
                    find_byte(b'>', &hay),
                    memchr::memchr(b'>', &hay),
                    "{len} {at}"
                );
                assert_eq!(
                    rfind_byte(b'>', &hay),
                    memchr::memrchr(b'>', &hay),
                    "{len} {at}"
                );
                // A second needle beside the first: each direction finds its own.
                if at + 3 < len {
                    hay[at + 3] = b'>';
                    assert_eq!(find_byte(b'>', &hay), memchr::memchr(b'>', &hay));
                    assert_eq!(rfind_byte(b'>', &hay), memchr::memrchr(b'>', &hay));
                }
            }
        }
        for len in 0..80 {
            for at in 0..=len {
                for angle in [b'<', b'>'] {
                    // Every byte but the two, then one of them at `at`.
                    let mut hay: Vec<u8> = (0..len)
                        .map(|k| [b'=', b'?', b':', b';', 0xbc, 0xbe, 0x7c, 0x3d][k % 8])
                        .collect();
                    if at < len {
                        hay[at] = angle;
                    }
                    assert_eq!(
                        find_angle(&hay),
                        memchr::memchr2(b'<', b'>', &hay),
                        "{len} {at}"
                    );
                }
            }
        }
        let all: Vec<u8> = (0..=255u8).collect();
        assert_eq!(find_angle(&all), Some(usize::from(b'<')));
        assert_eq!(find_angle(&all[0x3d..]), Some(1));
        for needle in [0u8, 1, 0x7f, 0x80, 0xff] {
            let hay: Vec<u8> = (0..=255u8).rev().collect();
            assert_eq!(find_byte(needle, &hay), memchr::memchr(needle, &hay));
            assert_eq!(rfind_byte(needle, &hay), memchr::memrchr(needle, &hay));
        }
    }
}
