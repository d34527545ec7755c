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
            let tail = match bytes.len() {
                // The last eight bytes read at once, the tail's in the high ones, shifted
                // down: the tail zero-padded, without a copy of a length known only when run.
                8.. => {
                    let last: [u8; 8] = bytes[bytes.len() - 8..].try_into().expect("eight bytes");
                    u64::from_le_bytes(last) >> (8 * (8 - rest.len()))
                }
                _ => rest.iter().rev().fold(0, |w, &b| w << 8 | u64::from(b)),
            };
            self.add(tail ^ ((rest.len() as u64) << 59));
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

    /// A tail is hashed as its bytes zero-padded to eight, however it is read.
    #[test]
    fn a_tail_is_its_bytes_zero_padded() {
        let padded = |bytes: &[u8]| {
            let mut h = FxHasher::default();
            let mut chunks = bytes.chunks_exact(8);
            for ch in &mut chunks {
                h.add(u64::from_le_bytes(ch.try_into().unwrap()));
            }
            let rest = chunks.remainder();
            if !rest.is_empty() {
                let mut w = [0u8; 8];
                w[..rest.len()].copy_from_slice(rest);
                h.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
            }
            h.finish()
        };
        let text: Vec<u8> = (0..40u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(200))
            .collect();
        for start in 0..8 {
            for end in start..text.len() {
                assert_eq!(hash_bytes(&text[start..end]), padded(&text[start..end]));
            }
        }
    }
}
