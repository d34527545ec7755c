//! outward's pipeline: the driver that wires the workspace's crates, data flowing one way
//! (see `docs/design.md`): `outward_warc` (records, HTTP encodings, charset) →
//! `outward_core` (the pure extraction core) → `outward_output` (ordered zstd JSONL shards +
//! manifest). The CLI (the `outward` binary) and the Python package (`python/`) are its two
//! front ends: neither holds pipeline logic, so both give the same documents. This crate
//! parses no arguments and prints nothing; it reports through [`Reporter`].
//!
//! Its rooms, lowest first (a module imports only those above it in this list):
//! - [`events`]: what a run tells its caller ([`Event`], [`Reporter`], [`Progress`]).
//! - [`config`]: what decides a run ([`RunConfig`], [`DocFilters`], the config hash, the one
//!   builder of worker pools, [`SetupError`]).
//! - [`budget`]: records and bytes in flight between readers and writers.
//! - [`input`]: the input list (directories, lists, shards) and one input (local or remote).
//! - [`worker`]: one page into its document, for every caller (`run`, `eval`, `extract`,
//!   Python).
//! - [`sites`]: site stores (files, lookups through a bounded cache, spilling builder,
//!   streaming merge).
//! - [`store_update`]: `--sites-update`'s pending pages and landings, kill-safe.
//! - [`stream`]: one input through the pool, in order, into a sink.
//! - [`site_memory`]: site memory for a run (pass 1, stores), `sites build`.
//! - [`run`]: every input into shards and the manifest; the same without files for `eval`.
//! - [`learn`]: training samples from WARCs and truth, `train`, leave-one-dataset-out.
//! - [`bench`]: extraction alone, timed.

pub mod bench;
pub mod budget;
pub mod config;
pub mod events;
pub mod input;
pub mod learn;
pub mod run;
pub mod site_memory;
pub mod sites;
pub mod store_update;
pub mod stream;
pub mod worker;

pub use config::{
    DocFilters, RunConfig, SetupError, SiteSource, StopSignal, TOOL_VERSION, favor_option,
    method_options, worker_pool,
};
pub use events::{Event, FractionHistogram, Progress, Reporter, Silent, WorkFractions};
pub use input::{resolve_inputs, select_shard};
pub use run::{EMPTY_INPUT, InputOutcome, InputReport, extract_documents, extract_texts, run};
pub use site_memory::build_sites;
pub use stream::{DocSink, ExtractedText, StreamResult};
