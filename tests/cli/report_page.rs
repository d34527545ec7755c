//! `outward report`: the page of a run's output directory counts what the manifest counts,
//! holds nothing that reaches the network, is the same page for the same directory, and
//! says what is missing from a damaged directory instead of failing.

use super::common::*;
use std::collections::BTreeMap;
use std::path::Path;

/// `data-label` → `data-value` of every bar of the chart `name`.
fn chart(page: &str, name: &str) -> BTreeMap<String, u64> {
    let start = page
        .find(&format!("data-chart=\"{name}\""))
        .unwrap_or_else(|| panic!("no chart {name}"));
    let end = start + page[start..].find("</svg>").unwrap();
    let mut bars = BTreeMap::new();
    for part in page[start..end].split("<g data-label=\"").skip(1) {
        let (label, rest) = part.split_once("\" data-value=\"").unwrap();
        let value = rest.split('"').next().unwrap().parse().unwrap();
        bars.insert(label.to_string(), value);
    }
    bars
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
    for name in ["text-length", "nodes-fraction"] {
        assert_eq!(chart(&page, name).values().sum::<u64>(), written, "{name}");
    }
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
