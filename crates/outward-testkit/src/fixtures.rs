//! The committed fixtures and how they are checked: [`sample_warc`] builds
//! `testdata/sample.warc.gz` from the hand-written pages in `testdata/pages/`
//! ([`SAMPLE_PAGES`]); [`broken_truncated`] and [`broken_corrupt_member`] build
//! `testdata/broken/`; [`bless_or_compare`] compares a golden file (or rewrites it with
//! `OUTWARD_BLESS=1`).

use crate::codings::encode_as;
use crate::http::{BodyCoding, HttpResponse};
use crate::rng::SplitMix64;
use crate::synth::{PNG_1X1, SynthOptions, SynthWarc, synthetic_warc};
use crate::warc::{Compression, RecordInfo, WarcWriter};
use std::io;
use std::path::Path;

/// What kind of record a sample page is stored in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SampleKind {
    Response,
    /// A `resource` record (no HTTP head).
    Resource,
}

/// One hand-written page of `testdata/pages/` and how it goes into the sample WARC.
#[derive(Debug, Clone, Copy)]
pub struct SamplePage {
    /// File under `testdata/pages/` (always UTF-8 source).
    pub file: &'static str,
    pub uri: &'static str,
    /// Charset the page's bytes are encoded in inside the WARC (WHATWG label).
    pub encoding: &'static str,
    /// HTTP Content-Type (or the resource's WARC Content-Type); `None` sends none.
    pub content_type: Option<&'static str>,
    pub coding: BodyCoding,
    pub status: u16,
    pub kind: SampleKind,
}

const fn page(
    file: &'static str,
    uri: &'static str,
    encoding: &'static str,
    content_type: Option<&'static str>,
    coding: BodyCoding,
) -> SamplePage {
    SamplePage {
        file,
        uri,
        encoding,
        content_type,
        coding,
        status: 200,
        kind: SampleKind::Response,
    }
}

/// The pages of `testdata/sample.warc.gz`, in file order.
pub const SAMPLE_PAGES: &[SamplePage] = &[
    page(
        "en_news.html",
        "https://www.harbourgazette.example/2024/05/17/tidal-barrier-vote",
        "utf-8",
        Some("text/html; charset=utf-8"),
        BodyCoding::Identity,
    ),
    page(
        "en_blog_comments.html",
        "https://slowbread.example/blog/rye-starter-in-winter",
        "utf-8",
        Some("text/html; charset=UTF-8"),
        BodyCoding::ChunkedGzip,
    ),
    page(
        "zh_news_utf8.html",
        "https://news.example.cn/society/2024-05/17/riverside-library.html",
        "utf-8",
        Some("text/html; charset=utf-8"),
        BodyCoding::Br,
    ),
    page(
        "zh_gbk_nodecl.html",
        "http://www.example.com.cn/local/tea-harvest.htm",
        "gbk",
        Some("text/html"),
        BodyCoding::Identity,
    ),
    page(
        "ja_shiftjis_meta.html",
        "http://www.example.co.jp/column/2024/kamakura-walk.html",
        "shift_jis",
        Some("text/html"),
        BodyCoding::Identity,
    ),
    page(
        "zh_big5_meta.html",
        "http://www.example.com.tw/travel/tainan-food.html",
        "big5",
        None,
        BodyCoding::Identity,
    ),
    page(
        "fr_cp1252_mislabelled.html",
        "http://www.example.fr/cuisine/tarte-aux-pommes.html",
        "windows-1252",
        Some("text/html; charset=utf-8"),
        BodyCoding::Identity,
    ),
    page(
        "product.html",
        "https://shop.example.com/p/trail-runner-kettle-1-2l",
        "utf-8",
        Some("text/html;charset=utf-8"),
        BodyCoding::Gzip,
    ),
    page(
        "forum_thread.html",
        "https://forum.example.org/t/bike-chain-keeps-slipping/48213",
        "utf-8",
        Some("text/html; charset=utf-8"),
        BodyCoding::Deflate,
    ),
    page(
        "almost_empty.html",
        "https://app.example.net/dashboard",
        "utf-8",
        Some("text/html; charset=utf-8"),
        BodyCoding::Identity,
    ),
    page(
        "recipe_chunked.html",
        "https://kitchen.example.org/recipes/lentil-soup",
        "utf-8",
        Some("text/html; charset=utf-8"),
        BodyCoding::Chunked,
    ),
    SamplePage {
        file: "about_resource.html",
        uri: "https://harbourgazette.example/about.html",
        encoding: "utf-8",
        content_type: Some("text/html"),
        coding: BodyCoding::Identity,
        status: 200,
        kind: SampleKind::Resource,
    },
    SamplePage {
        file: "not_found.html",
        uri: "https://www.harbourgazette.example/2024/05/17/no-such-story",
        encoding: "utf-8",
        content_type: Some("text/html; charset=utf-8"),
        coding: BodyCoding::Identity,
        status: 404,
        kind: SampleKind::Response,
    },
];

/// Seed of the sample WARC's record ids.
pub const SAMPLE_SEED: u64 = 20240517;

/// Builds `testdata/sample.warc.gz` from the pages in `pages_dir` (see [`SAMPLE_PAGES`]):
/// warcinfo; for each page a request and its response (or resource); then an `image/png`
/// response, a revisit of the first page and a metadata record.
pub fn sample_warc(pages_dir: &Path) -> io::Result<(Vec<u8>, Vec<RecordInfo>)> {
    let mut w = WarcWriter::new(Compression::Gzip, SAMPLE_SEED);
    w.warcinfo("sample.warc.gz");
    let mut first: Option<(String, String, HttpResponse)> = None;
    for p in SAMPLE_PAGES {
        let text = std::fs::read_to_string(pages_dir.join(p.file))?;
        let body = encode_as(&text, p.encoding);
        match p.kind {
            SampleKind::Response => {
                let http = HttpResponse::new(p.status, p.content_type, &body, p.coding);
                w.request(p.uri);
                let id = w.response(p.uri, &http);
                if first.is_none() {
                    first = Some((id, WarcWriter::date_of(w.records().len() - 1), http));
                }
            }
            SampleKind::Resource => {
                w.resource(p.uri, p.content_type.unwrap_or("text/html"), &body);
            }
        }
    }
    let logo = "https://www.harbourgazette.example/static/logo.png";
    w.request(logo);
    w.response(
        logo,
        &HttpResponse::new(200, Some("image/png"), PNG_1X1, BodyCoding::Identity),
    );
    if let Some((id, date, http)) = first {
        let uri = SAMPLE_PAGES[0].uri;
        w.request(uri);
        w.revisit(uri, &id, &date, &http);
        w.metadata(uri, &id, 212);
    }
    Ok(w.finish())
}

/// A small `.warc.gz` (12 pages, no crawl mix) for the broken fixtures.
fn broken_base(seed: u64) -> SynthWarc {
    synthetic_warc(
        seed,
        &SynthOptions {
            pages: 12,
            min_bytes: 3 << 10,
            max_bytes: 12 << 10,
            compression: Compression::Gzip,
            zh_every: 0,
            crawl_mix: false,
            coded_every: 0,
        },
    )
}

/// `testdata/broken/truncated.warc.gz`: 12 pages, the file cut in the middle of the gzip
/// member of the 10th page (the first 9 pages are intact). Returns the bytes and the full
/// record table (records past the cut included, for reference).
pub fn broken_truncated() -> (Vec<u8>, Vec<RecordInfo>) {
    let synth = broken_base(101);
    let victim = &synth.records[10]; // [0] is warcinfo; [10] is the 10th page
    let cut = (victim.start + (victim.end - victim.start) / 2) as usize;
    (synth.bytes[..cut].to_vec(), synth.records)
}

/// `testdata/broken/corrupt_member.warc.gz`: 12 pages; the compressed data of the 6th page's
/// gzip member is overwritten in its middle with 64 bytes of junk (header and the other
/// members untouched).
pub fn broken_corrupt_member() -> (Vec<u8>, Vec<RecordInfo>) {
    let synth = broken_base(202);
    let victim = &synth.records[6];
    let mut bytes = synth.bytes;
    let mid = (victim.start + (victim.end - victim.start) / 2) as usize;
    let mut rng = SplitMix64::new(202);
    for b in &mut bytes[mid - 32..mid + 32] {
        *b = rng.next_u64() as u8;
    }
    (bytes, synth.records)
}

/// Golden-file check: with `OUTWARD_BLESS=1` in the environment, writes `actual` to `path`
/// (creating directories) and passes; otherwise panics unless the file holds exactly `actual`.
pub fn bless_or_compare(path: &Path, actual: &[u8]) {
    if std::env::var_os("OUTWARD_BLESS").is_some_and(|v| v == "1") {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("creating the golden directory");
        }
        std::fs::write(path, actual).expect("writing the golden file");
        eprintln!("blessed {}", path.display());
        return;
    }
    let expected = std::fs::read(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with OUTWARD_BLESS=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        let first_diff = expected
            .iter()
            .zip(actual)
            .position(|(a, b)| a != b)
            .unwrap_or(expected.len().min(actual.len()));
        panic!(
            "{} differs from the generated bytes ({} vs {} bytes, first difference at byte {first_diff}); \
             rerun with OUTWARD_BLESS=1 if the change is intended",
            path.display(),
            expected.len(),
            actual.len()
        );
    }
}
