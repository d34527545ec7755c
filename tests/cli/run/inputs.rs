//! What `outward run` reads and how it fails: exit codes, damaged and degenerate inputs,
//! usage errors, shard selection, paths on stdin, concurrent shard jobs, input sets and
//! input lists.

use super::{small, write_synth};
use crate::common::{
    code, describe, docs, files_in, manifest, outward, run, run_into, sample, shard_bytes,
    shared_data, stdout, testdata,
};
use outward_testkit::{self as testkit, SynthOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

#[test]
fn exit_codes_and_damaged_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    let (good_a, synth_a) = write_synth(tmp.path(), "a.warc.gz", 11, &small(8));
    let (good_c, synth_c) = write_synth(tmp.path(), "c.warc.gz", 12, &small(8));
    let broken = testdata().join("broken/truncated.warc.gz");
    let (cut_bytes, records) = testkit::broken_truncated();
    let cut = cut_bytes.len() as u64;

    // All complete: 0.
    run_into(&tmp.path().join("ok"), &[], &[&good_a, &good_c], 0);

    // One truncated input: 1, and the others are still written.
    let out = tmp.path().join("out");
    run_into(&out, &[], &[&good_a, &broken, &good_c], 1);
    assert_eq!(
        docs(&out.join("a.jsonl.zst")).len(),
        synth_a.expected_doc_ids().len()
    );
    assert_eq!(
        docs(&out.join("c.jsonl.zst")).len(),
        synth_c.expected_doc_ids().len()
    );
    // The truncated input keeps every page that ends before the cut.
    let kept: Vec<String> = docs(&out.join("truncated.jsonl.zst"))
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    let intact: Vec<String> = records
        .iter()
        .filter(|r| r.expect_doc && r.end <= cut)
        .map(|r| r.id.clone())
        .collect();
    assert_eq!(intact.len(), 9);
    assert_eq!(kept, intact);
    let m = manifest(&out);
    assert_eq!(m["a.jsonl.zst"]["status"], "complete");
    assert_eq!(m["c.jsonl.zst"]["status"], "complete");
    let t = &m["truncated.jsonl.zst"];
    assert_eq!(t["status"], "partial");
    assert!(t["error"].as_str().is_some_and(|e| !e.is_empty()));
    let offset = t["error_offset"]
        .as_u64()
        .expect("partial entry has an offset");
    assert!(offset <= cut, "error offset {offset} past the end ({cut})");
    assert!(
        offset >= records[9].start,
        "error offset {offset} before the last intact page"
    );
    // A partial input is reprocessed on the next run (and is still partial).
    let again = run_into(&out, &[], &[&good_a, &broken, &good_c], 1);
    assert!(stdout(&again).contains("2 unchanged"), "{}", stdout(&again));

    // A corrupt member in the middle: 1, partial, the pages before it kept.
    let corrupt = testdata().join("broken/corrupt_member.warc.gz");
    let (_, records) = testkit::broken_corrupt_member();
    let out2 = tmp.path().join("out2");
    run_into(&out2, &[], &[&corrupt], 1);
    let kept: Vec<String> = docs(&out2.join("corrupt_member.jsonl.zst"))
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    let before: Vec<String> = records[1..6].iter().map(|r| r.id.clone()).collect();
    assert_eq!(kept[..5], before[..], "pages before the corrupt member");
    assert!(
        !kept.contains(&records[6].id),
        "the corrupt page was emitted"
    );
    let e = &manifest(&out2)["corrupt_member.jsonl.zst"];
    assert_eq!(e["status"], "partial");
    assert!(e["error_offset"].is_u64());

    // A missing input: 3 (failed, not partial: a Slurm array tells a path typo from a cut
    // download), the other input still done, and a manifest line that says so.
    let out3 = tmp.path().join("out3");
    let missing = tmp.path().join("missing.warc.gz");
    let r = run_into(&out3, &[], &[&good_a, &missing], 3);
    assert!(out3.join("a.jsonl.zst").exists());
    assert!(stdout(&r).contains("1 failed"), "{}", stdout(&r));
    let m = manifest(&out3);
    assert_eq!(m[""]["status"], "failed");
    assert!(
        m[""]["input"]
            .as_str()
            .unwrap()
            .ends_with("missing.warc.gz")
    );
    assert!(
        m[""]["error"]
            .as_str()
            .unwrap()
            .contains("No such file or directory")
    );
    // A missing input and a partial one: 3 wins.
    run_into(&out3, &[], &[&broken, &missing], 3);
    // The input back in place: read on the next run, the failed line replaced.
    std::fs::copy(&good_c, &missing).unwrap();
    run_into(&out3, &[], &[&good_a, &missing], 0);
    assert_eq!(manifest(&out3)["missing.jsonl.zst"]["status"], "complete");
}

#[test]
fn degenerate_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    // An empty file (what a failed download looks like): status `empty`, no records, a
    // warning naming it, exit 0 (3 with --fail-empty, also when the rerun reuses it); a shard
    // that zstd tools read as empty (a zero-byte file is not one: `zstd -t` and the zstd
    // crate reject it as "unexpected end of file").
    let empty = tmp.path().join("empty.warc.gz");
    std::fs::write(&empty, b"").unwrap();
    let out = tmp.path().join("o1");
    let r = run_into(&out, &[], &[&empty], 0);
    let e = &manifest(&out)["empty.jsonl.zst"];
    assert_eq!(e["status"], "empty");
    assert_eq!(e["counts"]["records"], 0);
    assert!(shard_bytes(&out.join("empty.jsonl.zst")).is_empty());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("empty.warc.gz: empty: not a single record"),
        "{err}"
    );
    assert!(
        stdout(&r).contains("; 0 partial, 1 empty"),
        "{}",
        stdout(&r)
    );
    let r = run_into(&out, &["--fail-empty"], &[&empty], 3);
    assert!(stdout(&r).contains("1 unchanged"), "{}", stdout(&r));
    // Files that are not WARC (random bytes named .warc.gz, plain text, a PNG): failed with
    // what they start with, exit 3, no output file, a manifest line that says it failed.
    let mut rng = testkit::SplitMix64::new(1);
    let junk: Vec<u8> = (0..5000).map(|_| rng.next_u64() as u8).collect();
    let notes = b"these are my notes, not a WARC file\n".repeat(50);
    for (name, bytes, starts) in [
        ("junk.warc.gz", junk, None),
        ("notes.warc", notes, Some("these are my not")),
        ("image.warc", testkit::PNG_1X1.to_vec(), Some("\\x89PNG")),
    ] {
        let path = tmp.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = tmp.path().join(format!("out-{name}"));
        let r = run_into(&out, &[], &[&path], 3);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(
            err.contains("not a WARC or ARC file (it starts with"),
            "{err}"
        );
        if let Some(starts) = starts {
            assert!(err.contains(starts), "{err}");
        }
        let m = manifest(&out);
        assert_eq!(m.len(), 1, "{name}");
        assert_eq!(m[""]["status"], "failed", "{name}");
        assert_eq!(m[""]["output_bytes"], 0, "{name}");
        assert!(
            files_in(&out).iter().all(|f| !f.ends_with(".jsonl.zst")),
            "{name}: {:?}",
            files_in(&out)
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().join("o");
    let s = sample();
    let sample = s.to_str().unwrap();
    let o = o.to_str().unwrap();
    for args in [
        vec!["run", "--shard", "5/2", "-o", o, sample],
        vec!["run", "--shard", "1/0", "-o", o, sample],
        vec!["run", "--shard", "x", "-o", o, sample],
        vec!["run", "--no-such-flag", "-o", o, sample],
        vec!["run", "-o", o],
        vec!["run", sample],
        vec!["run", "--method", "magic", "-o", o, sample],
        vec!["frobnicate"],
    ] {
        let out = run(&args);
        assert_eq!(code(&out), 2, "{args:?}\n{}", describe(&out));
    }
    assert!(!Path::new(o).join("sample.jsonl.zst").exists());

    // Two inputs that would write the same shard name: a setup error, nothing written.
    let dir = tmp.path().join("dup");
    std::fs::create_dir(&dir).unwrap();
    let synth = testkit::synthetic_warc_gz(3, 1);
    std::fs::write(dir.join("x.warc.gz"), &synth).unwrap();
    std::fs::write(dir.join("x.warc"), testkit::synthetic_warc_plain(3, 1)).unwrap();
    let out = tmp.path().join("dup-out");
    let result = run(&["run", "-o", out.to_str().unwrap(), dir.to_str().unwrap()]);
    assert_eq!(code(&result), 2, "{}", describe(&result));
    assert!(!out.join("x.jsonl.zst").exists());
    // Regression: with --shard the two inputs fall into different shards; each job must still
    // refuse, or the second overwrites the first one's shard and both reprocess forever.
    for shard in ["0/2", "1/2"] {
        let result = run(&[
            "run",
            "--shard",
            shard,
            "-o",
            out.to_str().unwrap(),
            dir.to_str().unwrap(),
        ]);
        assert_eq!(code(&result), 2, "--shard {shard}: {}", describe(&result));
        assert!(
            String::from_utf8_lossy(&result.stderr)
                .contains("would both write the output named \"x\""),
            "{}",
            describe(&result)
        );
        assert!(!out.join("x.jsonl.zst").exists());
        assert!(!out.join("manifest.jsonl").exists());
    }
}

#[test]
fn shard_selection_and_stdin_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    for i in 0..5u64 {
        let opts = SynthOptions {
            pages: 2,
            min_bytes: 2 << 10,
            max_bytes: 4 << 10,
            crawl_mix: false,
            ..SynthOptions::default()
        };
        let (p, _) = write_synth(tmp.path(), &format!("f{i}.warc.gz"), i, &opts);
        inputs.push(p);
    }
    let shard_names = |dir: &Path| -> Vec<String> {
        files_in(dir)
            .into_iter()
            .filter(|n| n.ends_with(".jsonl.zst"))
            .collect()
    };
    // DataTrove rule: shard 1/3 of the sorted list keeps f1 and f4.
    let out = tmp.path().join("s1");
    let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    run_into(&out, &["--shard", "1/3"], &refs, 0);
    assert_eq!(shard_names(&out), ["f1.jsonl.zst", "f4.jsonl.zst"]);
    // Order of the arguments does not matter.
    let out = tmp.path().join("s0");
    let reversed: Vec<&Path> = refs.iter().rev().copied().collect();
    run_into(&out, &["--shard", "0/3"], &reversed, 0);
    assert_eq!(shard_names(&out), ["f0.jsonl.zst", "f3.jsonl.zst"]);
    // The shards of 0/2 and 1/2 partition the inputs.
    let (a, b) = (tmp.path().join("h0"), tmp.path().join("h1"));
    run_into(&a, &["--shard", "0/2"], &[tmp.path()], 0);
    run_into(&b, &["--shard", "1/2"], &[tmp.path()], 0);
    let mut all = shard_names(&a);
    all.extend(shard_names(&b));
    all.sort();
    assert_eq!(all.len(), 5);
    all.dedup();
    assert_eq!(all.len(), 5);

    // Paths on stdin.
    let out = tmp.path().join("stdin");
    let mut child = outward()
        .args(["run", "-o"])
        .arg(&out)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{}", inputs[2].display()).unwrap();
        writeln!(stdin).unwrap();
        writeln!(stdin, "{}", inputs[0].display()).unwrap();
    }
    let result = child.wait_with_output().unwrap();
    assert_eq!(code(&result), 0, "{}", describe(&result));
    assert_eq!(shard_names(&out), ["f0.jsonl.zst", "f2.jsonl.zst"]);
}

#[test]
fn concurrent_shard_jobs_share_one_output_dir() {
    // The Slurm-array use of `--shard I/N`: N jobs started together, one output directory.
    let tmp = tempfile::tempdir().unwrap();
    let inputs_dir = tmp.path().join("in");
    std::fs::create_dir(&inputs_dir).unwrap();
    for i in 0..6u64 {
        write_synth(&inputs_dir, &format!("j{i}.warc.gz"), 50 + i, &small(10));
    }
    let out = tmp.path().join("out");
    let jobs: Vec<_> = ["0/2", "1/2"]
        .iter()
        .map(|shard| {
            outward()
                .args(["run", "--threads", "1", "--shard", shard, "-o"])
                .arg(&out)
                .arg(&inputs_dir)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for job in jobs {
        let result = job.wait_with_output().unwrap();
        assert_eq!(code(&result), 0, "{}", describe(&result));
    }
    let shards: Vec<String> = files_in(&out)
        .into_iter()
        .filter(|n| n.ends_with(".jsonl.zst"))
        .collect();
    assert_eq!(shards.len(), 6);
    let m = manifest(&out);
    assert_eq!(
        m.keys().collect::<Vec<_>>(),
        shards.iter().collect::<Vec<_>>(),
        "manifest lost the entries of a concurrent job"
    );
    // So a rerun of every job skips everything.
    for shard in ["0/2", "1/2"] {
        let again = run_into(&out, &["--shard", shard], &[&inputs_dir], 0);
        assert!(stdout(&again).contains("3 unchanged"), "{}", stdout(&again));
    }
}

#[test]
fn input_sets_and_setup_errors_name_their_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    // A directory without WARC files: an error naming it, not "0 inputs" and exit 0.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let r = run(&["run", "-o", out.to_str().unwrap(), empty.to_str().unwrap()]);
    assert_eq!(code(&r), 2, "{}", describe(&r));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("no input files") && err.contains(empty.to_str().unwrap()),
        "{err}"
    );
    // The same for an empty list on stdin.
    let r = outward()
        .args(["run", "-o", out.to_str().unwrap(), "-"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(code(&r), 2, "{}", describe(&r));
    // An empty shard of a real list is fine: more array tasks than files.
    let r = run(&[
        "run",
        "--shard",
        "1/2",
        "-o",
        out.to_str().unwrap(),
        sample().to_str().unwrap(),
    ]);
    assert_eq!(code(&r), 0, "{}", describe(&r));
    // An output path that is a file: the message names it.
    let file = tmp.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let r = run(&[
        "run",
        "-o",
        file.to_str().unwrap(),
        sample().to_str().unwrap(),
    ]);
    assert_eq!(code(&r), 2, "{}", describe(&r));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains(&format!(
            "cannot create output directory {}: exists and is not a directory",
            file.display()
        )),
        "{err}"
    );
    // A manifest that cannot be opened (here a directory: root ignores permissions) names
    // its path.
    let blocked = tmp.path().join("blocked");
    std::fs::create_dir_all(blocked.join("manifest.jsonl")).unwrap();
    let r = run(&[
        "run",
        "-o",
        blocked.to_str().unwrap(),
        sample().to_str().unwrap(),
    ]);
    assert_eq!(code(&r), 2, "{}", describe(&r));
    let err = String::from_utf8_lossy(&r.stderr);
    let want = format!(
        "cannot open manifest {}",
        blocked.join("manifest.jsonl").display()
    );
    assert!(err.contains(&want), "{err}");
    // --threads 0 means every core.
    let zero = tmp.path().join("zero");
    run_into(&zero, &["--threads", "0"], &[&sample()], 0);
    assert_eq!(manifest(&zero)["sample.jsonl.zst"]["counts"]["written"], 12);
    // A directory contributes its .warc.lz4 files too.
    if let Some(samples) = shared_data("samples") {
        let dir = tmp.path().join("lz4");
        std::fs::create_dir(&dir).unwrap();
        let lz4 =
            samples.join("real/chatnoir-eu+chatnoir-resiliparse/block-sized-records.warc.lz4");
        std::fs::copy(&lz4, dir.join("b.warc.lz4")).unwrap();
        let o = tmp.path().join("lz4-out");
        run_into(&o, &[], &[&dir], 0);
        assert_eq!(manifest(&o)["b.jsonl.zst"]["counts"]["records"], 3);
    }
}

#[test]
fn input_lists_plain_gzipped_and_remote() {
    let tmp = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for i in 0..3u64 {
        let (p, _) = write_synth(tmp.path(), &format!("l{i}.warc.gz"), i, &small(2));
        paths.push(p.display().to_string());
    }
    // Common Crawl publishes warc.paths.gz: gzipped, one path a line.
    let list = format!("# three inputs\n{}\n\n{}\n", paths[0], paths[2]);
    let gz = tmp.path().join("warc.paths.gz");
    std::fs::write(&gz, testkit::gzip(list.as_bytes())).unwrap();
    let out = tmp.path().join("out");
    run_into(
        &out,
        &["--input-list", gz.to_str().unwrap()],
        &[Path::new(&paths[1])],
        0,
    );
    let names: Vec<String> = manifest(&out).into_keys().collect();
    assert_eq!(names, ["l0.jsonl.zst", "l1.jsonl.zst", "l2.jsonl.zst"]);
    // A URL in a list is an input (tests/cli/remote.rs reads them from a local server); one
    // whose host cannot be found fails that input by name (`.invalid` never resolves).
    let remote = tmp.path().join("remote.paths");
    std::fs::write(&remote, "https://data.invalid/crawl-data/x.warc.gz\n").unwrap();
    let o2 = tmp.path().join("o2");
    let r = run(&[
        "run",
        "-o",
        o2.to_str().unwrap(),
        "--retries",
        "0",
        "--input-list",
        remote.to_str().unwrap(),
    ]);
    assert_eq!(code(&r), 3, "{}", describe(&r));
    assert!(
        String::from_utf8_lossy(&r.stderr)
            .contains("error: https://data.invalid/crawl-data/x.warc.gz: cannot read input"),
        "{}",
        describe(&r)
    );
    // A missing list names itself.
    let missing = tmp.path().join("nope.paths");
    let r = run(&[
        "run",
        "-o",
        o2.to_str().unwrap(),
        "--input-list",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(code(&r), 2);
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("nope.paths"),
        "{}",
        describe(&r)
    );
}

/// A directory is read at every level (a Common Crawl tree of `segments/*/warc/`), as
/// `extract` reads its pages; two files of one name in different folders would write one
/// shard and are refused by name.
#[test]
fn directories_are_read_at_every_level() {
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("crawl");
    let deep = tree.join("segments/1700000000000.1/warc");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::copy(sample(), deep.join("deep.warc.gz")).unwrap();
    std::fs::copy(sample(), tree.join("top.warc.gz")).unwrap();
    std::fs::write(deep.join("notes.txt"), "not an input").unwrap();
    let out = tmp.path().join("out");
    run_into(&out, &[], &[&tree], 0);
    let names = files_in(&out);
    assert!(names.contains(&"deep.jsonl.zst".to_string()), "{names:?}");
    assert!(names.contains(&"top.jsonl.zst".to_string()), "{names:?}");
    let texts = |name: &str| -> Vec<String> {
        docs(&out.join(name))
            .iter()
            .map(|d| d["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(!texts("deep.jsonl.zst").is_empty());
    assert_eq!(texts("deep.jsonl.zst"), texts("top.jsonl.zst"));
    // The same name twice below one directory: refused, naming both.
    let other = tree.join("segments/1700000000000.2/warc");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(sample(), other.join("deep.warc.gz")).unwrap();
    let r = run(&["run", "-o", out.to_str().unwrap(), tree.to_str().unwrap()]);
    assert_eq!(code(&r), 2, "{}", describe(&r));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("1700000000000.1") && err.contains("1700000000000.2"),
        "{err}"
    );
}
