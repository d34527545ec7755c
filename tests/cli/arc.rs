//! End-to-end: `outward run` on ARC (v1) files. The real ARC samples of
//! `../shared/samples/real` (skipped when `../shared` is absent) must give warcio 1.8.1's record
//! counts from `stats.json`; `example.arc`'s page must become a document with the page's text
//! and the deterministic `<urn:sha1:…>` id, the same from `example.arc` and `example.arc.gz`;
//! directories pick up `.arc`/`.arc.gz`; `x.arc` and `x.warc.gz` collide on the stem `x`.

use crate::common::{describe, docs, manifest, run_into, shared_data};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `../shared/samples/real`, which has warcio's counts in `stats.json`.
fn real_samples() -> Option<PathBuf> {
    shared_data("samples/real/stats.json").map(|stats| stats.parent().unwrap().to_path_buf())
}

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or(0)
}

/// warcio's records of an ARC file by type, as one JSON object (`{"arc_header": 1, ...}`).
const WARCIO_TYPES: &str = r#"
import collections, json, sys
from warcio.archiveiterator import ArchiveIterator
with open(sys.argv[1], "rb") as f:
    print(json.dumps(collections.Counter(r.rec_type for r in ArchiveIterator(f))))
"#;

/// `file`'s records by type as warcio reads them, when `make test`'s Python has warcio.
fn warcio_types(python: &str, file: &Path) -> BTreeMap<String, u64> {
    let out = Command::new(python)
        .args(["-c", WARCIO_TYPES])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        file.display(),
        describe(&out)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn arc_samples_give_warcios_counts() {
    let Some(real) = real_samples() else { return };
    let stats: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(real.join("stats.json")).unwrap()).unwrap();
    let arcs: Vec<&Value> = stats.iter().filter(|s| s["format"] == "arc").collect();
    // webrecorder+pywb/{bad.arc,example.arc,example.arc.gz},
    // webrecorder+warcio/{bad.arc,example-space-in-url.arc,example.arc,example.arc.gz}
    assert_eq!(arcs.len(), 7, "{arcs:?}");
    // warcio's counts are computed here where it is installed (`make pyenv`), and must be
    // the recorded ones; elsewhere the recorded counts stand alone.
    let python = outward_testkit::python_with("warcio");
    let tmp = tempfile::tempdir().unwrap();
    for (i, s) in arcs.iter().enumerate() {
        let file = s["file"].as_str().unwrap();
        if let Some(python) = &python {
            let live = warcio_types(python, &real.join(file));
            let recorded: BTreeMap<String, u64> =
                serde_json::from_value(s["by_type"].clone()).unwrap();
            assert_eq!(live, recorded, "{file}: warcio now and stats.json");
        }
        let out = tmp.path().join(format!("out{i}"));
        run_into(&out, &[], &[&real.join(file)], 0);
        let m = manifest(&out);
        assert_eq!(m.len(), 1, "{file}: {m:?}");
        let e = m.values().next().unwrap();
        let c = &e["counts"];
        let skipped = |reason: &str| n(&c["skipped"][reason]);
        assert_eq!(e["status"], "complete", "{file}: {e}");
        // Every record warcio sees, and no more: the `filedesc` block (warcio's arc_header)
        // is skipped as other_type, each of the others is a response.
        assert_eq!(n(&c["records"]), n(&s["records"]), "{file}: {e}");
        assert_eq!(
            skipped("other_type"),
            n(&s["by_type"]["arc_header"]),
            "{file}: {e}"
        );
        assert_eq!(
            n(&c["records"]) - skipped("other_type"),
            n(&s["by_type"]["response"]),
            "{file}: {e}"
        );
        // The HTML responses reach extraction and each one gives a document.
        assert_eq!(n(&c["html"]), n(&s["html_responses"]), "{file}: {e}");
        assert_eq!(n(&c["written"]), n(&s["html_responses"]), "{file}: {e}");
        let skipped_total: u64 = c["skipped"].as_object().unwrap().values().map(n).sum();
        assert_eq!(skipped_total + n(&c["written"]), n(&c["records"]), "{file}");
        if file.ends_with("bad.arc") {
            // Lengths -1 and abc are bad records; the 1-byte block is not HTTP.
            assert_eq!(
                (skipped("bad_record"), skipped("not_html")),
                (2, 1),
                "{file}: {e}"
            );
        }
    }
}

#[test]
fn example_arc_page_becomes_a_document_with_a_stable_id() {
    let Some(real) = real_samples() else { return };
    let dir = real.join("webrecorder+warcio");
    // The two files hold the same bytes (one gzipped per record), so the same records.
    let plain = std::fs::read(dir.join("example.arc")).unwrap();
    let gz = std::fs::read(dir.join("example.arc.gz")).unwrap();
    let mut unzipped = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::MultiGzDecoder::new(&gz[..]),
        &mut unzipped,
    )
    .unwrap();
    assert_eq!(plain, unzipped);
    let tmp = tempfile::tempdir().unwrap();
    let mut ids = Vec::new();
    // (file, offset of the response: its line in the plain file, its gzip member in the other)
    for (name, offset) in [("example.arc", 151), ("example.arc.gz", 171)] {
        let out = tmp.path().join(name);
        run_into(&out, &[], &[&dir.join(name)], 0);
        let d = docs(&out.join("example.jsonl.zst"));
        assert_eq!(d.len(), 1, "{name}: {d:?}");
        let doc = &d[0];
        let text = doc["text"].as_str().unwrap();
        assert!(
            text.contains(
                "This domain is established to be used for illustrative examples in documents."
            ),
            "{name}: {text:?}"
        );
        assert!(!text.contains("background-color"), "{name}: {text:?}");
        assert_eq!(doc["metadata"]["url"], "http://example.com/", "{name}");
        assert_eq!(doc["metadata"]["title"], "Example Domain", "{name}");
        assert_eq!(doc["metadata"]["warc_file"], name);
        assert_eq!(doc["metadata"]["warc_offset"], offset, "{name}");
        assert_eq!(doc["created"], "2014-02-16T05:02:21Z", "{name}");
        ids.push(doc["id"].as_str().unwrap().to_string());
    }
    // SHA-1 (base32) of the header line + "\n" + the 1591-byte block, computed apart with
    // Python's hashlib.
    assert_eq!(ids[0], "<urn:sha1:JSOXBLN7CQZ7BA6M3ABSYVJ6MZ5H4K4P>");
    assert_eq!(ids[0], ids[1]);
    // The space-in-URL sample: the URL keeps its spaces, and its different line gives
    // another id.
    let out = tmp.path().join("space");
    run_into(&out, &[], &[&dir.join("example-space-in-url.arc")], 0);
    let d = docs(&out.join("example-space-in-url.jsonl.zst"));
    assert_eq!(d.len(), 1);
    assert_eq!(
        d[0]["metadata"]["url"],
        "http://example.com/index.cfm?FuseAction=Email&EmailTitle=Examples From The Live Web&IsPopUp=False"
    );
    assert!(d[0]["id"].as_str().unwrap().starts_with("<urn:sha1:"));
    assert_ne!(d[0]["id"], ids[0].as_str());
}

#[test]
fn arc_inputs_in_directories_stems_and_damage() {
    let Some(real) = real_samples() else { return };
    let warcio = real.join("webrecorder+warcio");
    let tmp = tempfile::tempdir().unwrap();
    // A directory contributes its .arc and .arc.gz files (and nothing else).
    let dir = tmp.path().join("in");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(warcio.join("example.arc.gz"), dir.join("a.arc.gz")).unwrap();
    std::fs::copy(warcio.join("bad.arc"), dir.join("b.arc")).unwrap();
    std::fs::write(dir.join("notes.txt"), "not an input").unwrap();
    let out = tmp.path().join("dir-out");
    run_into(&out, &[], &[&dir], 0);
    let m = manifest(&out);
    assert_eq!(
        m.keys().collect::<Vec<_>>(),
        ["a.jsonl.zst", "b.jsonl.zst"],
        "{m:?}"
    );
    assert_eq!(m["a.jsonl.zst"]["counts"]["written"], 1);
    assert_eq!(m["b.jsonl.zst"]["counts"]["records"], 4);
    // example.arc and example.warc.gz would both write example.jsonl.zst: refused up front.
    let out = tmp.path().join("clash");
    let r = run_into(
        &out,
        &[],
        &[&warcio.join("example.arc"), &warcio.join("example.warc.gz")],
        2,
    );
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("output named \"example\""), "{err}");
    // A cut ARC keeps its good records and is partial at the cut record.
    let plain = std::fs::read(warcio.join("example.arc")).unwrap();
    let cut = tmp.path().join("cut.arc");
    std::fs::write(&cut, &plain[..1000]).unwrap();
    let out = tmp.path().join("cut-out");
    run_into(&out, &[], &[&cut], 1);
    let e = &manifest(&out)["cut.jsonl.zst"];
    assert_eq!(e["status"], "partial", "{e}");
    assert_eq!(e["error_offset"], 151, "{e}");
    assert_eq!(e["counts"]["records"], 2, "{e}");
    assert_eq!(e["counts"]["skipped"]["bad_record"], 1, "{e}");
    // A file named .arc that is neither ARC nor WARC still fails as before.
    let junk = tmp.path().join("junk.arc");
    std::fs::write(
        &junk,
        "URL IP-address Archive-date Content-type Archive-length\n",
    )
    .unwrap();
    let out = tmp.path().join("junk-out");
    let r = run_into(&out, &[], &[&junk], 3);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("not a WARC or ARC file"), "{err}");
    // Its manifest line says so, with no output (`""`): a rerun tries it again.
    let m = manifest(&out);
    assert_eq!(m.len(), 1);
    assert_eq!(m[""]["status"], "failed");
}
