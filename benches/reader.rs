//! Reader throughput: `WarcReader` over a synthetic Common-Crawl-like WARC (fixed seed) in a
//! temporary file, as `.warc.gz`, plain `.warc` and `.warc.zst`. Throughput is bytes of
//! uncompressed WARC per second; each iteration reads the whole file and copies every HTML
//! payload out (what the pipeline's reader thread does).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use outward_testkit::{self as testkit, Compression, SynthOptions};
use outward_warc::reader::{ReadItem, ReaderOptions, WarcReader};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

const SEED: u64 = 0x0b5e_55ed;
const PAGES: usize = 150;

fn read_all(path: &Path) -> (u64, u64) {
    let reader = WarcReader::open(path, ReaderOptions::default()).expect("opening the input");
    let (mut pages, mut bytes) = (0u64, 0u64);
    for item in reader {
        if let ReadItem::Page(page) = item {
            pages += 1;
            bytes += page.body.len() as u64;
            black_box(&page);
        }
    }
    (pages, bytes)
}

fn bench_reader(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let options = |compression| SynthOptions {
        pages: PAGES,
        compression,
        ..SynthOptions::default()
    };
    // The record stream does not depend on the compression: the plain file's size is the
    // uncompressed size of all three.
    let plain = testkit::synthetic_warc(SEED, &options(Compression::None));
    let uncompressed = plain.bytes.len() as u64;
    let mut group = c.benchmark_group("reader");
    group.throughput(Throughput::Bytes(uncompressed));
    for (compression, synth) in [
        (
            Compression::Gzip,
            testkit::synthetic_warc(SEED, &options(Compression::Gzip)),
        ),
        (Compression::None, plain.clone()),
        (
            Compression::Zstd,
            testkit::synthetic_warc(SEED, &options(Compression::Zstd)),
        ),
    ] {
        let path = dir
            .path()
            .join(format!("synthetic{}", compression.extension()));
        std::fs::write(&path, &synth.bytes).expect("writing the input");
        let expected = synth.expected_doc_ids().len() as u64;
        assert_eq!(read_all(&path).0, expected, "{}", path.display());
        eprintln!(
            "reader input {}: {:.1} MB on disk, {:.1} MB uncompressed, {} pages",
            compression.extension(),
            synth.bytes.len() as f64 / 1e6,
            uncompressed as f64 / 1e6,
            expected
        );
        group.bench_function(compression.extension().trim_start_matches('.'), |b| {
            b.iter(|| black_box(read_all(&path)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    targets = bench_reader
}
criterion_main!(benches);
