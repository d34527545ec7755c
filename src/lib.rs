//! outward: turn web-crawl archives (WARC) into clean main-text corpora.
//!
//! This package is the binary and the pipeline that wires the workspace's crates, data
//! flowing one way (see `../shared/DESIGN.md`): `outward_warc` (records, HTTP encodings,
//! charset) → `outward_core` (the pure extraction core) → `outward_output` (ordered zstd JSONL
//! shards + manifest). `pipeline` runs the stages on threads; `bench` measures extraction
//! alone; `sites` reads and writes site stores; the binary (`src/main.rs`) only parses
//! arguments and reports.
//! Lower layers never import higher ones: the core sees none of the others.

pub mod bench;
pub mod pipeline;
pub mod sites;
