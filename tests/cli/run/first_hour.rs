//! A new user's mistakes (#39), each with the message and exit code it gets: a rerun with
//! other settings says what changed and counts the input apart; another `--output-format`
//! replaces the other format's output; a cut `.warc.gz` is partial; a gzip file that is not
//! a WARC is described by what is inside; a WET file given as input fails by name; `extract`
//! on a WARC points to `run`; `extract --help` lists no run-only option; the summary names
//! the bytes and characters written and the CPU time.

use super::super::common::*;

/// The files of an output directory, without the manifest's lock and the timings log.
fn outputs(dir: &std::path::Path) -> Vec<String> {
    files_in(dir)
        .into_iter()
        .filter(|f| f != ".manifest.lock" && f != "timings.jsonl")
        .collect()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Before: a rerun with `--lang en` replaced the shard and said only "1 processed".
#[test]
fn a_rerun_with_other_settings_says_what_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run_into(&out, &[], &[&sample()], 0);
    let before = manifest(&out)["sample.jsonl.zst"].clone();
    assert_eq!(before["settings"]["--lang"], "any");
    assert_eq!(before["settings"]["--method"], "reverse-stage");

    let r = run_into(
        &out,
        &["--lang", "eng", "--min-chars", "100"],
        &[&sample()],
        0,
    );
    assert!(
        stderr(&r).contains(
            "settings changed: --lang en (was any), --min-chars 100 (was 0); rewriting sample.jsonl.zst"
        ),
        "{}",
        stderr(&r)
    );
    assert!(
        stdout(&r).contains(
            "1 input: 0 processed, 1 rewritten (settings changed), 0 unchanged (skipped), 0 failed"
        ),
        "{}",
        stdout(&r)
    );
    let after = &manifest(&out)["sample.jsonl.zst"];
    assert_eq!(after["settings"]["--lang"], "en");
    assert!(after["counts"]["written"].as_u64() < before["counts"]["written"].as_u64());

    // The same settings again: unchanged, nothing said.
    let r = run_into(
        &out,
        &["--lang", "en", "--min-chars", "100"],
        &[&sample()],
        0,
    );
    assert!(
        stdout(&r).contains("1 unchanged (skipped)"),
        "{}",
        stdout(&r)
    );
    assert!(!stderr(&r).contains("settings changed"), "{}", stderr(&r));

    // A changed input is new bytes, not new settings: processed, not rewritten.
    let tmp_input = tmp.path().join("sample.warc.gz");
    std::fs::copy(sample(), &tmp_input).unwrap();
    let other = tmp.path().join("other");
    run_into(&other, &[], &[&tmp_input], 0);
    let mut bytes = std::fs::read(&tmp_input).unwrap();
    bytes.extend(std::fs::read(sample()).unwrap());
    std::fs::write(&tmp_input, bytes).unwrap();
    let r = run_into(&other, &[], &[&tmp_input], 0);
    assert!(
        stdout(&r).contains("1 processed, 0 rewritten"),
        "{}",
        stdout(&r)
    );
    assert!(!stderr(&r).contains("settings changed"), "{}", stderr(&r));
}

/// Before: switching to `--output-format wet` left the old `.jsonl.zst` beside the new WET
/// file (a glob on `*.jsonl.zst` read a stale shard), and switching back orphaned the WET
/// file.
#[test]
fn another_output_format_replaces_the_other_formats_output() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run_into(&out, &[], &[&sample()], 0);
    let r = run_into(&out, &["--output-format", "wet"], &[&sample()], 0);
    assert!(
        stderr(&r).contains(
            "settings changed: --output-format wet (was dolma); rewriting sample.warc.wet.gz (it replaces sample.jsonl.zst)"
        ),
        "{}",
        stderr(&r)
    );
    assert!(
        stderr(&r).contains("removed sample.jsonl.zst"),
        "{}",
        stderr(&r)
    );
    assert_eq!(outputs(&out), ["manifest.jsonl", "sample.warc.wet.gz"]);
    assert_eq!(manifest(&out).len(), 1);

    let r = run_into(&out, &[], &[&sample()], 0);
    assert!(
        stderr(&r).contains("removed sample.warc.wet.gz"),
        "{}",
        stderr(&r)
    );
    assert_eq!(outputs(&out), ["manifest.jsonl", "sample.jsonl.zst"]);

    // An output of the other format that no manifest line names (left by a run killed
    // between its new manifest line and the removal, or by an older build) goes when its
    // input is next seen, even unchanged.
    std::fs::write(out.join("sample.warc.wet.gz"), b"stale").unwrap();
    let r = run_into(&out, &[], &[&sample()], 0);
    assert!(
        stdout(&r).contains("1 unchanged (skipped)"),
        "{}",
        stdout(&r)
    );
    assert!(
        stderr(&r).contains("removed sample.warc.wet.gz"),
        "{}",
        stderr(&r)
    );
    assert_eq!(outputs(&out), ["manifest.jsonl", "sample.jsonl.zst"]);
}

/// Before: a `.warc.gz` cut inside its last gzip member's trailer (its records whole) was
/// `complete`, exit 0: a failed download looked finished.
#[test]
fn a_gzip_file_cut_short_is_partial() {
    let tmp = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(sample()).unwrap();
    let cut = tmp.path().join("cut.warc.gz");
    std::fs::write(&cut, &bytes[..bytes.len() - 4]).unwrap();
    let out = tmp.path().join("out");
    let r = run_into(&out, &[], &[&cut], 1);
    assert!(stderr(&r).contains("cut short"), "{}", stderr(&r));
    let e = &manifest(&out)["cut.jsonl.zst"];
    assert_eq!(e["status"], "partial");
    // Every record of the sample is still there (only the trailer was lost).
    let whole = tmp.path().join("whole");
    run_into(&whole, &[], &[&sample()], 0);
    assert_eq!(
        e["counts"]["written"],
        manifest(&whole)["sample.jsonl.zst"]["counts"]["written"]
    );
}

/// Before: a gzip file that is not a WARC was described by its compressed bytes
/// (`"\x1f\x8b\x08…"`), and a WET file given as input became `other_type`, written 0, exit 0.
#[test]
fn files_that_are_not_warcs_are_named_by_what_they_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("page.warc.gz");
    std::fs::write(
        &page,
        outward_testkit::gzip(b"<!DOCTYPE html><html><body><p>hello</p></body></html>"),
    )
    .unwrap();
    let r = run_into(&tmp.path().join("a"), &[], &[&page], 3);
    assert!(
        stderr(&r).contains(
            "not a WARC or ARC file (gzip data; decompressed, it starts with \"<!DOCTYPE html><\"): an HTML page (outward extract reads those)"
        ),
        "{}",
        stderr(&r)
    );

    // Our own WET output, given back as input.
    let wet_dir = tmp.path().join("wet");
    run_into(&wet_dir, &["--output-format", "wet"], &[&sample()], 0);
    let wet = wet_dir.join("sample.warc.wet.gz");
    let out = tmp.path().join("b");
    let r = run_into(&out, &[], &[&wet], 3);
    assert!(
        stderr(&r).contains("a WET file (conversion records, no captured page)"),
        "{}",
        stderr(&r)
    );
    assert_eq!(manifest(&out)[""]["status"], "failed");
    // Common Crawl's own WET and WAT files (before: `complete`, written 0, exit 0).
    if let Some(samples) = shared_data("samples") {
        let dir = samples.join("real/commoncrawl+whirlwind-python");
        for (file, kind) in [
            ("whirlwind.warc.wet.gz", "a WET file (conversion records"),
            ("whirlwind.warc.wat.gz", "a WAT file (metadata records"),
        ] {
            let out = tmp.path().join(file);
            let r = run_into(&out, &[], &[&dir.join(file)], 3);
            assert!(stderr(&r).contains(kind), "{}", stderr(&r));
        }
    }
}

/// Before: `extract` on a WARC said "not HTML or text" (gzip) or printed the WARC's headers
/// as text (plain), without pointing to `run`.
#[test]
fn extract_on_a_warc_points_to_run() {
    let tmp = tempfile::tempdir().unwrap();
    let plain = tmp.path().join("plain.warc");
    std::fs::write(
        &plain,
        outward_testkit::synthetic_warc(3, &Default::default()).bytes,
    )
    .unwrap();
    for input in [sample(), plain] {
        let r = run(&["extract".as_ref(), input.as_os_str()]);
        assert_eq!(code(&r), 1, "{}", describe(&r));
        assert!(r.stdout.is_empty(), "{}", stdout(&r));
        let want = format!(
            "a WARC file; extract reads HTML pages: `outward run -o DIR {}`",
            input.display()
        );
        assert!(stderr(&r).contains(&want), "{}", stderr(&r));
    }
}

/// Before: `extract --help` listed `--sites-update`, `--site-memory` and the rest, which
/// `extract` ignored; `--method`'s help spoke of "seed 002".
#[test]
fn help_texts_list_what_each_command_reads() {
    let help = |cmd: &str| stdout(&run(&[cmd, "--help"]));
    let extract = help("extract");
    for flag in [
        "--sites",
        "--site-memory",
        "--sites-update",
        "--site-min-pages",
    ] {
        assert!(
            !extract
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{flag} "))),
            "{flag} in extract --help"
        );
    }
    let run_help = help("run");
    for flag in ["--sites <STORE>", "--site-memory", "--sites-update"] {
        assert!(run_help.contains(flag), "{flag} not in run --help");
    }
    assert!(help("eval").contains("--sites <STORE>"));
    assert!(!help("eval").contains("--sites-update"));
    assert!(!run_help.contains("seed 00"), "{run_help}");
    assert!(run_help.contains("each implement one published paper"));
}

/// Before: the summary named no output bytes or characters, and the CPU line showed only
/// when a run took 0.1 CPU-s (ticks of /proc), so not on the sample with two threads.
#[test]
fn the_summary_names_what_was_written_and_the_cpu_time() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let r = run_into(&out, &["--threads", "2"], &[&sample()], 0);
    let e = &manifest(&out)["sample.jsonl.zst"];
    let text_chars: u64 = docs(&out.join("sample.jsonl.zst"))
        .iter()
        .map(|d| text(d).chars().count() as u64)
        .sum();
    assert_eq!(e["counts"]["text_chars"], text_chars);
    let bytes = e["output_bytes"].as_u64().unwrap();
    let line = format!(
        "  output: {}: 1 shard written, {:.1} KB, {text_chars} characters of text",
        out.display(),
        bytes as f64 / 1000.0
    );
    assert!(stdout(&r).contains(&line), "{}\n{line}", stdout(&r));
    assert!(stdout(&r).contains(" CPU s: "), "{}", stdout(&r));
}
