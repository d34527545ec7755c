//! End-to-end: `outward train --method svm` on generated pages (a WARC and its truth file
//! written here), then `outward extract --method svm --model` with the model it wrote: the
//! article stays, the link menu goes; the same data gives the same model bytes; bad `--model`
//! uses are usage errors. With `../shared` present (skipped with a note when absent), `eval
//! --lodo` on two small dev sets scores each with a model trained on the other, and the
//! models shipped in the crate are exactly what `outward train` makes of the 8 dev sets.

use crate::common::{describe, run, run_in, shared_data};
use std::path::{Path, PathBuf};

/// A page: a menu of links, an article, a footer with one link.
fn page(n: usize) -> (String, String) {
    let sentences: Vec<String> = (0..(4 + n % 5))
        .map(|k| {
            format!(
                "Story {n} sentence {k} tells how the river town number {} rebuilt its bridge.",
                (n * 7 + k) % 23
            )
        })
        .collect();
    let menu: String = (0..(4 + n % 3))
        .map(|k| format!("<li><a href=/s{k}>Section {k}</a></li>"))
        .collect();
    let html = format!(
        "<html><head><title>Story {n}</title></head><body>\
         <div class=menu><ul>{menu}</ul></div>\
         <div class=story><h1>Story {n}</h1><p>{}</p><p>{}</p></div>\
         <div class=footer>Copyright the <a href=/about>Gazette</a></div></body></html>",
        sentences[..2].join(" "),
        sentences[2..].join(" ")
    );
    let truth = format!(
        "Story {n}\n{}\n{}",
        sentences[..2].join(" "),
        sentences[2..].join(" ")
    );
    (html, truth)
}

/// Writes `pages.warc.gz` and `pages.truth.jsonl` with `count` pages into `dir`.
fn write_fixture(dir: &Path, count: usize) -> PathBuf {
    outward_testkit::write_truth_fixture(dir, count, 13, page)
}

#[test]
fn train_then_extract_with_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_fixture(dir.path(), 40);
    let model = dir.path().join("svm.model");
    let out = run(&[
        "train",
        "--method",
        "svm",
        "-o",
        model.to_str().unwrap(),
        warc.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("support vectors"), "{}", describe(&out));
    let bytes = std::fs::read(&model).unwrap();
    assert_eq!(&bytes[..5], b"OWSVM");

    // Deterministic: a second training writes the same bytes.
    let again = dir.path().join("again.model");
    let out = run(&[
        "train",
        "-o",
        again.to_str().unwrap(),
        "--truth",
        dir.path().join("pages.truth.jsonl").to_str().unwrap(),
        warc.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(std::fs::read(&again).unwrap(), bytes);

    // A page it has not seen: the article is kept, the menu dropped.
    let (html, _) = page(101);
    let html_path = dir.path().join("page.html");
    std::fs::write(&html_path, html).unwrap();
    let out = run(&[
        "extract",
        "--method",
        "svm",
        "--model",
        model.to_str().unwrap(),
        html_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Story 101 sentence 0 tells how"),
        "{}",
        describe(&out)
    );
    assert!(!text.contains("Section 1"), "{}", describe(&out));

    // The model is part of what `eval` runs: with it, the fixture scores well.
    let out = run(&[
        "eval",
        "--json",
        "--method",
        "svm",
        "--model",
        model.to_str().unwrap(),
        warc.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let f1 = v["datasets"]["pages"]["F1"].as_f64().unwrap();
    assert!(f1 > 0.9, "F1 {f1}\n{}", describe(&out));
}

#[test]
fn the_model_is_part_of_the_run_config() {
    let dir = tempfile::tempdir().unwrap();
    let warc = write_fixture(dir.path(), 24);
    let train = |name: &str, warc: &Path| {
        let model = dir.path().join(name);
        let out = run(&[
            "train",
            "-o",
            model.to_str().unwrap(),
            warc.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", describe(&out));
        model
    };
    let a = train("a.model", &warc);
    // Another model: trained on fewer pages.
    let small = dir.path().join("small");
    std::fs::create_dir(&small).unwrap();
    let b = train("b.model", &write_fixture(&small, 12));
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let out_dir = dir.path().join("out");
    let run_with = |model: &Path| {
        let out = run(&[
            "run",
            "--method",
            "svm",
            "--model",
            model.to_str().unwrap(),
            "-o",
            out_dir.to_str().unwrap(),
            warc.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(run_with(&a).contains("1 processed"));
    // The same model: nothing to redo; another model: the config hash differs.
    assert!(run_with(&a).contains("1 unchanged"));
    assert!(run_with(&b).contains("1 rewritten (settings changed)"));
}

#[test]
fn bad_model_uses_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("page.html");
    std::fs::write(&html, page(1).0).unwrap();
    let junk = dir.path().join("junk.model");
    std::fs::write(&junk, b"OWSVM\x01\x05\x00 not a model").unwrap();
    let cases: [(&[&str], &str); 3] = [
        (&["--method", "svm", "--model", "junk.model"], "truncated"),
        (
            &["--method", "svm", "--model", "missing.model"],
            "missing.model",
        ),
        (
            &["--method", "reverse", "--model", "junk.model"],
            "linenet and reverse-stage, not by reverse",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["extract"];
        all.extend_from_slice(args);
        all.push("page.html");
        let out = run_in(dir.path(), &all);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", describe(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {}", describe(&out));
    }
    // A method that cannot be trained is refused by train and by eval --lodo.
    let out = run(&["train", "--method", "reverse", "-o", "x", "y.warc.gz"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let warc = write_fixture(dir.path(), 2);
    let out = run(&[
        "eval",
        "--lodo",
        "--method",
        "reverse",
        warc.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a method with a trained model"));
}

#[test]
fn lodo_on_two_dev_sets() {
    let (Some(zh), Some(h2t)) = (
        shared_data("data/dev/cwced_zh.warc.gz"),
        shared_data("data/dev/htmltotext.warc.gz"),
    ) else {
        return;
    };
    let out = run(&[
        "eval",
        "--lodo",
        "--method",
        "svm",
        "--threads",
        "2",
        zh.to_str().unwrap(),
        h2t.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Each set held out once, trained on the other alone.
    assert!(
        stderr.contains("lodo: cwced_zh held out") && stderr.contains("lodo: htmltotext held out"),
        "{}",
        describe(&out)
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("LODO macro over 2 sets"))
        .unwrap_or_else(|| panic!("{}", describe(&out)));
    let f1: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
    // Measured: P 0.628 R 0.525 F1 0.496 (a model trained on one small set generalises
    // poorly; the 8-set LODO is 0.782). A floor under it, not the value.
    assert!(f1 > 0.45, "{line}");
}

/// The shipped models (`crates/outward-core/models/`) are what `outward train` makes of the
/// eight bag-scored dev sets today, byte for byte: a change to the cleaner or to `reverse`
/// that moves a model's inputs fails here until the model is trained again (the command is
/// in the failure message). The confidence's pages are extracted with the shipped stage, so
/// it is checked after it (a guard that moves `reverse`'s text moves its inputs too: the
/// `after-story` guard did, and its model stood stale until this test read it).
#[test]
fn the_shipped_models_are_trained_on_the_dev_sets() {
    let sets = [
        "cleaneval",
        "cleanportaleval",
        "cwced_zh",
        "dragnet",
        "htmltotext",
        "magic_html",
        "readability",
        "wcxb",
    ];
    let Some(inputs) = sets
        .iter()
        .map(|s| shared_data(&format!("data/dev/{s}.warc.gz")))
        .map(|p| Some(p?.to_string_lossy().into_owned()))
        .collect::<Option<Vec<String>>>()
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for method in ["svm", "linenet", "reverse-stage", "confidence"] {
        let file = match method {
            "reverse-stage" => "stage.model",
            "svm" => "svm.model",
            "confidence" => "confidence.model",
            _ => "linenet.model",
        };
        let trained = dir.path().join(file);
        let mut args = vec!["train", "--method", method, "-o", trained.to_str().unwrap()];
        args.extend(inputs.iter().map(String::as_str));
        let out = run(&args);
        assert!(out.status.success(), "{}", describe(&out));
        let shipped = outward_testkit::repo_root()
            .join("crates/outward-core/models")
            .join(file);
        assert!(
            std::fs::read(&trained).unwrap() == std::fs::read(&shipped).unwrap(),
            "{} is not what training makes today; run: outward train --method {method} -o {} \
             ../shared/data/dev/{{{}}}.warc.gz",
            shipped.display(),
            shipped.display(),
            sets.join(",")
        );
    }
}
