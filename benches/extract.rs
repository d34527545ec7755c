//! Criterion benches of the extraction core: each method on hand-written pages and, when
//! `../devpages/dragnet.jsonl` exists, on a sample of real dragnet pages (MB/s of HTML).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use outward::extract::{ExtractOptions, Method, extractor};
use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::path::Path;

fn sample_pages() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dev = root.join("../devpages/dragnet.jsonl");
    if let Ok(f) = std::fs::File::open(&dev) {
        return BufReader::new(f)
            .lines()
            .step_by(10)
            .take(100)
            .filter_map(|l| l.ok())
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(&l).ok())
            .filter_map(|v| v["html"].as_str().map(str::to_string))
            .collect();
    }
    eprintln!(
        "note: {} absent, benching the hand-written pages",
        dev.display()
    );
    let dir = root.join("testdata/extract");
    let mut pages = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if let Ok(s) = std::fs::read_to_string(e.path()) {
                pages.push(s);
            }
        }
    }
    pages
}

fn bench_methods(c: &mut Criterion) {
    let pages = sample_pages();
    let bytes: usize = pages.iter().map(|p| p.len()).sum();
    let mut group = c.benchmark_group("extract");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    for method in [Method::Reverse, Method::Paper, Method::Fulltext] {
        let ex = extractor(method, &ExtractOptions::default());
        group.bench_function(method.name(), |b| {
            b.iter(|| {
                for p in &pages {
                    black_box(ex.extract(black_box(p)));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_methods);
criterion_main!(benches);
