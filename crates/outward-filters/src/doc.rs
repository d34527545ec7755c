//! One document's text as every filter reads it: its length in code points and its words
//! (spaCy's English words, as DataTrove's `split_into_words`), split once and shared.

use crate::words::{python, spacy};

/// A document's text, measured once for all filters.
pub struct Doc<'a> {
    pub text: &'a str,
    /// Python's `len(text)`.
    pub chars: usize,
    /// DataTrove's `split_into_words(text)`.
    pub words: Vec<&'a str>,
}

impl<'a> Doc<'a> {
    pub fn new(text: &'a str) -> Doc<'a> {
        Doc {
            text,
            chars: python::len(text),
            words: spacy::words(text),
        }
    }
}

/// `a / b` as Python divides two counts, except that nothing divided by nothing is 0 (where
/// Python raises, DataTrove's filters have already returned).
pub(crate) fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// DataTrove's `find_duplicates`: how many elements repeat an earlier one, and their
/// characters.
pub(crate) fn find_duplicates<'a>(elements: impl IntoIterator<Item = &'a str>) -> (usize, usize) {
    let mut seen = crate::words::FxHashSet::default();
    let (mut elements_dup, mut chars_dup) = (0, 0);
    for e in elements {
        if !seen.insert(e) {
            elements_dup += 1;
            chars_dup += python::len(e);
        }
    }
    (elements_dup, chars_dup)
}
