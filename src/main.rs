//! The `outward` command: argument parsing, progress, summaries, exit codes. Thin: it wires
//! the library's stages and computes nothing itself.
//!
//! Exit codes: 0 every input complete; 1 some input partial or failed (the others still done);
//! 2 usage or setup error.

use clap::{Args, Parser, Subcommand};
use outward::page;
use outward::pipeline::{self, FractionHistogram, InputOutcome, Progress, RunConfig, SiteSource};
use outward_base::counts::{Counts, SkipReason};
use outward_core::methods;
use outward_core::site::SampleNeeds;
use outward_core::{ExtractOptions, Format, Page};
use outward_eval as eval;
use outward_output::document::Document;
use outward_warc::decode;
use std::collections::HashMap;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "outward",
    version,
    about = "Turn WARC and ARC crawl archives into clean main-text corpora, fast"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Stream WARC or ARC files into zstd-compressed JSONL shards (one per input) plus a
    /// manifest.
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
}

#[derive(Subcommand)]
enum SitesCommand {
    /// Read inputs and write the site store of their pages (one read, no extraction).
    Build(SitesBuildArgs),
    /// Add stores (built from different inputs, e.g. the shards of an array job) into one.
    Merge(SitesMergeArgs),
    /// Print what a store holds.
    Info(SitesInfoArgs),
}

#[derive(Args)]
struct SitesBuildArgs {
    /// The store file to write (replaced atomically).
    #[arg(long, short)]
    output: PathBuf,
    #[command(flatten)]
    inputs: InputArgs,
    /// Worker threads (default, or 0: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Keep only what this method reads of the sample pages (`reverse` and `layout`: no leaf
    /// texts or layouts; over the dev sets a store 2.4x smaller, and fingerprinting a page
    /// for `--sites-update` 7x cheaper); a run of a method reading more refuses the store.
    /// Default: keep everything.
    #[arg(long = "for", value_name = "METHOD", value_parser = method_parser())]
    for_method: Option<String>,
    /// Memory the build may hold, in MiB: past it, what it gathered is written to a sorted
    /// run beside the output, and the runs are merged at the end.
    #[arg(long, value_name = "MIB", default_value_t = SITE_MEMORY_MIB, value_parser = clap::value_parser!(u64).range(1..))]
    site_memory_mib: u64,
    #[command(flatten)]
    cut: FinalStoreArgs,
}

/// How a store is made final.
#[derive(Args)]
struct FinalStoreArgs {
    /// Write a final store: only what runs with --site-min-pages N or more read (no host of
    /// fewer than N distinct pages, which hold most of a crawl's store bytes; no block on
    /// fewer than N pages; no page hashes). Such runs see the same memory as from the whole
    /// store; a final store cannot be merged or updated (keep the whole one for that).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..))]
    drop_hosts_under: Option<u32>,
}

impl FinalStoreArgs {
    fn min_host_pages(&self) -> u32 {
        self.drop_hosts_under.unwrap_or(outward::sites::EVERY_HOST)
    }
}

/// What a `sites build|merge` summary line says of the store's cut (nothing when it keeps
/// every host).
fn cut_note(summary: &outward::sites::StoreSummary) -> String {
    outward::sites::final_cut(summary.min_host_pages)
        .map(|cut| format!("; {}", outward::sites::describe_cut(cut)))
        .unwrap_or_default()
}

/// `--site-memory-mib` unless told otherwise.
const SITE_MEMORY_MIB: u64 = (outward::sites::DEFAULT_SITE_MEMORY_BYTES >> 20) as u64;

#[derive(Args)]
struct SitesMergeArgs {
    /// The store file to write (replaced atomically; may be one of the inputs).
    #[arg(long, short)]
    output: PathBuf,
    /// Stores to add together.
    #[arg(required = true)]
    stores: Vec<PathBuf>,
    #[command(flatten)]
    cut: FinalStoreArgs,
}

#[derive(Args)]
struct SitesInfoArgs {
    store: PathBuf,
    /// Pages of a host that must hold a block for it to be template.
    #[arg(long, default_value_t = outward_core::site::DEFAULT_MIN_PAGES)]
    site_min_pages: u32,
}

/// Which inputs a command reads: the same rules for `run` and `sites build`.
#[derive(Args)]
struct InputArgs {
    /// Input files (WARC, or ARC v1), directories (their *.warc, *.warc.gz, *.warc.zst,
    /// *.warc.lz4, *.arc, *.arc.gz), URLs (http://, https://, s3://BUCKET/KEY: streamed by
    /// byte range, resumed when a connection fails), or - (paths on stdin).
    #[arg(required_unless_present = "input_list")]
    inputs: Vec<PathBuf>,
    /// A file listing inputs, one path or URL a line (gzipped or not, like Common Crawl's
    /// warc.paths.gz; blank lines and # comments skipped). Repeatable.
    #[arg(long, value_name = "FILE")]
    input_list: Vec<PathBuf>,
    /// Prefix for relative lines of input lists, e.g. https://data.commoncrawl.org/ for a
    /// Common Crawl warc.paths.gz.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Keep inputs[I::N] of the sorted input list (for Slurm arrays), e.g. 3/16.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
}

impl InputArgs {
    /// The sorted, deduplicated input files (this shard's), or the exit code of the error
    /// already reported.
    fn resolve(&self) -> Result<Vec<PathBuf>, ExitCode> {
        let mut stdin = std::io::stdin().lock();
        let inputs = match pipeline::resolve_inputs(
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
            Some((i, n)) => pipeline::select_shard(inputs, i, n).map_err(|e| {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }),
            None => Ok(inputs),
        }
    }
}

#[derive(Args)]
struct BenchArgs {
    /// WARC files whose HTML pages are loaded into memory first.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Methods to time (repeatable; default: reverse and fulltext).
    #[arg(long, value_parser = method_parser())]
    method: Vec<String>,
    /// Tree-similarity threshold for widening the content root.
    #[arg(long, default_value_t = 0.8)]
    similarity: f64,
    /// Rounds per method; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Stop loading pages after this many MB of HTML.
    #[arg(long, default_value_t = 1024)]
    max_mb: u64,
}

/// Prints the pipeline's events to stderr as warnings.
struct StderrReporter;

impl pipeline::Reporter for StderrReporter {
    fn report(&self, event: &pipeline::Event) {
        match event {
            pipeline::Event::SiteMemoryLearned(_) => eprintln!("{event}"),
            pipeline::Event::SiteStoreUpdated(u) if u.result.is_ok() => eprintln!("{event}"),
            _ => eprintln!("warn: {event}"),
        }
    }
}

/// A method name from the core's registry; `--help` and errors list them with a line each.
fn method_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        methods::REGISTRY
            .iter()
            .map(|m| clap::builder::PossibleValue::new(m.name).help(m.summary)),
    )
}

/// An output format from the output crate's registry.
fn output_format_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        outward_output::format::FORMATS
            .iter()
            .map(|f| clap::builder::PossibleValue::new(f.name).help(f.summary)),
    )
}

/// A text format by name.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("text").help("one line per block (the corpus format)"),
        PossibleValue::new("markdown").help("headings, lists, pipe tables, fenced code"),
    ])
    .map(|name: String| Format::from_name(&name).expect("a listed format"))
}

#[derive(Args)]
struct MethodArgs {
    /// Extraction method.
    #[arg(long, value_parser = method_parser(), default_value = methods::DEFAULT)]
    method: String,
    /// Tree-similarity threshold for widening the content root (paper: 0.8).
    #[arg(long, default_value_t = 0.8)]
    similarity: f64,
    /// A page's budget of child-pair evaluations for the tree similarity (paper's climb):
    /// when it runs out the climb stops where it is, and the page is counted as degraded.
    #[arg(long, default_value_t = outward_core::DEFAULT_MAX_COMPARISONS, value_parser = clap::value_parser!(u64).range(1..))]
    max_comparisons: u64,
    /// Learn what repeats across each host's pages from the inputs first (one more read of
    /// them), and leave it out of the main text (`reverse`). `eval` learns per input file.
    #[arg(long, conflicts_with = "sites")]
    site_memory: bool,
    /// Site memory from a store built by `outward sites build` (same effect as
    /// --site-memory, without reading the inputs twice).
    #[arg(long, value_name = "STORE")]
    sites: Option<PathBuf>,
    /// With --sites (run only): add the pages this run reads to the store when it ends (nightly
    /// rebuilds: the next run knows more of each host). This run extracts with the store as
    /// it was.
    #[arg(long, requires = "sites")]
    sites_update: bool,
    /// With --site-memory: a block is template when this many distinct pages of its host
    /// hold it (and a host needs this many pages).
    #[arg(long, default_value_t = outward_core::site::DEFAULT_MIN_PAGES, value_parser = clap::value_parser!(u32).range(2..))]
    site_min_pages: u32,
    /// Memory site memory may hold, in MiB: --site-memory's first read spills sorted runs
    /// to the output directory past it (and reads them host by host); a store's lookups
    /// keep a cache of at most this much.
    #[arg(long, value_name = "MIB", default_value_t = SITE_MEMORY_MIB, value_parser = clap::value_parser!(u64).range(1..))]
    site_memory_mib: u64,
    /// A model written by `outward train` for the method (svm, template, linenet, reverse-stage) instead of
    /// its shipped one.
    #[arg(long, value_name = "PATH")]
    model: Option<PathBuf>,
}

impl MethodArgs {
    /// The run settings shared by `run` and `eval`: method, its options, worker threads.
    fn config(&self, output: PathBuf, threads: Option<usize>) -> Result<RunConfig, ExitCode> {
        let mut config = RunConfig::new(output);
        // 0 (or none) means every core.
        if let Some(t) = threads.filter(|&t| t > 0) {
            config.threads = t;
        }
        config.method = self.method.clone();
        config.extract = self.options()?;
        config.sites = match (&self.sites, self.site_memory) {
            (Some(store), _) => SiteSource::Store(store.clone()),
            (None, true) => SiteSource::Inputs,
            (None, false) => SiteSource::None,
        };
        config.sites_update = self.sites_update;
        config.site_min_pages = self.site_min_pages;
        config.site_memory_bytes = outward::sites::mib_bytes(self.site_memory_mib);
        Ok(config)
    }

    /// The method's options, with the `--model` file read (its errors reported: exit 2).
    fn options(&self) -> Result<ExtractOptions, ExitCode> {
        let model = self.model.as_deref();
        let mut options =
            outward_learn::model::Model::method_options(&self.method, self.similarity, model)
                .map_err(|e| {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                })?;
        options.max_comparisons = self.max_comparisons;
        Ok(options)
    }
}

#[derive(Args)]
struct RunArgs {
    /// Output directory (created if missing).
    #[arg(long, short)]
    output: PathBuf,
    #[command(flatten)]
    inputs: InputArgs,
    /// Worker threads (default, or 0: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    method: MethodArgs,
    /// How the extracted blocks become each document's text.
    #[arg(long, value_parser = format_parser(), default_value = "text")]
    format: Format,
    /// Output file format.
    #[arg(long, value_parser = output_format_parser(), default_value = "dolma")]
    output_format: String,
    /// zstd compression level of the shards.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(i32).range(1..=22))]
    zstd_level: i32,
    /// Skip records whose HTTP body (or decoded body) is larger than this many bytes.
    #[arg(long, default_value_t = 16 << 20)]
    max_record_bytes: u64,
    /// Skip pages with more nodes (elements and text runs) than this, counted as over_budget
    /// before extraction (0: no budget).
    #[arg(long, default_value_t = 0)]
    max_nodes: u64,
    /// Skip pages nesting more elements than this, counted as over_budget (0: no budget;
    /// without one, deep pages are extracted in linear time).
    #[arg(long, default_value_t = 0)]
    max_depth: u32,
    /// Skip pages whose extraction did more work than this (bytes scanned by each pass, blocks
    /// scored, nodes built, tree comparisons: at most about 8 per byte and node of the page),
    /// counted as over_budget (0: no budget).
    #[arg(long, default_value_t = 0)]
    max_work: u64,
    /// Reprocess inputs even when the manifest says their output is complete.
    #[arg(long)]
    force: bool,
    /// Remote inputs: failed requests or broken connections in a row before an input fails
    /// (waits 0.5 s, doubled each time up to 30 s; a byte received resets the count).
    #[arg(long, default_value_t = outward_remote::DEFAULT_RETRIES)]
    retries: u32,
    /// Skip documents with fewer characters of text than this (counted as too_short).
    #[arg(long, default_value_t = 0)]
    min_chars: u64,
    /// Keep only documents whose identified language is one of these ISO 639-1 codes,
    /// comma-separated (e.g. en,de); the others are counted as language.
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    lang: Vec<String>,
}

#[derive(Args)]
struct ExtractArgs {
    /// HTML files or directories (every .html, .htm, .xhtml file below them), or - for
    /// stdin. One file prints its text (or, with --json, its document); several, or a
    /// directory, print one JSON document per line, in order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    #[command(flatten)]
    method: MethodArgs,
    /// Print the whole document (text, title, stats) as JSON.
    #[arg(long)]
    json: bool,
    /// How the extracted blocks become text.
    #[arg(long, value_parser = format_parser(), default_value = "text")]
    format: Format,
    /// The URL the page was fetched from (gives methods its host).
    #[arg(long)]
    url: Option<String>,
}

#[derive(Args)]
struct EvalArgs {
    /// WARC files; each is paired with the --truth given at the same position, or else with
    /// the `.truth.jsonl` file of the same name beside it.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Truth JSONL files (field `warc_record_id` joins to the document id).
    #[arg(long)]
    truth: Vec<PathBuf>,
    #[command(flatten)]
    method: MethodArgs,
    /// Worker threads (default, or 0: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the scores as JSON.
    #[arg(long)]
    json: bool,
    /// Also list the N worst pages of the bag-scored sets (lowest F1, then recall) with
    /// their recall, precision, nodes parsed and the start of their text.
    #[arg(long, value_name = "N")]
    worst: Option<usize>,
    /// Leave one dataset out (trainable methods): for each bag-scored input, train on the
    /// others and score it with that model; snippet-scored inputs are left out.
    #[arg(long, conflicts_with_all = ["model", "worst", "json"])]
    lodo: bool,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run(args) => run(args),
        Command::Extract(args) => extract_one(args),
        Command::Eval(args) => eval(args),
        Command::Bench(args) => bench(args),
        Command::Train(args) => train(args),
        Command::Sites(command) => sites(command),
    }
}

/// Shows live counters: an indicatif bar on a terminal, a plain line every few seconds otherwise.
struct Ticker {
    /// Dropping the sender wakes and ends the ticker at once.
    stop: Option<crossbeam_channel::Sender<()>>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Ticker {
    fn start(progress: std::sync::Arc<Progress>, inputs: u64) -> Ticker {
        let (stop, stopped) = crossbeam_channel::bounded::<()>(0);
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            let bar = std::io::stderr().is_terminal().then(|| {
                let bar = indicatif::ProgressBar::new(inputs);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{spinner} [{elapsed_precise}] inputs {pos}/{len} {msg}",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                bar
            });
            let mut last_plain = Instant::now();
            while let Err(crossbeam_channel::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(Duration::from_millis(200))
            {
                let line = progress_line(&progress, start.elapsed());
                match &bar {
                    Some(bar) => {
                        bar.set_position(progress.inputs_done.load(Ordering::Relaxed));
                        bar.set_message(line);
                    }
                    None if last_plain.elapsed() >= Duration::from_secs(5) => {
                        eprintln!(
                            "progress: inputs {}/{inputs} {line}",
                            progress.inputs_done.load(Ordering::Relaxed)
                        );
                        last_plain = Instant::now();
                    }
                    None => {}
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        Ticker {
            stop: Some(stop),
            handle: Some(handle),
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn progress_line(p: &Progress, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let records = p.records.load(Ordering::Relaxed);
    let mb = p.payload_bytes.load(Ordering::Relaxed) as f64 / 1e6;
    format!(
        "records {records} ({:.0}/s) payload {mb:.1} MB ({:.1} MB/s) written {} skipped {}",
        records as f64 / secs,
        mb / secs,
        p.written.load(Ordering::Relaxed),
        p.skipped.load(Ordering::Relaxed)
    )
}

fn run(args: RunArgs) -> ExitCode {
    let inputs = match args.inputs.resolve() {
        Ok(i) => i,
        Err(code) => return code,
    };
    let mut config = match args.method.config(args.output.clone(), args.threads) {
        Ok(c) => c,
        Err(code) => return code,
    };
    config.output_options.zstd_level = args.zstd_level;
    config.output_format = args.output_format.clone();
    config.text_format = args.format;
    config.max_record_bytes = args.max_record_bytes;
    config.filters.max_nodes = args.max_nodes;
    config.filters.max_work = args.max_work;
    config.filters.max_depth = args.max_depth;
    config.force = args.force;
    config.remote.retries = args.retries;
    config.filters.min_chars = args.min_chars;
    config.filters.set_languages(&args.lang);

    let progress = std::sync::Arc::new(Progress::default());
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let reports = {
        let _ticker = Ticker::start(progress.clone(), inputs.len() as u64);
        pipeline::run(&inputs, &config, &progress, &StderrReporter)
    };
    let reports = match reports {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu_start).map(|(a, b)| a - b);

    let mut totals = Counts::default();
    let mut fractions = FractionHistogram::default();
    let (mut done, mut reused, mut partial, mut failed) = (0, 0, 0, 0);
    for report in &reports {
        match &report.outcome {
            InputOutcome::Done {
                entry,
                fractions: f,
            } => {
                done += 1;
                if !entry.is_complete() {
                    partial += 1;
                }
                totals.add(&entry.counts);
                fractions.merge(f);
            }
            InputOutcome::Reused(_) => reused += 1,
            InputOutcome::Failed(e) => {
                failed += 1;
                eprintln!("error: {}: {e}", report.input.display());
            }
        }
    }
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "outward run: {} inputs: {done} processed ({partial} partial), {reused} unchanged (skipped), {failed} failed",
        reports.len()
    );
    let _ = writeln!(
        out,
        "  records {}  html {}  written {}  skipped {}",
        totals.records,
        totals.html,
        totals.written,
        totals.skipped_total()
    );
    let reasons: Vec<String> = SkipReason::ALL
        .iter()
        .filter_map(|r| totals.skipped.get(r).map(|n| format!("{} {n}", r.as_str())))
        .collect();
    if !reasons.is_empty() {
        let _ = writeln!(out, "  skipped by reason: {}", reasons.join(", "));
    }
    if totals.degraded > 0 {
        let _ = writeln!(
            out,
            "  degraded (written with what the method had when a work budget ran out): {}",
            totals.degraded
        );
    }
    let payload_mb = progress.payload_bytes.load(Ordering::Relaxed) as f64 / 1e6;
    let html_mb = totals.html_bytes as f64 / 1e6;
    let _ = writeln!(
        out,
        "  {elapsed:.2} s wall, {} threads: {:.1} MB/s payload, {:.1} MB/s html, {:.0} pages/s",
        config.threads,
        payload_mb / elapsed.max(1e-9),
        html_mb / elapsed.max(1e-9),
        totals.html as f64 / elapsed.max(1e-9)
    );
    // /proc counts CPU time in 10 ms ticks: too coarse to divide by on tiny inputs.
    if let Some(cpu) = cpu.filter(|c| *c >= 0.1) {
        let _ = writeln!(
            out,
            "  {cpu:.2} CPU s: {:.1} MB/s html per CPU second, {:.0} pages per CPU second",
            html_mb / cpu.max(1e-9),
            totals.html as f64 / cpu.max(1e-9)
        );
    }
    if let (Some(median), Some(p90)) = (fractions.quantile(0.5), fractions.quantile(0.9)) {
        let _ = writeln!(
            out,
            "  nodes parsed / nodes in page: median {median:.3}, p90 {p90:.3}"
        );
    }
    let _ = writeln!(out, "  output: {}", config.output.display());
    if reports.iter().all(|r| r.is_complete()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// User + system CPU seconds of this process so far (Linux), for per-core throughput.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn extract_one(args: ExtractArgs) -> ExitCode {
    let options = match args.method.options() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let extractor = match methods::build(&args.method.method, &options) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let pages = match extract_inputs(&args.inputs) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let one = args.inputs.len() == 1 && pages.len() == 1 && !args.inputs[0].is_dir();
    if !one && args.url.is_some() {
        eprintln!("error: --url names one page: give one input with it");
        return ExitCode::from(2);
    }
    let mut out = std::io::stdout().lock();
    if one && !args.json {
        return match extract_page(&pages[0], &args, &*extractor) {
            Ok(doc) => {
                let _ = writeln!(out, "{}", doc.text);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        };
    }
    // Several pages (or --json): one document per line, in input order; a page that cannot
    // be read or is not HTML is named on stderr and counted, the others are written.
    use rayon::prelude::*;
    let mut failed = 0usize;
    for chunk in pages.chunks(256) {
        let lines: Vec<Result<Vec<u8>, String>> = chunk
            .par_iter()
            .map(|path| {
                let mut line = Vec::new();
                extract_page(path, &args, &*extractor)?.write_json_line(&mut line);
                Ok(line)
            })
            .collect();
        for line in lines {
            match line {
                Ok(line) => {
                    if out.write_all(&line).is_err() {
                        return ExitCode::from(1);
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    failed += 1;
                }
            }
        }
    }
    if pages.len() > 1 {
        eprintln!(
            "extract: {} pages, {} written, {failed} failed",
            pages.len(),
            pages.len() - failed
        );
    }
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The pages `outward extract` reads: files as given (`-` is stdin), and in a directory
/// every `.html`, `.htm` and `.xhtml` file below it, sorted. Nothing to read is an error.
fn extract_inputs(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut pages = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            pages.push(input.clone());
            continue;
        }
        let mut found = Vec::new();
        let mut dirs = vec![input.clone()];
        while let Some(dir) = dirs.pop() {
            let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            for entry in entries {
                let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                    matches!(e.to_ascii_lowercase().as_str(), "html" | "htm" | "xhtml")
                }) {
                    found.push(path);
                }
            }
        }
        if found.is_empty() {
            return Err(format!(
                "{}: no .html, .htm or .xhtml file in it",
                input.display()
            ));
        }
        found.sort();
        pages.extend(found);
    }
    Ok(pages)
}

/// Reads, decodes and extracts one page (`-`: stdin) into its document; refuses bytes that
/// are not HTML or text.
fn extract_page(
    path: &std::path::Path,
    args: &ExtractArgs,
    extractor: &dyn outward_core::Extractor,
) -> Result<Document, String> {
    let mut bytes = Vec::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|b| bytes = b)
    };
    read.map_err(|e| format!("{}: {e}", path.display()))?;
    let id = path.to_string_lossy().into_owned();
    page::extract_bytes(&bytes, id, args.url.as_deref(), extractor, args.format)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The truth file paired with each input: `--truth` by position, else `<stem>.truth.jsonl`
/// beside the input.
fn truth_for(inputs: &[PathBuf], truths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    if !truths.is_empty() && truths.len() != inputs.len() {
        return Err(format!(
            "{} --truth files for {} inputs: give one per input or none",
            truths.len(),
            inputs.len()
        ));
    }
    inputs
        .iter()
        .enumerate()
        .map(|(i, input)| match truths.get(i) {
            Some(t) => Ok(t.clone()),
            None => {
                let stem = outward_output::output_stem(input);
                let t = input.with_file_name(format!("{stem}.truth.jsonl"));
                if t.exists() {
                    Ok(t)
                } else {
                    Err(format!(
                        "no --truth given and {} does not exist",
                        t.display()
                    ))
                }
            }
        })
        .collect()
}

fn sites(command: SitesCommand) -> ExitCode {
    match command {
        SitesCommand::Build(args) => sites_build(args),
        SitesCommand::Merge(args) => sites_merge(args),
        SitesCommand::Info(args) => sites_info(args),
    }
}

fn sites_build(args: SitesBuildArgs) -> ExitCode {
    let inputs = match args.inputs.resolve() {
        Ok(i) => i,
        Err(code) => return code,
    };
    let mut config = RunConfig::new(PathBuf::new());
    if let Some(t) = args.threads.filter(|&t| t > 0) {
        config.threads = t;
    }
    config.site_memory_bytes = outward::sites::mib_bytes(args.site_memory_mib);
    let progress = std::sync::Arc::new(Progress::default());
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let built = {
        let _ticker = Ticker::start(progress.clone(), inputs.len() as u64);
        pipeline::build_sites(
            &inputs,
            &config,
            args.for_method
                .as_deref()
                .map_or(SampleNeeds::ALL, SampleNeeds::of),
            outward::sites::store_dir(&args.output),
            &progress,
            &StderrReporter,
        )
    };
    let mut builder = match built {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let spills = builder.spills();
    let summary = match builder.write(&args.output, &[], args.cut.min_host_pages()) {
        Ok(summary) => summary,
        Err(e) => {
            eprintln!(
                "error: cannot write site store {}: {e}",
                args.output.display()
            );
            return ExitCode::from(1);
        }
    };
    let cpu = cpu_seconds().zip(cpu_start).map(|(a, b)| a - b);
    eprintln!(
        "outward sites build: {} inputs, {} records, {} distinct pages of {} hosts -> {} ({} bytes{}{})\n  {:.2} s wall{}",
        inputs.len(),
        progress.records.load(Ordering::Relaxed),
        summary.pages,
        summary.hosts,
        args.output.display(),
        summary.bytes,
        match spills {
            0 => String::new(),
            n => format!("; {n} runs spilled and merged"),
        },
        cut_note(&summary),
        start.elapsed().as_secs_f64(),
        cpu.map(|c| format!(", {c:.2} CPU s")).unwrap_or_default()
    );
    ExitCode::SUCCESS
}

fn sites_merge(args: SitesMergeArgs) -> ExitCode {
    let mut stores = Vec::new();
    for path in &args.stores {
        match outward::sites::StoreReader::open(path) {
            Ok(store) => stores.push(store),
            Err(e) => {
                eprintln!("error: cannot read site store {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    let inputs = stores
        .iter()
        .map(outward::sites::StoreReader::source)
        .collect();
    match outward::sites::merge_into(inputs, &args.output, args.cut.min_host_pages()) {
        Ok(summary) => {
            eprintln!(
                "outward sites merge: {} stores, {} distinct pages of {} hosts -> {} ({} bytes{})",
                args.stores.len(),
                summary.pages,
                summary.hosts,
                args.output.display(),
                summary.bytes,
                cut_note(&summary)
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "error: cannot merge site stores into {}: {e}",
                args.output.display()
            );
            // A final store among the inputs is a usage error; the rest are I/O failures.
            ExitCode::from(if e.kind() == std::io::ErrorKind::InvalidInput {
                2
            } else {
                1
            })
        }
    }
}

fn sites_info(args: SitesInfoArgs) -> ExitCode {
    let fail = |e: std::io::Error| {
        eprintln!(
            "error: cannot read site store {}: {e}",
            args.store.display()
        );
        ExitCode::from(2)
    };
    let store = match outward::sites::StoreReader::open(&args.store) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Err(e) = outward::sites::serves_min_pages(store.footer(), args.site_min_pages) {
        return fail(e);
    }
    // One host at a time: the store may be larger than memory.
    let (mut hosts, mut host_pages, mut fingerprints) = (0usize, 0u64, 0u64);
    for record in store.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => return fail(e),
        };
        let memory = match outward_core::site::store::read_record(&record.bytes) {
            Ok(one) => one.finish(args.site_min_pages),
            Err(e) => return fail(std::io::Error::other(e)),
        };
        hosts += memory.hosts();
        host_pages += memory.pages();
        fingerprints += memory.fingerprints();
    }
    let footer = store.footer();
    let size = std::fs::metadata(&args.store).map(|m| m.len()).unwrap_or(0);
    println!(
        "{}: {size} bytes; {} distinct pages of {} hosts{}; with >= {} pages: {hosts} hosts ({host_pages} pages), {fingerprints} template blocks; keeps leaf texts: {}, layouts: {}; digest {:016x}",
        args.store.display(),
        footer.pages,
        footer.hosts,
        outward::sites::final_cut(footer.min_host_pages)
            .map(|cut| format!(" ({})", outward::sites::describe_cut(cut)))
            .unwrap_or_default(),
        args.site_min_pages,
        if footer.kept.leaves { "yes" } else { "no" },
        if footer.kept.layout { "yes" } else { "no" },
        footer.digest(footer.kept)
    );
    ExitCode::SUCCESS
}

fn eval(args: EvalArgs) -> ExitCode {
    let truths = match truth_for(&args.inputs, &args.truth) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.lodo {
        return eval_lodo(&args, &truths);
    }
    let config = match args.method.config(PathBuf::new(), args.threads) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot start worker threads: {e}");
            return ExitCode::from(2);
        }
    };
    let progress = Progress::default();
    let mut reports = Vec::new();
    let mut worst: Vec<WorstPage> = Vec::new();
    let mut complete = true;
    for (input, truth_path) in args.inputs.iter().zip(&truths) {
        let truth = match eval::TruthSet::load(truth_path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let (texts, result) =
            match pipeline::extract_texts(input, &config, &pool, &progress, &StderrReporter) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {}: {e}", input.display());
                    complete = false;
                    continue;
                }
            };
        if result.status != outward_warc::reader::FileStatus::Complete {
            complete = false;
        }
        let predictions: HashMap<String, String> = texts
            .iter()
            .map(|t| (t.id.clone(), t.text.clone()))
            .collect();
        let report = eval::score(&truth, &predictions);
        if let Some(n) = args.worst
            && !report.is_snippets()
        {
            collect_worst(&report, texts, n, &mut worst);
        }
        reports.push(report);
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let _ = writeln!(out, "{}", eval::render_json(&reports));
    } else {
        let _ = writeln!(out, "method {}", config.method);
        let _ = write!(out, "{}", eval::render_table(&reports));
    }
    if let Some(n) = args.worst {
        worst.truncate(n);
        let _ = writeln!(
            out,
            "\nworst {} pages (F1, then recall):\n{:<16} {:>5} {:>5} {:>5} {:>11}  record / url / text",
            worst.len(),
            "dataset",
            "R",
            "P",
            "F1",
            "nodes"
        );
        for w in &worst {
            let _ = writeln!(
                out,
                "{:<16} {:>5.3} {:>5.3} {:>5.3} {:>5}/{:<5}  {}\n{:>48}  {}\n{:>48}  {}",
                w.dataset,
                w.r,
                w.p,
                w.f1,
                w.nodes_parsed,
                w.nodes_total,
                w.record_id,
                "",
                w.url.as_deref().unwrap_or("-"),
                "",
                w.text_start
            );
        }
    }
    if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// A badly extracted page, for `eval --worst`.
struct WorstPage {
    dataset: String,
    record_id: String,
    url: Option<String>,
    p: f64,
    r: f64,
    f1: f64,
    nodes_parsed: u64,
    nodes_total: u64,
    /// The first characters of the extracted text, on one line.
    text_start: String,
}

/// Merges the `n` worst scored pages of `report` into `worst` (kept sorted, at most `n`).
fn collect_worst(
    report: &eval::DatasetReport,
    texts: Vec<pipeline::ExtractedText>,
    n: usize,
    worst: &mut Vec<WorstPage>,
) {
    let mut by_id: HashMap<String, pipeline::ExtractedText> =
        texts.into_iter().map(|t| (t.id.clone(), t)).collect();
    for doc in report.docs.iter().filter(|d| !d.truth_empty) {
        let (p, r, f1) = doc.prf();
        let extracted = by_id.remove(&doc.warc_record_id);
        let text: String = extracted
            .as_ref()
            .map(|t| {
                t.text
                    .chars()
                    .take(100)
                    .collect::<String>()
                    .replace('\n', " | ")
            })
            .unwrap_or_default();
        worst.push(WorstPage {
            dataset: report.name.clone(),
            record_id: doc.warc_record_id.clone(),
            url: extracted.as_ref().and_then(|t| t.url.clone()),
            p,
            r,
            f1,
            nodes_parsed: extracted.as_ref().map_or(0, |t| t.nodes_parsed),
            nodes_total: extracted.as_ref().map_or(0, |t| t.nodes_total),
            text_start: text,
        });
    }
    worst.sort_by(|a, b| a.f1.total_cmp(&b.f1).then(a.r.total_cmp(&b.r)));
    worst.truncate(n);
}

fn bench(args: BenchArgs) -> ExitCode {
    let mut pages = Vec::new();
    for input in &args.inputs {
        let room =
            (args.max_mb << 20).saturating_sub(pages.iter().map(|p: &String| p.len() as u64).sum());
        match outward_warc::load_html_pages(input, room) {
            Ok(p) => pages.extend(p),
            Err(e) => {
                eprintln!("error: {}: {e}", input.display());
                return ExitCode::from(1);
            }
        }
    }
    let methods = if args.method.is_empty() {
        vec![methods::DEFAULT.to_string(), "fulltext".to_string()]
    } else {
        args.method.clone()
    };
    let options = ExtractOptions {
        similarity_threshold: args.similarity,
        ..ExtractOptions::default()
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{} pages, {:.1} MB of HTML; one thread, best of {} rounds ({} cores on this machine)",
        pages.len(),
        pages.iter().map(|p| p.len()).sum::<usize>() as f64 / 1e6,
        args.rounds,
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    for method in methods {
        let extractor = match methods::build(&method, &options) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let r = outward::bench::time_extraction(&pages, &*extractor, args.rounds);
        let _ = writeln!(
            out,
            "{:<9} {:>8.1} MB/s {:>8.0} pages/s  ms/page p50 {:.3} p90 {:.3} p99 {:.3} max {:.1}  nodes parsed/total median {:.3} p90 {:.3}",
            method,
            r.mb_per_s(),
            r.pages_per_s(),
            r.ms_p50,
            r.ms_p90,
            r.ms_p99,
            r.ms_max,
            r.fractions.quantile(0.5).unwrap_or(0.0),
            r.fractions.quantile(0.9).unwrap_or(0.0)
        );
    }
    ExitCode::SUCCESS
}

// Learned methods: `outward train`, `--model`, `outward eval --lodo`.

#[derive(Args)]
struct TrainArgs {
    /// WARC files; each is paired with the --truth given at the same position, or else with
    /// the `.truth.jsonl` file of the same name beside it. Snippet-scored truth is not used.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Truth JSONL files (field `warc_record_id` joins to the WARC-Record-ID).
    #[arg(long)]
    truth: Vec<PathBuf>,
    /// The method whose model is trained.
    #[arg(long, default_value = "svm", value_parser = clap::builder::PossibleValuesParser::new(outward_learn::TRAINABLE))]
    method: String,
    /// The model file to write (replaced atomically).
    #[arg(long, short)]
    output: PathBuf,
    /// Worker threads for reading pages (default, or 0: all cores). Training itself is one
    /// thread, and deterministic.
    #[arg(long)]
    threads: Option<usize>,
}

/// A rayon pool of `threads` workers (0 or none: every core).
fn learn_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, ExitCode> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads.filter(|&t| t > 0) {
        builder = builder.num_threads(t);
    }
    builder.build().map_err(|e| {
        eprintln!("error: cannot start worker threads: {e}");
        ExitCode::from(2)
    })
}

/// The labelled samples (blocks or lines, as `empty`'s kind) of the pages of `input` that
/// `truth` scores by bag of tokens, joined on WARC-Record-ID, in file order; and how many
/// pages gave them.
fn load_samples(
    input: &std::path::Path,
    truth: &eval::TruthSet,
    pool: &rayon::ThreadPool,
    empty: &outward_learn::model::Samples,
) -> Result<(outward_learn::model::Samples, usize), String> {
    use outward_warc::reader::{ReadItem, ReaderOptions, WarcReader};
    use rayon::prelude::*;
    let by_id: HashMap<&str, &str> = truth
        .records
        .iter()
        .filter(|r| !r.is_snippets())
        .map(|r| (r.warc_record_id.as_str(), r.truth.as_str()))
        .collect();
    let reader = WarcReader::open(input, ReaderOptions::default())
        .map_err(|e| format!("{}: {e}", input.display()))?;
    let options = decode::DecodeOptions::default();
    let label = |page: &outward_warc::reader::RawPage| {
        let truth = by_id.get(page.record_id.as_str())?;
        let decoded = decode::decode_body(
            &page.http_headers,
            page.content_type.as_deref(),
            &page.body,
            &options,
        )
        .ok()?;
        let analysed = Page::new(&decoded.html, page.target_uri.as_deref());
        Some(empty.of_page(&analysed, &outward_learn::TruthBag::new(truth)))
    };
    let (mut samples, mut pages) = (empty.clone(), 0usize);
    let mut batch = Vec::new();
    let mut flush = |batch: &mut Vec<outward_warc::reader::RawPage>| {
        let done: Vec<Option<outward_learn::model::Samples>> =
            pool.install(|| batch.par_iter().map(label).collect());
        for page in done.into_iter().flatten() {
            pages += 1;
            samples.extend(&page);
        }
        batch.clear();
    };
    for item in reader {
        if let ReadItem::Page(page) = item
            && by_id.contains_key(page.record_id.as_str())
        {
            batch.push(page);
            if batch.len() == 64 {
                flush(&mut batch);
            }
        }
    }
    flush(&mut batch);
    Ok((samples, pages))
}

fn train(args: TrainArgs) -> ExitCode {
    let start = Instant::now();
    let truths = match truth_for(&args.inputs, &args.truth) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let pool = match learn_pool(args.threads) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let Some(empty) = outward_learn::model::Samples::empty(&args.method) else {
        eprintln!("error: {} is not trainable", args.method);
        return ExitCode::from(2);
    };
    let mut samples = empty.clone();
    for (input, truth_path) in args.inputs.iter().zip(&truths) {
        let truth = match eval::TruthSet::load(truth_path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        match load_samples(input, &truth, &pool, &empty) {
            Ok((s, pages)) => {
                eprintln!(
                    "{}: {pages} pages, {} labelled {}",
                    truth.name,
                    s.len(),
                    s.unit()
                );
                samples.extend(&s);
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let read = start.elapsed().as_secs_f64();
    let (model, line) = match outward_learn::model::train(&samples) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: training {}: {e}", args.method);
            return ExitCode::from(1);
        }
    };
    let bytes = model.to_bytes();
    let tmp = args.output.with_extension("model.tmp");
    if let Err(e) = std::fs::write(&tmp, &bytes).and_then(|()| std::fs::rename(&tmp, &args.output))
    {
        eprintln!("error: cannot write {}: {e}", args.output.display());
        return ExitCode::from(1);
    }
    println!(
        "outward train {}: {line}\n  -> {} ({} bytes, digest {:016x}); {read:.1} s reading, {:.1} s training",
        args.method,
        args.output.display(),
        bytes.len(),
        model.digest(),
        start.elapsed().as_secs_f64() - read
    );
    ExitCode::SUCCESS
}

/// `eval --lodo`: each bag-scored input scored by a model trained on the other inputs.
fn eval_lodo(args: &EvalArgs, truths: &[PathBuf]) -> ExitCode {
    let method = args.method.method.as_str();
    let Some(trained) = outward_learn::model_of(method) else {
        eprintln!(
            "error: --lodo needs a method with a trained model (svm, template, linenet, reverse-stage), not {method}"
        );
        return ExitCode::from(2);
    };
    let pool = match learn_pool(args.threads) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let Some(empty) = outward_learn::model::Samples::empty(trained) else {
        eprintln!("error: {trained} is not trainable");
        return ExitCode::from(2);
    };
    // Every bag-scored set's samples, read once.
    let mut sets = Vec::new();
    for (input, truth_path) in args.inputs.iter().zip(truths) {
        let truth = match eval::TruthSet::load(truth_path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        if truth.records.iter().all(|r| r.is_snippets()) {
            eprintln!("lodo: {} is snippet-scored: left out", truth.name);
            continue;
        }
        match load_samples(input, &truth, &pool, &empty) {
            Ok((samples, _)) => sets.push((input.clone(), truth, samples)),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    if sets.len() < 2 {
        eprintln!("error: --lodo needs at least two bag-scored inputs");
        return ExitCode::from(2);
    }
    let progress = Progress::default();
    let mut reports = Vec::new();
    let mut complete = true;
    for (held, (input, truth, _)) in sets.iter().enumerate() {
        let start = Instant::now();
        let mut others = empty.clone();
        for (_, (_, _, s)) in sets.iter().enumerate().filter(|(i, _)| *i != held) {
            others.extend(s);
        }
        let (model, line) = match outward_learn::model::train(&others) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("error: training without {}: {e}", truth.name);
                return ExitCode::from(1);
            }
        };
        let mut config = match args.method.config(PathBuf::new(), args.threads) {
            Ok(c) => c,
            Err(code) => return code,
        };
        model.apply(&mut config.extract);
        let texts = match pipeline::extract_texts(input, &config, &pool, &progress, &StderrReporter)
        {
            Ok((texts, result)) => {
                complete &= result.status == outward_warc::reader::FileStatus::Complete;
                texts
            }
            Err(e) => {
                eprintln!("error: {}: {e}", input.display());
                complete = false;
                continue;
            }
        };
        let predictions: HashMap<String, String> =
            texts.into_iter().map(|t| (t.id, t.text)).collect();
        eprintln!(
            "lodo: {} held out ({:.1} s): {line}",
            truth.name,
            start.elapsed().as_secs_f64()
        );
        reports.push(eval::score(truth, &predictions));
    }
    let mean = |f: fn(&eval::Summary) -> Option<f64>| {
        let v: Vec<f64> = reports.iter().filter_map(|r| f(&r.summary)).collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "method {method}, leave one dataset out (each set scored by a model trained on the others)"
    );
    let _ = write!(out, "{}", eval::render_table(&reports));
    let _ = writeln!(
        out,
        "LODO macro over {} sets: P {:.4} R {:.4} F1 {:.4}",
        reports.len(),
        mean(|s| s.p),
        mean(|s| s.r),
        mean(|s| s.f1)
    );
    if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
