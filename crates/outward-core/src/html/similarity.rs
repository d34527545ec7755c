//! Tree similarity Sim(A, B) (paper 002 Fig. 3), with the fix that makes Sim(T, T) = 1:
//! each child's best match is weighted by the child's subtree size.
//!
//! Sim(A, B) = 0 if the labels differ (tag names; all text nodes share one label);
//! otherwise (2 + Σ_i size(a_i)·max_j Sim(a_i, b_j) + Σ_j size(b_j)·max_i Sim(b_j, a_i))
//! / (size(A) + size(B)).
//!
//! Invariants: iterative (explicit work stack, no recursion); memoised per pair; bounded
//! work: pairs whose sizes alone cap Sim below the threshold are skipped, and a work budget
//! aborts huge comparisons (returning 0: "not shown similar").

use crate::html::tree::{Kind, NONE, Tree};
use std::collections::HashMap;

/// Child-pair evaluations allowed for one comparison.
const WORK_BUDGET: usize = 200_000;

pub struct Similarity<'t> {
    tree: &'t Tree,
    buf: &'t [u8],
    sizes: HashMap<u32, u32>,
}

impl<'t> Similarity<'t> {
    pub fn new(tree: &'t Tree, buf: &'t [u8]) -> Self {
        Similarity {
            tree,
            buf,
            sizes: HashMap::new(),
        }
    }

    /// Subtree size of `id` (memoised; computed for the whole subtree in one iterative
    /// post-order pass).
    pub fn size(&mut self, id: u32) -> u32 {
        if let Some(&s) = self.sizes.get(&id) {
            return s;
        }
        let order: Vec<u32> = self.tree.descendants(id).collect();
        for &n in order.iter().rev() {
            let mut s = 1;
            for c in self.tree.children(n) {
                s += self.sizes.get(&c).copied().unwrap_or(1);
            }
            self.sizes.insert(n, s);
        }
        self.sizes.get(&id).copied().unwrap_or(1)
    }

    fn same_label(&self, a: u32, b: u32) -> bool {
        let (x, y) = (self.tree.node(a), self.tree.node(b));
        match (x.kind, y.kind) {
            (Kind::Text, Kind::Text) => true,
            (Kind::Text, _) | (_, Kind::Text) => false,
            _ => {
                x.tag == y.tag
                    && (x.tag != crate::html::tags::Tag::Other || self.name(a) == self.name(b))
            }
        }
    }

    fn name(&self, id: u32) -> &[u8] {
        let n = self.tree.node(id);
        let s = (n.name_start as usize).min(self.buf.len());
        &self.buf[s..(s + n.name_len as usize).min(self.buf.len())]
    }

    /// Sim(a, b), or 0 when the sizes alone keep it below `at_least` or the work budget runs
    /// out.
    pub fn sim(&mut self, a: u32, b: u32, at_least: f64) -> f64 {
        if a == NONE || b == NONE || !self.same_label(a, b) {
            return 0.0;
        }
        let (sa, sb) = (self.size(a) as f64, self.size(b) as f64);
        if 2.0 * sa.min(sb) / (sa + sb) < at_least {
            return 0.0;
        }
        let mut memo: HashMap<(u32, u32), f64> = HashMap::new();
        let mut stack = vec![(a, b)];
        let mut work = 0usize;
        while let Some(&(x, y)) = stack.last() {
            if memo.contains_key(&(x, y)) {
                stack.pop();
                continue;
            }
            let mut missing = false;
            for xi in self.tree.children(x) {
                for yj in self.tree.children(y) {
                    work += 1;
                    if work > WORK_BUDGET {
                        return 0.0;
                    }
                    if self.same_label(xi, yj) && !memo.contains_key(&(xi, yj)) {
                        stack.push((xi, yj));
                        missing = true;
                    }
                }
            }
            if missing {
                continue;
            }
            let mut score = 2.0;
            for xi in self.tree.children(x) {
                let best = self
                    .tree
                    .children(y)
                    .map(|yj| memo.get(&(xi, yj)).copied().unwrap_or(0.0))
                    .fold(0.0, f64::max);
                score += best * self.size(xi) as f64;
            }
            for yj in self.tree.children(y) {
                let best = self
                    .tree
                    .children(x)
                    .map(|xi| memo.get(&(xi, yj)).copied().unwrap_or(0.0))
                    .fold(0.0, f64::max);
                score += best * self.size(yj) as f64;
            }
            let total = (self.size(x) + self.size(y)) as f64;
            memo.insert((x, y), score / total);
            stack.pop();
        }
        memo.get(&(a, b)).copied().unwrap_or(0.0)
    }
}
