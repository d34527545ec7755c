//! `outward run` on remote inputs, served by a local HTTP server started here (never the
//! internet): a URL gives the same shard as the file; a rerun finds it unchanged; connections
//! dropped mid-file are resumed and give the same bytes out; a `warc.paths` list with
//! `--base-url` names URLs; a server that is down fails the input with its URL named.

use crate::common::{describe, manifest_lines, outward, run, sample, shard_bytes, start_moto};
use outward_testkit::http_server::{Faults, TestServer};
use std::path::Path;
use std::process::Command;

/// The documents `outward run` writes for the sample file, run into `dir/local`.
fn local_shard_of_the_sample(dir: &Path) -> Vec<u8> {
    let local = dir.join("local");
    let out = run(&[
        "run",
        sample().to_str().unwrap(),
        "-o",
        local.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(manifest_lines(&local)[0]["identity"].get("etag").is_none());
    shard_bytes(&local.join("sample.jsonl.zst"))
}

#[test]
fn a_url_gives_the_files_shard_and_resumes_dropped_connections() {
    let bytes = std::fs::read(sample()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // A local input's manifest line has no etag.
    let want = local_shard_of_the_sample(dir.path());
    assert!(!want.is_empty());

    // A server that drops every connection after 3000 bytes, four times.
    let server = TestServer::start(Faults {
        drops: 4,
        drop_after: 3000,
        ..Faults::default()
    });
    server.put("/crawl/sample.warc.gz", bytes.clone());
    let url = server.url("/crawl/sample.warc.gz");
    let remote = dir.path().join("remote");
    let out = run(&["run", &url, "-o", remote.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(shard_bytes(&remote.join("sample.jsonl.zst")), want);
    // Told, not silent.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{url}: 4 failed requests or broken connections retried"
        )),
        "{stderr}"
    );
    let lines = manifest_lines(&remote);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["input"], url.as_str());
    assert_eq!(lines[0]["status"], "complete");
    assert_eq!(lines[0]["identity"]["path"], url.as_str());
    assert_eq!(lines[0]["identity"]["size"], bytes.len() as u64);
    assert!(lines[0]["identity"]["etag"].is_string());
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r.starts_with("GET") && r.contains("range=bytes=")),
        "{:?}",
        server.requests()
    );
    // Rerun: the object is the same (HEAD only), nothing is read again.
    let before = server.requests().len();
    let out = run(&["run", &url, "-o", remote.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("1 unchanged"), "{stdout}");
    let after = server.requests();
    assert_eq!(
        after[before..],
        ["HEAD /crawl/sample.warc.gz range=-"],
        "{after:?}"
    );

    // Changed on the server: read again.
    let mut changed = bytes.clone();
    changed.extend_from_slice(&outward_testkit::gzip(b"\r\n"));
    server.put("/crawl/sample.warc.gz", changed);
    let out = run(&["run", &url, "-o", remote.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 processed"));
}

#[test]
fn a_paths_list_with_a_base_url_names_urls() {
    let bytes = std::fs::read(sample()).unwrap();
    let server = TestServer::start(Faults::default());
    server.put("/crawl-data/CC-X/segments/1/warc/a.warc.gz", bytes.clone());
    server.put("/crawl-data/CC-X/segments/1/warc/b.warc.gz", bytes);
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("warc.paths.gz");
    std::fs::write(
        &list,
        outward_testkit::gzip(
            b"crawl-data/CC-X/segments/1/warc/a.warc.gz\ncrawl-data/CC-X/segments/1/warc/b.warc.gz\n",
        ),
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let base = format!("{}/", server.base());
    let out = run(&[
        "run",
        "--input-list",
        list.to_str().unwrap(),
        "--base-url",
        &base,
        "--shard",
        "1/2",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let lines = manifest_lines(&out_dir);
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0]["input"],
        server
            .url("/crawl-data/CC-X/segments/1/warc/b.warc.gz")
            .as_str()
    );
    assert_eq!(lines[0]["output"], "b.jsonl.zst");
}

/// A server that stops sending in the middle of a body (and would wait an hour): after
/// `--read-timeout` the connection counts as broken and the read resumes from the byte it
/// reached, giving the file's shard.
#[test]
fn a_stalled_connection_is_resumed_after_the_read_timeout() {
    let bytes = std::fs::read(sample()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let want = local_shard_of_the_sample(dir.path());
    let server = TestServer::start(Faults {
        stall_every: 2,
        stall_for: std::time::Duration::from_secs(3600),
        drop_after: 3000,
        ..Faults::default()
    });
    server.put("/crawl/sample.warc.gz", bytes);
    let url = server.url("/crawl/sample.warc.gz");
    let remote = dir.path().join("remote");
    let out = run(&[
        "run",
        &url,
        "--read-timeout",
        "0.2",
        "--retry-wait",
        "0",
        "-o",
        remote.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(shard_bytes(&remote.join("sample.jsonl.zst")), want);
    // Each stall but one after the body's last byte (the last range is short) broke a read.
    let stalls = server.faulted();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let retried: usize = stderr
        .split_once(&format!("{url}: "))
        .and_then(|(_, rest)| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        retried >= 2 && retried <= stalls && retried + 1 >= stalls,
        "{stalls} stalls: {stderr}"
    );
    assert!(stderr.contains("failed requests or broken connections retried"));
    // Refused: a timeout of no time, or not a number.
    for bad in ["0", "x"] {
        let out = run(&["run", &url, "--read-timeout", bad, "-o", "unused"]);
        assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    }
}

#[test]
fn a_server_that_is_down_fails_the_input_and_names_it() {
    let server = TestServer::start(Faults {
        unavailable: 1000,
        ..Faults::default()
    });
    let url = server.url("/x.warc.gz");
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let out = run(&[
        "run",
        &url,
        "--retries",
        "2",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", describe(&out));
    assert_eq!(server.requests().len(), 3);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&url) && stderr.contains("HTTP 503"),
        "{stderr}"
    );
    // Not found is not retried.
    let up = TestServer::start(Faults::default());
    let missing = up.url("/missing.warc.gz");
    let out = run(&["run", &missing, "-o", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("HTTP 404"));
    assert_eq!(up.requests().len(), 1);
}

/// An S3 object read from a real S3 implementation (moto), put there by boto3: the same
/// shard as the file, and a missing key fails the input with S3's answer.
#[test]
fn s3_objects_from_a_local_s3_server() {
    let moto = match start_moto() {
        Ok(m) => m,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let put = format!(
        "import boto3\n\
         s3 = boto3.client('s3', endpoint_url='{}', region_name='us-east-1',\n\
           aws_access_key_id='testing', aws_secret_access_key='testing')\n\
         s3.create_bucket(Bucket='crawl')\n\
         s3.upload_file(r'{}', 'crawl', 'segments/1/sample.warc.gz')\n",
        moto.endpoint,
        sample().display()
    );
    let python = std::env::var("OUTWARD_TEST_PYTHON").unwrap();
    let out = Command::new(&python).args(["-c", &put]).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));

    let want = local_shard_of_the_sample(dir.path());
    let s3 = |args: &[&str]| {
        outward()
            .args(args)
            .env("AWS_ENDPOINT_URL", &moto.endpoint)
            .env("AWS_ACCESS_KEY_ID", "testing")
            .env("AWS_SECRET_ACCESS_KEY", "testing")
            .env("AWS_REGION", "us-east-1")
            .output()
            .unwrap()
    };
    let remote = dir.path().join("remote");
    let url = "s3://crawl/segments/1/sample.warc.gz";
    let out = s3(&["run", url, "-o", remote.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(shard_bytes(&remote.join("sample.jsonl.zst")), want);
    let line = &manifest_lines(&remote)[0];
    assert_eq!(line["input"], url);
    assert!(line["identity"]["etag"].is_string(), "{line}");
    // Unchanged on a rerun.
    let out = s3(&["run", url, "-o", remote.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 unchanged"));

    let out = s3(&[
        "run",
        "s3://crawl/segments/1/missing.warc.gz",
        "-o",
        remote.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("HTTP 404"));
}
