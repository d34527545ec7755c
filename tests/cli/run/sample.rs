//! The sample (`testdata/sample.warc.gz`) through `outward run`: golden output, Dolma
//! fields for every method, charsets, content codings, the output options, Markdown and WET.

use crate::common::{
    describe, docs, manifest, run_into, sample, shard_bytes, stdout, testdata, text,
};
use outward_output::format::parquet;
use outward_testkit as testkit;
use serde_json::Value;
use std::process::{Command, Output};

/// Document whose `metadata.url` is `url`.
fn by_url<'a>(docs: &'a [Value], url: &str) -> &'a Value {
    docs.iter()
        .find(|d| d["metadata"]["url"] == url)
        .unwrap_or_else(|| panic!("no document for {url}"))
}

/// Checks the Dolma fields of every document.
fn assert_dolma(docs: &[Value], warc_file: &str) {
    assert!(!docs.is_empty());
    for d in docs {
        let obj = d.as_object().unwrap();
        let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        for k in ["id", "text", "source", "created", "metadata"] {
            assert!(keys.contains(&k), "missing {k}: {d}");
        }
        let id = d["id"].as_str().unwrap();
        assert!(id.starts_with("<urn:uuid:") && id.ends_with('>'), "{id}");
        assert!(!text(d).trim().is_empty(), "empty text: {d}");
        assert_eq!(d["source"], "outward");
        let created = d["created"].as_str().unwrap();
        assert!(
            created.starts_with("2024-05-") && created.ends_with('Z'),
            "{created}"
        );
        let m = &d["metadata"];
        assert_eq!(m["warc_file"], warc_file);
        assert!(m["warc_offset"].is_u64());
        let parsed = m["nodes_parsed"].as_u64().unwrap();
        let total = m["nodes_total"].as_u64().unwrap();
        assert!(
            parsed <= total,
            "nodes_parsed {parsed} > nodes_total {total}"
        );
        assert_eq!(
            m["text_chars"].as_u64().unwrap(),
            text(d).chars().count() as u64
        );
        assert!(m["charset"].is_string() && m["charset_source"].is_string());
        assert!(m["url"].as_str().unwrap().starts_with("http"));
    }
    // Ids are unique.
    let mut ids: Vec<&str> = docs.iter().map(|d| d["id"].as_str().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), docs.len());
}

/// Runs the sample once per test (each test gets its own output directory).
fn run_sample(method: &str) -> (tempfile::TempDir, Vec<Value>, Output) {
    let dir = tempfile::tempdir().unwrap();
    let out = run_into(
        dir.path(),
        &["--method", method, "--threads", "2"],
        &[&sample()],
        0,
    );
    let docs = docs(&dir.path().join("sample.jsonl.zst"));
    (dir, docs, out)
}

#[test]
fn golden_fulltext_sample() {
    let (dir, docs, out) = run_sample("fulltext");
    let shard = shard_bytes(&dir.path().join("sample.jsonl.zst"));
    testkit::bless_or_compare(&testdata().join("golden/sample.fulltext.jsonl"), &shard);
    assert_dolma(&docs, "sample.warc.gz");
    assert!(
        docs.iter()
            .all(|d| d["metadata"]["extractor"] == "fulltext")
    );
    // 11 HTML 200 responses + 1 HTML resource; the 404, png, revisit, requests, metadata and
    // warcinfo are skipped.
    assert_eq!(docs.len(), 12, "{}", stdout(&out));
    let m = manifest(dir.path());
    let e = &m["sample.jsonl.zst"];
    assert_eq!(e["status"], "complete");
    assert_eq!(e["counts"]["records"], 31);
    assert_eq!(e["counts"]["written"], 12);
    assert_eq!(e["counts"]["skipped"]["status"], 1);
    assert_eq!(e["counts"]["skipped"]["revisit"], 1);
    assert_eq!(e["counts"]["skipped"]["not_html"], 1);
    // warcinfo + 14 requests + metadata
    assert_eq!(e["counts"]["skipped"]["other_type"], 16);
    // Documents come in file order.
    let urls: Vec<&str> = docs
        .iter()
        .map(|d| d["metadata"]["url"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = testkit::SAMPLE_PAGES
        .iter()
        .filter(|p| p.status == 200)
        .map(|p| p.uri)
        .collect();
    assert_eq!(urls, expected);
    // Boilerplate-free bits that any method must keep: the title.
    let title = by_url(&docs, testkit::SAMPLE_PAGES[0].uri)["metadata"]["title"]
        .as_str()
        .unwrap();
    assert!(
        title.starts_with("Council backs tidal barrier after four-hour debate"),
        "{title}"
    );
}

#[test]
fn sample_is_valid_dolma_for_every_method() {
    for method in ["reverse", "paper"] {
        let (_dir, docs, _) = run_sample(method);
        assert_dolma(&docs, "sample.warc.gz");
        assert!(docs.iter().all(|d| d["metadata"]["extractor"] == method));
        // The main text of the news article survives any extraction method ...
        let news = by_url(&docs, testkit::SAMPLE_PAGES[0].uri);
        assert!(
            text(news).contains("The Harbour Council voted nine to four on Thursday night"),
            "{method}: {}",
            text(news)
        );
        // ... and the main-text methods drop the cookie banner that fulltext keeps.
        assert!(
            !text(news).contains("We use cookies"),
            "{method}: {}",
            text(news)
        );
    }
    // The default method is reverse-stage.
    let dir = tempfile::tempdir().unwrap();
    run_into(dir.path(), &[], &[&sample()], 0);
    let d = docs(&dir.path().join("sample.jsonl.zst"));
    assert!(
        d.iter()
            .all(|d| d["metadata"]["extractor"] == "reverse-stage")
    );
}

#[test]
fn charsets_end_to_end() {
    let (_dir, docs, _) = run_sample("fulltext");
    let cases = [
        // (url, phrase, charset, charset_source)
        (
            "http://www.example.com.cn/local/tea-harvest.htm",
            "今年春茶的采摘比往年提前了十天",
            "GBK",
            "detected",
        ),
        (
            "http://www.example.co.jp/column/2024/kamakura-walk.html",
            "鎌倉の古い寺を歩いて回ることにした",
            "Shift_JIS",
            "meta",
        ),
        (
            "http://www.example.com.tw/travel/tainan-food.html",
            "台南的牛肉湯店已經坐滿了客人",
            "Big5",
            "meta",
        ),
        (
            "http://www.example.fr/cuisine/tarte-aux-pommes.html",
            "deux cuillerées de crème fraîche épaisse",
            "windows-1252",
            "detected",
        ),
        (
            "https://news.example.cn/society/2024-05/17/riverside-library.html",
            "滨江图书馆昨天正式向市民开放",
            "UTF-8",
            "utf8_valid",
        ),
    ];
    for (url, phrase, charset, source) in cases {
        let d = by_url(&docs, url);
        assert!(
            text(d).contains(phrase),
            "{url}: {phrase} not in {:?}",
            text(d)
        );
        assert!(
            !text(d).contains('\u{FFFD}'),
            "{url}: replacement characters"
        );
        assert_eq!(d["metadata"]["charset"], charset, "{url}");
        assert_eq!(d["metadata"]["charset_source"], source, "{url}");
    }
    // The mislabelled page's curly apostrophe is U+2019, not a replacement character.
    let fr = by_url(&docs, "http://www.example.fr/cuisine/tarte-aux-pommes.html");
    assert!(text(fr).contains("qu’on se transmet"));
}

#[test]
fn content_codings_decode_end_to_end() {
    let (_dir, docs, _) = run_sample("fulltext");
    let cases = [
        // chunked + gzip
        (
            "https://slowbread.example/blog/rye-starter-in-winter",
            "My rye starter sulks every January.",
        ),
        // br
        (
            "https://news.example.cn/society/2024-05/17/riverside-library.html",
            "首日接待读者超过八千人次",
        ),
        // gzip
        (
            "https://shop.example.com/p/trail-runner-kettle-1-2l",
            "boils 1.2 litres of water on a small gas stove",
        ),
        // deflate
        (
            "https://forum.example.org/t/bike-chain-keeps-slipping/48213",
            "It was the lockring.",
        ),
        // chunked only
        (
            "https://kitchen.example.org/recipes/lentil-soup",
            "Rinse the red lentils until the water runs clear.",
        ),
        // resource record
        (
            "https://harbourgazette.example/about.html",
            "The Harbour Gazette has been published since 1887",
        ),
    ];
    for (url, phrase) in cases {
        let d = by_url(&docs, url);
        assert!(text(d).contains(phrase), "{url}: {:?}", text(d));
    }
    // fulltext drops scripts and styles.
    for d in &docs {
        assert!(!text(d).contains("gtag("), "{}", d["metadata"]["url"]);
        assert!(!text(d).contains("line-height"), "{}", d["metadata"]["url"]);
    }
}

#[test]
fn output_options_are_wired() {
    let tmp = tempfile::tempdir().unwrap();
    // --max-record-bytes 4000: the news article (4.7 KB stored) and the blog (6.3 KB once
    // de-chunked and gunzipped) are too big; the other ten pages are under 4000 bytes.
    let capped = tmp.path().join("capped");
    run_into(
        &capped,
        &["--method", "fulltext", "--max-record-bytes", "4000"],
        &[&sample()],
        0,
    );
    let e = &manifest(&capped)["sample.jsonl.zst"];
    assert_eq!(e["counts"]["skipped"]["too_big"], 2, "{e}");
    assert_eq!(e["counts"]["written"], 10);
    let d = docs(&capped.join("sample.jsonl.zst"));
    assert!(
        d.iter()
            .all(|d| d["metadata"]["url"] != testkit::SAMPLE_PAGES[0].uri)
    );

    // Work budgets: the pages with more nodes, deeper nesting or more extraction work than
    // allowed are counted skips (over_budget, logged with their record id and what they
    // asked), the others written as without a budget; a budget is part of the config.
    let unbudgeted = tmp.path().join("unbudgeted");
    run_into(&unbudgeted, &["--method", "fulltext"], &[&sample()], 0);
    let all = docs(&unbudgeted.join("sample.jsonl.zst"));
    for (flag, value) in [
        ("--max-nodes", "200"),
        ("--max-depth", "8"),
        ("--max-work", "2000"),
    ] {
        let dir = tmp.path().join(&flag[2..]);
        let out = run_into(
            &dir,
            &["--method", "fulltext", flag, value],
            &[&sample()],
            0,
        );
        let e = &manifest(&dir)["sample.jsonl.zst"];
        let over = e["counts"]["skipped"]["over_budget"].as_u64().unwrap_or(0);
        assert!(over >= 1, "{flag}: {e}");
        assert_eq!(e["counts"]["written"].as_u64().unwrap() + over, 12, "{e}");
        let kept = docs(&dir.join("sample.jsonl.zst"));
        for d in &kept {
            assert!(all.contains(d), "{flag}: {d}");
        }
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(
            log.contains("over_budget") && log.contains(flag),
            "{}",
            describe(&out)
        );
        assert_ne!(
            e["config_hash"],
            manifest(&unbudgeted)["sample.jsonl.zst"]["config_hash"]
        );
    }

    // --zstd-level changes the shard bytes but not the documents.
    let (l1, l19) = (tmp.path().join("l1"), tmp.path().join("l19"));
    run_into(
        &l1,
        &["--method", "fulltext", "--zstd-level", "1"],
        &[&sample()],
        0,
    );
    run_into(
        &l19,
        &["--method", "fulltext", "--zstd-level", "19"],
        &[&sample()],
        0,
    );
    assert_eq!(
        shard_bytes(&l1.join("sample.jsonl.zst")),
        shard_bytes(&l19.join("sample.jsonl.zst"))
    );
    assert_ne!(
        manifest(&l1)["sample.jsonl.zst"]["config_hash"],
        manifest(&l19)["sample.jsonl.zst"]["config_hash"]
    );
    // --similarity is read by `paper` only: for `paper` another value reprocesses; for
    // `reverse`, which ignores it, the input stays done (it used to reprocess everything).
    let sim = tmp.path().join("sim");
    let paper = |value| ["--method", "paper", "--similarity", value];
    run_into(&sim, &paper("0.8"), &[&sample()], 0);
    let same = run_into(&sim, &paper("0.8"), &[&sample()], 0);
    assert!(stdout(&same).contains("1 unchanged"), "{}", stdout(&same));
    let other = run_into(&sim, &paper("0.5"), &[&sample()], 0);
    assert!(stdout(&other).contains("1 rewritten"), "{}", stdout(&other));
    let reverse = tmp.path().join("sim-reverse");
    run_into(&reverse, &["--similarity", "0.8"], &[&sample()], 0);
    let ignored = run_into(&reverse, &["--similarity", "0.5"], &[&sample()], 0);
    assert!(
        stdout(&ignored).contains("1 unchanged"),
        "{}",
        stdout(&ignored)
    );
}

#[test]
fn markdown_run_differs_only_in_text() {
    let tmp = tempfile::tempdir().unwrap();
    let (text_dir, md_dir) = (tmp.path().join("text"), tmp.path().join("md"));
    run_into(&text_dir, &[], &[&sample()], 0);
    run_into(&md_dir, &["--format", "markdown"], &[&sample()], 0);
    let (plain, md) = (
        docs(&text_dir.join("sample.jsonl.zst")),
        docs(&md_dir.join("sample.jsonl.zst")),
    );
    assert_eq!(plain.len(), md.len());
    let mut structured = 0;
    for (p, m) in plain.iter().zip(&md) {
        assert_eq!(p["id"], m["id"]);
        assert_eq!(p["metadata"]["nodes_parsed"], m["metadata"]["nodes_parsed"]);
        structured += usize::from(text(m).contains("\n\n"));
    }
    assert!(
        structured > plain.len() / 2,
        "{structured} of {}",
        plain.len()
    );
    // The format is part of the output's identity: switching reprocesses.
    assert_ne!(
        manifest(&text_dir)["sample.jsonl.zst"]["config_hash"],
        manifest(&md_dir)["sample.jsonl.zst"]["config_hash"]
    );
}

/// Reads a WET file with warcio: one JSON line per record with its type, headers, text and
/// whether the block digest verifies.
const WARCIO_READ: &str = r#"
import base64, hashlib, json, sys
from warcio.archiveiterator import ArchiveIterator
with open(sys.argv[1], "rb") as f:
    for rec in ArchiveIterator(f):
        body = rec.content_stream().read()
        h = rec.rec_headers
        digest = "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode()
        print(json.dumps({
            "type": rec.rec_type,
            "id": h.get_header("WARC-Record-ID"),
            "refers_to": h.get_header("WARC-Refers-To"),
            "uri": h.get_header("WARC-Target-URI"),
            "date": h.get_header("WARC-Date"),
            "content_type": h.get_header("Content-Type"),
            "digest_ok": h.get_header("WARC-Block-Digest") in (None, digest),
            "payload_digest_ok": h.get_header("WARC-Payload-Digest") in (None, digest),
            "language": h.get_header("WARC-Identified-Content-Language"),
            "text": body.decode("utf-8"),
        }))
"#;

#[test]
fn wet_output_holds_the_same_documents_and_reads_with_warcio() {
    let tmp = tempfile::tempdir().unwrap();
    let (dolma, wet) = (tmp.path().join("dolma"), tmp.path().join("wet"));
    run_into(&dolma, &[], &[&sample()], 0);
    run_into(&wet, &["--output-format", "wet"], &[&sample()], 0);
    let docs = docs(&dolma.join("sample.jsonl.zst"));
    let wet_file = wet.join("sample.warc.wet.gz");
    let entry = &manifest(&wet)["sample.warc.wet.gz"];
    assert_eq!(entry["status"], "complete");
    assert_eq!(entry["counts"]["written"], docs.len());
    assert_ne!(
        entry["config_hash"],
        manifest(&dolma)["sample.jsonl.zst"]["config_hash"]
    );
    // A rerun finds the WET output complete and leaves it alone.
    let again = run_into(&wet, &["--output-format", "wet"], &[&sample()], 0);
    assert!(stdout(&again).contains("1 unchanged"), "{}", stdout(&again));
    // Every record is its own gzip member: as many members as documents + the warcinfo.
    let bytes = std::fs::read(&wet_file).unwrap();
    let members = bytes
        .windows(3)
        .filter(|w| *w == [0x1f, 0x8b, 0x08])
        .count();
    assert!(members > docs.len(), "{members} gzip headers");

    let Some(python) = outward_testkit::python_with("warcio") else {
        return;
    };
    let out = Command::new(python)
        .args(["-c", WARCIO_READ])
        .arg(&wet_file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let records: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), docs.len() + 1);
    assert_eq!(records[0]["type"], "warcinfo");
    assert_eq!(records[0]["date"], docs[0]["created"]);
    for (record, doc) in records[1..].iter().zip(&docs) {
        assert_eq!(record["type"], "conversion");
        assert_eq!(record["refers_to"], doc["id"]);
        assert_eq!(record["uri"], doc["metadata"]["url"]);
        assert_eq!(record["date"], doc["created"]);
        assert_eq!(record["content_type"], "text/plain");
        assert_eq!(record["digest_ok"], true, "{record}");
        assert_eq!(record["payload_digest_ok"], true, "{record}");
        // The language as Common Crawl writes it: ISO 639-3 (`eng`, `zho`), naming the
        // document's own.
        match doc["metadata"]["language"].as_str() {
            Some(code) => {
                let three = record["language"].as_str().expect("a language header");
                assert!(three.len() == 3 && three != code, "{record}");
                assert_eq!(outward_lang::language_code(three), Some(code), "{record}");
            }
            None => assert!(record["language"].is_null(), "{record}"),
        }
        // warcio hands back the block; the record ends with CRLF CRLF after it.
        assert_eq!(record["text"], doc["text"]);
        assert_ne!(record["id"], doc["id"]);
    }
}

/// The documents of a Parquet file, as their Dolma lines.
fn parquet_rows(path: &std::path::Path) -> Vec<Value> {
    let mut rows = Vec::new();
    parquet::read_documents(path, &mut |row| rows.push(row)).unwrap();
    rows
}

#[test]
fn parquet_output_holds_the_dolma_documents_field_for_field() {
    let tmp = tempfile::tempdir().unwrap();
    for signals in [false, true] {
        let flags: &[&str] = if signals { &["--signals"] } else { &[] };
        let (dolma, parquet) = (tmp.path().join("dolma"), tmp.path().join("parquet"));
        run_into(&dolma, &[&["--force"], flags].concat(), &[&sample()], 0);
        let parquet_flags = [&["--force", "--output-format", "parquet"], flags].concat();
        run_into(&parquet, &parquet_flags, &[&sample()], 0);
        let docs = docs(&dolma.join("sample.jsonl.zst"));
        let file = parquet.join("sample.parquet");
        let entry = &manifest(&parquet)["sample.parquet"];
        assert_eq!(entry["status"], "complete");
        assert_eq!(entry["counts"]["written"], docs.len());
        assert_eq!(
            entry["output_bytes"],
            std::fs::metadata(&file).unwrap().len()
        );
        // Every field of every document, typed as in the JSON line (numbers stay numbers;
        // ratios keep their 4 decimals), in the same order.
        let rows = parquet_rows(&file);
        assert_eq!(rows.len(), docs.len());
        for (row, doc) in rows.iter().zip(&docs) {
            assert_eq!(row, &parquet::without_nulls(doc.clone()));
            assert_eq!(row["metadata"].get("signals").is_some(), signals, "{row}");
        }
        // The same bytes whatever the thread count; a rerun leaves the file alone.
        let one = tmp.path().join("one-thread");
        run_into(
            &one,
            &[&parquet_flags[..], &["--threads", "1"]].concat(),
            &[&sample()],
            0,
        );
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(std::fs::read(one.join("sample.parquet")).unwrap(), bytes);
        let again = run_into(&parquet, &parquet_flags[1..], &[&sample()], 0);
        assert!(stdout(&again).contains("1 unchanged"), "{}", stdout(&again));
        assert_eq!(std::fs::read(&file).unwrap(), bytes);
    }
}
