//! Helpers of the tests that run the `outward` binary: [`describe`] (a finished command for
//! assertion messages), [`write_truth_fixture`] (generated pages as a WARC with its truth
//! file, for `train` and `eval`) and [`python_with`] (the Python of the test peers).

use crate::http::HttpResponse;
use crate::warc::{Compression, WarcWriter};
use std::path::{Path, PathBuf};

/// A finished command for assertion messages: its exit status, stdout and stderr.
pub fn describe(out: &std::process::Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Writes `pages.warc.gz` (a gzip member per record, record ids from `seed`) and its truth
/// file `pages.truth.jsonl` into `dir`: `count` pages `page(n) = (html, truth text)` at
/// `https://gazette.example/story/{n}`, each truth line `{"id", "warc_record_id",
/// "truth_kind": "full", "truth"}`. Returns the WARC's path.
pub fn write_truth_fixture(
    dir: &Path,
    count: usize,
    seed: u64,
    page: impl Fn(usize) -> (String, String),
) -> PathBuf {
    let mut warc = WarcWriter::new(Compression::Gzip, seed);
    let mut truth = String::new();
    for n in 0..count {
        let (html, text) = page(n);
        let url = format!("https://gazette.example/story/{n}");
        let id = warc.response(&url, &HttpResponse::html(&html));
        let line = serde_json::json!({
            "id": n, "warc_record_id": id, "truth_kind": "full", "truth": text
        });
        truth.push_str(&line.to_string());
        truth.push('\n');
    }
    let (bytes, _) = warc.finish();
    let path = dir.join("pages.warc.gz");
    std::fs::write(&path, bytes).expect("writing the fixture WARC");
    std::fs::write(dir.join("pages.truth.jsonl"), truth).expect("writing the fixture truth");
    path
}

/// The Python that has the test peers (`make test` sets `OUTWARD_TEST_PYTHON` to its venv,
/// else `python3`), if it can import `module`; a test without it skips that part and says so.
pub fn python_with(module: &str) -> Option<String> {
    let python = std::env::var("OUTWARD_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = std::process::Command::new(&python)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("note: {python} cannot import {module} (run `make pyenv`): skipped");
    }
    ok.then_some(python)
}
