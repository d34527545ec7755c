//! End-to-end tests of the page and record metadata (#9): the keys a run adds, the filters
//! `--min-chars` and `--lang` as counted skips, and the text bytes they must leave alone.

use crate::common::{describe, docs, manifest_lines, run, run_into, sample, testdata};
use outward::DocFilters;
use outward::worker::{PageOutcome, process_page};
use outward_core::{ExtractOptions, Format, methods};
use outward_warc::decode::DecodeOptions;
use outward_warc::reader::RawPage;
use serde_json::Value;
use std::process::Output;

/// `outward run --threads 2 [extra...]` on the sample: its documents, its manifest line.
fn run_sample(extra: &[&str]) -> (tempfile::TempDir, Vec<Value>, Value, Output) {
    let dir = tempfile::tempdir().unwrap();
    let extra = [&["--threads", "2"], extra].concat();
    let out = run_into(dir.path(), &extra, &[&sample()], 0);
    let docs = docs(&dir.path().join("sample.jsonl.zst"));
    let entry = manifest_lines(dir.path()).swap_remove(0);
    (dir, docs, entry, out)
}

/// The text of every document is what it was before metadata was added: the ids and texts
/// of a `reverse` run on the sample (the default then), recorded from the build before
/// this change.
#[test]
fn text_bytes_are_unchanged() {
    let (_dir, docs, _, _) = run_sample(&["--method", "reverse"]);
    let golden =
        std::fs::read_to_string(testdata().join("golden/sample.reverse.texts.jsonl")).unwrap();
    let want: Vec<Value> = golden
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), want.len());
    for (doc, want) in docs.iter().zip(&want) {
        assert_eq!(doc["id"], want["id"]);
        assert_eq!(doc["text"], want["text"], "{}", want["id"]);
    }
}

#[test]
fn metadata_keys_are_present_or_absent() {
    let (_dir, docs, _, _) = run_sample(&[]);
    for d in &docs {
        let m = d["metadata"].as_object().unwrap();
        for (k, v) in m {
            assert!(v.as_str() != Some(""), "{k} is empty in {d}");
        }
        for k in [
            "description",
            "author",
            "date_published",
            "site_name",
            "canonical_url",
            "html_lang",
            "language",
            "language_score",
            "http_status",
            "last_modified",
        ] {
            assert!(m.get(k).is_none_or(|v| !v.is_null()), "{k} is null in {d}");
        }
        assert_eq!(m.contains_key("language"), m.contains_key("language_score"));
        if let Some(score) = m.get("language_score") {
            assert!((0.0..=1.0).contains(&score.as_f64().unwrap()));
        }
    }
    let with = |k: &str| {
        docs.iter()
            .filter(|d| d["metadata"].get(k).is_some())
            .count()
    };
    // Every sample page is in a language the identifier knows; the 11 responses have a status,
    // the one `resource` record has none.
    assert_eq!(with("language"), docs.len());
    assert_eq!(with("http_status"), docs.len() - 1);
    assert!(with("html_lang") > 0 && with("description") > 0);
    let zh = docs
        .iter()
        .find(|d| d["metadata"]["language"] == "zh")
        .expect("the Chinese page");
    assert_eq!(zh["metadata"]["title"], "滨江图书馆正式开放 市民排队入馆");
}

#[test]
fn min_chars_and_lang_are_counted_skips() {
    let (_dir, all, base, _) = run_sample(&[]);
    let chars: Vec<u64> = all
        .iter()
        .map(|d| d["metadata"]["text_chars"].as_u64().unwrap())
        .collect();
    let min = 400;
    let short = chars.iter().filter(|&&c| c < min).count() as u64;
    assert!(short > 0 && short < all.len() as u64, "{chars:?}");
    let written = all.len() as u64;

    let (_dir, docs, entry, out) = run_sample(&["--min-chars", &min.to_string()]);
    assert_eq!(docs.len() as u64, written - short);
    assert!(
        docs.iter()
            .all(|d| d["metadata"]["text_chars"].as_u64().unwrap() >= min)
    );
    assert_eq!(entry["counts"]["skipped"]["too_short"], short);
    assert_eq!(entry["counts"]["written"], written - short);
    assert_ne!(entry["config_hash"], base["config_hash"]);
    let summary =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains(&format!("too_short {short}")), "{summary}");

    let not_en = all
        .iter()
        .filter(|d| d["metadata"]["language"] != "en")
        .count() as u64;
    assert!(not_en > 0);
    let (_dir, docs, entry, out) = run_sample(&["--lang", "EN"]);
    assert!(docs.iter().all(|d| d["metadata"]["language"] == "en"));
    assert_eq!(entry["counts"]["skipped"]["language"], not_en);
    assert_eq!(entry["counts"]["written"], written - not_en);
    let summary =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains(&format!("language {not_en}")), "{summary}");

    // ISO 639-3, as Common Crawl writes it, is the same filter (and the same config hash).
    let (_dir, docs3, entry3, _) = run_sample(&["--lang", "eng"]);
    assert_eq!(docs3, docs);
    assert_eq!(entry3["config_hash"], entry["config_hash"]);

    let (_dir, docs, entry, _) = run_sample(&["--lang", "en,zh"]);
    let zh = all
        .iter()
        .filter(|d| d["metadata"]["language"] == "zh")
        .count() as u64;
    assert!(zh > 0);
    assert_eq!(docs.len() as u64, written - not_en + zh);
    assert_eq!(entry["counts"]["skipped"]["language"], not_en - zh);
}

#[test]
fn extract_json_has_page_metadata_and_no_warc_keys() {
    let out = run(&[
        "extract".as_ref(),
        "--json".as_ref(),
        testdata().join("pages/product.html").as_os_str(),
    ]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["metadata"];
    assert!(
        m.get("warc_file").is_none() && m.get("warc_offset").is_none(),
        "{m}"
    );
    assert!(m.get("http_status").is_none());
    assert_eq!(m["title"], "Trail Runner Kettle 1.2 L – Outdoor Kitchen");
    assert_eq!(m["html_lang"], "en");
    assert_eq!(m["language"], "en");
}

#[test]
fn record_metadata_comes_from_the_http_head() {
    let html = "<html lang=fr><head><title>Le pont | Journal</title></head><body><article><p>\
        Le conseil municipal a décidé mardi de reconstruire le vieux pont sur la rivière avant \
        l'hiver, après des mois de débat.</p></article></body></html>";
    let page = |headers: Vec<(String, String)>, status| RawPage {
        record_id: "<urn:uuid:x>".into(),
        target_uri: Some("https://example.fr/pont".into()),
        date: None,
        offset: 7,
        payload_digest: None,
        content_type: Some("text/html; charset=utf-8".into()),
        http_status: status,
        http_headers: headers,
        body: html.as_bytes().to_vec(),
    };
    let extractor = methods::build("fulltext", &ExtractOptions::default()).unwrap();
    let options = DecodeOptions {
        max_decoded_bytes: 1 << 20,
    };
    let headers = vec![
        ("Content-Type".into(), "text/html; charset=utf-8".into()),
        (
            "last-modified".into(),
            " Tue, 05 Mar 2024 10:00:00 GMT ".into(),
        ),
    ];
    let (PageOutcome::Doc(doc), _) = process_page(
        page(headers, Some(200)),
        "in.warc.gz",
        &*extractor,
        None,
        &options,
        Format::Text,
        &DocFilters::default(),
    ) else {
        panic!("no document");
    };
    let m = &doc.metadata;
    assert_eq!(m.http_status, Some(200));
    assert_eq!(
        m.last_modified.as_deref(),
        Some("Tue, 05 Mar 2024 10:00:00 GMT")
    );
    assert_eq!(m.warc_file.as_deref(), Some("in.warc.gz"));
    assert_eq!(m.warc_offset, Some(7));
    assert_eq!(m.title.as_deref(), Some("Le pont"));
    assert_eq!(m.html_lang.as_deref(), Some("fr"));
    assert_eq!(m.language.as_deref(), Some("fr"));
    // A resource record: no HTTP head, no status, no Last-Modified.
    let (PageOutcome::Doc(doc), _) = process_page(
        page(Vec::new(), None),
        "in.warc.gz",
        &*extractor,
        None,
        &options,
        Format::Text,
        &DocFilters {
            languages: vec!["fr".into()],
            ..DocFilters::default()
        },
    ) else {
        panic!("no document");
    };
    assert_eq!(doc.metadata.http_status, None);
    assert_eq!(doc.metadata.last_modified, None);
    // The same page filtered to German is a counted skip.
    let (PageOutcome::Skip(skip), _) = process_page(
        page(Vec::new(), None),
        "in.warc.gz",
        &*extractor,
        None,
        &options,
        Format::Text,
        &DocFilters {
            languages: vec!["de".into()],
            ..DocFilters::default()
        },
    ) else {
        panic!("not skipped");
    };
    assert_eq!(skip.reason, outward_base::counts::SkipReason::Language);
}

/// A language code the identifier never gives (`xx`, a typo, a name) would filter out every
/// document and exit 0 with an empty corpus: it is a usage error naming the code and the
/// accepted ones, before anything is read or written.
#[test]
fn an_unknown_language_code_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    for bad in ["xx", "en,english"] {
        let out = run(&[
            "run".as_ref(),
            "--lang".as_ref(),
            bad.as_ref(),
            "-o".as_ref(),
            out_dir.as_os_str(),
            sample().as_os_str(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        let named = bad.rsplit(',').next().unwrap();
        assert!(
            err.contains(&format!("unknown language code \"{named}\"")),
            "{err}"
        );
        assert!(err.contains("en, eo, es"), "{err}");
        assert!(!out_dir.join("manifest.jsonl").exists());
    }
}
