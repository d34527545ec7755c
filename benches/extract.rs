//! Criterion benches of the extraction core: each method on a sample of real dragnet pages
//! (every 10th of `../shared/data/dev/dragnet.warc.gz`, MB/s of HTML) or, when `../shared` is
//! absent, on the hand-written pages of `testdata/extract`; beside them, `tag-scan floor`:
//! the least any one forward pass over a page does (find every tag's end outside quoted
//! values, skip script and style), nothing built, no statistics. It is not a method: it is
//! the line a cleaner of the same design cannot go below (issue #11's budget). And `skim`,
//! the first pass of windowed reading (issue #38; `examples/windowed_reading.rs` counts its
//! instructions against the cleaner's).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use outward_core::ExtractOptions;
use outward_core::html::clean::skim::skim;
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

/// Tags and text bytes of `page` found by the cheapest quote-aware forward scan: a tag ends at
/// the first `>` outside a quoted value; `script` and `style` content runs to its end tag.
fn tag_scan_floor(page: &[u8]) -> (usize, usize) {
    let (mut tags, mut text) = (0, 0);
    let mut i = 0;
    while let Some(lt) = memchr::memchr(b'<', &page[i..]) {
        text += lt;
        i += lt + 1;
        let name_at = i;
        loop {
            let Some(k) = memchr::memchr3(b'>', b'"', b'\'', &page[i..]) else {
                return (tags, text);
            };
            let quote = page[i + k];
            i += k + 1;
            if quote == b'>' {
                break;
            }
            let Some(q) = memchr::memchr(quote, &page[i..]) else {
                return (tags, text);
            };
            i += q + 1;
        }
        tags += 1;
        let name = &page[name_at..(name_at + 6).min(page.len())];
        let end: &[u8] = if name.eq_ignore_ascii_case(b"script") {
            b"</script"
        } else if name.len() >= 5 && name[..5].eq_ignore_ascii_case(b"style") {
            b"</style"
        } else {
            continue;
        };
        match memchr::memmem::find(&page[i..], end) {
            Some(e) => i += e,
            None => return (tags, text),
        }
    }
    (tags, text + page.len() - i)
}

fn bench_methods(c: &mut Criterion) {
    let pages = sample_pages();
    let bytes: usize = pages.iter().map(|p| p.len()).sum();
    let mut group = c.benchmark_group("extract");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    group.bench_function("tag-scan floor", |b| {
        b.iter(|| {
            for p in &pages {
                black_box(tag_scan_floor(black_box(p.as_bytes())));
            }
        })
    });
    // Windowed reading's first pass (issue #38): tag names, a tree and text lengths, no
    // attribute value read.
    group.bench_function("skim", |b| {
        b.iter(|| {
            for p in &pages {
                black_box(skim(black_box(p.as_bytes())));
            }
        })
    });
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
