//! Gopher's repetition rules (Rae et al. 2021, Table A1) as DataTrove's
//! `GopherRepetitionFilter` applies them, in its order: duplicate paragraphs and their
//! characters, duplicate lines and their characters, the most frequent 2-, 3- and 4-gram's
//! characters, the characters of repeated 5- to 10-grams.
//!
//! N-grams are compared without building their strings: a top n-gram (words joined by a
//! space, and no word holds a space) is its words' ids; a repeated n-gram is DataTrove's
//! words joined by nothing, so "ab"+"c" equals "a"+"bc", and it is compared by a 61-bit
//! polynomial hash of those bytes and their length (a false match needs two different
//! n-grams of one document to collide).

use outward_base::counts::FilterRule;
use serde::{Deserialize, Serialize};

use crate::doc::{Doc, enabled, find_duplicates, ratio};
use crate::words::python;
use outward_base::fxhash::FxHashMap;

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
    let text = doc.text;
    let paragraphs = split_runs(python::strip(text), 2);
    let (para_dup, para_chars) = find_duplicates(paragraphs.iter().copied());
    let lines = split_runs(text, 1);
    let (line_dup, line_chars) = find_duplicates(lines.iter().copied());
    let ngrams = NGrams::new(&doc.words);
    let mut counts = Table::default();
    let mut top = [0.0; 3];
    for (i, n) in (2..=4).enumerate() {
        top[i] = ratio(ngrams.top_chars(n, &mut counts), doc.chars);
    }
    let mut seen = Table::default();
    let mut duplicated = [0.0; 6];
    for (i, n) in (5..=10).enumerate() {
        duplicated[i] = ratio(ngrams.duplicated_chars(n, &mut seen), doc.chars);
    }
    Signals {
        dup_para_frac: ratio(para_dup, paragraphs.len()),
        dup_para_char_frac: ratio(para_chars, doc.chars),
        dup_line_frac: ratio(line_dup, lines.len()),
        dup_line_char_frac: ratio(line_chars, doc.chars),
        top_n_gram_char_frac: top,
        duplicated_n_gram_char_frac: duplicated,
    }
}

/// `re.split(r"\n{min,}", text)`: the pieces between runs of at least `min` line feeds.
fn split_runs(text: &str, min: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut pieces = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'\n').count();
            if run >= min {
                pieces.push(&text[start..i]);
                start = i + run;
            }
            i += run;
        } else {
            i += 1;
        }
    }
    pieces.push(&text[start..]);
    pieces
}

const MODULUS: u64 = (1 << 61) - 1;
const BASE: u64 = 1_000_003;

fn mul_mod(a: u64, b: u64) -> u64 {
    let p = a as u128 * b as u128;
    let folded = (p as u64 & MODULUS) + (p >> 61) as u64;
    if folded >= MODULUS {
        folded - MODULUS
    } else {
        folded
    }
}

/// `(a + b) mod MODULUS` for `a, b <= MODULUS` (no division).
fn add_mod(a: u64, b: u64) -> u64 {
    let s = a + b;
    if s >= MODULUS { s - MODULUS } else { s }
}

/// A document's words as the n-gram rules need them.
struct NGrams<'a> {
    /// Each word's id (equal words, equal ids).
    ids: Vec<u32>,
    /// Characters of the words before word i (`chars[words.len()]`: all).
    chars: Vec<usize>,
    /// The polynomial hash of the words' bytes joined by nothing, up to byte k.
    prefix: Vec<u64>,
    /// `BASE^k`.
    powers: Vec<u64>,
    /// Byte offset of word i in that joined string.
    starts: Vec<usize>,
    words: &'a [&'a str],
}

impl<'a> NGrams<'a> {
    fn new(words: &'a [&'a str]) -> NGrams<'a> {
        let mut table: FxHashMap<&str, u32> =
            FxHashMap::with_capacity_and_hasher(words.len(), Default::default());
        let mut ids = Vec::with_capacity(words.len());
        let mut chars = Vec::with_capacity(words.len() + 1);
        let mut starts = Vec::with_capacity(words.len() + 1);
        let bytes: usize = words.iter().map(|w| w.len()).sum();
        let mut prefix = Vec::with_capacity(bytes + 1);
        let mut powers = Vec::with_capacity(bytes + 1);
        prefix.push(0);
        powers.push(1);
        let (mut c, mut b) = (0, 0);
        for w in words {
            let next = table.len() as u32;
            ids.push(*table.entry(w).or_insert(next));
            chars.push(c);
            starts.push(b);
            c += python::len(w);
            b += w.len();
            for &byte in w.as_bytes() {
                let h = *prefix.last().expect("starts with 0");
                prefix.push(add_mod(mul_mod(h, BASE), byte as u64 + 1));
                powers.push(mul_mod(*powers.last().expect("starts with 1"), BASE));
            }
        }
        chars.push(c);
        starts.push(b);
        NGrams {
            ids,
            chars,
            prefix,
            powers,
            starts,
            words,
        }
    }

    /// Characters of words i..i+n.
    fn span_chars(&self, i: usize, n: usize) -> usize {
        self.chars[i + n] - self.chars[i]
    }

    /// DataTrove's `find_top_duplicate(get_n_grams(words, n))`: the characters of the most
    /// frequent n-gram (words joined by spaces; the first seen among equals) times its count;
    /// 0 without any n-gram.
    fn top_chars(&self, n: usize, table: &mut Table<u128, (u32, u32)>) -> usize {
        if self.words.len() < n {
            return 0;
        }
        // Up to 4 ids of 32 bits (each plus 1, so no key is 0) are the n-gram exactly.
        table.reset(self.words.len());
        let (mut best_count, mut best_first) = (0u32, 0u32);
        for i in 0..=self.words.len() - n {
            let key = self.ids[i..i + n]
                .iter()
                .fold(0u128, |k, &id| (k << 32) | (id as u128 + 1));
            let entry = table.entry(key, (0, i as u32));
            entry.0 += 1;
            let (count, first) = *entry;
            // The most frequent; among equals, the first seen (Counter.most_common).
            if count > best_count || (count == best_count && first < best_first) {
                (best_count, best_first) = (count, first);
            }
        }
        (self.span_chars(best_first as usize, n) + n - 1) * best_count as usize
    }

    /// The hash and byte length of words i..i+n joined by nothing.
    fn joined_key(&self, i: usize, n: usize) -> (u64, usize) {
        let (a, b) = (self.starts[i], self.starts[i + n]);
        let h = add_mod(
            self.prefix[b],
            MODULUS - mul_mod(self.prefix[a], self.powers[b - a]),
        );
        (h, b - a)
    }

    /// DataTrove's `find_all_duplicate(words, n)`: walking the words, an n-gram (joined by
    /// nothing) seen before adds its characters and jumps past itself; else one word on.
    fn duplicated_chars(&self, n: usize, seen: &mut Table<u64, ()>) -> usize {
        let total = self.words.len();
        if total < n {
            return 0;
        }
        seen.reset(total);
        let (mut repeated, mut i) = (0, 0);
        while i < total - n + 1 {
            let (hash, len) = self.joined_key(i, n);
            // The 61-bit hash and the length in one key, never 0.
            let key = ((hash << 3) ^ (len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1;
            if seen.insert(key) {
                i += 1;
            } else {
                repeated += self.span_chars(i, n);
                i += n;
            }
        }
        repeated
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

/// An open-addressing hash table of non-zero integer keys, reset and reused for each n: the
/// n-gram passes insert once per word, and a general map's hashing, growth and clearing were
/// most of their cost. A slot belongs to the current pass only when it carries the pass's
/// generation, so a reset clears nothing.
#[derive(Default)]
struct Table<K, V> {
    slots: Vec<(K, V, u32)>,
    shift: u32,
    generation: u32,
}

trait Key: Copy + Default + PartialEq {
    fn spread(self) -> u64;
}

impl Key for u64 {
    fn spread(self) -> u64 {
        self.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

impl Key for u128 {
    fn spread(self) -> u64 {
        ((self as u64) ^ ((self >> 64) as u64).rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

impl<K: Key, V: Copy + Default> Table<K, V> {
    /// Empties the table, with room for `n` keys at most half full.
    fn reset(&mut self, n: usize) {
        let size = (n * 2).next_power_of_two().max(16);
        self.generation = self.generation.wrapping_add(1);
        if self.slots.len() < size || self.generation == 0 {
            self.slots = vec![(K::default(), V::default(), 0); size];
            self.generation = 1;
        }
        self.shift = 64 - self.slots.len().trailing_zeros();
    }

    /// The slot of `key`, and whether it holds it already (else it is the free slot where
    /// it goes).
    fn probe(&self, key: K) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let mut i = (key.spread() >> self.shift) as usize;
        loop {
            let slot = &self.slots[i];
            if slot.2 != self.generation {
                return (i, false);
            }
            if slot.0 == key {
                return (i, true);
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of `key`, inserted as `init` when absent.
    fn entry(&mut self, key: K, init: V) -> &mut V {
        let (i, found) = self.probe(key);
        if !found {
            self.slots[i] = (key, init, self.generation);
        }
        &mut self.slots[i].1
    }

    /// Adds `key`; whether it was absent.
    fn insert(&mut self, key: K) -> bool {
        let (i, found) = self.probe(key);
        if !found {
            self.slots[i] = (key, V::default(), self.generation);
        }
        !found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_re_split() {
        assert_eq!(split_runs("a\n\nb\nc\n\n\nd", 2), ["a", "b\nc", "d"]);
        assert_eq!(split_runs("a\nb\n", 1), ["a", "b", ""]);
        assert_eq!(split_runs("\na", 1), ["", "a"]);
    }

    #[test]
    fn repeated_n_grams_join_words_by_nothing() {
        // DataTrove's "".join makes "ab c ..." and "a bc ..." the same 5-gram.
        let words = ["ab", "c", "d", "e", "f", "a", "bc", "d", "e", "f"];
        let g = NGrams::new(&words);
        assert_eq!(g.duplicated_chars(5, &mut Table::default()), 6);
        // The top 2-gram: every 2-gram once but "d e" and "e f" twice: the first, "d e".
        assert_eq!(g.top_chars(2, &mut Table::default()), 3 * 2);
    }
}
