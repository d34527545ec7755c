//! The inputs and the cut of `reverse-stage`'s learned stage (the model is
//! [`crate::methods::stage`]): per page, the measures its inputs read ([`StagePage`]: the
//! prefix sums over R, R's shape, the page's listing flag), per candidate element its named
//! inputs ([`Features`]), and the page's cut ([`PageCut`]). Everything comes from
//! `reverse`'s prefix sums and the subtree already built: no node is parsed for the stage.
//!
//! Measured leave-one-dataset-out (`outward eval --lodo --method reverse-stage`, each of the
//! eight bag-scored dev sets scored by a model trained on the other seven), 2026-11-25
//! (with the sibling, title and landing guards, and the thread peers): macro F1 0.8862
//! against 0.8841 without it, precision up on every set (cleanportaleval +0.017,
//! magic_html +0.016, wcxb +0.013, dragnet +0.013), no set's F1 down, but 213 pages missed
//! against 197. Not the default: the bar is +0.005. Site memory as more inputs of the stage
//! (the share of an element's text the memory marks template or repeated, whether the
//! element before it repeats, R's repeated share, the host's page count; training pages
//! judged with the memory of their own set) was measured the same way and not kept: with
//! `--site-memory`, macro F1 0.8849-0.8851 against 0.8855 with today's inputs; dragnet held
//! out, its 810 same-host pages 0.9193-0.9195 against 0.9182. The memory's template is
//! already pruned before the stage, and what it leaves on dragnet's same-host pages is
//! mostly not site furniture (a teaser printed twice in one page, truths that are the
//! comments). The `teasers` guard's measure as graded inputs (the size of an element's
//! largest group of same-shape children, that group's share of its text, the share of it
//! that are short cards opening with a linked headline; issue #37 item 7) was measured the
//! same way, 2026-11-29, and not kept: macro F1 0.8990 → 0.8991, pages missed 168 → 168,
//! every set within ±0.0007 (cleaneval −0.0006, htmltotext −0.0007, magic_html +0.0007,
//! cwced_zh +0.0007): the rule already takes the lists the inputs would teach.
//!
//! Invariants: a candidate's inputs are a pure function of the page, R and the element;
//! the stage prunes at most [`STAGE_BUDGET`] of R's text.

use super::scores::BlockScores;
use crate::Favor;
use crate::html::clean::Cleaned;
use crate::html::tags::Tag;
use crate::html::tree::{F_BOILER, F_GOOD, Kind, NONE, Node, Tree};
use crate::methods::stage::{FEATURES, Features, StageModel, heading_words, tag_word_groups};
use crate::text::page_title::flat_text;

/// The learned stage judges a content root only when at most this share of its text is in
/// blocks without sentence punctuation: an article, a post, a thread. On the other roots (a
/// product page, a landing page, a listing: short unpunctuated blocks are their text) the
/// datasets disagree on what is main text, and a model trained on articles prunes the page's
/// items (measured leave-one-dataset-out: without this gate, wcxb's F1 −0.022).
pub(super) const STAGE_MAX_UNPUNCTUATED: f64 = 0.3;

/// The stage prunes at most this share of R's text on a page: a wrong call costs a page at
/// most this much recall (without it, wcxb lost 6% more pages to misses).
pub(super) const STAGE_BUDGET: f32 = 0.3;

/// The stage's budget under `favor`: the share of R whose wrongful loss costs a clean R
/// (all of it main text) the same F_β as [`STAGE_BUDGET`] costs it F1. Losing a share s
/// of a clean R leaves recall 1 − s at precision 1, so F_β = (1 + β²)(1 − s) / (β² + 1 − s);
/// [`STAGE_BUDGET`]'s F1 is f = 2(1 − b) / (2 − b) (0.82), and s = 1 − β²f / (1 + β² − f):
/// 0.3 balanced, 0.52 for precision, 0.21 for recall.
pub(super) fn stage_budget(favor: Favor) -> f32 {
    let b = f64::from(STAGE_BUDGET);
    let f1 = 2.0 * (1.0 - b) / (2.0 - b);
    let beta2 = f64::from(favor.beta_squared());
    (1.0 - beta2 * f1 / (1.0 + beta2 - f1)) as f32
}

/// The learned stage's cut on one page. Taking out an element whose tokens are main text
/// with probability p raises a page's F1 exactly when p < F1 / 2 (see [`super::stage`]), so
/// the cut is half the F1 the model expects of this page's R: with `E` the share of R's text
/// the model expects to be main text (each outermost candidate's share weighted by its
/// probability, the text outside every candidate counted as main text) and the truth taken
/// to lie inside R, R's expected F1 is 2E / (1 + E), and the cut E / (1 + E). A clean R gets
/// a cut near 0.5, a root the model doubts a lower one: fewer wrong prunes where they cost
/// most. Measured leave-one-dataset-out against one cut for every page (half the training
/// pages' mean F1): macro F1 0.8829 → 0.8831, every set up or equal. Weighing the nested
/// candidates too (each by the text of its own that no candidate below it holds) measured
/// the same and scores every candidate up front.
///
/// `--favor` ([`Favor`]) changes the measure, not the rule: taking the element out raises
/// F_β exactly when p < F_β / (1 + β²) (the same algebra), R's expected F_β is
/// (1 + β²)·E / (β² + E), so the cut is E / (β² + E): E / (1 + E) balanced, E / (¼ + E)
/// for precision (the stage prunes what it doubts more), E / (4 + E) for recall.
pub(super) struct PageCut {
    cut: f32,
    /// E: the share of R's text the model expects to be main text.
    pub(super) expected: f32,
    /// The outermost candidates' probabilities, by node id (NaN for any other node).
    probability: Vec<f32>,
}

impl PageCut {
    /// Walk `roots` as the stage's emission does (subtrees the rules prune are left out)
    /// and score the outermost elements `judged` holds.
    pub(super) fn new(
        tree: &Tree,
        roots: &[u32],
        model: &StageModel,
        favor: Favor,
        inputs: &StagePage<'_>,
        rules_prune: impl Fn(u32) -> bool,
        judged: impl Fn(u32) -> bool,
    ) -> PageCut {
        let mut probability = vec![f32::NAN; tree.nodes.len()];
        let (mut outside, mut expected) = (1f32, 0f32);
        for &root in roots {
            let mut walk = tree.descendants(root);
            while let Some(id) = walk.next() {
                if id == root || tree.node(id).kind != Kind::Element {
                    continue;
                }
                if rules_prune(id) {
                    walk.skip_children(id);
                } else if judged(id) {
                    walk.skip_children(id);
                    let share = inputs.share_of_r(id);
                    let p = model.probability(&inputs.features(id));
                    outside -= share;
                    expected += share * p;
                    probability[id as usize] = p;
                }
            }
        }
        let expected = expected + outside.max(0.0);
        PageCut {
            cut: expected / (favor.beta_squared() + expected),
            expected,
            probability,
        }
    }

    /// Whether the stage prunes candidate `id` (its probability from the walk, or `score`).
    pub(super) fn prunes(&self, id: u32, score: impl FnOnce() -> f32) -> bool {
        let p = self
            .probability
            .get(id as usize)
            .copied()
            .unwrap_or(f32::NAN);
        let p = if p.is_nan() { score() } else { p };
        p < self.cut
    }
}

/// How [`Reverse::run`] treats the elements the learned stage judges.
pub(super) enum StageMode<'a> {
    /// The rules alone.
    Off,
    /// Prune the candidates the model calls boilerplate, for the F-measure `Favor` names.
    Apply(&'a StageModel, Favor),
    /// The rules alone; every candidate's inputs and text are gathered (training).
    Collect(&'a mut Vec<StageCandidate>),
}

/// One element the learned stage judges on a page: its inputs and its text as `reverse`'s
/// rules emit it (for labels).
#[derive(Debug, Clone, PartialEq)]
pub struct StageCandidate {
    pub x: [f32; FEATURES],
    pub text: String,
}

/// Per-page measures the stage's inputs read: `reverse`'s prefix sums, more of them, and R.
pub(super) struct StagePage<'a> {
    tree: &'a Tree,
    buf: &'a [u8],
    scores: &'a BlockScores,
    /// Prefix sums over R's blocks (`blocks[r_lo..]`): sentence punctuation, link text of
    /// every block, blocks without sentence punctuation.
    punct: Vec<f64>,
    all_link: Vec<f64>,
    unpunct: Vec<f64>,
    r_start: u32,
    r_len: f64,
    r: u32,
    r_weight: f64,
    r_link: f64,
    r_blocks: f64,
    /// Share of R's text in blocks without sentence punctuation.
    pub(super) r_unpunct: f64,
    /// R's first block.
    r_lo: usize,
    seed_block: f64,
    page_weight: f64,
    listing: bool,
    h1: Option<(u32, u32)>,
}

impl<'a> StagePage<'a> {
    pub(super) fn new(
        cleaned: &'a Cleaned,
        tree: &'a Tree,
        scores: &'a BlockScores,
        r: u32,
        seed_at: u32,
        listing: bool,
    ) -> Self {
        let rn = tree.node(r);
        let rt = scores.range(rn.start, rn.end);
        let (lo, hi) = scores.block_span(rn.start, rn.end);
        // Prefix sums over R's blocks only: every candidate lies inside R.
        let mut punct = Vec::with_capacity(hi - lo + 1);
        let mut all_link = Vec::with_capacity(hi - lo + 1);
        let mut unpunct = Vec::with_capacity(hi - lo + 1);
        let (mut p, mut l, mut u, mut unpunct_weight) = (0.0, 0.0, 0.0, 0.0);
        punct.push(p);
        all_link.push(l);
        unpunct.push(u);
        for b in &cleaned.blocks[lo..hi] {
            p += f64::from(b.punct);
            l += f64::from(b.link_weight);
            if b.punct == 0 {
                u += 1.0;
                unpunct_weight += f64::from(b.weight);
            }
            punct.push(p);
            all_link.push(l);
            unpunct.push(u);
        }
        StagePage {
            tree,
            buf: &cleaned.buf,
            scores,
            punct,
            all_link,
            unpunct,
            r_start: rn.start,
            r_len: f64::from(rn.end.saturating_sub(rn.start).max(1)),
            r,
            r_weight: rt.weight.max(1.0),
            r_link: rt.link / rt.weight.max(1.0),
            r_blocks: (hi - lo).max(1) as f64,
            r_unpunct: unpunct_weight / rt.weight.max(1.0),
            r_lo: lo,
            seed_block: scores.starts.partition_point(|&s| s < seed_at) as f64,
            page_weight: scores.weight.last().copied().unwrap_or(0.0),
            listing,
            h1: cleaned.h1,
        }
    }

    /// Whether the stage judges element `id`: it lies in R (the siblings the sibling guard
    /// adds are the rules' alone) and holds text (an element without text changes no output).
    pub(super) fn judges(&self, id: u32) -> bool {
        let n = self.tree.node(id);
        let r = self.tree.node(self.r);
        if n.start < r.start || n.end > r.end {
            return false;
        }
        let (lo, hi) = self.scores.block_span(n.start, n.end);
        hi > lo && self.scores.weight[hi] > self.scores.weight[lo]
    }

    /// The previous (`back`) or first-child element of `id`, past blank text.
    fn element_near(&self, mut k: u32, back: bool) -> Option<&'a Node> {
        for _ in 0..3 {
            if k == NONE {
                return None;
            }
            let n = self.tree.node(k);
            if n.kind == Kind::Element {
                return Some(n);
            }
            let text = &self.buf
                [(n.start as usize).min(self.buf.len())..(n.end as usize).min(self.buf.len())];
            if !text.iter().all(u8::is_ascii_whitespace) {
                return None;
            }
            k = if back { n.prev } else { n.next };
        }
        None
    }

    /// Element `id`'s share of R's text (input 1).
    pub(super) fn share_of_r(&self, id: u32) -> f32 {
        let n = self.tree.node(id);
        (self.scores.range(n.start, n.end).weight / self.r_weight) as f32
    }

    /// The stage's inputs for element `id` (see `stage::FEATURE_NAMES`).
    pub(super) fn features(&self, id: u32) -> [f32; FEATURES] {
        let n = self.tree.node(id);
        let t = self.scores.range(n.start, n.end);
        let (lo, hi) = self.scores.block_span(n.start, n.end);
        let w = t.weight.max(1.0);
        let blocks = (hi - lo) as f64;
        let mut depth = 0.0;
        let mut k = n.parent;
        while k != NONE && k != self.r {
            depth += 1.0;
            k = self.tree.node(k).parent;
        }
        let mut children = 0.0;
        let mut c = n.first_child;
        while c != NONE {
            let cn = self.tree.node(c);
            children += f64::from(u8::from(cn.kind == Kind::Element));
            c = cn.next;
        }
        let tag_end = memchr::memchr(b'>', &self.buf[n.start as usize..])
            .map_or(self.buf.len(), |e| n.start as usize + e + 1);
        let start_tag = &self.buf[n.start as usize..tag_end];
        let groups = tag_word_groups(start_tag);
        let flag = |f: u8| f64::from(u8::from(n.flags & f != 0));
        let heading = |e: Option<&Node>| {
            e.filter(|e| e.tag.is_heading())
                .map(|e| heading_words(&flat_text(self.buf, e.start as usize, e.end as usize)))
        };
        let before = heading(self.element_near(n.prev, true));
        let first = heading(self.element_near(n.first_child, false));
        let tag_group = match n.tag {
            Tag::Div => 0,
            Tag::Section | Tag::Article | Tag::Main => 1,
            Tag::Ul | Tag::Ol | Tag::Dl | Tag::Menu => 2,
            Tag::Li | Tag::Dd | Tag::Dt => 3,
            Tag::Table | Tag::Tbody | Tag::Thead | Tag::Tfoot | Tag::Tr | Tag::Td | Tag::Th => 4,
            Tag::P => 5,
            t if t.is_heading() => 6,
            Tag::Aside | Tag::Nav | Tag::Footer | Tag::Header => 7,
            Tag::Form | Tag::Fieldset => 8,
            Tag::Figure | Tag::Figcaption => 9,
            Tag::Blockquote | Tag::Pre => 10,
            Tag::Other => 11,
            _ => 12,
        };
        let span = |v: &[f64]| v[hi - self.r_lo] - v[lo - self.r_lo];
        let bit = |k: u32| f64::from(u8::from(groups & (1 << k) != 0));
        Features {
            ln_text: (1.0 + t.weight).ln(),
            share_of_r: t.weight / self.r_weight,
            link_list_link_share: t.link / w,
            good_share: t.good / w,
            bad_share: t.bad / w,
            menu_share: t.menu / w,
            hard_boilerplate_share: t.hard / w,
            punctuation_per_100_chars: 100.0 * span(&self.punct) / w,
            ln_blocks: (1.0 + blocks).ln(),
            ln_mean_block_text: (1.0 + t.weight / blocks.max(1.0)).ln(),
            tag_group: f64::from(tag_group),
            depth_below_r: depth,
            start_in_r: f64::from(n.start - self.r_start.min(n.start)) / self.r_len,
            end_in_r: f64::from(n.end.saturating_sub(self.r_start)) / self.r_len,
            blocks_from_seed: (lo as f64 - self.seed_block) / self.r_blocks,
            boilerplate_hint: flag(F_BOILER),
            content_hint: flag(F_GOOD),
            words_related: bit(0),
            words_share: bit(1),
            words_meta: bit(2),
            words_caption: bit(3),
            words_comment: bit(4),
            words_ad: bit(5),
            words_nav: bit(6),
            words_article: bit(7),
            previous_is_heading: f64::from(u8::from(before.is_some())),
            heading_words: f64::from(before.or(first).unwrap_or(0)),
            ln_page_text: (1.0 + self.page_weight).ln(),
            r_share_of_page: self.r_weight / self.page_weight.max(1.0),
            listing_page: f64::from(u8::from(self.listing)),
            r_link_list_link_share: self.r_link,
            ln_children: (1.0 + children).ln(),
            unpunctuated_block_share: span(&self.unpunct) / blocks.max(1.0),
            holds_h1: f64::from(u8::from(
                self.h1.is_some_and(|(s, e)| n.start <= s && e <= n.end),
            )),
            all_link_share: span(&self.all_link) / w,
            first_child_is_heading: f64::from(u8::from(first.is_some())),
        }
        .to_array()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_costs_every_favor_the_same_worst_f_beta() {
        assert_eq!(stage_budget(Favor::Balanced), STAGE_BUDGET);
        let (p, r) = (stage_budget(Favor::Precision), stage_budget(Favor::Recall));
        assert!(
            (p - 0.517).abs() < 0.001 && (r - 0.211).abs() < 0.001,
            "{p} {r}"
        );
        // Losing the budget of a clean R costs each F_β the same.
        let f_beta = |favor: Favor, s: f32| {
            let b2 = favor.beta_squared();
            (1.0 + b2) * (1.0 - s) / (b2 + 1.0 - s)
        };
        let f1 = f_beta(Favor::Balanced, STAGE_BUDGET);
        for favor in [Favor::Precision, Favor::Recall] {
            assert!(
                (f_beta(favor, stage_budget(favor)) - f1).abs() < 1e-5,
                "{favor:?}"
            );
        }
    }
}
