//! One document's text as every filter reads it: its length in code points, its words
//! (spaCy's English words, as DataTrove's `split_into_words`) split once, numbered once when a
//! filter first asks (`vocabulary.rs`), its lines (Python's `splitlines`), and the pieces
//! between its runs of line feeds with which of them repeat (`Repeats`), and its paragraphs
//! (read from the lines when the text breaks at line feeds only); all shared. A text
//! C4 rewrites to its kept lines takes their words from the page's split (`rejoined_words`).
//! spaCy's white-space tokens are not kept: they are the white space between two words other
//! than one `' '` (`words::sentences` reads them so).

use std::ops::Range;

use crate::vocabulary::{self, Vocabulary};
use crate::words::{python, spacy};

/// A document's text, measured once for all filters.
pub struct Doc<'a> {
    pub text: &'a str,
    /// Python's `len(text)`.
    pub chars: usize,
    /// DataTrove's `split_into_words(text)`: spaCy's tokens that are not white space
    /// (slices of `text`, in order).
    pub words: Vec<&'a str>,
    /// Python's `text.splitlines()`, split when a filter first asks.
    lines: std::cell::OnceCell<Vec<&'a str>>,
    /// Whether the text breaks at line feeds only (`lines_at_feeds`), when first asked.
    at_feeds: std::cell::OnceCell<bool>,
    /// The pieces between runs of line feeds, when a filter first asks.
    feed_lines: std::cell::OnceCell<Repeats<'a>>,
    /// The words numbered, when a filter first asks.
    vocabulary: std::cell::OnceCell<Vocabulary<'a>>,
}

impl<'a> Doc<'a> {
    pub fn new(text: &'a str) -> Doc<'a> {
        Doc::of_parts(text, spacy::words(text))
    }

    /// Where the words of the text C4 leaves are in it, when that text is the lines `kept`
    /// of this one (byte ranges of stripped, not empty lines, in order) joined by line
    /// feeds: these lines' words, so that text is not split again ([`Doc::with_words`]). A
    /// line's words are the same in both texts: spaCy splits each chunk alone, a stripped
    /// line's first and last chunks are no white space, and a line break is white space, so
    /// no chunk spans two lines.
    pub(crate) fn rejoined_words(&self, kept: &[Range<usize>]) -> Vec<Range<usize>> {
        let mut words = Vec::with_capacity(self.words.len());
        let mut at = 0;
        for line in kept {
            for word in self.words_within(&self.text[line.clone()]) {
                let start = at + self.offset(word) - line.start;
                words.push(start..start + word.len());
            }
            // The line and the line feed after it.
            at += line.len() + 1;
        }
        words
    }

    /// The document of `text` whose words are at `words` (from [`Doc::rejoined_words`]).
    pub(crate) fn with_words(text: &'a str, words: &[Range<usize>]) -> Doc<'a> {
        Doc::of_parts(text, words.iter().map(|w| &text[w.clone()]).collect())
    }

    /// The document of `text`: with its words at `words` when they are known, else split.
    pub(crate) fn split_unless_known(text: &'a str, words: Option<&[Range<usize>]>) -> Doc<'a> {
        match words {
            Some(words) => Doc::with_words(text, words),
            None => Doc::new(text),
        }
    }

    fn of_parts(text: &'a str, words: Vec<&'a str>) -> Doc<'a> {
        Doc {
            text,
            chars: python::len(text),
            words,
            lines: std::cell::OnceCell::new(),
            at_feeds: std::cell::OnceCell::new(),
            feed_lines: std::cell::OnceCell::new(),
            vocabulary: std::cell::OnceCell::new(),
        }
    }

    /// The words numbered (Gopher quality and repetition both read them).
    pub(crate) fn vocabulary(&self) -> &Vocabulary<'a> {
        self.vocabulary
            .get_or_init(|| vocabulary::number(self.text, &self.words))
    }

    /// Python's `text.splitlines()` (Gopher quality and C4 both read them).
    pub fn lines(&self) -> &[&'a str] {
        self.lines.get_or_init(|| python::splitlines(self.text))
    }

    /// `re.split(r"\n+", text)`, and which of those lines repeat an earlier one (Gopher
    /// repetition reads them all, FineWeb those that are not blank: a line equal to an
    /// earlier one is blank exactly when that one is).
    pub(crate) fn feed_lines(&self) -> &Repeats<'a> {
        self.feed_lines.get_or_init(|| {
            let split = self.lines_at_feeds().map(|lines| {
                // The lines that are not empty, with an empty piece before a text that
                // starts with a line feed and after one that ends with one (or is empty).
                let bytes = self.text.as_bytes();
                let mut pieces = Vec::with_capacity(lines.len() + 2);
                if bytes.first() == Some(&b'\n') {
                    pieces.push(&self.text[..0]);
                }
                pieces.extend(lines.iter().filter(|l| !l.is_empty()));
                if bytes.last().is_none_or(|&b| b == b'\n') {
                    pieces.push(&self.text[self.text.len()..]);
                }
                pieces
            });
            Repeats::of(split.unwrap_or_else(|| python::split_line_feed_runs(self.text, 1)))
        })
    }

    /// How many line feeds the text holds: one after each line, but the last when the text
    /// does not end in one, when it breaks at line feeds only; else counted.
    pub(crate) fn line_feeds(&self) -> usize {
        match self.lines_at_feeds() {
            Some(lines) => {
                lines.len() - usize::from(self.text.as_bytes().last().is_some_and(|&b| b != b'\n'))
            }
            None => memchr::memchr_iter(b'\n', self.text.as_bytes()).count(),
        }
    }

    /// `re.split(r"\n\n+", text.strip())`: the paragraphs (Gopher repetition).
    pub(crate) fn paragraphs(&self) -> Vec<&'a str> {
        let stripped = python::strip(self.text);
        let Some(lines) = self.lines_at_feeds() else {
            return python::split_line_feed_runs(stripped, 2);
        };
        if stripped.is_empty() {
            return vec![stripped];
        }
        // The stripped text's lines (the first and last cut to it), runs of those that
        // are not empty joined: an empty line is two line feeds in a row.
        let (start, end) = (
            self.offset(stripped),
            self.offset(stripped) + stripped.len(),
        );
        let mut paragraphs = Vec::new();
        let mut open: Option<usize> = None;
        let mut last_end = start;
        for line in lines {
            let (at, line_end) = (self.offset(line), self.offset(line) + line.len());
            if line_end <= start || at >= end {
                continue;
            }
            if line.is_empty() {
                if let Some(from) = open.take() {
                    paragraphs.push(&self.text[from..last_end]);
                }
                continue;
            }
            open.get_or_insert(at.max(start));
            last_end = line_end.min(end);
        }
        if let Some(from) = open {
            paragraphs.push(&self.text[from..last_end]);
        }
        paragraphs
    }

    /// The lines, when the text breaks at line feeds only: each line but the last ends in
    /// one line feed, and the last in one or at the text's end. The pieces between runs of
    /// line feeds are then read from them, not searched for again (3.5M instructions on
    /// dragnet's texts, whose lines the signals split in any case).
    fn lines_at_feeds(&self) -> Option<&[&'a str]> {
        let lines = self.lines();
        let at_feeds = *self.at_feeds.get_or_init(|| {
            let bytes = self.text.as_bytes();
            let mut next = 0;
            for line in lines {
                let at = self.offset(line);
                if at != next {
                    return false;
                }
                let end = at + line.len();
                match bytes.get(end) {
                    Some(b'\n') | None => next = end + 1,
                    Some(_) => return false,
                }
            }
            next >= bytes.len()
        });
        at_feeds.then_some(lines)
    }

    /// Byte offset of `part` (a slice of the text) in the text.
    pub fn offset(&self, part: &str) -> usize {
        part.as_ptr() as usize - self.text.as_ptr() as usize
    }

    /// The words inside `part`, a slice of the text that starts and ends at a token
    /// boundary with white space (or the text's ends) around it: a stripped line.
    pub fn words_within(&self, part: &str) -> &[&'a str] {
        let start = self.offset(part);
        let end = start + part.len();
        let first = self.words.partition_point(|w| self.offset(w) < start);
        let last = self.words.partition_point(|w| self.offset(w) < end);
        &self.words[first..last]
    }
}

/// A word of up to 7 bytes as one number: its bytes (first lowest) and its length in the top
/// byte. Two short words have the same key exactly when they are equal, and no short word's
/// key has a top byte of 0 (the empty word's key is 0).
pub(crate) fn short_key(word: &[u8]) -> Option<u64> {
    (word.len() <= 7).then(|| {
        // A fold, where copying into an array called memcpy.
        let bytes = word.iter().rev().fold(0u64, |key, &b| key << 8 | b as u64);
        bytes | (word.len() as u64) << 56
    })
}

/// `short_key(word)` for a word that is a slice of `text`: its eight bytes of the text read at
/// once (`bytes_from`) and those past it masked off.
pub(crate) fn short_key_in(text: &[u8], word: &[u8]) -> Option<u64> {
    let len = word.len();
    if len > 7 {
        return None;
    }
    match bytes_from::<8>(text, word) {
        Some(eight) => {
            let mask = (1u64 << (8 * len)) - 1;
            Some(u64::from_le_bytes(eight) & mask | (len as u64) << 56)
        }
        None => short_key(word),
    }
}

/// The `N` bytes of `text` from where `word` starts in it, when `word` is a slice of it of at
/// most `N` bytes with `N` bytes of the text from its start (its own, then the text's after
/// it): read at once, where copying a short word's own bytes cost a call. Words are
/// slices of their document's text (`Doc`'s invariant); any other word gives `None`, and is
/// read as it is.
pub(crate) fn bytes_from<const N: usize>(text: &[u8], word: &[u8]) -> Option<[u8; N]> {
    if word.len() > N {
        return None;
    }
    let at = (word.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    // Two shared slices over the same bytes hold the same bytes: a word whose start lies
    // inside the text, with its bytes in it, is those bytes of the text. (The last start
    // with `N` bytes after it is the same for every word: one comparison a word.)
    let last_start = text.len().checked_sub(N)?;
    if at > last_start {
        return None;
    }
    Some(text[at..at + N].try_into().expect("N bytes"))
}

/// `a * b` folded to 64 bits (the high half xor the low): the step of `folded_hash` and of
/// the hash of words of 8 to 15 bytes (the word numbering).
pub(crate) fn folded_multiply(a: u64, b: u64) -> u64 {
    let product = a as u128 * b as u128;
    product as u64 ^ (product >> 64) as u64
}

/// `a / b` as Python divides two counts, except that nothing divided by nothing is 0 (where
/// Python raises, DataTrove's filters have already returned).
pub(crate) fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// A threshold as DataTrove tests it, for truth: `None` and 0 turn its rule off.
pub(crate) fn enabled(threshold: Option<f64>) -> Option<f64> {
    threshold.filter(|&v| v != 0.0)
}

/// A 64-bit hash of `bytes` and their length: sixteen bytes a step, their two halves
/// multiplied, then the last sixteen (overlapping the step before when the length is no
/// multiple of 16); fewer than sixteen as one or two numbers. The key of a long repeated
/// n-gram (Gopher repetition) and the hash of a line among the repeats (`Repeats`). Inlined
/// always: the n-gram passes call it for 16 bytes or more, and there the other branches go;
/// called, it cost 19M instructions more on dragnet's texts.
#[inline(always)]
pub(crate) fn folded_hash(bytes: &[u8]) -> u64 {
    const STEP: u64 = 0x9e37_79b9_7f4a_7c15;
    let eight = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("eight bytes"));
    let n = bytes.len();
    let mut hash = 0x243f_6a88_85a3_08d3 ^ n as u64;
    if n >= 16 {
        for chunk in bytes[..n - 1].chunks_exact(16) {
            hash = folded_multiply(eight(&chunk[..8]) ^ STEP, eight(&chunk[8..]) ^ hash);
        }
        let last = &bytes[n - 16..];
        folded_multiply(eight(&last[..8]) ^ STEP, eight(&last[8..]) ^ hash)
    } else if n >= 8 {
        folded_multiply(eight(&bytes[..8]) ^ STEP, eight(&bytes[n - 8..]) ^ hash)
    } else {
        let short = bytes.iter().rev().fold(0u64, |k, &b| k << 8 | u64::from(b));
        folded_multiply(short ^ STEP, hash)
    }
}

/// A string hashed by all its bytes (`folded_hash`), compared whole. FxHash's eight bytes a
/// step cost 0.9M instructions more on dragnet's lines (170 bytes on average). A hash of the
/// ends alone cost 1.4M less, but lines that differ only inside (a list of files can) would
/// all have had one hash, and each would have been compared with all before it.
#[derive(PartialEq, Eq)]
struct Whole<'a>(&'a str);

impl std::hash::Hash for Whole<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(folded_hash(self.0.as_bytes()));
    }
}

/// Strings, each with whether it repeats an earlier one of them.
pub(crate) struct Repeats<'a> {
    pub elements: Vec<&'a str>,
    pub repeats: Vec<bool>,
}

impl<'a> Repeats<'a> {
    pub(crate) fn of(elements: Vec<&'a str>) -> Repeats<'a> {
        if elements.len() < 2 {
            // Nothing to repeat (a text of one paragraph, the common case: not hashed).
            let repeats = vec![false; elements.len()];
            return Repeats { elements, repeats };
        }
        let mut seen = outward_base::fxhash::FxHashSet::default();
        // Sized once: growing it rehashed every element again.
        seen.reserve(elements.len());
        let repeats = elements.iter().map(|&e| !seen.insert(Whole(e))).collect();
        Repeats { elements, repeats }
    }

    /// The elements that repeat an earlier one.
    pub(crate) fn repeated(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.elements
            .iter()
            .zip(&self.repeats)
            .filter_map(|(&e, &repeats)| repeats.then_some(e))
    }

    /// DataTrove's `find_duplicates`: how many elements repeat an earlier one, and their
    /// characters.
    pub(crate) fn duplicates(&self) -> (usize, usize) {
        self.repeated()
            .fold((0, 0), |(n, chars), e| (n + 1, chars + python::len(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines that differ only inside are no repeats of each other; equal ones are, whatever
    /// their length.
    #[test]
    fn repeats_are_equal_strings() {
        let files: Vec<String> = (0..300)
            .map(|i| format!("Download file_{i:05}.pdf (1.2 MB) now."))
            .collect();
        let mut lines: Vec<&str> = files.iter().map(String::as_str).collect();
        lines.extend([
            "",
            "a",
            "",
            "seven77",
            "a",
            "sixteen bytes..",
            "sixteen bytes..",
        ]);
        lines.push(&files[7]);
        let r = Repeats::of(lines);
        let repeated: Vec<&str> = r.repeated().collect();
        assert_eq!(repeated, ["", "a", "sixteen bytes..", files[7].as_str()]);
    }

    /// The pieces between line feeds read from the lines are those of splitting the text:
    /// texts drawn from words, white space, line feeds in runs, and the other line breaks
    /// (whose texts are split as before), at their ends too.
    #[test]
    fn feed_lines_and_paragraphs_read_from_the_lines_are_the_splits() {
        let pieces = [
            "a", "bc", " ", "\t", "\n", "\n\n", "\n\n\n", " \n", "\r\n", "\r", "\u{85}",
            "\u{2028}", "\x0c", "\u{a0}", "\u{3000}",
        ];
        let mut next = crate::draws(0x9e37_79b9_7f4a_7c15);
        let mut read = 0;
        for _ in 0..20_000 {
            let text = crate::drawn_text(&mut next, &pieces, 12);
            let doc = Doc::new(&text);
            assert_eq!(
                doc.feed_lines().elements,
                python::split_line_feed_runs(&text, 1),
                "{text:?}"
            );
            assert_eq!(
                doc.paragraphs(),
                python::split_line_feed_runs(python::strip(&text), 2),
                "{text:?}"
            );
            read += usize::from(doc.lines_at_feeds().is_some());
            assert_eq!(doc.line_feeds(), text.matches('\n').count(), "{text:?}");
        }
        // Both ways were taken.
        assert!(read > 2_000 && read < 18_000, "{read}");
    }

    #[test]
    fn a_short_key_read_from_the_text_is_the_words_own() {
        let text = "a bc déjà vu seven77 eightchr x";
        let words: Vec<&str> = text.split(' ').collect();
        for word in &words {
            let own = short_key(word.as_bytes());
            assert_eq!(
                short_key_in(text.as_bytes(), word.as_bytes()),
                own,
                "{word}"
            );
            // Read from another text (or none), the word is read as it is.
            assert_eq!(short_key_in(b"", word.as_bytes()), own, "{word}");
        }
        assert_eq!(short_key(b"eightchr"), None);
        assert_eq!(short_key(b""), Some(0));
        // Near the end of the text too few bytes follow to read eight at once.
        let end = &text.as_bytes()[text.len() - 1..];
        assert_eq!(bytes_from::<8>(text.as_bytes(), end), None);
        assert_eq!(short_key_in(text.as_bytes(), end), short_key(b"x"));
        // Distinct short words, distinct keys; the length tells "a" from "a\0".
        assert_ne!(short_key(b"a"), short_key(b"a\0"));
        assert_ne!(short_key(b"ab"), short_key(b"ba"));
        assert_eq!(short_key(b"ab"), Some(2 << 56 | 0x6261));
    }
}
