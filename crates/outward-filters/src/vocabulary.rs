//! A document's words numbered: [`Vocabulary`], made by [`number`] once per document for
//! every filter that counts words (Gopher quality reads each distinct word once, Gopher
//! repetition compares n-grams by their words' ids).
//!
//! Invariants: equal words have equal ids and different words different ids, numbered from 0
//! in order of first occurrence (a word of up to 7 bytes is its own key; a longer word's key
//! is a hash, checked against the word that took it), each id with how often its word occurs.
//! The table a thread keeps between documents never changes a result.

use std::cell::RefCell;

use outward_base::fxhash::{FxHashMap, hash_bytes};

use crate::doc::{bytes_from, folded_multiply, short_key_in};
use crate::table::{KEPT_WORDS, Slots, Table};

/// A document's words numbered: equal words, equal ids.
pub(crate) struct Vocabulary<'a> {
    /// Each word's id.
    pub ids: Vec<u32>,
    /// Each id's word (its first occurrence).
    pub distinct: Vec<&'a str>,
    /// Each id's key: a word of up to 7 bytes is its `short_key` (its bytes, its length in
    /// the top byte); a longer word's is a hash, `LONG`'s bit set.
    pub keys: Vec<u64>,
    /// How often each id's word occurs.
    pub counts: Vec<u32>,
}

/// Slots of the table a thread keeps between documents (512 KB): two a word of a document
/// of `KEPT_WORDS` words; after a longer one it is freed.
const KEPT_SLOTS: usize = 2 * KEPT_WORDS;

thread_local! {
    /// A word's key (`short_key`, or a hash of a longer word) to its id.
    static WORDS: RefCell<Table<u64, u32>> = RefCell::default();
}

/// `words` numbered (slices of `text`, else read as they are).
pub(crate) fn number<'a>(text: &str, words: &[&'a str]) -> Vocabulary<'a> {
    let text = text.as_bytes();
    WORDS.with_borrow_mut(|table| {
        table.reset(words.len());
        let mut new = NewWords {
            distinct: Vec::with_capacity(words.len()),
            keys: Vec::with_capacity(words.len()),
            clashes: FxHashMap::default(),
        };
        let mut slots = table.slots();
        let mut ids: Vec<u32> = Vec::with_capacity(words.len());
        // Extended from the words' iterator, whose length is known: no check of room per
        // word, and a new word's bookkeeping apart, so the loop keeps its registers.
        ids.extend(
            words
                .iter()
                .map(|&w| match short_key_in(text, w.as_bytes()) {
                    // A short word is its key: found, it is the word that took it.
                    Some(key) => match slots.entry(key, u32::MAX) {
                        (true, held) => *held,
                        (false, held) => {
                            *held = new.next(w, key);
                            *held
                        }
                    },
                    None => long_word_id(text, w, &mut slots, &mut new),
                }),
        );
        // Counted after: a second pass of a few instructions a word, where counting in the
        // loop above cost it registers.
        let mut counts = vec![0u32; new.distinct.len()];
        for &id in &ids {
            counts[id as usize] += 1;
        }
        if table.slots.len() > KEPT_SLOTS {
            *table = Table::default();
        }
        Vocabulary {
            ids,
            distinct: new.distinct,
            keys: new.keys,
            counts,
        }
    })
}

/// The words numbered so far, for a word seen first.
struct NewWords<'a> {
    /// Each id's word.
    distinct: Vec<&'a str>,
    /// Each id's key.
    keys: Vec<u64>,
    /// A long word whose hash another word holds (never seen in practice) gets its id here.
    clashes: FxHashMap<&'a str, u32>,
}

impl<'a> NewWords<'a> {
    /// The next id, for `w` of key `key`.
    fn next(&mut self, w: &'a str, key: u64) -> u32 {
        let id = self.distinct.len() as u32;
        self.distinct.push(w);
        self.keys.push(key);
        id
    }
}

/// The id of a word longer than a short key holds: keyed by a hash of its bytes, checked
/// against the word that took the key first (a word whose hash another holds gets its id in
/// `clashes`). Apart from the loop over the words, which keeps its registers for short ones.
#[inline(never)]
fn long_word_id<'a>(
    text: &[u8],
    w: &'a str,
    slots: &mut Slots<'_, u64, u32>,
    new: &mut NewWords<'a>,
) -> u32 {
    let key = long_key(text, w.as_bytes());
    let (found, held) = slots.entry(key, u32::MAX);
    if found && same_word(text, new.distinct[*held as usize], w) {
        return *held;
    }
    if found && let Some(&id) = new.clashes.get(w) {
        return id;
    }
    let id = new.next(w, key | LONG);
    if found {
        new.clashes.insert(w, id);
    } else {
        *held = id;
    }
    id
}

/// The bit that marks a long word's key in `Vocabulary::keys` (a short key's top byte is its
/// length, under 8; `long_key`'s is 0 in the table).
pub(crate) const LONG: u64 = 1 << 63;

/// A word of under 16 bytes as one number, its bytes first lowest (`None` for a longer one):
/// where it is a slice of `text` with sixteen bytes from its start, those read at once and
/// the ones past it masked off; else its own bytes.
fn sixteen_of(text: &[u8], word: &[u8]) -> Option<u128> {
    let len = word.len();
    if len >= 16 {
        return None;
    }
    Some(match bytes_from::<16>(text, word) {
        Some(sixteen) => u128::from_le_bytes(sixteen) & ((1u128 << (8 * len)) - 1),
        None => word.iter().rev().fold(0, |n, &b| n << 8 | u128::from(b)),
    })
}

/// A long word's key, a function of its bytes alone: a hash of them with the top byte 0 (a
/// short key's top byte is its length); a word of 8 to 15 bytes hashed from its sixteen
/// bytes as one number (read at once from the text: no call).
fn long_key(text: &[u8], word: &[u8]) -> u64 {
    match sixteen_of(text, word) {
        Some(bytes) => {
            let low = bytes as u64 ^ 0x243f_6a88_85a3_08d3;
            let high = (bytes >> 64) as u64 ^ (word.len() as u64) << 59 ^ 0x9e37_79b9_7f4a_7c15;
            folded_multiply(low, high) >> 8
        }
        None => hash_bytes(word) >> 8,
    }
}

/// Whether two words (slices of `text`, else read as they are) are equal: by their sixteen
/// bytes where both have them.
fn same_word(text: &[u8], a: &str, b: &str) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match (
        sixteen_of(text, a.as_bytes()),
        sixteen_of(text, b.as_bytes()),
    ) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word of 8 to 15 bytes read sixteen bytes at once from the text has the id it has
    /// where fewer bytes follow it (at the text's end), and one of its letters changed is
    /// another word.
    #[test]
    fn a_long_word_read_at_once_is_the_word_at_the_end() {
        let text = "wonderful twelveletter wonderful then twelveletter wonderfuL twelveletter";
        let words: Vec<&str> = text.split(' ').collect();
        let v = number(text, &words);
        assert_eq!(v.ids, [0, 1, 0, 2, 1, 3, 1]);
        assert_eq!(v.counts, [2, 3, 1, 1]);
        // Each word's key: a short word's is its `short_key` (read from the text), a long
        // word's is marked.
        let text = "a be the that have extraordinary a the";
        let words: Vec<&str> = text.split(' ').collect();
        let v = number(text, &words);
        for (w, &key) in v.distinct.iter().zip(&v.keys) {
            match crate::doc::short_key(w.as_bytes()) {
                Some(short) => assert_eq!(key, short, "{w}"),
                None => assert_ne!(key & LONG, 0, "{w}"),
            }
        }
        assert_eq!(v.keys.len(), 6);
    }

    /// Ids by first occurrence, short and long words, non-ASCII and words that share a
    /// prefix; a thread keeps no large table.
    #[test]
    fn numbers_words_by_first_occurrence() {
        std::thread::spawn(|| {
            let words = [
                "the",
                "cat",
                "the",
                "extraordinary",
                "caf\u{e9}",
                "cat",
                "extraordinarily",
                "extraordinary",
                "a",
                "",
                "a",
            ];
            let v = number("", &words);
            assert_eq!(v.ids, [0, 1, 0, 2, 3, 1, 4, 2, 5, 6, 5]);
            assert_eq!(v.counts, [2, 2, 2, 1, 1, 2, 1]);
            assert_eq!(v.distinct[2], "extraordinary");
            let many: Vec<String> = (0..20_000).map(|i| format!("w{i}")).collect();
            let many: Vec<&str> = many.iter().map(String::as_str).collect();
            assert_eq!(number("", &many).distinct.len(), 20_000);
            assert_eq!(WORDS.with_borrow(|t| t.slots.len()), 0);
        })
        .join()
        .expect("the thread ends");
    }
}
