//! `outward bench`: extraction alone, timed on one thread over the HTML pages of WARC files
//! loaded into memory first (MB/s of HTML and pages/s per core, latency percentiles, node
//! fractions), for each method asked.

use super::args::BenchArgs;
use outward_core::ExtractOptions;
use outward_core::methods;
use std::io::Write;
use std::process::ExitCode;

pub fn bench(args: BenchArgs) -> ExitCode {
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
            "{:<9} {:>8.1} MB/s {:>8.0} pages/s  ms/page p50 {:.3} p90 {:.3} p99 {:.3} max {:.1}  nodes parsed/total median {:.3} p90 {:.3}  bytes parsed/page median {:.3} p90 {:.3}",
            method,
            r.mb_per_s(),
            r.pages_per_s(),
            r.ms_p50,
            r.ms_p90,
            r.ms_p99,
            r.ms_max,
            r.fractions.nodes.quantile(0.5).unwrap_or(0.0),
            r.fractions.nodes.quantile(0.9).unwrap_or(0.0),
            r.fractions.bytes.quantile(0.5).unwrap_or(0.0),
            r.fractions.bytes.quantile(0.9).unwrap_or(0.0)
        );
    }
    ExitCode::SUCCESS
}
