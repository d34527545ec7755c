//! Pipeline: wires reader → decoder → extractor → writer with threads, and keeps order.
//!
//! Shape (measured in `../shared/NOTES.md`): per input, one reader thread copies records out of
//! fastwarc and hands its pages to a shared rayon pool in batches (one job and one message
//! per batch: wake-ups are system calls); workers run the pure [`process_page`] and send
//! results on an unbounded channel (a worker never blocks); the input's writer reorders by
//! sequence number and feeds a [`DocSink`] in input order.
//!
//! Invariants:
//! - Output bytes depend only on the input and the config, never on `threads`.
//! - Memory is bounded by [`Budget`]: at most `window` records and `inflight_bytes` of payload
//!   are between reader and writer at any time, whatever the input size (shared by all inputs).
//! - Every record read lands in exactly one [`Counts`] bucket; a bad record or a panicking
//!   extractor is a counted skip, never the end of the run.
//! - Nothing here prints: what is worth telling goes to the caller's [`Reporter`] as a named
//!   [`Event`].

use crate::input::{input_source, is_remote, open_input};
use crate::sites::{Gathered, SpillingBuilder, StoreContexts, StoreReader};
use outward_base::counts::{Counts, SkipReason};
use outward_core::html::clean::Cleaned;
use outward_core::methods::{self, UnknownMethod};
use outward_core::site::{DEFAULT_MIN_PAGES, PagePrints, SampleNeeds, page_prints_with};
use outward_core::text::page_title::h1_text;
use outward_core::{ExtractOptions, Extractor, Format, Page, PageMeta, SiteContext, SiteContexts};
use outward_output::atomic::{remove_stale_temp_files, sha256_hex};
use outward_output::document::{Document, Provenance};
use outward_output::format::{
    self as output_format, OutputFormat, OutputOptions, ShardWrite, UnknownFormat,
};
use outward_output::manifest::{MANIFEST, Manifest, ManifestEntry};
use outward_output::output_stem;
use outward_remote::RemoteOptions;
use outward_warc::decode::{self, DecodeOptions};
use outward_warc::reader::{
    FileKind, FileStatus, RawPage, ReadItem, ReaderOptions, Skip, WarcReader, sniff_source,
};
use outward_warc::source::ByteSource;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

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
            Event::SiteLookupsFailed(e) => write!(
                f,
                "site store: {} lookups could not read it (those pages were judged alone); first: {}",
                e.failed, e.first_error
            ),
        }
    }
}

/// Where a run's site memory comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SiteSource {
    /// Each page is judged alone.
    #[default]
    None,
    /// Learned from the run's own inputs in a first read (`--site-memory`).
    Inputs,
    /// Read from a store built by `outward sites build` (`--sites STORE`).
    Store(PathBuf),
}

/// Tool version written into the manifest and the config hash.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Everything that decides what a run writes, plus how it runs.
#[derive(Debug, Clone)]
pub struct RunConfig {
    pub output: PathBuf,
    /// The extraction method's registry name.
    pub method: String,
    pub extract: ExtractOptions,
    /// How a document's blocks become its text.
    pub text_format: Format,
    /// Worker threads (rayon pool size).
    pub threads: usize,
    /// The output format's registry name (`dolma`, `wet`).
    pub output_format: String,
    /// Settings of the output formats (zstd level and frame size of `dolma`).
    pub output_options: OutputOptions,
    pub max_record_bytes: u64,
    /// Reprocess inputs even when the manifest says they are done.
    pub force: bool,
    /// Records between reader and writer, at most, over all inputs.
    pub window: usize,
    /// Payload bytes between reader and writer, at most, over all inputs.
    pub inflight_bytes: u64,
    /// Where site memory comes from: none, the run's own inputs (`--site-memory`: read them
    /// once to learn what repeats across each host's pages, then extract with it), or a
    /// store (`--sites STORE`).
    pub sites: SiteSource,
    /// Pages of a host that must hold a block for site memory to call it template.
    pub site_min_pages: u32,
    /// With a store: add this run's pages to it when the run ends (`--sites-update`).
    pub sites_update: bool,
    /// Memory site memory may hold, about: a builder past it spills sorted runs to disk and
    /// merges them; a store's lookup cache evicts past it (`--site-memory-mib`).
    pub site_memory_bytes: usize,
    /// Which documents are written (`--min-chars`, `--lang`); the rest are counted skips.
    pub filters: DocFilters,
    /// How remote inputs are read (retries, timeouts, S3 endpoint and credentials).
    pub remote: RemoteOptions,
}

/// Records and documents a run keeps: a page over a size budget is skipped as `over_budget`
/// before extraction, one whose extraction did more work than `max_work` after it, a
/// document as `too_short` or `language`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocFilters {
    /// Nodes (elements and text runs) a page may have (`--max-nodes`; 0: no budget).
    pub max_nodes: u64,
    /// Elements a page may nest (`--max-depth`; 0: no budget).
    pub max_depth: u32,
    /// Work units ([`outward_core::ExtractStats::work`]) a page's extraction may do
    /// (`--max-work`; 0: no budget).
    pub max_work: u64,
    /// Fewer characters of text than this: `too_short` (0: no minimum).
    pub min_chars: u64,
    /// ISO 639-1 codes (lowercase) the identified language must be one of; a document with no
    /// identified language fails too (empty: every language).
    pub languages: Vec<String>,
}

impl DocFilters {
    /// Keeps only documents in these languages, given as a user writes them: each code is
    /// trimmed and lowercased, and empty ones are dropped.
    pub fn set_languages<S: AsRef<str>>(&mut self, codes: impl IntoIterator<Item = S>) {
        self.languages = codes
            .into_iter()
            .map(|l| l.as_ref().trim().to_ascii_lowercase())
            .filter(|l| !l.is_empty())
            .collect();
    }

    /// Why a page the cleaner measured as `cleaned` is over a budget, if it is.
    pub fn over_budget(&self, cleaned: &Cleaned) -> Option<String> {
        if self.max_nodes > 0 && cleaned.nodes_total > self.max_nodes {
            return Some(format!(
                "{} nodes > --max-nodes {}",
                cleaned.nodes_total, self.max_nodes
            ));
        }
        if self.max_depth > 0 && cleaned.max_depth > self.max_depth {
            return Some(format!(
                "nesting depth {} > --max-depth {}",
                cleaned.max_depth, self.max_depth
            ));
        }
        None
    }

    /// Why an extraction that reported `stats` did more work than the budget, if it did.
    pub fn over_work(&self, stats: &outward_core::ExtractStats) -> Option<String> {
        (self.max_work > 0 && stats.work > self.max_work)
            .then(|| format!("work {} > --max-work {}", stats.work, self.max_work))
    }

    /// Why `doc` is not kept, if it is not.
    pub fn reject(&self, doc: &Document) -> Option<(SkipReason, String)> {
        let m = &doc.metadata;
        if m.text_chars < self.min_chars {
            return Some((
                SkipReason::TooShort,
                format!("{} characters < {}", m.text_chars, self.min_chars),
            ));
        }
        if !self.languages.is_empty()
            && !m
                .language
                .as_ref()
                .is_some_and(|l| self.languages.iter().any(|want| want == l))
        {
            let got = m.language.as_deref().unwrap_or("none");
            return Some((SkipReason::Language, format!("language {got}")));
        }
        None
    }

    /// The filters as a stable string for the config hash.
    fn key(&self) -> String {
        let mut key = format!(
            "min_chars={}; lang={}",
            self.min_chars,
            self.languages.join(",")
        );
        // Budgets only when set: runs without one keep the hash (and their resume) they had.
        if self.max_nodes > 0 || self.max_depth > 0 {
            key.push_str(&format!(
                "; max_nodes={}; max_depth={}",
                self.max_nodes, self.max_depth
            ));
        }
        if self.max_work > 0 {
            key.push_str(&format!("; max_work={}", self.max_work));
        }
        key
    }
}

impl RunConfig {
    pub fn new(output: PathBuf) -> RunConfig {
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        RunConfig {
            output,
            method: methods::DEFAULT.to_string(),
            extract: ExtractOptions::default(),
            text_format: Format::Text,
            threads,
            output_format: output_format::FORMATS[0].name.to_string(),
            output_options: OutputOptions::default(),
            max_record_bytes: 16 << 20,
            force: false,
            window: 0,
            inflight_bytes: 128 << 20,
            sites: SiteSource::None,
            site_min_pages: DEFAULT_MIN_PAGES,
            sites_update: false,
            site_memory_bytes: crate::sites::DEFAULT_SITE_MEMORY_BYTES,
            filters: DocFilters::default(),
            remote: RemoteOptions::default(),
        }
    }

    /// Records in flight: 8 per worker (NOTES: kept RSS at 18-25 MB) unless set.
    pub fn effective_window(&self) -> usize {
        if self.window > 0 {
            self.window
        } else {
            8 * self.threads.max(1)
        }
    }

    /// The rayon pool of `threads` named workers that runs the per-page work.
    pub fn worker_pool(&self) -> Result<rayon::ThreadPool, SetupError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.max(1))
            .thread_name(|i| format!("outward-worker-{i}"))
            .build()
            .map_err(|e| SetupError::Pool(e.to_string()))
    }

    /// The configured extraction method.
    pub fn extractor(&self) -> Result<Box<dyn Extractor>, UnknownMethod> {
        methods::build(&self.method, &self.extract)
    }

    /// The configured output format.
    pub fn output_format(&self) -> Result<Box<dyn OutputFormat>, UnknownFormat> {
        output_format::build(&self.output_format, &self.output_options)
    }

    /// [`config_hash`](Self::config_hash) with the site memory the run extracts with: the
    /// memory's digest decides output as much as any option.
    pub fn config_hash_with(&self, site_digest: Option<u64>) -> String {
        match site_digest {
            None => self.config_hash(),
            Some(digest) => {
                let key = format!(
                    "{}; site_memory={digest:016x}; site_min_pages={}",
                    self.config_hash(),
                    self.site_min_pages
                );
                sha256_hex(&key)[..16].to_string()
            }
        }
    }

    /// Hash of every setting that changes output bytes (not threads, not paths, not options
    /// the method does not read).
    pub fn config_hash(&self) -> String {
        let options = self
            .extractor()
            .map(|m| m.options_key())
            .unwrap_or_default();
        let output = self
            .output_format()
            .map(|f| f.options_key())
            .unwrap_or_default();
        let key = format!(
            "outward {TOOL_VERSION}; method={}; options={options}; format={}; output={}; {output}; max_record_bytes={}; {}; metadata=2",
            self.method,
            self.text_format.name(),
            self.output_format,
            self.max_record_bytes,
            self.filters.key(),
        );
        sha256_hex(&key)[..16].to_string()
    }

    fn decode_options(&self) -> DecodeOptions {
        DecodeOptions {
            max_decoded_bytes: self.max_record_bytes.max(1) as usize,
        }
    }
}

/// File names a directory input contributes: WARC in every compression the reader reads, and
/// ARC (v1), plain or gzipped.
pub const INPUT_SUFFIXES: [&str; 6] = [
    ".warc",
    ".warc.gz",
    ".warc.zst",
    ".warc.lz4",
    ".arc",
    ".arc.gz",
];

/// Expands command-line inputs: files and URLs (`http(s)://`, `s3://`) as given, directories
/// to their files named with one of [`INPUT_SUFFIXES`] (sorted), `-` to the entries listed on
/// `stdin`, and every entry of each list file (`--input-list`, gzipped or not; see
/// `outward_warc::read_path_list`). With `base_url`, a listed entry that is neither a URL nor
/// an absolute path is appended to it (a Common Crawl `warc.paths.gz` line +
/// `https://data.commoncrawl.org/`). The result is sorted and deduplicated, so `--shard`
/// selection is stable.
pub fn resolve_inputs(
    args: &[PathBuf],
    lists: &[PathBuf],
    base_url: Option<&str>,
    stdin: &mut dyn io::BufRead,
) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut listed = Vec::new();
    for list in lists {
        let entries = outward_warc::open_path_list(list)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", list.display())))?;
        listed.extend(entries);
    }
    for arg in args {
        if arg.as_os_str() == "-" {
            listed.extend(outward_warc::read_path_list(&mut *stdin)?);
        } else if is_remote(arg) {
            out.push(arg.clone());
        } else if arg.is_dir() {
            for entry in std::fs::read_dir(arg)? {
                let path = entry?.path();
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if path.is_file() && INPUT_SUFFIXES.iter().any(|s| name.ends_with(s)) {
                    out.push(path);
                }
            }
        } else {
            out.push(arg.clone());
        }
    }
    for entry in listed {
        let relative = !outward_remote::is_remote(&entry) && !Path::new(&entry).is_absolute();
        match base_url {
            Some(base) if relative => out.push(PathBuf::from(format!(
                "{}/{}",
                base.trim_end_matches('/'),
                entry.trim_start_matches('/')
            ))),
            _ => out.push(PathBuf::from(entry)),
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// DataTrove's rule: shard `index` of `count` keeps `inputs[index::count]`.
///
/// The whole list is checked for inputs that would write the same shard name first: two
/// such inputs in different shards would each pass the per-run check, overwrite each other's
/// output and fight over one manifest entry forever.
pub fn select_shard(
    inputs: Vec<PathBuf>,
    index: usize,
    count: usize,
) -> Result<Vec<PathBuf>, SetupError> {
    check_distinct_stems(&inputs)?;
    Ok(inputs
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % count.max(1) == index)
        .map(|(_, p)| p)
        .collect())
}

/// Refuses an input list in which two inputs would write the same shard name.
pub fn check_distinct_stems(inputs: &[PathBuf]) -> Result<(), SetupError> {
    let mut seen: BTreeMap<String, &PathBuf> = BTreeMap::new();
    for input in inputs {
        let stem = output_stem(input);
        if let Some(first) = seen.insert(stem.clone(), input) {
            return Err(SetupError::DuplicateStem {
                stem,
                first: first.clone(),
                second: input.clone(),
            });
        }
    }
    Ok(())
}

/// Counting semaphore on records and payload bytes in flight. Waiters are woken when at most
/// half the records are held (and then at every release while they wait): whoever waits
/// must not hold records that only its own progress would free.
pub struct Budget {
    /// Records and bytes held, and how many threads wait in `acquire`.
    state: Mutex<BudgetState>,
    freed: Condvar,
    max_records: usize,
    max_bytes: u64,
}

#[derive(Default)]
struct BudgetState {
    records: usize,
    bytes: u64,
    waiting: usize,
}

impl Budget {
    pub fn new(max_records: usize, max_bytes: u64) -> Budget {
        Budget {
            state: Mutex::new(BudgetState::default()),
            freed: Condvar::new(),
            max_records: max_records.max(1),
            max_bytes,
        }
    }

    fn fits(&self, s: &BudgetState, bytes: u64) -> bool {
        s.records == 0 || (s.records < self.max_records && s.bytes + bytes <= self.max_bytes)
    }

    /// Blocks until one more record of `bytes` fits (a record alone always fits).
    pub fn acquire(&self, bytes: u64) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while !self.fits(&s, bytes) {
            s.waiting += 1;
            s = self.freed.wait(s).unwrap_or_else(|e| e.into_inner());
            s.waiting -= 1;
        }
        s.records += 1;
        s.bytes += bytes;
    }

    /// Whether a thread waits in `acquire` now (another input's reader, when inputs share
    /// the budget).
    pub fn contended(&self) -> bool {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).waiting > 0
    }

    /// Takes one more record of `bytes` if it fits now; `false` (nothing taken) when
    /// `acquire` would block.
    pub fn try_acquire(&self, bytes: u64) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let fits = self.fits(&s, bytes);
        if fits {
            s.records += 1;
            s.bytes += bytes;
        }
        fits
    }

    pub fn release(&self, bytes: u64) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.records = s.records.saturating_sub(1);
        s.bytes = s.bytes.saturating_sub(bytes);
        // A wake-up is a system call and a context switch: only when somebody waits, and only
        // once half the records are free, so a woken reader reads a batch, not one page.
        if s.waiting > 0 && s.records <= self.max_records / 2 {
            self.freed.notify_all();
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

/// Histogram of `nodes_parsed / nodes_total` per document, in 1/1000 steps.
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

/// What one record became.
pub enum PageOutcome {
    Doc(Box<Document>),
    Skip(Skip),
}

/// Decodes and extracts one page: the pure per-record work of a worker.
pub fn process_page(
    page: RawPage,
    warc_file: &str,
    extractor: &dyn Extractor,
    site: Option<&dyn SiteContexts>,
    decode_options: &DecodeOptions,
    format: Format,
    filters: &DocFilters,
) -> (PageOutcome, u64) {
    let (outcome, html_bytes, _) = process_page_learning(
        page,
        warc_file,
        extractor,
        site,
        decode_options,
        format,
        filters,
        None,
    );
    (outcome, html_bytes)
}

/// [`process_page`], also giving the page's site fingerprints with what `learn` asks for (for
/// `--sites-update`; `None` for a page without a host or one that does not decode).
#[allow(clippy::too_many_arguments)]
pub fn process_page_learning(
    mut page: RawPage,
    warc_file: &str,
    extractor: &dyn Extractor,
    site: Option<&dyn SiteContexts>,
    decode_options: &DecodeOptions,
    format: Format,
    filters: &DocFilters,
    learn: Option<SampleNeeds>,
) -> (PageOutcome, u64, Option<PagePrints>) {
    let skip = |page: &RawPage, reason, detail: String| Skip {
        reason,
        record_id: Some(page.record_id.clone()),
        offset: page.offset,
        detail,
    };
    // The body moves into the decoder: a UTF-8 body that needs no decoding becomes the HTML
    // as it is. Memory: the stored body is not kept once decoded, nor the HTML once extracted
    // (a big page is held about three times at once — HTML, cleaned page, text — not five).
    let decoded = match decode::decode_body(
        &page.http_headers,
        page.content_type.as_deref(),
        std::mem::take(&mut page.body),
        decode_options,
    ) {
        Ok(d) => d,
        Err(e) => return (PageOutcome::Skip(skip(&page, e.reason, e.detail)), 0, None),
    };
    let html_bytes = decoded.html.len() as u64;
    let extracted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let analysed = Page::new(&decoded.html, page.target_uri.as_deref());
        if let Some(why) = filters.over_budget(analysed.visible()) {
            return Err(why);
        }
        // With site memory, how many pages of the host it knows (0: judged alone).
        let (extraction, site_pages) = match site {
            Some(memory) => {
                let context = memory.context(analysed.host());
                let e = extractor.extract(&analysed, &context);
                (e, Some(context.host_pages()))
            }
            None => (extractor.extract(&analysed, SiteContext::none()), None),
        };
        if let Some(why) = filters.over_work(&extraction.stats) {
            return Err(why);
        }
        let prints = learn.and_then(|needs| page_prints_with(&analysed, needs));
        if extraction.blocks.is_empty() {
            return Ok((extraction, site_pages, PageMeta::default(), prints));
        }
        let meta = PageMeta::read(analysed.html(), analysed.url(), || {
            h1_text(analysed.visible())
        });
        Ok((extraction, site_pages, meta, prints))
    }));
    let charset = decoded.charset;
    let charset_source = decoded.charset_source;
    drop(decoded.html);
    let (extraction, site_pages, meta, prints) = match extracted {
        Ok(Ok(x)) => x,
        Ok(Err(why)) => {
            return (
                PageOutcome::Skip(skip(&page, SkipReason::OverBudget, why)),
                html_bytes,
                None,
            );
        }
        Err(_) => {
            return (
                PageOutcome::Skip(skip(
                    &page,
                    SkipReason::ExtractFailed,
                    "extractor panicked".into(),
                )),
                html_bytes,
                None,
            );
        }
    };
    if extraction.blocks.is_empty() {
        return (
            PageOutcome::Skip(skip(&page, SkipReason::Empty, "no text extracted".into())),
            html_bytes,
            prints,
        );
    }
    let last_modified = page
        .http_headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("last-modified"))
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty());
    let RawPage {
        record_id,
        target_uri,
        date,
        offset,
        payload_digest,
        content_type,
        http_status,
        ..
    } = page;
    let provenance = Provenance {
        url: target_uri,
        created: date,
        warc_file: Some(warc_file.to_string()),
        warc_offset: Some(offset),
        http_status,
        last_modified,
        content_type,
        payload_digest,
        charset,
        charset_source: charset_source.as_str(),
        site_pages,
    };
    let doc = Document::build(
        record_id.clone(),
        provenance,
        extraction,
        meta,
        format,
        extractor.name(),
    );
    if let Some((reason, detail)) = filters.reject(&doc) {
        let skip = Skip {
            reason,
            record_id: Some(record_id),
            offset,
            detail,
        };
        return (PageOutcome::Skip(skip), html_bytes, prints);
    }
    (PageOutcome::Doc(Box::new(doc)), html_bytes, prints)
}

/// Receives an input's documents in input order.
pub trait DocSink {
    fn accept(&mut self, doc: Document) -> io::Result<()>;
}

/// Writes documents into an input's output file.
impl DocSink for Box<dyn ShardWrite> {
    fn accept(&mut self, doc: Document) -> io::Result<()> {
        self.write(&doc)
    }
}

/// A document's id (its WARC-Record-ID), text, and what `outward eval --worst` shows of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedText {
    pub id: String,
    pub text: String,
    pub url: Option<String>,
    pub nodes_parsed: u64,
    pub nodes_total: u64,
}

/// Collects the documents' ids and texts (for `outward eval`).
#[derive(Default)]
pub struct TextCollector {
    pub texts: Vec<ExtractedText>,
}

impl DocSink for TextCollector {
    fn accept(&mut self, doc: Document) -> io::Result<()> {
        self.texts.push(ExtractedText {
            id: doc.id,
            text: doc.text,
            url: doc.metadata.url,
            nodes_parsed: doc.metadata.nodes_parsed,
            nodes_total: doc.metadata.nodes_total,
        });
        Ok(())
    }
}

/// The result of streaming one input through the stages.
#[derive(Debug, Clone)]
pub struct StreamResult {
    pub counts: Counts,
    pub status: FileStatus,
    pub fractions: FractionHistogram,
}

/// How many per-record problems are logged per input before the rest are only counted.
const LOG_LIMIT: u64 = 10;

/// What [`fan_out`] hands its caller: results of the per-page work, skips of the reader,
/// in any order; then the end of the input.
enum Fanned<T> {
    Page {
        seq: u64,
        out: T,
        payload_bytes: u64,
    },
    Skipped {
        seq: u64,
        skip: Skip,
    },
    End {
        records: u64,
        status: FileStatus,
    },
}

/// Pages a batch holds at most: one job on the pool and one message back per batch, not per
/// page (each costs wake-ups, system calls, when a thread sleeps).
const BATCH_PAGES: usize = 16;
/// Payload bytes after which a batch is sent whatever its page count: a few big pages are
/// work enough for one job, and the other workers should get theirs.
const BATCH_BYTES: u64 = 1 << 20;

/// Pages read and not yet handed to the pool, with their sequence numbers and payload bytes.
#[derive(Default)]
struct PageBatch {
    pages: Vec<(u64, RawPage, u64)>,
    bytes: u64,
}

impl PageBatch {
    /// Adds a page; `true` when the batch is full and should be sent.
    fn push(&mut self, seq: u64, page: RawPage, bytes: u64) -> bool {
        self.pages.push((seq, page, bytes));
        self.bytes += bytes;
        self.pages.len() >= BATCH_PAGES || self.bytes >= BATCH_BYTES
    }

    fn take(&mut self) -> Vec<(u64, RawPage, u64)> {
        self.bytes = 0;
        std::mem::take(&mut self.pages)
    }
}

/// One input through the shared pool: a reader thread copies records out of the file and
/// spawns `work` for its pages on the pool, in batches; `on` runs on this thread for every
/// result, in completion order, then once with `End` (after all results). `on` must release
/// each page's payload bytes from the budget. Errors only when the file cannot be opened; a
/// reader that dies without finishing ends the input as partial. Once `stop` is set (by `on`),
/// no more records are read; those already read still arrive.
fn fan_out<T: Send>(
    source: &Arc<dyn ByteSource>,
    stages: &Stages,
    work: &(dyn Fn(RawPage) -> T + Sync),
    stop: &AtomicBool,
    mut on: impl FnMut(Fanned<T>),
) -> io::Result<()> {
    let Stages {
        config,
        pool,
        budget,
        progress,
        ..
    } = *stages;
    let reader_options = ReaderOptions {
        max_record_bytes: config.max_record_bytes,
    };
    enum Msg<T> {
        Item(Fanned<T>),
        Batch(Vec<Fanned<T>>),
        OpenFailed(io::Error),
    }
    let (tx, rx) = crossbeam_channel::unbounded::<Msg<T>>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            // fastwarc's records are !Send: the reader lives and dies on this thread.
            let mut reader = match WarcReader::open_source(Arc::clone(source), reader_options) {
                Ok(r) => r,
                Err(e) => {
                    let _ = tx.send(Msg::OpenFailed(e));
                    return;
                }
            };
            let mut seq = 0u64;
            // Pages go to the pool in batches (see `BATCH_PAGES`), each page holding its
            // share of the budget; a batch is sent before the reader waits for budget, so the
            // pages it holds can be written and free what they hold.
            let mut batch = PageBatch::default();
            // Jobs borrow `work`; the scope waits for all of them.
            pool.in_place_scope(|jobs| {
                let send = |batch: &mut PageBatch| {
                    let pages = batch.take();
                    if pages.is_empty() {
                        return;
                    }
                    let tx = tx.clone();
                    jobs.spawn(move |_| {
                        let out = pages
                            .into_iter()
                            .map(|(seq, page, payload_bytes)| Fanned::Page {
                                seq,
                                out: work(page),
                                payload_bytes,
                            })
                            .collect();
                        // The receiver waits for every job of its input: this send only
                        // fails if it is gone, and then the result is moot.
                        let _ = tx.send(Msg::Batch(out));
                    });
                };
                let acquire = |batch: &mut PageBatch, bytes: u64| {
                    if !budget.try_acquire(bytes) {
                        send(batch);
                        budget.acquire(bytes);
                    }
                };
                for item in reader.by_ref() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    progress.records.fetch_add(1, Ordering::Relaxed);
                    match item {
                        ReadItem::Page(page) => {
                            let bytes = page.body.len() as u64;
                            progress.payload_bytes.fetch_add(bytes, Ordering::Relaxed);
                            acquire(&mut batch, bytes);
                            // A batch is sent early when another reader waits for budget:
                            // this reader may wait long for its next record (a stalled
                            // remote input), and its pages must not hold the budget then.
                            if batch.push(seq, page, bytes) || budget.contended() {
                                send(&mut batch);
                            }
                        }
                        ReadItem::Skipped(skip) => {
                            acquire(&mut batch, 0);
                            let _ = tx.send(Msg::Item(Fanned::Skipped { seq, skip }));
                        }
                    }
                    seq += 1;
                }
                send(&mut batch);
            });
            let _ = tx.send(Msg::Item(Fanned::End {
                records: seq,
                status: reader.status(),
            }));
        });
        let mut received = 0u64;
        let mut end: Option<(u64, FileStatus)> = None;
        loop {
            if let Some((records, _)) = &end
                && received >= *records
            {
                let (records, status) = end.take().expect("checked above");
                on(Fanned::End { records, status });
                return Ok(());
            }
            match rx.recv() {
                Ok(Msg::Item(Fanned::End { records, status })) => end = Some((records, status)),
                Ok(Msg::Item(item)) => {
                    received += 1;
                    on(item);
                }
                Ok(Msg::Batch(items)) => {
                    for item in items {
                        received += 1;
                        on(item);
                    }
                }
                Ok(Msg::OpenFailed(e)) => return Err(e),
                // The reader thread ended without End: it panicked; keep what we have.
                Err(_) => {
                    on(Fanned::End {
                        records: received,
                        status: FileStatus::Partial {
                            offset: 0,
                            error: "reader thread failed".into(),
                        },
                    });
                    return Ok(());
                }
            }
        }
    })
}

/// Streams one input: reader thread → rayon pool → this thread, in order, into `sink`.
fn stream_input(
    path: &Path,
    source: &Arc<dyn ByteSource>,
    stages: &Stages,
    sink: &mut dyn DocSink,
) -> io::Result<StreamResult> {
    let Stages {
        config,
        extractor,
        site,
        site_updates,
        budget,
        progress,
        reporter,
        ..
    } = *stages;
    let warc_file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let decode_options = config.decode_options();
    let format = config.text_format;
    /// A record's result, by its sequence number in the input.
    struct Processed {
        outcome: PageOutcome,
        payload_bytes: u64,
        html_bytes: u64,
    }
    let mut counts = Counts::default();
    let mut fractions = FractionHistogram::default();
    let mut sink_error: Option<io::Error> = None;
    let mut logged = 0u64;
    let mut pending: BTreeMap<u64, Processed> = BTreeMap::new();
    let mut next = 0u64;
    let mut status = FileStatus::Complete;
    let filters = &config.filters;
    let work = |page: RawPage| {
        process_page_learning(
            page,
            &warc_file,
            extractor,
            site,
            &decode_options,
            format,
            filters,
            site_updates.map(|(_, needs)| needs),
        )
    };
    // A sink that fails (a full disk, a Python iterator let go) stops the reading.
    let stop = AtomicBool::new(false);
    fan_out(source, stages, &work, &stop, |item| {
        match item {
            Fanned::Page {
                seq,
                out: (outcome, html_bytes, prints),
                payload_bytes,
            } => {
                // Order-free: what the store learns does not depend on completion order.
                if let (Some((updates, _)), Some(prints)) = (site_updates, prints) {
                    updates
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .add(prints);
                }
                pending.insert(
                    seq,
                    Processed {
                        outcome,
                        payload_bytes,
                        html_bytes,
                    },
                );
            }
            Fanned::Skipped { seq, skip } => {
                pending.insert(
                    seq,
                    Processed {
                        outcome: PageOutcome::Skip(skip),
                        payload_bytes: 0,
                        html_bytes: 0,
                    },
                );
            }
            Fanned::End { status: s, .. } => status = s,
        }
        while let Some(Processed {
            outcome,
            payload_bytes,
            html_bytes,
        }) = pending.remove(&next)
        {
            counts.records += 1;
            counts.html_bytes += html_bytes;
            match outcome {
                PageOutcome::Doc(doc) => {
                    counts.html += 1;
                    fractions.add(doc.metadata.nodes_parsed, doc.metadata.nodes_total);
                    let degraded = doc.metadata.degraded;
                    let (offset, record_id) = match degraded {
                        Some(_) => (doc.metadata.warc_offset, doc.id.clone()),
                        None => (None, String::new()),
                    };
                    if sink_error.is_none() {
                        match sink.accept(*doc) {
                            Ok(()) => {
                                counts.written += 1;
                                progress.written.fetch_add(1, Ordering::Relaxed);
                                if let Some(budget) = degraded {
                                    counts.degraded += 1;
                                    logged += 1;
                                    if logged <= LOG_LIMIT {
                                        reporter.report(&Event::RecordDegraded(RecordDegraded {
                                            warc_file: &warc_file,
                                            offset: offset.unwrap_or(0),
                                            record_id: &record_id,
                                            budget,
                                        }));
                                    }
                                }
                            }
                            Err(e) => {
                                sink_error = Some(e);
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
                PageOutcome::Skip(skip) => {
                    if html_bytes > 0 {
                        counts.html += 1;
                    }
                    counts.skip(skip.reason);
                    progress.skipped.fetch_add(1, Ordering::Relaxed);
                    if is_worth_logging(skip.reason) {
                        logged += 1;
                        if logged <= LOG_LIMIT {
                            reporter.report(&Event::RecordSkipped(RecordSkipped {
                                warc_file: &warc_file,
                                offset: skip.offset,
                                record_id: skip.record_id.as_deref(),
                                reason: skip.reason,
                                detail: &skip.detail,
                            }));
                        }
                    }
                }
            }
            budget.release(payload_bytes);
            next += 1;
        }
    })?;
    if logged > LOG_LIMIT {
        reporter.report(&Event::SkipsNotReported(SkipsNotReported {
            warc_file: &warc_file,
            count: logged - LOG_LIMIT,
        }));
    }
    // A non-empty file in which no WARC record was found at all is not a WARC file.
    if status == FileStatus::Complete
        && counts.records == 0
        && std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
    {
        status = FileStatus::Partial {
            offset: 0,
            error: "no WARC record found".into(),
        };
    }
    if let Some(e) = sink_error {
        return Err(e);
    }
    Ok(StreamResult {
        counts,
        status,
        fractions,
    })
}

fn is_worth_logging(reason: SkipReason) -> bool {
    matches!(
        reason,
        SkipReason::BadRecord
            | SkipReason::DecodeError
            | SkipReason::TooBig
            | SkipReason::ExtractFailed
            | SkipReason::OverBudget
    )
}

/// What happened to one input in a run.
#[derive(Debug, Clone)]
pub struct InputReport {
    pub input: PathBuf,
    pub outcome: InputOutcome,
}

#[derive(Debug, Clone)]
pub enum InputOutcome {
    /// Processed in this run.
    Done {
        entry: ManifestEntry,
        fractions: FractionHistogram,
    },
    /// Skipped: the manifest entry still matches.
    Reused(ManifestEntry),
    /// Could not be processed at all (open or write failure).
    Failed(String),
}

impl InputReport {
    /// True when this input's output is complete.
    pub fn is_complete(&self) -> bool {
        match &self.outcome {
            InputOutcome::Done { entry, .. } | InputOutcome::Reused(entry) => entry.is_complete(),
            InputOutcome::Failed(_) => false,
        }
    }
}

/// A setup problem that stops a run before it starts.
#[derive(Debug)]
pub enum SetupError {
    OutputDir(PathBuf, io::Error),
    Manifest(PathBuf, io::Error),
    DuplicateStem {
        stem: String,
        first: PathBuf,
        second: PathBuf,
    },
    Pool(String),
    Method(UnknownMethod),
    OutputFormat(UnknownFormat),
    SiteStore(PathBuf, io::Error),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::OutputDir(path, e) => {
                write!(f, "cannot create output directory {}: {e}", path.display())
            }
            SetupError::Manifest(path, e) => {
                write!(f, "cannot open manifest {}: {e}", path.display())
            }
            SetupError::DuplicateStem {
                stem,
                first,
                second,
            } => write!(
                f,
                "inputs {} and {} would both write the output named {stem:?}",
                first.display(),
                second.display()
            ),
            SetupError::Pool(e) => write!(f, "cannot start worker threads: {e}"),
            SetupError::Method(e) => write!(f, "{e}"),
            SetupError::OutputFormat(e) => write!(f, "{e}"),
            SetupError::SiteStore(path, e) => {
                write!(f, "cannot read site store {}: {e}", path.display())
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// Runs every input into `config.output`. Inputs are independent: one failing never stops
/// the others. Returns one report per input, in input order.
pub fn run(
    inputs: &[PathBuf],
    config: &RunConfig,
    progress: &Progress,
    reporter: &dyn Reporter,
) -> Result<Vec<InputReport>, SetupError> {
    std::fs::create_dir_all(&config.output).map_err(|e| {
        // "File exists (os error 17)" says less than what is wrong.
        let e = if config.output.exists() && !config.output.is_dir() {
            io::Error::new(e.kind(), "exists and is not a directory")
        } else {
            e
        };
        SetupError::OutputDir(config.output.clone(), e)
    })?;
    remove_stale_temp_files(&config.output);
    check_distinct_stems(inputs)?;
    let manifest = Mutex::new(
        Manifest::open(&config.output)
            .map_err(|e| SetupError::Manifest(config.output.join(MANIFEST), e))?,
    );
    let pool = config.worker_pool()?;
    let extractor = config.extractor().map_err(SetupError::Method)?;
    let budget = Budget::new(config.effective_window(), config.inflight_bytes);
    let mut stages = Stages {
        config,
        extractor: &*extractor,
        site: None,
        site_updates: None,
        pool: &pool,
        budget: &budget,
        progress,
        reporter,
    };
    let memory = site_memory(inputs, &stages, &config.output)?;
    stages.site = memory.as_ref().map(|m| m.contexts());
    let update_store = match &config.sites {
        SiteSource::Store(path) if config.sites_update => Some(path),
        _ => None,
    };
    // The pages a run adds to a store carry what the store keeps.
    let kept = memory.as_ref().map_or(SampleNeeds::ALL, |m| m.kept);
    let site_updates = Mutex::new(SpillingBuilder::new(
        config.site_memory_bytes,
        &config.output,
        kept,
    ));
    if update_store.is_some() {
        stages.site_updates = Some((&site_updates, kept));
    }
    let shared = RunShared {
        stages,
        config_hash: config.config_hash_with(memory.as_ref().map(|m| m.digest)),
        output_format: config.output_format().map_err(SetupError::OutputFormat)?,
        manifest,
    };
    // Several inputs at once keep many workers fed (one reader gunzips ~300 MB/s).
    let readers = (config.threads / 3).clamp(1, inputs.len().max(1));
    let next_input = AtomicUsize::new(0);
    let reports: Mutex<Vec<Option<InputReport>>> = Mutex::new(vec![None; inputs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..readers {
            scope.spawn(|| {
                loop {
                    let i = next_input.fetch_add(1, Ordering::Relaxed);
                    let Some(input) = inputs.get(i) else { break };
                    let outcome = run_input(input, &shared);
                    progress.inputs_done.fetch_add(1, Ordering::Relaxed);
                    reports.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(InputReport {
                        input: input.clone(),
                        outcome,
                    });
                }
            });
        }
    });
    let mut manifest = shared
        .manifest
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    if let Err(error) = manifest.compact() {
        reporter.report(&Event::ManifestNotCompacted(ManifestNotCompacted {
            error: &error,
        }));
    }
    if let Some(memory) = &memory {
        memory.report_failures(reporter);
    }
    if let Some(path) = update_store {
        // The store as it is now (another job may have written it), plus what this run saw.
        let mut learned = site_updates.into_inner().unwrap_or_else(|e| e.into_inner());
        let pages = learned.pages();
        let result = StoreReader::open(path)
            .and_then(|store| learned.write(path, &[&store], crate::sites::EVERY_HOST))
            .map(|summary| summary.bytes);
        reporter.report(&Event::SiteStoreUpdated(SiteStoreUpdated {
            store: path,
            pages,
            result: &result,
        }));
    }
    Ok(reports
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect())
}

/// The stages an input streams through, and who hears about it.
#[derive(Clone, Copy)]
struct Stages<'a> {
    config: &'a RunConfig,
    extractor: &'a dyn Extractor,
    /// What repeats across each host's pages, when the run learned it.
    site: Option<&'a dyn SiteContexts>,
    /// What this run's pages add to the site store (`--sites-update`).
    /// and what of the sample pages they carry (what the store keeps).
    site_updates: Option<(&'a Mutex<SpillingBuilder>, SampleNeeds)>,
    pool: &'a rayon::ThreadPool,
    budget: &'a Budget,
    progress: &'a Progress,
    reporter: &'a dyn Reporter,
}

/// What every input of a run shares.
struct RunShared<'a> {
    stages: Stages<'a>,
    config_hash: String,
    output_format: Box<dyn OutputFormat>,
    manifest: Mutex<Manifest>,
}

fn run_input(input: &Path, shared: &RunShared) -> InputOutcome {
    let RunShared {
        stages,
        config_hash,
        manifest,
        ..
    } = shared;
    let config = stages.config;
    let opened = match open_input(input, &config.remote) {
        Ok(opened) => opened,
        Err(e) => return InputOutcome::Failed(format!("cannot read input: {e}")),
    };
    let identity = opened.identity.clone();
    if !config.force {
        let m = manifest.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = m.reusable(&config.output, &identity, config_hash) {
            return InputOutcome::Reused(entry.clone());
        }
    }
    // A file that is neither WARC nor ARC gets no output and no manifest line: there is
    // nothing to resume, and nothing sends it back to work on a rerun. ARC files are read
    // like WARC files (the reader dispatches on the same sniff).
    match sniff_source(opened.source.as_ref()) {
        Ok(FileKind::Warc | FileKind::Arc | FileKind::Empty) => {}
        Ok(FileKind::Other { starts_with }) => {
            return InputOutcome::Failed(format!(
                "not a WARC or ARC file (it starts with \"{starts_with}\")"
            ));
        }
        Err(e) => return InputOutcome::Failed(format!("cannot read input: {e}")),
    }
    let stem = output_stem(input);
    let output = shared.output_format.file_name(&stem);
    let mut sink = match shared.output_format.create(&config.output, &stem) {
        Ok(w) => w,
        Err(e) => return InputOutcome::Failed(format!("cannot create output: {e}")),
    };
    let result = match stream_input(input, &opened.source, stages, &mut sink) {
        Ok(r) => r,
        Err(e) => return InputOutcome::Failed(e.to_string()),
    };
    if let Some(retried) = opened.retried().filter(|&n| n > 0) {
        stages
            .reporter
            .report(&Event::InputRetried(InputRetried { input, retried }));
    }
    let info = match sink.finish() {
        Ok(info) => info,
        Err(e) => return InputOutcome::Failed(format!("cannot finish output: {e}")),
    };
    // A file written, truncated or replaced while it was read gives an output that may mix
    // its versions: it is partial, and its identity (taken before the read) no longer matches
    // the file, so the next run reads it again.
    let mut result = result;
    if let Some(change) = opened.changed_while_read(input) {
        result.status = match result.status {
            FileStatus::Complete => FileStatus::Partial {
                offset: identity.size,
                error: change,
            },
            FileStatus::Partial { offset, error } => FileStatus::Partial {
                offset,
                error: format!("{error}; {change}"),
            },
        };
    }
    let status = result.status.name();
    let (error, error_offset) = match &result.status {
        FileStatus::Complete => (None, None),
        FileStatus::Partial { offset, error } => (Some(error.clone()), Some(*offset)),
    };
    if let Some(err) = &error {
        shared
            .stages
            .reporter
            .report(&Event::InputPartial(InputPartial {
                input,
                offset: error_offset.unwrap_or(0),
                error: err,
            }));
    }
    let entry = ManifestEntry {
        input: input.to_string_lossy().into_owned(),
        identity,
        output,
        output_sha256: info.file.sha256,
        output_bytes: info.file.bytes,
        counts: result.counts,
        status: status.to_string(),
        error,
        error_offset,
        tool_version: TOOL_VERSION.to_string(),
        config_hash: config_hash.to_string(),
    };
    if let Err(e) = manifest
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .append(entry.clone())
    {
        return InputOutcome::Failed(format!("cannot write manifest: {e}"));
    }
    InputOutcome::Done {
        entry,
        fractions: result.fractions,
    }
}

/// The site memory a run extracts with, and its digest (for the config hash).
struct RunSites {
    source: SitesHeld,
    digest: u64,
    /// What of the sample pages the memory keeps.
    kept: SampleNeeds,
}

enum SitesHeld {
    Memory(outward_core::SiteMemory),
    Store(Box<StoreContexts>),
}

impl RunSites {
    fn contexts(&self) -> &dyn SiteContexts {
        match &self.source {
            SitesHeld::Memory(m) => m,
            SitesHeld::Store(s) => s.as_ref(),
        }
    }

    fn report_failures(&self, reporter: &dyn Reporter) {
        if let SitesHeld::Store(store) = &self.source
            && let (failed @ 1.., Some(first_error)) = store.failures()
        {
            reporter.report(&Event::SiteLookupsFailed(SiteLookupsFailed {
                failed,
                first_error: &first_error,
            }));
        }
    }
}

/// The site memory a run extracts with (see [`SiteSource`]), reported as an event. A pass 1
/// that outgrows `config.site_memory_bytes` spills into `spill_near` and is read host by
/// host like a store.
fn site_memory(
    inputs: &[PathBuf],
    stages: &Stages,
    spill_near: &Path,
) -> Result<Option<RunSites>, SetupError> {
    let config = stages.config;
    let needs = SampleNeeds::of(&config.method);
    let store_contexts = |reader: StoreReader, dir| {
        StoreContexts::new(
            reader,
            needs,
            config.site_min_pages,
            config.site_memory_bytes,
            dir,
        )
    };
    let sites = match &config.sites {
        SiteSource::None => return Ok(None),
        SiteSource::Inputs => {
            let gathered = gather_sites(inputs, stages, needs, spill_near)
                .and_then(SpillingBuilder::finish)
                .map_err(|e| SetupError::SiteStore(spill_near.to_path_buf(), e))?;
            match gathered {
                Gathered::Memory(builder) => {
                    let digest = outward_core::site::store::digest(&builder, needs);
                    let (pages, hosts) = (builder.pages(), builder.hosts() as u64);
                    let memory = builder.finish(config.site_min_pages);
                    stages
                        .reporter
                        .report(&Event::SiteMemoryLearned(SiteMemoryLearned {
                            pages,
                            hosts,
                            remembered: Some(Remembered {
                                hosts: memory.hosts(),
                                host_pages: memory.pages(),
                                fingerprints: memory.fingerprints(),
                            }),
                        }));
                    return Ok(Some(RunSites {
                        source: SitesHeld::Memory(memory),
                        digest,
                        kept: needs,
                    }));
                }
                Gathered::Store { dir, path } => {
                    let reader = StoreReader::open(&path)
                        .map_err(|e| SetupError::SiteStore(path.clone(), e))?;
                    store_contexts(reader, Some(dir))
                }
            }
        }
        SiteSource::Store(path) => {
            let reader =
                StoreReader::open(path).map_err(|e| SetupError::SiteStore(path.clone(), e))?;
            let footer = reader.footer();
            let kept = footer.kept;
            // Refused before any page is read: the update would fail only at the end.
            if config.sites_update {
                crate::sites::takes_more_pages(footer.min_host_pages)
                    .map_err(|e| SetupError::SiteStore(path.clone(), e))?;
            }
            crate::sites::serves_min_pages(footer, config.site_min_pages)
                .map_err(|e| SetupError::SiteStore(path.clone(), e))?;
            if !kept.covers(needs) {
                let missing = if needs.leaves && !kept.leaves {
                    "leaf texts"
                } else {
                    "page layouts"
                };
                return Err(SetupError::SiteStore(
                    path.clone(),
                    io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "the store keeps no {missing}, which --method {} reads: build it with `sites build --for {}` or without --for",
                            config.method, config.method
                        ),
                    ),
                ));
            }
            store_contexts(reader, None)
        }
    };
    let footer = *sites.footer();
    stages
        .reporter
        .report(&Event::SiteMemoryLearned(SiteMemoryLearned {
            pages: footer.pages,
            hosts: footer.hosts,
            remembered: None,
        }));
    Ok(Some(RunSites {
        source: SitesHeld::Store(Box::new(sites)),
        digest: footer.digest(needs),
        kept: footer.kept,
    }))
}

/// Pass 1 of site memory: every page of `inputs` decoded, analysed and fingerprinted on the
/// pool, gathered per host (see `outward_core::site`) in a builder that spills into
/// `spill_near` past `config.site_memory_bytes`. Order-free: the result is the same for any
/// thread count and any order of the inputs (pages are added in input order, so spills
/// fall at the same pages too). An input that cannot be read adds nothing here; pass 2
/// reports it.
fn gather_sites(
    inputs: &[PathBuf],
    stages: &Stages,
    needs: SampleNeeds,
    spill_near: &Path,
) -> io::Result<SpillingBuilder> {
    let decode_options = stages.config.decode_options();
    let work = |page: RawPage| -> Option<PagePrints> {
        let decoded = decode::decode_body(
            &page.http_headers,
            page.content_type.as_deref(),
            page.body,
            &decode_options,
        )
        .ok()?;
        std::panic::catch_unwind(|| {
            page_prints_with(&Page::new(&decoded.html, page.target_uri.as_deref()), needs)
        })
        .ok()
        .flatten()
    };
    let mut builder = SpillingBuilder::new(stages.config.site_memory_bytes, spill_near, needs);
    for input in inputs {
        let Ok(source) = input_source(input, &stages.config.remote) else {
            continue;
        };
        let _ = fan_out(
            &source,
            stages,
            &work,
            &AtomicBool::new(false),
            |item| match item {
                Fanned::Page {
                    out, payload_bytes, ..
                } => {
                    if let Some(prints) = out {
                        builder.add(prints);
                    }
                    stages.budget.release(payload_bytes);
                }
                Fanned::Skipped { .. } => stages.budget.release(0),
                Fanned::End { .. } => {}
            },
        );
    }
    Ok(builder)
}

/// `outward sites build`: the site memory of `inputs` (pass 1 alone), for a store keeping
/// `kept` of its sample pages; spills into `spill_near` past `config.site_memory_bytes`.
pub fn build_sites(
    inputs: &[PathBuf],
    config: &RunConfig,
    kept: SampleNeeds,
    spill_near: &Path,
    progress: &Progress,
    reporter: &dyn Reporter,
) -> Result<SpillingBuilder, SetupError> {
    let pool = config.worker_pool()?;
    let extractor = config.extractor().map_err(SetupError::Method)?;
    let budget = Budget::new(config.effective_window(), config.inflight_bytes);
    let stages = Stages {
        config,
        extractor: &*extractor,
        site: None,
        site_updates: None,
        pool: &pool,
        budget: &budget,
        progress,
        reporter,
    };
    gather_sites(inputs, &stages, kept, spill_near)
        .map_err(|e| SetupError::SiteStore(spill_near.to_path_buf(), e))
}

/// Extracts every document of one input into memory, in input order, with the same stages
/// as `run` (for `outward eval`). With `config.site_memory`, the memory is learned from
/// this input alone.
pub fn extract_texts(
    input: &Path,
    config: &RunConfig,
    pool: &rayon::ThreadPool,
    progress: &Progress,
    reporter: &dyn Reporter,
) -> io::Result<(Vec<ExtractedText>, StreamResult)> {
    let mut sink = TextCollector::default();
    let result = extract_documents(input, config, pool, progress, reporter, &mut sink)?;
    Ok((sink.texts, result))
}

/// Streams every document of one input into `sink`, in input order, with the same stages as
/// `run` but no output files or manifest (for `outward eval` and Python's `iter_warc`). With
/// `config.site_memory`, the memory is learned from this input alone. An error of the sink
/// stops the input and is returned.
pub fn extract_documents(
    input: &Path,
    config: &RunConfig,
    pool: &rayon::ThreadPool,
    progress: &Progress,
    reporter: &dyn Reporter,
    sink: &mut dyn DocSink,
) -> io::Result<StreamResult> {
    let extractor = config
        .extractor()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let budget = Budget::new(config.effective_window(), config.inflight_bytes);
    let mut stages = Stages {
        config,
        extractor: &*extractor,
        site: None,
        site_updates: None,
        pool,
        budget: &budget,
        progress,
        reporter,
    };
    // Pass 1 is not progress: its records would be counted twice.
    let quiet = Progress::default();
    let memory = site_memory(
        std::slice::from_ref(&input.to_path_buf()),
        &Stages {
            progress: &quiet,
            ..stages
        },
        &std::env::temp_dir(),
    )
    .map_err(io::Error::other)?;
    stages.site = memory.as_ref().map(|m| m.contexts());
    let source = input_source(input, &config.remote)?;
    stream_input(input, &source, &stages, sink)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keeps every event as `kind: message`.
    #[derive(Default)]
    struct Collect(Mutex<Vec<String>>);

    impl Reporter for Collect {
        fn report(&self, event: &Event) {
            let kind = match event {
                Event::RecordSkipped(_) => "skipped",
                Event::RecordDegraded(_) => "degraded",
                Event::SkipsNotReported(_) => "not reported",
                Event::InputPartial(_) => "partial",
                Event::InputRetried(_) => "retried",
                Event::ManifestNotCompacted(_) => "manifest",
                Event::SiteMemoryLearned(_) => "site memory",
                Event::SiteStoreUpdated(_) => "site store",
                Event::SiteLookupsFailed(_) => "site lookups",
            };
            self.0.lock().unwrap().push(format!("{kind}: {event}"));
        }
    }

    #[test]
    fn events_reach_the_reporter_rate_limited() {
        let dir = tempfile::tempdir().unwrap();
        // Twelve records over the size cap: ten reported one by one, two only counted.
        let big = outward_testkit::big_records_warc(7, &[6000; 12]);
        let big_path = dir.path().join("big.warc");
        std::fs::write(&big_path, &big.bytes).unwrap();
        // A file cut inside its 10th record: partial, the first nine pages kept.
        let (cut, _) = outward_testkit::broken_truncated();
        let cut_path = dir.path().join("cut.warc.gz");
        std::fs::write(&cut_path, &cut).unwrap();
        let mut config = RunConfig::new(dir.path().join("out"));
        config.max_record_bytes = 5000;
        config.threads = 2;
        let reporter = Collect::default();
        let reports = run(
            &[big_path, cut_path],
            &config,
            &Progress::default(),
            &reporter,
        )
        .unwrap();
        assert_eq!(reports.len(), 2);
        let events = reporter.0.into_inner().unwrap();
        let skipped: Vec<&String> = events
            .iter()
            .filter(|e| e.starts_with("skipped: big.warc@"))
            .collect();
        assert_eq!(skipped.len(), LOG_LIMIT as usize, "{events:#?}");
        assert!(
            skipped.iter().all(|e| e.contains(" too_big: ")),
            "{skipped:?}"
        );
        let first_id = &big.records.iter().find(|r| r.expect_doc).unwrap().id;
        assert!(skipped[0].contains(first_id.as_str()), "{}", skipped[0]);
        assert!(
            events.contains(&"not reported: big.warc: 2 more bad records not logged".to_string()),
            "{events:#?}"
        );
        assert!(
            events
                .iter()
                .any(|e| e.starts_with("partial: ") && e.contains("cut.warc.gz: partial at byte")),
            "{events:#?}"
        );
    }

    #[test]
    fn shard_selection_is_datatrove_rule() {
        let inputs: Vec<PathBuf> = (0..7).map(|i| PathBuf::from(format!("f{i}"))).collect();
        let got = select_shard(inputs, 1, 3).unwrap();
        assert_eq!(got, vec![PathBuf::from("f1"), PathBuf::from("f4")]);
    }

    /// Regression: `example.warc` and `example.warc.gz` land in different shards of 2, so a
    /// check of each shard's own list passed and both wrote `example.jsonl.zst`.
    #[test]
    fn shard_selection_refuses_same_stem_in_other_shards() {
        let inputs = vec![
            PathBuf::from("d/example.warc"),
            PathBuf::from("d/example.warc.gz"),
        ];
        for index in 0..2 {
            match select_shard(inputs.clone(), index, 2) {
                Err(SetupError::DuplicateStem { stem, .. }) => assert_eq!(stem, "example"),
                other => panic!("shard {index}/2: expected a duplicate stem, got {other:?}"),
            }
        }
    }

    #[test]
    fn resolve_reads_stdin_and_dirs_sorted() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.warc.gz", "a.warc", "c.txt", "d.warc.zst"] {
            std::fs::write(dir.path().join(name), b"").unwrap();
        }
        let mut stdin = io::Cursor::new(b"/x/z.warc.gz\n\n/x/y.warc.gz\n".to_vec());
        let got = resolve_inputs(
            &[dir.path().to_path_buf(), PathBuf::from("-")],
            &[],
            None,
            &mut stdin,
        )
        .unwrap();
        let names: Vec<String> = got
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        // Sorted by full path: the temp dir (/tmp/...) sorts before /x/.
        assert_eq!(
            names,
            [
                "a.warc",
                "b.warc.gz",
                "d.warc.zst",
                "y.warc.gz",
                "z.warc.gz"
            ]
        );
    }

    /// Common Crawl's `warc.paths.gz` lines are relative: `--base-url` makes them URLs; URLs
    /// and absolute paths are kept as they are, on the command line and in lists.
    #[test]
    fn list_entries_join_the_base_url() {
        let mut stdin = io::Cursor::new(
            b"crawl-data/CC-MAIN-2024-10/a.warc.gz\n/local/b.warc.gz\ns3://cc/c.warc.gz\n".to_vec(),
        );
        let args = [
            PathBuf::from("-"),
            PathBuf::from("https://data.commoncrawl.org/d.warc.gz"),
        ];
        let got = resolve_inputs(
            &args,
            &[],
            Some("https://data.commoncrawl.org/"),
            &mut stdin,
        )
        .unwrap();
        assert_eq!(
            got,
            [
                "/local/b.warc.gz",
                "https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/a.warc.gz",
                "https://data.commoncrawl.org/d.warc.gz",
                "s3://cc/c.warc.gz",
            ]
            .map(PathBuf::from)
        );
        assert!(crate::input::is_remote(&got[1]) && !crate::input::is_remote(&got[0]));
        let mut stdin = io::Cursor::new(b"crawl-data/a.warc.gz\n".to_vec());
        let got = resolve_inputs(&[PathBuf::from("-")], &[], None, &mut stdin).unwrap();
        assert_eq!(got, [PathBuf::from("crawl-data/a.warc.gz")]);
    }

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

    #[test]
    fn budget_blocks_until_released() {
        let budget = std::sync::Arc::new(Budget::new(2, 100));
        budget.acquire(60);
        budget.acquire(30);
        let b2 = budget.clone();
        let handle = std::thread::spawn(move || {
            b2.acquire(50); // must wait: 2 records in flight
            b2.release(50);
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!handle.is_finished());
        budget.release(60);
        handle.join().unwrap();
        budget.release(30);
        // A lone record larger than the byte budget still passes.
        budget.acquire(1000);
        budget.release(1000);
    }

    /// Pages reach the pool in batches and the reader waits for budget only after sending
    /// its batch: a window of one record, a byte budget smaller than any page, or the
    /// default, with one worker or two, give the same shard and the same counts (a batch
    /// held while its reader waits would hang the one-record window).
    #[test]
    fn any_budget_and_thread_count_give_the_same_shard() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [
            dir.path().join("synth.warc.gz"),
            dir.path().join("other.warc.gz"),
        ];
        std::fs::write(&inputs[0], outward_testkit::synthetic_warc_gz(11, 60)).unwrap();
        std::fs::write(&inputs[1], outward_testkit::synthetic_warc_gz(12, 40)).unwrap();
        let mut shards = Vec::new();
        // Six threads: two readers share the budget.
        for (window, inflight_bytes, threads) in [
            (0, 128 << 20, 1),
            (1, 128 << 20, 2),
            (3, 1, 1),
            (5, 64 << 10, 2),
            (1, 128 << 20, 6),
            (2, 1, 6),
            (0, 128 << 20, 2),
        ] {
            let out = dir
                .path()
                .join(format!("out-{window}-{inflight_bytes}-{threads}"));
            let mut config = RunConfig::new(out.clone());
            config.window = window;
            config.inflight_bytes = inflight_bytes;
            config.threads = threads;
            let reports = run(&inputs, &config, &Progress::default(), &Collect::default()).unwrap();
            let mut got = Vec::new();
            for (report, stem) in reports.iter().zip(["synth", "other"]) {
                let InputOutcome::Done { entry, .. } = &report.outcome else {
                    panic!("not processed: {:?}", report.outcome);
                };
                got.push(std::fs::read(out.join(format!("{stem}.jsonl.zst"))).unwrap());
                got.push(format!("{:?}", entry.counts).into_bytes());
            }
            shards.push(got);
        }
        assert!(shards[0][0].len() > 1000 && shards[0][2].len() > 1000);
        for got in &shards[1..] {
            assert!(got == &shards[0]);
        }
    }

    #[test]
    fn a_reader_waiting_for_budget_shows_as_contention() {
        let budget = std::sync::Arc::new(Budget::new(1, 100));
        budget.acquire(10);
        assert!(!budget.contended());
        assert!(!budget.try_acquire(10));
        let b2 = budget.clone();
        let waiter = std::thread::spawn(move || b2.acquire(10));
        let start = std::time::Instant::now();
        while !budget.contended() {
            assert!(start.elapsed().as_secs() < 10, "the waiter never waited");
            std::thread::yield_now();
        }
        budget.release(10);
        waiter.join().unwrap();
        assert!(!budget.contended());
        budget.release(10);
        assert!(budget.try_acquire(10));
    }

    #[test]
    fn config_hash_ignores_threads_but_not_method() {
        let a = RunConfig::new(PathBuf::from("o"));
        let mut b = a.clone();
        b.threads = 17;
        assert_eq!(a.config_hash(), b.config_hash());
        b.method = "fulltext".into();
        assert_ne!(a.config_hash(), b.config_hash());
    }

    /// Regression: `reverse` ignores `--similarity`, yet it was in the hash, so changing it
    /// reprocessed every input for identical output.
    #[test]
    fn config_hash_holds_only_options_the_method_reads() {
        let reverse = RunConfig::new(PathBuf::from("o"));
        let mut other = reverse.clone();
        other.extract.similarity_threshold = 0.5;
        assert_eq!(reverse.config_hash(), other.config_hash());
        let (mut paper, mut paper_other) = (reverse.clone(), other.clone());
        paper.method = "paper".into();
        paper_other.method = "paper".into();
        assert_ne!(paper.config_hash(), paper_other.config_hash());
    }
}
