//! The timings log of an output directory (`DIR/timings.jsonl`): a line per input a run
//! processed — wall-clock seconds from opening the input to its manifest line, the bytes read
//! and the HTML decoded, the documents written, the threads of the run — so that throughput
//! over inputs can be drawn (`outward report`). A log, not an output: unlike the shards and
//! the manifest, its bytes differ from run to run.
//!
//! Invariants: a line is appended under the manifest's lock right after its input's manifest
//! line, and names that line's output and SHA-256, so a reader joins a timing to the shard
//! it measured and never to a later shard of the same input; compaction (with the
//! manifest's) keeps the latest line per output whose SHA-256 the manifest still names.

use crate::manifest::ManifestEntry;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Name of the timings log inside the output directory.
pub const TIMINGS: &str = "timings.jsonl";

/// How long one input took in the run that wrote its output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputTiming {
    /// The input as given (the manifest line's `input`).
    pub input: String,
    /// Its output file and that file's SHA-256 (the manifest line's).
    pub output: String,
    pub output_sha256: String,
    /// When reading began, in seconds since the Unix epoch (milliseconds kept).
    pub started: f64,
    /// Wall-clock seconds from opening the input to its manifest line (milliseconds kept).
    pub seconds: f64,
    /// Bytes of the input as stored (compressed), and of the HTML decoded from it.
    pub input_bytes: u64,
    pub html_bytes: u64,
    pub records: u64,
    pub written: u64,
    /// The run's worker threads, and how many inputs it read at once (they share the
    /// workers, so one input's rate is its share of the run's).
    pub threads: usize,
    pub inputs_at_once: usize,
}

impl InputTiming {
    /// Megabytes (10^6 bytes) of HTML per second.
    pub fn html_mb_per_s(&self) -> f64 {
        per_second(self.html_bytes as f64 / 1e6, self.seconds)
    }
}

/// `amount / seconds`, 0 for a time too short to measure.
pub fn per_second(amount: f64, seconds: f64) -> f64 {
    if seconds > 0.0 { amount / seconds } else { 0.0 }
}

/// Seconds rounded to milliseconds (what the log keeps).
pub fn millis(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// Every readable line of a timings log, in order; unreadable lines (a torn last line after a
/// crash) are ignored.
pub fn parse_timings(text: &str) -> Vec<InputTiming> {
    text.lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// The latest timing of each manifest entry's output as it is now (same output, same
/// SHA-256), keyed by output name. Entries without one (reused from a run before timings
/// were logged, failed inputs) have none.
pub fn current_timings<'a>(
    timings: Vec<InputTiming>,
    entries: impl IntoIterator<Item = &'a ManifestEntry>,
) -> BTreeMap<String, InputTiming> {
    let wanted: BTreeMap<&str, &str> = entries
        .into_iter()
        .filter(|e| !e.output.is_empty())
        .map(|e| (e.output.as_str(), e.output_sha256.as_str()))
        .collect();
    let mut current = BTreeMap::new();
    for timing in timings {
        if wanted.get(timing.output.as_str()) == Some(&timing.output_sha256.as_str()) {
            current.insert(timing.output.clone(), timing);
        }
    }
    current
}
