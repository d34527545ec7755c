//! An open-addressing hash table of integer keys, reset and reused per document or pass:
//! [`Table`] (the word ids and the n-gram passes insert once per word, and a general map's
//! hashing, growth and clearing were most of their cost).
//!
//! Invariant: a slot belongs to the current use only when it carries the table's generation,
//! so a reset clears nothing.

/// Words of a document whose tables and lists a thread keeps for the next (the word
/// numbering's, Gopher repetition's): after a longer document they are freed. (At 8,192
/// words, dragnet's three longer documents shed the tables, and regrowing them zeroed new
/// ones again: 6.4M instructions more on its texts.)
pub(crate) const KEPT_WORDS: usize = 1 << 14;

/// Integer keys and their values, at most half the slots in use.
#[derive(Default)]
pub(crate) struct Table<K, V> {
    pub(crate) slots: Vec<(K, V, u32)>,
    shift: u32,
    generation: u32,
}

pub(crate) trait Key: Copy + Default + PartialEq {
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
    pub(crate) fn reset(&mut self, n: usize) {
        let size = (n * 2).next_power_of_two().max(16);
        self.generation = self.generation.wrapping_add(1);
        if self.slots.len() < size || self.generation == 0 {
            self.slots = vec![(K::default(), V::default(), 0); size];
            self.generation = 1;
        }
        // Only the first `size` slots are used: a small document after a large one probes a
        // small, cached part of the table.
        self.shift = 64 - size.trailing_zeros();
    }

    /// The slot of `key`, and whether it holds it already (else it is the free slot where
    /// it goes).
    fn probe(&self, key: K) -> (usize, bool) {
        probe(
            &self.slots[..self.in_use()],
            self.shift,
            self.generation,
            key,
        )
    }

    /// How many slots are in use: `2^(64 - shift)`.
    fn in_use(&self) -> usize {
        1usize << (64 - self.shift)
    }

    /// The slots in use, apart from the table, for a loop of [`Slots::entry`] that also
    /// writes other lists: it keeps the slots, shift and generation in registers, where
    /// through `&mut Table` it loaded them again after each write (the word numbering).
    pub(crate) fn slots(&mut self) -> Slots<'_, K, V> {
        debug_assert!(self.shift > 0, "a table is reset before it is used");
        let in_use = self.in_use();
        Slots {
            slots: &mut self.slots[..in_use],
            shift: self.shift,
            generation: self.generation,
        }
    }

    /// The slot of `key` (inserted with `init` when absent), whether it held `key` already,
    /// and its value.
    pub(crate) fn entry(&mut self, key: K, init: V) -> (usize, bool, &mut V) {
        let in_use = self.in_use();
        entry(
            &mut self.slots[..in_use],
            self.shift,
            self.generation,
            key,
            init,
        )
    }

    /// The value of `key`, if the table holds it.
    pub(crate) fn get(&self, key: K) -> Option<&V> {
        let (i, found) = self.probe(key);
        found.then(|| &self.slots[i].1)
    }

    /// Adds `key`; whether it was absent.
    pub(crate) fn insert(&mut self, key: K) -> bool {
        !self.entry(key, V::default()).1
    }
}

/// The slot of `key` in `slots` (the `2^(64 - shift)` in use, those of `generation`
/// filled), and whether it holds `key` (else it is the free slot where `key` goes).
#[inline(always)]
fn probe<K: Key, V>(slots: &[(K, V, u32)], shift: u32, generation: u32, key: K) -> (usize, bool) {
    // The length is a power of two: one less is the mask.
    let mask = slots.len() - 1;
    let mut i = (key.spread() >> shift) as usize;
    loop {
        let slot = &slots[i];
        if slot.2 != generation {
            return (i, false);
        }
        if slot.0 == key {
            return (i, true);
        }
        i = (i + 1) & mask;
    }
}

/// A table's slots in use, borrowed from it (`Table::slots`).
pub(crate) struct Slots<'t, K, V> {
    slots: &'t mut [(K, V, u32)],
    shift: u32,
    generation: u32,
}

impl<K: Key, V: Copy> Slots<'_, K, V> {
    /// `Table::entry` without the slot's index: whether the table held `key` already (else
    /// it is inserted with `init`), and its value.
    #[inline(always)]
    pub(crate) fn entry(&mut self, key: K, init: V) -> (bool, &mut V) {
        let (_, found, value) = entry(self.slots, self.shift, self.generation, key, init);
        (found, value)
    }

    /// `Table::entry`.
    #[inline(always)]
    pub(crate) fn entry_at(&mut self, key: K, init: V) -> (usize, bool, &mut V) {
        entry(self.slots, self.shift, self.generation, key, init)
    }

    /// The value in slot `slot` (from [`Slots::entry_at`]).
    pub(crate) fn value(&self, slot: usize) -> &V {
        &self.slots[slot].1
    }
}

/// [`Table::entry`] in `slots` (as [`probe`] reads them).
#[inline]
fn entry<K: Key, V>(
    slots: &mut [(K, V, u32)],
    shift: u32,
    generation: u32,
    key: K,
    init: V,
) -> (usize, bool, &mut V) {
    let (i, found) = probe(slots, shift, generation, key);
    let slot = &mut slots[i];
    if !found {
        *slot = (key, init, generation);
    }
    (i, found, &mut slot.1)
}
