//! `outward run` end to end, by topic: golden output on the sample, Dolma validity, charsets,
//! content codings and output options ([`sample`]); thread-count independence, resume and
//! kill safety, inputs that change while read ([`resume`]); exit codes, damaged inputs, shard
//! selection and input lists ([`inputs`]); the shared edge/real samples ([`samples`]); a full
//! disk, a read-only output and peak memory ([`faults`]); a new user's mistakes and what they
//! are told ([`first_hour`]).
//!
//! Inputs are small; synthetic WARCs come from `outward_testkit` with fixed seeds, written
//! into temporary directories.

mod faults;
mod filters;
mod first_hour;
mod inputs;
mod resume;
mod sample;
mod samples;

use outward_testkit::{self as testkit, SynthOptions};
use std::path::{Path, PathBuf};

/// Writes a synthetic WARC to `dir/name` and returns its path and the generated record table.
fn write_synth(
    dir: &Path,
    name: &str,
    seed: u64,
    options: &SynthOptions,
) -> (PathBuf, testkit::SynthWarc) {
    let synth = testkit::synthetic_warc(seed, options);
    let path = dir.join(name);
    std::fs::write(&path, &synth.bytes).unwrap();
    (path, synth)
}

/// Small pages, so that debug builds stay fast.
fn small(pages: usize) -> SynthOptions {
    SynthOptions {
        pages,
        min_bytes: 3 << 10,
        max_bytes: 30 << 10,
        ..SynthOptions::default()
    }
}
