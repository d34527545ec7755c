//! The models the learned methods apply, by kind: [`Model`] (`svm`'s block SVM, `linenet`'s
//! line network, `reverse-stage`'s trees), read from the bytes of a model file, put where
//! its methods read it ([`Model::apply`]), and which kind each method reads ([`model_of`]).
//! Reading the file is the caller's (the core does no I/O); training is `outward-learn`'s.
//!
//! Invariants: `Model::from_bytes(kind, m.to_bytes())` gives `m` back; bytes of another
//! kind or damaged bytes are an error, never a panic.

use super::confidence::ConfidenceModel;
use super::linenet::LineNetModel;
use super::stage::StageModel;
use super::svm::SvmModel;
use crate::ExtractOptions;
use std::sync::Arc;

/// The trainable model a method applies: `svm`'s own, and `template`'s (seed 001 whole: its
/// template library, then `svm`'s classifier), `linenet`'s; `None` for methods without a model.
pub fn model_of(method: &str) -> Option<&'static str> {
    match method {
        "svm" | "template" => Some("svm"),
        "linenet" => Some("linenet"),
        "reverse-stage" => Some("reverse-stage"),
        _ => None,
    }
}

/// A trained model of any kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Model {
    Svm(Arc<SvmModel>),
    Linenet(Arc<LineNetModel>),
    Stage(Arc<StageModel>),
    /// `reverse-stage`'s confidence.
    Confidence(Arc<ConfidenceModel>),
}

impl Model {
    /// A model of `kind` (`svm`, `linenet`, `reverse-stage`) from the bytes of its file.
    pub fn from_bytes(kind: &str, bytes: &[u8]) -> Result<Model, String> {
        match kind {
            "svm" => SvmModel::from_bytes(bytes)
                .map(|m| Model::Svm(Arc::new(m)))
                .map_err(|e| e.to_string()),
            "linenet" => LineNetModel::from_bytes(bytes)
                .map(|m| Model::Linenet(Arc::new(m)))
                .map_err(|e| e.to_string()),
            "reverse-stage" => StageModel::from_bytes(bytes)
                .map(|m| Model::Stage(Arc::new(m)))
                .map_err(|e| e.to_string()),
            "confidence" => ConfidenceModel::from_bytes(bytes)
                .map(|m| Model::Confidence(Arc::new(m)))
                .map_err(|e| e.to_string()),
            _ => Err(format!("{kind} has no model")),
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Model::Svm(m) => m.to_bytes(),
            Model::Linenet(m) => m.to_bytes(),
            Model::Stage(m) => m.to_bytes(),
            Model::Confidence(m) => m.to_bytes(),
        }
    }

    pub fn digest(&self) -> u64 {
        match self {
            Model::Svm(m) => m.digest(),
            Model::Linenet(m) => m.digest(),
            Model::Stage(m) => m.digest(),
            Model::Confidence(m) => m.digest(),
        }
    }

    /// Puts the model where its methods read it in `options`.
    pub fn apply(self, options: &mut ExtractOptions) {
        match self {
            Model::Svm(m) => options.svm_model = Some(m),
            Model::Linenet(m) => options.linenet_model = Some(m),
            Model::Stage(m) => options.stage_model = Some(m),
            Model::Confidence(m) => options.confidence_model = Some(m),
        }
    }
}
