//! Drives `WarcReader` over the shared edge/real samples (skipped when `../shared` is absent)
//! and over small fixtures in `testdata/reader/`, asserting each documented outcome.

use outward::counts::SkipReason;
use outward::warc::{FileStatus, ReadItem, ReaderOptions, WarcReader};
use std::path::{Path, PathBuf};

#[derive(Debug, Default)]
struct Summary {
    records: usize,
    pages: usize,
    skips: Vec<SkipReason>,
    page_uris: Vec<String>,
    page_bodies: Vec<Vec<u8>>,
    status: Option<FileStatus>,
}

impl Summary {
    fn count(&self, r: SkipReason) -> usize {
        self.skips.iter().filter(|s| **s == r).count()
    }
    fn partial(&self) -> bool {
        matches!(self.status, Some(FileStatus::Partial { .. }))
    }
}

fn read(path: &Path) -> Summary {
    let mut reader = WarcReader::open(path, ReaderOptions::default()).expect("open");
    let mut s = Summary::default();
    for item in reader.by_ref() {
        s.records += 1;
        match item {
            ReadItem::Page(p) => {
                s.pages += 1;
                s.page_uris.push(p.target_uri.clone().unwrap_or_default());
                s.page_bodies.push(p.body);
            }
            ReadItem::Skipped(k) => s.skips.push(k.reason),
        }
    }
    s.status = Some(reader.status());
    s
}

fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if p.join("samples").is_dir() {
        Some(p)
    } else {
        eprintln!("skip: {} not present", p.display());
        None
    }
}

#[test]
fn dump_all() {
    let Some(sh) = shared() else { return };
    for dir in [
        "samples/edge",
        "samples/real/webrecorder+warcio",
        "samples/real/webrecorder+pywb",
        "samples/real/chatnoir-eu+chatnoir-resiliparse",
        "samples/real/commoncrawl+whirlwind-python",
        "samples/real/iipc+jwarc",
    ] {
        let mut entries: Vec<_> = std::fs::read_dir(sh.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.extension().is_some_and(|e| e == "md") {
                continue;
            }
            let s = read(&p);
            eprintln!(
                "{:70} rec={:3} pages={:3} skips={:?} status={:?}",
                p.strip_prefix(&sh).unwrap().display(),
                s.records,
                s.pages,
                s.skips,
                s.status
            );
        }
    }
}

/// Throughput and outcome tally over the dev WARCs (release: `cargo test --release --test
/// reader_samples -- --ignored --nocapture`).
#[test]
#[ignore]
fn throughput_dev() {
    use outward::decode::{DecodeOptions, decode_body};
    use std::collections::BTreeMap;
    let Some(sh) = shared() else { return };
    let mut files: Vec<_> = std::fs::read_dir(sh.join("data/dev"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".warc.gz"))
        .collect();
    files.sort();
    for p in files {
        let t = std::time::Instant::now();
        let mut reader = WarcReader::open(&p, ReaderOptions::default()).unwrap();
        let (mut records, mut pages, mut bytes) = (0u64, 0u64, 0u64);
        let mut skips: BTreeMap<SkipReason, u64> = BTreeMap::new();
        let mut bodies = Vec::new();
        for item in reader.by_ref() {
            records += 1;
            match item {
                ReadItem::Page(pg) => {
                    pages += 1;
                    bytes += pg.body.len() as u64;
                    bodies.push(pg);
                }
                ReadItem::Skipped(s) => *skips.entry(s.reason).or_default() += 1,
            }
        }
        let secs = t.elapsed().as_secs_f64();
        let t2 = std::time::Instant::now();
        let mut sources: BTreeMap<String, u64> = BTreeMap::new();
        for pg in &bodies {
            let key = match decode_body(
                &pg.http_headers,
                pg.content_type.as_deref(),
                &pg.body,
                &DecodeOptions::default(),
            ) {
                Ok(d) => format!("{}:{}", d.charset_source.as_str(), d.charset),
                Err(e) => format!("err:{:?}", e.reason),
            };
            *sources.entry(key).or_default() += 1;
        }
        eprintln!(
            "{} records={records} pages={pages} payload={:.1}MB read={:.3}s ({:.0} MB/s) decode={:.3}s status={:?} skips={skips:?}\n   {sources:?}",
            p.file_name().unwrap().to_string_lossy(),
            bytes as f64 / 1e6,
            secs,
            bytes as f64 / 1e6 / secs,
            t2.elapsed().as_secs_f64(),
            reader.status()
        );
    }
}
