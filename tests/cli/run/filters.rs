//! `--signals`, `--filter` and `--filter-config` (#40) on the sample: the signals are in every
//! document, a filter's drops are counted under DataTrove's rule names in the manifest, the
//! settings record them, and a config naming an unknown filter or threshold is a usage error
//! before anything is written. (Agreement with DataTrove itself: python/tests.)

use super::super::common::*;

#[test]
fn signals_are_in_every_document_and_filters_count_their_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let plain = tmp.path().join("plain");
    run_into(&plain, &["--signals"], &[&sample()], 0);
    let written = docs(&plain.join("sample.jsonl.zst"));
    assert!(!written.is_empty());
    for d in &written {
        let s = &d["metadata"]["signals"];
        assert!(s["gopher_quality"]["words"].as_u64().unwrap() > 0, "{s}");
        assert!(s["would_drop"].is_object(), "{s}");
    }
    let entry = &manifest(&plain)["sample.jsonl.zst"];
    assert_eq!(entry["settings"]["--signals"], "yes");

    // A filter drops what its signals said it would, under the rule's name.
    let expected: usize = written
        .iter()
        .filter(|d| d["metadata"]["signals"]["would_drop"]["gopher-quality"].is_string())
        .count();
    let filtered = tmp.path().join("filtered");
    run_into(&filtered, &["--filter", "gopher-quality"], &[&sample()], 0);
    let entry = &manifest(&filtered)["sample.jsonl.zst"];
    let dropped: u64 = entry["counts"]["skipped"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| k.starts_with("gopher_"))
        .map(|(_, n)| n.as_u64().unwrap())
        .sum();
    assert_eq!(dropped as usize, expected, "{entry}");
    assert_eq!(
        docs(&filtered.join("sample.jsonl.zst")).len(),
        written.len() - expected
    );
    assert_eq!(entry["settings"]["--filter"], "gopher-quality");
}

#[test]
fn an_unknown_filter_or_threshold_is_a_usage_error_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("thresholds.json");
    std::fs::write(&config, r#"{"gopher-quality": {"min_doc_word": 3}}"#).unwrap();
    let out = tmp.path().join("out");
    let cfg = config.to_str().unwrap();
    let r = run_into(
        &out,
        &["--filter", "gopher-quality", "--filter-config", cfg],
        &[&sample()],
        2,
    );
    assert!(String::from_utf8_lossy(&r.stderr).contains("unknown field `min_doc_word`"));
    assert!(!out.exists());
    let r = run_into(&out, &["--filter", "gopher,c4-quality"], &[&sample()], 2);
    assert!(String::from_utf8_lossy(&r.stderr).contains("unknown filter \"gopher\""));
    std::fs::write(
        &config,
        r#"{"gopher-repetition": {"top_n_grams": [[7, 0.1]]}}"#,
    )
    .unwrap();
    let r = run_into(
        &out,
        &["--signals", "--filter-config", cfg],
        &[&sample()],
        2,
    );
    assert!(String::from_utf8_lossy(&r.stderr).contains("top_n_grams n = 7"));
    assert!(!out.exists());
}
