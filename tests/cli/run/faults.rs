//! Faults around the output and memory: a disk that fills up, a read-only output directory,
//! peak RSS with records at the size cap.

use super::write_synth;
use crate::common::{
    OUTWARD, TinyDisk, code, describe, docs, files_in, manifest, outward, peak_rss_kib_of,
    run_into, sample,
};
use outward_testkit::{self as testkit, SynthOptions};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// #10, faults around the output: a disk that fills up while an input's shard is written
/// fails that input cleanly — no shard under its final name, no temporary file left behind
/// (it used to stay, keeping the disk full: a failed final flush skipped its removal), no
/// manifest line, the error named with the input — and the next input is still done.
#[test]
fn a_full_disk_fails_that_input_cleanly_and_the_others_are_done() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(disk) = TinyDisk::mount(&tmp.path().join("disk"), "256k") else {
        eprintln!("skipped: cannot mount a tmpfs here");
        return;
    };
    // About 500 KB of compressed documents: more than the disk holds, less than the
    // writer buffers (so the disk fills in the final flush).
    let (big, _) = write_synth(
        tmp.path(),
        "big.warc.gz",
        7,
        &SynthOptions {
            pages: 100,
            ..SynthOptions::default()
        },
    );
    let out_dir = disk.0.join("out");
    let out = run_into(&out_dir, &["--threads", "1"], &[&big, &sample()], 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("big.warc.gz") && err.contains("No space left on device"),
        "{}",
        describe(&out)
    );
    let files = files_in(&out_dir);
    assert!(!files.iter().any(|f| f.starts_with("big.")), "{files:?}");
    assert!(!files.iter().any(|f| f.contains(".tmp-")), "{files:?}");
    assert!(files.contains(&"sample.jsonl.zst".to_string()), "{files:?}");
    assert!(!docs(&out_dir.join("sample.jsonl.zst")).is_empty());
    let manifest = std::fs::read_to_string(out_dir.join("manifest.jsonl")).unwrap();
    // Its line, if the full disk took one, says it failed: never complete.
    for line in manifest.lines().filter(|l| l.contains("big.warc.gz")) {
        assert!(line.contains("\"status\":\"failed\""), "{line}");
    }
    assert!(manifest.contains("sample.warc.gz"), "{manifest}");
}

/// #10, faults around the output: an output directory on a read-only filesystem is refused
/// at once with the reason (exit 2), before any input is read.
#[test]
fn a_read_only_output_dir_is_refused_with_its_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(disk) = TinyDisk::mount(&tmp.path().join("disk"), "64k") else {
        eprintln!("skipped: cannot mount a tmpfs here");
        return;
    };
    let out_dir = disk.0.join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let remounted = Command::new("mount")
        .args(["-o", "remount,ro"])
        .arg(&disk.0)
        .status()
        .is_ok_and(|s| s.success());
    assert!(remounted, "remounting the test's tmpfs read-only");
    let out = run_into(&out_dir, &[], &[&sample()], 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Read-only file system"), "{}", describe(&out));
    assert!(files_in(&out_dir).is_empty());
}

/// Peak RSS in KiB of `outward ARGS`, with its exit code.
fn peak_rss_kib(args: &[&str]) -> (i32, u64) {
    let gnu_time = Path::new("/usr/bin/time");
    if gnu_time.exists() {
        let report = tempfile::NamedTempFile::new().unwrap();
        let out = Command::new(gnu_time)
            .arg("-f")
            .arg("%M")
            .arg("-o")
            .arg(report.path())
            .arg(OUTWARD)
            .args(args)
            .output()
            .unwrap();
        let text = std::fs::read_to_string(report.path()).unwrap();
        if let Some(kib) = text
            .lines()
            .last()
            .and_then(|l| l.trim().parse::<u64>().ok())
        {
            return (code(&out), kib);
        }
    }
    // Fallback: poll VmHWM while it runs.
    let (status, peak) = peak_rss_kib_of(outward().args(args));
    (status.code().unwrap_or(-1), peak)
}

#[test]
fn peak_memory_stays_bounded_with_16mib_records() {
    let tmp = tempfile::tempdir().unwrap();
    // Three records just under the 16 MiB cap (processed) and two just over it (skipped).
    let mib = 1 << 20;
    let sizes = [15 * mib + mib / 2, 17 * mib, 15 * mib, 17 * mib, 14 * mib];
    let synth = testkit::big_records_warc(9, &sizes);
    let input = tmp.path().join("big.warc");
    std::fs::write(&input, &synth.bytes).unwrap();
    drop(synth);
    let out = tmp.path().join("out");
    let start = Instant::now();
    let (c, kib) = peak_rss_kib(&[
        "run",
        "--threads",
        "2",
        "--method",
        "fulltext",
        "-o",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    eprintln!(
        "peak RSS {} MiB in {:.1} s",
        kib / 1024,
        start.elapsed().as_secs_f64()
    );
    assert_eq!(c, 0);
    assert!(kib > 16 * 1024, "peak RSS {kib} KiB is implausibly low");
    assert!(kib < 1024 * 1024, "peak RSS {} MiB >= 1 GiB", kib / 1024);
    let e = &manifest(&out)["big.jsonl.zst"];
    assert_eq!(e["counts"]["written"], 3);
    assert_eq!(e["counts"]["skipped"]["too_big"], 2);
}
