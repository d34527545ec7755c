//! `--favor precision|recall` and `metadata.extraction_confidence` (issue #37): the side
//! joins the config hash, is refused for a method without a learned stage, and precision
//! keeps no more of the sample than the default; every `reverse-stage` document says how
//! sure it is, in 0..1, and `reverse`'s say nothing.

use crate::common::{code, describe, docs, manifest_lines, run, run_into, sample, text};

#[test]
fn favor_joins_the_config_hash_and_is_refused_without_a_stage() {
    let tmp = tempfile::tempdir().unwrap();
    let (balanced, precision) = (tmp.path().join("balanced"), tmp.path().join("precision"));
    run_into(&balanced, &[], &[&sample()], 0);
    run_into(&precision, &["--favor", "precision"], &[&sample()], 0);
    let hash = |dir| {
        manifest_lines(dir)[0]["config_hash"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_ne!(hash(&balanced), hash(&precision));
    // Balanced is the default: naming it is the same run.
    let same = tmp.path().join("same");
    run_into(&same, &["--favor", "balanced"], &[&sample()], 0);
    assert_eq!(hash(&balanced), hash(&same));
    // Precision prunes what the stage doubts more: never more text than balanced.
    let chars = |dir: &std::path::Path| -> usize {
        docs(&dir.join("sample.jsonl.zst"))
            .iter()
            .map(|d| text(d).len())
            .sum()
    };
    assert!(chars(&precision) <= chars(&balanced));
    let refused = run(&["extract", "--method", "reverse", "--favor", "recall", "-"]);
    assert_eq!(code(&refused), 2, "{}", describe(&refused));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("has none"),
        "{}",
        describe(&refused)
    );
}

#[test]
fn reverse_stage_documents_say_how_sure_they_are() {
    let tmp = tempfile::tempdir().unwrap();
    let (stage, plain) = (tmp.path().join("stage"), tmp.path().join("plain"));
    run_into(&stage, &[], &[&sample()], 0);
    run_into(&plain, &["--method", "reverse"], &[&sample()], 0);
    let stage_docs = docs(&stage.join("sample.jsonl.zst"));
    assert!(!stage_docs.is_empty());
    let mut seen = Vec::new();
    for d in &stage_docs {
        let c = d["metadata"]["extraction_confidence"]
            .as_f64()
            .unwrap_or_else(|| panic!("no confidence: {d}"));
        assert!((0.0..=1.0).contains(&c), "{c}");
        // An empty text is expected to be wrong.
        if text(d).is_empty() {
            assert_eq!(c, 0.0, "{d}");
        }
        seen.push(c);
    }
    seen.sort_by(f64::total_cmp);
    seen.dedup();
    assert!(seen.len() > 1, "one confidence for every page: {seen:?}");
    for d in docs(&plain.join("sample.jsonl.zst")) {
        assert!(d["metadata"].get("extraction_confidence").is_none(), "{d}");
    }
}
