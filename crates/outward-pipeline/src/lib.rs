//! outward's pipeline: the driver that wires the workspace's crates, data flowing one way
//! (see `../shared/DESIGN.md`): `outward_warc` (records, HTTP encodings, charset) →
//! `outward_core` (the pure extraction core) → `outward_output` (ordered zstd JSONL shards +
//! manifest). `input` opens a local or remote input; `pipeline` runs the stages on threads; `page` turns one HTML page into its
//! document; `bench` measures extraction alone; `sites` reads and writes site stores.
//! The CLI (the `outward` binary) and the Python package (`python/`) are its two front ends:
//! neither holds pipeline logic, so both give the same documents. This crate parses no
//! arguments and prints nothing; it reports through [`pipeline::Reporter`].

pub mod bench;
pub mod input;
pub mod page;
pub mod pipeline;
pub mod sites;
