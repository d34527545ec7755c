//! Python's `str` methods that DataTrove's filters call, with Python's Unicode definitions
//! (they differ from Rust's `char::is_alphabetic` and `char::is_whitespace` at the edges:
//! combining vowel signs are alphabetic in Rust and not `isalpha` in Python; the information
//! separators U+001C..U+001F are `isspace` in Python only), and the one `re.split` they
//! split lines and paragraphs with (`split_line_feed_runs`).

use super::tables;
use outward_base::ranges::in_ranges;

/// Python's `str.isalpha` for one character.
#[inline]
pub fn is_alpha(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    in_ranges(tables::PY_ALPHA, c as u32)
}

/// Python's `str.isspace` for one character.
#[inline]
pub fn is_space(c: char) -> bool {
    if c.is_ascii() {
        return is_ascii_space(c as u8);
    }
    in_ranges(tables::PY_SPACE, c as u32)
}

/// Python's `str.isspace` for an ASCII byte (false for any other byte).
#[inline]
pub const fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1c..=0x1f)
}

/// Python's `\d` in a `str` pattern (any Unicode decimal digit).
#[inline]
pub fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(tables::PY_DECIMAL, c as u32)
}

/// A printable ASCII byte other than the space: no white space or line break of Python's
/// starts with one (`skip_plain` steps over them).
#[inline]
pub const fn is_plain(b: u8) -> bool {
    matches!(b, 0x21..0x80)
}

/// The first index from `i` on whose byte is below `0x21` or not ASCII, or `bytes.len()`:
/// every white space and line break of Python's starts with such a byte, so a scan for them
/// steps over the bytes before it, eight at a time.
#[inline]
pub fn skip_plain(bytes: &[u8], i: usize) -> usize {
    skip_ascii_from::<0x21>(bytes, i)
}

/// The first index from `i` on whose byte is below `0x1f` or not ASCII, or `bytes.len()`:
/// every line break of Python's starts with such a byte (spaces do not stop it).
#[inline]
fn skip_to_control(bytes: &[u8], i: usize) -> usize {
    skip_ascii_from::<0x1f>(bytes, i)
}

/// The first index from `i` on whose byte is below `LOW` (at most `0x80`) or not ASCII, or
/// `bytes.len()`, eight bytes at a time.
#[inline]
fn skip_ascii_from<const LOW: u8>(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    while let Some(eight) = bytes.get(i..i + 8) {
        let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        // The high bit of each byte that is not ASCII, and of each below LOW (a borrow can
        // set it in a byte above one that is, never below: the lowest set bit is exact).
        let flagged = (x | (x.wrapping_sub(ONES * LOW as u64) & !x)) & HIGH;
        if flagged != 0 {
            return i + (flagged.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && (LOW..0x80).contains(&bytes[i]) {
        i += 1;
    }
    i
}

/// Whether the line feed is the only one of Python's line breaks in `bytes` (UTF-8): none of
/// `\r`, `\v`, `\f`, U+001C..U+001E, U+0085 (`C2 85`), U+2028 and U+2029 (`E2 80 A8`,
/// `E2 80 A9`). The last bytes of the three end other characters too ("é" is `C3 A9`): each
/// found is read with the bytes before it.
fn breaks_only_at_line_feeds(bytes: &[u8]) -> bool {
    if memchr::memchr3(b'\r', 0x0b, 0x0c, bytes).is_some()
        || memchr::memchr3(0x1c, 0x1d, 0x1e, bytes).is_some()
    {
        return false;
    }
    !memchr::memchr3_iter(0x85, 0xa8, 0xa9, bytes).any(|i| match bytes[i] {
        0x85 => i >= 1 && bytes[i - 1] == 0xc2,
        _ => i >= 2 && bytes[i - 2..i] == [0xe2, 0x80],
    })
}

fn is_line_break(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '\n' | '\r' | '\x0b' | '\x0c' | '\x1c'..='\x1e');
    }
    in_ranges(tables::PY_LINE_BREAK, c as u32)
}

/// Python's `str.strip()`.
pub fn strip(s: &str) -> &str {
    // Most lines begin and end with a plain ASCII character: nothing to strip, no decoding.
    match s.as_bytes() {
        [first, .., last] if is_plain(*first) && is_plain(*last) => s,
        _ => s.trim_matches(is_space),
    }
}

/// Python's `str.lstrip()`.
pub fn lstrip(s: &str) -> &str {
    s.trim_start_matches(is_space)
}

/// Python's `str.rstrip()`.
pub fn rstrip(s: &str) -> &str {
    s.trim_end_matches(is_space)
}

/// Python's `len`: code points.
pub fn len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Python's `str.splitlines()` (no ends kept): breaks at `\n`, `\r`, `\r\n`, `\v`, `\f`,
/// U+001C..U+001E, U+0085, U+2028 and U+2029; no empty last line after a final break.
///
/// A text whose only breaks are line feeds (almost every text) is split at them by `memchr`;
/// another is read byte by byte, and only a byte that begins a line break's UTF-8 is decoded.
pub fn splitlines(s: &str) -> Vec<&str> {
    if breaks_only_at_line_feeds(s.as_bytes()) {
        // Room for lines of 64 bytes (dev texts average about 170): grown from nothing, the
        // list was copied a dozen times in a long text.
        let mut lines = Vec::with_capacity(s.len() / 64 + 1);
        let mut start = 0;
        for i in memchr::memchr_iter(b'\n', s.as_bytes()) {
            lines.push(&s[start..i]);
            start = i + 1;
        }
        if start < s.len() {
            lines.push(&s[start..]);
        }
        return lines;
    }
    const MAY_BREAK: [bool; 256] = {
        let mut table = [false; 256];
        let mut r = 0;
        while r < tables::PY_LINE_BREAK.len() {
            let (mut c, last) = tables::PY_LINE_BREAK[r];
            while c <= last {
                let lead = match c {
                    0..0x80 => c,
                    0x80..0x800 => 0xc0 | c >> 6,
                    0x800..0x10000 => 0xe0 | c >> 12,
                    _ => 0xf0 | c >> 18,
                };
                table[lead as usize] = true;
                c += 1;
            }
            r += 1;
        }
        table
    };
    let bytes = s.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        i = skip_to_control(bytes, i);
        if i == bytes.len() {
            break;
        }
        // A lead or ASCII byte, so `i` is on a character boundary.
        if !MAY_BREAK[bytes[i] as usize] {
            i += 1;
            continue;
        }
        let c = s[i..].chars().next().expect("i is on a char boundary");
        if !is_line_break(c) {
            i += 1;
            continue;
        }
        lines.push(&s[start..i]);
        i += c.len_utf8();
        if c == '\r' && bytes.get(i) == Some(&b'\n') {
            i += 1;
        }
        start = i;
    }
    if start < s.len() {
        lines.push(&s[start..]);
    }
    lines
}

/// `re.split(r"\n{min,}", text)`: the pieces between runs of at least `min` line feeds.
pub fn split_line_feed_runs(text: &str, min: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    // Room for the pieces of most texts at once (growing from nothing, the list was copied
    // five or six times for a page's paragraphs).
    let mut pieces = Vec::with_capacity(64);
    let mut start = 0;
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'\n', &bytes[at..]) {
        let i = at + found;
        let run = bytes[i..].iter().take_while(|&&b| b == b'\n').count();
        if run >= min {
            pieces.push(&text[start..i]);
            start = i + run;
        }
        at = i + run;
    }
    pieces.push(&text[start..]);
    pieces
}

/// Python's `str.split()` with no argument: runs of whitespace separate, none empty.
pub fn split_whitespace(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_space).filter(|w| !w.is_empty())
}

/// Python's `str.lower()` (full Unicode lower-casing, as Rust's `to_lowercase`).
pub fn lower(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.to_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitlines_follows_python() {
        assert_eq!(splitlines("a\nb\r\nc\rd"), ["a", "b", "c", "d"]);
        assert_eq!(splitlines("a\n\nb\n"), ["a", "", "b"]);
        assert_eq!(splitlines("a\u{2028}b\u{85}c\x0cd"), ["a", "b", "c", "d"]);
        assert!(splitlines("").is_empty());
        assert_eq!(splitlines("\n"), [""]);
        // The lead bytes of U+0085 and U+2028 begin other characters too.
        assert_eq!(splitlines("é\u{2026}\u{2029}x\r"), ["é\u{2026}", "x"]);
        assert_eq!(splitlines("a\u{1c}b\u{1f}c"), ["a", "b\u{1f}c"]);
        // Every character, against the decoding definition.
        let all: String = (0..=0x10ffffu32).filter_map(char::from_u32).collect();
        let by_chars: Vec<&str> = all.split(is_line_break).collect();
        assert_eq!(splitlines(&all), by_chars);
    }

    /// Texts of line feeds only take the `memchr` path, and any other break the byte by byte
    /// one: both give Python's lines, at the start, middle and end of a text whose other
    /// characters end in the bytes that end U+0085, U+2028 and U+2029.
    #[test]
    fn splitlines_at_line_feeds_only_is_python_too() {
        // No "\r\n" is made below: each break is one character, so Python's lines are the
        // pieces between them, but for the empty one after a final break.
        fn python(s: &str) -> Vec<&str> {
            let mut lines: Vec<&str> = s.split(is_line_break).collect();
            if s.ends_with(is_line_break) {
                lines.pop();
            }
            lines
        }
        let plain = "caf\u{e9} \u{a9} \u{2026}\u{85}x\n\u{2019}a\u{2028}\n\nend \u{e9}";
        let breaks = [
            "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\u{85}", "\u{2028}", "\u{2029}",
        ];
        // `plain` holds U+0085 and U+2028: its lines by the slow path are Python's.
        assert!(!breaks_only_at_line_feeds(plain.as_bytes()));
        let only_feeds = plain.replace(['\u{85}', '\u{2028}'], "");
        assert!(breaks_only_at_line_feeds(only_feeds.as_bytes()));
        assert!(breaks_only_at_line_feeds(
            "\u{e9}\u{a9}\u{2026}\u{80a8}".as_bytes()
        ));
        for base in [plain, only_feeds.as_str()] {
            for brk in breaks {
                for at in [0, 5, base.len()] {
                    let at = (at..=base.len())
                        .find(|&i| base.is_char_boundary(i))
                        .unwrap();
                    let text = format!("{}{brk}{}", &base[..at], &base[at..]);
                    let want = python(&text);
                    assert_eq!(
                        breaks_only_at_line_feeds(text.as_bytes()),
                        !text.contains(|c| c != '\n' && is_line_break(c)),
                        "{text:?}"
                    );
                    assert_eq!(splitlines(&text), want, "{text:?}");
                }
            }
        }
        assert_eq!(splitlines("a\n\nb\n\n"), ["a", "", "b", ""]);
    }

    /// `skip_plain` and `skip_to_control` stop where a byte loop stops, at every offset of
    /// every 8-byte window position: each byte value, alone among plain bytes and after
    /// another flagged byte.
    #[test]
    fn skip_plain_stops_at_the_first_flagged_byte() {
        check_skip(0x21, skip_plain);
        check_skip(0x1f, skip_to_control);
    }

    fn check_skip(low: u8, skip: fn(&[u8], usize) -> usize) {
        let plain = |b: u8| (low..0x80).contains(&b);
        for value in 0..=255u8 {
            for at in 0..20 {
                for earlier in [None, Some(0x20u8), Some(0x00), Some(0xff)] {
                    let mut bytes = vec![b'a'; 24];
                    bytes[at] = value;
                    if let Some(e) = earlier.filter(|_| at > 3) {
                        bytes[at - 3] = e;
                    }
                    for from in 0..bytes.len() {
                        let by_loop = (from..bytes.len())
                            .find(|&i| !plain(bytes[i]))
                            .unwrap_or(bytes.len());
                        assert_eq!(skip(&bytes, from), by_loop, "{low} {value} {at} {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn splits_like_re_split() {
        assert_eq!(
            split_line_feed_runs("a\n\nb\nc\n\n\nd", 2),
            ["a", "b\nc", "d"]
        );
        assert_eq!(split_line_feed_runs("a\nb\n", 1), ["a", "b", ""]);
        assert_eq!(split_line_feed_runs("\na", 1), ["", "a"]);
    }

    #[test]
    fn letters_and_spaces_are_pythons() {
        assert!(is_alpha('é') && is_alpha('中') && !is_alpha('1') && !is_alpha('_'));
        // A Devanagari vowel sign: alphabetic for Rust, not `isalpha` for Python.
        assert!('\u{93e}'.is_alphabetic() && !is_alpha('\u{93e}'));
        assert!(is_space('\x1c') && !'\x1c'.is_whitespace());
        assert!(is_space('\u{a0}') && is_space('\u{3000}') && !is_space('\u{200b}'));
        assert_eq!(strip("\u{a0} x \n"), "x");
        assert_eq!(strip("a b"), "a b");
        assert_eq!(strip("\x1fab\x1c"), "ab");
        assert_eq!(strip("ab\u{3000}"), "ab");
        assert_eq!(strip(" "), "");
        assert_eq!(len("naïve 中"), 7);
    }
}
