//! `outward report`: one self-contained HTML page that draws an output directory of
//! `outward run` — records written and skipped by reason, per input and in all; languages
//! with their scores; text lengths; how much of each page the extraction parsed; top hosts;
//! site memory's cut; a seeded sample of documents to read — and says what could not be read.
//!
//! Also the page of `outward eval --report` (`eval_page`). Split by job: `gather` reads the
//! manifest and the shards (read-only), `svg` draws bars, `html` lays out the run's page.
//! No I/O beyond reading the directory; the caller writes the page.

pub mod eval_page;
pub mod gather;
pub mod html;
pub mod svg;

pub use gather::{GatherError, Gathered, Problem, gather};

/// The report of the output directory `dir`, as one HTML page.
pub fn report(dir: &std::path::Path) -> Result<(String, Gathered), GatherError> {
    let gathered = gather(dir)?;
    Ok((html::render(&gathered), gathered))
}
