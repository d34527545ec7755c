//! outward: turn web-crawl archives (WARC) into clean main-text corpora.
//!
//! This package is the `outward` binary (`src/main.rs` and `src/cli/`: arguments, progress,
//! printing). The pipeline it drives is `outward_pipeline`, shared with the Python package,
//! and re-exported here whole. Lower layers never import higher ones: the core sees none of
//! the others.

pub use outward_pipeline::*;
