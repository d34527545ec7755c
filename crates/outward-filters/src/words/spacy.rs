//! spaCy's English tokenizer (`spacy.blank("en")`, spaCy 3.8), the word splitter of DataTrove's
//! English filters, as its `tokenizer.pyx` runs:
//!
//! 1. the text is cut where `isspace` changes; one `' '` after a chunk is absorbed, any other
//!    run of white space is a token of its own;
//! 2. a chunk equal to an exception (`tables::SPECIALS`: "don't" -> "do" "n't", "U.S.", ...) is
//!    its tokens;
//! 3. otherwise prefixes and suffixes are peeled, one of each per round, until nothing more
//!    comes off or the rest is an exception (`split_affixes`);
//! 4. the rest is an exception's tokens, or kept whole when it is a URL, or split at infixes
//!    (hyphens between letters, `...`, commas between letters, ...).
//!
//! spaCy's prefix search tries its alternatives in order and takes the first that matches;
//! its suffix search takes the longest suffix any alternative matches (a regex search finds
//! the leftmost start); its infix search scans left to right, alternatives in order.
//! 5. spaCy's special-case matcher then joins a run of tokens of one chunk that spells an
//!    exception split by the rules above ("Mr.Smith": "Mr" "." "Smith" -> "Mr." "Smith").
//!
//! The URL pattern's lookaheads that exclude private IP addresses are a check of the
//! address's first numbers after the match.
//!
//! Invariant: every token is a slice of the input, in order, and the tokens with the absorbed
//! spaces put back are the input.

use std::sync::OnceLock;

use super::{python, tables, url};
use outward_base::fxhash::{FxHashMap, hash_bytes};
use outward_base::ranges::in_ranges;

/// One alternative of spaCy's prefix or suffix patterns (`tables::PREFIXES`, `SUFFIXES`).
#[derive(Debug)]
pub(crate) enum Affix {
    /// The string itself.
    Literal(&'static str),
    /// Two or more dots.
    Dots,
    /// One character of spaCy's icon class (`tables::SYMBOL`).
    Symbol,
    /// `+` not followed by an ASCII digit (prefixes only).
    PlusNotBeforeDigit,
    /// One of these strings right after an ASCII digit (suffixes: units, currencies, `+`).
    AfterDigit(&'static [&'static str]),
    /// `.` after `°` and one of `FfCcKk`.
    DotAfterDegreeUnit,
    /// `.` after a character of `tables::SUFFIX_DOT_AFTER`.
    DotAfterClass,
    /// `.` after two upper-case letters.
    DotAfterTwoUpper,
}

/// All tokens of `text`, white-space tokens included.
pub fn tokens<'a>(text: &'a str, out: &mut Vec<&'a str>) {
    split::<false>(text, out);
}

/// [`words`] into `words`.
fn words_into<'a>(text: &'a str, words: &mut Vec<&'a str>) {
    split::<true>(text, words);
}

/// The tokens of `text` into `out`; with `WORDS`, only those of its chunks that are not white
/// space (a chunk is all white space or none, and so are its tokens).
fn split<'a, const WORDS: bool>(text: &'a str, tokens: &mut Vec<&'a str>) {
    // The list is taken for the loop and given back after: a list of the loop's own keeps its
    // length in a register between pushes.
    let mut list = std::mem::take(tokens);
    split_into::<WORDS>(text, &mut list);
    *tokens = list;
}

/// `split` into `out`, a list of the caller's own.
#[inline(always)]
fn split_into<'a, const WORDS: bool>(text: &'a str, out: &mut Vec<&'a str>) {
    out.clear();
    let add = |s: &'a str, kind: Chunk, out: &mut Vec<&'a str>| match kind {
        Chunk::Letters => letters(s, out),
        // No exception splits white space, and no prefix, suffix or infix is any
        // (`white_space_is_one_token`).
        Chunk::Space => {
            if !WORDS {
                out.push(s);
            }
        }
        Chunk::Other => chunk(s, out),
    };
    let mut start = 0;
    let mut in_space = match text.chars().next() {
        Some(c) => python::is_space(c),
        None => return,
    };
    // The bytes that can end a run of other characters: ASCII white space, and any byte of
    // a non-ASCII character (decoded below: it may be white space).
    const MAY_BE_SPACE: [bool; 256] = {
        let mut table = [false; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = b >= 0x80 || python::is_ascii_space(b as u8);
            b += 1;
        }
        table
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !in_space {
            // The common chunks, read eight bytes at a time: up to fifteen ASCII letters, with
            // or without one mark after them, then white space. Where one space and a byte
            // that starts a chunk follow, the space is absorbed and the next chunk read here
            // too; other white space is left to the scan below.
            while start == i {
                let Some((letters, first_eight)) = leading_letters_of_sixteen(bytes, i) else {
                    break;
                };
                if letters == 0 {
                    break;
                }
                let after = byte_at(bytes, i + letters);
                let (len, ends_in_space) = if python::is_ascii_space(after) {
                    let word = &text[i..i + letters];
                    if maybe_letters_special(first_eight, letters) {
                        add(word, Chunk::Letters, out);
                    } else {
                        // No exception: the chunk is its one token.
                        out.push(word);
                    }
                    (letters, after == b' ')
                } else {
                    let space = byte_at(bytes, i + letters + 1);
                    if !(python::is_plain(after)
                        && !after.is_ascii_alphanumeric()
                        && python::is_ascii_space(space))
                    {
                        break;
                    }
                    // Letters and one mark ("crew,"): split by the marks' table.
                    let chunk = &text[i..i + letters + 1];
                    if !letters_then_mark(chunk, letters, first_eight, out) {
                        break;
                    }
                    (letters + 1, space == b' ')
                };
                // One space, then a byte that starts a chunk: the space is absorbed.
                if ends_in_space && python::is_plain(byte_at(bytes, i + len + 1)) {
                    i += len + 1;
                    start = i;
                } else if WORDS {
                    // Any other run of ASCII white space is tokens of white space alone, which
                    // are no words: stepped over, and the chunk after it read here too
                    // (white space splits chunks and takes no part in their split).
                    i += len;
                    while python::is_ascii_space(byte_at(bytes, i)) {
                        i += 1;
                    }
                    start = i;
                    if !python::is_plain(byte_at(bytes, i)) {
                        break;
                    }
                } else {
                    i += len;
                    start = i;
                    break;
                }
            }
            i = python::skip_plain(bytes, i);
            while i < bytes.len() && !MAY_BE_SPACE[bytes[i] as usize] {
                i = python::skip_plain(bytes, i + 1);
            }
            if i == bytes.len() {
                break;
            }
        }
        let b = bytes[i];
        let (space, width) = if b < 0x80 {
            (python::is_ascii_space(b), 1)
        } else {
            let c = text[i..].chars().next().expect("i is on a char boundary");
            (python::is_space(c), c.len_utf8())
        };
        if space != in_space {
            if start < i {
                add(&text[start..i], Chunk::of(in_space), out);
            }
            // One space between two words (the common case): it is absorbed, and the next
            // chunk starts after it at once.
            if b == b' ' && bytes.get(i + 1).is_some_and(|&next| python::is_plain(next)) {
                start = i + 1;
                i += 1;
                continue;
            }
            start = if b == b' ' { i + 1 } else { i };
            in_space = !in_space;
        }
        i += width;
    }
    if start < text.len() {
        add(&text[start..], Chunk::of(in_space), out);
    }
}

/// What `split` knows of a chunk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chunk {
    /// White space.
    Space,
    /// ASCII letters.
    Letters,
    /// Anything else that is not white space.
    Other,
}

impl Chunk {
    fn of(space: bool) -> Chunk {
        if space { Chunk::Space } else { Chunk::Other }
    }
}

/// The byte at `i`, or 0 past the end (0 is no space and no plain byte).
#[inline(always)]
fn byte_at(bytes: &[u8], i: usize) -> u8 {
    bytes.get(i).copied().unwrap_or(0)
}

/// How many of the bytes from `i` are ASCII letters before the first that is not one, when
/// that first is within the fifteen bytes from `i` (and eight bytes from where it is read are
/// in `bytes`), and the eight bytes from `i` (first lowest); else `None`.
#[inline]
fn leading_letters_of_sixteen(bytes: &[u8], i: usize) -> Option<(usize, u64)> {
    let eight = |at: usize| {
        bytes
            .get(at..at + 8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes")))
    };
    let first = eight(i)?;
    match leading_ascii_letters(first) {
        8 => match leading_ascii_letters(eight(i + 8)?) {
            8 => None,
            more => Some((8 + more, first)),
        },
        letters => Some((letters, first)),
    }
}

/// How many of the eight bytes of `x` (first byte lowest) are ASCII letters before the first
/// that is not one (8: all are).
#[inline]
pub(crate) fn leading_ascii_letters(x: u64) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = ONES * 0x80;
    // Each byte's lower-case form without its high bit: no sum below carries out of a byte.
    let folded = (x | (ONES * 0x20)) & (ONES * 0x7f);
    let from_a = folded + ONES * (0x80 - b'a' as u64);
    let past_z = folded + ONES * (0x80 - (b'z' as u64 + 1));
    let letters = from_a & !past_z & !x & HIGH;
    ((!letters & HIGH).trailing_zeros() / 8) as usize
}

/// DataTrove's `split_into_words` for English: the tokens that are not white space (as
/// [`tokens`] gives them).
pub fn words(text: &str) -> Vec<&str> {
    // Room for a word every four bytes: dev texts hold one every five.
    let mut words = Vec::with_capacity(text.len() / 4 + 1);
    words_into(text, &mut words);
    words
}

/// Bits in [`SPECIAL_SHAPES`]: 65,536 (8 KB), of which the 1,347 exceptions set about 2 %.
const SHAPE_BITS: u32 = 16;

// A shape holds the length in a byte.
const _: () = assert!(tables::SPECIAL_MAX_BYTES <= u8::MAX as usize);

/// Which bit of [`SPECIAL_SHAPES`] stands for the shape of `s` (length, first two and last
/// bytes; `s` not empty, no longer than `SPECIAL_MAX_BYTES`).
const fn shape_bit(s: &[u8]) -> usize {
    let second = if s.len() > 1 { s[1] } else { 0 };
    let shape = u32::from_le_bytes([s[0], second, s[s.len() - 1], s.len() as u8]);
    (shape.wrapping_mul(0x9e37_79b1) >> (32 - SHAPE_BITS)) as usize
}

/// The shapes of the exceptions, as a bit set made when compiling: most chunks are ruled
/// out by one bit, before hashing.
static SPECIAL_SHAPES: [u64; 1 << (SHAPE_BITS - 6)] = {
    let mut shapes = [0u64; 1 << (SHAPE_BITS - 6)];
    let mut i = 0;
    while i < tables::SPECIALS.len() {
        let bit = shape_bit(tables::SPECIALS[i].0.as_bytes());
        shapes[bit / 64] |= 1 << (bit % 64);
        i += 1;
    }
    shapes
};

/// Bits in [`LETTER_SPECIALS`]: 16,384 (2 KB).
const LETTER_SPECIAL_BITS: u32 = 14;

/// Which bit of [`LETTER_SPECIALS`] stands for the ASCII letters whose bytes (first lowest,
/// zeros past the last) are `key`.
const fn letter_special_bit(key: u64) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - LETTER_SPECIAL_BITS)) as usize
}

/// The exceptions of up to eight ASCII letters, as a bit set made when compiling: the common
/// chunk (letters, then one space) is ruled out by one bit of the bytes already read.
static LETTER_SPECIALS: [u64; 1 << (LETTER_SPECIAL_BITS - 6)] = {
    let mut bits = [0u64; 1 << (LETTER_SPECIAL_BITS - 6)];
    let mut i = 0;
    while i < tables::SPECIALS.len() {
        let s = tables::SPECIALS[i].0.as_bytes();
        let mut key = 0u64;
        let mut letters = s.len() <= 8;
        let mut j = 0;
        while letters && j < s.len() {
            letters = s[j].is_ascii_alphabetic();
            key |= (s[j] as u64) << (8 * j);
            j += 1;
        }
        if letters {
            let bit = letter_special_bit(key);
            bits[bit / 64] |= 1 << (bit % 64);
        }
        i += 1;
    }
    bits
};

/// Whether the `letters` ASCII letters whose first eight bytes (first lowest) are
/// `first_eight` may be an exception: false only for a chunk that is none (a chunk of more
/// than eight letters is looked up by its string).
#[inline(always)]
fn maybe_letters_special(first_eight: u64, letters: usize) -> bool {
    match letters {
        1..=8 => {
            let key = first_eight & (u64::MAX >> (64 - 8 * letters));
            let bit = letter_special_bit(key);
            LETTER_SPECIALS[bit / 64] & (1 << (bit % 64)) != 0
        }
        _ => true,
    }
}

/// The exception `s` is, if any.
#[inline(always)]
fn special(s: &str) -> Option<&'static [&'static str]> {
    if s.is_empty() || s.len() > tables::SPECIAL_MAX_BYTES {
        return None;
    }
    if !may_be_special(s.as_bytes()) {
        return None;
    }
    special_by_string(s)
}

/// Whether `bytes` (not empty, no more than `SPECIAL_MAX_BYTES`) have the shape of an exception
/// (`SPECIAL_SHAPES`): false for most, which are then no exception.
#[inline(always)]
fn may_be_special(bytes: &[u8]) -> bool {
    let bit = shape_bit(bytes);
    SPECIAL_SHAPES[bit / 64] & (1 << (bit % 64)) != 0
}

fn special_by_string(s: &str) -> Option<&'static [&'static str]> {
    static SPECIALS: OnceLock<FxHashMap<&'static str, &'static [&'static str]>> = OnceLock::new();
    SPECIALS
        .get_or_init(|| tables::SPECIALS.iter().copied().collect())
        .get(s)
        .copied()
}

/// Pushes `tokens` as slices of `s` (their concatenation is `s`).
fn push_special<'a>(s: &'a str, tokens: &[&str], out: &mut Vec<&'a str>) {
    let mut at = 0;
    for t in tokens {
        out.push(&s[at..at + t.len()]);
        at += t.len();
    }
}

/// Chunks up to this many bytes have their split remembered (`SPLITS`).
const REMEMBERED_CHUNK_BYTES: usize = 48;

/// Chunks remembered per thread before the memory is cleared (under 1 MB: a peak RSS of
/// many threads pays it once each).
const REMEMBERED_CHUNKS: usize = 8_192;

/// Tokens a remembered chunk splits into at most (a chunk of more is split again each time).
const REMEMBERED_TOKENS: usize = 14;

/// The token lengths of chunks split by the rules (a word and its comma, a quoted word):
/// spaCy's tokenizer remembers them the same way; a chunk splits the same wherever it is.
/// The chunks' bytes are kept one after another in one list, so remembering one allocates
/// nothing but when a list grows.
#[derive(Default)]
struct Splits {
    /// The remembered chunks' bytes.
    bytes: Vec<u8>,
    /// A chunk's hash (`hash_bytes`) to where its bytes are and its tokens' lengths (a
    /// chunk whose hash another took is found by neither: its bytes differ).
    by_hash: FxHashMap<u64, Remembered>,
}

#[derive(Clone, Copy)]
struct Remembered {
    at: u32,
    len: u8,
    tokens: u8,
    lengths: [u8; REMEMBERED_TOKENS],
}

impl Splits {
    /// The token lengths of `s`, if remembered.
    fn get(&self, s: &str, hash: u64) -> Option<&[u8]> {
        let found = self.by_hash.get(&hash)?;
        let at = found.at as usize;
        (self.bytes[at..at + found.len as usize] == *s.as_bytes())
            .then(|| &found.lengths[..found.tokens as usize])
    }

    /// Remembers that `s` (of up to `REMEMBERED_CHUNK_BYTES`) splits into `tokens`.
    fn remember(&mut self, s: &str, hash: u64, tokens: &[&str]) {
        if tokens.len() > REMEMBERED_TOKENS {
            return;
        }
        if self.by_hash.len() >= REMEMBERED_CHUNKS {
            self.by_hash.clear();
            self.bytes.clear();
        }
        let mut lengths = [0; REMEMBERED_TOKENS];
        for (length, token) in lengths.iter_mut().zip(tokens) {
            *length = token.len() as u8;
        }
        let at = self.bytes.len() as u32;
        self.bytes.extend_from_slice(s.as_bytes());
        let remembered = Remembered {
            at,
            len: s.len() as u8,
            tokens: tokens.len() as u8,
            lengths,
        };
        self.by_hash.insert(hash, remembered);
    }
}

// A remembered chunk's bytes are addressed by a u32 and its length by a u8.
const _: () = assert!(REMEMBERED_CHUNK_BYTES <= u8::MAX as usize);
const _: () = assert!(REMEMBERED_CHUNK_BYTES * REMEMBERED_CHUNKS <= u32::MAX as usize);

thread_local! {
    static SPLITS: std::cell::RefCell<Splits> = std::cell::RefCell::default();
}

/// The tokens of a chunk of ASCII letters: an exception's, else the chunk (no prefix, suffix
/// or infix of spaCy's can apply to letters).
#[inline]
fn letters<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    match special(s) {
        Some(tokens) => push_special(s, tokens, out),
        None => out.push(s),
    }
}

fn chunk<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    if s.bytes().all(|b| b.is_ascii_alphabetic()) {
        letters(s, out);
        return;
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        // A number of ASCII digits is its one token: no prefix, suffix or infix of spaCy's
        // matches digits alone, and no exception is one (`digits_are_one_token`).
        out.push(s);
        return;
    }
    if let Some(tokens) = special(s) {
        push_special(s, tokens, out);
        return;
    }
    if is_joined_digits(s) {
        out.push(s);
        return;
    }
    if let Some(split) = digits_then_mark(s) {
        match split {
            true => out.extend([&s[..s.len() - 1], &s[s.len() - 1..]]),
            false => out.push(s),
        }
        return;
    }
    if let Some((at, split)) = mark_and_letters(s) {
        match split {
            true => out.extend([&s[..at], &s[at..]]),
            false => out.push(s),
        }
        return;
    }
    if letters_then_two_marks(s, out) {
        return;
    }
    let remembered = (s.len() <= REMEMBERED_CHUNK_BYTES).then(|| hash_bytes(s.as_bytes()));
    if let Some(hash) = remembered
        && SPLITS.with_borrow(|splits| {
            let Some(lengths) = splits.get(s, hash) else {
                return false;
            };
            let mut at = 0;
            for &n in lengths {
                out.push(&s[at..at + n as usize]);
                at += n as usize;
            }
            true
        })
    {
        return;
    }
    let first = out.len();
    if !(hyphenated_letters(s, out) || possessive_letters(s, out)) {
        split_by_rules(s, out);
    }
    if let Some(hash) = remembered {
        SPLITS.with_borrow_mut(|splits| splits.remember(s, hash, &out[first..]));
    }
}

/// The tokens of a chunk of ASCII letters joined by single hyphens ("fern-like",
/// "down-to-earth") that is no exception (checked before), pushed onto `out`: each run of
/// letters and each hyphen, as the rules make them, unless one of those tokens is an
/// exception; `false` (and nothing pushed) for a chunk of another shape or with such a token:
/// the rules decide it. Why: letters take no prefix and no suffix (`mark_and_letters`), no
/// infix but the hyphen's applies to letters and a single hyphen, and a hyphen between two
/// letters is an infix; no exception but emoticons holds a hyphen, and the special-case
/// matcher changes nothing where no run of the tokens is an exception.
/// `hyphenated_letters_split_as_the_rules_split` holds it to the rules.
fn hyphenated_letters<'a>(s: &'a str, out: &mut Vec<&'a str>) -> bool {
    let bytes = s.as_bytes();
    let letter_ends = bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes.last().is_some_and(u8::is_ascii_alphabetic);
    if !letter_ends
        || !bytes.contains(&b'-')
        || bytes.windows(2).any(|w| w == b"--")
        || !bytes.iter().all(|&b| b == b'-' || b.is_ascii_alphabetic())
    {
        return false;
    }
    let first = out.len();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'-' {
            out.extend([&s[start..i], &s[i..i + 1]]);
            start = i + 1;
        }
    }
    out.push(&s[start..]);
    // Of the runs of tokens only single ones can be exceptions: no exception is made of
    // letters and hyphens with a hyphen among them (−0.7M instructions on dragnet's texts
    // against looking up every run).
    if out[first..].iter().any(|token| special(token).is_some()) {
        out.truncate(first);
        return false;
    }
    true
}

/// The tokens of a chunk of ASCII letters and a possessive `'s` ("Earhart's", "Apple’s",
/// "ATTORNEY'S") that is no exception (checked before), pushed onto `out`: the letters and
/// the `'s`, unless the letters are an exception; `false` (and nothing pushed) for a chunk of
/// another shape or such letters: the rules decide it. Why: the `'s` is the longest suffix
/// that ends the chunk, the letters left take no prefix, suffix or infix, and the `'s` is an
/// exception of itself alone. `possessive_letters_split_as_the_rules_split` holds it to the
/// rules.
fn possessive_letters<'a>(s: &'a str, out: &mut Vec<&'a str>) -> bool {
    const POSSESSIVES: [&str; 4] = ["'s", "'S", "\u{2019}s", "\u{2019}S"];
    let Some(suffix) = POSSESSIVES.iter().find(|p| s.ends_with(*p)) else {
        return false;
    };
    let letters = &s[..s.len() - suffix.len()];
    if letters.is_empty()
        || !letters.bytes().all(|b| b.is_ascii_alphabetic())
        || special(letters).is_some()
    {
        return false;
    }
    out.extend([letters, &s[letters.len()..]]);
    true
}

/// The tokens spaCy's rules make of a chunk that is no exception: its affixes, infixes and
/// the exceptions they uncover.
fn split_by_rules<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    let first = out.len();
    split_chunk(s, true, out);
    if out.len() - first >= 2 {
        apply_special_cases(s, out, first);
    }
}

/// Per case of the letter next to a mark (lower, upper) and of the one after it (none,
/// lower, upper): whether the rules split the mark off; `None` where it is not known.
type ShapeRow = [Option<bool>; 6];

/// Which side of the letters a chunk's one mark is on (`mark_and_letters`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Before,
    After,
}

/// For a chunk of ASCII letters and one mark (a character that is not an ASCII letter or
/// digit) before or after them ("crew,", "evening.", "ABC.", "(gain", "“You"), that is no
/// exception (checked before): the byte where the mark and the letters meet, and whether
/// the rules split the chunk there (`true`) or keep it whole (`false`); `None` when this
/// shortcut does not know and the rules must run.
///
/// Why the answer is a table: letters take no prefix (no prefix alternative is made of ASCII
/// letters), no suffix (none ends in a letter without a digit or `'s` before it) and no infix
/// (none starts at a letter), and the mark takes no infix that splits (every infix that can
/// start at a mark needs a character on its other side, and one at the chunk's start is
/// skipped). So the rules either take the mark off as an affix and keep the letters whole,
/// or keep the chunk whole, and which depends on the mark and the case of the two letters
/// next to it (`.` after a lower-case letter or after two capitals) alone, unless the
/// letters or the mark are an exception (then the rules run), or an affix alternative
/// longer than the mark begins or ends with it (then the mark's side is not in the table).
/// The table is made by running the rules on one chunk of each shape: for an ASCII mark
/// once, the first time a chunk meets it ([`ascii_mark_row`]), for the others per thread as
/// they are met.
fn mark_and_letters(s: &str) -> Option<(usize, bool)> {
    thread_local! {
        /// The rows of other marks, made as a thread meets them.
        static OTHER_ROWS: std::cell::RefCell<FxHashMap<(char, Side), ShapeRow>> =
            std::cell::RefCell::default();
    }
    let bytes = s.as_bytes();
    let (&first, &last) = (bytes.first()?, bytes.last()?);
    let (side, mark, letters) = if !last.is_ascii_alphanumeric() && first.is_ascii_alphabetic() {
        let mark = match last {
            0..0x80 => last as char,
            _ => s.chars().next_back()?,
        };
        (Side::After, mark, &s[..s.len() - mark.len_utf8()])
    } else if !first.is_ascii_alphanumeric() && last.is_ascii_alphabetic() {
        let mark = match first {
            0..0x80 => first as char,
            _ => s.chars().next()?,
        };
        (Side::Before, mark, &s[mark.len_utf8()..])
    } else {
        return None;
    };
    if letters.is_empty() || !letters.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    // The two letters next to the mark, nearest first.
    let letters_bytes = letters.as_bytes();
    let (next, then) = match side {
        Side::After => {
            let n = letters_bytes.len();
            (
                letters_bytes[n - 1],
                n.checked_sub(2).map(|i| letters_bytes[i]),
            )
        }
        Side::Before => (letters_bytes[0], letters_bytes.get(1).copied()),
    };
    let shape = shape_of(next, then);
    let split = if mark.is_ascii() {
        ascii_mark_row(mark as u8, side)[shape]
    } else {
        OTHER_ROWS.with_borrow_mut(|rows| {
            if rows.len() >= REMEMBERED_MARKS {
                rows.clear();
            }
            rows.entry((mark, side))
                .or_insert_with(|| mark_splits(mark, side))[shape]
        })
    }?;
    if special(letters).is_some() {
        return None;
    }
    let at = match side {
        Side::After => letters.len(),
        Side::Before => mark.len_utf8(),
    };
    Some((at, split))
}

/// The rows of marks other than ASCII, and the pairs of marks and shapes, a thread remembers
/// (each) before it forgets them all: text of many rare marks is not remembered without
/// bound (4,096 rows take under 300 KB).
const REMEMBERED_MARKS: usize = 4_096;

/// A character that is neither alphanumeric nor white space.
fn is_mark(c: char) -> bool {
    !c.is_alphanumeric() && !c.is_control() && !python::is_space(c)
}

/// The tokens of a chunk of ASCII letters and two marks after them ("said.\"", "it.\u{201d}",
/// "line).") that is no exception (checked before), pushed onto `out` when the table knows
/// them: whether it did; if not, nothing is pushed and the rules run. Why a table of the two
/// marks and the case of the last two letters: the chunk takes no prefix (checked: only
/// alternatives that begin with `U`, `C` or `A` can start at a letter), its longest suffix is
/// the second mark or both (longer alternatives that end with the marks leave the pair
/// unknown), and what is left is letters and a mark, which the rules split as
/// [`mark_and_letters`] says; the infixes that can start at a mark look at the marks and at the
/// letter before them (its case); and where neither the letters, the letters and the first
/// mark, nor the two marks are an exception, no exception joins tokens of the chunk but one of
/// a mark alone, which is the same for every chunk of the pair. The table is made by running
/// the rules on one chunk of each shape, per thread as pairs and shapes are met
/// ([`pair_split`]; `letters_and_two_marks_split_as_the_rules_split`). Such chunks split once
/// are remembered too, but most are met once ("said.\u{201d}"): −2.6M instructions on
/// dragnet's texts.
fn letters_then_two_marks<'a>(s: &'a str, out: &mut Vec<&'a str>) -> bool {
    thread_local! {
        /// The splits of the pairs of marks and shapes a thread has met.
        static PAIR_SPLITS: std::cell::RefCell<FxHashMap<(char, char, usize), Option<u8>>> =
            std::cell::RefCell::default();
    }
    let bytes = s.as_bytes();
    let n = bytes
        .iter()
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(bytes.len());
    if n == 0 || bytes.len() - n < 2 {
        return false;
    }
    let mut marks = s[n..].chars();
    let (Some(first), Some(second), None) = (marks.next(), marks.next(), marks.next()) else {
        return false;
    };
    let letters = &bytes[..n];
    let shape = shape_of(letters[n - 1], n.checked_sub(2).map(|i| letters[i]));
    let known = PAIR_SPLITS.with_borrow_mut(|splits| {
        if splits.len() >= REMEMBERED_MARKS {
            splits.clear();
        }
        *splits
            .entry((first, second, shape))
            .or_insert_with(|| pair_split(first, second, shape))
    });
    let Some(split) = known else {
        return false;
    };
    let at = n + first.len_utf8();
    if find_prefix(s) != 0
        || special(&s[..n]).is_some()
        || special(&s[..at]).is_some()
        || special(&s[n..]).is_some()
    {
        return false;
    }
    match split {
        0 => out.extend([&s[..n], &s[n..at], &s[at..]]),
        1 => out.extend([&s[..at], &s[at..]]),
        2 => out.extend([&s[..n], &s[n..]]),
        _ => out.push(s),
    }
    true
}

/// How the rules split a chunk of ASCII letters of the shape `shape` (a [`ShapeRow`]'s column)
/// and the marks `first` and `second` (for [`letters_then_two_marks`]): 0 letters, mark, mark;
/// 1 letters and the first mark, the second; 2 letters, both marks; 3 whole; `None` where it
/// is not known (the marks are not two marks, a longer suffix ends with them, or they are an
/// exception). The rules run on a chunk of letters of that shape that takes no prefix and
/// whose letters, letters and first mark, and whole are no exceptions. Made per shape as
/// chunks meet it: most pairs are met in one shape or two (−1.0M instructions on dragnet's
/// texts against all six at once).
fn pair_split(first: char, second: char, shape: usize) -> Option<u8> {
    let marks = format!("{first}{second}");
    // The suffixes after a digit are none here: the chunks hold no digit.
    let longer_suffix = tables::SUFFIXES.iter().any(|alt| match alt {
        Affix::Literal(l) => {
            (l.len() > first.len_utf8() && l.ends_with(first))
                || (l.len() > marks.len() && l.ends_with(&marks))
        }
        _ => false,
    });
    if !is_mark(first) || !is_mark(second) || longer_suffix || special(&marks).is_some() {
        return None;
    }
    let (n, at, chunk) = ('a'..='z').find_map(|c| {
        let next = if shape / 3 == 1 {
            c.to_ascii_uppercase()
        } else {
            c
        };
        let letters = match shape % 3 {
            0 => next.to_string(),
            1 => format!("x{next}"),
            _ => format!("X{next}"),
        };
        let chunk = format!("{letters}{marks}");
        let (n, at) = (letters.len(), letters.len() + first.len_utf8());
        let clear = find_prefix(&chunk) == 0
            && special(&chunk).is_none()
            && special(&chunk[..n]).is_none()
            && special(&chunk[..at]).is_none();
        clear.then_some((n, at, chunk))
    })?;
    let mut tokens = Vec::new();
    split_by_rules(&chunk, &mut tokens);
    let ends: Vec<usize> = tokens
        .iter()
        .map(|t| offset_in(&chunk, t) + t.len())
        .collect();
    match ends.as_slice() {
        [l, m, _] if *l == n && *m == at => Some(0),
        [l, _] if *l == at => Some(1),
        [l, _] if *l == n => Some(2),
        [_] => Some(3),
        _ => None,
    }
}

/// The column of a [`ShapeRow`]: the case of the letter next to the mark (`next`) and of the
/// one after it (`then`, none for a single letter).
#[inline]
fn shape_of(next: u8, then: Option<u8>) -> usize {
    let case = |b: u8| usize::from(b.is_ascii_uppercase());
    case(next) * 3 + then.map_or(0, |b| 1 + case(b))
}

/// Whether `s` is runs of ASCII digits joined by single `:`, `,`, `.` or `/` ("4:58", "5.2",
/// "30,000", "08/06/12"), which the rules keep whole when it is no exception (checked before).
/// Why: a digit starts no prefix and ends no suffix; none of the four marks is an infix between
/// two digits (`:` and `/` need a letter after them, `,` letters on both sides, `.` a lower-case
/// letter or a quote before it and a capital or a quote after it); and one token leaves the
/// special-case matcher nothing to join. Such chunks are many and most are met once, so the
/// rules ran on each (−0.8M instructions on dragnet's texts);
/// `joined_digits_are_one_token` holds it to the rules.
fn is_joined_digits(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut after_digit = false;
    for &b in bytes {
        after_digit = match b {
            b'0'..=b'9' => true,
            b':' | b',' | b'.' | b'/' if after_digit => false,
            _ => return false,
        };
    }
    after_digit
}

/// For a chunk of ASCII digits and one ASCII punctuation mark after them ("2011,", "1999)",
/// "80%") that is no exception (checked before): whether the rules split the mark off
/// (`true`) or keep the chunk whole (`false`); `None` for a chunk of another shape, or a mark
/// whose split the table does not know. Why a table of the mark alone: digits take no
/// prefix, suffix or infix and are no exception (`digits_are_one_token`), so the rules either
/// take the mark off as a suffix or keep the chunk whole, and a suffix's condition on what
/// comes before it asks only whether that is a digit; the table is made by running the rules
/// on a number of one digit and of two with each mark, and a mark on which they differ is
/// left to the rules (`digits_and_a_mark_split_as_the_rules_split`).
fn digits_then_mark(s: &str) -> Option<bool> {
    static ROWS: OnceLock<[Option<bool>; 128]> = OnceLock::new();
    let (&mark, digits) = s.as_bytes().split_last()?;
    if digits.is_empty() || !mark.is_ascii() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    ROWS.get_or_init(|| {
        std::array::from_fn(|m| {
            let mark = m as u8 as char;
            if !mark.is_ascii_punctuation() {
                return None;
            }
            let split_of = |digits: &str| {
                let chunk = format!("{digits}{mark}");
                if special(&chunk).is_some() {
                    return None;
                }
                let mut tokens = Vec::new();
                split_by_rules(&chunk, &mut tokens);
                match tokens.as_slice() {
                    [whole] if *whole == chunk => Some(false),
                    [number, tail] if *number == digits && *tail == mark.to_string() => Some(true),
                    _ => None,
                }
            };
            let one = split_of("7");
            (one.is_some() && one == split_of("42"))
                .then_some(one)
                .flatten()
        })
    })[mark as usize]
}

/// The row of the ASCII `mark` on `side`, made the first time a chunk asks for it: texts
/// meet few of the 256 (−1.0M instructions on dragnet's texts against all at once).
fn ascii_mark_row(mark: u8, side: Side) -> &'static ShapeRow {
    static ASCII_ROWS: [[OnceLock<ShapeRow>; 128]; 2] =
        [const { [const { OnceLock::new() }; 128] }; 2];
    ASCII_ROWS[side as usize][usize::from(mark)].get_or_init(|| mark_splits(char::from(mark), side))
}

/// The tokens of the chunk `s`, ASCII letters (`letters` of them, the first eight bytes
/// `first_eight`) then one ASCII mark ("crew,", "evening.", the common chunk after letters
/// alone), pushed to `out` when `mark_and_letters`' table knows them and neither the chunk nor
/// its letters is an exception: whether they were; if not, nothing is pushed, and the chunk is
/// left to [`chunk`] (which gives the same tokens where this gives any).
#[inline]
fn letters_then_mark<'a>(
    s: &'a str,
    letters: usize,
    first_eight: u64,
    out: &mut Vec<&'a str>,
) -> bool {
    let bytes = s.as_bytes();
    let mark = bytes[letters];
    let then = letters.checked_sub(2).map(|i| bytes[i]);
    let row = ascii_mark_row(mark, Side::After);
    let Some(split) = row[shape_of(bytes[letters - 1], then)] else {
        return false;
    };
    if special(s).is_some()
        || (maybe_letters_special(first_eight, letters) && special(&s[..letters]).is_some())
    {
        return false;
    }
    match split {
        true => out.extend([&s[..letters], &s[letters..]]),
        false => out.push(s),
    }
    true
}

/// `mark_and_letters`' table row for `mark` on `side`: the rules run on a chunk of each
/// shape (a shape all of whose chunks are exceptions, as a lower-case letter and a dot,
/// has none).
fn mark_splits(mark: char, side: Side) -> ShapeRow {
    let longer_affix = match side {
        Side::After => tables::SUFFIXES.iter().any(|alt| match alt {
            Affix::Literal(l) => l.len() > mark.len_utf8() && l.ends_with(mark),
            Affix::AfterDigit(list) => list
                .iter()
                .any(|l| l.len() > mark.len_utf8() && l.ends_with(mark)),
            _ => false,
        }),
        Side::Before => tables::PREFIXES.iter().any(|alt| match alt {
            Affix::Literal(l) => l.len() > mark.len_utf8() && l.starts_with(mark),
            _ => false,
        }),
    };
    let mut splits = [None; 6];
    // ASCII control characters are rare next to letters: their rows are left unknown (the
    // rules split such a chunk), which spared running the rules on them when the table was
    // made all at once (−0.6M instructions on dragnet's texts).
    let unknown = longer_affix
        || mark.is_ascii_alphanumeric()
        || mark.is_ascii_control()
        || python::is_space(mark)
        || special(mark.encode_utf8(&mut [0; 4])).is_some();
    if unknown {
        return splits;
    }
    for (i, split) in splits.iter_mut().enumerate() {
        // Letters of this shape that are no exception, with or without the mark ("q." is
        // one, like most single letters and a dot).
        let candidates = ('a'..='z').map(|c| {
            let next = if i / 3 == 1 {
                c.to_ascii_uppercase()
            } else {
                c
            };
            let mut letters = match i % 3 {
                0 => next.to_string(),
                1 => format!("{next}x"),
                _ => format!("{next}X"),
            };
            if side == Side::After {
                letters = letters.chars().rev().collect();
            }
            let chunk = match side {
                Side::After => format!("{letters}{mark}"),
                Side::Before => format!("{mark}{letters}"),
            };
            (letters, chunk)
        });
        let found = candidates
            .into_iter()
            .find(|(letters, chunk)| special(letters).is_none() && special(chunk).is_none());
        let Some((letters, chunk)) = found else {
            continue;
        };
        let mut tokens = Vec::new();
        split_by_rules(&chunk, &mut tokens);
        let mark = mark.to_string();
        *split = match (side, tokens.as_slice()) {
            (_, [whole]) if *whole == chunk => Some(false),
            (Side::After, [word, tail]) if *word == letters && *tail == mark => Some(true),
            (Side::Before, [head, word]) if *head == mark && *word == letters => Some(true),
            _ => None,
        };
    }
    splits
}

/// Prefixes, the rest and suffixes of one chunk; `specials` off is spaCy's
/// `_tokenize_affixes(string, False)`, how it turns an exception into the phrase it looks for.
fn split_chunk<'a>(s: &'a str, specials: bool, out: &mut Vec<&'a str>) {
    // The prefixes go straight to `out` (nothing comes before them); the suffixes, found
    // last first, wait in a list that allocates nothing for the few a chunk has.
    let mut suffixes: smallvec::SmallVec<[&'a str; 4]> = smallvec::SmallVec::new();
    let rest = split_affixes(s, specials, out, &mut suffixes);
    if !rest.is_empty() {
        match special(rest).filter(|_| specials) {
            Some(tokens) => push_special(rest, tokens, out),
            None => attach_infixes(rest, out),
        }
    }
    out.extend(suffixes.iter().rev());
}

/// Byte offset of `token` (a slice of `s`) in `s`.
fn offset_in(s: &str, token: &str) -> usize {
    token.as_ptr() as usize - s.as_ptr() as usize
}

/// spaCy's `_apply_special_cases` within one chunk: a run of tokens that together spell an
/// exception which spaCy's own prefix, suffix or infix rules would split, and that are split
/// exactly so, becomes the exception's tokens ("Mr.Smith": "Mr" "." "Smith" -> "Mr." "Smith").
/// Longer runs win, then earlier ones; as spaCy filters, a run is taken when its first and last
/// tokens are free.
fn apply_special_cases<'a>(s: &'a str, out: &mut Vec<&'a str>, first: usize) {
    let tokens = &out[first..];
    let mut runs: Vec<(usize, usize, &'static [&'static str])> = Vec::new();
    // The runs as `token_runs` gives them, in loops of their own: most are ruled out by their
    // shape's bit before their text is sliced (−0.9M instructions on dragnet's texts).
    let bytes = s.as_bytes();
    for a in 0..tokens.len() {
        let start = offset_in(s, tokens[a]);
        for b in a + 1..=tokens.len() {
            let end = offset_in(s, tokens[b - 1]) + tokens[b - 1].len();
            if end - start > tables::SPECIAL_MAX_BYTES {
                break;
            }
            if !may_be_special(&bytes[start..end]) {
                continue;
            }
            let key = &s[start..end];
            let Some(special_tokens) = special_by_string(key) else {
                continue;
            };
            // One token that is an exception of one token ("—", "'s") would be put back as
            // it is, and keeps no other run from being taken (the shortest runs are taken
            // last, and two runs of one token do not meet): skipped before its phrase is
            // split (−4.9M instructions on dragnet's texts).
            if b - a == 1 && special_tokens.len() == 1 {
                continue;
            }
            if split_as_run(key, &tokens[a..b]) {
                runs.push((a, b, special_tokens));
            }
        }
    }
    take_runs(s, out, first, runs);
}

/// Whether the rules split `key` (a run's text, an exception) as the run's tokens are split:
/// into as many tokens, of the same lengths; only then does spaCy find the exception there
/// (with its default `faster_heuristics`, only when a pattern matches in the key at all).
fn split_as_run(key: &str, run: &[&str]) -> bool {
    if !has_affix(key) {
        return false;
    }
    let mut phrase = Vec::new();
    split_chunk(key, false, &mut phrase);
    phrase.len() == run.len() && phrase.iter().zip(run).all(|(p, t)| p.len() == t.len())
}

/// The runs of `out[first..]` (tokens of `s`) that spell exceptions, each as its first token,
/// the token after its last and the exception's tokens, replaced by those tokens as spaCy
/// takes them: longer runs first, then the earlier, each when its first and last tokens are
/// free.
fn take_runs<'a>(
    s: &'a str,
    out: &mut Vec<&'a str>,
    first: usize,
    mut runs: Vec<(usize, usize, &'static [&'static str])>,
) {
    if runs.is_empty() {
        return;
    }
    // spaCy's `len_start_cmp`: longer runs first, then the earlier.
    runs.sort_by_key(|&(a, b, _)| (b - a, std::cmp::Reverse(a)));
    let mut seen = vec![false; out.len() - first];
    let mut taken = Vec::new();
    for &(a, b, special_tokens) in runs.iter().rev() {
        if !seen[a] && !seen[b - 1] {
            taken.push((a, b, special_tokens));
        }
        seen[a..b].iter_mut().for_each(|x| *x = true);
    }
    taken.sort_by_key(|&(a, _, _)| a);
    let old: Vec<&'a str> = out.drain(first..).collect();
    let mut i = 0;
    for (a, b, special_tokens) in taken {
        out.extend_from_slice(&old[i..a]);
        let start = offset_in(s, old[a]);
        let end = offset_in(s, old[b - 1]) + old[b - 1].len();
        push_special(&s[start..end], special_tokens, out);
        i = b;
    }
    out.extend_from_slice(&old[i..]);
}

/// The runs of `tokens` (slices of `s`, in order) short enough to be an exception: each as
/// its first token, the token after its last, and its text in `s`; from each first token,
/// longer runs until one is longer than [`tables::SPECIAL_MAX_BYTES`]. (`apply_special_cases`
/// walks them in loops of its own; the tests' reference walks them here.)
#[cfg(test)]
fn token_runs<'s, 't>(
    s: &'s str,
    tokens: &'t [&'s str],
) -> impl Iterator<Item = (usize, usize, &'s str)> + 't {
    (0..tokens.len()).flat_map(move |a| {
        let start = offset_in(s, tokens[a]);
        (a + 1..=tokens.len())
            .map(move |b| (b, offset_in(s, tokens[b - 1]) + tokens[b - 1].len()))
            .take_while(move |&(_, end)| end - start <= tables::SPECIAL_MAX_BYTES)
            .map(move |(b, end)| (a, b, &s[start..end]))
    })
}

/// spaCy (with its default `faster_heuristics`) looks for an exception after splitting only
/// when one of its patterns matches in it.
fn has_affix(key: &str) -> bool {
    let mut found = Vec::new();
    find_infixes(key, &mut found);
    find_prefix(key) != 0 || find_suffix(key) != 0 || !found.is_empty()
}

fn split_affixes<'a>(
    mut s: &'a str,
    specials: bool,
    prefixes: &mut Vec<&'a str>,
    suffixes: &mut smallvec::SmallVec<[&'a str; 4]>,
) -> &'a str {
    let mut last = usize::MAX;
    while !s.is_empty() && s.len() != last {
        if specials && special(s).is_some() {
            break;
        }
        last = s.len();
        let pre = find_prefix(s);
        if pre != 0 {
            let minus_pre = &s[pre..];
            if specials && !minus_pre.is_empty() && special(minus_pre).is_some() {
                prefixes.push(&s[..pre]);
                s = minus_pre;
                break;
            }
        }
        let suf = find_suffix(&s[pre..]);
        if suf != 0 {
            let minus_suf = &s[..s.len() - suf];
            if specials && !minus_suf.is_empty() && special(minus_suf).is_some() {
                suffixes.push(&s[s.len() - suf..]);
                s = minus_suf;
                break;
            }
        }
        if pre != 0 && suf != 0 && pre + suf <= s.len() {
            prefixes.push(&s[..pre]);
            suffixes.push(&s[s.len() - suf..]);
            s = &s[pre..s.len() - suf];
        } else if pre != 0 {
            prefixes.push(&s[..pre]);
            s = &s[pre..];
        } else if suf != 0 {
            suffixes.push(&s[s.len() - suf..]);
            s = &s[..s.len() - suf];
        }
    }
    s
}

fn first_char(s: &str) -> Option<char> {
    s.chars().next()
}

fn leading_dots(s: &str) -> usize {
    s.bytes().take_while(|&b| b == b'.').count()
}

fn trailing_dots(s: &str) -> usize {
    s.bytes().rev().take_while(|&b| b == b'.').count()
}

/// Bytes of the prefix spaCy's prefix search finds (0: none).
fn find_prefix(s: &str) -> usize {
    // The alternatives that can match at a first character, in the regex's order (the icon
    // class, spaCy's last alternative, is checked after them).
    static BY_FIRST: OnceLock<FxHashMap<char, Vec<&'static Affix>>> = OnceLock::new();
    let Some(c) = first_char(s) else { return 0 };
    if c.is_ascii_alphanumeric() && !matches!(c, 'U' | 'C' | 'A') {
        return 0;
    }
    let by_first = BY_FIRST.get_or_init(|| {
        debug_assert!(matches!(tables::PREFIXES.last(), Some(Affix::Symbol)));
        let mut map: FxHashMap<char, Vec<&'static Affix>> = FxHashMap::default();
        for alt in tables::PREFIXES {
            let first = match alt {
                Affix::Literal(l) => l.chars().next().expect("no empty alternative"),
                Affix::Dots => '.',
                Affix::PlusNotBeforeDigit => '+',
                _ => continue,
            };
            map.entry(first).or_default().push(alt);
        }
        map
    });
    for alt in by_first.get(&c).map(Vec::as_slice).unwrap_or(&[]) {
        let n = match alt {
            Affix::Literal(l) => s.starts_with(l).then_some(l.len()),
            Affix::Dots => (leading_dots(s) >= 2).then(|| leading_dots(s)),
            Affix::PlusNotBeforeDigit => {
                (!s[1..].starts_with(|d: char| d.is_ascii_digit())).then_some(1)
            }
            _ => None,
        };
        if let Some(n) = n {
            return n;
        }
    }
    if is_icon(c) {
        return c.len_utf8();
    }
    0
}

/// A character of spaCy's icon class (`tables::SYMBOL`), the last alternative of its prefix,
/// suffix and infix patterns: tested only when not ASCII, as the class holds no ASCII
/// character (`the_icon_class_holds_no_ascii_character`).
fn is_icon(c: char) -> bool {
    !c.is_ascii() && in_ranges(tables::SYMBOL, c as u32)
}

fn char_before(s: &str, end: usize) -> Option<char> {
    s[..end].chars().next_back()
}

/// Bytes of the longest suffix one of spaCy's suffix alternatives matches (0: none).
fn find_suffix(s: &str) -> usize {
    let Some(last) = s.chars().next_back() else {
        return 0;
    };
    if last.is_ascii_alphabetic()
        && !s.bytes().any(|b| b.is_ascii_digit())
        && !s.ends_with("'s")
        && !s.ends_with("'S")
        && !s.ends_with("’s")
        && !s.ends_with("’S")
    {
        // Only a unit after a digit or a possessive `'s` ends in an ASCII letter.
        return 0;
    }
    // The literal alternatives (and the units and currencies after a digit), by last char:
    // a suffix search takes the longest match, so their order does not matter.
    static BY_LAST: OnceLock<FxHashMap<char, Vec<(&'static str, bool)>>> = OnceLock::new();
    let by_last = BY_LAST.get_or_init(|| {
        let mut map: FxHashMap<char, Vec<(&'static str, bool)>> = FxHashMap::default();
        for alt in tables::SUFFIXES {
            let (list, after_digit): (&[&'static str], bool) = match alt {
                Affix::Literal(l) => (std::slice::from_ref(l), false),
                Affix::AfterDigit(list) => (list, true),
                _ => continue,
            };
            for l in list {
                let last = l.chars().next_back().expect("no empty alternative");
                map.entry(last).or_default().push((l, after_digit));
            }
        }
        map
    });
    let mut best = 0;
    for &(l, after_digit) in by_last.get(&last).map(Vec::as_slice).unwrap_or(&[]) {
        if s.ends_with(l)
            && (!after_digit
                || char_before(s, s.len() - l.len()).is_some_and(|d| d.is_ascii_digit()))
        {
            best = best.max(l.len());
        }
    }
    let dots = trailing_dots(s);
    if dots >= 2 {
        best = best.max(dots);
    }
    if is_icon(last) {
        best = best.max(last.len_utf8());
    }
    if last == '.' && best == 0 {
        let mut back = s[..s.len() - 1].chars().rev();
        let (b1, b2) = (back.next(), back.next());
        let degree = b1.is_some_and(|u| "FfCcKk".contains(u)) && b2 == Some('°');
        let class = b1.is_some_and(|c| in_ranges(tables::SUFFIX_DOT_AFTER, c as u32));
        let two_upper = b1.is_some_and(|c| in_ranges(tables::ALPHA_UPPER, c as u32))
            && b2.is_some_and(|c| in_ranges(tables::ALPHA_UPPER, c as u32));
        if degree || class || two_upper {
            best = 1;
        }
    }
    best
}

fn is_alpha_class(c: char) -> bool {
    c.is_ascii_alphabetic() || (!c.is_ascii() && in_ranges(tables::ALPHA, c as u32))
}

/// The infix matches of spaCy's English infix pattern in `s`, as byte spans, left to right.
/// One branch per alternative of the pattern, in its order (some give the same length).
#[allow(clippy::if_same_then_else)]
fn find_infixes(s: &str, found: &mut Vec<(usize, usize)>) {
    found.clear();
    let mut i = 0;
    while i < s.len() {
        // No infix starts with an ASCII letter or digit.
        if s.as_bytes()[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let rest = &s[i..];
        let c = first_char(rest).expect("i is on a char boundary");
        let before = char_before(s, i);
        let after = |n: usize| first_char(&s[i + n..]);
        let hit = if c == '.' && rest[1..].starts_with('.') {
            Some(leading_dots(rest))
        } else if c == '…' {
            Some(c.len_utf8())
        } else if is_icon(c) {
            Some(c.len_utf8())
        } else if matches!(c, '+' | '-' | '*' | '^')
            && before.is_some_and(|b| b.is_ascii_digit())
            && after(1).is_some_and(|a| a.is_ascii_digit() || a == '-')
        {
            Some(1)
        } else if c == '.'
            && before.is_some_and(|b| {
                in_ranges(tables::ALPHA_LOWER, b as u32) || in_ranges(tables::QUOTES, b as u32)
            })
            && after(1).is_some_and(|a| {
                in_ranges(tables::ALPHA_UPPER, a as u32) || in_ranges(tables::QUOTES, a as u32)
            })
        {
            Some(1)
        } else if c == ','
            && before.is_some_and(is_alpha_class)
            && after(1).is_some_and(is_alpha_class)
        {
            Some(1)
        } else if before.is_some_and(|b| is_alpha_class(b) || b.is_ascii_digit()) {
            const HYPHENS: [&str; 7] = ["-", "–", "—", "--", "---", "——", "~"];
            HYPHENS
                .iter()
                .find(|h| rest.starts_with(**h) && after(h.len()).is_some_and(is_alpha_class))
                .map(|h| h.len())
                .or_else(|| {
                    (matches!(c, ':' | '<' | '>' | '=' | '/')
                        && after(1).is_some_and(is_alpha_class))
                    .then_some(1)
                })
        } else {
            None
        };
        match hit {
            Some(n) => {
                found.push((i, i + n));
                i += n;
            }
            None => i += c.len_utf8(),
        }
    }
}

fn attach_infixes<'a>(s: &'a str, out: &mut Vec<&'a str>) {
    let mut found = Vec::new();
    find_infixes(s, &mut found);
    if found.is_empty() || url::is_url(s) {
        out.push(s);
        return;
    }
    let mut start = 0;
    for &(a, b) in &found {
        if a == 0 {
            continue;
        }
        if a != start {
            out.push(&s[start..a]);
        }
        out.push(&s[a..b]);
        start = b;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A white-space token (tokens are all white space or none of it).
    fn is_space_token(token: &str) -> bool {
        match token.as_bytes().first() {
            Some(&b) if b.is_ascii() => python::is_ascii_space(b),
            _ => token.chars().next().is_some_and(python::is_space),
        }
    }

    fn toks(s: &str) -> Vec<&str> {
        words(s)
    }

    /// The tokens of a chunk as the rules give them: an exception's, else its affixes,
    /// infixes and the exceptions they uncover (what a shortcut is held to).
    fn by_the_rules(chunk: &str) -> Vec<&str> {
        let mut tokens = Vec::new();
        match special(chunk) {
            Some(special_tokens) => push_special(chunk, special_tokens, &mut tokens),
            None => split_by_rules(chunk, &mut tokens),
        }
        tokens
    }

    /// Whether `shortcut` took `chunk` (when it is no exception), after holding the tokens it
    /// gave, and the words of the chunk, to the rules' tokens.
    fn shortcut_holds(
        chunk: &str,
        shortcut: impl for<'a> Fn(&'a str, &mut Vec<&'a str>) -> bool,
    ) -> bool {
        let by_rules = by_the_rules(chunk);
        let mut fast = Vec::new();
        let taken = special(chunk).is_none() && shortcut(chunk, &mut fast);
        if taken {
            assert_eq!(fast, by_rules, "{chunk}");
        }
        assert_eq!(words(chunk), by_rules, "{chunk}");
        taken
    }

    /// The ASCII characters that are neither letters, digits, white space nor control.
    fn ascii_marks() -> impl Iterator<Item = char> {
        (0u8..128)
            .filter(|b| b.is_ascii_graphic() && !b.is_ascii_alphanumeric())
            .map(char::from)
    }

    /// Each case was tokenized by spaCy 3.8.18 (`spacy.blank("en")`).
    /// A chunk split by the rules is remembered (`SPLITS`): the second time it is split
    /// from memory, into the same tokens.
    #[test]
    fn a_remembered_split_is_the_split() {
        for text in [
            "\u{201c}Hello,\u{201d} she said.",
            "(e.g. U.S.A.) 3km. $5.",
            "na\u{ef}ve\u{2014}caf\u{e9}'s",
            "Mr.Smith's co-op... don't!",
        ] {
            let first: Vec<String> = words(text).iter().map(|t| t.to_string()).collect();
            assert!(first.len() > text.split(' ').count(), "{first:?}");
            assert_eq!(words(text), first, "{text}");
        }
    }

    /// The memory of splits answers only for the chunk it holds: another chunk of the same
    /// hash is not found, a chunk of more tokens than it keeps is not held, and after
    /// `REMEMBERED_CHUNKS` chunks it starts again.
    #[test]
    fn the_memory_of_splits_answers_for_its_own_chunks() {
        let mut splits = Splits::default();
        splits.remember("ab,", 7, &["ab", ","]);
        assert_eq!(splits.get("ab,", 7), Some(&[2u8, 1][..]));
        assert_eq!(splits.get("cd;", 7), None);
        assert_eq!(splits.get("ab,", 8), None);
        let many = "((((((((((((((((x";
        let tokens: Vec<&str> = (0..16).map(|_| "(").chain(["x"]).collect();
        splits.remember(many, 9, &tokens);
        assert_eq!(splits.get(many, 9), None);
        for i in 0..REMEMBERED_CHUNKS as u64 {
            splits.remember("ab,", 100 + i, &["ab", ","]);
        }
        assert_eq!(splits.get("ab,", 7), None);
        assert!(splits.bytes.len() <= 3 * REMEMBERED_CHUNKS);
        // A chunk of many tokens splits the same from memory or not.
        let text = format!("{many} {many}");
        assert_eq!(words(&text).len(), 34);
    }

    /// The shortcut for letters joined by hyphens gives what the rules give, on 20,000
    /// chunks of two to four runs drawn from words, exceptions and their letters.
    #[test]
    fn hyphenated_letters_split_as_the_rules_split() {
        // Runs of letters: plain words, both cases, exceptions ("dont", "Mr", "vs", "e"),
        // and the letters of emoticons and of exceptions that end in a mark.
        let runs = [
            "a", "A", "fern", "like", "Co", "workers", "OK", "dont", "Mr", "Dr", "vs", "e", "o",
            "D", "P", "x", "X", "cannot", "Im", "US", "Jan", "etc", "s", "n", "t", "ll", "co",
        ];
        let mut next = crate::draws(0x9e37_79b9_7f4a_7c15);
        let (mut shortcuts, mut chunks) = (0, 0);
        for _ in 0..20_000 {
            let parts = 2 + next(3);
            let chunk: Vec<&str> = (0..parts).map(|_| runs[next(runs.len())]).collect();
            let chunk = chunk.join("-");
            if special(&chunk).is_some() {
                continue;
            }
            chunks += 1;
            let mut by_rules = Vec::new();
            split_by_rules(&chunk, &mut by_rules);
            let mut fast = Vec::new();
            if hyphenated_letters(&chunk, &mut fast) {
                shortcuts += 1;
                assert_eq!(fast, by_rules, "{chunk}");
            } else {
                assert!(fast.is_empty(), "{chunk}");
            }
            assert_eq!(words(&chunk), by_rules, "{chunk}");
        }
        // No exception is made of letters and hyphens with a hyphen among them, so only
        // single tokens are looked up.
        for (key, _) in tables::SPECIALS {
            let bytes = key.as_bytes();
            let letters_and_hyphens = bytes.iter().all(|&b| b == b'-' || b.is_ascii_alphabetic());
            assert!(!(bytes.contains(&b'-') && letters_and_hyphens), "{key}");
        }
        // Other shapes are left to the rules.
        for chunk in ["-a", "a-", "a--b", "a-1", "a-b.", "a\u{2014}b", "ab"] {
            assert!(!hyphenated_letters(chunk, &mut Vec::new()), "{chunk}");
        }
        // Most chunks took the shortcut (those with an exception among their runs did not).
        assert!(shortcuts * 2 > chunks, "{shortcuts} of {chunks}");
    }

    /// The shortcut for letters and a possessive gives what the rules give, for words,
    /// exceptions and their letters before each of the four possessives and their near
    /// misses.
    #[test]
    fn possessive_letters_split_as_the_rules_split() {
        let letters = [
            "a", "A", "Earhart", "APPLE", "it", "It", "he", "let", "that", "dont", "Mr", "vs", "e",
            "o", "s", "S", "US", "cannot", "Im", "who", "what", "there", "ain", "y",
        ];
        let endings = [
            "'s",
            "'S",
            "\u{2019}s",
            "\u{2019}S",
            "'",
            "s'",
            "'d",
            "\u{2019}",
            "'ss",
            "\u{2018}s",
        ];
        let mut shortcuts = 0;
        for word in letters {
            for ending in endings {
                let chunk = format!("{word}{ending}");
                shortcuts += usize::from(shortcut_holds(&chunk, possessive_letters));
            }
        }
        assert!(shortcuts > 60, "{shortcuts}");
    }

    /// spaCy's special-case matcher over every run of tokens, the one-token runs of one-token
    /// exceptions too (which `apply_special_cases` skips), as a reference.
    fn special_cases_of_every_run<'a>(s: &'a str, out: &mut Vec<&'a str>, first: usize) {
        let tokens = &out[first..];
        let mut runs = Vec::new();
        for (a, b, key) in token_runs(s, tokens) {
            if let Some(special_tokens) = special(key)
                && split_as_run(key, &tokens[a..b])
            {
                runs.push((a, b, special_tokens));
            }
        }
        take_runs(s, out, first, runs);
    }

    /// The special-case matcher that skips one token of a one-token exception gives what the
    /// matcher over every run gives, on 20,000 chunks of two to five pieces drawn from words,
    /// marks, and exceptions of one token and of more.
    #[test]
    fn special_cases_skip_no_run_that_matters() {
        let pieces: Vec<&str> = "a Mr Smith it don t s e g i Inc US . , ' \u{2019} 's \u{2019}s \
            \u{2014} - ( ) : :) '' \" ... i.e. e.g. Inc. Mr. don't it's 're n't \u{b0}F 7 p.m. m. \
            cannot -- ;) 'll U.S. vs. &"
            .split(' ')
            .collect();
        let mut next = crate::draws(0x2545_f491_4f6c_dd1d);
        let mut matched = 0;
        for _ in 0..20_000 {
            let parts = 2 + next(4);
            let chunk: String = (0..parts).map(|_| pieces[next(pieces.len())]).collect();
            let mut split = Vec::new();
            split_chunk(&chunk, true, &mut split);
            let (mut skipping, mut every_run) = (split.clone(), split.clone());
            apply_special_cases(&chunk, &mut skipping, 0);
            special_cases_of_every_run(&chunk, &mut every_run, 0);
            assert_eq!(skipping, every_run, "{chunk}");
            matched += usize::from(every_run != split);
        }
        // The matcher joined or split again the tokens of many chunks.
        assert!(matched > 1000, "{matched}");
    }

    /// The shortcut for letters and a mark gives what the rules give, for every ASCII mark
    /// and common other ones, before and after letters of each case, exceptions ("Mr",
    /// "dont", "U.S") among them.
    #[test]
    fn letters_and_a_mark_split_as_the_rules_split() {
        let letters = [
            "a", "A", "q", "I", "ab", "Ab", "aB", "AB", "abc", "ABC", "xYz", "Mr", "Dr", "St",
            "dont", "Im", "US", "U", "Jan", "etc", "Inc", "vs", "e", "p", "no", "co", "cannot",
        ];
        let others = "\u{201c}\u{201d}\u{2018}\u{2019}\u{ab}\u{bb}\u{2026}\u{2014}\u{2013}\u{a9}\u{b0}\u{20ac}\u{b7}\u{3002}\u{a1}\u{bf}";
        let marks = ascii_marks().chain(others.chars());
        let mut shortcuts = 0;
        for mark in marks {
            for word in letters {
                for chunk in [format!("{word}{mark}"), format!("{mark}{word}")] {
                    let by_rules = by_the_rules(&chunk);
                    shortcuts += usize::from(mark_and_letters(&chunk).is_some());
                    assert_eq!(words(&chunk), by_rules, "{chunk}");
                }
            }
        }
        // Most chunks took the shortcut.
        assert!(shortcuts > 2000, "{shortcuts}");
    }

    /// The shortcut for letters and two marks gives what the rules give, for every pair of
    /// ASCII marks and common other ones after letters of each case, exceptions ("Mr", "dont",
    /// "U.S", "Inc") among them.
    #[test]
    fn letters_and_two_marks_split_as_the_rules_split() {
        let letters = [
            "a", "A", "q", "I", "ab", "Ab", "aB", "AB", "abc", "ABC", "xYz", "Mr", "Dr", "St",
            "dont", "Im", "US", "U", "Jan", "etc", "Inc", "vs", "e", "p", "no", "co", "cannot",
            "Co", "said", "CA", "USS",
        ];
        let others = "\u{201c}\u{201d}\u{2018}\u{2019}\u{ab}\u{bb}\u{2026}\u{2014}\u{2013}\u{a9}\u{b0}\u{20ac}\u{b7}";
        let marks: Vec<char> = ascii_marks().chain(others.chars()).collect();
        let mut shortcuts = 0;
        for &first in &marks {
            for &second in &marks {
                for word in letters {
                    let chunk = format!("{word}{first}{second}");
                    shortcuts += usize::from(shortcut_holds(&chunk, letters_then_two_marks));
                }
            }
        }
        // Most chunks took the shortcut.
        assert!(
            shortcuts * 2 > marks.len() * marks.len() * letters.len(),
            "{shortcuts}"
        );
    }

    /// `is_icon` tests a character against the icon class only when it is not ASCII: the
    /// class holds none.
    #[test]
    fn the_icon_class_holds_no_ascii_character() {
        assert!(tables::SYMBOL.iter().all(|&(lo, _)| lo >= 0x80));
        assert!((0..0x80u32).all(|c| !in_ranges(tables::SYMBOL, c)));
    }

    #[test]
    fn splits_as_spacy_does() {
        let cases: &[(&str, &[&str])] = &[
            ("$100", &["$", "100"]),
            ("($5)", &["(", "$", "5", ")"]),
            ("don't.", &["do", "n't", "."]),
            ("U.S.", &["U.S."]),
            ("hello...world", &["hello", "...", "world"]),
            ("e-mail", &["e", "-", "mail"]),
            ("x2+3", &["x2", "+", "3"]),
            ("©2020", &["©", "2020"]),
            ("10km.", &["10", "km", "."]),
            ("ABC.", &["ABC", "."]),
            ("“Hello,”", &["“", "Hello", ",", "”"]),
            ("www.example.com/a-b", &["www.example.com/a-b"]),
            ("http://x.y/z?a=b", &["http://x.y", "/", "z?a", "=", "b"]),
            ("it’s", &["it", "’s"]),
            ("Mr.Smith", &["Mr.", "Smith"]),
            ("a,b", &["a", ",", "b"]),
            ("3:45pm", &["3:45pm"]),
            ("co-op.", &["co", "-", "op", "."]),
            ("...", &["..."]),
            ("I.B.M.", &["I.B.M."]),
        ];
        for (text, want) in cases {
            assert_eq!(&toks(text), want, "{text}");
        }
    }

    #[test]
    fn white_space_other_than_one_space_is_a_token() {
        let mut all = Vec::new();
        tokens("a  b\nc", &mut all);
        assert_eq!(all, ["a", " ", "b", "\n", "c"]);
        assert_eq!(words("a  b\nc"), ["a", "b", "c"]);
    }

    /// The tokens of `text` by a character loop: runs of one kind, each split by `chunk`; a
    /// single ' ' right after a chunk of other characters is dropped from the white-space run
    /// that follows it.
    fn tokens_by_characters(text: &str) -> Vec<String> {
        let split = |run: &str, into: &mut Vec<String>| {
            let mut pieces = Vec::new();
            chunk(run, &mut pieces);
            into.extend(pieces.iter().map(|t| t.to_string()));
        };
        let mut expected = Vec::new();
        let mut run = String::new();
        let mut run_space = None;
        for c in text.chars() {
            let space = python::is_space(c);
            if run_space != Some(space) {
                if !run.is_empty() {
                    split(&run, &mut expected);
                }
                let after_word = run_space == Some(false);
                run.clear();
                run_space = Some(space);
                if space && c == ' ' && after_word {
                    continue;
                }
            }
            run.push(c);
        }
        if !run.is_empty() {
            split(&run, &mut expected);
        }
        expected
    }

    /// The scan cuts where `isspace` changes and absorbs one `' '` after a chunk, as a
    /// character loop does, on a million strings of up to 6 characters of letters, a mark,
    /// spaces of several kinds and non-ASCII letters.
    #[test]
    fn chunks_are_cut_where_white_space_begins_and_ends() {
        let alphabet = [
            'a', 'B', '.', ' ', ' ', '\t', '\n', '\u{a0}', '\u{e9}', '\u{2028}',
        ];
        for n in 0..1_000_000usize {
            let (mut rest, mut text) = (n, String::new());
            while rest > 0 || text.is_empty() {
                text.push(alphabet[rest % alphabet.len()]);
                rest /= alphabet.len();
            }
            let mut by_scan = Vec::new();
            tokens(&text, &mut by_scan);
            assert_eq!(by_scan, tokens_by_characters(&text), "{text:?}");
        }
    }

    /// A number and an ASCII mark split as the rules split them where the table knows the
    /// mark: every number of up to three digits with every ASCII mark, and longer ones.
    #[test]
    fn digits_and_a_mark_split_as_the_rules_split() {
        let numbers = (0..1_000u32)
            .flat_map(|n| (1..=3).map(move |w| format!("{n:0w$}")))
            .chain(["20111231", "3141592653589793"].map(String::from));
        let mut known = 0;
        for number in numbers {
            for mark in (0x21..0x7fu8).map(char::from) {
                let chunk = format!("{number}{mark}");
                let Some(split) = digits_then_mark(&chunk).filter(|_| special(&chunk).is_none())
                else {
                    continue;
                };
                known += 1;
                let mut tokens = Vec::new();
                split_by_rules(&chunk, &mut tokens);
                let expected = match split {
                    true => vec![number.as_str(), &chunk[number.len()..]],
                    false => vec![chunk.as_str()],
                };
                assert_eq!(tokens, expected, "{chunk:?}");
            }
        }
        // The common marks are known: "2011," "2008." "1999)" "80%".
        assert!(known > 3 * 1_110 * 20, "{known}");
        for chunk in ["2011,", "2008.", "1999)", "80%"] {
            assert!(digits_then_mark(chunk).is_some(), "{chunk}");
        }
    }

    /// The rules keep a number of ASCII digits whole, and none is an exception: every number
    /// of up to four digits, and longer ones drawn by a fixed generator.
    #[test]
    fn digits_are_one_token() {
        let mut next = crate::draws(0x2545_f491_4f6c_dd1d);
        let drawn = (0..2_000).map(|_| {
            (0..5 + next(40))
                .map(|_| (b'0' + next(10) as u8) as char)
                .collect()
        });
        let short = (0..10_000u32).flat_map(|n| (1..=4).map(move |w| format!("{n:0w$}")));
        for number in short.chain(drawn) {
            let number: String = number;
            let mut tokens = Vec::new();
            split_by_rules(&number, &mut tokens);
            assert_eq!(tokens, [number.as_str()]);
            assert_eq!(special(&number), None, "{number}");
        }
    }

    /// Runs of digits joined by single marks are one token by the rules where the shortcut
    /// says so, and split by them otherwise: 20,000 chunks of two to four runs of digits and
    /// the ASCII marks between them.
    #[test]
    fn joined_digits_are_one_token() {
        let marks: Vec<char> = ascii_marks().collect();
        let mut next = crate::draws(0x9e37_79b9_7f4a_7c15);
        let mut shortcuts = 0;
        for _ in 0..20_000 {
            let mut chunk: String = (0..1 + next(4))
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            for _ in 0..1 + next(3) {
                let joined = [':', ',', '.', '/'];
                let mark = match next(2) {
                    0 => joined[next(joined.len())],
                    _ => marks[next(marks.len())],
                };
                chunk.push(mark);
                chunk.extend((0..next(4)).map(|_| char::from(b'0' + next(10) as u8)));
            }
            if special(&chunk).is_some() {
                continue;
            }
            let mut by_rules = Vec::new();
            split_by_rules(&chunk, &mut by_rules);
            if is_joined_digits(&chunk) {
                shortcuts += 1;
                assert_eq!(by_rules, [chunk.as_str()]);
            }
            assert_eq!(words(&chunk), by_rules, "{chunk}");
        }
        assert!(shortcuts > 2_000, "{shortcuts}");
        for chunk in ["4:", ":4", "4::5", "4-5", ".5", "4.", "4,a"] {
            assert!(!is_joined_digits(chunk), "{chunk}");
        }
    }

    /// A run of white space is one token by the rules: every white-space character alone, in
    /// pairs and in threes (the scan gives such runs to `split` without splitting them).
    #[test]
    fn white_space_is_one_token() {
        let spaces: Vec<char> = (0..=0x10ffffu32)
            .filter_map(char::from_u32)
            .filter(|&c| python::is_space(c))
            .collect();
        assert!(spaces.len() > 20, "{spaces:?}");
        for &a in &spaces {
            for &b in &spaces {
                for run in [format!("{a}"), format!("{a}{b}"), format!("{a}{b}{a}")] {
                    let mut tokens = Vec::new();
                    chunk(&run, &mut tokens);
                    assert_eq!(tokens, [run.as_str()], "{run:?}");
                }
            }
        }
    }

    /// The eight-byte path for words of letters gives the character loop's tokens, and the
    /// words beside them are the tokens that are not white space, on 20,000 texts of pieces
    /// drawn by a fixed generator: words of 1 to 16 letters (exceptions such as "cannot" and
    /// "gonna" among them, which fail if the path skips the exceptions), marks, digits, one or
    /// two spaces, other white space (runs of it stepped over between words), control
    /// characters and non-ASCII letters, the piece after a word often a word again.
    #[test]
    fn words_of_letters_split_as_the_character_loop() {
        let pieces = [
            "a",
            "Ab",
            "the",
            "word",
            "cannot",
            "gonna",
            "letters",
            "abcdefgh",
            "abcdefghi",
            "Extraordinarily",
            "abcdefghijklmnop",
            "I",
            "don't",
            "U.S.",
            ",",
            ".",
            "\u{201c}",
            "9",
            "e-mail",
            " ",
            " ",
            "  ",
            "\n",
            "\t",
            "\u{a0}",
            "caf\u{e9}",
            "\u{4e2d}",
            "x\u{2028}",
            "{",
            "@",
            "`",
            "[",
            "z",
            // Letters and one mark: the marks' table, or an exception ("Mr." "etc." "dont").
            "Mr",
            "etc",
            "dont",
            "ABC",
            "Ph",
            ";",
            ":",
            "!",
            "?",
            ")",
            "'",
            "\"",
            "-",
            "\r",
            "\u{1c}",
            // A control character: no white space, and no byte that starts a chunk at once.
            "\u{7}",
        ];
        let mut next = crate::draws(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..next(40) {
                text.push_str(pieces[next(pieces.len())]);
                if next(2) == 0 {
                    text.push(' ');
                }
            }
            let (mut tokens, mut words) = (Vec::new(), Vec::new());
            super::tokens(&text, &mut tokens);
            words_into(&text, &mut words);
            assert_eq!(tokens, tokens_by_characters(&text), "{text:?}");
            let not_space: Vec<&str> = tokens
                .iter()
                .copied()
                .filter(|t| !is_space_token(t))
                .collect();
            assert_eq!(words, not_space, "{text:?}");
        }
    }

    #[test]
    fn every_exception_of_letters_passes_the_bit_set() {
        // The common chunk skips the exceptions' lookup when its bit is clear: an exception
        // of up to eight letters whose bit were clear would be kept whole ("dont", "Im").
        let mut letter_exceptions = 0;
        for (exception, tokens) in tables::SPECIALS {
            let bytes = exception.as_bytes();
            if bytes.len() > 15 || !bytes.iter().all(u8::is_ascii_alphabetic) {
                continue;
            }
            letter_exceptions += 1;
            // The bytes past the chunk are whatever follows it: the key must not read them.
            let mut eight = [b' '; 8];
            let first = bytes.len().min(8);
            eight[..first].copy_from_slice(&bytes[..first]);
            let first_eight = u64::from_le_bytes(eight);
            assert!(
                maybe_letters_special(first_eight, bytes.len()),
                "{exception}"
            );
            // And the chunk followed by one space splits as the exception says.
            let text = format!("{exception} next");
            let mut got = Vec::new();
            words_into(&text, &mut got);
            let mut want: Vec<&str> = tokens.to_vec();
            want.push("next");
            assert_eq!(got, want, "{exception}");
        }
        assert!(letter_exceptions > 100, "{letter_exceptions}");
    }

    /// Eight bytes of letters with one other byte value at one place: the count stops there.
    #[test]
    fn leading_letters_stop_at_the_first_other_byte() {
        for value in 0..=255u8 {
            for at in 0..8 {
                for letters in [*b"abcdefgh", *b"ZYXWVUTS", *b"aZbYcXdW"] {
                    let mut bytes = letters;
                    bytes[at] = value;
                    let expected = bytes
                        .iter()
                        .position(|b| !b.is_ascii_alphabetic())
                        .unwrap_or(8);
                    let got = leading_ascii_letters(u64::from_le_bytes(bytes));
                    assert_eq!(got, expected, "{bytes:?}");
                }
            }
        }
    }
}
