//! Drives `WarcReader` over the shared edge/real samples (skipped when `../shared` is absent)
//! and over small fixtures in `testdata/reader/`, asserting each documented outcome.

use outward_base::counts::SkipReason;
use outward_warc::reader::{FileStatus, ReadItem, ReaderOptions, WarcReader};
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

/// `../shared` when its samples are there (see `outward_testkit::shared_data`).
fn shared() -> Option<PathBuf> {
    outward_testkit::shared_data("samples").map(|samples| samples.parent().unwrap().to_path_buf())
}

fn edge(sh: &Path, name: &str) -> Summary {
    read(&sh.join("samples/edge").join(name))
}

fn real(sh: &Path, name: &str) -> Summary {
    read(&sh.join("samples/real").join(name))
}

fn assert_complete(s: &Summary, name: &str) {
    assert_eq!(s.status, Some(FileStatus::Complete), "{name}");
}

#[test]
fn edge_samples_plain_and_gz() {
    let Some(sh) = shared() else { return };
    for ext in ["warc", "warc.gz"] {
        let f = |n: &str| format!("{n}.{ext}");
        // (name, records, pages, bad records)
        let cases = [
            ("ok_10_11", 3, 3, 0),
            ("warc_0_18", 3, 3, 0),
            ("lf_only_headers", 3, 3, 0),
            ("header_continuation", 3, 3, 0),
            ("garbage_between", 3, 3, 0),
            // CL 10 bytes short: that record flagged, the other 3 kept.
            ("cl_too_short", 4, 3, 1),
            // CL 10 bytes long eats the next record's `WARC/1.0` line: flagged. A plain file
            // goes on at the next `WARC/1.` line after the bad record's start, a gzip file at
            // the next member (the bad record's member holds only it), so only that record is
            // lost (the gzip file lost the next one too before the member resync).
            ("cl_too_long", 4, 3, 1),
            ("missing_content_length", 3, 2, 1),
            ("chunked_only", 4, 4, 0),
            ("gzip_only", 4, 4, 0),
            ("chunked_gzip", 4, 4, 0),
        ];
        for (name, records, pages, bad) in cases {
            let s = edge(&sh, &f(name));
            assert_eq!(
                (s.records, s.pages, s.count(SkipReason::BadRecord)),
                (records, pages, bad),
                "{name}.{ext}: {s:?}"
            );
            assert_complete(&s, name);
        }
        // The last record survives the damage in every resync case.
        for name in [
            "cl_too_short",
            "cl_too_long",
            "missing_content_length",
            "garbage_between",
        ] {
            let s = edge(&sh, &f(name));
            assert!(
                s.page_bodies.last().unwrap().ends_with(b"</html>"),
                "{name}"
            );
        }
    }
}

#[test]
fn edge_samples_decode() {
    use outward_warc::decode::{DecodeOptions, decode_body};
    let Some(sh) = shared() else { return };
    for name in [
        "chunked_only.warc",
        "gzip_only.warc.gz",
        "chunked_gzip.warc.gz",
        "chunked_gzip.warc",
    ] {
        let path = sh.join("samples/edge").join(name);
        let mut n = 0;
        for item in WarcReader::open(&path, ReaderOptions::default()).unwrap() {
            let ReadItem::Page(p) = item else { continue };
            let d = decode_body(
                &p.http_headers,
                p.content_type.as_deref(),
                &p.body,
                &DecodeOptions::default(),
            )
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
            assert!(
                d.html.contains("<html") && d.html.trim_end().ends_with("</html>"),
                "{name}: {}",
                d.html
            );
            n += 1;
        }
        assert_eq!(n, 4, "{name}");
    }
}

#[test]
fn edge_samples_damaged_gzip() {
    let Some(sh) = shared() else { return };
    // Member 2 of 4 is corrupt: counted as one bad record at its offset, the reader resyncs
    // on member 3 and keeps the last two records.
    let s = edge(&sh, "corrupt_member.warc.gz");
    assert_eq!(
        (s.records, s.pages, s.count(SkipReason::BadRecord)),
        (4, 3, 1),
        "{s:?}"
    );
    match &s.status {
        Some(FileStatus::Partial { offset, .. }) => assert_eq!(*offset, 245),
        other => panic!("corrupt_member: {other:?}"),
    }
    let s = edge(&sh, "truncated_tail.warc.gz");
    assert_eq!(
        (s.records, s.pages, s.count(SkipReason::BadRecord)),
        (4, 3, 1),
        "{s:?}"
    );
    match &s.status {
        Some(FileStatus::Partial { offset, error }) => {
            assert_eq!(*offset, 735);
            assert!(error.contains("truncated"), "{error}");
        }
        other => panic!("truncated_tail: {other:?}"),
    }
}

#[test]
fn real_samples() {
    let Some(sh) = shared() else { return };
    // (file, records, pages, complete)
    let cases = [
        (
            "chatnoir-eu+chatnoir-resiliparse/warcfile.warc.gz",
            50,
            16,
            true,
        ),
        (
            "chatnoir-eu+chatnoir-resiliparse/warcfile.warc",
            50,
            16,
            true,
        ),
        (
            "chatnoir-eu+chatnoir-resiliparse/warcfile.warc.lz4",
            50,
            16,
            true,
        ),
        (
            "chatnoir-eu+chatnoir-resiliparse/clueweb-quirk.warc.gz",
            30,
            29,
            true,
        ),
        (
            "chatnoir-eu+chatnoir-resiliparse/block-sized-records.warc.gz",
            3,
            0,
            true,
        ),
        (
            "chatnoir-eu+chatnoir-resiliparse/clipped.warc.gz",
            1,
            0,
            false,
        ),
        ("commoncrawl+whirlwind-python/whirlwind.warc.gz", 4, 1, true),
        (
            "commoncrawl+whirlwind-python/whirlwind.warc.wet.gz",
            2,
            0,
            true,
        ),
        ("iipc+jwarc/cc.warc.gz", 1, 1, true),
        ("iipc+jwarc/gzip_extra_sl.warc.gz", 1, 0, true),
        // 20 HTML responses, 4 of them non-200.
        ("webrecorder+pywb/iana.warc.gz", 343, 16, true),
        ("webrecorder+pywb/dupes.warc.gz", 25, 1, true),
        ("webrecorder+pywb/example-wget-1-14.warc.gz", 6, 1, true),
        // One gzip member for the whole file, odd extension: sniffed by magic bytes.
        ("webrecorder+warcio/example-bad.warc.gz.bad", 6, 1, true),
        (
            "webrecorder+warcio/example-bad-non-chunked.warc.gz",
            6,
            1,
            true,
        ),
        (
            "webrecorder+warcio/example-wrong-chunks.warc.gz",
            2,
            1,
            true,
        ),
        (
            "webrecorder+warcio/example-iana.org-chunked.warc",
            3,
            1,
            true,
        ),
        ("webrecorder+warcio/example-resource.warc.gz", 3, 1, true),
        // The response is cut short inside the file: flagged, not a page.
        ("webrecorder+warcio/example-trunc.warc", 4, 0, true),
    ];
    for (name, records, pages, complete) in cases {
        let s = real(&sh, name);
        assert_eq!(
            (s.records, s.pages, !s.partial()),
            (records, pages, complete),
            "{name}: {s:?}"
        );
    }
    let s = real(&sh, "webrecorder+warcio/example-trunc.warc");
    assert_eq!(s.count(SkipReason::BadRecord), 1);
    let s = real(&sh, "webrecorder+pywb/iana.warc.gz");
    assert_eq!(
        (s.count(SkipReason::Revisit), s.count(SkipReason::Status)),
        (123, 4)
    );
    let s = real(&sh, "chatnoir-eu+chatnoir-resiliparse/clipped.warc.gz");
    assert_eq!(s.count(SkipReason::BadRecord), 1);
}

/// The real ARC samples: the records warcio 1.8.1 reads, at the offsets it reports
/// (`ArchiveIterator.get_record_offset`), each as the documented item.
#[test]
fn real_arc_samples_match_warcio() {
    let Some(sh) = shared() else { return };
    let items = |name: &str| {
        let path = sh.join("samples/real").join(name);
        let mut reader = WarcReader::open(&path, ReaderOptions::default()).expect("open");
        let items: Vec<(String, u64)> = reader
            .by_ref()
            .map(|i| match i {
                ReadItem::Page(p) => (
                    format!("page {}", p.target_uri.unwrap_or_default()),
                    p.offset,
                ),
                ReadItem::Skipped(s) => (s.reason.as_str().to_string(), s.offset),
            })
            .collect();
        assert_eq!(reader.status(), FileStatus::Complete, "{name}");
        items
    };
    let page = |url: &str, offset: u64| (format!("page {url}"), offset);
    let skip = |reason: &str, offset: u64| (reason.to_string(), offset);
    for dir in ["webrecorder+warcio", "webrecorder+pywb"] {
        assert_eq!(
            items(&format!("{dir}/example.arc")),
            [skip("other_type", 0), page("http://example.com/", 151)]
        );
        // Gzip per record: offsets are member offsets.
        assert_eq!(
            items(&format!("{dir}/example.arc.gz")),
            [skip("other_type", 0), page("http://example.com/", 171)]
        );
        // filedesc and two responses with lengths -1 and abc; a 1-byte block that is not HTTP.
        assert_eq!(
            items(&format!("{dir}/bad.arc")),
            [
                skip("other_type", 0),
                skip("bad_record", 134),
                skip("not_html", 202),
                skip("bad_record", 262)
            ]
        );
    }
    assert_eq!(
        items("webrecorder+warcio/example-space-in-url.arc"),
        [
            skip("other_type", 0),
            page(
                "http://example.com/index.cfm?FuseAction=Email&EmailTitle=Examples From The Live Web&IsPopUp=False",
                151
            )
        ]
    );
}

#[test]
fn missing_file_is_err() {
    assert!(
        WarcReader::open(
            Path::new("/nonexistent/x.warc.gz"),
            ReaderOptions::default()
        )
        .is_err()
    );
}

fn fixture(name: &str) -> PathBuf {
    outward_testkit::repo_root()
        .join("testdata/reader")
        .join(name)
}

/// Own fixtures (see testdata/reader/make_fixtures.py): one record per outcome.
#[test]
fn own_fixture_every_outcome() {
    use outward_warc::decode::{CharsetSource, DecodeOptions, decode_body};
    for name in ["mixed.warc", "mixed.warc.gz"] {
        let mut reader = WarcReader::open(&fixture(name), ReaderOptions::default()).unwrap();
        let items: Vec<ReadItem> = reader.by_ref().collect();
        assert_eq!(reader.status(), FileStatus::Complete, "{name}");
        let kinds: Vec<String> = items
            .iter()
            .map(|i| match i {
                ReadItem::Page(p) => format!("page {}", p.target_uri.as_deref().unwrap_or("")),
                ReadItem::Skipped(s) => s.reason.as_str().to_string(),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "other_type",
                "other_type",
                "page http://example.org/chunked-gzip",
                "status",
                "page file:///resource.html",
                "revisit",
                "not_html",
                "page http://example.org/no-type",
                "empty",
                "page http://example.org/last",
            ],
            "{name}"
        );
        let ReadItem::Page(p) = &items[2] else {
            unreachable!()
        };
        assert_eq!(
            p.record_id,
            "<urn:uuid:00000000-0000-0000-0000-000000000003>"
        );
        assert_eq!(p.date.as_deref(), Some("2024-05-01T12:00:03Z"));
        assert_eq!(
            p.payload_digest.as_deref(),
            Some("sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA03")
        );
        assert_eq!(
            p.content_type.as_deref(),
            Some("text/html; charset=iso-8859-1")
        );
        assert_eq!(p.http_headers.len(), 3);
        assert_eq!(
            p.http_headers[1],
            ("Transfer-Encoding".to_string(), "chunked".to_string())
        );
        // Body as stored: still chunked.
        assert!(
            p.body.starts_with(b"32;ext=1\r\n\x1f\x8b"),
            "{:?}",
            &p.body[..12]
        );
        let d = decode_body(
            &p.http_headers,
            p.content_type.as_deref(),
            &p.body,
            &DecodeOptions::default(),
        )
        .unwrap();
        assert!(d.html.contains("Grüße aus Köln"));
        // Declared iso-8859-1 but valid UTF-8.
        assert_eq!(d.charset_source, CharsetSource::Utf8Valid);
        let ReadItem::Page(r) = &items[4] else {
            unreachable!()
        };
        assert!(r.http_headers.is_empty());
        assert_eq!(r.content_type.as_deref(), Some("text/html"));
        if name.ends_with(".gz") {
            // Offsets are gzip member offsets: the first member starts at 0, all increase.
            let offsets: Vec<u64> = items
                .iter()
                .map(|i| match i {
                    ReadItem::Page(p) => p.offset,
                    ReadItem::Skipped(s) => s.offset,
                })
                .collect();
            assert_eq!(offsets[0], 0);
            assert!(offsets.windows(2).all(|w| w[0] < w[1]), "{offsets:?}");
        }
    }
}

#[test]
fn own_fixture_too_big_and_truncated() {
    let opts = ReaderOptions {
        max_record_bytes: 300,
    };
    let items: Vec<ReadItem> = WarcReader::open(&fixture("mixed.warc.gz"), opts)
        .unwrap()
        .collect();
    let too_big = items
        .iter()
        .filter(|i| matches!(i, ReadItem::Skipped(s) if s.reason == SkipReason::TooBig))
        .count();
    // The two plain PAGE bodies (~430 bytes) are too big; the gzipped one (~150) is not.
    assert_eq!((items.len(), too_big), (10, 2));

    let s = read(&fixture("truncated.warc.gz"));
    assert_eq!(
        (s.records, s.pages, s.count(SkipReason::BadRecord)),
        (10, 3, 1),
        "{s:?}"
    );
    assert!(s.partial());
}

/// Throughput and outcome tally over the dev WARCs (release: `cargo test --release --test
/// reader_samples -- --ignored --nocapture`).
#[test]
#[ignore]
fn throughput_dev() {
    use outward_warc::decode::{DecodeOptions, decode_body};
    use std::collections::BTreeMap;
    let Some(sh) = shared() else { return };
    // Baseline: bare fastwarc iteration (gunzip + WARC headers + HTTP heads, no copies).
    let dragnet = sh.join("data/dev/dragnet.warc.gz");
    if dragnet.exists() {
        let t = std::time::Instant::now();
        let it = fastwarc::warc::iter::ArchiveIterator::from_path(&dragnet)
            .unwrap()
            .with_quirks_mode(true)
            .with_parse_http(true);
        let (mut n, mut bytes) = (0u64, 0u64);
        for r in it {
            let r = r.unwrap();
            let mut r = r.borrow_mut();
            n += 1;
            bytes += r.consume().unwrap() as u64;
        }
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "baseline fastwarc dragnet: {n} records, {:.1} MB payload in {secs:.3}s = {:.0} MB/s",
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / secs
        );
        // WarcReader alone (pages dropped right away), best of 3.
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let (mut n, mut bytes) = (0u64, 0u64);
            for item in WarcReader::open(&dragnet, ReaderOptions::default()).unwrap() {
                n += 1;
                if let ReadItem::Page(p) = item {
                    bytes += p.body.len() as u64;
                }
            }
            let secs = t.elapsed().as_secs_f64();
            eprintln!(
                "WarcReader dragnet: {n} records, {:.1} MB page payload in {secs:.3}s = {:.0} MB/s",
                bytes as f64 / 1e6,
                bytes as f64 / 1e6 / secs
            );
        }
    }
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

/// Robustness: every truncation point and many byte flips of the own fixtures must neither
/// panic nor loop; every page must go through the decoder without panicking.
#[test]
fn no_panic_on_damage() {
    use outward_warc::decode::{DecodeOptions, decode_body};
    let dir = tempfile::tempdir().unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for name in ["mixed.warc", "mixed.warc.gz"] {
        let orig = std::fs::read(fixture(name)).unwrap();
        let target = dir.path().join(name);
        let mut variants: Vec<Vec<u8>> = (0..orig.len())
            .step_by(7)
            .map(|n| orig[..n].to_vec())
            .collect();
        for _ in 0..300 {
            let mut v = orig.clone();
            for _ in 0..1 + rnd() % 4 {
                let at = (rnd() % v.len() as u64) as usize;
                v[at] = rnd() as u8;
            }
            variants.push(v);
        }
        for v in variants {
            std::fs::write(&target, &v).unwrap();
            let mut reader = WarcReader::open(&target, ReaderOptions::default()).unwrap();
            let mut n = 0;
            for item in reader.by_ref() {
                n += 1;
                assert!(n < 1000, "runaway iteration");
                if let ReadItem::Page(p) = item {
                    let _ = decode_body(
                        &p.http_headers,
                        p.content_type.as_deref(),
                        &p.body,
                        &DecodeOptions::default(),
                    );
                }
            }
            let _ = reader.status();
        }
    }
}

/// A corrupt gzip member in the middle of the own fixture: the damage is one `BadRecord`,
/// the file is `Partial`, and the records after it are still read (resync).
#[test]
fn own_fixture_corrupt_member_resyncs() {
    let orig = std::fs::read(fixture("mixed.warc.gz")).unwrap();
    // Member offsets, from the plain reader.
    let offsets: Vec<u64> = WarcReader::open(&fixture("mixed.warc.gz"), ReaderOptions::default())
        .unwrap()
        .map(|i| match i {
            ReadItem::Page(p) => p.offset,
            ReadItem::Skipped(s) => s.offset,
        })
        .collect();
    assert_eq!(offsets.len(), 10);
    // Garble the deflate data of member 5 (the resource record).
    let (a, b) = (offsets[4] as usize, offsets[5] as usize);
    let mut bad = orig.clone();
    for x in &mut bad[a + 12..b - 8] {
        *x = 0xff;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corrupt.warc.gz");
    std::fs::write(&path, &bad).unwrap();
    let s = read(&path);
    assert!(s.count(SkipReason::BadRecord) >= 1, "{s:?}");
    assert_eq!(
        s.page_uris.last().map(String::as_str),
        Some("http://example.org/last"),
        "{s:?}"
    );
    assert!(
        s.page_uris
            .contains(&"http://example.org/no-type".to_string())
    );
    match &s.status {
        Some(FileStatus::Partial { offset, .. }) => assert_eq!(*offset, offsets[4]),
        other => panic!("{other:?}"),
    }
}
