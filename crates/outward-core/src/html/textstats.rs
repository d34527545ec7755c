//! CJK-aware text measures over raw (entity-encoded) text bytes, used to rank text runs and
//! to score blocks. Chinese, Japanese and Korean characters count individually (weight 3,
//! about one word of Latin text); other letters and digits weigh 1 each; character
//! references count as one character. Nothing here splits CJK text by spaces.
//!
//! Invariants: linear in the input, no allocation, total on any bytes (invalid UTF-8 counts
//! as nothing).

/// Measures of one text run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextMeasure {
    /// CJK-aware length: CJK characters x3 + other letters and digits.
    pub weight: u32,
    /// Characters (not bytes), the paper's length.
    pub chars: u32,
    /// Sentence punctuation marks (`.,;:!?` and their CJK forms).
    pub punct: u32,
}

/// Weight of one CJK character relative to one Latin letter.
pub const CJK_WEIGHT: u32 = 3;

/// Sentence marks in `bytes`: ASCII `.`, `!`, `?`, `,`, `;` and their CJK forms
/// `。、！，；？` (the confidence's punctuation and the skim's marks; [`measure`]'s `punct`
/// also counts `:`). Branch-free byte counters the compiler vectorises; the CJK marks are
/// looked for only when one of their lead bytes (`E3`, `EF`) occurs.
pub fn sentence_marks(bytes: &[u8]) -> usize {
    let (mut marks, mut leads) = (0usize, 0usize);
    for chunk in bytes.chunks(255) {
        // Byte counters, widened once per chunk (a chunk cannot overflow them).
        let (mut m, mut l) = (0u8, 0u8);
        for &b in chunk {
            m += u8::from(b == b'.')
                + u8::from(b == b',')
                + u8::from(b == b'!')
                + u8::from(b == b'?')
                + u8::from(b == b';');
            l += u8::from(b == 0xE3) + u8::from(b == 0xEF);
        }
        marks += usize::from(m);
        leads += usize::from(l);
    }
    if leads > 0 {
        marks += cjk_sentence_marks(bytes);
    }
    marks
}

/// The CJK sentence marks `。、！，；？` in `bytes` (UTF-8: `E3 80 82/81`, `EF BC
/// 81/8C/9B/9F`), found at their lead bytes by `memchr`.
fn cjk_sentence_marks(bytes: &[u8]) -> usize {
    memchr::memchr2_iter(0xE3, 0xEF, bytes)
        .filter(|&i| {
            matches!(
                (bytes[i], bytes.get(i + 1..i + 3)),
                (0xE3, Some([0x80, 0x81 | 0x82])) | (0xEF, Some([0xBC, 0x81 | 0x8C | 0x9B | 0x9F]))
            )
        })
        .count()
}

fn is_cjk(c: u32) -> bool {
    (0x3040..=0x30FF).contains(&c)
        || (0x3400..=0x4DBF).contains(&c)
        || (0x4E00..=0x9FFF).contains(&c)
        || (0xAC00..=0xD7AF).contains(&c)
        || (0xF900..=0xFAFF).contains(&c)
        || (0x20000..=0x2FFFF).contains(&c)
}

fn is_cjk_punct(c: u32) -> bool {
    matches!(
        c,
        0x3001 | 0x3002 | 0xFF0C | 0xFF1B | 0xFF1A | 0xFF01 | 0xFF1F | 0xFF0E
    )
}

/// Classes of ASCII bytes for [`measure`] (bits).
const ALNUM: u8 = 1;
/// Counts as a character (everything but whitespace).
const CHAR: u8 = 2;
/// Sentence punctuation, counted when whitespace or the end follows.
const PUNCT: u8 = 4;
/// ASCII whitespace.
const SPACE: u8 = 8;
/// Needs the slow path: `&` (a character reference) or a non-ASCII byte.
const SLOW: u8 = 16;

static ASCII_CLASS: [u8; 256] = {
    let mut t = [SLOW; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_alphanumeric() {
            ALNUM | CHAR
        } else if c.is_ascii_whitespace() {
            SPACE
        } else if c == b'&' {
            SLOW
        } else if matches!(c, b'.' | b',' | b';' | b':' | b'!' | b'?') {
            CHAR | PUNCT
        } else {
            CHAR
        };
        b += 1;
    }
    t
};

/// One in the low bit of every byte.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The number of bytes of `word` whose low bit is set: the low bits masked are each 0 or 1,
/// so multiplying by [`ONES`] sums them into the top byte without a carry.
#[inline]
fn bit_sum(word: u64) -> u32 {
    ((word & ONES).wrapping_mul(ONES) >> 56) as u32
}

/// Measure `text` (raw bytes from the cleaned buffer).
pub fn measure(text: &[u8]) -> TextMeasure {
    let mut m = TextMeasure::default();
    let mut i = 0;
    let n = text.len();
    while i < n {
        // Eight plain ASCII bytes at a time (the ninth only says whether whitespace follows
        // the eighth), without a branch per byte: their classes packed one per byte of a
        // word, each measure a sum of one class bit over the eight bytes.
        if let Some(window) = text.get(i..i + 9) {
            let mut classes = 0u64;
            for (k, &b) in window[..8].iter().enumerate() {
                classes |= u64::from(ASCII_CLASS[b as usize]) << (8 * k);
            }
            if classes & (ONES * u64::from(SLOW)) == 0 {
                let next = (classes >> 8) | (u64::from(ASCII_CLASS[window[8] as usize]) << 56);
                m.weight += bit_sum(classes);
                m.chars += bit_sum(classes >> 1);
                m.punct += bit_sum((classes >> 2) & (next >> 3));
                i += 8;
                continue;
            }
        }
        let b = text[i];
        let class = ASCII_CLASS[b as usize];
        if class & SLOW == 0 {
            m.weight += u32::from(class & ALNUM);
            m.chars += u32::from((class & CHAR) >> 1);
            if class & PUNCT != 0 && (i + 1 == n || ASCII_CLASS[text[i + 1] as usize] & SPACE != 0)
            {
                m.punct += 1;
            }
            i += 1;
            continue;
        }
        if b == b'&' {
            // A character reference counts as one character; skip its name.
            let mut j = i + 1;
            while j < n && j - i <= 10 && (text[j].is_ascii_alphanumeric() || text[j] == b'#') {
                j += 1;
            }
            m.chars += 1;
            i = if j < n && text[j] == b';' && j > i + 1 {
                j + 1
            } else {
                i + 1
            };
            continue;
        }
        // Multi-byte UTF-8: decode the code point from the lead byte.
        let (len, init) = match b {
            0xC0..=0xDF => (2, (b & 0x1F) as u32),
            0xE0..=0xEF => (3, (b & 0x0F) as u32),
            0xF0..=0xF7 => (4, (b & 0x07) as u32),
            _ => {
                i += 1;
                continue;
            }
        };
        if i + len > n {
            break;
        }
        let mut c = init;
        for k in 1..len {
            c = (c << 6) | (text[i + k] & 0x3F) as u32;
        }
        i += len;
        m.chars += 1;
        if is_cjk(c) {
            m.weight += CJK_WEIGHT;
        } else if is_cjk_punct(c) {
            m.punct += 1;
        } else if c == 0xA0 || (0x2000..=0x200B).contains(&c) || c == 0x3000 {
            m.chars -= 1;
        } else {
            m.weight += 1;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_words_and_punct() {
        let m = measure(b"Hello, world. a.b");
        assert_eq!(m.weight, 12);
        assert_eq!(m.punct, 2);
        assert_eq!(m.chars, 15);
    }

    #[test]
    fn cjk_counts_per_char() {
        let m = measure("中文新闻，今天。".as_bytes());
        assert_eq!(m.weight, 6 * CJK_WEIGHT);
        assert_eq!(m.punct, 2);
        assert_eq!(m.chars, 8);
    }

    #[test]
    fn entity_is_one_char() {
        let m = measure(b"a&amp;b&nbsp;");
        assert_eq!(m.chars, 4);
        assert_eq!(m.weight, 2);
    }

    #[test]
    fn junk_is_total() {
        let m = measure(&[0xFF, 0xE4, 0xB8]);
        assert_eq!(m.weight, 0);
    }

    /// The byte-at-a-time definition, the reference for the eight-byte fast path.
    fn reference_measure(text: &[u8]) -> TextMeasure {
        let mut m = TextMeasure::default();
        let mut i = 0;
        while i < text.len() {
            let b = text[i];
            if b >= 0x80 || b == b'&' {
                // Same slow path as `measure`: measure the rest from here one step at a time.
                let step = measure_one(text, i, &mut m);
                i += step;
                continue;
            }
            if b.is_ascii_alphanumeric() {
                m.weight += 1;
                m.chars += 1;
            } else if !b.is_ascii_whitespace() {
                m.chars += 1;
                if matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?')
                    && (i + 1 == text.len() || text[i + 1].is_ascii_whitespace())
                {
                    m.punct += 1;
                }
            }
            i += 1;
        }
        m
    }

    /// One `&` reference or one non-ASCII character at `i`, measured by `measure` on that
    /// piece alone; returns its length.
    fn measure_one(text: &[u8], i: usize, m: &mut TextMeasure) -> usize {
        let len = if text[i] == b'&' {
            let mut j = i + 1;
            while j < text.len()
                && j - i <= 10
                && (text[j].is_ascii_alphanumeric() || text[j] == b'#')
            {
                j += 1;
            }
            if j < text.len() && text[j] == b';' && j > i + 1 {
                j + 1 - i
            } else {
                1
            }
        } else {
            match text[i] {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                _ => 1,
            }
            .min(text.len() - i)
        };
        let piece = measure(&text[i..i + len]);
        m.weight += piece.weight;
        m.chars += piece.chars;
        m.punct += piece.punct;
        len
    }

    #[test]
    fn eight_byte_path_matches_the_byte_path() {
        let pieces: [&[u8]; 12] = [
            b"word",
            b" ",
            b".",
            b", ",
            b"?",
            b"&amp;",
            b"&x",
            "中文".as_bytes(),
            "\u{a0}".as_bytes(),
            b"\n\t",
            b"12345678",
            b"!;:",
        ];
        // Every sequence of up to four pieces, so punctuation and references fall on every
        // side of an eight-byte boundary.
        let mut checked = 0;
        for code in 0..pieces.len().pow(4) {
            let mut text = Vec::new();
            let mut c = code;
            for _ in 0..4 {
                text.extend_from_slice(pieces[c % pieces.len()]);
                c /= pieces.len();
            }
            for cut in [text.len(), text.len().saturating_sub(1), 9, 8] {
                let t = &text[..cut.min(text.len())];
                assert_eq!(
                    measure(t),
                    reference_measure(t),
                    "{:?}",
                    String::from_utf8_lossy(t)
                );
                checked += 1;
            }
        }
        assert!(checked > 80_000);
    }
}
