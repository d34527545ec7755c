//! outward: turn web-crawl archives (WARC) into clean main-text corpora.
//!
//! Data flows one way (see `../shared/DESIGN.md`):
//! `warc` (records) → `decode` (HTTP encodings, charset) → `extract` (pure core) →
//! `writer` (ordered zstd JSONL shards + manifest). `pipeline` wires the stages with threads;
//! the binary (`src/main.rs`) only parses arguments and reports.
//! Lower layers never import higher ones: `extract` sees none of the others.

pub mod bench;
pub mod counts;
pub mod decode;
pub mod document;
pub mod eval;
pub mod extract;
pub mod pipeline;
#[doc(hidden)]
pub mod testkit;
pub mod warc;
pub mod writer;
