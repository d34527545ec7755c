//! Regression floors on the real dev data (`../shared/data/dev`): accuracy of each method as
//! `outward eval` reports it, and the partial-parse fraction on dragnet. Skips (with a note)
//! when `../shared` is absent; fails instead where CI sets `OUTWARD_REQUIRE_DEV=1`.
//!
//! The floors sit just under the measured values (see the closing notes of the extractor
//! issue): a drop below them is a regression to explain, not noise.

use crate::common::{dev_warcs, docs, run, run_into, shared_data, stdout};
use serde_json::Value;
use std::path::PathBuf;

/// Runs `outward eval --json` and returns (macro F1 over bag-scored sets, F1 per dataset).
fn eval(method: &str, warcs: &[PathBuf]) -> (f64, Vec<(String, f64)>) {
    let mut args: Vec<&std::ffi::OsStr> = ["eval", "--json", "--method", method]
        .into_iter()
        .map(std::ffi::OsStr::new)
        .collect();
    args.extend(warcs.iter().map(|p| p.as_os_str()));
    let out = run(&args);
    assert!(
        out.status.success(),
        "outward eval failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("eval --json prints JSON");
    let macro_f1 = v["macro_bag_f1"]["F1"].as_f64().expect("macro_bag_f1.F1");
    let n = v["macro_bag_f1"]["n"].as_u64().expect("macro_bag_f1.n");
    assert_eq!(n, 8, "8 bag-scored dev datasets");
    let mut per = Vec::new();
    for (name, ds) in v["datasets"].as_object().expect("datasets object") {
        per.push((name.clone(), ds["F1"].as_f64().unwrap_or(0.0)));
    }
    (macro_f1, per)
}

fn f1_of(per: &[(String, f64)], name: &str) -> f64 {
    per.iter()
        .find(|(n, _)| n == name)
        .map(|(_, f)| *f)
        .unwrap_or_else(|| panic!("dataset {name} missing"))
}

#[test]
fn reverse_accuracy_floor() {
    let Some(warcs) = dev_warcs() else { return };
    let (macro_f1, per) = eval("reverse", &warcs);
    eprintln!("reverse: macro F1 {macro_f1:.4}; {per:?}");
    assert!(
        macro_f1 >= 0.825,
        "reverse macro F1 {macro_f1:.4} fell below the floor"
    );
    let zh = f1_of(&per, "cwced_zh");
    // Per-dataset floors (measured minus ~0.005), so a gain on one set cannot hide a loss on another.
    for (name, floor) in [
        ("cleaneval", 0.91),
        ("cleanportaleval", 0.93),
        ("dragnet", 0.875),
        ("htmltotext", 0.855),
        ("magic_html", 0.73),
        ("readability", 0.94),
        ("trafilatura_eval", 0.875),
        ("wcxb", 0.795),
    ] {
        let f1 = f1_of(&per, name);
        assert!(
            f1 >= floor,
            "reverse {name} F1 {f1:.4} fell below its floor {floor}"
        );
    }
    assert!(
        zh >= 0.90,
        "reverse cwced_zh F1 {zh:.4} fell below the floor"
    );
}

#[test]
fn paper_and_fulltext_floors() {
    let Some(warcs) = dev_warcs() else { return };
    let (paper, _) = eval("paper", &warcs);
    let (fulltext, _) = eval("fulltext", &warcs);
    eprintln!("paper macro F1 {paper:.4}, fulltext {fulltext:.4}");
    assert!(
        fulltext >= 0.68,
        "fulltext macro F1 {fulltext:.4} fell below the floor"
    );
    assert!(
        paper >= 0.75,
        "paper macro F1 {paper:.4} fell below the floor"
    );
}

#[test]
fn dragnet_partial_parse_fraction() {
    let Some(dragnet) = shared_data("data/dev/dragnet.warc.gz") else {
        return;
    };
    let out_dir = tempfile::tempdir().unwrap();
    run_into(out_dir.path(), &["--method", "reverse"], &[&dragnet], 0);
    let mut fractions: Vec<f64> = Vec::new();
    for doc in docs(&out_dir.path().join("dragnet.jsonl.zst")) {
        let parsed = doc["metadata"]["nodes_parsed"].as_f64().unwrap();
        let total = doc["metadata"]["nodes_total"].as_f64().unwrap();
        assert!(
            parsed <= total,
            "nodes_parsed {parsed} > nodes_total {total}"
        );
        if total > 0.0 {
            fractions.push(parsed / total);
        }
    }
    assert!(
        fractions.len() > 1300,
        "dragnet gives ~1380 documents, got {}",
        fractions.len()
    );
    fractions.sort_by(|a, b| a.total_cmp(b));
    let median = fractions[fractions.len() / 2];
    eprintln!("dragnet nodes_parsed/nodes_total median {median:.3}");
    assert!(
        median <= 0.5,
        "median parsed fraction {median:.3} above the 0.5 bar"
    );
}

#[test]
fn eval_reports_misses_and_lists_worst_pages() {
    let Some(cleanportaleval) = shared_data("data/dev/cleanportaleval.warc.gz") else {
        return;
    };
    let out = run(&[
        "eval".as_ref(),
        "--worst".as_ref(),
        "3".as_ref(),
        cleanportaleval.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("recall < 0.5 on "), "{text}");
    assert!(
        text.contains("\nworst 3 pages (F1, then recall):\n"),
        "{text}"
    );
    let records = text.lines().filter(|l| l.contains("<urn:uuid:")).count();
    assert_eq!(records, 3, "{text}");
}
