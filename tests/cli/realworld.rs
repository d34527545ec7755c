//! Real pages, read by a person: for each page of `testdata/realworld.json` (the HTML pages of
//! the real WARC samples in `../shared/samples/real` and a dozen of the worst dev misses), a
//! few sentences that must be in the default method's text and a few that must not (banners,
//! sidebars, menus, language lists). Pages marked `"known_miss": "…why…"` are ones the method
//! still gets wrong: they must still fail (a fixed page must lose its mark, so the suite's
//! pass count stays true). Skips when `../shared` is absent (fails where CI requires it).

use crate::common::{shared_data, testdata};
use outward::{Progress, RunConfig, Silent};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Whitespace folded to single spaces, so a snippet matches across line breaks.
fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Texts of the default method's documents of `warc`, by WARC-Record-ID.
fn texts_of(warc: &Path) -> BTreeMap<String, String> {
    let config = RunConfig::new(PathBuf::new());
    let pool = outward::worker_pool(2).unwrap();
    let (texts, _) =
        outward::extract_texts(warc, &config, &pool, &Progress::default(), &Silent).unwrap();
    texts.into_iter().map(|t| (t.id, fold(&t.text))).collect()
}

/// What is wrong with the text of one case (empty when it passes).
fn problems(case: &Value, text: Option<&String>) -> Vec<String> {
    let Some(text) = text else {
        return vec!["no document".into()];
    };
    let mut out = Vec::new();
    for s in case["with"].as_array().into_iter().flatten() {
        let s = fold(s.as_str().unwrap_or_default());
        if !text.contains(&s) {
            out.push(format!("missing {s:?}"));
        }
    }
    for s in case["without"].as_array().into_iter().flatten() {
        let s = fold(s.as_str().unwrap_or_default());
        if text.contains(&s) {
            out.push(format!("has {s:?}"));
        }
    }
    out
}

#[test]
fn real_pages_yield_their_main_text() {
    let cases_path = testdata().join("realworld.json");
    let cases: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&cases_path).unwrap()).unwrap();
    assert!(cases.len() >= 5, "{} cases", cases.len());
    let mut by_warc: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for case in &cases {
        by_warc
            .entry(case["warc"].as_str().unwrap())
            .or_default()
            .push(case);
    }
    // The WARCs of the cases (`../shared/...`), all there or the suite skipped.
    let Some(warcs) = by_warc
        .keys()
        .map(|warc| shared_data(warc))
        .collect::<Option<Vec<PathBuf>>>()
    else {
        return;
    };
    let (mut passed, mut known, mut failures) = (0, 0, Vec::new());
    for ((_, cases), warc) in by_warc.into_iter().zip(warcs) {
        let texts = texts_of(&warc);
        for case in cases {
            let id = case["record_id"].as_str().unwrap();
            let found = problems(case, texts.get(id));
            let url = case["url"].as_str().unwrap_or(id);
            match (case.get("known_miss"), found.is_empty()) {
                (None, true) => passed += 1,
                (None, false) => failures.push(format!("{url}: {}", found.join("; "))),
                (Some(_), false) => known += 1,
                (Some(_), true) => {
                    failures.push(format!("{url}: passes now: remove its known_miss mark"))
                }
            }
        }
    }
    eprintln!(
        "real pages: {passed} pass, {known} known misses, {} unexpected",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
