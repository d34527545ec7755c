//! Tree similarity Sim(A, B) (paper 002 Fig. 3), with the fix that makes Sim(T, T) = 1:
//! each child's best match is weighted by the child's subtree size.
//!
//! Sim(A, B) = 0 if the labels differ (tag names; all text nodes share one label);
//! otherwise (2 + Σ_i size(a_i)·max_j Sim(a_i, b_j) + Σ_j size(b_j)·max_i Sim(b_j, a_i))
//! / (size(A) + size(B)).
//!
//! Invariants: iterative (explicit work stack, no recursion); memoised per node pair and,
//! across the comparisons of a page, by the structure of the two subtrees ([`SimMemo`]: Sim
//! depends only on labels and shape, so many similar siblings are compared once); bounded
//! work: pairs whose sizes alone cap Sim below the threshold are skipped, a work budget
//! aborts one huge comparison, and a page's budget of child-pair evaluations
//! ([`SimMemo::new`]) ends all of them (each returning 0: "not shown similar").

use crate::html::tree::{Kind, NONE, Tree};

/// Maps of node ids and structure hashes: FxHash, where SipHash cost more than the comparisons.
type IntMap<K, V> = outward_base::fxhash::FxHashMap<K, V>;

/// Child-pair evaluations allowed for one comparison.
const WORK_BUDGET: usize = 200_000;

/// What the tree similarity keeps across the comparisons of one page: Sim by the structure
/// hashes of the two subtrees, and the page's budget of child-pair evaluations.
#[derive(Debug)]
pub struct SimMemo {
    by_shape: IntMap<(u64, u64), f64>,
    budget: u64,
    /// Child-pair evaluations made so far on this page.
    pub pairs: u64,
    /// The page's budget ran out: comparisons made after it returned 0.
    pub exhausted: bool,
}

impl SimMemo {
    /// A page's memo allowing `budget` child-pair evaluations in all.
    pub fn new(budget: u64) -> SimMemo {
        SimMemo {
            by_shape: IntMap::default(),
            budget,
            pairs: 0,
            exhausted: false,
        }
    }

    /// Takes one evaluation from the page's budget; false when none is left.
    fn take_pair(&mut self) -> bool {
        if self.pairs >= self.budget {
            self.exhausted = true;
            return false;
        }
        self.pairs += 1;
        true
    }
}

/// Sim over one (partial) tree, with the page's [`SimMemo`].
pub struct Similarity<'t, 'm> {
    tree: &'t Tree,
    buf: &'t [u8],
    /// Subtree size and structure hash by node id.
    shapes: IntMap<u32, (u32, u64)>,
    memo: &'m mut SimMemo,
}

impl<'t, 'm> Similarity<'t, 'm> {
    pub fn new(tree: &'t Tree, buf: &'t [u8], memo: &'m mut SimMemo) -> Self {
        Similarity {
            tree,
            buf,
            shapes: IntMap::default(),
            memo,
        }
    }

    /// Subtree size of `id`.
    pub fn size(&mut self, id: u32) -> u32 {
        self.shape(id).0
    }

    /// Subtree size and structure hash of `id` (labels and shape; memoised, computed for the
    /// whole subtree in one iterative post-order pass).
    fn shape(&mut self, id: u32) -> (u32, u64) {
        if let Some(&known) = self.shapes.get(&id) {
            return known;
        }
        let order: Vec<u32> = self.tree.descendants(id).collect();
        for &n in order.iter().rev() {
            let mut size = 1u32;
            let mut hash = mix(self.label_hash(n));
            for c in self.tree.children(n) {
                let (cs, ch) = self.shapes.get(&c).copied().unwrap_or((1, 0));
                size = size.saturating_add(cs);
                hash = mix(hash ^ ch);
            }
            // A child list's end, so that (a(b)) and (a, b) hash apart.
            self.shapes.insert(n, (size, mix(hash ^ 0x5bd1_e995)));
        }
        self.shapes.get(&id).copied().unwrap_or((1, 0))
    }

    /// A hash of the label `same_label` compares.
    fn label_hash(&self, id: u32) -> u64 {
        let n = self.tree.node(id);
        match n.kind {
            Kind::Text => 1,
            _ if n.tag == crate::html::tags::Tag::Other => crate::fnv1a(self.name(id)),
            _ => 2 + n.tag as u8 as u64,
        }
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

    /// Sim(a, b), or 0 when the sizes alone keep it below `at_least` or a work budget runs
    /// out.
    pub fn sim(&mut self, a: u32, b: u32, at_least: f64) -> f64 {
        if a == NONE || b == NONE || !self.same_label(a, b) {
            return 0.0;
        }
        let ((sa, ha), (sb, hb)) = (self.shape(a), self.shape(b));
        if 2.0 * f64::from(sa.min(sb)) / (f64::from(sa) + f64::from(sb)) < at_least {
            return 0.0;
        }
        if let Some(known) = self.known(ha, hb) {
            return known;
        }
        let mut memo: IntMap<(u32, u32), f64> = IntMap::default();
        let mut stack = vec![(a, b)];
        let mut work = 0usize;
        while let Some(&(x, y)) = stack.last() {
            if memo.contains_key(&(x, y)) {
                stack.pop();
                continue;
            }
            let mut missing = false;
            let shaped = |sim: &mut Self, n: u32| -> Vec<(u32, u64)> {
                let kids: Vec<u32> = sim.tree.children(n).collect();
                kids.into_iter().map(|c| (c, sim.shape(c).1)).collect()
            };
            let (xs, ys) = (shaped(self, x), shaped(self, y));
            for &(xi, hx) in &xs {
                for &(yj, hy) in &ys {
                    work += 1;
                    if work > WORK_BUDGET || !self.memo.take_pair() {
                        return 0.0;
                    }
                    if self.same_label(xi, yj) && !memo.contains_key(&(xi, yj)) {
                        match self.known(hx, hy) {
                            Some(v) => {
                                memo.insert((xi, yj), v);
                            }
                            None => {
                                stack.push((xi, yj));
                                missing = true;
                            }
                        }
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
            let (sx, hx) = self.shape(x);
            let (sy, hy) = self.shape(y);
            let value = score / (sx + sy) as f64;
            memo.insert((x, y), value);
            self.memo.by_shape.insert((hx, hy), value);
            stack.pop();
        }
        memo.get(&(a, b)).copied().unwrap_or(0.0)
    }

    /// Sim of two subtrees by their structure hashes when it is known without comparing them:
    /// 1 for the same structure, or a value an earlier comparison of the page computed.
    fn known(&self, ha: u64, hb: u64) -> Option<f64> {
        if ha == hb {
            return Some(1.0);
        }
        self.memo.by_shape.get(&(ha, hb)).copied()
    }
}

/// A 64-bit finaliser (splitmix64's): spreads a combined hash over all bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::partial::PartialParse;

    /// The element children of the root's only element child (the page's top element).
    fn sections(p: &PartialParse, root: u32) -> Vec<u32> {
        let top = p
            .tree
            .children(root)
            .find(|&c| p.tree.node(c).kind == Kind::Element)
            .unwrap();
        p.tree
            .children(top)
            .filter(|&c| p.tree.node(c).kind == Kind::Element)
            .collect()
    }

    #[test]
    fn the_structure_memo_gives_what_a_fresh_comparison_gives() {
        let html = b"<main>\
            <div><p>a</p><p>b <b>c</b></p><ul><li>x</li><li>y</li></ul></div>\
            <div><p>a</p><p>b <b>c</b></p><ul><li>x</li><li>y</li></ul></div>\
            <div><p>a</p><p>b</p><ul><li>x</li></ul></div>\
            <div><p>a</p><p>b <i>c</i></p><ul><li>x</li><li>y</li><li>z</li></ul></div>\
            <div><span>a</span><p>b <b>c</b></p></div>\
            <div><p>a</p><div><p>b <b>c</b></p><ul><li>x</li><li>y</li></ul></div></div>\
            </main>";
        let (p, root) = PartialParse::full(html);
        let divs = sections(&p, root);
        assert_eq!(divs.len(), 6);
        let mut shared = SimMemo::new(u64::MAX);
        for &a in &divs {
            for &b in &divs {
                let with_memo = Similarity::new(&p.tree, html, &mut shared).sim(a, b, 0.0);
                let mut alone = SimMemo::new(u64::MAX);
                let fresh = Similarity::new(&p.tree, html, &mut alone).sim(a, b, 0.0);
                assert_eq!(with_memo, fresh, "{a} {b}");
                assert!((0.0..=1.0).contains(&fresh));
            }
        }
        let mut memo = SimMemo::new(u64::MAX);
        let mut sim = Similarity::new(&p.tree, html, &mut memo);
        assert_eq!(sim.sim(divs[0], divs[1], 0.0), 1.0, "identical subtrees");
        let differs = sim.sim(divs[0], divs[2], 0.0);
        assert!(differs > 0.3 && differs < 1.0, "{differs}");
        assert!(sim.sim(divs[0], divs[5], 0.0) < 1.0);
        // Different element labels somewhere below: not identical.
        assert!(sim.sim(divs[0], divs[3], 0.0) < 1.0);
    }

    #[test]
    fn many_similar_siblings_are_compared_once() {
        let sibling = "<div><p>a <b>b</b></p><p>c</p><ul><li>1</li><li>2</li></ul></div>";
        let html = format!(
            "<main><div><p>a <i>b</i></p><p>c</p><ul><li>1</li></ul></div>{}</main>",
            sibling.repeat(1000)
        );
        let (p, root) = PartialParse::full(html.as_bytes());
        let divs = sections(&p, root);
        let mut memo = SimMemo::new(u64::MAX);
        let first = Similarity::new(&p.tree, html.as_bytes(), &mut memo).sim(divs[0], divs[1], 0.0);
        let one_comparison = memo.pairs;
        assert!(one_comparison > 0);
        for &d in &divs[2..] {
            let s = Similarity::new(&p.tree, html.as_bytes(), &mut memo).sim(divs[0], d, 0.0);
            assert_eq!(s, first);
        }
        assert_eq!(
            memo.pairs, one_comparison,
            "the other 999 came from the memo"
        );
        assert!(!memo.exhausted);
    }

    #[test]
    fn a_page_budget_ends_the_comparisons() {
        let row = |k: usize| format!("<div>{}</div>", "<p>x <b>y</b></p><span>z</span>".repeat(k));
        let html = format!("<main>{}{}{}</main>", row(40), row(41), row(39));
        let (p, root) = PartialParse::full(html.as_bytes());
        let divs = sections(&p, root);
        let mut unlimited = SimMemo::new(u64::MAX);
        let full =
            Similarity::new(&p.tree, html.as_bytes(), &mut unlimited).sim(divs[0], divs[1], 0.0);
        assert!(full > 0.9, "{full}");
        let needed = unlimited.pairs;
        let mut memo = SimMemo::new(needed - 1);
        let mut sim = Similarity::new(&p.tree, html.as_bytes(), &mut memo);
        assert_eq!(sim.sim(divs[0], divs[1], 0.0), 0.0, "not shown similar");
        assert_eq!(
            sim.sim(divs[0], divs[2], 0.0),
            0.0,
            "nothing left for the next"
        );
        assert!(memo.exhausted);
        assert_eq!(memo.pairs, needed - 1);
        let mut enough = SimMemo::new(needed);
        assert_eq!(
            Similarity::new(&p.tree, html.as_bytes(), &mut enough).sim(divs[0], divs[1], 0.0),
            full
        );
        assert!(!enough.exhausted);
    }
}
