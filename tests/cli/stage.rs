//! End-to-end: `outward train --method reverse-stage` on generated pages (a WARC and its truth
//! file written here) whose article container also holds a "more stories" box, then
//! `outward extract --method reverse-stage --model` with the model it wrote: the box `reverse`
//! keeps is gone, the article stays; the same data gives the same model bytes. The stage's
//! leave-one-dataset-out floors on the dev sets are in `eval_bar.rs`.

use crate::common::{describe, run_in};
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
    // The box's "More stories" heading would end the text by itself (the `after-story`
    // guard): off, so that the stage is what prunes it.
    let plain = extract(&["--method", "reverse", "--without", "after-story"]);
    assert!(plain.contains("wins the cup"), "{plain}");
    let staged = extract(&[
        "--without",
        "after-story",
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
