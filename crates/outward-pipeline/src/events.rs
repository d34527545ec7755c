//! What the pipeline tells its caller while it runs: named [`Event`]s for a [`Reporter`]
//! (the CLI prints them to stderr, Python collects them), the live counters of
//! [`Progress`] (read by a ticker), and the histogram of how much of each page the
//! extraction parsed ([`FractionHistogram`]).
//!
//! Invariants: nothing here prints or blocks; reporters are called from worker and writer
//! threads, so they are `Sync`; counters are relaxed atomics (display only, never a
//! decision).

use outward_base::counts::SkipReason;
use outward_output::lock::Holder;
use std::io;
use std::path::Path;
use std::sync::atomic::AtomicU64;

/// What the pipeline tells its caller while it runs, besides the counters of [`Progress`]
/// and the reports it returns. The CLI prints events to stderr; a library user may log or
/// collect them. Called from worker and writer threads.
pub trait Reporter: Sync {
    fn report(&self, event: &Event);
}

/// A reporter that drops every event.
pub struct Silent;

impl Reporter for Silent {
    fn report(&self, _event: &Event) {}
}

/// One thing worth telling: a bad record, a damaged input, a manifest problem.
#[derive(Debug)]
pub enum Event<'a> {
    RecordSkipped(RecordSkipped<'a>),
    RecordDegraded(RecordDegraded<'a>),
    SkipsNotReported(SkipsNotReported<'a>),
    InputPartial(InputPartial<'a>),
    InputRetried(InputRetried<'a>),
    ManifestNotCompacted(ManifestNotCompacted<'a>),
    SiteMemoryLearned(SiteMemoryLearned),
    SiteStoreUpdated(SiteStoreUpdated<'a>),
    SiteLookupsFailed(SiteLookupsFailed<'a>),
    SettingsChanged(SettingsChanged<'a>),
    StaleOutputRemoved(StaleOutputRemoved<'a>),
    WaitingForLock(WaitingForLock<'a>),
}

/// Another process holds the lock of what this one is about to write (an input's output in
/// a shared directory, a site store): this one waits for it.
#[derive(Debug)]
pub struct WaitingForLock<'a> {
    /// What waits: the input, or the store.
    pub what: &'a Path,
    pub lock: &'a Path,
    /// The holder its lock file names, `None` when it does not (yet) name one.
    pub holder: Option<&'a Holder>,
}

/// An input done before with other settings is read again: its output is rewritten.
#[derive(Debug)]
pub struct SettingsChanged<'a> {
    pub input: &'a Path,
    /// What changed, a setting a part: `--lang en (was any)`.
    pub changes: &'a [String],
    /// The output file written now.
    pub output: &'a str,
    /// The previous output, when it has another name (another `--output-format`): removed
    /// once the new one and its manifest line are in place.
    pub replaces: Option<&'a str>,
}

/// An output file of an input that its manifest line no longer names (written in another
/// `--output-format`), removed so a glob over the directory reads each input once.
#[derive(Debug)]
pub struct StaleOutputRemoved<'a> {
    pub input: &'a Path,
    pub removed: &'a str,
    /// The input's output now.
    pub output: &'a str,
    pub result: &'a io::Result<()>,
}

/// A store read host by host failed some lookups (a damaged block, a read error).
#[derive(Debug)]
pub struct SiteLookupsFailed<'a> {
    pub failed: u64,
    pub first_error: &'a str,
}

/// `--sites-update`: the pages this run read were added to the store (or could not be).
#[derive(Debug)]
pub struct SiteStoreUpdated<'a> {
    pub store: &'a Path,
    /// Distinct pages this run added.
    pub pages: u64,
    /// The store's new size, or why it was not written (the old store is then unchanged).
    pub result: &'a io::Result<u64>,
}

/// Site memory is ready: learned by pass 1 of `--site-memory`, or a store opened.
#[derive(Debug)]
pub struct SiteMemoryLearned {
    /// Distinct pages (all hosts).
    pub pages: u64,
    /// Hosts seen.
    pub hosts: u64,
    /// Held whole in memory: hosts with enough pages to be remembered, their pages, and
    /// the blocks seen on enough pages of their host to be template. `None` when read host
    /// by host from a store (given, or spilled by a pass 1 larger than its memory).
    pub remembered: Option<Remembered>,
}

/// See [`SiteMemoryLearned::remembered`].
#[derive(Debug, Clone, Copy)]
pub struct Remembered {
    pub hosts: usize,
    pub host_pages: u64,
    pub fingerprints: u64,
}

/// A record that gave no document for a reason worth a look (the first few of each input;
/// the rest are counted by [`SkipsNotReported`]).
#[derive(Debug)]
pub struct RecordSkipped<'a> {
    pub warc_file: &'a str,
    pub offset: u64,
    pub record_id: Option<&'a str>,
    pub reason: SkipReason,
    pub detail: &'a str,
}

/// A page written with what its method had when a per-page work budget ran out.
#[derive(Debug)]
pub struct RecordDegraded<'a> {
    pub warc_file: &'a str,
    pub offset: u64,
    pub record_id: &'a str,
    /// The budget that ran out (`max_comparisons`).
    pub budget: &'a str,
}

/// How many more skipped records of an input were counted but not reported one by one.
#[derive(Debug)]
pub struct SkipsNotReported<'a> {
    pub warc_file: &'a str,
    pub count: u64,
}

/// A remote input read through failed requests or broken connections: each was retried, a
/// broken one resumed by range from the last byte received (the bytes are the same).
#[derive(Debug)]
pub struct InputRetried<'a> {
    pub input: &'a Path,
    pub retried: u64,
}

/// An input whose records were read up to damage at `offset` (the good records are kept).
#[derive(Debug)]
pub struct InputPartial<'a> {
    pub input: &'a Path,
    pub offset: u64,
    pub error: &'a str,
}

/// The manifest could not be compacted at the end of a run (its lines are all still there).
#[derive(Debug)]
pub struct ManifestNotCompacted<'a> {
    pub error: &'a io::Error,
}

impl std::fmt::Display for Event<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::RecordSkipped(s) => write!(
                f,
                "{}@{} {}: {}: {}",
                s.warc_file,
                s.offset,
                s.record_id.unwrap_or("-"),
                s.reason.as_str(),
                s.detail
            ),
            Event::RecordDegraded(d) => write!(
                f,
                "{}@{} {}: degraded: the {} budget ran out, the text is what the method had then",
                d.warc_file, d.offset, d.record_id, d.budget
            ),
            Event::SkipsNotReported(s) => write!(
                f,
                "{}: {} more bad records not logged",
                s.warc_file, s.count
            ),
            Event::InputPartial(p) => write!(
                f,
                "{}: partial at byte {}: {}",
                p.input.display(),
                p.offset,
                p.error
            ),
            Event::InputRetried(r) => write!(
                f,
                "{}: {} failed requests or broken connections retried (resumed by byte range)",
                r.input.display(),
                r.retried
            ),
            Event::ManifestNotCompacted(m) => write!(f, "could not compact manifest: {}", m.error),
            Event::SiteStoreUpdated(u) => match u.result {
                Ok(size) => write!(
                    f,
                    "site store {}: {} pages added ({size} bytes)",
                    u.store.display(),
                    u.pages
                ),
                Err(e) => write!(
                    f,
                    "site store {} not updated (it is unchanged): {e}",
                    u.store.display()
                ),
            },
            Event::SiteMemoryLearned(m) => match &m.remembered {
                Some(r) => write!(
                    f,
                    "site memory: {} pages of {} hosts; {} hosts with enough pages ({} pages), {} template blocks",
                    m.pages, m.hosts, r.hosts, r.host_pages, r.fingerprints
                ),
                None => write!(
                    f,
                    "site memory: {} pages of {} hosts, read host by host from a store",
                    m.pages, m.hosts
                ),
            },
            Event::SettingsChanged(c) => {
                write!(
                    f,
                    "{}: settings changed: {}; rewriting {}",
                    c.input.display(),
                    c.changes.join(", "),
                    c.output
                )?;
                match c.replaces {
                    Some(old) => write!(f, " (it replaces {old})"),
                    None => Ok(()),
                }
            }
            Event::StaleOutputRemoved(r) => match r.result {
                Ok(()) => write!(
                    f,
                    "{}: removed {}, its output in another format (its output is {})",
                    r.input.display(),
                    r.removed,
                    r.output
                ),
                Err(e) => write!(
                    f,
                    "{}: could not remove {}, its output in another format (its output is {}): {e}",
                    r.input.display(),
                    r.removed,
                    r.output
                ),
            },
            Event::WaitingForLock(w) => match w.holder {
                Some(holder) => write!(
                    f,
                    "{}: waiting for {}, held by {holder}",
                    w.what.display(),
                    w.lock.display()
                ),
                None => write!(
                    f,
                    "{}: waiting for {}, held by another process",
                    w.what.display(),
                    w.lock.display()
                ),
            },
            Event::SiteLookupsFailed(e) => write!(
                f,
                "site store: {} lookups could not read it (those pages were judged alone); first: {}",
                e.failed, e.first_error
            ),
        }
    }
}

/// Live counters for progress display (updated with relaxed atomics, read by a ticker).
#[derive(Default)]
pub struct Progress {
    pub records: AtomicU64,
    pub payload_bytes: AtomicU64,
    pub written: AtomicU64,
    pub skipped: AtomicU64,
    pub inputs_done: AtomicU64,
}

/// The share of each page an extraction worked on, per document: nodes built of the page's
/// nodes (`nodes_parsed / nodes_total`) and bytes read of the page's bytes (`bytes_parsed /
/// page_bytes`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkFractions {
    pub nodes: FractionHistogram,
    pub bytes: FractionHistogram,
}

impl WorkFractions {
    /// Counts one document: `(nodes_parsed, nodes_total)` and `(bytes_parsed, page_bytes)`.
    pub fn add(&mut self, nodes: (u64, u64), bytes: (u64, u64)) {
        self.nodes.add(nodes.0, nodes.1);
        self.bytes.add(bytes.0, bytes.1);
    }

    pub fn merge(&mut self, other: &WorkFractions) {
        self.nodes.merge(&other.nodes);
        self.bytes.merge(&other.bytes);
    }
}

/// Histogram of a fraction (`nodes_parsed / nodes_total`, …) per document, in 1/1000 steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FractionHistogram {
    bins: Vec<u64>,
}

impl Default for FractionHistogram {
    fn default() -> Self {
        FractionHistogram {
            bins: vec![0; 1001],
        }
    }
}

impl FractionHistogram {
    pub fn add(&mut self, parsed: u64, total: u64) {
        if total == 0 {
            return;
        }
        let bin = ((parsed.min(total) as f64 / total as f64) * 1000.0).round() as usize;
        self.bins[bin.min(1000)] += 1;
    }

    pub fn merge(&mut self, other: &FractionHistogram) {
        for (a, b) in self.bins.iter_mut().zip(&other.bins) {
            *a += b;
        }
    }

    pub fn count(&self) -> u64 {
        self.bins.iter().sum()
    }

    /// The q-quantile (0..=1) as a fraction, `None` when empty.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (i, c) in self.bins.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(i as f64 / 1000.0);
            }
        }
        Some(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_quantiles() {
        let mut h = FractionHistogram::default();
        for (p, t) in [(1, 10), (2, 10), (3, 10), (9, 10)] {
            h.add(p, t);
        }
        h.add(5, 0); // ignored
        assert_eq!(h.count(), 4);
        assert_eq!(h.quantile(0.5), Some(0.2));
        assert_eq!(h.quantile(0.9), Some(0.9));
    }
}
