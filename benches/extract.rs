//! Criterion benches of the extraction core: each method on a sample of real dragnet pages
//! (every 10th of `../shared/data/dev/dragnet.warc.gz`, MB/s of HTML) or, when `../shared` is
//! absent, on the hand-written pages of `testdata/extract`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use outward_core::ExtractOptions;
use outward_core::methods::REGISTRY;
use std::hint::black_box;

fn sample_pages() -> Vec<String> {
    let root = outward_testkit::repo_root();
    let dev = root.join("../shared/data/dev/dragnet.warc.gz");
    if let Ok(pages) = outward_warc::load_html_pages(&dev, u64::MAX) {
        return pages.into_iter().step_by(10).collect();
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
    for method in REGISTRY {
        let ex = method.build(&ExtractOptions::default());
        group.bench_function(method.name, |b| {
            b.iter(|| {
                for p in &pages {
                    black_box(ex.extract_html(black_box(p)));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_methods);
criterion_main!(benches);
