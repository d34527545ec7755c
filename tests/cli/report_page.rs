//! `outward report`: the page of a run's output directory counts what the manifest counts,
//! holds nothing that reaches the network, is the same page for the same directory, and
//! says what is missing from a damaged directory instead of failing.

use super::common::*;
use std::collections::BTreeMap;
use std::path::Path;

/// `data-label` → `data-value` of every bar of the chart `name`, as counts.
fn chart(page: &str, name: &str) -> BTreeMap<String, u64> {
    chart_f64(page, name)
        .into_iter()
        .map(|(label, v)| {
            assert_eq!(v.fract(), 0.0, "{name}: {label} = {v}");
            (label, v as u64)
        })
        .collect()
}

fn report(dir: &Path, expect: i32) -> (String, std::process::Output) {
    let out = run(&["report".as_ref(), dir.as_os_str()]);
    assert_eq!(code(&out), expect, "{}", describe(&out));
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap_or_default();
    (page, out)
}

#[test]
fn the_page_counts_what_the_manifest_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let (other, _) = {
        let path = tmp.path().join("synth.warc.gz");
        std::fs::write(&path, outward_testkit::synthetic_warc_gz(5, 40)).unwrap();
        (path, ())
    };
    run_into(&out, &[], &[&sample(), &other], 0);
    let (page, printed) = report(&out, 0);
    assert!(
        stdout(&printed).contains("report.html"),
        "{}",
        stdout(&printed)
    );

    let entries = manifest_lines(&out);
    let sum = |f: &dyn Fn(&serde_json::Value) -> u64| entries.iter().map(f).sum::<u64>();
    let written = sum(&|e| e["counts"]["written"].as_u64().unwrap());
    let records = sum(&|e| e["counts"]["records"].as_u64().unwrap());
    assert!(
        page.contains(&format!(
            "data-records=\"{records}\" data-written=\"{written}\" data-documents=\"{written}\""
        )),
        "summary"
    );

    // Records by outcome: written plus every skip reason, as the manifest adds them up.
    let bars = chart(&page, "records");
    assert_eq!(bars["written"], written);
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    for e in &entries {
        for (reason, n) in e["counts"]["skipped"].as_object().unwrap() {
            *reasons.entry(reason.clone()).or_default() += n.as_u64().unwrap();
        }
    }
    for (reason, n) in &reasons {
        assert_eq!(bars[reason], *n, "{reason}");
    }
    assert_eq!(bars.len(), reasons.len() + 1);

    // Languages, lengths, nodes and hosts each count every document once.
    let docs: Vec<serde_json::Value> = entries
        .iter()
        .flat_map(|e| docs(&out.join(e["output"].as_str().unwrap())))
        .collect();
    let mut languages: BTreeMap<String, u64> = BTreeMap::new();
    for d in &docs {
        let l = d["metadata"]["language"].as_str().unwrap_or("none");
        *languages.entry(l.to_string()).or_default() += 1;
    }
    assert_eq!(chart(&page, "languages"), languages);
    // The spread of language_score: every document once, in its tenth.
    let mut tenths: BTreeMap<String, u64> = BTreeMap::new();
    for d in &docs {
        let score = d["metadata"]["language_score"].as_f64().unwrap_or(0.0);
        let i = ((score * 10.0) as usize).min(9);
        let hi = if i == 9 {
            "1.0".to_string()
        } else {
            format!("0.{}", i + 1)
        };
        *tenths.entry(format!("0.{i} – {hi}")).or_default() += 1;
    }
    let drawn: BTreeMap<String, u64> = chart(&page, "language-score")
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .collect();
    assert_eq!(drawn, tenths);
    for name in ["text-length", "nodes-fraction", "language-score"] {
        assert_eq!(chart(&page, name).values().sum::<u64>(), written, "{name}");
    }
    // Each host drawn by bytes of text carries the bytes of its documents' texts, and no
    // host left out has more.
    let mut text_bytes: BTreeMap<String, u64> = BTreeMap::new();
    for d in &docs {
        let url = d["metadata"]["url"].as_str().unwrap_or("");
        let host = url
            .split("://")
            .nth(1)
            .unwrap_or("")
            .split(['/', ':'])
            .next()
            .unwrap();
        *text_bytes.entry(host.to_string()).or_default() +=
            d["text"].as_str().unwrap().len() as u64;
    }
    let by_bytes = chart(&page, "hosts-bytes");
    assert_eq!(by_bytes.len(), 20.min(text_bytes.len()));
    for (host, bytes) in &by_bytes {
        assert_eq!(text_bytes[host], *bytes, "{host}");
    }
    let least_drawn = by_bytes.values().min().copied().unwrap();
    let left_out_max = text_bytes
        .iter()
        .filter(|(h, _)| !by_bytes.contains_key(*h))
        .map(|(_, b)| *b)
        .max()
        .unwrap_or(0);
    assert!(left_out_max <= least_drawn);
    let hosts = chart(&page, "hosts-documents");
    assert!(hosts.values().sum::<u64>() <= written && !hosts.is_empty());
    assert!(page.matches("<tr><td>").count() >= 20, "the sample table");

    // Self-contained: no script, no resource to fetch.
    for needle in ["<script", "src=", "href=", "url(", "@import"] {
        assert!(!page.contains(needle), "{needle}");
    }
    // The same directory gives the same page.
    let again = report(&out, 0).0;
    assert_eq!(page, again);
}

/// The timings log beside the manifest (one line per output as it is now, compacted with the
/// manifest) and the throughput charts drawn from it: each bar is its input's bytes of HTML
/// and documents over its seconds; a line for a shard since replaced is not drawn.
#[test]
fn throughput_is_drawn_from_the_timings_log() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let synth = tmp.path().join("synth.warc.gz");
    std::fs::write(&synth, outward_testkit::synthetic_warc_gz(5, 40)).unwrap();
    run_into(&out, &[], &[&sample(), &synth], 0);
    let timings = || -> Vec<serde_json::Value> {
        std::fs::read_to_string(out.join("timings.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let first = timings();
    let check_against_manifest = |lines: &[serde_json::Value]| {
        let manifest = manifest(&out);
        assert_eq!(lines.len(), manifest.len());
        for t in lines {
            let e = &manifest[t["output"].as_str().unwrap()];
            assert_eq!(t["output_sha256"], e["output_sha256"]);
            assert_eq!(t["input"], e["input"]);
            assert_eq!(t["records"], e["counts"]["records"]);
            assert_eq!(t["written"], e["counts"]["written"]);
            assert_eq!(t["html_bytes"], e["counts"]["html_bytes"]);
            assert_eq!(t["input_bytes"], e["identity"]["size"]);
            assert!(t["seconds"].as_f64().unwrap() > 0.0, "{t}");
        }
    };
    check_against_manifest(&first);

    // A rerun reuses the sample (its timing stays) and forces nothing; a forced rerun of the
    // synthetic input replaces its line, and compaction keeps one line per output.
    run_into(&out, &[], &[&sample(), &synth], 0);
    assert_eq!(timings(), first);
    run_into(&out, &["--force"], &[&synth], 0);
    let second = timings();
    check_against_manifest(&second);
    let started = |lines: &[serde_json::Value], output: &str| {
        lines.iter().find(|t| t["output"] == output).unwrap()["started"].as_f64()
    };
    assert_eq!(
        started(&second, "sample.jsonl.zst"),
        started(&first, "sample.jsonl.zst")
    );
    assert!(started(&second, "synth.jsonl.zst") >= started(&first, "synth.jsonl.zst"));

    // A line for a shard that is no longer there as it was (another SHA-256) is not drawn.
    let mut stale = second[0].clone();
    stale["output_sha256"] = "0".repeat(64).into();
    stale["seconds"] = 1e-6.into();
    let mut log = std::fs::read_to_string(out.join("timings.jsonl")).unwrap();
    log.push_str(&format!("{stale}\n"));
    std::fs::write(out.join("timings.jsonl"), log).unwrap();

    let (page, _) = report(&out, 0);
    assert!(page.contains("data-timed=\"2\""), "two inputs timed");
    let html = chart_f64(&page, "throughput-html");
    let documents = chart_f64(&page, "throughput-documents");
    assert_eq!(html.len(), 2);
    for t in &second {
        let label = t["input"].as_str().unwrap().rsplit('/').next().unwrap();
        let seconds = t["seconds"].as_f64().unwrap();
        let mb = t["html_bytes"].as_f64().unwrap() / 1e6 / seconds;
        let docs = t["written"].as_f64().unwrap() / seconds;
        assert!((html[label] - mb).abs() <= 1e-9 * mb, "{label}");
        assert!((documents[label] - docs).abs() <= 1e-9 * docs, "{label}");
    }

    // A directory whose run logged no timings says so instead of drawing.
    std::fs::remove_file(out.join("timings.jsonl")).unwrap();
    let (page, _) = report(&out, 0);
    assert!(page.contains("data-timed=\"0\""));
    assert!(!page.contains("data-chart=\"throughput-html\""));
}

#[test]
fn a_damaged_directory_gives_a_page_that_says_what_is_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let cut = tmp.path().join("other.warc.gz");
    std::fs::write(&cut, outward_testkit::synthetic_warc_gz(6, 30)).unwrap();
    let missing = tmp.path().join("missing.warc.gz");
    // One input complete, one whose shard will be cut, one that failed.
    run_into(&out, &[], &[&sample(), &cut, &missing], 3);
    let shard = out.join("other.jsonl.zst");
    let bytes = std::fs::read(&shard).unwrap();
    std::fs::write(&shard, &bytes[..bytes.len() / 2]).unwrap();
    let (page, printed) = report(&out, 0);
    assert!(page.contains("id=\"problems\""), "no problems section");
    let err = String::from_utf8_lossy(&printed.stderr);
    assert!(err.contains("missing.warc.gz: failed"), "{err}");
    assert!(err.contains("other.jsonl.zst"), "{err}");
    assert!(
        page.contains("failed: cannot read input"),
        "the failed input"
    );
    // The complete input's documents are all drawn.
    let sample_written = manifest(&out)["sample.jsonl.zst"]["counts"]["written"]
        .as_u64()
        .unwrap();
    assert!(chart(&page, "text-length").values().sum::<u64>() >= sample_written);

    // A shard deleted: named, and the page still made.
    std::fs::remove_file(out.join("sample.jsonl.zst")).unwrap();
    let (page, printed) = report(&out, 0);
    assert!(String::from_utf8_lossy(&printed.stderr).contains("sample.jsonl.zst"));
    assert!(page.contains("sample.jsonl.zst"));

    // A directory that is no run's, or an empty manifest: a usage error naming it.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (_, printed) = report(&empty, 2);
    let err = String::from_utf8_lossy(&printed.stderr);
    assert!(
        err.contains("has no manifest.jsonl") && err.contains("empty"),
        "{err}"
    );
    std::fs::write(empty.join("manifest.jsonl"), "").unwrap();
    let (_, printed) = report(&empty, 2);
    assert!(String::from_utf8_lossy(&printed.stderr).contains("holds no readable line"));
}

#[test]
fn wet_output_is_drawn_too() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("wet");
    run_into(&out, &["--output-format", "wet"], &[&sample()], 0);
    let (page, printed) = report(&out, 0);
    assert!(printed.stderr.is_empty(), "{}", describe(&printed));
    let written = manifest(&out)["sample.warc.wet.gz"]["counts"]["written"]
        .as_u64()
        .unwrap();
    assert_eq!(chart(&page, "languages").values().sum::<u64>(), written);
    assert!(page.contains("WET output does not hold them"));
}

/// The page of a Parquet run is the page of the Dolma run of the same input and settings:
/// the report reads the same documents from either.
#[test]
fn parquet_output_is_drawn_as_the_dolma_shard_is() {
    let tmp = tempfile::tempdir().unwrap();
    let (dolma, parquet) = (tmp.path().join("dolma"), tmp.path().join("parquet"));
    run_into(&dolma, &["--signals"], &[&sample()], 0);
    run_into(
        &parquet,
        &["--signals", "--output-format", "parquet"],
        &[&sample()],
        0,
    );
    let (page, printed) = report(&parquet, 0);
    assert!(printed.stderr.is_empty(), "{}", describe(&printed));
    let (dolma_page, _) = report(&dolma, 0);
    for name in ["languages", "records"] {
        assert_eq!(chart(&page, name), chart(&dolma_page, name), "{name}");
    }
    assert_eq!(
        chart(&page, "languages").values().sum::<u64>(),
        manifest(&parquet)["sample.parquet"]["counts"]["written"]
            .as_u64()
            .unwrap()
    );
    assert!(page.contains("Quality filters (signals)"));
}

#[test]
fn run_report_draws_the_directory_when_the_run_ends() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let r = run_into(&out, &["--report"], &[&sample()], 0);
    assert!(stdout(&r).contains("outward report:"), "{}", stdout(&r));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let written = manifest(&out)["sample.jsonl.zst"]["counts"]["written"]
        .as_u64()
        .unwrap();
    assert_eq!(chart(&page, "records")["written"], written);
    // The same page as `outward report` draws.
    std::fs::rename(out.join("report.html"), tmp.path().join("first.html")).unwrap();
    assert_eq!(report(&out, 0).0, page);
}

#[test]
fn eval_report_draws_the_scores_eval_prints() {
    let Some(dev) = shared_data("data/dev") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let page_path = tmp.path().join("eval.html");
    let sets = ["htmltotext", "cleanportaleval"];
    let mut args = vec![
        "eval".to_string(),
        "--json".into(),
        "--report".into(),
        page_path.to_string_lossy().into_owned(),
    ];
    args.extend(sets.iter().map(|s| {
        dev.join(format!("{s}.warc.gz"))
            .to_string_lossy()
            .into_owned()
    }));
    let r = run(&args);
    assert_eq!(code(&r), 0, "{}", describe(&r));
    let json: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let page = std::fs::read_to_string(&page_path).unwrap();
    let f1 = chart_f64(&page, "f1");
    let missed = chart_f64(&page, "miss-rate");
    for set in sets {
        let d = &json["datasets"][set];
        // The JSON printer and the page's may differ in the last bit of a float's digits.
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1e-12);
        assert!(
            close(f1[set], d["F1"].as_f64().unwrap()),
            "{set}: {}",
            f1[set]
        );
        assert!(
            close(missed[set], d["miss_rate"].as_f64().unwrap()),
            "{set}"
        );
    }
    assert!(page.contains("id=\"worst\""), "the worst pages");
    assert!(page.matches("<tr><td>").count() >= 30 + sets.len());
    for needle in ["<script", "src=", "href="] {
        assert!(!page.contains(needle), "{needle}");
    }
}

/// `data-label` → `data-value` of every bar of the chart `name`.
fn chart_f64(page: &str, name: &str) -> BTreeMap<String, f64> {
    outward_report::svg::chart_values(page, name)
        .unwrap_or_else(|| panic!("no chart {name}"))
        .into_iter()
        .collect()
}

/// Chromium, when the machine has it (`OUTWARD_BROWSER`, else `chromium` on the PATH). `make
/// browser-test` (part of `make test`) installs Debian's and sets `OUTWARD_REQUIRE_BROWSER=1`,
/// where its absence fails instead of skipping.
fn browser() -> Option<std::path::PathBuf> {
    let found = std::env::var_os("OUTWARD_BROWSER")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join("chromium"))
                    .find(|p| p.is_file())
            })
        });
    if found.is_none() {
        assert!(
            std::env::var_os("OUTWARD_REQUIRE_BROWSER").is_none(),
            "OUTWARD_REQUIRE_BROWSER is set but no chromium was found"
        );
        eprintln!("note: no chromium on this machine: the browser test is skipped");
    }
    found
}

/// What a headless Chromium saw opening `page`: its screenshot (PNG bytes), the console
/// messages it logged, and the http(s)/ws requests the page made (its own background
/// requests, which have no file:// frame, are not the page's).
struct Opened {
    screenshot: Vec<u8>,
    console: Vec<String>,
    requests: Vec<String>,
}

fn open_in_browser(browser: &Path, page: &Path, work: &Path) -> Opened {
    let shot = work.join("shot.png");
    let netlog = work.join("netlog.json");
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-extensions",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1200,4000",
        ])
        .arg(format!(
            "--user-data-dir={}",
            work.join("profile").display()
        ))
        .arg(format!("--log-net-log={}", netlog.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("starting chromium");
    assert!(out.status.success(), "{}", describe(&out));
    let console = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_string)
        .collect();
    let log: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&netlog).unwrap()).expect("the net log is JSON");
    let mut requests: Vec<String> = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| {
            let p = &e["params"];
            let url = p["url"].as_str()?;
            let from_page = p["network_isolation_key"]
                .as_str()
                .is_some_and(|k| k.starts_with("file://"));
            (from_page && (url.starts_with("http") || url.starts_with("ws")))
                .then(|| url.to_string())
        })
        .collect();
    requests.dedup();
    Opened {
        screenshot: std::fs::read(&shot).unwrap(),
        console,
        requests,
    }
}

/// Width and height of a PNG, from its IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn the_page_opens_in_a_browser_without_errors_or_requests() {
    let Some(browser) = browser() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let synth = tmp.path().join("synth.warc.gz");
    std::fs::write(&synth, outward_testkit::synthetic_warc_gz(8, 60)).unwrap();
    run_into(&out, &["--report"], &[&sample(), &synth], 0);
    let opened = open_in_browser(&browser, &out.join("report.html"), tmp.path());
    assert!(opened.console.is_empty(), "{:?}", opened.console);
    assert!(opened.requests.is_empty(), "{:?}", opened.requests);
    assert_eq!(png_size(&opened.screenshot), (1200, 4000));
    // Drawn, not blank: a white 1200x4000 screenshot compresses to a few KB.
    assert!(
        opened.screenshot.len() > 40_000,
        "{} bytes",
        opened.screenshot.len()
    );

    // The checks can fail: a page with a script error and an image from the network.
    let bad = tmp.path().join("bad.html");
    std::fs::write(
        &bad,
        "<!DOCTYPE html><p>x</p><img src=\"http://example.invalid/x.png\">\
         <script>throw new Error(\"uncaught here\")</script>",
    )
    .unwrap();
    let work = tmp.path().join("bad");
    std::fs::create_dir(&work).unwrap();
    let opened = open_in_browser(&browser, &bad, &work);
    assert!(
        opened.console.iter().any(|l| l.contains("uncaught here")),
        "{:?}",
        opened.console
    );
    assert_eq!(opened.requests, ["http://example.invalid/x.png"]);
}

/// With `--signals`, the page counts the documents each quality filter would drop, by rule,
/// as the documents' own `would_drop` say.
#[test]
fn the_page_counts_what_the_signals_say_the_filters_would_drop() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run_into(&out, &["--signals"], &[&sample()], 0);
    let (page, _) = report(&out, 0);
    let docs = docs(&out.join("sample.jsonl.zst"));
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    let mut passing = 0;
    for d in &docs {
        let drops = d["metadata"]["signals"]["would_drop"].as_object().unwrap();
        passing += u64::from(drops.is_empty());
        for (filter, rule) in drops {
            *expected
                .entry(format!("{filter}: {}", rule.as_str().unwrap()))
                .or_default() += 1;
        }
    }
    assert!(
        !expected.is_empty(),
        "the sample has pages some filter drops"
    );
    assert_eq!(chart(&page, "would-drop"), expected);
    assert!(page.contains(&format!(
        "data-documents=\"{}\" data-passing=\"{passing}\"",
        docs.len()
    )));
    // A histogram per number, each document in one bar: words in buckets doubling, a ratio
    // in tenths, the mean word length by whole characters.
    let mut words: BTreeMap<String, u64> = BTreeMap::new();
    let mut punct: BTreeMap<String, u64> = BTreeMap::new();
    let mut mean: BTreeMap<String, u64> = BTreeMap::new();
    for d in &docs {
        let s = &d["metadata"]["signals"];
        let n = s["gopher_quality"]["words"].as_u64().unwrap().max(1);
        let k = n.ilog2();
        *words
            .entry(format!("{} – {}", 1u64 << k, (1u64 << (k + 1)) - 1))
            .or_default() += 1;
        let r = s["fineweb_quality"]["line_punct_ratio"].as_f64().unwrap();
        let t = ((r * 10.0) as u32).min(9);
        let label = if t == 9 {
            "0.9 – 1.0".to_string()
        } else {
            format!("0.{t} – 0.{}", t + 1)
        };
        *punct.entry(label).or_default() += 1;
        let m = s["gopher_quality"]["mean_word_length"].as_f64().unwrap() as u64;
        *mean.entry(format!("{m} – {}", m + 1)).or_default() += 1;
    }
    assert_eq!(chart(&page, "signal-gopher_quality.words"), words);
    assert_eq!(
        chart(&page, "signal-fineweb_quality.line_punct_ratio"),
        punct
    );
    assert_eq!(chart(&page, "signal-gopher_quality.mean_word_length"), mean);
    let histograms = page.matches("data-chart=\"signal-").count();
    assert_eq!(
        histograms, 29,
        "every number of the signals: all but would_drop's 4 rules and C4's page rule"
    );
}
