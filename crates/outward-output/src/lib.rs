//! outward-output: the output side of outward. `document` is the one output document and its
//! Dolma JSON line; `writer` owns every output file: shards in zstd frames written under a
//! temporary name and renamed when complete, the manifest, and resume decisions.
//!
//! Invariants: the only crate that writes files; an output name only ever appears for a
//! complete, fsynced file.

pub mod document;
pub mod writer;
