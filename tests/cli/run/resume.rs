//! Determinism, resume and kill safety: thread counts and compressions change no byte, a
//! rerun skips what is done and redoes what changed, a killed run resumes to the clean result,
//! an input truncated or replaced while read is partial and read again.

use super::{small, write_synth};
use crate::common::{code, describe, docs, files_in, manifest, outward, run_into, stdout, text};
use outward_testkit::{self as testkit, Compression, SynthOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

#[test]
fn threads_do_not_change_output() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs_dir = tmp.path().join("in");
    std::fs::create_dir(&inputs_dir).unwrap();
    let (_, synth) = write_synth(&inputs_dir, "synth.warc.gz", 300, &small(300));
    write_synth(&inputs_dir, "extra-a.warc.gz", 301, &small(20));
    write_synth(
        &inputs_dir,
        "extra-b.warc",
        302,
        &SynthOptions {
            compression: Compression::None,
            ..small(20)
        },
    );
    // 1 worker; 4 workers; 7 workers (two inputs read at once).
    let outs: Vec<PathBuf> = ["1", "4", "7"]
        .iter()
        .map(|t| {
            let out = tmp.path().join(format!("t{t}"));
            run_into(&out, &["--threads", t], &[&inputs_dir], 0);
            out
        })
        .collect();
    for name in [
        "synth.jsonl.zst",
        "extra-a.jsonl.zst",
        "extra-b.jsonl.zst",
        "manifest.jsonl",
    ] {
        let a = std::fs::read(outs[0].join(name)).unwrap();
        for out in &outs[1..] {
            let b = std::fs::read(out.join(name)).unwrap();
            assert!(
                a == b,
                "{name}: {} differs from {}",
                out.display(),
                outs[0].display()
            );
        }
    }
    // Every article became a document, in file order.
    let ids: Vec<String> = docs(&outs[0].join("synth.jsonl.zst"))
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, synth.expected_doc_ids());
    let m = manifest(&outs[0]);
    assert_eq!(
        m["synth.jsonl.zst"]["counts"]["records"].as_u64().unwrap() as usize,
        synth.records.len()
    );
}

#[test]
fn compressions_give_the_same_documents() {
    let tmp = tempfile::tempdir().unwrap();
    let mut texts = Vec::new();
    for c in [Compression::Gzip, Compression::None, Compression::Zstd] {
        let opts = SynthOptions {
            compression: c,
            ..small(20)
        };
        let name = format!("c{}", c.extension());
        let (input, synth) = write_synth(tmp.path(), &name, 77, &opts);
        let out = tmp.path().join(format!("out-{}", c.extension()));
        run_into(&out, &["--method", "fulltext"], &[&input], 0);
        let d = docs(&out.join("c.jsonl.zst"));
        let ids: Vec<&str> = d.iter().map(|d| d["id"].as_str().unwrap()).collect();
        assert_eq!(ids, synth.expected_doc_ids(), "{name}");
        texts.push(d.iter().map(|d| text(d).to_string()).collect::<Vec<_>>());
    }
    assert_eq!(texts[0], texts[1]);
    assert_eq!(texts[0], texts[2]);
}

fn mtime(path: &Path) -> std::time::SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

#[test]
fn rerun_resumes_and_reprocesses_on_change() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, _) = write_synth(tmp.path(), "r.warc.gz", 5, &small(15));
    let out = tmp.path().join("out");
    let shard = out.join("r.jsonl.zst");

    let first = run_into(&out, &["--method", "fulltext"], &[&input], 0);
    assert!(stdout(&first).contains("1 processed"), "{}", stdout(&first));
    let bytes = std::fs::read(&shard).unwrap();
    let stamp = mtime(&shard);
    let manifest_bytes = std::fs::read(out.join("manifest.jsonl")).unwrap();

    // Unchanged input and config: skipped, output untouched.
    let second = run_into(&out, &["--method", "fulltext"], &[&input], 0);
    assert!(
        stdout(&second).contains("1 unchanged (skipped)"),
        "{}",
        stdout(&second)
    );
    assert!(
        stdout(&second).contains("0 processed"),
        "{}",
        stdout(&second)
    );
    assert_eq!(std::fs::read(&shard).unwrap(), bytes);
    assert_eq!(mtime(&shard), stamp, "skipped input's shard was rewritten");
    assert_eq!(manifest(&out).len(), 1);
    assert_eq!(
        std::fs::read(out.join("manifest.jsonl")).unwrap(),
        manifest_bytes
    );

    // --force reprocesses (same bytes).
    let forced = run_into(&out, &["--method", "fulltext", "--force"], &[&input], 0);
    assert!(
        stdout(&forced).contains("1 processed"),
        "{}",
        stdout(&forced)
    );
    assert_eq!(std::fs::read(&shard).unwrap(), bytes);

    // A different method changes the config hash: rewritten, and said so.
    let other = run_into(&out, &["--method", "reverse"], &[&input], 0);
    assert!(
        stdout(&other).contains("0 processed, 1 rewritten (settings changed)"),
        "{}",
        stdout(&other)
    );
    assert!(
        String::from_utf8_lossy(&other.stderr)
            .contains("settings changed: --method reverse (was fulltext); rewriting r.jsonl.zst"),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    let m = manifest(&out);
    assert_eq!(m.len(), 1);
    let hash_reverse = m["r.jsonl.zst"]["config_hash"].clone();
    let back = run_into(&out, &["--method", "fulltext"], &[&input], 0);
    assert!(stdout(&back).contains("1 rewritten"), "{}", stdout(&back));
    assert_ne!(manifest(&out)["r.jsonl.zst"]["config_hash"], hash_reverse);
    assert_eq!(std::fs::read(&shard).unwrap(), bytes);

    // A deleted shard is rebuilt.
    std::fs::remove_file(&shard).unwrap();
    let rebuilt = run_into(&out, &["--method", "fulltext"], &[&input], 0);
    assert!(
        stdout(&rebuilt).contains("1 processed"),
        "{}",
        stdout(&rebuilt)
    );
    assert_eq!(std::fs::read(&shard).unwrap(), bytes);

    // A changed input (new content, so new size) is reprocessed.
    let (_, _) = write_synth(tmp.path(), "r.warc.gz", 6, &small(16));
    let changed = run_into(&out, &["--method", "fulltext"], &[&input], 0);
    assert!(
        stdout(&changed).contains("1 processed"),
        "{}",
        stdout(&changed)
    );
    assert_ne!(std::fs::read(&shard).unwrap(), bytes);
    assert_eq!(manifest(&out).len(), 1);
}

#[test]
fn killed_run_resumes_to_the_clean_result() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs_dir = tmp.path().join("in");
    std::fs::create_dir(&inputs_dir).unwrap();
    let mut inputs = Vec::new();
    // A small first input, then larger ones, so that even a release build is still writing
    // the second shard when the first one appears.
    for i in 0..4u64 {
        let opts = SynthOptions {
            pages: if i == 0 { 10 } else { 120 },
            min_bytes: 8 << 10,
            max_bytes: 60 << 10,
            ..SynthOptions::default()
        };
        let (p, _) = write_synth(&inputs_dir, &format!("part-{i}.warc.gz"), 1000 + i, &opts);
        inputs.push(p);
    }
    let clean = tmp.path().join("clean");
    run_into(&clean, &["--threads", "1"], &[&inputs_dir], 0);

    let killed = tmp.path().join("killed");
    let mut child = outward()
        .args(["run", "--threads", "1", "-o"])
        .arg(&killed)
        .arg(&inputs_dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut killed_mid_run = false;
    loop {
        let names: Vec<String> = std::fs::read_dir(&killed)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        let shards = names.iter().filter(|n| n.ends_with(".jsonl.zst")).count();
        let writing = names.iter().any(|n| n.contains(".tmp"));
        // Kill while the next shard is being written (after the first one is complete).
        if shards >= 1 && writing {
            if child.try_wait().unwrap().is_none() {
                child.kill().unwrap(); // SIGKILL
                killed_mid_run = true;
            }
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no shard after 60 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait().unwrap();
    assert!(killed_mid_run, "the run finished before it could be killed");
    let done_at_kill = files_in(&killed)
        .iter()
        .filter(|n| n.ends_with(".jsonl.zst"))
        .count();
    assert!(
        done_at_kill < inputs.len(),
        "all shards existed at kill time"
    );

    let rerun = run_into(&killed, &["--threads", "1"], &[&inputs_dir], 0);
    // Inputs whose manifest line was written before the kill are skipped (a shard renamed
    // just before the kill, without its manifest line yet, is redone).
    let summary = stdout(&rerun);
    let skipped: usize = summary
        .split(" unchanged (skipped)")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no skip count in {summary}"));
    assert!(
        (1..=done_at_kill).contains(&skipped),
        "{skipped} skipped, {done_at_kill} shards at kill time\n{summary}"
    );
    // Same shards, byte for byte, and one manifest line per input.
    let names = files_in(&killed);
    let finished: Vec<&String> = names.iter().filter(|n| !n.contains(".tmp")).collect();
    let clean_names = files_in(&clean);
    assert_eq!(
        finished,
        clean_names.iter().collect::<Vec<_>>(),
        "files after resume differ from a clean run"
    );
    for n in names.iter().filter(|n| n.ends_with(".jsonl.zst")) {
        assert_eq!(
            std::fs::read(killed.join(n)).unwrap(),
            std::fs::read(clean.join(n)).unwrap(),
            "{n} differs from a clean run"
        );
    }
    let m = manifest(&killed);
    assert_eq!(m.len(), inputs.len());
    let lines = std::fs::read_to_string(killed.join("manifest.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), inputs.len());
    assert!(m.values().all(|e| e["status"] == "complete"));
    // The killed run's temporary shard must not outlive the rerun.
    assert!(
        names.iter().all(|n| !n.contains(".tmp")),
        "temporary files left behind by the killed run: {names:?}"
    );
}

/// Starts `outward run --threads 1 -o out input`, stops it (SIGSTOP) as soon as it holds
/// `input` open, calls `change` with how far it has read the input while it is stopped, lets
/// it go on and returns its output.
fn run_changing_input(out: &Path, input: &Path, change: impl FnOnce(u64)) -> Output {
    let target = std::fs::canonicalize(input).unwrap();
    let child = outward()
        .args(["run", "--threads", "1", "-o"])
        .arg(out)
        .arg(input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting outward");
    let pid = child.id().to_string();
    let fds = PathBuf::from(format!("/proc/{pid}/fd"));
    let holds_input = || {
        std::fs::read_dir(&fds).ok().is_some_and(|entries| {
            entries
                .flatten()
                .any(|e| std::fs::read_link(e.path()).is_ok_and(|l| l == target))
        })
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !holds_input() {
        assert!(Instant::now() < deadline, "outward never opened the input");
        std::thread::sleep(Duration::from_micros(100));
    }
    let signal = |sig: &str| {
        let status = Command::new("kill").args([sig, &pid]).status().unwrap();
        assert!(status.success(), "kill {sig}");
    };
    signal("-STOP");
    // The furthest read position of its descriptors on the input (/proc/PID/fdinfo).
    let read_up_to = std::fs::read_dir(&fds)
        .unwrap()
        .flatten()
        .filter(|e| std::fs::read_link(e.path()).is_ok_and(|l| l == target))
        .filter_map(|e| {
            let info = format!("/proc/{pid}/fdinfo/{}", e.file_name().to_string_lossy());
            let info = std::fs::read_to_string(info).ok()?;
            info.lines()
                .find_map(|l| l.strip_prefix("pos:"))
                .and_then(|p| p.trim().parse::<u64>().ok())
        })
        .max()
        .unwrap_or(0);
    change(read_up_to);
    signal("-CONT");
    child.wait_with_output().unwrap()
}

/// The ids of a shard's documents, in order.
fn doc_ids(shard: &Path) -> Vec<String> {
    docs(shard)
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect()
}

/// Big enough (about 30 MB) that the run is still reading when it is stopped.
fn big_plain_warc(dir: &Path, name: &str, seed: u64) -> (PathBuf, testkit::SynthWarc) {
    let options = SynthOptions {
        pages: 1000,
        min_bytes: 20 << 10,
        max_bytes: 40 << 10,
        compression: Compression::None,
        ..SynthOptions::default()
    };
    write_synth(dir, name, seed, &options)
}

// Regression: an input truncated while it was read was "complete" in the manifest when the
// cut fell between records, and its identity was the one taken before the read.
#[test]
fn an_input_truncated_while_read_is_partial_and_read_again() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, synth) = big_plain_warc(tmp.path(), "growing.warc", 71);
    let out = tmp.path().join("out");
    let len = synth.bytes.len() as u64;
    let cut = std::cell::Cell::new(0);
    let first = run_changing_input(&out, &input, |read_up_to| {
        // Well past what it has read (and may hold in buffers), well before the end.
        cut.set((len / 2).max(read_up_to + (4 << 20)));
        assert!(
            cut.get() < len - (4 << 20),
            "read {read_up_to} of {len} bytes already"
        );
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&input)
            .unwrap();
        file.set_len(cut.get()).unwrap();
    });
    let cut = cut.get();
    assert_eq!(code(&first), 1, "{}", describe(&first));
    let entry = &manifest(&out)["growing.jsonl.zst"];
    assert_eq!(entry["status"], "partial", "{entry}");
    let error = entry["error"].as_str().unwrap();
    assert!(
        error.contains("changed size") && error.contains("while it was read"),
        "{error}"
    );
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(
        stderr.contains("growing.warc") && stderr.contains("while it was read"),
        "{stderr}"
    );
    // What was written are pages of the file, in order, none past the cut.
    let expected: Vec<String> = synth
        .records
        .iter()
        .filter(|r| r.expect_doc && r.end <= cut)
        .map(|r| r.id.clone())
        .collect();
    let kept = doc_ids(&out.join("growing.jsonl.zst"));
    assert_eq!(kept[..], expected[..kept.len()]);
    // The next run reads the (now truncated) file again: damaged, but no longer changing.
    let again = run_into(&out, &["--threads", "1"], &[&input], 1);
    assert!(
        !stdout(&again).contains("1 unchanged"),
        "{}",
        stdout(&again)
    );
    let entry = &manifest(&out)["growing.jsonl.zst"];
    assert_eq!(entry["status"], "partial");
    assert!(
        !entry["error"]
            .as_str()
            .unwrap()
            .contains("while it was read")
    );
    assert_eq!(entry["identity"]["size"], cut);
    let kept = doc_ids(&out.join("growing.jsonl.zst"));
    assert_eq!(kept, expected);
}

#[test]
fn an_input_replaced_while_read_is_partial_and_the_new_file_is_read_next() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, _) = big_plain_warc(tmp.path(), "nightly.warc", 72);
    let (replacement, new) = big_plain_warc(tmp.path(), "next.warc.tmp", 73);
    let out = tmp.path().join("out");
    let first = run_changing_input(&out, &input, |_| {
        std::fs::rename(&replacement, &input).unwrap();
    });
    assert_eq!(code(&first), 1, "{}", describe(&first));
    let entry = &manifest(&out)["nightly.jsonl.zst"];
    assert_eq!(entry["status"], "partial", "{entry}");
    assert!(
        entry["error"]
            .as_str()
            .unwrap()
            .contains("was replaced by another file while it was read"),
        "{entry}"
    );
    let again = run_into(&out, &["--threads", "1"], &[&input], 0);
    assert!(
        !stdout(&again).contains("1 unchanged"),
        "{}",
        stdout(&again)
    );
    let entry = &manifest(&out)["nightly.jsonl.zst"];
    assert_eq!(entry["status"], "complete");
    let kept = doc_ids(&out.join("nightly.jsonl.zst"));
    assert_eq!(kept, new.expected_doc_ids());
    // Unchanged now: the third run reuses it.
    let third = run_into(&out, &["--threads", "1"], &[&input], 0);
    assert!(stdout(&third).contains("1 unchanged"), "{}", stdout(&third));
}
