//! What the command prints of a run and of the pipeline's events: warnings on stderr
//! ([`StderrReporter`]), and the summary of `outward run` on stdout (inputs, records,
//! skips by reason, speed, node fractions).
//!
//! Invariants: documents and summaries go to stdout, everything else to stderr; one
//! input's failure is named with its path.

use outward::{InputOutcome, InputReport, Progress, RunConfig, WorkFractions};
use outward_base::counts::{Counts, plural};
use std::io::Write;
use std::sync::atomic::Ordering;

/// Prints the pipeline's events to stderr as warnings.
pub struct StderrReporter;

impl outward::Reporter for StderrReporter {
    fn report(&self, event: &outward::Event) {
        match event {
            outward::Event::SiteMemoryLearned(_) => eprintln!("{event}"),
            outward::Event::SiteStoreUpdated(u) if u.result.is_ok() => eprintln!("{event}"),
            outward::Event::SettingsChanged(_) => eprintln!("note: {event}"),
            outward::Event::StaleOutputRemoved(r) if r.result.is_ok() => {
                eprintln!("note: {event}")
            }
            _ => eprintln!("warn: {event}"),
        }
    }
}

/// Prints the summary of a run: what happened to its inputs (failures named on stderr), its
/// records and skips, its speed over `elapsed` wall seconds and `cpu` CPU seconds, and how
/// much of each page the extraction parsed.
pub fn print_run_summary(
    reports: &[InputReport],
    config: &RunConfig,
    progress: &Progress,
    elapsed: f64,
    cpu: Option<f64>,
    fail_empty: bool,
) {
    let mut totals = Counts::default();
    let mut fractions = WorkFractions::default();
    let (mut done, mut rewritten, mut reused, mut partial, mut empty, mut failed) =
        (0, 0, 0, 0, 0, 0);
    let (mut dropped, mut not_started) = (0, 0);
    let (mut shards, mut shard_bytes) = (0, 0);
    for report in reports {
        if report.is_empty_input() {
            let (level, hint) = if fail_empty {
                ("error", "")
            } else {
                ("warn", "; --fail-empty makes this a failure")
            };
            eprintln!(
                "{level}: {}: {}{hint}",
                report.input.display(),
                outward::EMPTY_INPUT
            );
        }
        match &report.outcome {
            InputOutcome::Done {
                entry,
                fractions: f,
                rewritten: changed,
            } => {
                match changed {
                    Some(_) => rewritten += 1,
                    None => done += 1,
                }
                shards += 1;
                shard_bytes += entry.output_bytes;
                if entry.is_empty_input() {
                    empty += 1;
                } else if !entry.is_complete() {
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
            InputOutcome::Stopped { started: true } => dropped += 1,
            InputOutcome::Stopped { started: false } => not_started += 1,
        }
    }
    if let Some(signal) = config.stop.reason() {
        eprintln!(
            "stopped by {}: {} done; {} dropped while being read (nothing of them written) and {} not started: the next run reads them",
            signal_name(signal),
            plural(done + rewritten + reused, "input"),
            dropped,
            not_started
        );
    }
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "outward run: {}: {done} processed, {rewritten} rewritten (settings changed), {reused} unchanged (skipped), {failed} failed; {partial} partial, {empty} empty",
        plural(reports.len(), "input")
    );
    let _ = writeln!(
        out,
        "  records {}  html {}  written {}  skipped {}",
        totals.records,
        totals.html,
        totals.written,
        totals.skipped_total()
    );
    let reasons: Vec<String> = totals
        .skipped
        .iter()
        .map(|(r, n)| format!("{} {n}", r.as_str()))
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
        "  {elapsed:.2} s wall, {}: {:.1} MB/s payload, {:.1} MB/s html, {:.0} pages/s",
        plural(config.threads, "thread"),
        payload_mb / elapsed.max(1e-9),
        html_mb / elapsed.max(1e-9),
        totals.html as f64 / elapsed.max(1e-9)
    );
    if let Some(cpu) = cpu.filter(|c| *c > 0.0) {
        let _ = writeln!(
            out,
            "  {cpu:.2} CPU s: {:.1} MB/s html per CPU second, {:.0} pages per CPU second",
            html_mb / cpu.max(1e-9),
            totals.html as f64 / cpu.max(1e-9)
        );
    }
    for (what, histogram) in [
        ("nodes parsed / nodes in page", &fractions.nodes),
        ("bytes parsed / page bytes", &fractions.bytes),
    ] {
        if let (Some(median), Some(p90)) = (histogram.quantile(0.5), histogram.quantile(0.9)) {
            let _ = writeln!(out, "  {what}: median {median:.3}, p90 {p90:.3}");
        }
    }
    let _ = writeln!(
        out,
        "  output: {}: {} written, {}, {} characters of text",
        config.output.display(),
        plural(shards, "shard"),
        human_bytes(shard_bytes),
        totals.text_chars
    );
}

/// `SIGTERM`, `SIGINT` (Ctrl-C), or the number of another signal.
fn signal_name(signal: usize) -> String {
    match signal {
        2 => "SIGINT (Ctrl-C)".to_string(),
        15 => "SIGTERM".to_string(),
        n => format!("signal {n}"),
    }
}

/// Bytes as a person reads them: `980 B`, `28.4 KB`, `3.1 GB` (powers of 1000).
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KB", "MB", "GB", "TB", "PB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 999.95 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::human_bytes;

    #[test]
    fn bytes_read_as_a_person_reads_them() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(999), "999 B");
        assert_eq!(human_bytes(28_400), "28.4 KB");
        assert_eq!(human_bytes(999_960), "1.0 MB");
        assert_eq!(human_bytes(3_100_000_000), "3.1 GB");
    }
}
