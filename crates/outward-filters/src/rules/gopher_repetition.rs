//! Gopher's repetition rules (Rae et al. 2021, Table A1) as DataTrove's
//! `GopherRepetitionFilter` applies them, in its order: duplicate paragraphs and their
//! characters, duplicate lines and their characters, the most frequent 2-, 3- and 4-gram's
//! characters, the characters of repeated 5- to 10-grams.
//!
//! N-grams are compared without building their strings: a top n-gram (words joined by a
//! space, and no word holds a space) is its words' ids, numbered n-gram by n-gram; a repeated
//! n-gram is DataTrove's words joined by nothing, so "ab"+"c" equals "a"+"bc", and it is read
//! in the document's words joined once: one shorter than `WINDOW` bytes is compared by its
//! bytes and length exactly, a longer one by a 64-bit hash of its bytes and length (a false
//! match needs two different n-grams of one document to collide).
//!
//! The n-gram passes count only what can repeat: an n-gram that occurs once changes no
//! count and no walk, so each pass skips the positions a cheaper test proves unique (a word
//! that occurs once, a bit set of what was seen twice, the shorter n-grams' counts, a window of
//! the joined bytes).
//! `skipping_passes_count_as_the_string_passes` holds them to DataTrove's string passes.

use outward_base::counts::FilterRule;
use serde::{Deserialize, Serialize};

use crate::doc::{Doc, Repeats, bytes_from, enabled, folded_hash, ratio};
use crate::table::{KEPT_WORDS, Table};
use crate::vocabulary::Vocabulary;

/// DataTrove's arguments and defaults; `null` turns a rule off. The n of `top_n_grams` is 2 to
/// 4 and of `dup_n_grams` 5 to 10 (the rules the manifest has names for).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    pub dup_line_frac: Option<f64>,
    pub dup_para_frac: Option<f64>,
    pub dup_line_char_frac: Option<f64>,
    pub dup_para_char_frac: Option<f64>,
    pub top_n_grams: Vec<(usize, f64)>,
    pub dup_n_grams: Vec<(usize, f64)>,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            dup_line_frac: Some(0.3),
            dup_para_frac: Some(0.3),
            dup_line_char_frac: Some(0.2),
            dup_para_char_frac: Some(0.2),
            top_n_grams: vec![(2, 0.2), (3, 0.18), (4, 0.16)],
            dup_n_grams: vec![
                (5, 0.15),
                (6, 0.14),
                (7, 0.13),
                (8, 0.12),
                (9, 0.11),
                (10, 0.10),
            ],
        }
    }
}

impl Thresholds {
    /// The n that has no rule name, if any.
    pub fn unknown_n(&self) -> Option<String> {
        if let Some((n, _)) = self.top_n_grams.iter().find(|(n, _)| !(2..=4).contains(n)) {
            return Some(format!("top_n_grams n = {n} (2 to 4)"));
        }
        if let Some((n, _)) = self.dup_n_grams.iter().find(|(n, _)| !(5..=10).contains(n)) {
            return Some(format!("dup_n_grams n = {n} (5 to 10)"));
        }
        None
    }
}

/// What the rules decide on (written by `Signals`' serialisation in lib.rs) (shares of the text's characters unless said).
#[derive(Debug, Clone, PartialEq)]
pub struct Signals {
    /// Paragraphs (split at blank lines) that repeat an earlier one, of all paragraphs.
    pub dup_para_frac: f64,
    pub dup_para_char_frac: f64,
    /// Lines that repeat an earlier one, of all lines.
    pub dup_line_frac: f64,
    pub dup_line_char_frac: f64,
    /// The most frequent n-gram's characters times its count, n = 2, 3, 4.
    pub top_n_gram_char_frac: [f64; 3],
    /// Characters of n-grams that repeat an earlier one, n = 5 to 10.
    pub duplicated_n_gram_char_frac: [f64; 6],
}

pub fn measure(doc: &Doc) -> Signals {
    let paragraphs = Repeats::of(doc.paragraphs());
    let (para_dup, para_chars) = paragraphs.duplicates();
    let lines = doc.feed_lines();
    let (line_dup, line_chars) = lines.duplicates();
    let vocabulary = doc.vocabulary();
    let (top, duplicated) = TABLES.with_borrow_mut(|tables| {
        let ngrams = NGrams::new(doc.text, &doc.words, vocabulary, tables);
        let top = ngrams.top_chars(tables).map(|c| ratio(c, doc.chars));
        let duplicated = ngrams.duplicated_chars(tables).map(|c| ratio(c, doc.chars));
        // The lists stay with the thread.
        let spare = &mut tables.spare;
        (spare.starts, spare.joined) = (ngrams.starts, ngrams.joined);
        tables.shed();
        (top, duplicated)
    });
    Signals {
        dup_para_frac: ratio(para_dup, paragraphs.elements.len()),
        dup_para_char_frac: ratio(para_chars, doc.chars),
        dup_line_frac: ratio(line_dup, lines.elements.len()),
        dup_line_char_frac: ratio(line_chars, doc.chars),
        top_n_gram_char_frac: top,
        duplicated_n_gram_char_frac: duplicated,
    }
}

/// A repeated n-gram (joined by nothing) at least this many bytes long starts with a
/// repeated window of this many bytes at a word start: the repeated n-gram passes visit only
/// the word starts whose window repeats, or whose n-gram is shorter.
const WINDOW: usize = 16;

/// A document's words as the n-gram rules need them.
struct NGrams<'d> {
    /// Each word's id (equal words, equal ids: the document's).
    ids: &'d [u32],
    /// How often each id's word occurs.
    counts: &'d [u32],
    /// Byte offset of word i in the words joined by nothing (`starts[words.len()]`: all).
    starts: Vec<usize>,
    /// The joined string, then `WINDOW` zero bytes (and bytes never read).
    joined: Vec<u8>,
}

/// The hash tables the passes reuse, and what each position's key counted: kept by each
/// thread from one document to the next (a table is reset by a generation count, not
/// cleared), so a document allocates and clears nothing in proportion to its words.
#[derive(Default)]
struct Tables {
    top: Table<u64, u32>,
    twice: SeenTwice,
    seen: Table<u128, ()>,
    /// Each word start's window, as the bit of `twice` its hash keeps (the repeated n-gram
    /// passes).
    windows: Vec<u64>,
    candidates: Vec<u32>,
    /// Each top n-gram candidate's (n-1)-gram, numbered (then the slot its n-gram took).
    prefixes: Vec<u32>,
    /// The lists of the last document's `NGrams`, for the next to fill (not allocated and
    /// zeroed again for each document).
    spare: Spare,
}

/// `NGrams`' lists between documents.
#[derive(Default)]
struct Spare {
    starts: Vec<usize>,
    joined: Vec<u8>,
}

/// `list` emptied, with room for `n`.
fn emptied<T>(mut list: Vec<T>, n: usize) -> Vec<T> {
    list.clear();
    list.reserve(n);
    list
}

impl Tables {
    /// Frees everything after a document of more than `KEPT_WORDS` words (every table and
    /// list holds at most a slot or two or an entry per word: 2.3 MB for 16,000 words).
    fn shed(&mut self) {
        if self.spare.starts.capacity() > KEPT_WORDS + 1 {
            *self = Tables::default();
        }
    }

    /// Bytes held.
    #[cfg(test)]
    fn held(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(&self.top.slots[..])
            + size_of_val(&self.seen.slots[..])
            + 16 * self.twice.words.capacity()
            + 4 * (self.candidates.capacity() + self.prefixes.capacity())
            + 8 * self.windows.capacity()
            + 8 * self.spare.starts.capacity()
            + self.spare.joined.capacity()
    }
}

thread_local! {
    static TABLES: std::cell::RefCell<Tables> = std::cell::RefCell::default();
}

impl<'d> NGrams<'d> {
    /// The n-grams of `words` (slices of `text` in order, as a document's are; with `text`
    /// empty, words of their own), numbered in `vocabulary`.
    ///
    /// This and the two passes are kept out of `measure`: inlined into it (as the compiler
    /// chose after an unrelated edit elsewhere in the crate), their loops lost registers,
    /// 7M to 12M instructions more on dragnet's texts.
    #[inline(never)]
    fn new(
        text: &str,
        words: &[&str],
        vocabulary: &'d Vocabulary,
        tables: &mut Tables,
    ) -> NGrams<'d> {
        let text = text.as_bytes();
        let spare = std::mem::take(&mut tables.spare);
        // The words' bytes at most: the text's, when they are slices of it, not summed word
        // by word (2.6M instructions on dragnet's texts).
        let bytes: usize = match text.is_empty() {
            false => text.len(),
            true => words.iter().map(|w| w.len()).sum(),
        };
        debug_assert!(words.iter().map(|w| w.len()).sum::<usize>() <= bytes);
        // The joined string is written sixteen bytes at a time from the text where a word is
        // short: the bytes past its end are overwritten by the next word, and zeroed
        // after the last. The list keeps the length of the longest document's (only the part
        // past it is zeroed when a longer one comes): what lies past this document's string
        // is never read but by the window after its last word, which is zeroed.
        let mut joined = spare.joined;
        if joined.len() < bytes + WINDOW + 16 {
            joined.resize(bytes + WINDOW + 16, 0);
        }
        // With it, each word's start in the joined string (and the end of the last).
        let mut starts = emptied(spare.starts, words.len() + 1);
        starts.push(0);
        // Extended from the words' iterator, whose length is known: no check of room per word.
        // The closure owns its offset and its view of the list (moved in, they stay in
        // registers; borrowed, they were stored and loaded again at each word).
        let mut b = 0;
        let into = &mut joined[..];
        starts.extend(words.iter().map(move |w| {
            let word = w.as_bytes();
            let len = word.len();
            match bytes_from::<16>(text, word) {
                // Sixteen bytes as one array: a copy of a length known when compiled.
                Some(sixteen) => into[b..b + 16].copy_from_slice(&sixteen),
                None => into[b..b + len].copy_from_slice(word),
            }
            b += len;
            b
        }));
        let b = starts[words.len()];
        joined[b..b + WINDOW].fill(0);
        NGrams {
            ids: &vocabulary.ids,
            counts: &vocabulary.counts,
            starts,
            joined,
        }
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    /// Characters (Python's `len`) of words i..i+n joined by nothing: the bytes that begin
    /// a character. Counted where an n-gram counts (the top n-grams, the repeated ones), not
    /// summed for every word.
    fn span_chars(&self, i: usize, n: usize) -> usize {
        let bytes = &self.joined[self.starts[i]..self.starts[i + n]];
        // A byte that continues a character is 0b10xx_xxxx: -64 and under as an i8.
        bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
    }

    /// DataTrove's `find_top_duplicate(get_n_grams(words, n))` for n = 2, 3, 4: the
    /// characters of the most frequent n-gram (words joined by spaces; the first seen among
    /// equals) times its count; 0 without any n-gram.
    ///
    /// Only n-grams that can repeat are counted: the 2-grams of two words that repeat; an
    /// n-gram seen twice is made of two (n-1)-grams seen twice, so after the 2-grams each pass
    /// counts only the positions whose two (n-1)-grams repeat, keyed by the slot its (n-1)-gram
    /// took in the pass before and its last word's id. When no n-gram repeats, every one is
    /// seen once and the first is the most frequent. (A bit set of the 2-grams seen twice in
    /// front of their table cost more than the table entries it saved: 6.8M instructions on
    /// dragnet's texts, 2026-12-03.)
    #[inline(never)]
    fn top_chars(&self, tables: &mut Tables) -> [usize; 3] {
        let mut top = [0; 3];
        let len = self.len();
        if len < 2 {
            return top;
        }
        // A 2-gram repeats only if both its words do: only those positions are counted.
        refill(&mut tables.candidates, |found| {
            let mut word_repeats = self.counts[self.ids[0] as usize] > 1;
            for i in 1..len {
                let next_repeats = self.counts[self.ids[i] as usize] > 1;
                if word_repeats && next_repeats {
                    found.push(i as u32 - 1);
                }
                word_repeats = next_repeats;
            }
        });
        let candidates = &mut tables.candidates;
        // Each candidate's (n-1)-gram as a number: for the 2-grams, its first word's id;
        // then the slot the (n-1)-gram took in the pass before (one slot per distinct key).
        let prefixes = &mut tables.prefixes;
        prefixes.clear();
        prefixes.extend(candidates.iter().map(|&i| self.ids[i as usize]));
        for (slot, n) in (2..=4).enumerate() {
            if len < n {
                break;
            }
            tables.top.reset(candidates.len());
            // The table's slots apart from the lists written beside them, so that its
            // slots, shift and generation stay in registers.
            let mut table = tables.top.slots();
            // The highest count; which n-gram has it is found after.
            let mut best_count = 1u32;
            // Each candidate's prefix, once read, is replaced by the slot its n-gram took.
            for (&i, prefix) in candidates.iter().zip(prefixes.iter_mut()) {
                let i = i as usize;
                // The (n-1)-gram's number and the last word's id (each plus 1, so no key is
                // 0) are the n-gram exactly.
                let key = (*prefix as u64 + 1) << 32 | (self.ids[i + n - 1] as u64 + 1);
                let (at, _, count) = table.entry_at(key, 0);
                *prefix = at as u32;
                *count += 1;
                best_count = best_count.max(*count);
            }
            // The most frequent n-gram; among equals, the first seen (Counter.most_common):
            // the first candidate whose n-gram has the highest count is the first
            // occurrence of the first seen of them (all their occurrences are candidates).
            // Without a repeat, every n-gram is seen once, and the first is the document's.
            // (Finding it after, where the table kept each n-gram's first position and the
            // loop compared it: 1.9M instructions fewer on dragnet's texts.)
            let best_first = match best_count {
                1 => 0,
                _ => candidates
                    .iter()
                    .zip(prefixes.iter())
                    .find(|&(_, &at)| *table.value(at as usize) == best_count)
                    .map_or(0, |(&i, _)| i as usize),
            };
            top[slot] = (self.span_chars(best_first, n) + n - 1) * best_count as usize;
            // The next n's candidates: where this n-gram and the one after it repeat, with
            // this n-gram's slot (now in `prefixes`) as their number. A repeated n-gram is a
            // candidate (made of repeated (n-1)-grams), so the one after position i is the
            // next candidate when that is i + 1.
            let mut kept = 0;
            for k in 0..candidates.len() {
                let i = candidates[k] as usize;
                let next_repeats = candidates.get(k + 1) == Some(&(i as u32 + 1))
                    && *table.value(prefixes[k + 1] as usize) > 1;
                if i + n < len && next_repeats && *table.value(prefixes[k] as usize) > 1 {
                    candidates[kept] = i as u32;
                    prefixes[kept] = prefixes[k];
                    kept += 1;
                }
            }
            candidates.truncate(kept);
            prefixes.truncate(kept);
        }
        top
    }

    /// Words i..i+n joined by nothing, as a key equal for equal strings: shorter than
    /// `WINDOW` bytes, its bytes and length (exact); else a hash of its bytes and length, with
    /// the top bit set (a short key's top byte is its length, below 16).
    fn joined_key(&self, i: usize, n: usize) -> u128 {
        let (at, end) = (self.starts[i], self.starts[i + n]);
        let len = end - at;
        if len < WINDOW {
            let bytes = window_at(&self.joined, at) & ((1u128 << (8 * len)) - 1);
            return bytes | (len as u128) << 120;
        }
        let hash = folded_hash(&self.joined[at..end]);
        (1u128 << 127) | (len as u128) << 64 | hash as u128
    }

    /// Whether the n-gram at word i is shorter than `WINDOW` bytes.
    fn short(&self, i: usize, n: usize) -> bool {
        self.starts[i + n] - self.starts[i] < WINDOW
    }

    /// DataTrove's `find_all_duplicate(words, n)` for n = 5 to 10: walking the words, an
    /// n-gram (joined by nothing) seen before adds its characters and jumps past itself; else
    /// one word on.
    ///
    /// An n-gram seen nowhere else changes nothing by being seen, so only the positions whose
    /// n-gram can repeat are walked: those whose first `WINDOW` bytes may repeat at another
    /// word start (`SeenTwice`), and those whose n-gram is shorter than that.
    #[inline(never)]
    fn duplicated_chars(&self, tables: &mut Tables) -> [usize; 6] {
        let mut duplicated = [0; 6];
        let total = self.len();
        if total < 5 {
            return duplicated;
        }
        // Each word start's window as the bit the set keeps it by: hashed and added once,
        // then tested.
        let twice = &mut tables.twice;
        // 64 bits a window (16 bytes a word in the two sets): a window let through is walked
        // by up to six passes, and fewer are let through than at 32 bits (dragnet's 5-gram
        // candidates, 163,500 of them short, 208,300 against 216,200; 6.1M instructions fewer,
        // 2026-12-03; 128 bits cost 1.7M more than 64).
        twice.reset(total, 64);
        let windows = &mut tables.windows;
        windows.clear();
        let joined = &self.joined[..];
        let hashes = self.starts[..total].iter().map(|&at| {
            let bytes = window_at(joined, at);
            (bytes as u64)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29)
                ^ (bytes >> 64) as u64
        });
        twice.add_each(hashes, windows);
        // The 5-grams that may repeat: those shorter than a window, and those whose window
        // the bit set lets through.
        let twice_at = twice.twice_test();
        refill(&mut tables.candidates, |found| {
            let spans = self.starts.iter().zip(&self.starts[5..]);
            for (i, (&bit, (&start, &end))) in windows.iter().zip(spans).enumerate() {
                if end - start < WINDOW || twice_at(bit) {
                    found.push(i as u32);
                }
            }
        });
        let candidates = &mut tables.candidates;
        for (slot, n) in (5..=10).enumerate() {
            if total < n {
                break;
            }
            // The n-grams that may repeat start where the (n-1)-grams' may (a window is the
            // same, and a shorter n-gram's (n-1)-gram is shorter): the 5-grams' are found
            // above, and each n after keeps those of the n before that its own test passes.
            let last = total - n;
            if n > 5 {
                keep_where(candidates, |i| {
                    let i = i as usize;
                    i <= last && (self.short(i, n) || twice_at(windows[i]))
                });
            }
            let seen = &mut tables.seen;
            seen.reset(candidates.len());
            let (mut repeated, mut next) = (0, 0);
            for &i in candidates.iter() {
                let i = i as usize;
                if i < next {
                    continue;
                }
                if !seen.insert(self.joined_key(i, n)) {
                    repeated += self.span_chars(i, n);
                    next = i + n;
                }
            }
            duplicated[slot] = repeated;
        }
        duplicated
    }
}

/// The `WINDOW` bytes of `joined` from `at`, first byte lowest, read as one array.
fn window_at(joined: &[u8], at: usize) -> u128 {
    let window: [u8; WINDOW] = joined[at..at + WINDOW].try_into().expect("a window");
    u128::from_le_bytes(window)
}

/// `list` emptied and filled again by `fill`, which pushes to a list of its own: taken out of
/// the thread's tables and put back after, its length stays in a register, where one beside
/// the tables was loaded and stored again at each push (4.3M instructions on dragnet's texts).
#[inline(always)]
fn refill(list: &mut Vec<u32>, fill: impl FnOnce(&mut Vec<u32>)) {
    let mut own = std::mem::take(list);
    own.clear();
    fill(&mut own);
    *list = own;
}

/// Keeps the entries of `list` that `keep` accepts, in order: `Vec::retain` for numbers
/// without retain's guard against a panicking `keep`, whose loop the compiler left as a call
/// per pass here (15.6M instructions on dragnet's texts).
#[inline(always)]
fn keep_where(list: &mut Vec<u32>, mut keep: impl FnMut(u32) -> bool) {
    let mut kept = 0;
    for k in 0..list.len() {
        let x = list[k];
        if keep(x) {
            list[kept] = x;
            kept += 1;
        }
    }
    list.truncate(kept);
}

/// Which keys were added at least twice, and some that were added once (a key shares its bit
/// with others): two bit sets of 64 bits per key (the windows'), small enough to stay in
/// cache, where a hash table of the keys was not. A pass that counts exactly needs to visit
/// only the keys let through.
#[derive(Default)]
struct SeenTwice {
    /// Per 64 bits, the bits of keys added once or more, then of keys added twice or more.
    words: Vec<[u64; 2]>,
    shift: u32,
}

impl SeenTwice {
    /// Empties the sets, sized for `n` keys of `bits_per_key` bits each.
    fn reset(&mut self, n: usize, bits_per_key: usize) {
        let bits = (n * bits_per_key).next_power_of_two().max(64);
        self.words.clear();
        self.words.resize(bits / 64, [0; 2]);
        self.shift = 64 - bits.trailing_zeros();
    }

    /// Adds each of `keys`, and gives the bit that keeps it into `bits`. The set's parts are
    /// read once, before the loop (through `self` they were loaded again for each key).
    fn add_each(&mut self, keys: impl Iterator<Item = u64>, bits: &mut Vec<u64>) {
        let shift = self.shift;
        let words = &mut self.words[..];
        bits.extend(keys.map(move |key| {
            let bit = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift;
            let (word, mask) = (bit as usize / 64, 1 << (bit % 64));
            let [once, twice] = &mut words[word];
            *twice |= *once & mask;
            *once |= mask;
            bit
        }));
    }

    /// A test false only for a key (kept by the bit it is given) added at most once: the
    /// set's bits read once, for a loop of tests.
    fn twice_test(&self) -> impl Fn(u64) -> bool + '_ {
        let words = &self.words[..];
        move |bit| words[bit as usize / 64][1] & (1 << (bit % 64)) != 0
    }
}

/// The first rule that drops the document, in DataTrove's order (an empty text is dropped
/// before; the pipeline never writes one).
pub fn decide(s: &Signals, t: &Thresholds) -> Option<FilterRule> {
    if enabled(t.dup_para_frac).is_some_and(|m| s.dup_para_frac > m) {
        return Some(FilterRule::DupParaFrac);
    }
    if enabled(t.dup_para_char_frac).is_some_and(|m| s.dup_para_char_frac > m) {
        return Some(FilterRule::DupParaCharFrac);
    }
    if enabled(t.dup_line_frac).is_some_and(|m| s.dup_line_frac > m) {
        return Some(FilterRule::DupLineFrac);
    }
    if enabled(t.dup_line_char_frac).is_some_and(|m| s.dup_line_char_frac > m) {
        return Some(FilterRule::DupLineCharFrac);
    }
    const TOP: [FilterRule; 3] = [
        FilterRule::Top2Gram,
        FilterRule::Top3Gram,
        FilterRule::Top4Gram,
    ];
    for &(n, frac) in &t.top_n_grams {
        if s.top_n_gram_char_frac[n - 2] > frac {
            return Some(TOP[n - 2]);
        }
    }
    const DUP: [FilterRule; 6] = [
        FilterRule::Duplicated5NGrams,
        FilterRule::Duplicated6NGrams,
        FilterRule::Duplicated7NGrams,
        FilterRule::Duplicated8NGrams,
        FilterRule::Duplicated9NGrams,
        FilterRule::Duplicated10NGrams,
    ];
    for &(n, frac) in &t.dup_n_grams {
        if s.duplicated_n_gram_char_frac[n - 5] > frac {
            return Some(DUP[n - 5]);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::python;

    #[test]
    fn repeated_n_grams_join_words_by_nothing() {
        // DataTrove's "".join makes "ab c ..." and "a bc ..." the same 5-gram.
        let words = ["ab", "c", "d", "e", "f", "a", "bc", "d", "e", "f"];
        let mut tables = Tables::default();
        let v = crate::vocabulary::number("", &words);
        let g = NGrams::new("", &words, &v, &mut tables);
        assert_eq!(g.duplicated_chars(&mut tables)[0], 6);
        // The top 2-gram: every 2-gram once but "d e" and "e f" twice: the first, "d e".
        assert_eq!(g.top_chars(&mut tables)[0], 3 * 2);
    }

    /// Words read from the text sixteen bytes at a time are joined whole: two words that share
    /// their first sixteen bytes make different n-grams, the same word the same.
    #[test]
    fn words_read_from_the_text_are_joined_whole() {
        let text = "aaaaaaaaaaaaaaaaaaaa x y z w aaaaaaaaaaaaaaaaaaab x y z w \
            aaaaaaaaaaaaaaaaaaaa x y z w and the rest of the text";
        let doc = Doc::new(text);
        let mut tables = Tables::default();
        let g = NGrams::new(text, &doc.words, doc.vocabulary(), &mut tables);
        // Only the third 5-gram repeats (the first): 24 characters.
        assert_eq!(g.duplicated_chars(&mut tables)[0], 24);
    }

    /// A thread keeps its tables between documents, but not a large document's.
    #[test]
    fn a_large_documents_tables_are_freed() {
        std::thread::spawn(|| {
            let small = "One line of a page with a few words in it.\n".repeat(20);
            measure(&Doc::new(&small));
            let kept = TABLES.with_borrow(Tables::held);
            assert!(kept > 0 && kept < 64 << 10, "{kept}");
            // A document of up to `KEPT_WORDS` words leaves its tables for the next.
            let long: String = (0..16_000).map(|i| format!("w{} ", i % 5_000)).collect();
            measure(&Doc::new(&long));
            let kept = TABLES.with_borrow(Tables::held);
            assert!(kept > 1 << 20 && kept < 3 << 20, "{kept}");
            let large: String = (0..200_000).map(|i| format!("w{i} ")).collect();
            measure(&Doc::new(&large));
            assert_eq!(TABLES.with_borrow(Tables::held), 0);
            measure(&Doc::new(&small));
            let again = TABLES.with_borrow(Tables::held);
            assert!(again <= 3 << 19, "{again}");
        })
        .join()
        .expect("the thread ends");
    }

    /// A thread's lists hold bytes of the documents before (the joined string is not zeroed
    /// per document): a document measures the same after a longer one, its last window
    /// included ("a b c d e" repeated: the 5-grams are shorter than a window).
    #[test]
    fn a_document_measures_the_same_after_a_longer_one() {
        std::thread::spawn(|| {
            let short = "a b c d e a b c d e f";
            let longer = "zzzzzzzzzzzz yyyyyyyyyyyy xxxxxxxxxxxxxx ".repeat(40);
            let alone = measure(&Doc::new(short));
            assert!(alone.duplicated_n_gram_char_frac[0] > 0.0);
            measure(&Doc::new(&longer));
            assert_eq!(measure(&Doc::new(short)), alone);
        })
        .join()
        .expect("the thread ends");
    }

    /// DataTrove's `find_top_duplicate(get_n_grams(words, n))`, on strings.
    fn top_by_strings(words: &[&str], n: usize) -> usize {
        if words.len() < n {
            return 0;
        }
        let grams: Vec<String> = words.windows(n).map(|w| w.join(" ")).collect();
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for g in &grams {
            match counts.iter_mut().find(|(k, _)| k == g) {
                Some((_, c)) => *c += 1,
                None => counts.push((g, 1)),
            }
        }
        // `max` returns the first of equals, as `most_common(1)` does.
        let best = counts
            .iter()
            .rev()
            .max_by_key(|(_, c)| *c)
            .expect("one n-gram");
        python::len(best.0) * best.1
    }

    /// DataTrove's `find_all_duplicate(words, n)`, on strings.
    fn duplicated_by_strings(words: &[&str], n: usize) -> usize {
        let mut seen = std::collections::HashSet::new();
        let (mut repeated, mut i) = (0, 0);
        while i + n <= words.len() {
            let gram = words[i..i + n].concat();
            if seen.contains(&gram) {
                repeated += python::len(&gram);
                i += n;
            } else {
                seen.insert(gram);
                i += 1;
            }
        }
        repeated
    }

    /// The passes that skip what cannot repeat give what DataTrove's string passes give, on
    /// texts that repeat a lot: few words (some the joins of others, some long enough that a
    /// window covers less than a 5-gram, some not ASCII, one of 400 bytes, so that a long
    /// n-gram's hash takes many steps), drawn by a fixed generator; the words once as slices
    /// of a text (joined by single spaces, or by none, so that the bytes read past a word are
    /// a word or a space) and once not.
    #[test]
    fn skipping_passes_count_as_the_string_passes() {
        let long = "long".repeat(100);
        let vocab = [
            &long,
            "a",
            "b",
            "ab",
            "ba",
            "the",
            "of",
            "thereof",
            "é",
            "中文",
            ".",
            ",",
            "extraordinarily",
            "aaaaaaaaaaaaaaaaaaaa",
            "aaaa",
        ];
        let mut next = crate::draws(0x2545_f491_4f6c_dd1d);
        for doc in 0..400 {
            let len = doc % 60;
            let span = 2 + doc % (vocab.len() - 1);
            let words: Vec<&str> = (0..len).map(|_| vocab[next(span)]).collect();
            let text = words.join(if doc % 2 == 0 { " " } else { "" });
            let gap = usize::from(doc % 2 == 0);
            let mut at = 0;
            let sliced: Vec<&str> = words
                .iter()
                .map(|w| {
                    let slice = &text[at..at + w.len()];
                    at += w.len() + gap;
                    slice
                })
                .collect();
            for (text, words) in [("", &words), (text.as_str(), &sliced)] {
                let mut tables = Tables::default();
                let v = crate::vocabulary::number(text, words);
                let g = NGrams::new(text, words, &v, &mut tables);
                let top = g.top_chars(&mut tables);
                let duplicated = g.duplicated_chars(&mut tables);
                for n in 2..=4 {
                    assert_eq!(top[n - 2], top_by_strings(words, n), "{words:?} n={n}");
                }
                for n in 5..=10 {
                    assert_eq!(
                        duplicated[n - 5],
                        duplicated_by_strings(words, n),
                        "{words:?} n={n}"
                    );
                }
            }
        }
    }
}
