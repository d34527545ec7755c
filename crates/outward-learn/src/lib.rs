//! outward-learn: training for outward's learned methods. It owns block labels from ground
//! truth ([`TruthBag`], [`page_samples`]), the two-class SVM solver ([`smo`]) and `svm`'s
//! trainer ([`svm::train`]); models are written in the format the core reads
//! (`outward_core::methods::svm`). Pure: the caller reads WARCs and truth files and hands
//! pages and truth texts in; nothing here touches a file, a clock or a thread.
//!
//! Labels: a block is content when most of its tokens (the scorer's tokenization,
//! `outward_eval::for_each_token` after `normalize`) are in its page's truth text, as a
//! bag intersection that respects counts (a word twice in the block and once in the truth
//! counts once). Blocks without tokens get no label and are not samples.
//!
//! Invariants: deterministic (a fixed seed for every sample drawn, no hash-order
//! dependence: the same samples in the same order give the same model bytes).

pub mod confidence;
pub mod gbdt;
pub mod model;
pub mod net;
pub mod smo;
pub mod svm;

use std::collections::HashMap;

use outward_core::Page;
use outward_core::methods::svm::{FEATURES, page_blocks};
use outward_eval::{for_each_token, normalize};

/// Models `outward train` can train: the learned methods' (`outward eval --lodo` trains
/// them too) and `confidence`, `reverse-stage`'s confidence (which `eval --lodo` fits with
/// `reverse-stage`'s model).
pub const TRAINABLE: &[&str] = &["svm", "linenet", "reverse-stage", "confidence"];

/// One page's truth text as a bag of tokens.
#[derive(Debug, Clone, Default)]
pub struct TruthBag {
    counts: HashMap<String, u32>,
}

impl TruthBag {
    pub fn new(truth: &str) -> TruthBag {
        let mut counts = HashMap::new();
        for_each_token(&normalize(truth), |t| {
            *counts.entry(t.to_owned()).or_insert(0) += 1;
        });
        TruthBag { counts }
    }

    /// `(tokens of text in the truth, tokens of text)`, counts respected.
    pub fn overlap(&self, text: &str) -> (usize, usize) {
        let norm = normalize(text);
        let mut bag: HashMap<&str, u32> = HashMap::new();
        let mut total = 0usize;
        for_each_token(&norm, |t| {
            *bag.entry(t).or_insert(0) += 1;
            total += 1;
        });
        let inside = bag
            .iter()
            .map(|(t, &n)| n.min(self.counts.get(*t).copied().unwrap_or(0)) as usize)
            .sum();
        (inside, total)
    }

    /// The bag-of-tokens F1 of a text whose [`overlap`](Self::overlap) is `(inside,
    /// total)`: 0 when none of its tokens is in the truth (or it has none).
    pub fn f1(&self, (inside, total): (usize, usize)) -> f64 {
        if inside == 0 || total == 0 {
            return 0.0;
        }
        let p = inside as f64 / total as f64;
        let r = inside as f64 / self.len().max(1) as f64;
        2.0 * p * r / (p + r)
    }

    /// Tokens of the truth.
    pub fn len(&self) -> usize {
        self.counts.values().map(|&n| n as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Whether `text` is content (most of its tokens in the truth); `None` without tokens.
    pub fn is_content(&self, text: &str) -> Option<bool> {
        let (inside, total) = self.overlap(text);
        (total > 0).then_some(2 * inside > total)
    }
}

/// A labelled block: its features and whether it is content.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub x: [f32; FEATURES],
    pub content: bool,
}

/// The labelled blocks of `page` (those with tokens), in page order.
pub fn page_samples(page: &Page, truth: &TruthBag) -> Vec<Sample> {
    page_blocks(page)
        .into_iter()
        .filter_map(|(block, x)| {
            let content = truth.is_content(&block.text)?;
            Some(Sample {
                x: x.map(|v| v as f32),
                content,
            })
        })
        .collect()
}

/// Why training could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LearnError {
    /// No labelled block at all.
    NoSamples,
    /// Every sample has the same label: `true` content, `false` boilerplate.
    OneClass(bool),
    /// A parameter out of range (what, why).
    Params(&'static str),
    /// The trained model could not be encoded (a non-finite number).
    Model(String),
}

impl std::fmt::Display for LearnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LearnError::NoSamples => write!(f, "no labelled block to train on"),
            LearnError::OneClass(c) => write!(
                f,
                "every labelled block is {}: need both classes",
                if *c { "content" } else { "boilerplate" }
            ),
            LearnError::Params(why) => write!(f, "bad training parameters: {why}"),
            LearnError::Model(why) => write!(f, "trained model is not valid: {why}"),
        }
    }
}

impl std::error::Error for LearnError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_truth_tokens_with_counts() {
        let truth = TruthBag::new("The rain in Spain stays mainly in the plain.");
        assert_eq!(truth.is_content("the RAIN in spain"), Some(true));
        assert_eq!(truth.is_content("Home | World | Sport"), Some(false));
        assert_eq!(truth.is_content(" --- "), None);
        // "rain" three times, once in the truth: 1 + "spain" of 4 tokens is not most.
        assert_eq!(truth.overlap("rain rain rain spain"), (2, 4));
        assert_eq!(truth.is_content("rain rain rain spain"), Some(false));
        // CJK characters are tokens one by one, as the scorer counts them.
        let zh = TruthBag::new("今天天气很好");
        assert_eq!(zh.overlap("天气很好啊"), (4, 5));
    }

    #[test]
    fn a_page_gives_labelled_nav_and_article_samples() {
        let html = "<body><div class=nav><a href=/a>Home</a> <a href=/b>World</a> \
                    <a href=/c>Sport</a></div><div><p>The rain in Spain stays mainly in the \
                    plain, the report said on Monday.</p></div></body>";
        let page = Page::new(html, None);
        let truth = TruthBag::new(
            "The rain in Spain stays mainly in the plain, the report said on Monday.",
        );
        let samples = page_samples(&page, &truth);
        assert_eq!(samples.len(), 2, "{samples:?}");
        assert!(!samples[0].content && samples[0].x[4] > 0.9);
        assert!(samples[1].content && samples[1].x[4] == 0.0);
    }
}
