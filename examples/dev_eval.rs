//! Dev measurement harness for the extraction core: reads `/work/devpages/<dataset>.jsonl`
//! (`{"warc_record_id","html"}` per line), extracts every page with one method, writes
//! `OUT/<dataset>.jsonl` predictions (`{"warc_record_id","text"}`) for
//! `/work/devpages/score_preds.py`, and prints MB/s of HTML per core for the extraction
//! alone plus the partial-parse ratio `nodes_parsed / nodes_total` (median, p90).
//!
//! Usage: `cargo run --release --example dev_eval -- --method reverse --out /tmp/preds_rev
//!         [--pages DIR] [--repeat N] [dataset ...]`

use outward::extract::{ExtractOptions, Method, extractor};
use std::io::{BufRead, BufReader, Write};
use std::time::Instant;

const DATASETS: &[&str] = &[
    "cleaneval",
    "cleanportaleval",
    "cwced_zh",
    "dragnet",
    "htmltotext",
    "magic_html",
    "readability",
    "wcxb",
    "trafilatura_eval",
];

fn main() {
    let mut method = Method::Reverse;
    let mut out_dir: Option<String> = None;
    let mut pages_dir = "/work/devpages".to_string();
    let mut repeat = 1usize;
    let mut threshold = ExtractOptions::default().similarity_threshold;
    let mut sets: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--method" => {
                method = match args.next().as_deref() {
                    Some("fulltext") => Method::Fulltext,
                    Some("paper") => Method::Paper,
                    Some("reverse") => Method::Reverse,
                    other => panic!("unknown method {other:?}"),
                }
            }
            "--out" => out_dir = args.next(),
            "--pages" => pages_dir = args.next().expect("--pages DIR"),
            "--repeat" => repeat = args.next().and_then(|s| s.parse().ok()).unwrap_or(1),
            "--threshold" => threshold = args.next().and_then(|s| s.parse().ok()).unwrap_or(0.8),
            "--file" => {
                let f = args.next().expect("--file F");
                let html = String::from_utf8_lossy(&std::fs::read(&f).expect("read")).into_owned();
                debug_page(&html, method);
                return;
            }
            _ => sets.push(a),
        }
    }
    if sets.iter().any(|s| s == "--whoami") {
        println!("{}", env!("CARGO_MANIFEST_DIR"));
        return;
    }
    if sets.is_empty() {
        sets = DATASETS.iter().map(|s| s.to_string()).collect();
    }
    let options = ExtractOptions {
        similarity_threshold: threshold,
    };
    let clean_only = sets.iter().any(|s| s == "--clean-only");
    sets.retain(|s| s != "--clean-only");
    if sets.is_empty() {
        sets = DATASETS.iter().map(|s| s.to_string()).collect();
    }
    let ex = extractor(method, &options);
    if let Some(d) = &out_dir {
        std::fs::create_dir_all(d).expect("create out dir");
    }
    let (mut all_bytes, mut all_secs) = (0usize, 0f64);
    for ds in &sets {
        let path = format!("{pages_dir}/{ds}.jsonl");
        let Ok(f) = std::fs::File::open(&path) else {
            eprintln!("skip {ds}: {path} missing");
            continue;
        };
        let mut pages: Vec<(String, String)> = Vec::new();
        for line in BufReader::new(f).lines() {
            let line = line.expect("read line");
            let v: serde_json::Value = serde_json::from_str(&line).expect("json");
            pages.push((
                v["warc_record_id"].as_str().unwrap_or("").to_string(),
                v["html"].as_str().unwrap_or("").to_string(),
            ));
        }
        let bytes: usize = pages.iter().map(|p| p.1.len()).sum();
        if clean_only {
            // The cleaner alone (the one pass over every byte of the page).
            use outward::extract::internals::{CleanOptions, clean};
            let mut secs = f64::MAX;
            let mut out_bytes = 0;
            for _ in 0..repeat {
                let t = Instant::now();
                out_bytes = 0;
                for (_, html) in &pages {
                    out_bytes += clean(html.as_bytes(), CleanOptions::default()).buf.len();
                }
                secs = secs.min(t.elapsed().as_secs_f64());
            }
            println!(
                "{ds:18} clean only: {:8.1} MB/s, cleaned to {:.1}% of the bytes",
                bytes as f64 / 1e6 / secs,
                100.0 * out_bytes as f64 / bytes.max(1) as f64
            );
            continue;
        }
        let mut results = Vec::with_capacity(pages.len());
        let mut secs = f64::MAX;
        for _ in 0..repeat {
            results.clear();
            let t = Instant::now();
            for (_, html) in &pages {
                results.push(ex.extract(html));
            }
            secs = secs.min(t.elapsed().as_secs_f64());
        }
        let mut ratios: Vec<f64> = results
            .iter()
            .filter(|r| r.stats.nodes_total > 0)
            .map(|r| r.stats.nodes_parsed as f64 / r.stats.nodes_total as f64)
            .collect();
        ratios.sort_by(f64::total_cmp);
        let pick = |q: f64| {
            ratios
                .get(((ratios.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        let violations = results
            .iter()
            .filter(|r| r.stats.nodes_parsed > r.stats.nodes_total)
            .count();
        if let Some(((id, _), r)) = pages
            .iter()
            .zip(&results)
            .find(|(_, r)| r.stats.nodes_parsed > r.stats.nodes_total)
        {
            eprintln!("invariant violated on {id}: {:?}", r.stats);
        }
        println!(
            "{ds:18} pages {:5} {:7.1} MB {:8.1} MB/s {:6.3} ms/page  nodes parsed/total median {:.3} p90 {:.3}{}",
            pages.len(),
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / secs,
            secs * 1e3 / pages.len().max(1) as f64,
            pick(0.5),
            pick(0.9),
            if violations > 0 {
                format!("  INVARIANT VIOLATIONS {violations}")
            } else {
                String::new()
            }
        );
        all_bytes += bytes;
        all_secs += secs;
        if let Some(d) = &out_dir {
            let mut w = std::io::BufWriter::new(
                std::fs::File::create(format!("{d}/{ds}.jsonl")).expect("create preds"),
            );
            for ((id, _), r) in pages.iter().zip(&results) {
                let line = serde_json::json!({"warc_record_id": id, "text": r.text});
                writeln!(w, "{line}").expect("write preds");
            }
        }
    }
    println!(
        "ALL {:.1} MB in {:.2} s: {:.1} MB/s per core ({})",
        all_bytes as f64 / 1e6,
        all_secs,
        all_bytes as f64 / 1e6 / all_secs.max(1e-9),
        method.name()
    );
}

/// Print what the cleaner and the method did on one page (for debugging).
fn debug_page(html: &str, method: Method) {
    use outward::extract::internals::{CleanOptions, clean};
    let c = clean(html.as_bytes(), CleanOptions::default());
    println!(
        "cleaned {} -> {} bytes, runs {}, blocks {}, nodes {}, text weight {}",
        html.len(),
        c.buf.len(),
        c.runs.len(),
        c.blocks.len(),
        c.nodes_total,
        c.text_weight
    );
    if std::env::var("DUMP").is_ok() {
        println!("{}", String::from_utf8_lossy(&c.buf));
    }
    let ex = extractor(method, &ExtractOptions::default()).extract(html);
    println!(
        "title: {:?}\nstats: {:?}\n---\n{}",
        ex.title, ex.stats, ex.text
    );
}
