//! The one fast, unkeyed hasher of the workspace (rustc's FxHash step: rotate, xor, multiply):
//! for maps of short strings and integers whose keys come from our own data (token bags, tree
//! shapes, words), where SipHash cost more than the work around it and no adversary picks keys.
//!
//! Invariant: an integer key (`u8` .. `u64`, `usize`) is one step of its value; bytes go in
//! eight at a time, a short tail mixed with its length. Callers rely only on equal keys
//! hashing equal, never on an iteration order.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash over the words of the input.
#[derive(Debug, Default, Clone, Copy)]
pub struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for ch in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(ch);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// FxHash of `bytes` as `Hasher::write` takes them (no length suffix, unlike `Hash for str`):
/// for keys computed by hand rather than through a map.
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(bytes);
    hasher.finish()
}

pub type FxBuildHasher = BuildHasherDefault<FxHasher>;
pub type FxHashMap<K, V> = HashMap<K, V, FxBuildHasher>;
pub type FxHashSet<K> = HashSet<K, FxBuildHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn an_integer_is_one_step_and_a_tail_carries_its_length() {
        let hash = |x: &dyn Fn(&mut FxHasher)| {
            let mut h = FxHasher::default();
            x(&mut h);
            h.finish()
        };
        assert_eq!(hash(&|h| h.write_u32(7)), hash(&|h| h.write_u64(7)));
        assert_eq!(hash(&|h| h.write_u8(7)), hash(&|h| h.write_usize(7)));
        // "a" and "a\0" fill the same word; the length tells them apart.
        assert_ne!(hash(&|h| h.write(b"a")), hash(&|h| h.write(b"a\0")));
        let b = FxBuildHasher::default();
        assert_eq!(b.hash_one("word"), b.hash_one("word"));
        assert_ne!(b.hash_one("word"), b.hash_one("words"));
    }
}
