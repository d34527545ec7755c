//! The learned stage of `reverse` (issue #13): a model of gradient-boosted regression trees
//! that judges the block elements inside the content root R that `reverse`'s rules keep, so
//! that a teaser grid, a "more from" list or a subscription box inside the article's
//! container leaves the text. This file owns the model ([`StageModel`]: reading, writing,
//! applying) and the names and meaning of its inputs ([`FEATURE_NAMES`]); `reverse` measures
//! the inputs of each candidate element from its prefix sums and partial tree
//! ([`super::reverse`]), and `outward-learn` trains the trees.
//!
//! A candidate is an element `reverse` would emit and could prune (a block or unknown
//! element inside R, not an ancestor of the seed, not pruned by the rules, no ancestor
//! pruned). The model gives the probability that most of its tokens are main text; the
//! stage prunes it when that probability is under the page's cut. Removing an element
//! whose tokens are main text with probability p from a page scored F1 raises the page's
//! F1 exactly when p < F1 / 2 (bag-of-tokens F1 = 2TP / (2TP + FP + FN); taking out T
//! tokens, pT of them true, gives 2(TP − pT) / (2TP + FP + FN − T)), so the cut is half an
//! F1, not a tuned number: per page, half the F1 the model itself expects of the page's
//! content root (`reverse`'s `PageCut`). The model file holds the same rule's population
//! value, half the mean page F1 of its training pages, which `outward train` reports.
//!
//! Model format, version 1 (little-endian): the magic `OWGBT`, a version byte (1), the
//! number of inputs ([`FEATURES`]), a reserved byte; the cut and the base score (log-odds)
//! as f32; the number of trees (u32); per tree its node count (u32) and its nodes, each a
//! feature index (u16; `LEAF` for a leaf), two child indices (u16, later in the same tree:
//! no cycles) and a value (f32: the threshold, `x <= t` goes left, or the leaf's score);
//! last, the FNV-1a 64 hash of every byte before it (the model's digest).
//! [`StageModel::from_bytes`] refuses anything else with a [`StageModelError`], never a
//! panic.
//!
//! Invariants: `to_bytes(from_bytes(b)) == b` for every accepted `b`; applying a model is
//! at most (depth of its deepest tree) comparisons per tree, no allocation.

use crate::fnv1a;
use crate::html::tokenize::attribute;

/// Inputs of the model, in order (see [`FEATURE_NAMES`]).
pub const FEATURES: usize = 36;

/// The inputs of the model, each named where it is measured (`reverse`'s stage inputs fill a
/// [`Features`] by field) and where it is reported ([`FEATURE_NAMES`], for training reports
/// and importances): one list, so a field and its name cannot drift apart. Shares are of the
/// element's own text weight unless named otherwise; "R" is `reverse`'s content root.
macro_rules! features {
    ($($field:ident: $name:literal,)*) => {
        /// One candidate element's inputs, by name; [`Features::to_array`] gives them in the
        /// model's order.
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Features {
            $(#[doc = $name] pub $field: f64,)*
        }

        /// What each input measures, in the model's order.
        pub const FEATURE_NAMES: [&str; FEATURES] = [$($name,)*];

        impl Features {
            /// The inputs in the model's order (as `f32`, the model's type).
            pub fn to_array(&self) -> [f32; FEATURES] {
                [$(self.$field as f32,)*]
            }
        }
    };
}

features! {
    ln_text: "ln text",
    share_of_r: "share of R's text",
    link_list_link_share: "link-list link share",
    good_share: "good share",
    bad_share: "bad share",
    menu_share: "menu share",
    hard_boilerplate_share: "hard boilerplate share",
    punctuation_per_100_chars: "punctuation per 100 chars",
    ln_blocks: "ln blocks",
    ln_mean_block_text: "ln mean block text",
    tag_group: "tag group",
    depth_below_r: "depth below R",
    start_in_r: "start in R",
    end_in_r: "end in R",
    blocks_from_seed: "blocks from seed (signed, share of R's blocks)",
    boilerplate_hint: "boilerplate hint (excused)",
    content_hint: "content hint",
    words_related: "class/id: related, more, teaser",
    words_share: "class/id: share, social, subscribe",
    words_meta: "class/id: meta, byline, date, tags",
    words_caption: "class/id: caption, photo, media",
    words_comment: "class/id: comment, reply",
    words_ad: "class/id: ad, sponsor, promo",
    words_nav: "class/id: nav, menu, breadcrumb, pager",
    words_article: "class/id: article, content, post, body, text",
    previous_is_heading: "previous sibling is a heading",
    heading_words: "heading words (1 related, 2 comments, 3 share, 4 tags)",
    ln_page_text: "ln page text",
    r_share_of_page: "R's share of page text",
    listing_page: "listing page",
    r_link_list_link_share: "R's link-list link share",
    ln_children: "ln element children",
    unpunctuated_block_share: "share of blocks without punctuation",
    holds_h1: "holds the page's h1",
    all_link_share: "all-link share",
    first_child_is_heading: "first child is a heading",
}

/// Format version written by [`StageModel::to_bytes`].
pub const MODEL_VERSION: u8 = 1;

/// The feature index of a leaf node.
pub const LEAF: u16 = u16::MAX;

const MAGIC: &[u8; 5] = b"OWGBT";
/// Magic, version, feature count, reserved; cut, base, tree count.
const HEADER: usize = 8 + 4 + 4 + 4;
const NODE_BYTES: usize = 2 + 2 + 2 + 4;
/// Bounds that keep a corrupt count from allocating gigabytes (the trainer makes a few
/// hundred trees of at most a few dozen nodes).
pub const MAX_TREES: usize = 1 << 14;
pub const MAX_NODES: usize = 1 << 16;
/// The deepest tree a model may hold (the trainer grows at most 12 levels).
pub const MAX_DEPTH: u32 = 12;
/// The most leaves a model's trees may hold once made complete (see `Forest`).
pub const MAX_SLOTS: usize = 1 << 22;

/// The model trained on the eight bag-scored dev sets, shipped with the crate.
pub const DEFAULT_MODEL: &[u8] = include_bytes!("../../models/stage.model");

/// One node of a regression tree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeNode {
    /// Input compared ([`LEAF`] for a leaf).
    pub feature: u16,
    /// Child when `x[feature] <= value`.
    pub left: u16,
    pub right: u16,
    /// The threshold, or the leaf's score.
    pub value: f32,
}

/// Why model bytes were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StageModelError {
    Magic,
    Version(u8),
    Features(u8),
    Truncated,
    Trailing(usize),
    Checksum,
    TooLarge(u64),
    /// A child index not later in its tree, a feature out of range, or a number that is
    /// NaN or infinite.
    Value(&'static str),
}

impl std::fmt::Display for StageModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StageModelError::Magic => write!(f, "not an outward stage model (no OWGBT magic)"),
            StageModelError::Version(v) => write!(
                f,
                "stage model format version {v} (this build reads {MODEL_VERSION})"
            ),
            StageModelError::Features(n) => {
                write!(f, "stage model has {n} inputs (the stage has {FEATURES})")
            }
            StageModelError::Truncated => write!(f, "stage model is truncated"),
            StageModelError::Trailing(n) => write!(f, "stage model has {n} bytes after its end"),
            StageModelError::Checksum => {
                write!(f, "stage model checksum does not match (corrupt file)")
            }
            StageModelError::TooLarge(n) => write!(f, "stage model claims {n} trees or nodes"),
            StageModelError::Value(what) => write!(f, "stage model has a bad {what}"),
        }
    }
}

impl std::error::Error for StageModelError {}

/// Gradient-boosted regression trees over [`FEATURES`] inputs, and the training pages' cut.
#[derive(Debug, Clone, PartialEq)]
pub struct StageModel {
    cut: f32,
    base: f32,
    trees: Vec<Vec<TreeNode>>,
    /// The trees as `score` walks them.
    forest: Forest,
    digest: u64,
}

/// The trees as `score` walks them: each made complete to the depth `d` of the deepest (a
/// leaf above the last level becomes a test whose both sides hold the leaf), its `2^d − 1`
/// tests in level order (test `i`'s children at `2i + 1` and `2i + 2`) and its `2^d` leaf
/// values, all trees in two flat arrays. A walk is then `d` steps of index arithmetic with
/// no branch on the data, and [`Forest::score`] advances eight trees a level at a time so
/// that their chains of loads overlap; the sum is the linked trees' to the bit (same order).
#[derive(Debug, Clone, PartialEq, Default)]
struct Forest {
    depth: u32,
    /// Per tree `2^depth − 1` tests: the input compared and the threshold (`x <= t` goes
    /// left).
    tests: Vec<(u16, f32)>,
    /// Per tree `2^depth` leaf values.
    leaves: Vec<f32>,
}

impl Forest {
    /// The forest of `trees` (checked: children later, features in range), or `None` when a
    /// tree is deeper than [`MAX_DEPTH`] or the complete trees hold over [`MAX_SLOTS`] leaves.
    fn new(trees: &[Vec<TreeNode>]) -> Option<Forest> {
        let mut depth = 0;
        for tree in trees {
            // Parents come before their children, so a child's depth is final (the
            // deepest path to it) by the time its own turn comes.
            let mut depth_of = vec![0u32; tree.len()];
            for (i, n) in tree.iter().enumerate() {
                if n.feature != LEAF {
                    let d = depth_of[i] + 1;
                    for c in [n.left, n.right] {
                        depth_of[usize::from(c)] = depth_of[usize::from(c)].max(d);
                    }
                    depth = depth.max(d);
                }
            }
        }
        if depth > MAX_DEPTH || trees.len() << depth > MAX_SLOTS {
            return None;
        }
        let width = 1usize << depth;
        let mut forest = Forest {
            depth,
            tests: vec![(0, f32::INFINITY); trees.len() * (width - 1)],
            leaves: vec![0.0; trees.len() * width],
        };
        for (t, tree) in trees.iter().enumerate() {
            let tests = &mut forest.tests[t * (width - 1)..(t + 1) * (width - 1)];
            let leaves = &mut forest.leaves[t * width..(t + 1) * width];
            // (linked node, complete slot); a leaf above the last level fills every leaf
            // below its slot.
            let mut stack = vec![(0usize, 0usize)];
            while let Some((k, slot)) = stack.pop() {
                let n = tree[k];
                if n.feature != LEAF {
                    tests[slot] = (n.feature, n.value);
                    stack.push((usize::from(n.left), 2 * slot + 1));
                    stack.push((usize::from(n.right), 2 * slot + 2));
                    continue;
                }
                let (mut first, mut count) = (slot, 1usize);
                while first < width - 1 {
                    first = 2 * first + 1;
                    count *= 2;
                }
                leaves[first - (width - 1)..first - (width - 1) + count].fill(n.value);
            }
        }
        Some(forest)
    }

    /// `base` plus every tree's leaf for `x`, added in tree order.
    fn score(&self, base: f32, x: &[f32; FEATURES]) -> f32 {
        const LANES: usize = 8;
        let width = 1usize << self.depth;
        let mut sum = base;
        if self.depth == 0 {
            // Every tree a single leaf (or no tree): no test to walk.
            return self.leaves.iter().fold(sum, |s, v| s + v);
        }
        for (tests, leaves) in self
            .tests
            .chunks(LANES * (width - 1))
            .zip(self.leaves.chunks(LANES * width))
        {
            let lanes = leaves.len() / width;
            let mut at = [0usize; LANES];
            for _ in 0..self.depth {
                for (lane, i) in at.iter_mut().enumerate().take(lanes) {
                    let (feature, threshold) = tests[lane * (width - 1) + *i];
                    *i = 2 * *i + 2 - usize::from(x[usize::from(feature)] <= threshold);
                }
            }
            for (lane, i) in at.iter().enumerate().take(lanes) {
                sum += leaves[lane * width + *i - (width - 1)];
            }
        }
        sum
    }
}

impl StageModel {
    /// A model from its parts (the trainer's output), checked as [`from_bytes`] checks.
    ///
    /// [`from_bytes`]: Self::from_bytes
    pub fn new(cut: f32, base: f32, trees: Vec<Vec<TreeNode>>) -> Result<Self, StageModelError> {
        if !(cut.is_finite() && (0.0..=1.0).contains(&cut)) {
            return Err(StageModelError::Value("cut"));
        }
        if !base.is_finite() {
            return Err(StageModelError::Value("base score"));
        }
        if trees.len() > MAX_TREES {
            return Err(StageModelError::TooLarge(trees.len() as u64));
        }
        for tree in &trees {
            if tree.is_empty() || tree.len() > MAX_NODES {
                return Err(StageModelError::TooLarge(tree.len() as u64));
            }
            for (i, n) in tree.iter().enumerate() {
                if !n.value.is_finite() {
                    return Err(StageModelError::Value("node value"));
                }
                if n.feature == LEAF {
                    continue;
                }
                if usize::from(n.feature) >= FEATURES {
                    return Err(StageModelError::Value("feature index"));
                }
                let later = |c: u16| usize::from(c) > i && usize::from(c) < tree.len();
                if !later(n.left) || !later(n.right) {
                    return Err(StageModelError::Value("child index"));
                }
            }
        }
        let forest = Forest::new(&trees).ok_or(StageModelError::Value("tree depth"))?;
        let mut model = StageModel {
            cut,
            base,
            trees,
            forest,
            digest: 0,
        };
        model.digest = fnv1a(&model.encode());
        Ok(model)
    }

    /// Reads a model written by [`to_bytes`](Self::to_bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, StageModelError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(StageModelError::Magic);
        }
        if bytes.len() < HEADER + 8 {
            return Err(StageModelError::Truncated);
        }
        if bytes[5] != MODEL_VERSION {
            return Err(StageModelError::Version(bytes[5]));
        }
        if usize::from(bytes[6]) != FEATURES {
            return Err(StageModelError::Features(bytes[6]));
        }
        let end = bytes.len() - 8;
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let f32_at = |i: usize| f32::from_bits(u32_at(i));
        let (cut, base) = (f32_at(8), f32_at(12));
        let count = u64::from(u32_at(16));
        if count > MAX_TREES as u64 {
            return Err(StageModelError::TooLarge(count));
        }
        let mut at = HEADER;
        let mut trees = Vec::with_capacity(count as usize);
        for _ in 0..count {
            if at + 4 > end {
                return Err(StageModelError::Truncated);
            }
            let nodes = u64::from(u32_at(at));
            at += 4;
            if nodes > MAX_NODES as u64 {
                return Err(StageModelError::TooLarge(nodes));
            }
            let nodes = nodes as usize;
            if at + nodes * NODE_BYTES > end {
                return Err(StageModelError::Truncated);
            }
            let tree = (0..nodes)
                .map(|k| {
                    let p = at + k * NODE_BYTES;
                    TreeNode {
                        feature: u16_at(p),
                        left: u16_at(p + 2),
                        right: u16_at(p + 4),
                        value: f32_at(p + 6),
                    }
                })
                .collect();
            at += nodes * NODE_BYTES;
            trees.push(tree);
        }
        if at < end {
            return Err(StageModelError::Trailing(end - at));
        }
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[end..]);
        if u64::from_le_bytes(sum) != fnv1a(&bytes[..end]) {
            return Err(StageModelError::Checksum);
        }
        StageModel::new(cut, base, trees)
    }

    /// The bytes before the checksum.
    fn encode(&self) -> Vec<u8> {
        let nodes: usize = self.trees.iter().map(Vec::len).sum();
        let mut out = Vec::with_capacity(HEADER + 4 * self.trees.len() + nodes * NODE_BYTES + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[MODEL_VERSION, FEATURES as u8, 0]);
        out.extend_from_slice(&self.cut.to_le_bytes());
        out.extend_from_slice(&self.base.to_le_bytes());
        out.extend_from_slice(&(self.trees.len() as u32).to_le_bytes());
        for tree in &self.trees {
            out.extend_from_slice(&(tree.len() as u32).to_le_bytes());
            for n in tree {
                out.extend_from_slice(&n.feature.to_le_bytes());
                out.extend_from_slice(&n.left.to_le_bytes());
                out.extend_from_slice(&n.right.to_le_bytes());
                out.extend_from_slice(&n.value.to_le_bytes());
            }
        }
        out
    }

    /// The model file's bytes (see the module doc).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.encode();
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// FNV-1a 64 of the model's bytes: what the config hash holds.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// Half the mean page F1 of the training pages: the population value of the cut that
    /// the stage sets per page (`reverse`'s `PageCut`); reported by training.
    pub fn cut(&self) -> f32 {
        self.cut
    }

    pub fn trees(&self) -> &[Vec<TreeNode>] {
        &self.trees
    }

    /// The log-odds that the candidate with inputs `x` is main text.
    pub fn score(&self, x: &[f32; FEATURES]) -> f32 {
        self.forest.score(self.base, x)
    }

    /// The probability that the candidate with inputs `x` is main text.
    pub fn probability(&self, x: &[f32; FEATURES]) -> f32 {
        1.0 / (1.0 + (-self.score(x)).exp())
    }

    /// The shipped model ([`DEFAULT_MODEL`]); were its bytes ever unreadable (the tests check
    /// them), a model that prunes nothing (every probability 0.5, and no page's cut is above
    /// 0.5).
    pub fn default_model() -> StageModel {
        StageModel::from_bytes(DEFAULT_MODEL).unwrap_or_else(|_| StageModel {
            cut: 0.0,
            base: 0.0,
            trees: Vec::new(),
            forest: Forest::default(),
            digest: 0,
        })
    }
}

/// The leaf score tree `tree` gives `x` (`x[feature] <= value` goes left): what
/// [`StageModel::score`] adds up, for a tree being trained.
pub fn tree_score(tree: &[TreeNode], x: &[f32; FEATURES]) -> f32 {
    let mut i = 0usize;
    loop {
        let n = tree[i];
        if n.feature == LEAF {
            return n.value;
        }
        i = usize::from(if x[usize::from(n.feature)] <= n.value {
            n.left
        } else {
            n.right
        });
    }
}

/// Class and id words by their first byte, each with its group (the [`FEATURE_NAMES`]
/// from 17 on: 0 related reading, 1 sharing, 2 meta, 3 media, 4 comments, 5 ads, 6
/// navigation, 7 content).
fn group_words(first: u8) -> &'static [(&'static [u8], u8)] {
    match first {
        b'a' => &[
            (b"also", 0),
            (b"author", 2),
            (b"advert", 5),
            (b"article", 7),
        ],
        b'b' => &[
            (b"byline", 2),
            (b"banner", 5),
            (b"breadcrumb", 6),
            (b"body", 7),
        ],
        b'c' => &[
            (b"categor", 2),
            (b"caption", 3),
            (b"credit", 3),
            (b"comment", 4),
            (b"crumb", 6),
            (b"content", 7),
        ],
        b'd' => &[(b"date", 2), (b"discuss", 4), (b"disqus", 4)],
        b'e' => &[(b"entry", 7)],
        b'f' => &[
            (b"follow", 1),
            (b"facebook", 1),
            (b"figure", 3),
            (b"footer", 6),
        ],
        b'g' => &[(b"gallery", 3)],
        b'h' => &[(b"header", 6)],
        b'i' => &[(b"info", 2), (b"image", 3), (b"img", 3)],
        b'l' => &[(b"latest", 0)],
        b'm' => &[
            (b"more", 0),
            (b"meta", 2),
            (b"media", 3),
            (b"menu", 6),
            (b"main", 7),
        ],
        b'n' => &[(b"newsletter", 1), (b"nav", 6)],
        b'p' => &[
            (b"popular", 0),
            (b"photo", 3),
            (b"promo", 5),
            (b"pagin", 6),
            (b"pager", 6),
            (b"post", 7),
        ],
        b'r' => &[
            (b"related", 0),
            (b"recommend", 0),
            (b"readnext", 0),
            (b"reply", 4),
            (b"replies", 4),
            (b"respond", 4),
        ],
        b's' => &[
            (b"similar", 0),
            (b"share", 1),
            (b"sharing", 1),
            (b"social", 1),
            (b"subscribe", 1),
            (b"signup", 1),
            (b"sponsor", 5),
            (b"sidebar", 6),
            (b"story", 7),
        ],
        b't' => &[
            (b"teaser", 0),
            (b"trending", 0),
            (b"tweet", 1),
            (b"time", 2),
            (b"tag", 2),
            (b"text", 7),
        ],
        b'v' => &[(b"video", 3)],
        b'w' => &[(b"widget", 5)],
        _ => &[],
    }
}

/// Which of the word groups the canonical start tag `tag` (`<name flags id="…" class="…">`)
/// names in its id or class: bit k for group k. `ad`/`ads` as a whole word counts as group 5.
pub fn tag_word_groups(tag: &[u8]) -> u8 {
    let mut bits = 0u8;
    for value in [attribute(tag, b" id=\""), attribute(tag, b" class=\"")]
        .into_iter()
        .flatten()
    {
        let value = &value[..value.len().min(300)];
        let mut lower = [0u8; 300];
        let v = &mut lower[..value.len()];
        for (d, s) in v.iter_mut().zip(value) {
            *d = s.to_ascii_lowercase();
        }
        for i in 0..v.len() {
            for (word, group) in group_words(v[i]) {
                if v[i..].starts_with(word) {
                    bits |= 1 << group;
                }
            }
        }
        if v.split(|b| !b.is_ascii_alphanumeric())
            .any(|w| w == b"ad" || w == b"ads")
        {
            bits |= 1 << 5;
        }
    }
    bits
}

/// What a heading's text announces: 1 related or more reading, 2 comments, 3 sharing or
/// subscribing, 4 tags or categories, 0 anything else (lowercase ASCII words; other scripts'
/// headings are 0).
pub fn heading_words(text: &str) -> u8 {
    let t = text.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    if t.len() > 200 {
        0
    } else if has(&[
        "related",
        "more",
        "also",
        "popular",
        "recommended",
        "latest",
        "trending",
        "you may",
        "next",
    ]) {
        1
    } else if has(&["comment", "repl", "respon", "discuss"]) {
        2
    } else if has(&["share", "follow", "subscribe", "newsletter", "sign up"]) {
        3
    } else if has(&["tag", "categor", "topic", "filed"]) {
        4
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stump(feature: u16, threshold: f32, left: f32, right: f32) -> Vec<TreeNode> {
        vec![
            TreeNode {
                feature,
                left: 1,
                right: 2,
                value: threshold,
            },
            TreeNode {
                feature: LEAF,
                left: 0,
                right: 0,
                value: left,
            },
            TreeNode {
                feature: LEAF,
                left: 0,
                right: 0,
                value: right,
            },
        ]
    }

    #[test]
    fn trees_add_their_leaves() {
        // Link share (input 2) above 0.5 → −3, else +2; ln text (input 0) above 3 → +1.
        let model = StageModel::new(
            0.45,
            0.0,
            vec![stump(2, 0.5, 2.0, -3.0), stump(0, 3.0, 0.0, 1.0)],
        )
        .unwrap();
        let mut x = [0f32; FEATURES];
        x[2] = 0.9;
        x[0] = 4.0;
        assert_eq!(model.score(&x), -2.0);
        assert!((model.probability(&x) - 0.1192).abs() < 1e-4);
        x[2] = 0.1;
        assert_eq!(model.score(&x), 3.0);
        assert!((model.probability(&x) - 0.9526).abs() < 1e-4);
    }

    /// A model without trees, or whose trees are all single leaves, walks no test: scoring
    /// one panicked on a chunk size of zero (found by `--favor recall`'s test, whose
    /// confidence models have no trees).
    #[test]
    fn trees_of_leaves_alone_score_their_sum() {
        let x = [0f32; FEATURES];
        assert_eq!(
            StageModel::new(0.4, 1.5, Vec::new()).unwrap().score(&x),
            1.5
        );
        let leaf = |value| TreeNode {
            feature: LEAF,
            left: 0,
            right: 0,
            value,
        };
        let leaves = StageModel::new(0.4, 1.0, vec![vec![leaf(0.5)], vec![leaf(-2.0)]]).unwrap();
        assert_eq!(leaves.score(&x), -0.5);
        let fallback = StageModel::default_model();
        assert!(fallback.probability(&x).is_finite());
    }

    #[test]
    fn the_forest_scores_as_the_linked_trees_do() {
        // Unbalanced trees: a leaf at depth 1 beside a subtree of depth 3, a chain, a lone
        // leaf, and a child two parents share at different depths.
        let node = |feature: u16, value: f32, left: u16, right: u16| TreeNode {
            feature,
            value,
            left,
            right,
        };
        let leaf = |value: f32| node(LEAF, value, 0, 0);
        let trees = [
            vec![
                node(0, 0.5, 1, 2),
                leaf(-1.0),
                node(1, 0.25, 3, 4),
                leaf(0.5),
                node(2, 0.75, 5, 6),
                leaf(2.0),
                leaf(-3.0),
            ],
            vec![
                node(3, 0.1, 1, 2),
                node(4, 0.2, 2, 3),
                leaf(7.0),
                leaf(-7.0),
            ],
            vec![leaf(0.25)],
            vec![
                node(5, 0.5, 1, 3),
                node(6, 0.5, 2, 3),
                node(7, 0.5, 3, 4),
                leaf(1.5),
                leaf(-1.5),
            ],
        ];
        // 20 trees: two full chunks of eight lanes and one of four.
        let trees: Vec<Vec<TreeNode>> = trees.iter().cycle().take(20).cloned().collect();
        let model = StageModel::new(0.4, 0.125, trees.clone()).unwrap();
        let values = [f32::NAN, -1.0, 0.0, 0.1, 0.2, 0.25, 0.5, 0.75, 1.0];
        let mut x = [0f32; FEATURES];
        for seed in 0..5000usize {
            for (f, v) in x.iter_mut().take(8).enumerate() {
                *v = values[(seed / 9usize.pow(f as u32 % 4) + f) % values.len()];
            }
            let linked = trees
                .iter()
                .fold(0.125f32, |sum, t| sum + tree_score(t, &x));
            assert_eq!(model.score(&x).to_bits(), linked.to_bits(), "inputs {x:?}");
        }
        // Trees of several depths: the shallow ones are padded to the deepest.
        let mixed = StageModel::new(0.4, 0.0, vec![trees[2].clone(), trees[0].clone()]).unwrap();
        x[0] = 0.75;
        x[1] = 0.5;
        x[2] = 0.5;
        assert_eq!(mixed.score(&x), 0.25 + 2.0);
        // Deeper than MAX_DEPTH: refused, not allocated.
        // Test k at 2k: a leaf at 2k + 1 on its left, the next test (or the last leaf) on
        // its right; MAX_DEPTH + 1 tests deep.
        let mut chain: Vec<TreeNode> = (0..=MAX_DEPTH as u16)
            .flat_map(|k| [node(0, 0.0, 2 * k + 1, 2 * k + 2), leaf(0.0)])
            .collect();
        chain.push(leaf(0.0));
        assert_eq!(
            StageModel::new(0.4, 0.0, vec![chain]).unwrap_err(),
            StageModelError::Value("tree depth")
        );
    }

    #[test]
    fn model_bytes_round_trip_and_bad_bytes_are_refused() {
        let model = StageModel::new(0.4, -0.5, vec![stump(3, 0.25, 1.0, -1.0)]).unwrap();
        let bytes = model.to_bytes();
        let back = StageModel::from_bytes(&bytes).unwrap();
        assert_eq!(back, model);
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.digest(), fnv1a(&bytes[..bytes.len() - 8]));
        assert_eq!(
            StageModel::from_bytes(b"OWSVM..."),
            Err(StageModelError::Magic)
        );
        for cut in 0..bytes.len() {
            assert!(
                StageModel::from_bytes(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut flipped = bytes.clone();
        flipped[HEADER + 6] ^= 1;
        assert_eq!(
            StageModel::from_bytes(&flipped),
            Err(StageModelError::Checksum)
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(StageModel::from_bytes(&longer).is_err());
        // A child that points back (a cycle) or a feature beyond the inputs is refused.
        let mut cyclic = stump(3, 0.25, 1.0, -1.0);
        cyclic[0].left = 0;
        assert_eq!(
            StageModel::new(0.4, 0.0, vec![cyclic]),
            Err(StageModelError::Value("child index"))
        );
        assert_eq!(
            StageModel::new(0.4, 0.0, vec![stump(FEATURES as u16, 0.0, 0.0, 0.0)]),
            Err(StageModelError::Value("feature index"))
        );
    }

    #[test]
    fn the_shipped_model_reads() {
        let model = StageModel::from_bytes(DEFAULT_MODEL).unwrap();
        assert!(!model.trees().is_empty());
        assert!(model.cut() > 0.0 && model.cut() < 1.0);
    }

    #[test]
    fn class_words_and_heading_words() {
        assert_eq!(
            tag_word_groups(b"<div b id=\"related-links\" class=\"Widget teaser\">"),
            1 | (1 << 5)
        );
        assert_eq!(tag_word_groups(b"<aside class=\"top ad slot\">"), 1 << 5);
        assert_eq!(tag_word_groups(b"<div class=\"entry-content\">"), 1 << 7);
        assert_eq!(tag_word_groups(b"<div>"), 0);
        assert_eq!(
            tag_word_groups(b"<div b g class=\"x\" id=\"main\">"),
            1 << 7
        );
        assert_eq!(heading_words("Related Articles"), 1);
        assert_eq!(heading_words("3 Comments"), 2);
        assert_eq!(heading_words("Share this"), 3);
        assert_eq!(heading_words("Filed under"), 4);
        assert_eq!(heading_words("The Battle of Hastings"), 0);
    }
}
