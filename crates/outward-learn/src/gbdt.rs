//! Training of `reverse`'s learned stage: its samples (the candidate elements `reverse`
//! leaves in its content root, labelled from the truth, [`page_stage_samples`]) and a
//! gradient-boosted tree learner ([`train`]) that writes a
//! [`StageModel`](outward_core::methods::stage::StageModel).
//!
//! The learner: logistic loss, second-order leaf values `−G / (H + λ)` shrunk by the
//! learning rate, trees grown level by level to a fixed depth over histograms of at most
//! [`GbdtParams::bins`] bins per input (thresholds are values the inputs take, so a model
//! applied to the same numbers splits them as in training), a split only where both sides
//! hold [`GbdtParams::min_leaf`] of sample weight. A sample weighs its share of its page's
//! output tokens, so every page counts as much as the per-page F1 the scorer averages and a
//! long page's elements do not drown a short page's. The cut is half the mean per-page F1
//! of `reverse` on the training pages (see `outward_core::methods::stage`).
//!
//! Invariants: deterministic (no randomness, no hash order: the same samples in the same
//! order give the same model bytes); time O(trees × depth × samples × inputs).

use outward_core::methods::reverse::{Guards, Reverse};
use outward_core::methods::stage::{FEATURES, LEAF, StageModel, TreeNode, tree_score};
use outward_core::{Page, SiteContext};

use crate::{LearnError, TruthBag};

/// One candidate element of a page, labelled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StageSample {
    pub x: [f32; FEATURES],
    /// Most of its tokens are in the truth.
    pub content: bool,
    /// Its tokens over the tokens of its page's output.
    pub weight: f32,
    /// `reverse`'s F1 on its page; set on the first sample of each page, NaN on the others.
    pub page_f1: f32,
}

/// The labelled candidates of `page` (those with tokens), in the order `reverse` (with
/// `guards`) meets them.
pub fn page_stage_samples(page: &Page, truth: &TruthBag, guards: Guards) -> Vec<StageSample> {
    let reverse = Reverse {
        guards,
        ..Reverse::default()
    };
    let (extraction, candidates) = reverse.stage_candidates(page, &SiteContext::default());
    let (inside, total) = truth.overlap(extraction.blocks.text());
    if total == 0 {
        return Vec::new();
    }
    let f1 = truth.f1((inside, total));
    let mut out: Vec<StageSample> = candidates
        .iter()
        .filter_map(|c| {
            let (inside, tokens) = truth.overlap(&c.text);
            (tokens > 0).then(|| StageSample {
                x: c.x,
                content: 2 * inside > tokens,
                weight: (tokens as f64 / total as f64) as f32,
                page_f1: f32::NAN,
            })
        })
        .collect();
    if let Some(first) = out.first_mut() {
        first.page_f1 = f1 as f32;
    }
    out
}

/// The learner's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct GbdtParams {
    pub trees: usize,
    pub depth: usize,
    pub learning_rate: f64,
    /// L2 penalty on leaf values (λ).
    pub lambda: f64,
    /// Sample weight each side of a split must hold (a page's output weighs 1).
    pub min_leaf: f64,
    /// Histogram bins per input (at most 256).
    pub bins: usize,
}

impl Default for GbdtParams {
    fn default() -> Self {
        GbdtParams {
            trees: 120,
            depth: 4,
            learning_rate: 0.1,
            lambda: 1.0,
            min_leaf: 3.0,
            bins: 64,
        }
    }
}

/// What training did.
#[derive(Debug, Clone, PartialEq)]
pub struct GbdtReport {
    pub samples: usize,
    pub content: usize,
    pub pages: usize,
    /// Mean per-page F1 of `reverse` on the training pages; the cut is half of it.
    pub mean_page_f1: f64,
    /// Weighted log loss on the training samples, before the first tree and after the last.
    pub loss_before: f64,
    pub loss_after: f64,
    /// Per input: the loss reduction its splits made, as a share of all splits' (sums to 1).
    pub importance: [f64; FEATURES],
}

/// Per input: thresholds (ascending values the input takes) and every sample's bin.
struct Binned {
    thresholds: Vec<Vec<f32>>,
    /// `bins[i * FEATURES + f]`: the bin of sample i on input f (x <= thresholds[f][bin]).
    /// A sample's bins are one row, so a node's histograms are filled in one pass over its
    /// samples, every input's at once (see `grow_tree`).
    bins: Vec<u8>,
}

impl Binned {
    /// Sample i's bins, one per input.
    fn row(&self, i: usize) -> &[u8; FEATURES] {
        self.bins[i * FEATURES..(i + 1) * FEATURES]
            .try_into()
            .expect("a row of FEATURES bins")
    }
}

fn bin_inputs(samples: &[StageSample], max_bins: usize) -> Binned {
    let n = samples.len();
    let mut thresholds = Vec::with_capacity(FEATURES);
    let mut bins = vec![0u8; FEATURES * n];
    let mut values: Vec<f32> = Vec::with_capacity(n);
    for f in 0..FEATURES {
        values.clear();
        values.extend(samples.iter().map(|s| s.x[f]));
        values.sort_by(f32::total_cmp);
        // Cut points at equal-count quantiles, each a value the input takes; the last bin
        // holds everything above the last threshold.
        let mut cuts: Vec<f32> = Vec::new();
        for k in 1..max_bins {
            let v = values[(k * n / max_bins).min(n - 1)];
            if cuts.last().is_none_or(|&l| v > l) && v < values[n - 1] {
                cuts.push(v);
            }
        }
        for (i, s) in samples.iter().enumerate() {
            bins[i * FEATURES + f] = cuts.partition_point(|&c| c < s.x[f]) as u8;
        }
        thresholds.push(cuts);
    }
    Binned { thresholds, bins }
}

/// Refuses parameters the learner cannot use.
fn check(params: &GbdtParams) -> Result<(), LearnError> {
    if !(2..=256).contains(&params.bins) || params.depth == 0 || params.depth > 12 {
        return Err(LearnError::Params("bins must be 2-256 and depth 1-12"));
    }
    Ok(())
}

/// Trains the stage's model on `samples`.
pub fn train(
    samples: &[StageSample],
    params: &GbdtParams,
) -> Result<(StageModel, GbdtReport), LearnError> {
    if samples.is_empty() {
        return Err(LearnError::NoSamples);
    }
    check(params)?;
    let content = samples.iter().filter(|s| s.content).count();
    if content == 0 || content == samples.len() {
        return Err(LearnError::OneClass(content > 0));
    }
    let n = samples.len();
    let binned = bin_inputs(samples, params.bins);
    let w: Vec<f64> = samples.iter().map(|s| f64::from(s.weight)).collect();
    let y: Vec<f64> = samples
        .iter()
        .map(|s| f64::from(u8::from(s.content)))
        .collect();
    let (wy, wall) = w
        .iter()
        .zip(&y)
        .fold((0.0, 0.0), |(a, b), (w, y)| (a + w * y, b + w));
    let base = ((wy + 1.0) / (wall - wy + 1.0)).ln();
    let mut score = vec![base; n];
    let loss = |score: &[f64]| {
        let mut l = 0.0;
        for i in 0..n {
            l += w[i] * log_loss(sigmoid(score[i]), y[i]);
        }
        l / wall
    };
    let loss_before = loss(&score);
    let (trees, importance) = boost(samples, &binned, &w, &mut score, params, |i, score| {
        let p = sigmoid(score);
        (w[i] * (p - y[i]), w[i] * (p * (1.0 - p)).max(1e-9))
    });
    let loss_after = loss(&score);
    let f1s: Vec<f64> = samples
        .iter()
        .filter(|s| !s.page_f1.is_nan())
        .map(|s| f64::from(s.page_f1))
        .collect();
    let mean_page_f1 = f1s.iter().sum::<f64>() / f1s.len().max(1) as f64;
    let model = StageModel::new((mean_page_f1 / 2.0) as f32, base as f32, trees)
        .map_err(|e| LearnError::Model(e.to_string()))?;
    Ok((
        model,
        GbdtReport {
            samples: n,
            content,
            pages: f1s.len(),
            mean_page_f1,
            loss_before,
            loss_after,
            importance,
        },
    ))
}

/// The logistic function.
pub(crate) fn sigmoid(score: f64) -> f64 {
    1.0 / (1.0 + (-score).exp())
}

/// The cross-entropy of a probability `p` (kept off 0 and 1) against a label `y` in 0..=1
/// (a soft label allowed).
pub(crate) fn log_loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Grows `params.trees` trees by Newton steps, each fitted to the gradients and Hessians
/// `gradient(i, score_i)` gives at every sample's running score (`score`, updated in place);
/// with them, per input, the loss reduction its splits made as a share of all splits' (sums
/// to 1).
fn boost(
    samples: &[StageSample],
    binned: &Binned,
    w: &[f64],
    score: &mut [f64],
    params: &GbdtParams,
    gradient: impl Fn(usize, f64) -> (f64, f64),
) -> (Vec<Vec<TreeNode>>, [f64; FEATURES]) {
    let n = samples.len();
    let mut gain_by_input = [0f64; FEATURES];
    let mut trees = Vec::with_capacity(params.trees);
    let mut g = vec![0f64; n];
    let mut h = vec![0f64; n];
    // Samples of each open node, as one array partitioned in place.
    let mut order: Vec<u32> = (0..n as u32).collect();
    for _ in 0..params.trees {
        for i in 0..n {
            (g[i], h[i]) = gradient(i, score[i]);
        }
        order
            .iter_mut()
            .enumerate()
            .for_each(|(i, o)| *o = i as u32);
        let tree = grow_tree(binned, &g, &h, w, &mut order, params, &mut gain_by_input);
        for i in 0..n {
            score[i] += f64::from(tree_score(&tree, &samples[i].x));
        }
        trees.push(tree);
    }
    let total_gain: f64 = gain_by_input.iter().sum();
    (
        trees,
        gain_by_input.map(|v| v / total_gain.max(f64::MIN_POSITIVE)),
    )
}

/// A least-squares regression forest: trees fitted to `targets` (one per sample of
/// `inputs`, whose `x` is read and whose `weight` weighs it), starting from their weighted
/// mean.
pub struct Regression {
    pub base: f64,
    pub trees: Vec<Vec<TreeNode>>,
    /// Every sample's fitted value (`base` plus its trees' leaves).
    pub fitted: Vec<f64>,
    /// Weighted mean squared error before the first tree and after the last.
    pub loss_before: f64,
    pub loss_after: f64,
    /// Per input: the loss reduction its splits made, as a share of all splits' (sums to 1).
    pub importance: [f64; FEATURES],
}

/// Fits a [`Regression`] of `targets` on `inputs` with `params`.
pub fn regress(
    inputs: &[StageSample],
    targets: &[f64],
    params: &GbdtParams,
) -> Result<Regression, LearnError> {
    if inputs.is_empty() || inputs.len() != targets.len() {
        return Err(LearnError::NoSamples);
    }
    check(params)?;
    let binned = bin_inputs(inputs, params.bins);
    let w: Vec<f64> = inputs.iter().map(|s| f64::from(s.weight)).collect();
    let wall: f64 = w.iter().sum();
    let base = w.iter().zip(targets).map(|(w, t)| w * t).sum::<f64>() / wall.max(f64::MIN_POSITIVE);
    let mut fitted = vec![base; inputs.len()];
    let loss = |fitted: &[f64]| {
        let l: f64 = (0..targets.len())
            .map(|i| w[i] * (fitted[i] - targets[i]).powi(2))
            .sum();
        l / wall.max(f64::MIN_POSITIVE)
    };
    let loss_before = loss(&fitted);
    let (trees, importance) = boost(inputs, &binned, &w, &mut fitted, params, |i, fit| {
        (w[i] * (fit - targets[i]), w[i])
    });
    let loss_after = loss(&fitted);
    Ok(Regression {
        base,
        trees,
        fitted,
        loss_before,
        loss_after,
        importance,
    })
}

/// A node being grown: its samples `order[lo..hi]` and its place in the tree.
struct Open {
    lo: usize,
    hi: usize,
    node: usize,
}

/// The best split of a node: input, bin (left: bin <= it), gain.
struct Split {
    feature: usize,
    bin: usize,
    gain: f64,
}

fn grow_tree(
    binned: &Binned,
    g: &[f64],
    h: &[f64],
    w: &[f64],
    order: &mut [u32],
    params: &GbdtParams,
    gain_by_input: &mut [f64; FEATURES],
) -> Vec<TreeNode> {
    let n = g.len();
    let leaf = |lo: usize, hi: usize, order: &[u32]| {
        let (sg, sh) = order[lo..hi].iter().fold((0.0, 0.0), |(a, b), &i| {
            (a + g[i as usize], b + h[i as usize])
        });
        TreeNode {
            feature: LEAF,
            left: 0,
            right: 0,
            value: (-sg / (sh + params.lambda) * params.learning_rate) as f32,
        }
    };
    let mut tree = vec![leaf(0, n, order)];
    let mut level = vec![Open {
        lo: 0,
        hi: n,
        node: 0,
    }];
    // Every input's histogram, `params.bins` buckets each: sums of (gradient, Hessian,
    // weight). A node's are filled in one pass over its samples, every input's at once (a
    // bucket sums its samples in the node's order, as one input at a time would): an input
    // whose samples mostly share a bucket then does not make every sum wait for the one
    // before.
    let stride = params.bins;
    let mut hist = vec![(0f64, 0f64, 0f64); FEATURES * stride];
    // A split's right-hand samples while its node's are partitioned.
    let mut right: Vec<u32> = Vec::with_capacity(n);
    for _ in 0..params.depth {
        let mut next = Vec::new();
        for open in level {
            let idx = &order[open.lo..open.hi];
            let (sg, sh, sw) = idx.iter().fold((0.0, 0.0, 0.0), |(a, b, c), &i| {
                (a + g[i as usize], b + h[i as usize], c + w[i as usize])
            });
            if sw < 2.0 * params.min_leaf {
                continue;
            }
            let parent = sg * sg / (sh + params.lambda);
            hist.iter_mut().for_each(|b| *b = (0.0, 0.0, 0.0));
            for &i in idx {
                let i = i as usize;
                let (gi, hi, wi) = (g[i], h[i], w[i]);
                for (input, &bin) in hist.chunks_exact_mut(stride).zip(binned.row(i)) {
                    let b = &mut input[usize::from(bin)];
                    b.0 += gi;
                    b.1 += hi;
                    b.2 += wi;
                }
            }
            let mut best: Option<Split> = None;
            for (f, input) in hist.chunks_exact(stride).enumerate() {
                let nb = binned.thresholds[f].len() + 1;
                if nb < 2 {
                    continue;
                }
                let (mut lg, mut lh, mut lw) = (0.0, 0.0, 0.0);
                for (b, &(bg, bh, bw)) in input[..nb - 1].iter().enumerate() {
                    lg += bg;
                    lh += bh;
                    lw += bw;
                    if lw < params.min_leaf || sw - lw < params.min_leaf {
                        continue;
                    }
                    let (rg, rh) = (sg - lg, sh - lh);
                    let gain =
                        lg * lg / (lh + params.lambda) + rg * rg / (rh + params.lambda) - parent;
                    if gain > 1e-12 && best.as_ref().is_none_or(|s| gain > s.gain) {
                        best = Some(Split {
                            feature: f,
                            bin: b,
                            gain,
                        });
                    }
                }
            }
            let Some(split) = best else {
                continue;
            };
            gain_by_input[split.feature] += split.gain;
            // Partition the node's samples: left (bin <= split.bin) first, order kept.
            // The left ones move down in place (never past one not yet read), the right
            // ones wait in `right` and follow them.
            let slice = &mut order[open.lo..open.hi];
            right.clear();
            let mut left = 0;
            for k in 0..slice.len() {
                let i = slice[k];
                if usize::from(binned.row(i as usize)[split.feature]) <= split.bin {
                    slice[left] = i;
                    left += 1;
                } else {
                    right.push(i);
                }
            }
            slice[left..].copy_from_slice(&right);
            let mid = open.lo + left;
            let (l, r) = (tree.len(), tree.len() + 1);
            tree.push(leaf(open.lo, mid, order));
            tree.push(leaf(mid, open.hi, order));
            tree[open.node] = TreeNode {
                feature: split.feature as u16,
                left: l as u16,
                right: r as u16,
                value: binned.thresholds[split.feature][split.bin],
            };
            next.push(Open {
                lo: open.lo,
                hi: mid,
                node: l,
            });
            next.push(Open {
                lo: mid,
                hi: open.hi,
                node: r,
            });
        }
        level = next;
    }
    tree
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Content when input 2 (link share) is low, unless input 5 (menu share) is high.
    fn fixture() -> Vec<StageSample> {
        (0..400)
            .map(|i| {
                let mut x = [0f32; FEATURES];
                x[2] = (i % 20) as f32 / 20.0;
                x[5] = ((i / 20) % 10) as f32 / 10.0;
                x[0] = (i % 7) as f32;
                StageSample {
                    x,
                    content: x[2] < 0.5 && x[5] < 0.7,
                    weight: 0.1,
                    page_f1: if i % 10 == 0 { 0.8 } else { f32::NAN },
                }
            })
            .collect()
    }

    fn small() -> GbdtParams {
        GbdtParams {
            trees: 30,
            depth: 3,
            min_leaf: 0.2,
            learning_rate: 0.3,
            ..GbdtParams::default()
        }
    }

    #[test]
    fn training_is_deterministic_and_learns_the_fixture() {
        let samples = fixture();
        let (a, report) = train(&samples, &small()).unwrap();
        let (b, _) = train(&samples, &small()).unwrap();
        assert_eq!(a.to_bytes(), b.to_bytes());
        assert!(report.loss_after < 0.2 * report.loss_before, "{report:?}");
        let right = samples
            .iter()
            .filter(|s| (a.probability(&s.x) > 0.5) == s.content)
            .count();
        assert_eq!(right, samples.len());
        // The cut is half the mean page F1; the two inputs that decide carry the splits.
        assert!((a.cut() - 0.4).abs() < 1e-6);
        assert!(
            report.importance[2] + report.importance[5] > 0.95,
            "{report:?}"
        );
        assert!((report.importance.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert_eq!(train(&[], &small()).err(), Some(LearnError::NoSamples));
        let one: Vec<StageSample> = fixture()
            .into_iter()
            .map(|s| StageSample { content: true, ..s })
            .collect();
        assert_eq!(
            train(&one, &small()).err(),
            Some(LearnError::OneClass(true))
        );
        let bad = GbdtParams { bins: 1, ..small() };
        assert!(matches!(
            train(&fixture(), &bad).err(),
            Some(LearnError::Params(_))
        ));
    }

    #[test]
    fn a_page_gives_samples_for_the_elements_inside_the_root() {
        let html = "<body><div id=main><h1>Rain</h1>\
            <p>The rain in Spain stays mainly in the plain, the report said on Monday, and \
            the farmers were glad of it after a dry spring.</p>\
            <p>More rain is expected this week across the region, forecasters said, with \
            storms in the north.</p>\
            <div class=more-stories><p>Sunshine returns to Madrid, says mayor.</p>\
            <p>Why farmers love the rain: a short history.</p></div></div></body>";
        let page = Page::new(html, None);
        let truth = TruthBag::new(
            "Rain. The rain in Spain stays mainly in the plain, the report said on Monday, \
             and the farmers were glad of it after a dry spring. More rain is expected this \
             week across the region, forecasters said, with storms in the north.",
        );
        let samples = page_stage_samples(&page, &truth, Guards::default());
        assert!(!samples.is_empty());
        assert!(samples[0].page_f1 > 0.5 && samples[0].page_f1 < 1.0);
        // The related box is a boilerplate sample with the related word group set.
        let related: Vec<&StageSample> = samples.iter().filter(|s| s.x[17] == 1.0).collect();
        assert_eq!(related.len(), 1, "{samples:?}");
        assert!(!related[0].content);
        assert!(samples.iter().any(|s| s.content));
    }
}
