//! The shared edge and real samples (`../shared/samples`): every record counted once, the
//! expected status, records and documents of each file.

use crate::common::{code, docs, files_in, manifest, outward, shared_data};
use serde_json::Value;
use std::path::Path;

/// Runs one file alone; returns (exit code, its manifest entry).
fn run_one(file: &Path, out: &Path) -> (i32, Value) {
    let o = outward()
        .args(["run", "--threads", "2", "-o"])
        .arg(out)
        .arg(file)
        .output()
        .unwrap();
    let c = code(&o);
    let m = manifest(out);
    assert_eq!(m.len(), 1, "{}", file.display());
    let entry = m.into_values().next().unwrap();
    // Every record is counted exactly once.
    let counts = &entry["counts"];
    let skipped: u64 = counts["skipped"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(
        counts["records"].as_u64().unwrap(),
        counts["written"].as_u64().unwrap() + skipped,
        "{}: {counts}",
        file.display()
    );
    let shard = out.join(entry["output"].as_str().unwrap());
    assert_eq!(
        docs(&shard).len() as u64,
        counts["written"].as_u64().unwrap()
    );
    (c, entry)
}

#[test]
fn shared_edge_samples() {
    let Some(samples) = shared_data("samples") else {
        return;
    };
    let edge = samples.join("edge");
    let tmp = tempfile::tempdir().unwrap();
    let mut names: Vec<String> = files_in(&edge)
        .into_iter()
        .filter(|n| n.contains(".warc"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{names:?}");
    for name in names {
        let out = tmp.path().join(&name);
        let (c, e) = run_one(&edge.join(&name), &out);
        let stem = name.split('.').next().unwrap();
        let counts = &e["counts"];
        let records = counts["records"].as_u64().unwrap();
        let written = counts["written"].as_u64().unwrap();
        let bad = counts["skipped"]["bad_record"].as_u64().unwrap_or(0);
        match stem {
            "corrupt_member" | "truncated_tail" => {
                assert_eq!(c, 1, "{name}");
                assert_eq!(e["status"], "partial", "{name}");
                assert!(e["error_offset"].is_u64(), "{name}");
                assert!(written >= 1, "{name}: records before the damage are kept");
            }
            "ok_10_11"
            | "warc_0_18"
            | "lf_only_headers"
            | "header_continuation"
            | "garbage_between" => {
                assert_eq!(c, 0, "{name}");
                assert_eq!((records, written), (3, 3), "{name}: {counts}");
            }
            "chunked_only" | "gzip_only" | "chunked_gzip" => {
                assert_eq!(c, 0, "{name}");
                assert_eq!((records, written), (4, 4), "{name}: {counts}");
            }
            "cl_too_short" | "cl_too_long" | "missing_content_length" => {
                assert_eq!(c, 0, "{name}");
                assert_eq!(bad, 1, "{name}: the bad record is flagged: {counts}");
                assert!(written >= 2, "{name}: later records kept: {counts}");
            }
            other => panic!("unexpected edge sample {other}: add its expectation"),
        }
    }
}

#[test]
fn shared_real_samples() {
    let Some(samples) = shared_data("samples") else {
        return;
    };
    let real = samples.join("real");
    let tmp = tempfile::tempdir().unwrap();
    // (file, exit code, records (real/README.md), least documents, most documents)
    let cases = [
        (
            "chatnoir-eu+chatnoir-resiliparse/warcfile.warc.gz",
            0,
            50,
            14,
            16,
        ),
        (
            "chatnoir-eu+chatnoir-resiliparse/clueweb-quirk.warc.gz",
            0,
            30,
            25,
            29,
        ),
        ("commoncrawl+whirlwind-python/whirlwind.warc.gz", 0, 4, 1, 1),
        ("iipc+jwarc/cc.warc.gz", 0, 1, 1, 1),
        ("webrecorder+pywb/iana.warc.gz", 0, 343, 14, 20),
        ("webrecorder+pywb/example.warc.gz", 0, 6, 1, 2),
    ];
    for (i, (file, exit, records, lo, hi)) in cases.into_iter().enumerate() {
        let (c, e) = run_one(&real.join(file), &tmp.path().join(i.to_string()));
        assert_eq!(c, exit, "{file}");
        assert_eq!(e["status"], "complete", "{file}");
        assert_eq!(e["counts"]["records"], records, "{file}");
        let written = e["counts"]["written"].as_u64().unwrap();
        assert!((lo..=hi).contains(&written), "{file}: {written} documents");
    }
    // The clipped file: its one response is cut short, reported partial.
    let (c, e) = run_one(
        &real.join("chatnoir-eu+chatnoir-resiliparse/clipped.warc.gz"),
        &tmp.path().join("clipped"),
    );
    assert_eq!(c, 1);
    assert_eq!(e["status"], "partial");
    assert_eq!(e["counts"]["written"], 0);
}
