//! `--without GUARD`: one of `reverse`'s rules switched off from the command line (measured
//! in `docs/methods.md`). Its name joins the config hash (a resume redoes the work), it is
//! refused for a method without guards and for a name `reverse` does not have, and every
//! guard name `--help` lists is accepted by `eval`.

use crate::common::{code, describe, manifest_lines, run, run_into, sample, stdout, testdata};
use outward_core::methods::reverse::Guard;

#[test]
fn a_guard_turned_off_joins_the_config_hash_and_resumes_alike() {
    let tmp = tempfile::tempdir().unwrap();
    let (all, without) = (tmp.path().join("all"), tmp.path().join("without"));
    run_into(&all, &[], &[&sample()], 0);
    run_into(&without, &["--without", "title,join"], &[&sample()], 0);
    let hash = |dir| {
        manifest_lines(dir)[0]["config_hash"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_ne!(hash(&all), hash(&without));
    // The same switches in another order and spelling are the same run: nothing to redo.
    let again = run_into(
        &without,
        &["--without", "join", "--without", "title"],
        &[&sample()],
        0,
    );
    assert!(
        stdout(&again).contains("1 unchanged"),
        "{}",
        describe(&again)
    );
    // Turning a guard off changes pages of the sample: the headline above an article's
    // root is no longer its first line.
    let headline = tmp.path().join("headline");
    run_into(&headline, &["--without", "headline"], &[&sample()], 0);
    assert_ne!(
        std::fs::read(all.join("sample.jsonl.zst")).unwrap(),
        std::fs::read(headline.join("sample.jsonl.zst")).unwrap()
    );
}

#[test]
fn guards_only_of_reverse_and_only_by_their_names() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let r = run(&[
        "run",
        "-o",
        out.to_str().unwrap(),
        "--method",
        "paper",
        "--without",
        "title",
        sample().to_str().unwrap(),
    ]);
    assert_eq!(code(&r), 2, "{}", describe(&r));
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("--method paper has none"),
        "{}",
        describe(&r)
    );
    assert!(!out.join("sample.jsonl.zst").exists());
    let page = testdata().join("pages");
    let r = run(&["extract", "--without", "tilte", page.to_str().unwrap()]);
    assert_eq!(code(&r), 2, "{}", describe(&r));
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("tilte"),
        "{}",
        describe(&r)
    );
    // Every guard is a value `--without` takes (the names --help lists).
    let help = run(&["eval", "--help"]);
    let help = stdout(&help);
    for guard in Guard::ALL {
        assert!(
            help.contains(guard.name()),
            "{} not in eval --help",
            guard.name()
        );
        let r = run(&["extract", "--without", guard.name(), page.to_str().unwrap()]);
        assert_eq!(code(&r), 0, "{}: {}", guard.name(), describe(&r));
    }
}
