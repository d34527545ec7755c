//! outward: turn web-crawl archives (WARC) into clean main-text corpora.
//!
//! This package is the `outward` binary (`src/main.rs`: it only parses arguments and
//! reports). The pipeline it drives lives in `outward_pipeline`, shared with the Python
//! package; it is re-exported here under its old paths.
//! Lower layers never import higher ones: the core sees none of the others.

pub use outward_pipeline::{bench, page, pipeline, sites};
