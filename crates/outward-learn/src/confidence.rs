//! Fitting `reverse-stage`'s confidence (issue #37): each labelled page's signals and the F1
//! of its output ([`page_confidence_sample`]), a logistic regression fitted to those F1s
//! ([`fit`], giving a [`ConfidenceModel`]), and the two measures the issue asks of it
//! ([`rank_correlation`], [`least_confident_miss_share`]).
//!
//! The fit: the learned stage's tree learner ([`crate::gbdt`]) on two samples per page, one
//! labelled main text weighing the page's F1 and one labelled boilerplate weighing 1 − F1,
//! so that its logistic loss is the cross-entropy against the F1 as a soft label and every
//! page weighs 1, as in the scorer's per-page mean. Shallower trees and larger leaves than
//! the stage's ([`confidence_params`]): a page is one sample, not dozens of elements.
//!
//! Invariants: deterministic (the same samples in the same order give the same bytes);
//! time O(iterations × pages × signals²).

use outward_core::methods::confidence::{ConfidenceModel, SIGNALS, Signals};
use outward_core::methods::reverse::Reverse;
use outward_core::{Page, SiteContext};

use crate::gbdt::{self, GbdtParams, StageSample};
use crate::{LearnError, TruthBag};

/// Recall under this is a page missed (the and `eval`'s measure).
pub const MISS_RECALL: f64 = 0.5;

/// One page: its signals and the F1 of `reverse-stage`'s output against its truth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConfidenceSample {
    pub x: [f32; SIGNALS],
    pub f1: f32,
}

/// The sample of `page` as `reverse` (`reverse-stage`: with its learned stage) extracts it;
/// `None` when the page gave no root or its truth has no tokens.
pub fn page_confidence_sample(
    page: &Page,
    truth: &TruthBag,
    reverse: &Reverse,
) -> Option<ConfidenceSample> {
    if truth.is_empty() {
        return None;
    }
    let (extraction, signals) = reverse.confidence_signals(page, &SiteContext::default());
    let f1 = truth.f1(truth.overlap(extraction.blocks.text()));
    Some(ConfidenceSample {
        x: signals?.to_array(),
        f1: f1 as f32,
    })
}

/// What fitting did.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfidenceReport {
    pub pages: usize,
    pub mean_f1: f64,
    /// Mean cross-entropy against the F1s before the first tree and after the last.
    pub loss_before: f64,
    pub loss_after: f64,
    /// Spearman's ρ between the fitted confidence and the F1, on the training pages.
    pub rank_correlation: f64,
    /// Per signal: its share of the trees' loss reduction.
    pub importance: [f64; SIGNALS],
}

/// The tree learner's parameters for the confidence: 100 trees of depth 3, leaves of 20
/// pages at least.
pub fn confidence_params() -> GbdtParams {
    GbdtParams {
        trees: 100,
        depth: 3,
        min_leaf: 20.0,
        ..GbdtParams::default()
    }
}

/// Fits the model on `samples` (see the module docs).
pub fn fit(
    samples: &[ConfidenceSample],
) -> Result<(ConfidenceModel, ConfidenceReport), LearnError> {
    let mut pairs = Vec::with_capacity(2 * samples.len());
    for s in samples {
        let f1 = s.f1.clamp(0.0, 1.0);
        let x = ConfidenceModel::inputs(&s.x);
        for (content, weight) in [(true, f1), (false, 1.0 - f1)] {
            pairs.push(StageSample {
                x,
                content,
                weight,
                page_f1: if content { f1 } else { f32::NAN },
            });
        }
    }
    let (trees, report) = gbdt::train(&pairs, &confidence_params())?;
    let model = ConfidenceModel::new(trees).map_err(|e| LearnError::Model(e.to_string()))?;
    let predicted: Vec<f64> = samples
        .iter()
        .map(|s| f64::from(model.confidence(&Signals::from_array(&s.x))))
        .collect();
    let f1: Vec<f64> = samples.iter().map(|s| f64::from(s.f1)).collect();
    let mut importance = [0f64; SIGNALS];
    importance.copy_from_slice(&report.importance[..SIGNALS]);
    Ok((
        model,
        ConfidenceReport {
            pages: samples.len(),
            mean_f1: report.mean_page_f1,
            loss_before: report.loss_before,
            loss_after: report.loss_after,
            rank_correlation: rank_correlation(&predicted, &f1),
            importance,
        },
    ))
}

/// Ranks of `v` (1-based), ties sharing their mean rank.
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut out = vec![0f64; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Spearman's ρ of `a` and `b` (the Pearson correlation of their ranks, ties averaged);
/// 0 when either is constant.
pub fn rank_correlation(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len().min(rb.len()) as f64;
    if n < 2.0 {
        return 0.0;
    }
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa == 0.0 || sbb == 0.0 {
        0.0
    } else {
        sab / (saa * sbb).sqrt()
    }
}

/// Of the pages missed (recall under [`MISS_RECALL`]), the share among the `share` least
/// confident pages (ties broken by page order); `None` without a miss. `pages`: (confidence,
/// recall) per page.
pub fn least_confident_miss_share(pages: &[(f64, f64)], share: f64) -> Option<f64> {
    let misses = pages.iter().filter(|p| p.1 < MISS_RECALL).count();
    if misses == 0 {
        return None;
    }
    let mut order: Vec<usize> = (0..pages.len()).collect();
    order.sort_by(|&a, &b| pages[a].0.total_cmp(&pages[b].0).then(a.cmp(&b)));
    let take = (share * pages.len() as f64).round() as usize;
    let caught = order[..take.min(order.len())]
        .iter()
        .filter(|&&i| pages[i].1 < MISS_RECALL)
        .count();
    Some(caught as f64 / misses as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_of_known_orders() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert!((rank_correlation(&a, &[10.0, 20.0, 30.0, 40.0]) - 1.0).abs() < 1e-12);
        assert!((rank_correlation(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert_eq!(rank_correlation(&a, &[5.0; 4]), 0.0);
        // Ties share their mean rank: [1, 2.5, 2.5, 4] against [1, 2, 3, 4].
        let r = rank_correlation(&[1.0, 2.0, 2.0, 3.0], &a);
        assert!((r - 0.9486832980505138).abs() < 1e-9, "{r}");
    }

    #[test]
    fn least_confident_pages_catch_the_misses_they_hold() {
        // Ten pages; the two least confident are a miss and a hit; one more miss is confident.
        let mut pages: Vec<(f64, f64)> = (0..10).map(|i| (0.5 + i as f64 / 20.0, 0.9)).collect();
        pages[3] = (0.01, 0.1);
        pages[6] = (0.02, 0.95);
        pages[9] = (0.99, 0.2);
        assert_eq!(least_confident_miss_share(&pages, 0.2), Some(0.5));
        assert_eq!(least_confident_miss_share(&pages, 1.0), Some(1.0));
        assert_eq!(least_confident_miss_share(&pages[..3], 0.5), None);
    }

    #[test]
    fn the_fit_learns_a_signal_that_predicts_the_f1() {
        // F1 follows the expected main share; another signal is noise.
        let samples: Vec<ConfidenceSample> = (0..400)
            .map(|i| {
                let e = (i % 20) as f32 / 20.0;
                let mut x = [0f32; SIGNALS];
                x[1] = e;
                x[7] = ((i * 7919) % 13) as f32;
                ConfidenceSample { x, f1: e }
            })
            .collect();
        let (model, report) = fit(&samples).unwrap();
        assert!(report.loss_after < report.loss_before, "{report:?}");
        assert!(report.rank_correlation > 0.95, "{report:?}");
        assert!(report.importance[1] > 0.9, "{report:?}");
        let at = |e: f64| {
            model.confidence(&Signals {
                expected_main_share: e,
                ..Signals::default()
            })
        };
        assert!(at(0.1) < 0.3 && at(0.9) > 0.7, "{} {}", at(0.1), at(0.9));
        // Deterministic.
        assert_eq!(fit(&samples).unwrap().0.to_bytes(), model.to_bytes());
    }
}
