//! Regression bars on the real dev data (`../shared/data/dev`): the accuracy of the default
//! `reverse-stage` (with its shipped model, and leave-one-dataset-out: each set scored by a
//! model trained on the other seven), `reverse`, `paper` and `fulltext` as `outward eval
//! --json` reports it, and the partial-parse fraction on dragnet. Skips (with a note) when `../shared` is absent; fails instead where CI sets
//! `OUTWARD_REQUIRE_DEV=1`.
//!
//! Each method's eval runs once and everything is checked from that run: every dataset's F1
//! and the macro F1 over the bag-scored sets at least the measured value minus 0.005 (rounded
//! down to 4 decimals), and every dataset's pages missed (recall < 0.5, the JSON's `misses`)
//! at most the measured count. The eval is deterministic (the same JSON for any thread
//! count), so these margins are a budget for a trade made on purpose, not for noise: a drop
//! below a floor, or one page missed more, is a regression to explain. A change that improves
//! a value should measure again and raise the table (and the commit named with it).

use crate::common::{dev_warcs, docs, run, run_into, shared_data, stdout};
use serde_json::Value;

/// One method's bars: the macro F1 `(measured, floor)`, and per dataset `(name, measured F1,
/// floor, most pages missed)`. A floor is the measured value minus 0.005, rounded down to 4
/// decimals; the most pages missed is the measured count.
struct Bar {
    method: &'static str,
    /// Scored leave-one-dataset-out (`eval --lodo`): each set by a model trained on the
    /// other seven, never on its own pages.
    lodo: bool,
    macro_f1: (f64, f64),
    sets: &'static [(&'static str, f64, f64, u64)],
}

/// Measured with `outward eval --json [--lodo] --method M ../shared/data/dev/*.warc.gz`:
/// `paper` and `fulltext` at fee606e (their scores are unchanged since bb2e9df), `reverse`
/// and `reverse-stage` on the commit that refitted the shipped models after the cleaner's
/// script and comment ends and the `notices` guard (issue #37, 2026-11-28); `reverse-stage`
/// in sample again at 2e36ded (the `<h1>` linking home is no headline; the stage retrained,
/// its cut moved with its training pages' mean F1): dragnet's F1 rose and one more of its
/// pages is missed (http://dragnet.example/R569, a blog whose root is its sidebar and whose
/// truth is a five-line list the retrained stage now prunes: R 0.84 -> 0.14); held out, the
/// misses are unchanged (168). `reverse-stage` and `reverse` in sample again at the
/// `after-story` guard (a heading of what follows the story ends R's text, 2026-12-02):
/// macro 0.901373 -> 0.902806 and 0.896930 -> 0.898752, and one more dragnet page missed by
/// each (http://blogs.nfl.com/2012/11/05/dwayne-allen-says-players-had-to-hold-..., whose
/// truth keeps the comment guidelines after the "Share this:" heading: R 0.52 -> 0.40);
/// held out (LODO) at the same commit: macro 0.899015 -> 0.900576, dragnet 52 -> 53
/// missed.
const BARS: [Bar; 5] = [
    Bar {
        method: "reverse-stage",
        lodo: false,
        macro_f1: (0.902806, 0.8978),
        sets: &[
            ("cleaneval", 0.928784, 0.9237, 17),
            ("cleanportaleval", 0.943664, 0.9386, 1),
            ("cwced_zh", 0.929619, 0.9246, 0),
            ("dragnet", 0.907972, 0.9029, 52),
            ("htmltotext", 0.898124, 0.8931, 2),
            ("magic_html", 0.807371, 0.8023, 12),
            ("readability", 0.957738, 0.9527, 3),
            ("trafilatura_eval", 0.898891, 0.8938, 31),
            ("wcxb", 0.849175, 0.8441, 73),
        ],
    },
    Bar {
        method: "reverse-stage",
        lodo: true,
        macro_f1: (0.900576, 0.8955),
        sets: &[
            ("cleaneval", 0.927449, 0.9224, 17),
            ("cleanportaleval", 0.942814, 0.9378, 1),
            ("cwced_zh", 0.927819, 0.9228, 0),
            ("dragnet", 0.904223, 0.8992, 53),
            ("htmltotext", 0.898921, 0.8939, 2),
            ("magic_html", 0.802218, 0.7972, 12),
            ("readability", 0.955698, 0.9506, 3),
            ("wcxb", 0.845466, 0.8404, 81),
        ],
    },
    Bar {
        method: "reverse",
        lodo: false,
        macro_f1: (0.898752, 0.8937),
        sets: &[
            ("cleaneval", 0.926570, 0.9215, 17),
            ("cleanportaleval", 0.933825, 0.9288, 1),
            ("cwced_zh", 0.926878, 0.9218, 0),
            ("dragnet", 0.902915, 0.8979, 49),
            ("htmltotext", 0.897635, 0.8926, 2),
            ("magic_html", 0.800190, 0.7951, 11),
            ("readability", 0.956014, 0.9510, 3),
            ("trafilatura_eval", 0.887765, 0.8827, 30),
            ("wcxb", 0.845992, 0.8409, 72),
        ],
    },
    Bar {
        method: "paper",
        lodo: false,
        macro_f1: (0.819715, 0.8147),
        sets: &[
            ("cleaneval", 0.891270, 0.8862, 42),
            ("cleanportaleval", 0.836390, 0.8313, 6),
            ("cwced_zh", 0.892929, 0.8879, 1),
            ("dragnet", 0.742065, 0.7370, 80),
            ("htmltotext", 0.818283, 0.8132, 4),
            ("magic_html", 0.703330, 0.6983, 13),
            ("readability", 0.907128, 0.9021, 7),
            ("trafilatura_eval", 0.818781, 0.8137, 82),
            ("wcxb", 0.766326, 0.7613, 207),
        ],
    },
    Bar {
        method: "fulltext",
        lodo: false,
        macro_f1: (0.716664, 0.7116),
        sets: &[
            ("cleaneval", 0.893435, 0.8884, 1),
            ("cleanportaleval", 0.599042, 0.5940, 1),
            ("cwced_zh", 0.813536, 0.8085, 0),
            ("dragnet", 0.547186, 0.5421, 7),
            ("htmltotext", 0.755442, 0.7504, 1),
            ("magic_html", 0.557787, 0.5527, 1),
            ("readability", 0.840271, 0.8352, 1),
            ("trafilatura_eval", 0.694580, 0.6895, 8),
            ("wcxb", 0.726615, 0.7216, 14),
        ],
    },
];

/// `x` minus 0.005, rounded down to 4 decimals (how the floors above were set).
fn floor_of(x: f64) -> f64 {
    ((x - 0.005) * 1e4 + 1e-6).floor() / 1e4
}

/// Runs `outward eval --json --method M` on every dev set once and checks the method's bars.
/// With `lodo`, `outward eval --lodo --json` (the bar of that name). Returns the macro F1.
fn check_bars(method: &str, lodo: bool) -> Option<f64> {
    let warcs = dev_warcs()?;
    let bar = BARS
        .iter()
        .find(|b| b.method == method && b.lodo == lodo)
        .unwrap();
    let flags: &[&str] = if lodo { &["--lodo"] } else { &[] };
    let base = ["eval", "--json", "--method", method];
    let mut args: Vec<&std::ffi::OsStr> =
        base.iter().chain(flags).map(std::ffi::OsStr::new).collect();
    args.extend(warcs.iter().map(|p| p.as_os_str()));
    let out = run(&args);
    assert!(
        out.status.success(),
        "outward eval failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("eval --json prints JSON");
    let macro_f1 = v["macro_bag_f1"]["F1"].as_f64().expect("macro_bag_f1.F1");
    let n = v["macro_bag_f1"]["n"].as_u64().expect("macro_bag_f1.n");
    assert_eq!(n, 8, "8 bag-scored dev datasets");
    let datasets = v["datasets"].as_object().expect("datasets object");
    let mut names: Vec<&str> = datasets.keys().map(String::as_str).collect();
    names.sort();
    let mut barred: Vec<&str> = bar.sets.iter().map(|s| s.0).collect();
    barred.sort();
    assert_eq!(names, barred, "{method}: the dev sets and the table's");
    let mut report = vec![format!("{method}: macro F1 {macro_f1:.6}")];
    let mut failures = Vec::new();
    let (measured, floor) = bar.macro_f1;
    assert_eq!(
        floor,
        floor_of(measured),
        "{method}: the table's macro floor"
    );
    if macro_f1 < floor {
        failures.push(format!(
            "macro F1 {macro_f1:.6} < floor {floor} (measured {measured})"
        ));
    }
    for &(name, measured, floor, most_missed) in bar.sets {
        assert_eq!(
            floor,
            floor_of(measured),
            "{method} {name}: the table's floor"
        );
        let ds = &datasets[name];
        let f1 = ds["F1"].as_f64().expect("F1");
        let missed = ds["misses"].as_u64().expect("misses");
        report.push(format!("{name} F1 {f1:.6}, {missed} missed"));
        if f1 < floor {
            failures.push(format!(
                "{name}: F1 {f1:.6} < floor {floor} (measured {measured})"
            ));
        }
        if missed > most_missed {
            failures.push(format!(
                "{name}: {missed} pages missed (recall < 0.5) > {most_missed} measured"
            ));
        }
    }
    eprintln!("{}", report.join("; "));
    assert!(failures.is_empty(), "{method}:\n{}", failures.join("\n"));
    Some(macro_f1)
}

#[test]
fn reverse_stage_floors_and_misses() {
    check_bars("reverse-stage", false);
}

/// The default's honest bar: every set scored by a stage trained on the other seven. It also
/// keeps issue #13's: the stage, held out, above the rules alone (`reverse`'s measured
/// macro) by at least 0.0015.
#[test]
fn reverse_stage_lodo_floors_and_misses() {
    let Some(lodo_macro) = check_bars("reverse-stage", true) else {
        return;
    };
    let rules = BARS.iter().find(|b| b.method == "reverse").unwrap();
    let rules_macro = rules.macro_f1.0;
    assert!(
        lodo_macro >= rules_macro + 0.0015,
        "LODO macro {lodo_macro:.6} < reverse's {rules_macro} + 0.0015"
    );
}

#[test]
fn reverse_floors_and_misses() {
    check_bars("reverse", false);
}

#[test]
fn paper_floors_and_misses() {
    check_bars("paper", false);
}

#[test]
fn fulltext_floors_and_misses() {
    check_bars("fulltext", false);
}

#[test]
fn dragnet_partial_parse_fraction() {
    let Some(dragnet) = shared_data("data/dev/dragnet.warc.gz") else {
        return;
    };
    let out_dir = tempfile::tempdir().unwrap();
    run_into(out_dir.path(), &["--method", "reverse"], &[&dragnet], 0);
    let mut fractions: Vec<f64> = Vec::new();
    for doc in docs(&out_dir.path().join("dragnet.jsonl.zst")) {
        let parsed = doc["metadata"]["nodes_parsed"].as_f64().unwrap();
        let total = doc["metadata"]["nodes_total"].as_f64().unwrap();
        assert!(
            parsed <= total,
            "nodes_parsed {parsed} > nodes_total {total}"
        );
        if total > 0.0 {
            fractions.push(parsed / total);
        }
    }
    assert!(
        fractions.len() > 1300,
        "dragnet gives ~1380 documents, got {}",
        fractions.len()
    );
    fractions.sort_by(|a, b| a.total_cmp(b));
    let median = fractions[fractions.len() / 2];
    eprintln!("dragnet nodes_parsed/nodes_total median {median:.3}");
    assert!(
        median <= 0.5,
        "median parsed fraction {median:.3} above the 0.5 bar"
    );
}

#[test]
fn eval_reports_misses_and_lists_worst_pages() {
    let Some(cleanportaleval) = shared_data("data/dev/cleanportaleval.warc.gz") else {
        return;
    };
    let out = run(&[
        "eval".as_ref(),
        "--worst".as_ref(),
        "3".as_ref(),
        cleanportaleval.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("recall < 0.5 on "), "{text}");
    assert!(
        text.contains("\nworst 3 pages (F1, then recall):\n"),
        "{text}"
    );
    let records = text.lines().filter(|l| l.contains("<urn:uuid:")).count();
    assert_eq!(records, 3, "{text}");
}
