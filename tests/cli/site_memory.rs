//! `outward run --site-memory` end to end: what repeats across a host's pages leaves the
//! text, pages of other hosts are judged alone, the output is the same bytes for any thread
//! count and input order, and the config hash (so resume) knows the memory.

use crate::common::{describe, docs, files_in, manifest_lines, run, run_into, shard_bytes};
use outward_testkit::{Compression, HttpResponse, WarcWriter};
use std::path::{Path, PathBuf};

/// A gazette article: six paragraphs of its own, inside the same container as the site's
/// subscription box; the site's menu and footer around it.
fn gazette_page(n: usize) -> String {
    let story: String = (0..6)
        .map(|k| {
            format!(
                "<p>Story {n} paragraph {k} reports what happened in town {n}, with the words a \
                 reporter wrote for it.</p>"
            )
        })
        .collect();
    format!(
        "<!doctype html><html><head><title>Story {n} - Town Gazette</title></head><body>\
         <div class=top><a href=/>Town Gazette</a> <a href=/sport>Sport</a></div>\
         <div class=article><h2>Story {n}</h2>{story}<div class=letter><p>Our weekly letter \
         brings the best stories to your inbox, free of charge.</p></div></div>\
         <div class=foot><p>Town Gazette, 1 Main Street. All rights reserved.</p></div>\
         </body></html>"
    )
}

/// Five gazette pages and one page of another host with the same markup.
fn write_warc(dir: &Path, name: &str, seed: u64) -> PathBuf {
    let mut w = WarcWriter::new(Compression::Gzip, seed);
    w.warcinfo(name);
    for n in 0..5 {
        let uri = format!("https://gazette.example/{seed}/{n}");
        w.response(
            &uri,
            &HttpResponse::html(&gazette_page(n + 10 * seed as usize)),
        );
    }
    w.response(
        &format!("https://other.example/{seed}"),
        &HttpResponse::html(&gazette_page(99)),
    );
    let (bytes, _) = w.finish();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `outward run -o OUT [extra...] INPUTS...`, which must succeed.
fn run_ok(out: &Path, extra: &[&str], inputs: &[&Path]) {
    run_into(out, extra, inputs, 0);
}

/// (url, text) of each document of a shard.
fn texts(path: &Path) -> Vec<(String, String)> {
    docs(path)
        .iter()
        .map(|v| {
            (
                v["metadata"]["url"].as_str().unwrap().to_string(),
                v["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The config hash of each manifest line of `dir`.
fn config_hashes(dir: &Path) -> Vec<String> {
    manifest_lines(dir)
        .iter()
        .map(|v| v["config_hash"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn site_memory_removes_repeated_blocks_deterministically() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_warc(dir.path(), "a.warc.gz", 1);
    let b = write_warc(dir.path(), "b.warc.gz", 2);
    let plain = dir.path().join("plain");
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    run_ok(&plain, &["--threads", "1"], &[&a, &b]);
    run_ok(&one, &["--threads", "1", "--site-memory"], &[&a, &b]);
    run_ok(&two, &["--threads", "2", "--site-memory"], &[&b, &a]);

    for name in ["a.jsonl.zst", "b.jsonl.zst"] {
        // Same bytes for any thread count and input order.
        assert_eq!(
            shard_bytes(&one.join(name)),
            shard_bytes(&two.join(name)),
            "{name}"
        );
        let alone = texts(&plain.join(name));
        let remembered = texts(&one.join(name));
        assert_eq!(alone.len(), 6);
        assert_eq!(remembered.len(), 6);
        for ((url, before), (_, after)) in alone.iter().zip(&remembered) {
            assert!(
                before.contains("Our weekly letter brings"),
                "{url}: {before}"
            );
            // Every paragraph of the story stays.
            assert_eq!(
                after.matches(" reports what happened in town ").count(),
                6,
                "{url}: {after}"
            );
            if url.contains("gazette.example") {
                assert!(!after.contains("weekly letter"), "{url}: {after}");
                assert!(!after.contains("All rights reserved"), "{url}: {after}");
            } else {
                // One page of its host: judged alone.
                assert_eq!(before, after, "{url}");
            }
        }
    }
    // Each document says what the memory knew of its host and what it took out; without
    // memory the keys are absent.
    for doc in docs(&one.join("a.jsonl.zst")) {
        let meta = &doc["metadata"];
        if meta["url"].as_str().unwrap().contains("gazette.example") {
            assert_eq!(meta["site_pages"], 10, "{meta}");
            // The subscription box inside the article (the menu and footer lie outside it).
            assert_eq!(meta["template_removed"], 1, "{meta}");
        } else {
            assert_eq!(meta["site_pages"], 0, "{meta}");
            assert_eq!(meta["template_removed"], 0, "{meta}");
        }
    }
    for doc in docs(&plain.join("a.jsonl.zst")) {
        assert!(doc["metadata"].get("site_pages").is_none(), "{doc}");
        assert!(doc["metadata"].get("template_removed").is_none(), "{doc}");
    }
    // The memory is part of the config: a resume without it (or with other inputs) redoes
    // the work instead of reusing shards made with it.
    let with: Vec<String> = config_hashes(&one);
    let without: Vec<String> = config_hashes(&plain);
    assert_eq!(with, config_hashes(&two));
    assert!(
        with.iter().all(|h| !without.contains(h)),
        "{with:?} {without:?}"
    );
    let only_a = dir.path().join("only_a");
    run_ok(&only_a, &["--site-memory"], &[&a]);
    assert_ne!(config_hashes(&only_a)[0], with[0]);
}

#[test]
fn stores_built_by_shards_merge_into_the_single_build_and_run_like_site_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = write_warc(d, "a.warc.gz", 1);
    let b = write_warc(d, "b.warc.gz", 2);
    let os = |p: &Path| p.as_os_str().to_owned();
    let ok = |args: Vec<std::ffi::OsString>| {
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let out = run(&refs);
        assert!(
            out.status.success(),
            "{args:?}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let whole = d.join("whole.store");
    ok(vec![
        "sites".into(),
        "build".into(),
        "-o".into(),
        os(&whole),
        os(&a),
        os(&b),
    ]);
    let mut shards = Vec::new();
    for i in 0..2 {
        let store = d.join(format!("shard{i}.store"));
        ok(vec![
            "sites".into(),
            "build".into(),
            "--threads".into(),
            (i + 1).to_string().into(),
            "--shard".into(),
            format!("{i}/2").into(),
            "-o".into(),
            os(&store),
            os(&b),
            os(&a),
        ]);
        shards.push(store);
    }
    assert_ne!(
        std::fs::read(&shards[0]).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    let merged = d.join("merged.store");
    ok(vec![
        "sites".into(),
        "merge".into(),
        "-o".into(),
        os(&merged),
        os(&shards[1]),
        os(&shards[0]),
    ]);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    let info = ok(vec!["sites".into(), "info".into(), os(&merged)]);
    let info = String::from_utf8_lossy(&info.stdout).into_owned();
    // 10 gazette pages, and the other host's page (the same in both files: counted once);
    // the gazette is remembered.
    assert!(info.contains("11 distinct pages of 2 hosts"), "{info}");
    assert!(info.contains("1 hosts (10 pages)"), "{info}");

    // A run with the store writes what a run learning from the same inputs writes.
    let with_store = d.join("with_store");
    let learned = d.join("learned");
    run_ok(
        &with_store,
        &["--sites", merged.to_str().unwrap()],
        &[&a, &b],
    );
    run_ok(&learned, &["--site-memory"], &[&a, &b]);
    for name in ["a.jsonl.zst", "b.jsonl.zst"] {
        assert_eq!(
            shard_bytes(&with_store.join(name)),
            shard_bytes(&learned.join(name)),
            "{name}"
        );
    }
    assert_eq!(config_hashes(&with_store), config_hashes(&learned));
    // So do seed 001's `template` and seed 003's `cluster`, which read the leaf texts and
    // layouts a store keeps for them (a run of another method leaves them aside, so its
    // memory above was the same as learned).
    for method in ["template", "cluster"] {
        let with_store = d.join(format!("{method}_with_store"));
        let learned = d.join(format!("{method}_learned"));
        let chosen = ["--method", method];
        run_ok(
            &with_store,
            &[&chosen[..], &["--sites", merged.to_str().unwrap()]].concat(),
            &[&a, &b],
        );
        run_ok(
            &learned,
            &[&chosen[..], &["--site-memory"]].concat(),
            &[&a, &b],
        );
        for name in ["a.jsonl.zst", "b.jsonl.zst"] {
            let stored = texts(&with_store.join(name));
            assert_eq!(stored, texts(&learned.join(name)), "{method} {name}");
            for (url, text) in &stored {
                if url.contains("gazette") {
                    assert!(
                        !text.contains("All rights reserved"),
                        "{method} {url}: {text}"
                    );
                }
            }
        }
        assert_eq!(
            config_hashes(&with_store),
            config_hashes(&learned),
            "{method}"
        );
        // `cluster` says which site rule chose each page's text: the gazette's cluster rule
        // on its pages; nothing on a page judged alone, nor for any other method.
        for doc in docs(&learned.join("a.jsonl.zst")) {
            let meta = &doc["metadata"];
            let gazette = meta["url"].as_str().unwrap().contains("gazette");
            if method == "cluster" && gazette {
                assert_eq!(meta["site_rule"], "div.article", "{meta}");
            } else {
                assert!(meta.get("site_rule").is_none(), "{meta}");
            }
        }
    }

    // A damaged store is a setup error naming it, and nothing is written.
    let raw = std::fs::read(&merged).unwrap();
    std::fs::write(&merged, &raw[..raw.len() / 2]).unwrap();
    let out_dir = d.join("damaged");
    let out = run(&[
        "run".as_ref(),
        "--sites".as_ref(),
        merged.as_os_str(),
        "-o".as_ref(),
        out_dir.as_os_str(),
        a.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read site store") && err.contains("merged.store"),
        "{err}"
    );
    assert!(!out_dir.join("a.jsonl.zst").exists());
}

/// `outward sites build -o out INPUTS`, which must succeed.
fn build_store(out: &Path, inputs: &[&PathBuf]) {
    let mut args = vec![
        "sites".as_ref(),
        "build".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ];
    args.extend(inputs.iter().map(|p| p.as_os_str()));
    let done = run(&args);
    assert!(done.status.success(), "{}", describe(&done));
}

/// A nightly rebuild: yesterday's store, today's input. The run extracts with the store as it
/// was and leaves it as a build over both days would have made it.
#[test]
fn sites_update_adds_the_runs_pages_to_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = write_warc(d, "a.warc.gz", 1);
    let b = write_warc(d, "b.warc.gz", 2);
    let store = d.join("nightly.store");
    let both = d.join("both.store");
    build_store(&store, &[&a]);
    build_store(&both, &[&a, &b]);
    let before = std::fs::read(&store).unwrap();
    let with_old = d.join("with_old");
    let updating = d.join("updating");
    run_ok(&with_old, &["--sites", store.to_str().unwrap()], &[&b]);
    assert_eq!(
        std::fs::read(&store).unwrap(),
        before,
        "--sites alone never writes"
    );
    run_ok(
        &updating,
        &["--sites", store.to_str().unwrap(), "--sites-update"],
        &[&b],
    );
    // The run's output is the one made with yesterday's store…
    assert_eq!(
        shard_bytes(&with_old.join("b.jsonl.zst")),
        shard_bytes(&updating.join("b.jsonl.zst"))
    );
    // …and the store now is the store of both days.
    assert_eq!(
        std::fs::read(&store).unwrap(),
        std::fs::read(&both).unwrap()
    );
}

/// Two nightly runs updating one store at once (#42): each waits for the store's lock, named
/// with its holder, instead of both reading yesterday's store and the last writer dropping the
/// other's pages. The store ends as a build over all three days.
#[test]
fn two_runs_updating_one_store_keep_both_runs_pages() {
    use outward_output::lock::{acquire, lock_path};
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = write_warc(d, "a.warc.gz", 1);
    let b = write_warc(d, "b.warc.gz", 2);
    let c = write_warc(d, "c.warc.gz", 3);
    let store = d.join("nightly.store");
    let all = d.join("all.store");
    build_store(&store, &[&a]);
    build_store(&all, &[&a, &b, &c]);
    let yesterday = std::fs::read(&store).unwrap();
    // Hold the store's lock as a third writer would, so both runs reach it while it is held.
    let held = acquire(&lock_path(d, "nightly.store"), "a test", &mut |_| {
        panic!("nobody else holds it yet")
    })
    .unwrap();
    let spawn = |out: &str, input: &Path| {
        crate::common::outward()
            .args(["run", "--sites"])
            .arg(&store)
            .arg("--sites-update")
            .arg("-o")
            .arg(d.join(out))
            .arg(input)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let runs = [spawn("out_b", &b), spawn("out_c", &c)];
    // Both inputs done: each run now waits at the store.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !["out_b", "out_c"]
        .iter()
        .all(|o| d.join(o).join("manifest.jsonl").exists())
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the runs never got to the store"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        std::fs::read(&store).unwrap(),
        yesterday,
        "nobody writes the store while another holds its lock"
    );
    drop(held);
    for child in runs {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(
            err.contains(".nightly.store.lock, held by "),
            "the wait names the lock and its holder: {err}"
        );
    }
    assert_eq!(
        std::fs::read(&store).unwrap(),
        std::fs::read(&all).unwrap(),
        "the store holds all three days"
    );
    assert!(!lock_path(d, "nightly.store").exists(), "no lock file left");
}

/// A final store (`--drop-hosts-under 3`) holds the gazette only, extracts every method's
/// pages as the whole store does, and refuses what would need the hosts it left out.
#[test]
fn a_final_store_runs_like_the_whole_one_and_takes_no_more_pages() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = write_warc(d, "a.warc.gz", 1);
    let b = write_warc(d, "b.warc.gz", 2);
    let call = |args: &[&std::ffi::OsStr]| run(args);
    let (whole, built, merged) = (
        d.join("whole.store"),
        d.join("built.store"),
        d.join("merged.store"),
    );
    for (out, cut) in [(&whole, None), (&built, Some("3"))] {
        let os = std::ffi::OsStr::new;
        let mut args = vec![os("sites"), os("build")];
        if let Some(n) = cut {
            args.extend([os("--drop-hosts-under"), os(n)]);
        }
        args.extend([os("-o"), out.as_os_str(), a.as_os_str(), b.as_os_str()]);
        let result = call(&args);
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
    }
    let result = call(&[
        "sites".as_ref(),
        "merge".as_ref(),
        "--drop-hosts-under".as_ref(),
        "3".as_ref(),
        "-o".as_ref(),
        merged.as_os_str(),
        whole.as_os_str(),
    ]);
    assert!(result.status.success());
    // Cut while building or from the whole store: the same bytes, smaller than the whole.
    let final_bytes = std::fs::read(&built).unwrap();
    assert_eq!(final_bytes, std::fs::read(&merged).unwrap());
    assert!(final_bytes.len() < std::fs::read(&whole).unwrap().len());
    let info = call(&["sites".as_ref(), "info".as_ref(), built.as_os_str()]);
    let info = String::from_utf8_lossy(&info.stdout).into_owned();
    assert!(
        info.contains("10 distinct pages of 1 hosts (final: hosts of fewer than 3 pages left out)"),
        "{info}"
    );

    for method in ["reverse", "cluster"] {
        let (from_whole, from_final) = (
            d.join(format!("{method}_whole")),
            d.join(format!("{method}_final")),
        );
        for (out, store) in [(&from_whole, &whole), (&from_final, &built)] {
            run_ok(
                out,
                &["--method", method, "--sites", store.to_str().unwrap()],
                &[&a, &b],
            );
        }
        for name in ["a.jsonl.zst", "b.jsonl.zst"] {
            assert_eq!(
                shard_bytes(&from_whole.join(name)),
                shard_bytes(&from_final.join(name)),
                "{method} {name}"
            );
        }
        // Other records, another digest: a resume from one store to the other redoes.
        assert_ne!(config_hashes(&from_whole), config_hashes(&from_final));
    }

    // What the final store cannot serve is a usage error, and nothing is written.
    let refused = |args: &[&std::ffi::OsStr], why: &str, out: &Path| {
        let result = call(args);
        let err = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{err}");
        assert!(err.contains(why), "{err}");
        assert!(!out.exists(), "{}", out.display());
    };
    let out = d.join("fewer");
    refused(
        &[
            "run".as_ref(),
            "--sites".as_ref(),
            built.as_os_str(),
            "--site-min-pages".as_ref(),
            "2".as_ref(),
            "-o".as_ref(),
            out.as_os_str(),
            a.as_os_str(),
        ],
        "--site-min-pages 2",
        &out.join("a.jsonl.zst"),
    );
    let out = d.join("update");
    refused(
        &[
            "run".as_ref(),
            "--sites".as_ref(),
            built.as_os_str(),
            "--sites-update".as_ref(),
            "-o".as_ref(),
            out.as_os_str(),
            a.as_os_str(),
        ],
        "final store",
        &out.join("a.jsonl.zst"),
    );
    assert_eq!(std::fs::read(&built).unwrap(), final_bytes);
    let again = d.join("again.store");
    refused(
        &[
            "sites".as_ref(),
            "merge".as_ref(),
            "-o".as_ref(),
            again.as_os_str(),
            whole.as_os_str(),
            built.as_os_str(),
        ],
        "final store",
        &again,
    );
}

/// 400 hosts of 8 gazette pages each (enough that a 1 MiB budget spills several times).
fn write_many_hosts_warc(dir: &Path) -> PathBuf {
    let mut w = WarcWriter::new(Compression::Gzip, 7);
    w.warcinfo("many.warc.gz");
    for h in 0..400 {
        for n in 0..8 {
            w.response(
                &format!("https://h{h}.example/{n}"),
                &HttpResponse::html(&gazette_page(n + 10 * h)),
            );
        }
    }
    let (bytes, _) = w.finish();
    let path = dir.join("many.warc.gz");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Memory bounded whatever the number of hosts: past `--site-memory-mib`, a build or a run's
/// first read spills sorted runs and merges them, and nothing it writes changes.
#[test]
fn a_small_memory_budget_spills_and_changes_no_byte() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let many = write_many_hosts_warc(d);
    let build = |out: &Path, extra: &[&str]| {
        let args: Vec<&std::ffi::OsStr> = ["sites", "build"]
            .iter()
            .chain(extra)
            .map(|a| a.as_ref())
            .chain(["-o".as_ref(), out.as_os_str(), many.as_os_str()])
            .collect();
        let result = run(&args);
        assert!(result.status.success());
        String::from_utf8_lossy(&result.stderr).into_owned()
    };
    let roomy = d.join("roomy.store");
    let tight = d.join("tight.store");
    let said = build(&roomy, &[]);
    assert!(!said.contains("spilled"), "{said}");
    let said = build(&tight, &["--site-memory-mib", "1"]);
    assert!(said.contains("runs spilled and merged"), "{said}");
    assert!(said.contains("3200 distinct pages of 400 hosts"), "{said}");
    assert_eq!(
        std::fs::read(&roomy).unwrap(),
        std::fs::read(&tight).unwrap()
    );

    let (plain, learned, spilled, stored) = (
        d.join("plain"),
        d.join("learned"),
        d.join("spilled"),
        d.join("stored"),
    );
    run_ok(&plain, &[], &[&many]);
    run_ok(&learned, &["--site-memory"], &[&many]);
    run_ok(
        &spilled,
        &["--site-memory", "--site-memory-mib", "1"],
        &[&many],
    );
    run_ok(
        &stored,
        &["--sites", roomy.to_str().unwrap(), "--site-memory-mib", "1"],
        &[&many],
    );
    let docs = shard_bytes(&learned.join("many.jsonl.zst"));
    assert_eq!(docs, shard_bytes(&spilled.join("many.jsonl.zst")));
    assert_eq!(docs, shard_bytes(&stored.join("many.jsonl.zst")));
    // The memory mattered: the subscription box every page repeats is gone.
    let subscribe = |path: &Path| {
        texts(path)
            .iter()
            .filter(|(_, text)| text.contains("weekly letter"))
            .count()
    };
    assert_eq!(subscribe(&learned.join("many.jsonl.zst")), 0);
    assert_eq!(subscribe(&plain.join("many.jsonl.zst")), 3200);
    // The spilled runs are gone with the run.
    assert_eq!(
        files_in(&spilled),
        [
            ".manifest.lock",
            "manifest.jsonl",
            "many.jsonl.zst",
            "timings.jsonl"
        ]
    );
}

/// `sites build --for reverse` keeps no leaf texts or layouts: a smaller store that runs
/// `reverse` exactly like a whole one (same bytes, same config hash), that a method reading
/// more refuses, and that a merge with a whole store makes the merge keep less.
#[test]
fn a_store_built_for_one_method_runs_it_and_refuses_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = write_warc(d, "a.warc.gz", 1);
    let b = write_warc(d, "b.warc.gz", 2);
    let sites = |args: &[&std::ffi::OsStr]| {
        let out = run(&[&["sites".as_ref()], args].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let whole = d.join("whole.store");
    let lean = d.join("lean.store");
    sites(&[
        "build".as_ref(),
        "-o".as_ref(),
        whole.as_os_str(),
        a.as_os_str(),
        b.as_os_str(),
    ]);
    sites(&[
        "build".as_ref(),
        "--for".as_ref(),
        "reverse".as_ref(),
        "-o".as_ref(),
        lean.as_os_str(),
        a.as_os_str(),
        b.as_os_str(),
    ]);
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert!(
        size(&lean) < size(&whole),
        "{} {}",
        size(&lean),
        size(&whole)
    );
    assert!(
        sites(&["info".as_ref(), lean.as_os_str()]).contains("keeps leaf texts: no, layouts: no")
    );
    assert!(
        sites(&["info".as_ref(), whole.as_os_str()])
            .contains("keeps leaf texts: yes, layouts: yes")
    );
    let (with_whole, with_lean) = (d.join("with_whole"), d.join("with_lean"));
    run_ok(
        &with_whole,
        &["--sites", whole.to_str().unwrap()],
        &[&a, &b],
    );
    run_ok(&with_lean, &["--sites", lean.to_str().unwrap()], &[&a, &b]);
    for name in ["a.jsonl.zst", "b.jsonl.zst"] {
        assert_eq!(
            shard_bytes(&with_whole.join(name)),
            shard_bytes(&with_lean.join(name))
        );
    }
    assert_eq!(config_hashes(&with_whole), config_hashes(&with_lean));
    // `template` reads the leaf texts the lean store does not keep.
    let refused_dir = d.join("refused");
    let refused = run(&[
        "run".as_ref(),
        "--method".as_ref(),
        "template".as_ref(),
        "--sites".as_ref(),
        lean.as_os_str(),
        "-o".as_ref(),
        refused_dir.as_os_str(),
        a.as_os_str(),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("keeps no leaf texts, which --method template reads"),
        "{err}"
    );
    // A nightly update of a lean store fingerprints only what it keeps, and leaves it the
    // lean build of both days.
    let nightly = d.join("nightly.store");
    sites(&[
        "build".as_ref(),
        "--for".as_ref(),
        "reverse".as_ref(),
        "-o".as_ref(),
        nightly.as_os_str(),
        a.as_os_str(),
    ]);
    run_ok(
        &d.join("nightly_run"),
        &["--sites", nightly.to_str().unwrap(), "--sites-update"],
        &[&b],
    );
    assert_eq!(
        std::fs::read(&nightly).unwrap(),
        std::fs::read(&lean).unwrap()
    );
    // A merge keeps what both keep.
    let merged = d.join("merged.store");
    sites(&[
        "merge".as_ref(),
        "-o".as_ref(),
        merged.as_os_str(),
        whole.as_os_str(),
        lean.as_os_str(),
    ]);
    assert!(
        sites(&["info".as_ref(), merged.as_os_str()]).contains("keeps leaf texts: no, layouts: no")
    );
}
