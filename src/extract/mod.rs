//! The extraction core: HTML text in, [`Extraction`] out. Pure: no I/O, no threads, no
//! globals beyond read-only tables. Every method sits behind [`Extractor`]; `outward run`,
//! `outward extract`, `outward eval` and the benches all call [`extractor`].
//!
//! Invariants: never panics, never recurses on input depth, runs in time linear-ish in the
//! input; `stats.nodes_parsed <= stats.nodes_total` for partial methods.

mod clean;
mod climb;
mod emit;
pub mod entities;
mod fulltext;
mod page;
mod paper;
mod partial;
mod reverse;
mod similarity;
mod tags;
mod textstats;
mod title;
mod tokenize;
mod tree;

pub use fulltext::Fulltext;
pub use paper::Paper;
pub use reverse::Reverse;

/// Internals exposed for the agreement property tests and benches (not a stable API).
#[doc(hidden)]
pub mod internals {
    pub use super::clean::{CleanOptions, Cleaned, clean};
    pub use super::partial::PartialParse;
    pub use super::tags::Tag;
    pub use super::tree::{Kind, NONE, Node, Tree};
}

/// Selectable extraction method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// All visible text of the page (the baseline).
    Fulltext,
    /// Reverse-order partial parse with the product's improvements (seed paper 002 and beyond).
    Reverse,
    /// The published algorithm of seed paper 002 with the paper's parameters.
    Paper,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Fulltext => "fulltext",
            Method::Reverse => "reverse",
            Method::Paper => "paper",
        }
    }
}

/// Parameters shared by the methods.
#[derive(Debug, Clone)]
pub struct ExtractOptions {
    /// Sim threshold for widening the content root to its parent (paper: 0.8).
    pub similarity_threshold: f64,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions {
            similarity_threshold: 0.8,
        }
    }
}

/// Counters a method reports about the work it did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExtractStats {
    /// Nodes (elements + text) built by the method's parse.
    pub nodes_parsed: u64,
    /// Nodes in the whole page (a cheap full tokenizer pass).
    pub nodes_total: u64,
    /// Bytes of input the parse tokenized.
    pub bytes_touched: u64,
}

/// The result of extracting one page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extraction {
    /// Main text: blocks separated by `\n`, whitespace normalised, entities decoded.
    pub text: String,
    pub title: Option<String>,
    pub stats: ExtractStats,
}

/// One extraction method.
pub trait Extractor: Send + Sync {
    fn method(&self) -> Method;
    fn extract(&self, html: &str) -> Extraction;
}

/// The extractor for `method`.
pub fn extractor(method: Method, options: &ExtractOptions) -> Box<dyn Extractor> {
    match method {
        Method::Fulltext => Box::new(Fulltext),
        Method::Reverse => Box::new(Reverse::new(options)),
        Method::Paper => Box::new(Paper::new(options)),
    }
}
