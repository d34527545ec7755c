//! End-to-end tests of the `outward` binary: golden output on the sample, Dolma validity,
//! thread-count independence, resume and kill safety, exit codes, shard selection, charsets,
//! content codings, the `extract` command, the shared edge/real samples and peak memory.
//!
//! Inputs are small (the suite runs in a debug build on 2 shared cores); synthetic WARCs come
//! from `outward_testkit` with fixed seeds, written into temporary directories.

use outward_testkit::{self as testkit, Compression, SynthOptions, describe};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

fn sample() -> PathBuf {
    testdata().join("sample.warc.gz")
}

fn outward() -> Command {
    Command::new(env!("CARGO_BIN_EXE_outward"))
}

/// Runs `outward` with `args`, returning its output (stdout, stderr, status).
fn run(args: &[&str]) -> Output {
    outward().args(args).output().expect("starting outward")
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or_else(|| {
        panic!(
            "outward died from a signal: {:?}\nstderr:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `outward run -o DIR [extra...] INPUTS...`, asserting the exit code.
fn run_into(dir: &Path, extra: &[&str], inputs: &[&Path], expect_code: i32) -> Output {
    let mut args: Vec<String> = vec!["run".into(), "-o".into(), dir.display().to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(inputs.iter().map(|p| p.display().to_string()));
    let out = outward().args(&args).output().expect("starting outward");
    assert_eq!(code(&out), expect_code, "{args:?}\n{}", describe(&out));
    out
}

/// The decompressed bytes of a shard.
fn shard_bytes(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    zstd::stream::decode_all(&raw[..]).expect("shard is valid zstd")
}

/// The documents of a shard.
fn docs(path: &Path) -> Vec<Value> {
    String::from_utf8(shard_bytes(path))
        .expect("shard is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

/// Manifest entries by output file name.
fn manifest(dir: &Path) -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(dir.join("manifest.jsonl")).expect("manifest exists");
    let mut map = BTreeMap::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("manifest line is JSON");
        let out = v["output"].as_str().unwrap().to_string();
        assert!(map.insert(out.clone(), v).is_none(), "two lines for {out}");
    }
    map
}

/// Document whose `metadata.url` is `url`.
fn by_url<'a>(docs: &'a [Value], url: &str) -> &'a Value {
    docs.iter()
        .find(|d| d["metadata"]["url"] == url)
        .unwrap_or_else(|| panic!("no document for {url}"))
}

fn text(doc: &Value) -> &str {
    doc["text"].as_str().unwrap()
}

/// Writes a synthetic WARC to `dir/name` and returns its path and the generated record table.
fn write_synth(
    dir: &Path,
    name: &str,
    seed: u64,
    options: &SynthOptions,
) -> (PathBuf, testkit::SynthWarc) {
    let synth = testkit::synthetic_warc(seed, options);
    let path = dir.join(name);
    std::fs::write(&path, &synth.bytes).unwrap();
    (path, synth)
}

/// Small pages, so that debug builds stay fast.
fn small(pages: usize) -> SynthOptions {
    SynthOptions {
        pages,
        min_bytes: 3 << 10,
        max_bytes: 30 << 10,
        ..SynthOptions::default()
    }
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Checks the Dolma fields of every document.
fn assert_dolma(docs: &[Value], warc_file: &str) {
    assert!(!docs.is_empty());
    for d in docs {
        let obj = d.as_object().unwrap();
        let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        for k in ["id", "text", "source", "created", "metadata"] {
            assert!(keys.contains(&k), "missing {k}: {d}");
        }
        let id = d["id"].as_str().unwrap();
        assert!(id.starts_with("<urn:uuid:") && id.ends_with('>'), "{id}");
        assert!(!text(d).trim().is_empty(), "empty text: {d}");
        assert_eq!(d["source"], "outward");
        let created = d["created"].as_str().unwrap();
        assert!(
            created.starts_with("2024-05-") && created.ends_with('Z'),
            "{created}"
        );
        let m = &d["metadata"];
        assert_eq!(m["warc_file"], warc_file);
        assert!(m["warc_offset"].is_u64());
        let parsed = m["nodes_parsed"].as_u64().unwrap();
        let total = m["nodes_total"].as_u64().unwrap();
        assert!(
            parsed <= total,
            "nodes_parsed {parsed} > nodes_total {total}"
        );
        assert_eq!(
            m["text_chars"].as_u64().unwrap(),
            text(d).chars().count() as u64
        );
        assert!(m["charset"].is_string() && m["charset_source"].is_string());
        assert!(m["url"].as_str().unwrap().starts_with("http"));
    }
    // Ids are unique.
    let mut ids: Vec<&str> = docs.iter().map(|d| d["id"].as_str().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), docs.len());
}

// ---------------------------------------------------------------------------------------------
// Sample: golden output, Dolma, charsets, codings

/// Runs the sample once per test (each test gets its own output directory).
fn run_sample(method: &str) -> (tempfile::TempDir, Vec<Value>, Output) {
    let dir = tempfile::tempdir().unwrap();
    let out = run_into(
        dir.path(),
        &["--method", method, "--threads", "2"],
        &[&sample()],
        0,
    );
    let docs = docs(&dir.path().join("sample.jsonl.zst"));
    (dir, docs, out)
}

#[test]
fn golden_fulltext_sample() {
    let (dir, docs, out) = run_sample("fulltext");
    let shard = shard_bytes(&dir.path().join("sample.jsonl.zst"));
    testkit::bless_or_compare(&testdata().join("golden/sample.fulltext.jsonl"), &shard);
    assert_dolma(&docs, "sample.warc.gz");
    assert!(
        docs.iter()
            .all(|d| d["metadata"]["extractor"] == "fulltext")
    );
    // 11 HTML 200 responses + 1 HTML resource; the 404, png, revisit, requests, metadata and
    // warcinfo are skipped.
    assert_eq!(docs.len(), 12, "{}", stdout(&out));
    let m = manifest(dir.path());
    let e = &m["sample.jsonl.zst"];
    assert_eq!(e["status"], "complete");
    assert_eq!(e["counts"]["records"], 31);
    assert_eq!(e["counts"]["written"], 12);
    assert_eq!(e["counts"]["skipped"]["status"], 1);
    assert_eq!(e["counts"]["skipped"]["revisit"], 1);
    assert_eq!(e["counts"]["skipped"]["not_html"], 1);
    // warcinfo + 14 requests + metadata
    assert_eq!(e["counts"]["skipped"]["other_type"], 16);
    // Documents come in file order.
    let urls: Vec<&str> = docs
        .iter()
        .map(|d| d["metadata"]["url"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = testkit::SAMPLE_PAGES
        .iter()
        .filter(|p| p.status == 200)
        .map(|p| p.uri)
        .collect();
    assert_eq!(urls, expected);
    // Boilerplate-free bits that any method must keep: the title.
    let title = by_url(&docs, testkit::SAMPLE_PAGES[0].uri)["metadata"]["title"]
        .as_str()
        .unwrap();
    assert!(
        title.starts_with("Council backs tidal barrier after four-hour debate"),
        "{title}"
    );
}

#[test]
fn sample_is_valid_dolma_for_every_method() {
    for method in ["reverse", "paper"] {
        let (_dir, docs, _) = run_sample(method);
        assert_dolma(&docs, "sample.warc.gz");
        assert!(docs.iter().all(|d| d["metadata"]["extractor"] == method));
        // The main text of the news article survives any extraction method ...
        let news = by_url(&docs, testkit::SAMPLE_PAGES[0].uri);
        assert!(
            text(news).contains("The Harbour Council voted nine to four on Thursday night"),
            "{method}: {}",
            text(news)
        );
        // ... and the main-text methods drop the cookie banner that fulltext keeps.
        assert!(
            !text(news).contains("We use cookies"),
            "{method}: {}",
            text(news)
        );
    }
    // The default method is reverse.
    let dir = tempfile::tempdir().unwrap();
    run_into(dir.path(), &[], &[&sample()], 0);
    let d = docs(&dir.path().join("sample.jsonl.zst"));
    assert!(d.iter().all(|d| d["metadata"]["extractor"] == "reverse"));
}

#[test]
fn charsets_end_to_end() {
    let (_dir, docs, _) = run_sample("fulltext");
    let cases = [
        // (url, phrase, charset, charset_source)
        (
            "http://www.example.com.cn/local/tea-harvest.htm",
            "今年春茶的采摘比往年提前了十天",
            "GBK",
            "detected",
        ),
        (
            "http://www.example.co.jp/column/2024/kamakura-walk.html",
            "鎌倉の古い寺を歩いて回ることにした",
            "Shift_JIS",
            "meta",
        ),
        (
            "http://www.example.com.tw/travel/tainan-food.html",
            "台南的牛肉湯店已經坐滿了客人",
            "Big5",
            "meta",
        ),
        (
            "http://www.example.fr/cuisine/tarte-aux-pommes.html",
            "deux cuillerées de crème fraîche épaisse",
            "windows-1252",
            "detected",
        ),
        (
            "https://news.example.cn/society/2024-05/17/riverside-library.html",
            "滨江图书馆昨天正式向市民开放",
            "UTF-8",
            "utf8_valid",
        ),
    ];
    for (url, phrase, charset, source) in cases {
        let d = by_url(&docs, url);
        assert!(
            text(d).contains(phrase),
            "{url}: {phrase} not in {:?}",
            text(d)
        );
        assert!(
            !text(d).contains('\u{FFFD}'),
            "{url}: replacement characters"
        );
        assert_eq!(d["metadata"]["charset"], charset, "{url}");
        assert_eq!(d["metadata"]["charset_source"], source, "{url}");
    }
    // The mislabelled page's curly apostrophe is U+2019, not a replacement character.
    let fr = by_url(&docs, "http://www.example.fr/cuisine/tarte-aux-pommes.html");
    assert!(text(fr).contains("qu’on se transmet"));
}

#[test]
fn content_codings_decode_end_to_end() {
    let (_dir, docs, _) = run_sample("fulltext");
    let cases = [
        // chunked + gzip
        (
            "https://slowbread.example/blog/rye-starter-in-winter",
            "My rye starter sulks every January.",
        ),
        // br
        (
            "https://news.example.cn/society/2024-05/17/riverside-library.html",
            "首日接待读者超过八千人次",
        ),
        // gzip
        (
            "https://shop.example.com/p/trail-runner-kettle-1-2l",
            "boils 1.2 litres of water on a small gas stove",
        ),
        // deflate
        (
            "https://forum.example.org/t/bike-chain-keeps-slipping/48213",
            "It was the lockring.",
        ),
        // chunked only
        (
            "https://kitchen.example.org/recipes/lentil-soup",
            "Rinse the red lentils until the water runs clear.",
        ),
        // resource record
        (
            "https://harbourgazette.example/about.html",
            "The Harbour Gazette has been published since 1887",
        ),
    ];
    for (url, phrase) in cases {
        let d = by_url(&docs, url);
        assert!(text(d).contains(phrase), "{url}: {:?}", text(d));
    }
    // fulltext drops scripts and styles.
    for d in &docs {
        assert!(!text(d).contains("gtag("), "{}", d["metadata"]["url"]);
        assert!(!text(d).contains("line-height"), "{}", d["metadata"]["url"]);
    }
}

#[test]
fn output_options_are_wired() {
    let tmp = tempfile::tempdir().unwrap();
    // --max-record-bytes 4000: the news article (4.7 KB stored) and the blog (6.3 KB once
    // de-chunked and gunzipped) are too big; the other ten pages are under 4000 bytes.
    let capped = tmp.path().join("capped");
    run_into(
        &capped,
        &["--method", "fulltext", "--max-record-bytes", "4000"],
        &[&sample()],
        0,
    );
    let e = &manifest(&capped)["sample.jsonl.zst"];
    assert_eq!(e["counts"]["skipped"]["too_big"], 2, "{e}");
    assert_eq!(e["counts"]["written"], 10);
    let d = docs(&capped.join("sample.jsonl.zst"));
    assert!(
        d.iter()
            .all(|d| d["metadata"]["url"] != testkit::SAMPLE_PAGES[0].uri)
    );

    // Work budgets: the pages with more nodes, deeper nesting or more extraction work than
    // allowed are counted skips (over_budget, logged with their record id and what they
    // asked), the others written as without a budget; a budget is part of the config.
    let unbudgeted = tmp.path().join("unbudgeted");
    run_into(&unbudgeted, &["--method", "fulltext"], &[&sample()], 0);
    let all = docs(&unbudgeted.join("sample.jsonl.zst"));
    for (flag, value) in [
        ("--max-nodes", "200"),
        ("--max-depth", "8"),
        ("--max-work", "2000"),
    ] {
        let dir = tmp.path().join(&flag[2..]);
        let out = run_into(
            &dir,
            &["--method", "fulltext", flag, value],
            &[&sample()],
            0,
        );
        let e = &manifest(&dir)["sample.jsonl.zst"];
        let over = e["counts"]["skipped"]["over_budget"].as_u64().unwrap_or(0);
        assert!(over >= 1, "{flag}: {e}");
        assert_eq!(e["counts"]["written"].as_u64().unwrap() + over, 12, "{e}");
        let kept = docs(&dir.join("sample.jsonl.zst"));
        for d in &kept {
            assert!(all.contains(d), "{flag}: {d}");
        }
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(
            log.contains("over_budget") && log.contains(flag),
            "{}",
            describe(&out)
        );
        assert_ne!(
            e["config_hash"],
            manifest(&unbudgeted)["sample.jsonl.zst"]["config_hash"]
        );
    }

    // --zstd-level changes the shard bytes but not the documents.
    let (l1, l19) = (tmp.path().join("l1"), tmp.path().join("l19"));
    run_into(
        &l1,
        &["--method", "fulltext", "--zstd-level", "1"],
        &[&sample()],
        0,
    );
    run_into(
        &l19,
        &["--method", "fulltext", "--zstd-level", "19"],
        &[&sample()],
        0,
    );
    assert_eq!(
        shard_bytes(&l1.join("sample.jsonl.zst")),
        shard_bytes(&l19.join("sample.jsonl.zst"))
    );
    assert_ne!(
        manifest(&l1)["sample.jsonl.zst"]["config_hash"],
        manifest(&l19)["sample.jsonl.zst"]["config_hash"]
    );
    // --similarity is read by `paper` only: for `paper` another value reprocesses; for
    // `reverse`, which ignores it, the input stays done (it used to reprocess everything).
    let sim = tmp.path().join("sim");
    let paper = |value| ["--method", "paper", "--similarity", value];
    run_into(&sim, &paper("0.8"), &[&sample()], 0);
    let same = run_into(&sim, &paper("0.8"), &[&sample()], 0);
    assert!(stdout(&same).contains("1 unchanged"), "{}", stdout(&same));
    let other = run_into(&sim, &paper("0.5"), &[&sample()], 0);
    assert!(stdout(&other).contains("1 processed"), "{}", stdout(&other));
    let reverse = tmp.path().join("sim-reverse");
    run_into(&reverse, &["--similarity", "0.8"], &[&sample()], 0);
    let ignored = run_into(&reverse, &["--similarity", "0.5"], &[&sample()], 0);
    assert!(
        stdout(&ignored).contains("1 unchanged"),
        "{}",
        stdout(&ignored)
    );
}

// ---------------------------------------------------------------------------------------------
// Determinism, resume, kill safety

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

    // A different method changes the config hash: reprocessed.
    let other = run_into(&out, &["--method", "reverse"], &[&input], 0);
    assert!(stdout(&other).contains("1 processed"), "{}", stdout(&other));
    let m = manifest(&out);
    assert_eq!(m.len(), 1);
    let hash_reverse = m["r.jsonl.zst"]["config_hash"].clone();
    let back = run_into(&out, &["--method", "fulltext"], &[&input], 0);
    assert!(stdout(&back).contains("1 processed"), "{}", stdout(&back));
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

// ---------------------------------------------------------------------------------------------
// Exit codes, damaged inputs, selection

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

    // A missing input: 1, the other input still done.
    let out3 = tmp.path().join("out3");
    let missing = tmp.path().join("missing.warc.gz");
    run_into(&out3, &[], &[&good_a, &missing], 1);
    assert!(out3.join("a.jsonl.zst").exists());
}

#[test]
fn degenerate_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    // An empty file: complete, no records, a shard that zstd tools read as empty (a zero-byte
    // file is not one: `zstd -t` and the zstd crate reject it as "unexpected end of file").
    let empty = tmp.path().join("empty.warc.gz");
    std::fs::write(&empty, b"").unwrap();
    let out = tmp.path().join("o1");
    run_into(&out, &[], &[&empty], 0);
    let e = &manifest(&out)["empty.jsonl.zst"];
    assert_eq!(e["status"], "complete");
    assert_eq!(e["counts"]["records"], 0);
    assert!(shard_bytes(&out.join("empty.jsonl.zst")).is_empty());
    // The same for real files without HTML pages (a WET file).
    if let Some(samples) = shared_samples() {
        let wet = samples.join("real/commoncrawl+whirlwind-python/whirlwind.warc.wet.gz");
        let (c, e) = run_one(&wet, &tmp.path().join("wet"));
        assert_eq!(c, 0);
        assert_eq!(e["status"], "complete");
        assert_eq!(e["counts"]["records"], 2);
        assert_eq!(e["counts"]["written"], 0);
    }
    // Files that are not WARC (random bytes named .warc.gz, plain text, a PNG): failed with
    // what they start with, exit 1, no output file and no manifest line, so a rerun does not
    // count them as work left half done.
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
        let r = run_into(&out, &[], &[&path], 1);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(
            err.contains("not a WARC or ARC file (it starts with"),
            "{err}"
        );
        if let Some(starts) = starts {
            assert!(err.contains(starts), "{err}");
        }
        assert!(manifest(&out).is_empty(), "{name}");
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

// ---------------------------------------------------------------------------------------------
// outward extract

#[test]
fn extract_command() {
    let page = testdata().join("pages/en_news.html");
    let out = run(&["extract", "--method", "fulltext", page.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", describe(&out));
    let text = stdout(&out);
    assert!(text.contains("The Harbour Council voted nine to four on Thursday night"));
    assert!(!text.contains("gtag("));
    assert!(!text.contains("<p>"));

    // --json from stdin.
    let html = std::fs::read(testdata().join("pages/zh_news_utf8.html")).unwrap();
    let mut child = outward()
        .args(["extract", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&html).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 0, "{}", describe(&out));
    let line = stdout(&out);
    assert_eq!(line.lines().count(), 1);
    let doc: Value = serde_json::from_str(line.trim_end()).unwrap();
    assert!(text_of(&doc).contains("滨江图书馆昨天正式向市民开放"));
    assert_eq!(doc["metadata"]["charset"], "UTF-8");
    assert_eq!(doc["metadata"]["extractor"], "reverse");
    // Methods may trim the site name off the title, never the headline.
    let title = doc["metadata"]["title"].as_str().unwrap();
    assert!(
        title.starts_with("滨江图书馆正式开放 市民排队入馆"),
        "{title}"
    );

    // A legacy-encoded file without any declaration is detected.
    let tmp = tempfile::tempdir().unwrap();
    let gbk = tmp.path().join("gbk.html");
    let source = std::fs::read_to_string(testdata().join("pages/zh_gbk_nodecl.html")).unwrap();
    std::fs::write(&gbk, testkit::encode_as(&source, "gbk")).unwrap();
    let out = run(&["extract", "--json", gbk.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", describe(&out));
    let doc: Value = serde_json::from_str(stdout(&out).trim_end()).unwrap();
    assert!(text_of(&doc).contains("今年春茶的采摘比往年提前了十天"));
    assert_eq!(doc["metadata"]["charset"], "GBK");

    // --format markdown keeps the structure; --url reaches the document.
    let article = testdata().join("extract/en_article.html");
    let out = run(&[
        "extract",
        "--json",
        "--format",
        "markdown",
        "--url",
        "https://news.example/rivers",
        article.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", describe(&out));
    let doc: Value = serde_json::from_str(stdout(&out).trim_end()).unwrap();
    let md = text_of(&doc);
    assert!(md.starts_with("# Rivers of the North"), "{md}");
    assert!(md.contains("\n\n## Why it matters\n\n"), "{md}");
    assert!(md.contains("\n- Salmon runs fell by a third"), "{md}");
    assert_eq!(doc["metadata"]["url"], "https://news.example/rivers");

    // A missing file is an error, not a crash.
    let out = run(&["extract", "/nonexistent/page.html"]);
    assert_ne!(code(&out), 0);

    // Bytes that are not HTML or text (a PNG, random bytes) are refused, not printed as
    // mojibake; a legacy-encoded page with a few stray control bytes is still text.
    let png = tmp.path().join("image.png");
    std::fs::write(&png, testkit::PNG_1X1).unwrap();
    let mut rng = testkit::SplitMix64::new(7);
    let noise = tmp.path().join("noise.bin");
    std::fs::write(
        &noise,
        (0..20_000)
            .map(|_| rng.next_u64() as u8)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    for path in [&png, &noise] {
        let out = run(&["extract", path.to_str().unwrap()]);
        assert_eq!(code(&out), 1, "{}", describe(&out));
        assert!(stdout(&out).is_empty(), "{}", describe(&out));
        assert!(String::from_utf8_lossy(&out.stderr).contains("not HTML or text"));
    }
    let stray = tmp.path().join("stray.html");
    let mut page = std::fs::read(testdata().join("pages/en_news.html")).unwrap();
    page.extend_from_slice(b"\x01\x02<p>tail</p>");
    std::fs::write(&stray, page).unwrap();
    let out = run(&["extract", stray.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", describe(&out));
}

#[test]
fn extract_several_pages_and_directories_writes_jsonl() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(site.join("news")).unwrap();
    std::fs::copy(
        testdata().join("pages/en_news.html"),
        site.join("news/a.html"),
    )
    .unwrap();
    std::fs::copy(
        testdata().join("pages/zh_news_utf8.html"),
        site.join("b.HTM"),
    )
    .unwrap();
    std::fs::write(site.join("notes.txt"), "not a page").unwrap();
    std::fs::write(site.join("broken.html"), testkit::PNG_1X1).unwrap();
    let single = testdata().join("extract/en_article.html");

    // A directory (every .html/.htm/.xhtml below it, sorted) and a file: one document per
    // line in that order; the page that is not HTML is named and counted, the others written.
    let out = run(&["extract", site.to_str().unwrap(), single.to_str().unwrap()]);
    assert_eq!(code(&out), 1, "{}", describe(&out));
    let docs: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<String> = docs
        .iter()
        .map(|d| {
            d["id"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        ids,
        ["b.HTM", "a.html", "en_article.html"],
        "{}",
        describe(&out)
    );
    assert!(text_of(&docs[0]).contains("滨江图书馆昨天正式向市民开放"));
    assert!(text_of(&docs[1]).contains("The Harbour Council voted nine to four"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.html: not HTML or text"), "{err}");
    assert!(err.contains("4 pages, 3 written, 1 failed"), "{err}");
    // The same page alone with --json is the same document.
    let alone = run(&["extract", "--json", single.to_str().unwrap()]);
    assert_eq!(stdout(&alone).lines().next(), stdout(&out).lines().nth(2));

    // Nothing to read, or --url for several pages: usage errors.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = run(&["extract", empty.to_str().unwrap()]);
    assert_eq!(code(&out), 2, "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no .html, .htm or .xhtml file"));
    let out = run(&[
        "extract",
        "--url",
        "https://x.example/",
        site.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 2, "{}", describe(&out));
}

#[test]
fn markdown_run_differs_only_in_text() {
    let tmp = tempfile::tempdir().unwrap();
    let (text_dir, md_dir) = (tmp.path().join("text"), tmp.path().join("md"));
    run_into(&text_dir, &[], &[&sample()], 0);
    run_into(&md_dir, &["--format", "markdown"], &[&sample()], 0);
    let (plain, md) = (
        docs(&text_dir.join("sample.jsonl.zst")),
        docs(&md_dir.join("sample.jsonl.zst")),
    );
    assert_eq!(plain.len(), md.len());
    let mut structured = 0;
    for (p, m) in plain.iter().zip(&md) {
        assert_eq!(p["id"], m["id"]);
        assert_eq!(p["metadata"]["nodes_parsed"], m["metadata"]["nodes_parsed"]);
        structured += usize::from(text_of(m).contains("\n\n"));
    }
    assert!(
        structured > plain.len() / 2,
        "{structured} of {}",
        plain.len()
    );
    // The format is part of the output's identity: switching reprocesses.
    assert_ne!(
        manifest(&text_dir)["sample.jsonl.zst"]["config_hash"],
        manifest(&md_dir)["sample.jsonl.zst"]["config_hash"]
    );
}

fn text_of(doc: &Value) -> &str {
    doc["text"].as_str().unwrap()
}

// ---------------------------------------------------------------------------------------------
// Shared samples

fn shared_samples() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/samples");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("note: {} absent, skipping", dir.display());
        None
    }
}

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
    let Some(samples) = shared_samples() else {
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
    let Some(samples) = shared_samples() else {
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

// ---------------------------------------------------------------------------------------------
// Memory

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
            .arg(env!("CARGO_BIN_EXE_outward"))
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
    let mut child = outward()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status_path)
            && let Some(kib) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code().unwrap_or(-1), peak);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
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

// ---------------------------------------------------------------------------------------------
// Output formats

/// Reads a WET file with warcio: one JSON line per record with its type, headers, text and
/// whether the block digest verifies.
const WARCIO_READ: &str = r#"
import base64, hashlib, json, sys
from warcio.archiveiterator import ArchiveIterator
with open(sys.argv[1], "rb") as f:
    for rec in ArchiveIterator(f):
        body = rec.content_stream().read()
        h = rec.rec_headers
        digest = "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode()
        print(json.dumps({
            "type": rec.rec_type,
            "id": h.get_header("WARC-Record-ID"),
            "refers_to": h.get_header("WARC-Refers-To"),
            "uri": h.get_header("WARC-Target-URI"),
            "date": h.get_header("WARC-Date"),
            "content_type": h.get_header("Content-Type"),
            "digest_ok": h.get_header("WARC-Block-Digest") in (None, digest),
            "text": body.decode("utf-8"),
        }))
"#;

#[test]
fn wet_output_holds_the_same_documents_and_reads_with_warcio() {
    let tmp = tempfile::tempdir().unwrap();
    let (dolma, wet) = (tmp.path().join("dolma"), tmp.path().join("wet"));
    run_into(&dolma, &[], &[&sample()], 0);
    run_into(&wet, &["--output-format", "wet"], &[&sample()], 0);
    let docs = docs(&dolma.join("sample.jsonl.zst"));
    let wet_file = wet.join("sample.warc.wet.gz");
    let entry = &manifest(&wet)["sample.warc.wet.gz"];
    assert_eq!(entry["status"], "complete");
    assert_eq!(entry["counts"]["written"], docs.len());
    assert_ne!(
        entry["config_hash"],
        manifest(&dolma)["sample.jsonl.zst"]["config_hash"]
    );
    // A rerun finds the WET output complete and leaves it alone.
    let again = run_into(&wet, &["--output-format", "wet"], &[&sample()], 0);
    assert!(stdout(&again).contains("1 unchanged"), "{}", stdout(&again));
    // Every record is its own gzip member: as many members as documents + the warcinfo.
    let bytes = std::fs::read(&wet_file).unwrap();
    let members = bytes
        .windows(3)
        .filter(|w| *w == [0x1f, 0x8b, 0x08])
        .count();
    assert!(members > docs.len(), "{members} gzip headers");

    let Some(python) = outward_testkit::python_with("warcio") else {
        return;
    };
    let out = Command::new(python)
        .args(["-c", WARCIO_READ])
        .arg(&wet_file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let records: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), docs.len() + 1);
    assert_eq!(records[0]["type"], "warcinfo");
    assert_eq!(records[0]["date"], docs[0]["created"]);
    for (record, doc) in records[1..].iter().zip(&docs) {
        assert_eq!(record["type"], "conversion");
        assert_eq!(record["refers_to"], doc["id"]);
        assert_eq!(record["uri"], doc["metadata"]["url"]);
        assert_eq!(record["date"], doc["created"]);
        assert_eq!(record["content_type"], "text/plain");
        assert_eq!(record["digest_ok"], true, "{record}");
        // warcio hands back the block; the record ends with CRLF CRLF after it.
        assert_eq!(record["text"], doc["text"]);
        assert_ne!(record["id"], doc["id"]);
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
    if let Some(samples) = shared_samples() {
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
    // A URL in a list is an input (tests/cli_remote.rs reads them from a local server); one
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
    assert_eq!(code(&r), 1, "{}", describe(&r));
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

/// A tmpfs mounted for one test, unmounted when dropped (also when the test panics).
struct TinyDisk(PathBuf);

impl TinyDisk {
    /// Mounts a tmpfs of `size` at `dir`; `None` where this machine does not let the test
    /// mount one (no privilege, no `mount`).
    fn mount(dir: &Path, size: &str) -> Option<TinyDisk> {
        std::fs::create_dir_all(dir).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| TinyDisk(dir.to_path_buf()))
    }
}

impl Drop for TinyDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

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
    let out = run_into(&out_dir, &["--threads", "1"], &[&big, &sample()], 1);
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
    assert!(!manifest.contains("big.warc.gz"), "{manifest}");
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
