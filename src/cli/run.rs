//! `outward run`: inputs into shards and a manifest, with a ticker while it works and a
//! summary when it ends. Exit code 0 when every input is complete (or empty), 1 when one is
//! partial, 3 when one failed (or is empty, with `--fail-empty`): the others are still done;
//! 2 on a usage or setup error.

use super::args::RunArgs;
use super::progress::{Ticker, cpu_seconds};
use super::summary::{StderrReporter, print_run_summary};
use outward::Progress;
use std::process::ExitCode;
use std::time::Instant;

pub fn run(args: RunArgs) -> ExitCode {
    let inputs = match args.inputs.resolve() {
        Ok(i) => i,
        Err(code) => return code,
    };
    let mut config = match args
        .method
        .config(&args.site, args.output.clone(), args.threads)
    {
        Ok(c) => c,
        Err(code) => return code,
    };
    config.sites_update = args.sites_update;
    config.output_options.zstd_level = args.zstd_level;
    config.output_format = args.output_format.clone();
    config.text_format = args.format;
    config.max_record_bytes = args.max_record_bytes;
    config.filters.max_nodes = args.max_nodes;
    config.filters.max_work = args.max_work;
    config.filters.max_depth = args.max_depth;
    config.force = args.force;
    config.remote.retries = args.retries;
    config.remote.backoff = std::time::Duration::from_secs_f64(args.retry_wait);
    config.remote.read_timeout = std::time::Duration::from_secs_f64(args.read_timeout);
    config.filters.min_chars = args.min_chars;
    if let Err(e) = config.filters.set_languages(&args.lang) {
        eprintln!("error: --lang: {e}");
        return ExitCode::from(2);
    }
    if let Err(e) = set_quality_filters(&mut config.filters, &args) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }

    // SIGTERM (a scheduler's stop, `kill`) or Ctrl-C: stop cleanly; a second one stops at once.
    stop_on_signals(&config.stop);

    let progress = std::sync::Arc::new(Progress::default());
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let reports = {
        let _ticker = Ticker::start(progress.clone(), inputs.len() as u64);
        outward::run(&inputs, &config, &progress, &StderrReporter)
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

    print_run_summary(&reports, &config, &progress, elapsed, cpu, args.fail_empty);
    // The page is a view of what was written: failing to draw it changes no exit code.
    if args.report
        && let Err(e) =
            super::report::write_report(&config.output, &config.output.join("report.html"))
    {
        eprintln!("warn: report: {e}");
    }
    match config.stop.reason() {
        // What a shell reports for a process ended by that signal: 128 + its number.
        Some(signal) => ExitCode::from(128u8.saturating_add(signal as u8)),
        None => exit_code(&reports, args.fail_empty),
    }
}

/// The first SIGTERM or SIGINT sets `stop` (the run finishes what is safe and says what it
/// did); a second one ends the process at once, as the default action would (exit 1: a kill
/// at any moment loses nothing either).
fn stop_on_signals(stop: &outward::StopSignal) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    let signalled = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        // A signal's handlers run in the order registered: the shutdown sees the flag as
        // it was before this signal set it.
        let _ = flag::register_conditional_shutdown(signal, 1, signalled.clone());
        let _ = flag::register(signal, signalled.clone());
        let _ = flag::register_usize(signal, stop.cell(), signal as usize);
    }
}

/// 3 when some input failed (could not be read at all, or held no record under
/// `--fail-empty`), else 1 when some input is partial, else 0: a Slurm array tells a path
/// typo from a truncated download. Usage and setup errors (2) never get this far.
fn exit_code(reports: &[outward::InputReport], fail_empty: bool) -> ExitCode {
    if reports
        .iter()
        .any(|r| r.is_failed() || (fail_empty && r.is_empty_input()))
    {
        ExitCode::from(3)
    } else if reports
        .iter()
        .all(|r| r.is_complete() || r.is_empty_input())
    {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `--filter`, `--filter-config` and `--signals` into `filters`; the error names the unknown
/// filter, threshold or file.
fn set_quality_filters(filters: &mut outward::DocFilters, args: &RunArgs) -> Result<(), String> {
    if let Some(list) = &args.filter {
        filters.quality =
            outward_filters::Filter::parse_list(list).map_err(|e| format!("--filter: {e}"))?;
    }
    if let Some(path) = &args.filter_config {
        let json = std::fs::read_to_string(path)
            .map_err(|e| format!("--filter-config {}: {e}", path.display()))?;
        filters.quality_config = outward_filters::Config::from_json(&json)
            .map_err(|e| format!("--filter-config {}: {e}", path.display()))?;
    }
    filters.signals = args.signals;
    Ok(())
}
