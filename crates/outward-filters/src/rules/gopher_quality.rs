//! Gopher's quality rules (Rae et al. 2021, Table A1) as DataTrove's `GopherQualityFilter`
//! applies them, in its order: word count, mean word length, `#` and ellipses per word,
//! bullet and ellipsis lines, words with a letter, stop words.

use outward_base::counts::FilterRule;
use serde::{Deserialize, Serialize};

use crate::doc::{Doc, bytes_from, enabled, ratio, short_key};
use crate::table::Table;
use crate::words::{is_datatrove_punctuation, python, spacy};
use memchr::memmem;

/// DataTrove's arguments and defaults; `null` turns a rule off, as `None` does there.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    pub min_doc_words: Option<u64>,
    pub max_doc_words: Option<u64>,
    pub min_avg_word_length: Option<f64>,
    pub max_avg_word_length: Option<f64>,
    pub max_symbol_word_ratio: Option<f64>,
    pub max_bullet_lines_ratio: Option<f64>,
    pub max_ellipsis_lines_ratio: Option<f64>,
    pub max_non_alpha_words_ratio: Option<f64>,
    pub min_stop_words: Option<u64>,
    pub stop_words: Vec<String>,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            min_doc_words: Some(50),
            max_doc_words: Some(100_000),
            min_avg_word_length: Some(3.0),
            max_avg_word_length: Some(10.0),
            max_symbol_word_ratio: Some(0.1),
            max_bullet_lines_ratio: Some(0.9),
            max_ellipsis_lines_ratio: Some(0.3),
            max_non_alpha_words_ratio: Some(0.8),
            min_stop_words: Some(2),
            stop_words: ["the", "be", "to", "of", "and", "that", "have", "with"]
                .map(String::from)
                .to_vec(),
        }
    }
}

/// What the rules decide on (written by `Signals`' serialisation in lib.rs).
#[derive(Debug, Clone, PartialEq)]
pub struct Signals {
    /// Words (spaCy's), punctuation-only ones included.
    pub words: usize,
    /// Words with a character that is not punctuation.
    pub non_symbol_words: usize,
    /// Their mean length in characters (0 without any).
    pub mean_word_length: f64,
    /// `#` per word.
    pub hash_word_ratio: f64,
    /// `...` and `…` per word.
    pub ellipsis_word_ratio: f64,
    /// Lines starting with `•` or `-`, of all lines.
    pub bullet_lines_ratio: f64,
    /// Lines ending with `...` or `…`, of all lines.
    pub end_ellipsis_lines_ratio: f64,
    /// Words with a letter, of all words.
    pub alpha_words_ratio: f64,
    /// Distinct stop words.
    pub stop_words: usize,
}

/// [`BYTE_CLASS`]' bits.
const PUNCTUATION: u8 = 1;
const LETTER: u8 = 2;
const NOT_ASCII: u8 = 4;

/// What each byte is to the word rules: an ASCII character of DataTrove's punctuation, an
/// ASCII letter, or a byte of a character that is not ASCII.
static BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = if b >= 0x80 {
            NOT_ASCII
        } else if (b as u8).is_ascii_alphabetic() {
            LETTER
        } else if crate::words::is_ascii_datatrove_punctuation(b as u8) {
            PUNCTUATION
        } else {
            0
        };
        b += 1;
    }
    table
};

/// What the rules count of one word.
struct Word {
    symbols_only: bool,
    has_alpha: bool,
    /// Python's `len`.
    chars: usize,
    /// Which stop word it is.
    stop: Option<usize>,
}

/// Reads words as the rules count them, with the stop words prepared once.
struct WordsOf<'t> {
    stop_words: &'t [String],
    /// The byte lengths of the stop words (up to 63): most words are none of them.
    stop_lengths: u64,
    /// Short stop words as numbers (`short_key`), to the first place each has in the list:
    /// a word of a stop word's length is looked up at once (a search of the list compared
    /// it with every stop word, about 9M instructions on dragnet's texts).
    short_stops: Table<u64, u32>,
}

impl<'t> WordsOf<'t> {
    fn new(thresholds: &'t Thresholds) -> WordsOf<'t> {
        let stop_words = &thresholds.stop_words;
        WordsOf {
            stop_words,
            stop_lengths: stop_words.iter().fold(0u64, |m, s| {
                m | 1u64.checked_shl(s.len() as u32).unwrap_or(0)
            }),
            short_stops: {
                let mut table = Table::default();
                table.reset(stop_words.len());
                for (i, s) in stop_words.iter().enumerate() {
                    if let Some(key) = short_key(s.as_bytes()) {
                        // A stop word listed twice keeps its first place.
                        table.entry(key, i as u32);
                    }
                }
                table
            },
        }
    }

    /// The word `w`, a slice of `text` (else read as it is), of key `key` in the document's
    /// vocabulary: a word of up to 7 bytes is read from its key.
    fn word(&self, text: &[u8], w: &str, key: u64) -> Word {
        let short = w.len() <= 7;
        let letters = match short {
            // The key's bytes after the word's are zeros and its length (under 8): no letter.
            true => !w.is_empty() && spacy::leading_ascii_letters(key) >= w.len(),
            false => ascii_letters(text, w),
        };
        let (symbols_only, has_alpha, chars) = if letters {
            // Most words: no punctuation, a letter, a character a byte.
            (false, true, w.len())
        } else {
            // One look at each byte: what every byte is (punctuation), and what any is (a
            // letter, or not ASCII: then the characters are read).
            let (every, any) = w.bytes().fold((PUNCTUATION, 0), |(every, any), b| {
                let class = BYTE_CLASS[b as usize];
                (every & class, any | class)
            });
            if any & NOT_ASCII == 0 {
                (every & PUNCTUATION != 0, any & LETTER != 0, w.len())
            } else {
                (
                    w.chars().all(is_datatrove_punctuation),
                    w.chars().any(python::is_alpha),
                    python::len(w),
                )
            }
        };
        let maybe_stop = w.len() >= 64 || self.stop_lengths & (1 << w.len()) != 0;
        let stop = maybe_stop
            .then(|| match short {
                true => self.short_stops.get(key).map(|&i| i as usize),
                false => self.stop_words.iter().position(|s| s == w),
            })
            .flatten();
        Word {
            symbols_only,
            has_alpha,
            chars,
            stop,
        }
    }
}

/// Whether `w` (a slice of `text`, else read as it is) is one to sixteen ASCII letters: its
/// sixteen bytes of the text read at once.
fn ascii_letters(text: &[u8], w: &str) -> bool {
    let len = w.len();
    match bytes_from::<16>(text, w.as_bytes()) {
        Some(sixteen) if len > 0 => {
            let half = |at: usize| {
                u64::from_le_bytes(sixteen[at..at + 8].try_into().expect("eight bytes"))
            };
            let mut letters = spacy::leading_ascii_letters(half(0));
            if letters == 8 {
                letters += spacy::leading_ascii_letters(half(8));
            }
            letters >= len
        }
        _ => len > 0 && len <= 16 && w.bytes().all(|b| b.is_ascii_alphabetic()),
    }
}

/// The word counts of a document.
struct Totals {
    non_symbol: usize,
    non_symbol_chars: usize,
    alpha: usize,
    stop_seen: Vec<bool>,
}

impl Totals {
    fn new(stop_words: usize) -> Totals {
        Totals {
            non_symbol: 0,
            non_symbol_chars: 0,
            alpha: 0,
            stop_seen: vec![false; stop_words],
        }
    }

    /// Counts `word`, found `n` times.
    fn add(&mut self, word: &Word, n: usize) {
        if !word.symbols_only {
            self.non_symbol += n;
            self.non_symbol_chars += n * word.chars;
        }
        if word.has_alpha {
            self.alpha += n;
        }
        if let Some(i) = word.stop {
            self.stop_seen[i] = true;
        }
    }
}

pub fn measure(doc: &Doc, thresholds: &Thresholds) -> Signals {
    let text = doc.text;
    let words = &doc.words;
    let words_of = WordsOf::new(thresholds);
    let mut totals = Totals::new(thresholds.stop_words.len());
    // Each distinct word is read once, and counted as often as it occurs.
    let vocabulary = doc.vocabulary();
    let keyed = vocabulary.distinct.iter().zip(&vocabulary.keys);
    for ((w, &key), &n) in keyed.zip(&vocabulary.counts) {
        totals.add(&words_of.word(text.as_bytes(), w, key), n as usize);
    }
    let Totals {
        non_symbol,
        non_symbol_chars,
        alpha,
        stop_seen,
    } = totals;
    let lines = doc.lines();
    let bullets = lines
        .iter()
        .filter(|l| {
            let l = python::lstrip(l);
            l.starts_with('•') || l.starts_with('-')
        })
        .count();
    let end_ellipsis = lines
        .iter()
        .filter(|l| {
            let l = python::rstrip(l);
            l.ends_with("...") || l.ends_with('…')
        })
        .count();
    Signals {
        words: words.len(),
        non_symbol_words: non_symbol,
        mean_word_length: ratio(non_symbol_chars, non_symbol),
        hash_word_ratio: ratio(
            memchr::memchr_iter(b'#', text.as_bytes()).count(),
            words.len(),
        ),
        ellipsis_word_ratio: ratio(
            memmem::find_iter(text.as_bytes(), "...").count()
                + memmem::find_iter(text.as_bytes(), "…").count(),
            words.len(),
        ),
        bullet_lines_ratio: ratio(bullets, lines.len()),
        end_ellipsis_lines_ratio: ratio(end_ellipsis, lines.len()),
        alpha_words_ratio: ratio(alpha, words.len()),
        stop_words: stop_seen.iter().filter(|&&s| s).count(),
    }
}

/// The first rule that drops the document, in DataTrove's order.
pub fn decide(s: &Signals, t: &Thresholds) -> Option<FilterRule> {
    // DataTrove tests each threshold for truth: 0 turns a rule off as `None` does.
    let on_count = |x: Option<u64>| x.filter(|&v| v != 0);
    if on_count(t.min_doc_words).is_some_and(|m| (s.non_symbol_words as u64) < m) {
        return Some(FilterRule::GopherShortDoc);
    }
    if on_count(t.max_doc_words).is_some_and(|m| s.non_symbol_words as u64 > m) {
        return Some(FilterRule::GopherLongDoc);
    }
    // numpy's mean of no words is NaN, and NaN compares false.
    let mean = if s.non_symbol_words == 0 {
        f64::NAN
    } else {
        s.mean_word_length
    };
    if enabled(t.min_avg_word_length).is_some_and(|m| mean < m) {
        return Some(FilterRule::GopherBelowAvgThreshold);
    }
    if enabled(t.max_avg_word_length).is_some_and(|m| mean > m) {
        return Some(FilterRule::GopherAboveAvgThreshold);
    }
    if enabled(t.max_symbol_word_ratio).is_some_and(|m| s.hash_word_ratio > m) {
        return Some(FilterRule::GopherTooManyHashes);
    }
    if enabled(t.max_symbol_word_ratio).is_some_and(|m| s.ellipsis_word_ratio > m) {
        return Some(FilterRule::GopherTooManyEllipsis);
    }
    if enabled(t.max_bullet_lines_ratio).is_some_and(|m| s.bullet_lines_ratio > m) {
        return Some(FilterRule::GopherTooManyBullets);
    }
    if enabled(t.max_ellipsis_lines_ratio).is_some_and(|m| s.end_ellipsis_lines_ratio > m) {
        return Some(FilterRule::GopherTooManyEndEllipsis);
    }
    if enabled(t.max_non_alpha_words_ratio).is_some_and(|m| s.alpha_words_ratio < m) {
        return Some(FilterRule::GopherBelowAlphaThreshold);
    }
    if on_count(t.min_stop_words).is_some_and(|m| (s.stop_words as u64) < m) {
        return Some(FilterRule::GopherEnoughStopWords);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stop words are counted once each, as DataTrove counts the set of them the text holds:
    /// short ones looked up by their number, a long one by its string, one listed twice
    /// once.
    #[test]
    fn stop_words_are_found_short_and_long() {
        let thresholds = Thresholds {
            stop_words: ["the", "extraordinary", "the", "of", "and"]
                .map(String::from)
                .to_vec(),
            ..Thresholds::default()
        };
        let doc = Doc::new("The extraordinary cat and the hat, the end.");
        // "the", "extraordinary" and "and" ("The" is no stop word: the case differs).
        assert_eq!(measure(&doc, &thresholds).stop_words, 3);
    }

    /// A word's key as the vocabulary gives it (a long word's is not read).
    fn key_of(w: &str) -> u64 {
        short_key(w.as_bytes()).unwrap_or(crate::vocabulary::LONG)
    }

    /// A word read from its text (sixteen bytes at once for letters) or from its key (up to
    /// seven bytes) is the word read as it is, character by character: words of letters up
    /// to and past sixteen, at the text's end, with marks, digits and characters that are not
    /// ASCII, next to letters in the text.
    #[test]
    fn a_word_read_from_its_text_is_the_word_read_alone() {
        let text = "a be the that have with Extraordinary abcdefghijklmnop abcdefghijklmnopq \
            cat, (x) ### ... caf\u{e9} na\u{ef}ve 12 x1 \u{2026} \u{2022} - Z";
        let thresholds = Thresholds::default();
        let words_of = WordsOf::new(&thresholds);
        let mut words: Vec<&str> = text.split(' ').collect();
        // Parts of words, whose bytes after them in the text are letters.
        words.extend(
            ["abcdefghijklmno", "Extra", "ca", "th", "abcdefghijklmnop"].map(|p| {
                let at = text.find(p).unwrap();
                &text[at..at + p.len()]
            }),
        );
        for w in words {
            let key = key_of(w);
            let (read, alone) = (
                words_of.word(text.as_bytes(), w, key),
                words_of.word(b"", w, key),
            );
            // What DataTrove asks of the word, char by char.
            let truth = (
                w.chars().all(is_datatrove_punctuation),
                w.chars().any(python::is_alpha),
                python::len(w),
                thresholds.stop_words.iter().position(|s| s == w),
            );
            for word in [read, alone] {
                let got = (word.symbols_only, word.has_alpha, word.chars, word.stop);
                assert_eq!(got, truth, "{w:?}");
            }
        }
        assert!(ascii_letters(text.as_bytes(), "abcdefghijklmnop"));
        assert!(!ascii_letters(
            text.as_bytes(),
            &text[text.find("abcdefghijklmnopq").unwrap()..][..17]
        ));
        assert!(!ascii_letters(text.as_bytes(), "cat,"));
    }

    /// Counting each distinct word once by the document's ids gives the counts of reading
    /// every word.
    #[test]
    fn counts_from_the_ids_are_the_counts_of_the_words() {
        let text = "The cat, the hat... and the bat! ### caf\u{e9} \u{2022} na\u{ef}ve ...\n\
            - the the and \u{2026} 12 (x) x x x";
        let thresholds = Thresholds::default();
        let doc = Doc::new(text);
        let by_ids = measure(&doc, &thresholds);
        let words_of = WordsOf::new(&thresholds);
        let mut by_words = Totals::new(thresholds.stop_words.len());
        doc.words
            .iter()
            .for_each(|w| by_words.add(&words_of.word(text.as_bytes(), w, key_of(w)), 1));
        assert!(doc.vocabulary().distinct.len() < doc.words.len());
        assert_eq!(by_ids.non_symbol_words, by_words.non_symbol);
        assert_eq!(
            by_ids.mean_word_length,
            by_words.non_symbol_chars as f64 / by_words.non_symbol as f64
        );
        assert_eq!(
            by_ids.alpha_words_ratio,
            by_words.alpha as f64 / doc.words.len() as f64
        );
        assert_eq!(by_ids.stop_words, 2);
        assert_eq!(by_words.stop_seen.iter().filter(|&&s| s).count(), 2);
    }

    /// Stop words are counted by the word, each once, whatever their length (short ones
    /// compared as numbers, long and non-ASCII ones as strings): case matters, and a word
    /// that only starts like a stop word is none.
    #[test]
    fn stop_words_are_counted_as_distinct_equal_words() {
        let thresholds = Thresholds {
            stop_words: [
                "the",
                "and",
                "nonetheless",
                "caf\u{e9}",
                "a",
                "zzzzzzz",
                "zzzzzzzz",
            ]
            .map(String::from)
            .to_vec(),
            ..Thresholds::default()
        };
        let count = |text: &str| measure(&Doc::new(text), &thresholds).stop_words;
        assert_eq!(
            count("The THE then andy nonethelesss cafe zzzzzz zzzzzzzzz"),
            0
        );
        assert_eq!(count("the the and"), 2);
        assert_eq!(count("nonetheless, a caf\u{e9} zzzzzzz zzzzzzzz"), 5);
    }
}
