//! Every flag of the `outward` command, in one place, and what each means to the library:
//! the subcommands and their arguments (clap), the parsers that list the registries' names
//! (methods, guards, output formats, text formats), and the conversion of flags into the
//! pipeline's settings ([`MethodArgs::config`], [`InputArgs::resolve`]).
//!
//! Invariants: a setting's default lives in the library (clap shows it, never decides it);
//! every usage error is reported here once, as `error: ...`, with exit code 2.

use clap::{Args, Parser, Subcommand};
use outward::{RunConfig, SiteSource};
use outward_core::methods;
use outward_core::{ExtractOptions, Format};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "outward",
    version,
    about = "Turn WARC and ARC crawl archives into clean main-text corpora, fast"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Stream WARC or ARC files into zstd-compressed JSONL shards (one per input) plus a
    /// manifest.
    #[command(
        after_help = "Exit codes: 0 every input complete, empty (named in a warning) \
        or unchanged; 1 some input partial (cut or damaged: its good records are written); \
        3 some input failed (missing, not a WARC or ARC file, not writable; its manifest line \
        says failed), or empty with --fail-empty; 2 usage or setup error, nothing written. \
        With 1 or 3 the other inputs are done, and a rerun reads only what is left."
    )]
    Run(RunArgs),
    /// Extract the main text of one HTML page (a file, or - for stdin).
    Extract(ExtractArgs),
    /// Score extraction against ground truth (`<set>.truth.jsonl` beside `<set>.warc.gz`).
    Eval(EvalArgs),
    /// Time extraction alone on one thread over the HTML pages of WARC files (MB/s per core).
    Bench(BenchArgs),
    /// Train a learned method's model on WARC files and their ground truth (labels: a block is
    /// content when most of its tokens are in the page's truth).
    Train(TrainArgs),
    /// Build, merge and inspect site stores: what repeats across each host's pages, for
    /// `run --sites STORE`.
    #[command(subcommand)]
    Sites(SitesCommand),
    /// Draw a run's output directory on one self-contained HTML page: records written and
    /// skipped by reason, languages, text lengths, nodes parsed, top hosts, a sample of
    /// documents, and what could not be read.
    Report(ReportArgs),
}

#[derive(Args)]
pub struct ReportArgs {
    /// The output directory of `outward run` (its manifest.jsonl and shards).
    pub dir: PathBuf,
    /// The page to write (replaced atomically; default: DIR/report.html).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum SitesCommand {
    /// Read inputs and write the site store of their pages (one read, no extraction).
    Build(SitesBuildArgs),
    /// Add stores (built from different inputs, e.g. the shards of an array job) into one.
    Merge(SitesMergeArgs),
    /// Print what a store holds.
    Info(SitesInfoArgs),
}

#[derive(Args)]
pub struct SitesBuildArgs {
    /// The store file to write (replaced atomically).
    #[arg(long, short)]
    pub output: PathBuf,
    #[command(flatten)]
    pub inputs: InputArgs,
    /// Worker threads (default, or 0: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Keep only what this method reads of the sample pages (`reverse` and `layout`: no leaf
    /// texts or layouts; over the dev sets a store 2.4x smaller, and fingerprinting a page
    /// for `--sites-update` 7x cheaper); a run of a method reading more refuses the store.
    /// Default: keep everything.
    #[arg(long = "for", value_name = "METHOD", value_parser = method_parser())]
    pub for_method: Option<String>,
    /// Memory the build may hold, in MiB: past it, what it gathered is written to a sorted
    /// run beside the output, and the runs are merged at the end.
    #[arg(long, value_name = "MIB", default_value_t = SITE_MEMORY_MIB, value_parser = clap::value_parser!(u64).range(1..))]
    pub site_memory_mib: u64,
    #[command(flatten)]
    pub cut: FinalStoreArgs,
}

/// How a store is made final.
#[derive(Args)]
pub struct FinalStoreArgs {
    /// Write a final store: only what runs with --site-min-pages N or more read (no host of
    /// fewer than N distinct pages, which hold most of a crawl's store bytes; no block on
    /// fewer than N pages; no page hashes). Such runs see the same memory as from the whole
    /// store; a final store cannot be merged or updated (keep the whole one for that).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..))]
    pub drop_hosts_under: Option<u32>,
}

impl FinalStoreArgs {
    pub fn min_host_pages(&self) -> u32 {
        self.drop_hosts_under.unwrap_or(outward::sites::EVERY_HOST)
    }
}

/// `--site-memory-mib` unless told otherwise.
pub const SITE_MEMORY_MIB: u64 = (outward::sites::DEFAULT_SITE_MEMORY_BYTES >> 20) as u64;

#[derive(Args)]
pub struct SitesMergeArgs {
    /// The store file to write (replaced atomically; may be one of the inputs).
    #[arg(long, short)]
    pub output: PathBuf,
    /// Stores to add together.
    #[arg(required = true)]
    pub stores: Vec<PathBuf>,
    #[command(flatten)]
    pub cut: FinalStoreArgs,
}

#[derive(Args)]
pub struct SitesInfoArgs {
    pub store: PathBuf,
    /// Pages of a host that must hold a block for it to be template.
    #[arg(long, default_value_t = outward_core::site::DEFAULT_MIN_PAGES)]
    pub site_min_pages: u32,
}

/// Which inputs a command reads: the same rules for `run` and `sites build`.
#[derive(Args)]
pub struct InputArgs {
    /// Input files (WARC, or ARC v1), directories (their *.warc, *.warc.gz, *.warc.zst,
    /// *.warc.lz4, *.arc, *.arc.gz), URLs (http://, https://, s3://BUCKET/KEY: streamed by
    /// byte range, resumed when a connection fails), or - (paths on stdin).
    #[arg(required_unless_present = "input_list")]
    pub inputs: Vec<PathBuf>,
    /// A file listing inputs, one path or URL a line (gzipped or not, like Common Crawl's
    /// warc.paths.gz; blank lines and # comments skipped). Repeatable.
    #[arg(long, value_name = "FILE")]
    pub input_list: Vec<PathBuf>,
    /// Prefix for relative lines of input lists, e.g. https://data.commoncrawl.org/ for a
    /// Common Crawl warc.paths.gz.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Keep inputs[I::N] of the sorted input list (for Slurm arrays), e.g. 3/16.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
}

impl InputArgs {
    /// The sorted, deduplicated input files (this shard's), or the exit code of the error
    /// already reported.
    pub fn resolve(&self) -> Result<Vec<PathBuf>, ExitCode> {
        let mut stdin = std::io::stdin().lock();
        let inputs = match outward::resolve_inputs(
            &self.inputs,
            &self.input_list,
            self.base_url.as_deref(),
            &mut stdin,
        ) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("error: reading inputs: {e}");
                return Err(ExitCode::from(2));
            }
        };
        // An empty shard of a real input list is fine (more array tasks than files); an input
        // list that names no file at all is a mistake.
        if inputs.is_empty() {
            let named: Vec<String> = self
                .inputs
                .iter()
                .chain(&self.input_list)
                .map(|p| p.display().to_string())
                .collect();
            eprintln!(
                "error: no input files: {} holds no .warc, .warc.gz, .warc.zst, .warc.lz4, .arc or .arc.gz file",
                named.join(", ")
            );
            return Err(ExitCode::from(2));
        }
        match self.shard {
            Some((i, n)) => outward::select_shard(inputs, i, n).map_err(|e| {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }),
            None => Ok(inputs),
        }
    }
}

#[derive(Args)]
pub struct BenchArgs {
    /// WARC files whose HTML pages are loaded into memory first.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Methods to time (repeatable; default: reverse and fulltext).
    #[arg(long, value_parser = method_parser())]
    pub method: Vec<String>,
    /// Tree-similarity threshold for widening the content root.
    #[arg(long, default_value_t = 0.8)]
    pub similarity: f64,
    /// Rounds per method; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Stop loading pages after this many MB of HTML.
    #[arg(long, default_value_t = 1024)]
    pub max_mb: u64,
}

/// A method name from the core's registry; `--help` and errors list them with a line each.
pub fn method_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        methods::REGISTRY
            .iter()
            .map(|m| clap::builder::PossibleValue::new(m.name).help(m.summary)),
    )
}

/// An output format from the output crate's registry.
pub fn output_format_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        outward_output::format::FORMATS
            .iter()
            .map(|f| clap::builder::PossibleValue::new(f.name).help(f.summary)),
    )
}

/// A text format by name.
pub fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("text").help("one line per block (the corpus format)"),
        PossibleValue::new("markdown").help("headings, lists, pipe tables, fenced code"),
    ])
    .map(|name: String| Format::from_name(&name).expect("a listed format"))
}

/// Site memory: what repeats across each host's pages (`run` and `eval`).
#[derive(Args)]
pub struct SiteArgs {
    /// Learn what repeats across each host's pages from the inputs first (one more read of
    /// them), and leave it out of the main text (`reverse`). `eval` learns per input file.
    #[arg(long, conflicts_with = "sites")]
    pub site_memory: bool,
    /// Site memory from a store built by `outward sites build` (same effect as
    /// --site-memory, without reading the inputs twice).
    #[arg(long, value_name = "STORE")]
    pub sites: Option<PathBuf>,
    /// With --site-memory: a block is template when this many distinct pages of its host
    /// hold it (and a host needs this many pages).
    #[arg(long, default_value_t = outward_core::site::DEFAULT_MIN_PAGES, value_parser = clap::value_parser!(u32).range(2..))]
    pub site_min_pages: u32,
    /// Memory site memory may hold, in MiB: --site-memory's first read spills sorted runs
    /// to the output directory past it (and reads them host by host); a store's lookups
    /// keep a cache of at most this much.
    #[arg(long, value_name = "MIB", default_value_t = SITE_MEMORY_MIB, value_parser = clap::value_parser!(u64).range(1..))]
    pub site_memory_mib: u64,
}

impl SiteArgs {
    /// Sets `config`'s site memory from these flags.
    pub fn apply(&self, config: &mut RunConfig) {
        config.sites = match (&self.sites, self.site_memory) {
            (Some(store), _) => SiteSource::Store(store.clone()),
            (None, true) => SiteSource::Inputs,
            (None, false) => SiteSource::None,
        };
        config.site_min_pages = self.site_min_pages;
        config.site_memory_bytes = outward::sites::mib_bytes(self.site_memory_mib);
    }
}

/// The extraction method and its options (`run`, `extract`, `eval`).
#[derive(Args)]
pub struct MethodArgs {
    /// Extraction method: reverse-stage (the default) and reverse are outward's own; paper,
    /// layout, template, svm, cluster and linenet each implement one published paper
    /// (docs/methods.md names them and compares their scores); fulltext keeps every visible
    /// word.
    #[arg(long, value_parser = method_parser(), default_value = methods::DEFAULT)]
    pub method: String,
    /// Tree-similarity threshold for widening the content root (paper: 0.8).
    #[arg(long, default_value_t = 0.8)]
    pub similarity: f64,
    /// A page's budget of child-pair evaluations for the tree similarity (paper's climb):
    /// when it runs out the climb stops where it is, and the page is counted as degraded.
    #[arg(long, default_value_t = outward_core::DEFAULT_MAX_COMPARISONS, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_comparisons: u64,
    /// A model written by `outward train` for the method (svm, template, linenet, reverse-stage) instead of
    /// its shipped one.
    #[arg(long, value_name = "PATH")]
    pub model: Option<PathBuf>,
    /// Turn off one of reverse's guards (the rules that correct its climb), to measure
    /// what it does; repeatable or comma-separated. reverse and reverse-stage only.
    #[arg(long, value_name = "GUARD", value_delimiter = ',', value_parser = guard_parser())]
    pub without: Vec<String>,
    /// Lean to precision or to recall (trafilatura's favor_precision / favor_recall): the
    /// F-measure reverse-stage's learned stage maximises. reverse-stage only.
    #[arg(long, value_parser = favor_parser(), default_value = "balanced")]
    pub favor: String,
}

/// A `--favor` value, listed with a line each.
pub fn favor_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        outward_core::Favor::ALL
            .iter()
            .map(|f| clap::builder::PossibleValue::new(f.name()).help(f.summary())),
    )
}

/// A guard name of `reverse`, listed with a line each.
pub fn guard_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        outward_core::methods::reverse::Guard::ALL
            .iter()
            .map(|g| clap::builder::PossibleValue::new(g.name()).help(g.summary())),
    )
}

impl MethodArgs {
    /// The run settings shared by `run` and `eval`: method, its options, site memory,
    /// worker threads.
    pub fn config(
        &self,
        site: &SiteArgs,
        output: PathBuf,
        threads: Option<usize>,
    ) -> Result<RunConfig, ExitCode> {
        let mut config = RunConfig::new(output);
        config.set_threads(threads);
        config.method = self.method.clone();
        config.extract = self.options()?;
        site.apply(&mut config);
        Ok(config)
    }

    /// The method's options, with the `--model` file read (its errors reported: exit 2).
    pub fn options(&self) -> Result<ExtractOptions, ExitCode> {
        let model = self.model.as_deref();
        let mut options =
            outward::method_options(&self.method, self.similarity, model).map_err(|e| {
                eprintln!("error: {e}");
                ExitCode::from(2)
            })?;
        options.max_comparisons = self.max_comparisons;
        if !self.without.is_empty() {
            if !methods::GUARDED.contains(&self.method.as_str()) {
                eprintln!(
                    "error: --without turns off guards of {}; --method {} has none",
                    methods::GUARDED.join(" and "),
                    self.method
                );
                return Err(ExitCode::from(2));
            }
            options.guards = outward_core::methods::reverse::Guards::without_names(&self.without)
                .map_err(|e| {
                eprintln!("error: {e}");
                ExitCode::from(2)
            })?;
        }
        options.favor = outward::favor_option(&self.method, &self.favor).map_err(|e| {
            eprintln!("error: --{e}");
            ExitCode::from(2)
        })?;
        Ok(options)
    }
}

#[derive(Args)]
pub struct RunArgs {
    /// Output directory (created if missing).
    #[arg(long, short)]
    pub output: PathBuf,
    #[command(flatten)]
    pub inputs: InputArgs,
    /// Worker threads (default, or 0: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub site: SiteArgs,
    /// With --sites: add the pages this run reads to the store when it ends (nightly
    /// rebuilds: the next run knows more of each host). This run extracts with the store as
    /// it was.
    #[arg(long, requires = "sites")]
    pub sites_update: bool,
    /// How the extracted blocks become each document's text.
    #[arg(long, value_parser = format_parser(), default_value = "text")]
    pub format: Format,
    /// Output file format: a rerun in another format replaces each input's output of the
    /// other format (removed once the new one and its manifest line are in place).
    #[arg(long, value_parser = output_format_parser(), default_value = "dolma")]
    pub output_format: String,
    /// zstd compression level of the shards.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(i32).range(1..=22))]
    pub zstd_level: i32,
    /// Skip records whose HTTP body (or decoded body) is larger than this many bytes.
    #[arg(long, default_value_t = 16 << 20)]
    pub max_record_bytes: u64,
    /// Skip pages with more nodes (elements and text runs) than this, counted as over_budget
    /// before extraction (0: no budget).
    #[arg(long, default_value_t = 0)]
    pub max_nodes: u64,
    /// Skip pages nesting more elements than this, counted as over_budget (0: no budget;
    /// without one, deep pages are extracted in linear time).
    #[arg(long, default_value_t = 0)]
    pub max_depth: u32,
    /// Skip pages whose extraction did more work than this (bytes scanned by each pass, blocks
    /// scored, nodes built, tree comparisons: at most about 8 per byte and node of the page),
    /// counted as over_budget (0: no budget).
    #[arg(long, default_value_t = 0)]
    pub max_work: u64,
    /// Reprocess inputs even when the manifest says their output is complete.
    #[arg(long)]
    pub force: bool,
    /// When the run ends, draw the output directory on one page: DIR/report.html (as
    /// `outward report DIR`).
    #[arg(long)]
    pub report: bool,
    /// Count an input without a single record (a 0-byte file, a failed download; `status:
    /// empty` in the manifest) as failed: exit code 3 instead of 0.
    #[arg(long)]
    pub fail_empty: bool,
    /// Remote inputs: failed requests or broken connections in a row before an input fails
    /// (waits 0.5 s, doubled each time up to 30 s; a byte received resets the count).
    #[arg(long, default_value_t = outward_remote::DEFAULT_RETRIES)]
    pub retries: u32,
    /// Remote inputs: seconds to wait before the first retry (doubled each time, up to 30 s);
    /// a nearby object store may want less.
    #[arg(long, default_value_t = 0.5, value_parser = parse_retry_wait)]
    pub retry_wait: f64,
    /// Remote inputs: seconds a connection may go without a byte (headers or body) before
    /// it counts as broken and is retried from where it stopped (a stalled server).
    #[arg(long, default_value_t = 60.0, value_parser = parse_read_timeout)]
    pub read_timeout: f64,
    /// Skip documents with fewer characters of text than this (counted as too_short).
    #[arg(long, default_value_t = 0)]
    pub min_chars: u64,
    /// Keep only documents whose identified language is one of these, comma-separated:
    /// ISO 639-1 or 639-3 codes, any case (en,de or eng,deu, as Common Crawl's
    /// WARC-Identified-Content-Language writes them); the others are counted as language.
    /// A code of no language outward identifies is an error
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    pub lang: Vec<String>,
    /// Drop documents that these quality filters drop, comma-separated, applied in order as a
    /// DataTrove pipeline of GopherQualityFilter, GopherRepetitionFilter, C4QualityFilter and
    /// FineWebQualityFilter would (English words, their default thresholds): gopher-quality,
    /// gopher-repetition, c4-quality (which keeps only the lines C4 keeps), fineweb-quality.
    /// Each drop is counted under its rule's DataTrove name (gopher_short_doc, top_4_gram,
    /// line_punct_ratio, ...)
    #[arg(long, value_name = "FILTERS")]
    pub filter: Option<String>,
    /// A JSON file of thresholds for --filter and --signals, by DataTrove's argument names:
    /// {"gopher-quality": {"min_doc_words": 100}, "fineweb-quality": {"line_punct_thr": 0.1}}
    #[arg(long, value_name = "FILE")]
    pub filter_config: Option<PathBuf>,
    /// Add metadata.signals to every document: the numbers those four filters decide on
    /// (word counts, ratios, repeated n-grams, C4's kept lines and sentences, FineWeb's line
    /// ratios) and, under would_drop, the rule of each filter that would drop the text
    #[arg(long)]
    pub signals: bool,
}

#[derive(Args)]
pub struct ExtractArgs {
    /// HTML files or directories (every .html, .htm, .xhtml file below them), or - for
    /// stdin. One file prints its text (or, with --json, its document); several, or a
    /// directory, print one JSON document per line, in order.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub method: MethodArgs,
    /// Print the whole document (text, title, stats) as JSON.
    #[arg(long)]
    pub json: bool,
    /// How the extracted blocks become text.
    #[arg(long, value_parser = format_parser(), default_value = "text")]
    pub format: Format,
    /// The URL the page was fetched from (gives methods its host).
    #[arg(long)]
    pub url: Option<String>,
}

#[derive(Args)]
pub struct EvalArgs {
    /// WARC files; each is paired with the --truth given at the same position, or else with
    /// the `.truth.jsonl` file of the same name beside it.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Truth JSONL files (field `warc_record_id` joins to the document id).
    #[arg(long)]
    pub truth: Vec<PathBuf>,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub site: SiteArgs,
    /// Worker threads (default, or 0: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the scores as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also list the N worst pages of the bag-scored sets (lowest F1, then recall) with
    /// their recall, precision, nodes parsed and the start of their text.
    #[arg(long, value_name = "N")]
    pub worst: Option<usize>,
    /// Also write the scores on one self-contained HTML page: P/R/F1 and pages missed per
    /// set as bars, the macro, and the worst pages (those of --worst, at least 30) with
    /// their URL and scores.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Leave one dataset out (trainable methods): for each bag-scored input, train on the
    /// others and score it with that model; snippet-scored inputs are left out. With --json,
    /// the JSON of a plain eval over the held-out scores.
    #[arg(long, conflicts_with_all = ["model", "worst"])]
    pub lodo: bool,
}

#[derive(Args)]
pub struct TrainArgs {
    /// WARC files; each is paired with the --truth given at the same position, or else with
    /// the `.truth.jsonl` file of the same name beside it. Snippet-scored truth is not used.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Truth JSONL files (field `warc_record_id` joins to the WARC-Record-ID).
    #[arg(long)]
    pub truth: Vec<PathBuf>,
    /// The method whose model is trained.
    #[arg(long, default_value = "svm", value_parser = clap::builder::PossibleValuesParser::new(outward_learn::TRAINABLE))]
    pub method: String,
    /// The model file to write (replaced atomically).
    #[arg(long, short)]
    pub output: PathBuf,
    /// Worker threads for reading pages (default, or 0: all cores). Training itself is one
    /// thread, and deterministic.
    #[arg(long)]
    pub threads: Option<usize>,
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 0/4")?;
    let i: usize = i.trim().parse().map_err(|_| "I must be a number")?;
    let n: usize = n.trim().parse().map_err(|_| "N must be a number")?;
    if n == 0 || i >= n {
        return Err(format!("need 0 <= I < N, got {i}/{n}"));
    }
    Ok((i, n))
}

/// `--retry-wait`: seconds, 0 to 30.
fn parse_retry_wait(text: &str) -> Result<f64, String> {
    seconds_within(text, 0.0, 30.0)
}

/// `--read-timeout`: seconds, 0.01 to 3600.
fn parse_read_timeout(text: &str) -> Result<f64, String> {
    seconds_within(text, 0.01, 3600.0)
}

fn seconds_within(text: &str, least: f64, most: f64) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (least..=most).contains(&s) => Ok(s),
        _ => Err(format!(
            "{text:?} is not a number of seconds from {least} to {most}"
        )),
    }
}
