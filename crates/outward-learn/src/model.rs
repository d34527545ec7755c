//! The trainable models by kind (`outward_core::methods::models::model_of` names them):
//! their samples ([`Samples`]) and training ([`train`], giving the core's [`Model`]), so that
//! `outward train` and `eval --lodo` handle every kind the same way.

use std::sync::Arc;

use outward_core::ExtractOptions;
use outward_core::Page;
use outward_core::methods::confidence::SIGNAL_NAMES;
use outward_core::methods::models::Model;
use outward_core::methods::reverse::Reverse;
use outward_core::methods::stage::FEATURE_NAMES;

use crate::confidence::{ConfidenceSample, page_confidence_sample};
use crate::gbdt::{GbdtParams, StageSample, page_stage_samples};
use crate::net::{LineSample, NetParams, page_line_samples};
use crate::svm::SvmParams;
use crate::{Sample, TruthBag, page_samples};

/// Labelled samples of one kind of model.
#[derive(Debug, Clone, PartialEq)]
pub enum Samples {
    /// `svm`'s blocks.
    Svm(Vec<Sample>),
    /// `linenet`'s lines.
    Linenet(Vec<LineSample>),
    /// `reverse-stage`'s candidate elements.
    Stage(Vec<StageSample>),
    /// `reverse-stage`'s pages, for its confidence.
    Confidence(Vec<ConfidenceSample>),
}

impl Samples {
    /// No samples of `kind` (`svm` or `linenet`); `None` for another kind.
    pub fn empty(kind: &str) -> Option<Samples> {
        match kind {
            "svm" => Some(Samples::Svm(Vec::new())),
            "linenet" => Some(Samples::Linenet(Vec::new())),
            "reverse-stage" => Some(Samples::Stage(Vec::new())),
            "confidence" => Some(Samples::Confidence(Vec::new())),
            _ => None,
        }
    }

    /// The samples of `page` for the same kind as `self` (empty). `options`: the guards of
    /// the `reverse` whose candidates the stage's samples are, and the stage model (`None`:
    /// the shipped one) of the `reverse-stage` whose pages the confidence's samples are (the
    /// other kinds read neither).
    pub fn of_page(&self, page: &Page, truth: &TruthBag, options: &ExtractOptions) -> Samples {
        match self {
            Samples::Svm(_) => Samples::Svm(page_samples(page, truth)),
            Samples::Linenet(_) => Samples::Linenet(page_line_samples(page, truth)),
            Samples::Stage(_) => Samples::Stage(page_stage_samples(page, truth, options.guards)),
            Samples::Confidence(_) => Samples::Confidence(
                page_confidence_sample(page, truth, &Reverse::with_stage(options))
                    .into_iter()
                    .collect(),
            ),
        }
    }

    /// Appends `other` (of the same kind; another kind adds nothing).
    pub fn extend(&mut self, other: &Samples) {
        match (self, other) {
            (Samples::Svm(a), Samples::Svm(b)) => a.extend_from_slice(b),
            (Samples::Linenet(a), Samples::Linenet(b)) => a.extend_from_slice(b),
            (Samples::Stage(a), Samples::Stage(b)) => a.extend_from_slice(b),
            (Samples::Confidence(a), Samples::Confidence(b)) => a.extend_from_slice(b),
            _ => {}
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Samples::Svm(s) => s.len(),
            Samples::Linenet(s) => s.len(),
            Samples::Stage(s) => s.len(),
            Samples::Confidence(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What a sample is, for messages: "blocks" or "lines".
    pub fn unit(&self) -> &'static str {
        match self {
            Samples::Svm(_) => "blocks",
            Samples::Linenet(_) => "lines",
            Samples::Stage(_) => "elements",
            Samples::Confidence(_) => "pages",
        }
    }
}

/// Trains the model of `samples`' kind with its default parameters: the model and a line
/// saying how.
pub fn train(samples: &Samples) -> Result<(Model, String), String> {
    match samples {
        Samples::Svm(s) => {
            let (model, r) =
                crate::svm::train(s, &SvmParams::default()).map_err(|e| e.to_string())?;
            let grid: Vec<String> = r
                .grid
                .iter()
                .map(|g| format!("C {} gamma {}: {:.4}", g.c, g.gamma, g.score))
                .collect();
            let line = format!(
                "{} blocks ({} content); CV grid (balanced accuracy) {}; CV on {}: C {} gamma {} balanced accuracy {:.4}; trained on {}: {} support vectors{}",
                r.samples,
                r.content,
                grid.join(", "),
                r.cv_samples,
                r.best.c,
                r.best.gamma,
                r.best.score,
                r.train_samples,
                r.support_vectors,
                if r.fits_at_max_iter > 0 {
                    format!(
                        " ({} fits stopped at the iteration bound)",
                        r.fits_at_max_iter
                    )
                } else {
                    String::new()
                }
            );
            Ok((Model::Svm(Arc::new(model)), line))
        }
        Samples::Linenet(s) => {
            let params = NetParams::default();
            let (model, r) = crate::net::train(s, &params).map_err(|e| e.to_string())?;
            let line = format!(
                "{} lines ({} content); {} epochs (learning rate {}), mean squared error {:.4} ({} the target {}); training accuracy {:.4}",
                r.samples,
                r.content,
                r.epochs,
                params.learning_rate,
                r.mse,
                if r.reached_target {
                    "reached"
                } else {
                    "epoch cap before"
                },
                params.target_mse,
                r.accuracy
            );
            Ok((Model::Linenet(Arc::new(model)), line))
        }
        Samples::Stage(s) => {
            let params = GbdtParams::default();
            let (model, r) = crate::gbdt::train(s, &params).map_err(|e| e.to_string())?;
            let line = format!(
                "{} elements ({} content) of {} pages; {} trees of depth {} (learning rate {}), log loss {:.4} -> {:.4}; cut {:.3} (half the mean page F1 {:.4}); importance: {}",
                r.samples,
                r.content,
                r.pages,
                params.trees,
                params.depth,
                params.learning_rate,
                r.loss_before,
                r.loss_after,
                model.cut(),
                r.mean_page_f1,
                most_important(&r.importance, &FEATURE_NAMES, 8)
            );
            Ok((Model::Stage(Arc::new(model)), line))
        }
        Samples::Confidence(s) => {
            let (model, r) = crate::confidence::fit(s).map_err(|e| e.to_string())?;
            let params = crate::confidence::confidence_params();
            let line = format!(
                "{} pages (mean F1 {:.4}); {} trees of depth {}, cross-entropy with the F1 {:.4} -> {:.4}; Spearman with the F1 on the training pages {:.4}; importance: {}",
                r.pages,
                r.mean_f1,
                params.trees,
                params.depth,
                r.loss_before,
                r.loss_after,
                r.rank_correlation,
                most_important(&r.importance, &SIGNAL_NAMES, 6)
            );
            Ok((Model::Confidence(Arc::new(model)), line))
        }
    }
}

/// The `n` inputs of most importance, most first, as "NAME 0.123, …".
fn most_important(importance: &[f64], names: &[&str], n: usize) -> String {
    let mut by_importance: Vec<(usize, f64)> = importance.iter().copied().enumerate().collect();
    by_importance.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top: Vec<String> = by_importance
        .iter()
        .take(n)
        .map(|&(i, v)| format!("{} {v:.3}", names[i]))
        .collect();
    top.join(", ")
}
