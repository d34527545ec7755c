//! An open-addressing hash table of integer keys, reset and reused per document or pass:
//! [`Table`] (the word ids and the n-gram passes insert once per word, and a general map's
//! hashing, growth and clearing were most of their cost).
//!
//! Invariant: a slot belongs to the current use only when it carries the table's generation,
//! so a reset clears nothing.

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
        let mask = (1usize << (64 - self.shift)) - 1;
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

    /// The slot of `key` (inserted with `init` when absent), whether it held `key` already,
    /// and its value.
    pub(crate) fn entry(&mut self, key: K, init: V) -> (usize, bool, &mut V) {
        let (i, found) = self.probe(key);
        let slot = &mut self.slots[i];
        if !found {
            *slot = (key, init, self.generation);
        }
        (i, found, &mut slot.1)
    }

    /// The value of `key`, if the table holds it.
    pub(crate) fn get(&self, key: K) -> Option<&V> {
        let (i, found) = self.probe(key);
        found.then(|| &self.slots[i].1)
    }

    pub(crate) fn value(&self, slot: usize) -> &V {
        &self.slots[slot].1
    }

    /// Adds `key`; whether it was absent.
    pub(crate) fn insert(&mut self, key: K) -> bool {
        !self.entry(key, V::default()).1
    }
}
