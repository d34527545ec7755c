//! Cross-checks `outward_eval` against the reference scorer `../shared/eval/score.py`, run
//! with python3 as a subprocess. Every test skips (with a note) when `../shared` or python3
//! is absent.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use outward_eval::{
    DatasetReport, DocOutcome, TruthSet, for_each_token, normalize, render_json, render_table,
    score, snippet_norm, tokenize,
};
use serde_json::Value;

/// `../shared` when its scorer and dev data are there (see `outward_testkit::shared_data`)
/// and python3 runs.
fn shared() -> Option<PathBuf> {
    let score = outward_testkit::shared_data("eval/score.py")?;
    outward_testkit::shared_data("data/dev")?;
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("note: python3 absent; skipping");
        return None;
    }
    Some(score.parent()?.parent()?.to_path_buf())
}

fn truth_files(shared: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(shared.join("data/dev"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".truth.jsonl"))
        .collect();
    v.sort();
    v
}

fn python(script: &str, args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("python output is UTF-8")
}

/// Every code point (surrogates excepted), alone and in three contexts (inside a Latin word;
/// after a final-sigma candidate; between sigma and a cased letter), tokenizes as score.py
/// does. Checks the generated tables, NFKC, lowercasing and the final-sigma rule per char.
#[test]
fn every_code_point_matches_score_py() {
    let Some(shared) = shared() else { return };
    let script = r#"
import sys
sys.path.insert(0, sys.argv[1]); import score
out = []
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF: continue
    c = chr(cp)
    out.append("\t".join("\x1f".join(score.tokenize(p)) for p in (c, "a"+c+"b", "ΑΣ"+c, "ΑΣ"+c+"Α")))
sys.stdout.write("\n".join(out) + "\n")
"#;
    let py = python(script, &[shared.join("eval").to_str().unwrap()]);
    let mut lines = py.lines();
    let (mut checked, mut bad) = (0usize, Vec::new());
    for cp in (0u32..0x110000).filter(|cp| !(0xD800..=0xDFFF).contains(cp)) {
        let c = char::from_u32(cp).unwrap();
        let ours = [
            c.to_string(),
            format!("a{c}b"),
            format!("ΑΣ{c}"),
            format!("ΑΣ{c}Α"),
        ]
        .iter()
        .map(|p| tokenize(p).join("\x1f"))
        .collect::<Vec<_>>()
        .join("\t");
        let theirs = lines.next().expect("python line per code point");
        if ours != theirs {
            bad.push(format!("U+{cp:04X}: ours {ours:?} python {theirs:?}"));
        }
        checked += 1;
    }
    eprintln!("code points checked: {checked}, mismatches: {}", bad.len());
    assert!(
        bad.is_empty(),
        "{} mismatches, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

/// Every truth text and every snippet of every dev dataset tokenizes to the same token
/// sequence (hence the same multiset and the same snippet string) as score.py's.
#[test]
fn every_dev_truth_text_matches_score_py() {
    let Some(shared) = shared() else { return };
    let files = truth_files(&shared);
    let script = r#"
import json, sys
sys.path.insert(0, sys.argv[1]); import score
out = sys.stdout
for path in sys.argv[2:]:
    for rec in score.read_jsonl(path):
        texts = [rec.get("truth") or ""] + list(rec.get("with", [])) + list(rec.get("without", []))
        for t in texts:
            out.write(json.dumps(score.tokenize(t), ensure_ascii=False) + "\n")
"#;
    let mut args = vec![shared.join("eval").to_str().unwrap().to_owned()];
    args.extend(files.iter().map(|p| p.to_str().unwrap().to_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let py = python(script, &args);
    let mut lines = py.lines();
    let (mut texts, mut tokens, mut docs) = (0usize, 0usize, 0usize);
    let mut bad = Vec::new();
    for f in &files {
        let set = TruthSet::load(f).unwrap();
        for rec in &set.records {
            docs += 1;
            let all = std::iter::once(&rec.truth)
                .chain(&rec.with)
                .chain(&rec.without);
            for t in all {
                let theirs: Vec<String> =
                    serde_json::from_str(lines.next().expect("python line per text")).unwrap();
                let ours = tokenize(t);
                // The allocation-light path must agree with `tokenize`.
                let norm = normalize(t);
                let mut n = 0;
                for_each_token(&norm, |_| n += 1);
                assert_eq!(n, ours.len());
                assert_eq!(snippet_norm(t), ours.join(" "));
                texts += 1;
                tokens += theirs.len();
                if ours != theirs {
                    bad.push(format!("{} {}: text {:.80?}", set.name, rec.id, t));
                }
            }
        }
    }
    assert!(lines.next().is_none(), "python produced more lines");
    eprintln!(
        "dev truth: {} files, {docs} records, {texts} texts, {tokens} tokens; mismatching texts: {}",
        files.len(),
        bad.len()
    );
    assert!(docs > 4000, "expected the full dev set, got {docs} records");
    assert!(bad.is_empty(), "{:#?}", &bad[..bad.len().min(20)]);
}

/// Non-trivial predictions for a truth set: some missing, some empty, the rest half the doc's
/// own truth plus a quarter of the next doc's (and a must-exclude snippet now and then).
fn make_predictions(set: &TruthSet) -> Vec<(usize, String)> {
    let n = set.records.len();
    let mut out = Vec::new();
    for (i, rec) in set.records.iter().enumerate() {
        match i % 7 {
            0 => continue, // missing
            1 => {
                out.push((i, String::new())); // empty
                continue;
            }
            _ => {}
        }
        let own: Vec<char> = rec.truth.chars().collect();
        let next: Vec<char> = set.records[(i + 1) % n].truth.chars().collect();
        let mut text: String = own[..own.len() / 2].iter().collect();
        text.push('\n');
        text.extend(&next[..next.len() / 4]);
        if let Some(s) = rec.without.first().filter(|_| i % 3 == 0) {
            text.push(' ');
            text.push_str(s);
        }
        if i % 5 == 0 {
            for s in &rec.with {
                text.push(' ');
                text.push_str(s);
            }
        }
        out.push((i, text));
    }
    out
}

fn close(a: f64, b: &Value, what: &str) {
    let b = b
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: python gave {b}"));
    assert!((a - b).abs() <= 1e-9, "{what}: ours {a} python {b}");
}

fn check_summary(ours: &outward_eval::Summary, theirs: &Value, what: &str, with_missing: bool) {
    assert_eq!(ours.n as u64, theirs["n"].as_u64().unwrap(), "{what} n");
    close(ours.p.unwrap(), &theirs["P"], &format!("{what} P"));
    close(ours.r.unwrap(), &theirs["R"], &format!("{what} R"));
    close(ours.f1.unwrap(), &theirs["F1"], &format!("{what} F1"));
    assert_eq!(
        ours.empty_pred as u64,
        theirs["empty_pred"].as_u64().unwrap(),
        "{what} empty_pred"
    );
    assert_eq!(
        ours.empty_truth as u64,
        theirs["empty_truth"].as_u64().unwrap(),
        "{what} empty_truth"
    );
    if with_missing {
        assert_eq!(
            ours.missing as u64,
            theirs["missing"].as_u64().unwrap(),
            "{what} missing"
        );
    }
}

/// Per-dataset, per-language, overall and per-document P/R/F1 equal score.py's on
/// constructed predictions for a snippets set, cwced_zh and two multi-language sets.
#[test]
fn scores_match_score_py() {
    let Some(shared) = shared() else { return };
    let dir = tempfile::tempdir().unwrap();
    let names = ["cwced_zh", "trafilatura_eval", "readability", "htmltotext"];
    let mut reports: Vec<DatasetReport> = Vec::new();
    let mut cmd = Command::new("python3");
    cmd.arg(shared.join("eval/score.py"));
    for name in names {
        let tpath = shared.join(format!("data/dev/{name}.truth.jsonl"));
        let set = TruthSet::load(&tpath).unwrap();
        assert_eq!(set.name, name);
        let ids: std::collections::HashSet<_> = set.records.iter().map(|r| &r.id).collect();
        let wids: std::collections::HashSet<_> =
            set.records.iter().map(|r| &r.warc_record_id).collect();
        assert_eq!(ids.len(), set.records.len(), "{name}: duplicate ids");
        assert_eq!(wids.len(), set.records.len(), "{name}: duplicate warc ids");
        let preds = make_predictions(&set);
        let ppath = dir.path().join(format!("{name}.jsonl"));
        let mut fh = std::fs::File::create(&ppath).unwrap();
        let mut map = HashMap::new();
        for (i, text) in preds {
            let rec = &set.records[i];
            let line = serde_json::json!({"id": rec.id, "text": text});
            writeln!(fh, "{line}").unwrap();
            map.insert(rec.warc_record_id.clone(), text);
        }
        drop(fh);
        reports.push(score(&set, &map));
        cmd.arg("--truth").arg(&tpath).arg("--pred").arg(&ppath);
    }
    let per_doc = dir.path().join("perdoc.json");
    let out = cmd
        .arg("--json")
        .arg("--by-lang")
        .arg("--per-doc")
        .arg(&per_doc)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let py: Value = serde_json::from_slice(&out.stdout).unwrap();
    let py_docs: Value = serde_json::from_str(&std::fs::read_to_string(&per_doc).unwrap()).unwrap();
    let py_docs = py_docs["docs"].as_array().unwrap();
    // serde_json's float parsing is not correctly rounded: take Python's repr() strings and
    // parse them with Rust's (exact) parser to compare bits.
    let reprs = python(
        r#"
import json, sys
for d in json.load(open(sys.argv[1]))["docs"]:
    print(" ".join(repr(float(d[k])) for k in ("P", "R", "F1")) if "P" in d else "-")
"#,
        &[per_doc.to_str().unwrap()],
    );
    let reprs: Vec<&str> = reprs.lines().collect();

    let mut k = 0;
    let mut exact = 0;
    for r in &reports {
        let theirs = &py["datasets"][&r.name];
        check_summary(&r.summary, theirs, &r.name, true);
        assert!(r.summary.missing > 0 && r.summary.empty_pred > r.summary.missing);
        assert_eq!(
            r.by_lang.len(),
            theirs["by_lang"].as_object().unwrap().len()
        );
        for (lang, s) in &r.by_lang {
            check_summary(
                s,
                &theirs["by_lang"][lang],
                &format!("{} {lang}", r.name),
                false,
            );
        }
        for d in &r.docs {
            let t = &py_docs[k];
            k += 1;
            assert_eq!(t["id"].as_str().unwrap(), d.id);
            assert_eq!(t["pred_empty"].as_bool().unwrap(), d.pred_empty, "{}", d.id);
            assert_eq!(
                t["truth_empty"].as_bool().unwrap(),
                d.truth_empty,
                "{}",
                d.id
            );
            match d.outcome {
                DocOutcome::Bag(s) => {
                    let bits: Vec<f64> = reprs[k - 1]
                        .split(' ')
                        .map(|x| x.parse().unwrap())
                        .collect();
                    for (j, (ours, key)) in [(s.p, "P"), (s.r, "R"), (s.f1, "F1")]
                        .into_iter()
                        .enumerate()
                    {
                        close(ours, &t[key], &format!("{} {key}", d.id));
                        assert_eq!(ours.to_bits(), bits[j].to_bits(), "{} {key}", d.id);
                        exact += 1;
                    }
                    assert_eq!(t["pred_tokens"].as_u64().unwrap(), s.pred_tokens as u64);
                    assert_eq!(t["truth_tokens"].as_u64().unwrap(), s.truth_tokens as u64);
                }
                DocOutcome::Snippets { tp, fn_, fp } => {
                    assert_eq!(t["TP"].as_u64().unwrap(), tp as u64, "{} TP", d.id);
                    assert_eq!(t["FN"].as_u64().unwrap(), fn_ as u64, "{} FN", d.id);
                    assert_eq!(t["FP"].as_u64().unwrap(), fp as u64, "{} FP", d.id);
                }
            }
        }
        eprintln!(
            "{}: n {} P {:?} R {:?} F1 {:?} == score.py",
            r.name, r.summary.n, r.summary.p, r.summary.r, r.summary.f1
        );
    }
    assert_eq!(k, py_docs.len());
    eprintln!("per-doc bag P/R/F1 values bit-identical to score.py: {exact}");
    let ov = outward_eval::overall(&reports);
    check_summary(&ov, &py["overall"], "overall", true);
    assert!(reports[1].is_snippets() && !reports[0].is_snippets());

    let table = render_table(&reports);
    eprintln!("{table}");
    assert!(table.contains("macro over 3 bag-scored datasets: F1 "));
    assert!(table.contains("OVERALL"));
    assert!(table.contains("  lang=zh"));
    let j = render_json(&reports);
    assert_eq!(j["macro_bag_f1"]["n"], 3);
    assert_eq!(
        j["datasets"]["cwced_zh"]["n"],
        py["datasets"]["cwced_zh"]["n"]
    );
}

/// Perfect predictions on all dev data: F1 is 1 wherever the truth has tokens; also times the
/// scorer over all documents.
#[test]
fn all_dev_perfect_predictions() {
    let Some(shared) = shared() else { return };
    let sets: Vec<TruthSet> = truth_files(&shared)
        .iter()
        .map(|p| TruthSet::load(p).unwrap())
        .collect();
    let preds: Vec<HashMap<String, String>> = sets
        .iter()
        .map(|s| {
            s.records
                .iter()
                .map(|r| (r.warc_record_id.clone(), r.truth.clone()))
                .collect()
        })
        .collect();
    let (t, cpu0) = (Instant::now(), thread_cpu_ticks());
    let reports: Vec<DatasetReport> = sets.iter().zip(&preds).map(|(s, p)| score(s, p)).collect();
    let (took, cpu1) = (t.elapsed(), thread_cpu_ticks());
    let n: usize = reports.iter().map(|r| r.summary.n).sum();
    let bytes: usize = sets
        .iter()
        .flat_map(|s| &s.records)
        .map(|r| r.truth.len())
        .sum();
    let cpu = cpu0.zip(cpu1).map(|(a, b)| format!("{} ms", (b - a) * 10));
    eprintln!(
        "scored {n} dev docs ({} MB of text each side) in {took:?} wall, CPU {cpu:?}",
        bytes / 1_000_000
    );
    eprintln!("{}", render_table(&reports));
    for r in reports.iter().filter(|r| !r.is_snippets()) {
        assert_eq!(r.summary.missing, 0);
        for d in &r.docs {
            let (_, _, f) = d.prf();
            assert_eq!(f, 1.0, "{} {}", r.name, d.id);
        }
    }
}

/// User+system CPU time of this thread in clock ticks (Linux; 100 Hz assumed).
fn thread_cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

/// Bad JSON is an error naming the file and line, not a panic.
#[test]
fn bad_json_line_is_an_error_with_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.truth.jsonl");
    std::fs::write(
        &p,
        "{\"id\": 1, \"warc_record_id\": \"<urn:a>\", \"truth\": \"a\"}\n\n{oops\n",
    )
    .unwrap();
    let e = TruthSet::load(&p).unwrap_err().to_string();
    assert!(e.contains("x.truth.jsonl:3: bad JSON"), "{e}");
    std::fs::write(&p, "{\"id\": 1, \"truth\": \"a\"}\n").unwrap();
    let e = TruthSet::load(&p).unwrap_err().to_string();
    assert!(e.contains(":1: field \"warc_record_id\""), "{e}");
    std::fs::write(
        &p,
        "{\"id\": 7, \"warc_record_id\": \"w\", \"lang\": null}\n",
    )
    .unwrap();
    let set = TruthSet::load(&p).unwrap();
    assert_eq!(set.name, "x");
    assert_eq!(set.records[0].id, "7");
    let r = score(&set, &HashMap::new());
    assert_eq!(r.summary.missing, 1);
    assert_eq!(r.summary.f1, Some(1.0)); // empty truth and empty prediction
    assert!(r.by_lang.contains_key("None"));
    assert!(TruthSet::load(dir.path().join("nope.truth.jsonl")).is_err());
}
