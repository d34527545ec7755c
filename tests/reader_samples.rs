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
