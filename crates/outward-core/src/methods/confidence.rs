//! How sure `reverse-stage` is of a page (issue #37): the F1 its model expects of the page's
//! output, from what the extraction already measured ([`Signals`]: the learned stage's
//! expectation of its content root, the root's share of the page, the shape of the root and
//! of the page), as `metadata.extraction_confidence` in 0..1, so a corpus builder can drop or
//! re-extract the doubtful pages. This file owns the signals' names and the model
//! ([`ConfidenceModel`]: reading, writing, applying); `reverse` measures the signals and
//! `outward-learn` fits the model.
//!
//! The model is gradient-boosted regression trees fitted to each training page's F1 on its
//! empirical log-odds scale, their sum calibrated to the F1s (Platt's scaling, folded into
//! the trees), so its output is an expected F1, not only a ranking (`outward-learn`'s
//! `confidence` module). It is written in the learned stage's model format
//! ([`super::stage::StageModel`], the same reader, checks and tree walk) over the stage's
//! input width: the signals fill the first [`SIGNALS`] inputs, the rest are zero, and a
//! model whose trees read any other input is refused (it is a stage model, not this one).
//! Calibrated leave-one-dataset-out (`outward eval --lodo`: each set's pages judged by a
//! model fitted on the other sets' pages as that set's stage model extracts them); the
//! numbers are in `docs/methods.md`.
//!
//! Invariants: a confidence is finite and in 0..=1; `to_bytes(from_bytes(b)) == b` for every
//! accepted `b`.

use crate::methods::stage::{FEATURES, LEAF, StageModel, StageModelError};

/// Signals of the model, in order (see [`SIGNAL_NAMES`]).
pub const SIGNALS: usize = 23;

macro_rules! signals {
    ($($field:ident: $name:literal,)*) => {
        /// What one page's extraction measured, by name; [`Signals::to_array`] gives them
        /// in the model's order.
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Signals {
            $(#[doc = $name] pub $field: f64,)*
        }

        /// What each signal measures, in the model's order.
        pub const SIGNAL_NAMES: [&str; SIGNALS] = [$($name,)*];

        impl Signals {
            /// The signals in the model's order.
            pub fn to_array(&self) -> [f32; SIGNALS] {
                [$(self.$field as f32,)*]
            }

            /// The signals whose array ([`Signals::to_array`]) is `x`.
            pub fn from_array(x: &[f32; SIGNALS]) -> Signals {
                let [$($field,)*] = *x;
                Signals { $($field: f64::from($field),)* }
            }
        }
    };
}

signals! {
    stage_judged: "the learned stage judged the root (a root of running prose)",
    expected_main_share: "the stage's expected main-text share of R (1 unjudged)",
    stage_pruned_share: "share of R the stage pruned",
    r_good_share: "R's share of the page's good text",
    r_text_share: "R's share of the page's text",
    r_link_share: "R's link share",
    r_unpunctuated_share: "R's share of text in blocks without sentence punctuation",
    ln_page_text: "ln page text",
    ln_r_text: "ln R text",
    ln_output_chars: "ln output characters",
    listing: "listing page",
    landing_url: "landing URL",
    ln_roots: "ln roots (R's run of siblings)",
    runner_up: "the second seed's climb score over the first's",
    title_in_output: "share of the title's words in the output",
    has_h1: "the page has an h1",
    h1_at_r: "the page's h1 is in R or above it (emitted as the headline)",
    output_punctuation: "sentence punctuation per 100 output characters",
    wider_good_gain: "good text the nearest wider root adds, over the page's good text",
    largest_part_good_share: "the largest child or grandchild of R's share of R's good text",
    output_over_page: "ln of the output's characters over the page's text",
    other_region_good_share: "the best other seed's region apart from R: its share of the page's good text",
    prose_outside_r: "ln of the prose outside R (punctuated blocks, mostly not links) over R's text",
}

/// The share of `title`'s words (a CJK character is a word) that the opening
/// [`OPENING_BYTES`] of `text` hold (the headline and the lead sit there); 0 without a
/// title. Words are compared by a hash of their lowercased characters: no allocation but
/// the title's list, time linear in the title and in the opening.
pub fn title_in_output(title: Option<&str>, text: &str) -> f64 {
    let Some(title) = title else {
        return 0.0;
    };
    let mut words: Vec<(u64, bool)> = Vec::new();
    for_each_word_hash(title, |h| {
        if words.len() < TITLE_WORDS && !words.iter().any(|(x, _)| *x == h) {
            words.push((h, false));
        }
    });
    if words.is_empty() {
        return 0.0;
    }
    let mut end = text.len().min(OPENING_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    // A bit per title word's hash, so most output words are ruled out without a search.
    let mask = words.iter().fold(0u64, |m, (h, _)| m | 1 << (h & 63));
    let mut left = words.len();
    for_each_word_hash(&text[..end], |h| {
        if left > 0
            && mask & 1 << (h & 63) != 0
            && let Some(slot) = words.iter_mut().find(|(x, seen)| !*seen && *x == h)
        {
            slot.1 = true;
            left -= 1;
        }
    });
    (words.len() - left) as f64 / words.len() as f64
}

/// Title words [`title_in_output`] looks for.
pub const TITLE_WORDS: usize = 24;
/// The bytes of the output [`title_in_output`] reads.
pub const OPENING_BYTES: usize = 2048;

/// Calls `f` with the FNV-1a hash of each lowercased word of `text`: a run of
/// alphanumerics, or one CJK character.
fn for_each_word_hash(text: &str, mut f: impl FnMut(u64)) {
    const START: u64 = 0xcbf2_9ce4_8422_2325;
    let add = |h: u64, c: char| {
        let mut h = h;
        for b in (c as u32).to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    };
    let (mut h, mut open) = (START, false);
    for c in text.chars() {
        if c.is_ascii() {
            // The common case, one byte: lowercase it and hash it alone.
            if c.is_ascii_alphanumeric() {
                h ^= u64::from(c.to_ascii_lowercase() as u8);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
                open = true;
            } else if open {
                f(h);
                (h, open) = (START, false);
            }
        } else if crate::meta::is_cjk(c) {
            if open {
                f(h);
            }
            f(add(START, c));
            (h, open) = (START, false);
        } else if c.is_alphanumeric() {
            h = c.to_lowercase().fold(h, add);
            open = true;
        } else if open {
            f(h);
            (h, open) = (START, false);
        }
    }
    if open {
        f(h);
    }
}

/// Sentence punctuation (`.`, `!`, `?`, `,`, `;` and their CJK forms) per 100 characters of
/// `text`.
pub fn punctuation_per_100(text: &str) -> f64 {
    // Counted on bytes: a character is a byte that does not continue one (UTF-8), an ASCII
    // mark is its byte, and the CJK marks are three-byte sequences (。、 E3 80 82/81;
    // ！，；？ EF BC 81/8C/9B/9F).
    let bytes = text.as_bytes();
    // Branch-free passes the compiler vectorises, then the rare lead bytes of CJK marks.
    let chars = bytes.iter().filter(|&&b| (b as i8) >= -0x40).count();
    let marks = crate::html::textstats::sentence_marks(bytes);
    100.0 * marks as f64 / chars.max(1) as f64
}

/// The model fitted on the eight bag-scored dev sets, shipped with the crate.
pub const DEFAULT_MODEL: &[u8] = include_bytes!("../../models/confidence.model");

/// Why model bytes were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfidenceModelError {
    /// Not a readable model file.
    Trees(StageModelError),
    /// A tree reads an input past the signals: a stage model.
    Input(u16),
}

impl std::fmt::Display for ConfidenceModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfidenceModelError::Trees(e) => write!(f, "confidence model: {e}"),
            ConfidenceModelError::Input(i) => write!(
                f,
                "not a confidence model: a tree reads input {i}, past the {SIGNALS} signals (a stage model?)"
            ),
        }
    }
}

impl std::error::Error for ConfidenceModelError {}

/// Gradient-boosted trees over the [`Signals`] (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfidenceModel {
    trees: StageModel,
}

impl ConfidenceModel {
    /// The model of `trees` (the trainer's), refused when a tree reads past the signals.
    pub fn new(trees: StageModel) -> Result<Self, ConfidenceModelError> {
        for tree in trees.trees() {
            if let Some(n) = tree
                .iter()
                .find(|n| n.feature != LEAF && usize::from(n.feature) >= SIGNALS)
            {
                return Err(ConfidenceModelError::Input(n.feature));
            }
        }
        Ok(ConfidenceModel { trees })
    }

    /// The stage's input array of `signals`: the signals first, zeros after.
    pub fn inputs(signals: &[f32; SIGNALS]) -> [f32; FEATURES] {
        let mut x = [0f32; FEATURES];
        x[..SIGNALS].copy_from_slice(signals);
        x
    }

    /// The F1 the model expects of a page with `signals`, in 0..=1.
    pub fn confidence(&self, signals: &Signals) -> f32 {
        let p = self.trees.probability(&Self::inputs(&signals.to_array()));
        if p.is_finite() {
            p.clamp(0.0, 1.0)
        } else {
            0.5
        }
    }

    /// Reads a model written by [`to_bytes`](Self::to_bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ConfidenceModelError> {
        let trees = StageModel::from_bytes(bytes).map_err(ConfidenceModelError::Trees)?;
        ConfidenceModel::new(trees)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.trees.to_bytes()
    }

    /// FNV-1a 64 of the model's bytes: what the config hash holds.
    pub fn digest(&self) -> u64 {
        self.trees.digest()
    }

    /// The shipped model ([`DEFAULT_MODEL`]); were its bytes ever unreadable (the tests check
    /// them), a model without trees (0.5 of every page).
    pub fn default_model() -> ConfidenceModel {
        ConfidenceModel::from_bytes(DEFAULT_MODEL).unwrap_or_else(|_| ConfidenceModel {
            trees: StageModel::new(0.0, 0.0, Vec::new())
                .unwrap_or_else(|_| StageModel::default_model()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::stage::TreeNode;

    #[test]
    fn the_shipped_model_reads_and_round_trips() {
        let model = ConfidenceModel::from_bytes(DEFAULT_MODEL).expect("shipped model");
        assert_eq!(model.to_bytes(), DEFAULT_MODEL);
        assert!(
            !model.trees.trees().is_empty(),
            "the shipped model is fitted"
        );
    }

    #[test]
    fn a_stage_model_or_damaged_bytes_are_refused() {
        let stage = crate::methods::stage::DEFAULT_MODEL;
        assert!(matches!(
            ConfidenceModel::from_bytes(stage),
            Err(ConfidenceModelError::Input(_))
        ));
        let bytes = ConfidenceModel::default_model().to_bytes();
        assert!(matches!(
            ConfidenceModel::from_bytes(&bytes[..bytes.len() - 1]),
            Err(ConfidenceModelError::Trees(_))
        ));
    }

    #[test]
    fn confidence_follows_the_trees_and_stays_in_range() {
        // One stump on the expected main share: log-odds −2 at or under 0.5, +2 above.
        let stump = vec![
            TreeNode {
                feature: 1,
                left: 1,
                right: 2,
                value: 0.5,
            },
            TreeNode {
                feature: LEAF,
                left: 0,
                right: 0,
                value: -2.0,
            },
            TreeNode {
                feature: LEAF,
                left: 0,
                right: 0,
                value: 2.0,
            },
        ];
        let model = ConfidenceModel::new(StageModel::new(0.0, 0.0, vec![stump]).unwrap()).unwrap();
        let at = |e: f64| {
            model.confidence(&Signals {
                expected_main_share: e,
                ..Signals::default()
            })
        };
        assert!(at(0.2) < 0.2 && at(0.9) > 0.8, "{} {}", at(0.2), at(0.9));
        let wild = at(f64::NAN);
        assert!((0.0..=1.0).contains(&wild));
    }

    #[test]
    fn title_words_are_found_in_the_text() {
        let text = "Storm floods the valley\nResidents left their homes on Tuesday.";
        assert_eq!(
            title_in_output(Some("Storm floods valley | Daily News"), text),
            0.6
        );
        assert_eq!(title_in_output(None, text), 0.0);
        assert_eq!(title_in_output(Some("北京暴雨"), "今天北京下了暴雨。"), 1.0);
        assert_eq!(title_in_output(Some("北京暴雨"), "上海晴"), 0.0);
        assert!((punctuation_per_100("Ab. Cd, ef!") - 300.0 / 11.0).abs() < 1e-9);
        assert_eq!(punctuation_per_100(""), 0.0);
        // The byte count is the character count: every mark, ASCII or CJK, among accents,
        // emoji and lookalikes (＂ EF BC 82, 〃 E3 80 83) that are not marks.
        let text = "Déjà vu. 北京暴雨。今天、下雨！好吗？是，的；ok? 🌧!＂〃";
        let by_chars = 100.0
            * text
                .chars()
                .filter(|c| ".!?,;。！？，；、".contains(*c))
                .count() as f64
            / text.chars().count() as f64;
        assert_eq!(punctuation_per_100(text), by_chars);
    }
}
