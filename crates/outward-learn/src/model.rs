//! The trainable models by kind (`outward_core::methods::models::model_of` names them):
//! their samples ([`Samples`]) and training ([`train`], giving the core's [`Model`]), so that
//! `outward train` and `eval --lodo` handle every kind the same way.

use std::sync::Arc;

use outward_core::Page;
use outward_core::methods::models::Model;
use outward_core::methods::reverse::Guards;
use outward_core::methods::stage::FEATURE_NAMES;

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
}

impl Samples {
    /// No samples of `kind` (`svm` or `linenet`); `None` for another kind.
    pub fn empty(kind: &str) -> Option<Samples> {
        match kind {
            "svm" => Some(Samples::Svm(Vec::new())),
            "linenet" => Some(Samples::Linenet(Vec::new())),
            "reverse-stage" => Some(Samples::Stage(Vec::new())),
            _ => None,
        }
    }

    /// The samples of `page` for the same kind as `self` (empty).
    /// `guards`: those of the `reverse` whose candidates the stage's samples are (the other
    /// kinds do not read them).
    pub fn of_page(&self, page: &Page, truth: &TruthBag, guards: Guards) -> Samples {
        match self {
            Samples::Svm(_) => Samples::Svm(page_samples(page, truth)),
            Samples::Linenet(_) => Samples::Linenet(page_line_samples(page, truth)),
            Samples::Stage(_) => Samples::Stage(page_stage_samples(page, truth, guards)),
        }
    }

    /// Appends `other` (of the same kind; another kind adds nothing).
    pub fn extend(&mut self, other: &Samples) {
        match (self, other) {
            (Samples::Svm(a), Samples::Svm(b)) => a.extend_from_slice(b),
            (Samples::Linenet(a), Samples::Linenet(b)) => a.extend_from_slice(b),
            (Samples::Stage(a), Samples::Stage(b)) => a.extend_from_slice(b),
            _ => {}
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Samples::Svm(s) => s.len(),
            Samples::Linenet(s) => s.len(),
            Samples::Stage(s) => s.len(),
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
            let mut by_importance: Vec<(usize, f64)> =
                r.importance.iter().copied().enumerate().collect();
            by_importance.sort_by(|a, b| b.1.total_cmp(&a.1));
            let top: Vec<String> = by_importance
                .iter()
                .take(8)
                .map(|&(f, v)| format!("{} {:.3}", FEATURE_NAMES[f], v))
                .collect();
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
                top.join(", ")
            );
            Ok((Model::Stage(Arc::new(model)), line))
        }
    }
}
