//! outward-core, the extraction core: HTML text in, [`Extraction`] out. Pure: no I/O, no threads, no
//! globals beyond read-only tables. Every method sits behind [`Extractor`]; `outward run`,
//! `outward extract`, `outward eval` and the benches all call [`extractor`].
//!
//! Invariants: never panics, never recurses on input depth, runs in time linear-ish in the
//! input; `stats.nodes_parsed <= stats.nodes_total` for partial methods.

pub mod html;
pub mod methods;
pub mod text;

pub use methods::{Fulltext, Paper, Reverse};

/// Selectable extraction method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// All visible text of the page (the baseline).
    Fulltext,
    /// Reverse-order partial parse with the product's improvements (seed paper 002 and beyond).
    Reverse,
    /// The published algorithm of seed paper 002 with the paper's parameters.
    Paper,
}

impl Method {
    /// Every method, in the order the command line lists them.
    pub const ALL: [Method; 3] = [Method::Fulltext, Method::Reverse, Method::Paper];

    /// The method called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

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
