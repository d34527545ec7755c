//! End-to-end throughput: `outward::run` (read, decode, extract, write zstd shard + manifest)
//! on a synthetic Common-Crawl-like `.warc.gz` (fixed seed), with `--method fulltext` and
//! `reverse`, on one worker thread (per-core speed) and on all cores. Throughput is bytes of
//! page HTML (the article responses' bodies) per second. `force` is set so every iteration
//! does the whole work instead of resuming.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use outward::{InputOutcome, Progress, RunConfig, Silent};
use outward_testkit::{self as testkit, SynthOptions};
use std::hint::black_box;
use std::time::Duration;

const SEED: u64 = 0x5eed_f0a7;
const PAGES: usize = 100;

fn bench_pipeline(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let synth = testkit::synthetic_warc(
        SEED,
        &SynthOptions {
            pages: PAGES,
            ..SynthOptions::default()
        },
    );
    let input = dir.path().join("synthetic.warc.gz");
    std::fs::write(&input, &synth.bytes).expect("writing the input");
    let inputs = vec![input];
    let expected = synth.expected_doc_ids().len() as u64;
    eprintln!(
        "pipeline input: {:.1} MB .warc.gz, {:.1} MB of page HTML, {} pages",
        synth.bytes.len() as f64 / 1e6,
        synth.html_bytes as f64 / 1e6,
        expected
    );
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);

    let mut group = c.benchmark_group("pipeline");
    group.throughput(Throughput::Bytes(synth.html_bytes));
    for (method, threads) in [
        ("fulltext", 1),
        ("reverse", 1),
        ("fulltext", cores),
        ("reverse", cores),
    ] {
        if threads > 1 && cores == 1 {
            continue;
        }
        let mut config = RunConfig::new(dir.path().join(format!("out-{method}-{threads}")));
        config.method = method.to_string();
        config.threads = threads;
        config.force = true;
        let once = || {
            let progress = Progress::default();
            let reports = outward::run(&inputs, &config, &progress, &Silent).expect("run starts");
            assert!(reports.iter().all(|r| r.is_complete()));
            reports
        };
        // Check once that every page became a document.
        if let InputOutcome::Done { entry, .. } = &once()[0].outcome {
            assert_eq!(entry.counts.written, expected);
        } else {
            panic!("input not processed");
        }
        let name = format!("{}/threads{threads}", method);
        group.bench_function(name, |b| b.iter(|| black_box(once())));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    targets = bench_pipeline
}
criterion_main!(benches);
