//! `outward sites build|merge|info`: site stores for map-reduce (a store per shard, merged,
//! inspected). Exit code 2 for a store that cannot be read or a usage error (a final store
//! given to merge), 1 when writing fails.

use super::args::{SitesBuildArgs, SitesCommand, SitesInfoArgs, SitesMergeArgs};
use super::progress::{Ticker, cpu_seconds};
use super::summary::StderrReporter;
use outward::{Progress, RunConfig};
use outward_core::site::SampleNeeds;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

pub fn sites(command: SitesCommand) -> ExitCode {
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
    config.set_threads(args.threads);
    config.site_memory_bytes = outward::sites::mib_bytes(args.site_memory_mib);
    let progress = std::sync::Arc::new(Progress::default());
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let built = {
        let _ticker = Ticker::start(progress.clone(), inputs.len() as u64);
        outward::build_sites(
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
    let written = outward::sites::lock_store(&args.output, "outward sites build", &StderrReporter)
        .and_then(|_writing| builder.write(&args.output, &[], args.cut.min_host_pages()));
    let summary = match written {
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
    // Held from before the inputs are read: one of them may be the store it replaces.
    let _writing =
        match outward::sites::lock_store(&args.output, "outward sites merge", &StderrReporter) {
            Ok(held) => held,
            Err(e) => {
                eprintln!(
                    "error: cannot lock site store {}: {e}",
                    args.output.display()
                );
                return ExitCode::from(1);
            }
        };
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

/// What a `sites build|merge` summary line says of the store's cut (nothing when it keeps
/// every host).
fn cut_note(summary: &outward::sites::StoreSummary) -> String {
    outward::sites::final_cut(summary.min_host_pages)
        .map(|cut| format!("; {}", outward::sites::describe_cut(cut)))
        .unwrap_or_default()
}
