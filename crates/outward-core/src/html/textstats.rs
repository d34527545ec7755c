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

/// Measure `text` (raw bytes from the cleaned buffer).
pub fn measure(text: &[u8]) -> TextMeasure {
    let mut m = TextMeasure::default();
    let mut i = 0;
    let n = text.len();
    while i < n {
        let b = text[i];
        if b < 0x80 {
            if b.is_ascii_alphanumeric() {
                m.weight += 1;
                m.chars += 1;
            } else if b == b'&' {
                // A character reference counts as one character; skip its name.
                let mut j = i + 1;
                while j < n && j - i <= 10 && (text[j].is_ascii_alphanumeric() || text[j] == b'#') {
                    j += 1;
                }
                if j < n && text[j] == b';' && j > i + 1 {
                    m.chars += 1;
                    i = j + 1;
                    continue;
                }
                m.chars += 1;
            } else if b.is_ascii_whitespace() {
                // Whitespace: not a character of the text proper.
            } else {
                m.chars += 1;
                if matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?')
                    && (i + 1 == n || text[i + 1].is_ascii_whitespace())
                {
                    m.punct += 1;
                }
            }
            i += 1;
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
}
