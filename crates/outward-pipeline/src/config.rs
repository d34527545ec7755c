//! What decides a run: [`RunConfig`] (method, options, formats, filters, site memory,
//! remote reading, threads), the document filters ([`DocFilters`]), the config hash that
//! names every setting which changes output bytes, the one builder of worker thread pools
//! ([`worker_pool`]), and the errors that stop a run before it starts ([`SetupError`]).
//!
//! Invariants: the config hash is the hash of the named settings ([`RunConfig::settings`])
//! and depends only on settings that change output bytes (not on threads, paths or options
//! the method does not read); a setting added later joins them only when set off its
//! default, so runs without it keep their hash (and their resume).

use outward_base::counts::SkipReason;
use outward_core::html::clean::Cleaned;
use outward_core::methods::models::{Model, model_of};
use outward_core::methods::{self, UnknownMethod};
use outward_core::site::DEFAULT_MIN_PAGES;
use outward_core::{ExtractOptions, Extractor, Favor, Format};
use outward_output::atomic::sha256_hex;
use outward_output::document::Document;
use outward_output::format::{self as output_format, OutputFormat, OutputOptions, UnknownFormat};
use outward_remote::RemoteOptions;
use outward_warc::decode::DecodeOptions;
use std::io;
use std::path::{Path, PathBuf};

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

/// The settings that decide a run's output, by name ([`RunConfig::settings`]).
pub type Settings = std::collections::BTreeMap<String, String>;

/// The config hash of `settings`: 16 hex digits of the SHA-256 of `name=value` pairs in name
/// order.
pub fn settings_hash(settings: &Settings) -> String {
    let key: Vec<String> = settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
    sha256_hex(&key.join("; "))[..16].to_string()
}

/// What differs from `old` in `new`, a setting a part: `--lang en (was any)`; empty when
/// nothing does. The options of another method or format are not named (they belong to it).
pub fn settings_changes(old: &Settings, new: &Settings) -> Vec<String> {
    let differs = |name: &str| old.get(name) != new.get(name);
    let owner_changed = |name: &str| match name {
        "method options" => differs("--method"),
        "output options" => differs("--output-format"),
        _ => false,
    };
    let shown = |v: Option<&String>| match v.map(String::as_str) {
        None => "not recorded".to_string(),
        Some("") => "none".to_string(),
        Some(v) => v.to_string(),
    };
    let mut names: Vec<&String> = new.keys().chain(old.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|name| differs(name) && !owner_changed(name))
        .map(|name| {
            format!(
                "{name} {} (was {})",
                shown(new.get(name)),
                shown(old.get(name))
            )
        })
        .collect()
}

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
    /// Payload bytes between reader and writer, at most, over all inputs (0: 1 MiB per
    /// worker; see [`RunConfig::effective_inflight_bytes`]).
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
    /// Asks the run to stop (the CLI sets it on SIGTERM or Ctrl-C). Not a setting: it
    /// changes no byte of what is written, only how much.
    pub stop: StopSignal,
}

/// A request to stop a run cleanly, shared by its clones: the signal's number (or any
/// non-zero reason) once set. A run that sees it starts no new input, drops the inputs it is
/// reading (their temporary files go; no manifest line, so the next run reads them again)
/// and keeps every input it finished.
#[derive(Debug, Clone, Default)]
pub struct StopSignal(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl StopSignal {
    /// Sets the request, with why (a signal number; not 0).
    pub fn stop(&self, reason: usize) {
        self.0
            .store(reason.max(1), std::sync::atomic::Ordering::Relaxed);
    }

    /// The reason given, once stopped.
    pub fn reason(&self) -> Option<usize> {
        match self.0.load(std::sync::atomic::Ordering::Relaxed) {
            0 => None,
            n => Some(n),
        }
    }

    pub fn is_set(&self) -> bool {
        self.reason().is_some()
    }

    /// The shared cell itself (for a signal handler that stores into it).
    pub fn cell(&self) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
        std::sync::Arc::clone(&self.0)
    }
}

/// Records and documents a run keeps: a page over a size budget is skipped as `over_budget`
/// before extraction, one whose extraction did more work than `max_work` after it, a
/// document as `too_short` or `language`.
#[derive(Debug, Clone, Default, PartialEq)]
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
    /// Quality filters a document must pass, in order (`--filter`): one that drops it is a
    /// skip named after its rule; `c4-quality` keeps the lines C4 keeps.
    pub quality: Vec<outward_filters::Filter>,
    /// Their thresholds (`--filter-config`; DataTrove's defaults).
    pub quality_config: outward_filters::Config,
    /// Add `metadata.signals` to every document written (`--signals`).
    pub signals: bool,
}

impl DocFilters {
    /// Keeps only documents in these languages, given as a user writes them (ISO 639-1 or
    /// 639-3, any case: see `outward_lang::language_code`); blank codes are dropped. A code of
    /// no language the identifier gives is an error naming it and the accepted codes: a
    /// filter no document can pass would write an empty corpus and call it success.
    pub fn set_languages<S: AsRef<str>>(
        &mut self,
        codes: impl IntoIterator<Item = S>,
    ) -> Result<(), String> {
        let mut languages: Vec<String> = Vec::new();
        for name in codes {
            let name = name.as_ref().trim();
            if name.is_empty() {
                continue;
            }
            let code = outward_lang::language_code(name).ok_or_else(|| {
                format!(
                    "unknown language code {name:?}: give ISO 639-1 or 639-3 codes (en or eng, \
                     zh or zho) of the languages outward identifies: {}",
                    outward_lang::language_codes().join(", ")
                )
            })?;
            if !languages.iter().any(|l| l == code) {
                languages.push(code.to_string());
            }
        }
        self.languages = languages;
        Ok(())
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

    /// Why `doc` is not kept, if it is not; a kept one gets what the quality filters make of
    /// it (C4's kept lines) and, with `signals`, its signals.
    pub fn finish(&self, doc: &mut Document) -> Option<(SkipReason, String)> {
        if let Some(why) = self.reject(doc) {
            return Some(why);
        }
        if !self.quality.is_empty() {
            let (verdict, signals) = outward_filters::apply_measuring(
                &self.quality,
                &doc.text,
                &self.quality_config,
                self.signals,
            );
            match verdict {
                outward_filters::Verdict::Drop(rule) => {
                    return Some((
                        SkipReason::Filtered(rule),
                        format!("quality filter rule {}", rule.as_str()),
                    ));
                }
                outward_filters::Verdict::Empty => {
                    return Some((
                        SkipReason::Empty,
                        "no text left for the quality filters".into(),
                    ));
                }
                outward_filters::Verdict::Keep(Some(kept)) => {
                    doc.metadata.text_chars = kept.chars().count() as u64;
                    doc.text = kept;
                }
                outward_filters::Verdict::Keep(None) => {}
            }
            doc.metadata.signals = signals;
        } else if self.signals {
            doc.metadata.signals = Some(outward_filters::Signals::measure(
                &doc.text,
                &self.quality_config,
            ));
        }
        None
    }

    /// Why `doc` is not kept by `--min-chars` and `--lang`, if it is not.
    fn reject(&self, doc: &Document) -> Option<(SkipReason, String)> {
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
}

/// The options of `method` as a front end takes them: `similarity` (paper's tree-similarity
/// threshold) and, when given, the model file at `model`, read for the method (its errors
/// name the file, or say which methods read a model).
pub fn method_options(
    method: &str,
    similarity: f64,
    model: Option<&Path>,
) -> Result<ExtractOptions, String> {
    let mut options = ExtractOptions {
        similarity_threshold: similarity,
        ..ExtractOptions::default()
    };
    if let Some(path) = model {
        read_model(method, path)?.apply(&mut options);
    }
    Ok(options)
}

/// The `--favor` value called `name` for `method`: an unknown name, or a side other than
/// balanced for a method without a learned stage to weigh, is an error.
pub fn favor_option(method: &str, name: &str) -> Result<Favor, String> {
    let favor = Favor::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Favor::ALL.iter().map(|f| f.name()).collect();
        format!("unknown favor {name:?} ({})", names.join(", "))
    })?;
    if favor != Favor::Balanced && !methods::FAVORED.contains(&method) {
        return Err(format!(
            "favor weighs the learned stage of {}; method {method} has none",
            methods::FAVORED.join(" and ")
        ));
    }
    Ok(favor)
}

/// Reads the model file at `path` for `method`.
pub fn read_model(method: &str, path: &Path) -> Result<Model, String> {
    let Some(kind) = model_of(method) else {
        return Err(format!(
            "a model is read by methods svm and template (svm models), linenet and reverse-stage, not by {method}"
        ));
    };
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Model::from_bytes(kind, &bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every core of this machine (1 when it cannot tell).
pub fn all_cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The one way a worker pool is built (runs, `eval`, `extract`, training, Python): `threads`
/// named workers (at least one).
pub fn worker_pool(threads: usize) -> Result<rayon::ThreadPool, SetupError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .thread_name(|i| format!("outward-worker-{i}"))
        .build()
        .map_err(|e| SetupError::Pool(e.to_string()))
}

impl RunConfig {
    pub fn new(output: PathBuf) -> RunConfig {
        let threads = all_cores();
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
            inflight_bytes: 0,
            sites: SiteSource::None,
            site_min_pages: DEFAULT_MIN_PAGES,
            sites_update: false,
            site_memory_bytes: crate::sites::DEFAULT_SITE_MEMORY_BYTES,
            filters: DocFilters::default(),
            remote: RemoteOptions::default(),
            stop: StopSignal::default(),
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

    /// Payload bytes in flight: 1 MiB per worker unless set (a record alone always fits).
    /// The reader gunzips faster than the workers extract, so the in-flight records are
    /// mostly at this bound; with 128 MiB (before #42) which large pages happened to be in
    /// flight together decided the peak RSS, and it kept rising over a long run (10.6 GB of
    /// WARC, 2 workers: 35-37 MB at 10% of the input, 42-45 MB at the end; with 1 MiB per
    /// worker: 31 MB, then 32-34 MB, at the same speed).
    pub fn effective_inflight_bytes(&self) -> u64 {
        if self.inflight_bytes > 0 {
            self.inflight_bytes
        } else {
            (1 << 20) * self.threads.max(1) as u64
        }
    }

    /// The pool of `threads` workers that runs the per-page work ([`worker_pool`]).
    pub fn worker_pool(&self) -> Result<rayon::ThreadPool, SetupError> {
        worker_pool(self.threads)
    }

    /// Sets the worker threads as a user gives them: `None` or 0 keeps every core.
    pub fn set_threads(&mut self, threads: Option<usize>) {
        if let Some(t) = threads.filter(|&t| t > 0) {
            self.threads = t;
        }
    }

    /// The configured extraction method.
    pub fn extractor(&self) -> Result<Box<dyn Extractor>, UnknownMethod> {
        methods::build(&self.method, &self.extract)
    }

    /// The configured output format.
    pub fn output_format(&self) -> Result<Box<dyn OutputFormat>, UnknownFormat> {
        let options = OutputOptions {
            signals: self.filters.signals,
            ..self.output_options.clone()
        };
        output_format::build(&self.output_format, &options)
    }

    /// Every setting that changes output bytes, by the name a user knows it by (`--lang`,
    /// `--method`; `method options` and `output options` are the method's and format's own
    /// keys), with the site memory the run extracts with (its digest decides output as much
    /// as any option). The manifest records them per input, so a rerun with other settings
    /// can say which changed; the config hash is their hash.
    pub fn settings(&self, site_digest: Option<u64>) -> Settings {
        self.settings_at(outward_core::EXTRACTION_REVISION, site_digest)
    }

    /// [`settings`](Self::settings) for extraction revision `revision`.
    fn settings_at(&self, revision: u32, site_digest: Option<u64>) -> Settings {
        let options = self
            .extractor()
            .map(|m| m.options_key())
            .unwrap_or_default();
        let output = self
            .output_format()
            .map(|f| f.options_key())
            .unwrap_or_default();
        let f = &self.filters;
        let mut settings: Settings = [
            ("outward version", TOOL_VERSION.to_string()),
            ("extraction revision", revision.to_string()),
            ("metadata revision", "2".to_string()),
            ("--method", self.method.clone()),
            ("method options", options),
            ("--format", self.text_format.name().to_string()),
            ("--output-format", self.output_format.clone()),
            ("output options", output),
            ("--max-record-bytes", self.max_record_bytes.to_string()),
            ("--min-chars", f.min_chars.to_string()),
            (
                "--lang",
                match f.languages.is_empty() {
                    true => "any".to_string(),
                    false => f.languages.join(","),
                },
            ),
            ("--max-nodes", f.max_nodes.to_string()),
            ("--max-depth", f.max_depth.to_string()),
            ("--max-work", f.max_work.to_string()),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect();
        // Recorded only when used, so runs without them keep their hash.
        if !f.quality.is_empty() {
            let names: Vec<&str> = f.quality.iter().map(|q| q.name()).collect();
            settings.insert("--filter".into(), names.join(","));
        }
        if f.signals {
            settings.insert("--signals".into(), "yes".into());
        }
        if (f.signals || !f.quality.is_empty())
            && f.quality_config != outward_filters::Config::default()
        {
            settings.insert("filter thresholds".into(), f.quality_config.canonical());
        }
        if let Some(digest) = site_digest {
            settings.insert("site memory".into(), format!("{digest:016x}"));
            settings.insert("--site-min-pages".into(), self.site_min_pages.to_string());
        }
        settings
    }

    /// [`config_hash`](Self::config_hash) with the site memory the run extracts with.
    pub fn config_hash_with(&self, site_digest: Option<u64>) -> String {
        settings_hash(&self.settings(site_digest))
    }

    /// Hash of every setting that changes output bytes (not threads, not paths, not options
    /// the method does not read): the hash of [`settings`](Self::settings) without site
    /// memory.
    pub fn config_hash(&self) -> String {
        self.config_hash_with(None)
    }

    pub(crate) fn decode_options(&self) -> DecodeOptions {
        DecodeOptions {
            max_decoded_bytes: self.max_record_bytes.max(1) as usize,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_hash_ignores_threads_but_not_method() {
        let a = RunConfig::new(PathBuf::from("o"));
        let mut b = a.clone();
        b.threads = 17;
        assert_eq!(a.config_hash(), b.config_hash());
        b.method = "fulltext".into();
        assert_ne!(a.config_hash(), b.config_hash());
    }

    /// Regression: the `teasers` guard (#37) changed `reverse`'s output and nothing in the
    /// hash (the tool's version stays 0.1.0 between commits), so a run resumed by the new
    /// build kept the old build's shards beside its own.
    #[test]
    fn config_hash_names_the_extraction_revision() {
        let config = RunConfig::new(PathBuf::from("o"));
        let revision = outward_core::EXTRACTION_REVISION;
        let settings = config.settings_at(revision, None);
        assert_eq!(settings["extraction revision"], revision.to_string());
        assert_ne!(
            settings_hash(&settings),
            settings_hash(&config.settings_at(revision - 1, None))
        );
        assert_eq!(config.config_hash(), settings_hash(&settings));
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

    /// A rerun names what changed, a setting a part, by the name a user types; every
    /// output-changing setting is one of them, so a change of any moves the hash.
    #[test]
    fn settings_name_each_change_and_move_the_hash() {
        let base = RunConfig::new(PathBuf::from("o"));
        let changed = |f: &dyn Fn(&mut RunConfig)| {
            let mut c = base.clone();
            f(&mut c);
            c
        };
        let mut lang = base.clone();
        lang.filters.set_languages(["eng"]).unwrap();
        let cases: Vec<(RunConfig, &str)> = vec![
            (lang, "--lang en (was any)"),
            (
                changed(&|c| c.method = "fulltext".into()),
                "--method fulltext (was reverse-stage)",
            ),
            (
                changed(&|c| c.output_format = "wet".into()),
                "--output-format wet (was dolma)",
            ),
            (
                changed(&|c| c.filters.min_chars = 200),
                "--min-chars 200 (was 0)",
            ),
            (
                changed(&|c| c.filters.max_nodes = 9),
                "--max-nodes 9 (was 0)",
            ),
            (
                changed(&|c| c.max_record_bytes = 5),
                "--max-record-bytes 5 (was 16777216)",
            ),
            (
                changed(&|c| c.text_format = Format::Markdown),
                "--format markdown (was text)",
            ),
        ];
        for (config, want) in cases {
            let changes = settings_changes(&base.settings(None), &config.settings(None));
            assert_eq!(changes, [want]);
            assert_ne!(config.config_hash(), base.config_hash(), "{want}");
        }
        // Threads change nothing; site memory is a setting of its own.
        let threads = changed(&|c| c.threads = 7);
        assert!(settings_changes(&base.settings(None), &threads.settings(None)).is_empty());
        let with_memory = base.settings(Some(0xabc));
        assert_eq!(
            settings_changes(&base.settings(None), &with_memory),
            [
                "--site-min-pages 3 (was not recorded)",
                "site memory 0000000000000abc (was not recorded)"
            ]
        );
        assert_ne!(base.config_hash_with(Some(0xabc)), base.config_hash());
    }
}
