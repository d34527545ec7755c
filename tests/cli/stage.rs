//! End-to-end: `outward train --method reverse-stage` on generated pages (a WARC and its truth
//! file written here) whose article container also holds a "more stories" box, then
//! `outward extract --method reverse-stage --model` with the model it wrote: the box `reverse`
//! keeps is gone, the article stays; the same data gives the same model bytes. With
//! `../shared` present (skipped with a note when absent), the CI floor of issue #13: the
//! stage's leave-one-dataset-out scores on the eight bag-scored dev sets against `reverse`'s.

use crate::common::{describe, dev_warcs, run, run_in};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A news page: the story, and inside the story's container a box of teasers for other
/// stories (sentences, not links, so `reverse`'s rules keep it).
fn page(n: usize) -> (String, String) {
    let sentences: Vec<String> = (0..(6 + n % 5))
        .map(|k| {
            format!(
                "Story {n} sentence {k} tells how the river town number {} rebuilt its bridge.",
                (n * 7 + k) % 23
            )
        })
        .collect();
    let teasers: String = (0..2)
        .map(|k| format!("<p>Town {} wins the cup, again.</p>", (n + k) % 9))
        .collect();
    let html = format!(
        "<html><head><title>Story {n}</title></head><body>\
         <div class=story><h1>Story {n}</h1><p>{}</p><p>{}</p><p>{}</p>\
         <div class=more-stories><h3>More stories</h3>{teasers}</div></div></body></html>",
        sentences[..2].join(" "),
        sentences[2..4].join(" "),
        sentences[4..].join(" ")
    );
    let truth = format!(
        "Story {n}\n{}\n{}\n{}",
        sentences[..2].join(" "),
        sentences[2..4].join(" "),
        sentences[4..].join(" ")
    );
    (html, truth)
}

/// Writes `pages.warc.gz` and `pages.truth.jsonl` with `count` pages into `dir`.
fn write_fixture(dir: &Path, count: usize) -> PathBuf {
    outward_testkit::write_truth_fixture(dir, count, 17, page)
}

#[test]
fn train_the_stage_then_it_prunes_the_teaser_box() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_fixture(dir.path(), 60);
    let model = dir.path().join("stage.model");
    let train = |to: &Path| {
        run_in(
            dir.path(),
            &[
                "train",
                "--method",
                "reverse-stage",
                "-o",
                to.to_str().unwrap(),
                warc.to_str().unwrap(),
            ],
        )
    };
    let out = train(&model);
    assert!(out.status.success(), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("trees of depth") && stdout.contains("importance:"),
        "{}",
        describe(&out)
    );
    let bytes = std::fs::read(&model).unwrap();
    assert_eq!(&bytes[..5], b"OWGBT");
    // Deterministic: a second training writes the same bytes.
    let again = dir.path().join("again.model");
    assert!(train(&again).status.success());
    assert_eq!(std::fs::read(&again).unwrap(), bytes);

    // A page it has not seen: `reverse` keeps the box, the stage prunes it.
    let (html, _) = page(101);
    let html_path = dir.path().join("page.html");
    std::fs::write(&html_path, html).unwrap();
    let extract = |args: &[&str]| {
        let mut all = vec!["extract"];
        all.extend_from_slice(args);
        all.push(html_path.to_str().unwrap());
        let out = run_in(dir.path(), &all);
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let plain = extract(&["--method", "reverse"]);
    assert!(plain.contains("wins the cup"), "{plain}");
    let staged = extract(&[
        "--method",
        "reverse-stage",
        "--model",
        model.to_str().unwrap(),
    ]);
    assert!(
        staged.contains("Story 101 sentence 0 tells how")
            && staged.contains("Story 101 sentence 5 tells how"),
        "{staged}"
    );
    assert!(!staged.contains("wins the cup"), "{staged}");
    // An svm model is not a stage model.
    let svm = outward_testkit::repo_root().join("crates/outward-core/models/svm.model");
    let out = run_in(
        dir.path(),
        &[
            "extract",
            "--method",
            "reverse-stage",
            "--model",
            svm.to_str().unwrap(),
            html_path.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not an outward stage model"),
        "{}",
        describe(&out)
    );
}

/// Per dataset `(P, R, F1)`.
type Rows = HashMap<String, (f64, f64, f64)>;

/// The dataset rows of `eval`'s table, and the LODO macro line's F1.
fn table(stdout: &str) -> (Rows, Option<f64>) {
    let mut rows = HashMap::new();
    let mut macro_f1 = None;
    for line in stdout.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with("LODO macro") {
            macro_f1 = f.last().and_then(|v| v.parse().ok());
        }
        if f.len() >= 5
            && !line.starts_with(' ')
            && f[0] != "OVERALL"
            && let (Ok(p), Ok(r), Ok(f1)) = (f[2].parse(), f[3].parse(), f[4].parse())
        {
            rows.insert(f[0].to_string(), (p, r, f1));
        }
    }
    (rows, macro_f1)
}

/// Issue #13's CI floor: each bag-scored dev set scored by a stage trained on the other seven.
/// Measured (since the thread peers of `reverse`): LODO macro F1 0.8854 against `reverse`'s
/// 0.8832 (+0.0021),
/// precision up on every set, no set's F1 down. The floor: macro at least `reverse`'s +
/// 0.0015, no set's F1 more than 0.005 under `reverse`'s, no set's precision under it.
#[test]
fn lodo_floor_of_the_stage_on_the_dev_sets() {
    let Some(inputs) = dev_warcs() else { return };
    let eval = |args: &[&str]| {
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        all.extend(inputs.iter().map(|p| p.as_os_str()));
        let out = run(&all);
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (reverse, _) = table(&eval(&["eval", "--method", "reverse"]));
    let lodo_out = eval(&["eval", "--lodo", "--method", "reverse-stage"]);
    let (staged, macro_f1) = table(&lodo_out);
    assert_eq!(staged.len(), 8, "{lodo_out}");
    let reverse_macro: f64 = staged.keys().map(|k| reverse[k].2).sum::<f64>() / staged.len() as f64;
    let macro_f1 = macro_f1.expect("a LODO macro line");
    assert!(
        macro_f1 >= reverse_macro + 0.0015,
        "LODO macro {macro_f1} < reverse {reverse_macro}\n{lodo_out}"
    );
    for (set, &(p, _, f1)) in &staged {
        let (rp, _, rf1) = reverse[set];
        assert!(
            f1 >= rf1 - 0.005,
            "{set}: F1 {f1} vs reverse {rf1}\n{lodo_out}"
        );
        assert!(p >= rp, "{set}: P {p} vs reverse {rp}\n{lodo_out}");
    }
}
