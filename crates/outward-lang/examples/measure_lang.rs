//! Measures language identifiers on the dev sets: `cargo run --release -p outward-lang
//! --features measure --example measure_lang -- ../shared/data/dev/*.warc.gz`. For each WARC,
//! the truth file `<stem>.truth.jsonl` beside it gives each record's `lang`; the text identified is
//! outward's own extraction (`reverse`) of the page. Pages with fewer than 200 characters of
//! text and lorem-ipsum pages (`la`) are left out. Prints accuracy per language and MB/s of
//! text for each identifier.

use lingua::{LanguageDetector, LanguageDetectorBuilder};
use outward_core::{ExtractOptions, Page, SiteContext, methods};
use outward_warc::decode::{self, DecodeOptions};
use outward_warc::reader::{ReadItem, ReaderOptions, WarcReader};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

fn norm(code: &str) -> String {
    match code {
        "nb" | "nn" => "no".to_string(),
        c => c.to_string(),
    }
}

type Identify<'a> = Box<dyn Fn(&str) -> Option<String> + 'a>;

fn lingua_id(d: &LanguageDetector) -> Identify<'_> {
    Box::new(move |t: &str| {
        d.detect_language_of(t)
            .map(|l| norm(&l.iso_code_639_1().to_string()))
    })
}

fn main() {
    let inputs: Vec<String> = std::env::args().skip(1).collect();
    let extractor = methods::build("reverse", &ExtractOptions::default()).unwrap();
    // (label, text) of every kept page.
    let mut pages: Vec<(String, String)> = Vec::new();
    for input in &inputs {
        let path = Path::new(input);
        let stem = input.trim_end_matches(".warc.gz");
        let truth = std::fs::read_to_string(format!("{stem}.truth.jsonl")).unwrap();
        let mut labels: HashMap<String, String> = HashMap::new();
        for line in truth.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if let (Some(id), Some(lang)) = (v["warc_record_id"].as_str(), v["lang"].as_str()) {
                labels.insert(id.to_string(), lang.to_string());
            }
        }
        let reader = WarcReader::open(
            path,
            ReaderOptions {
                max_record_bytes: 16 << 20,
            },
        )
        .unwrap();
        for item in reader {
            let ReadItem::Page(p) = item else { continue };
            let Some(label) = labels.get(&p.record_id) else {
                continue;
            };
            if label == "la" {
                continue;
            }
            let Ok(d) = decode::decode_body(
                &p.http_headers,
                p.content_type.as_deref(),
                &p.body,
                &DecodeOptions {
                    max_decoded_bytes: 16 << 20,
                },
            ) else {
                continue;
            };
            let page = Page::new(&d.html, p.target_uri.as_deref());
            let text = extractor
                .extract(&page, SiteContext::none())
                .text()
                .to_string();
            if text.chars().count() >= 200 {
                pages.push((norm(label), text));
            }
        }
    }
    let text_bytes: usize = pages.iter().map(|(_, t)| t.len()).sum();
    eprintln!(
        "{} pages, {:.1} MB of text",
        pages.len(),
        text_bytes as f64 / 1e6
    );

    let lingua_high = LanguageDetectorBuilder::from_all_languages().build();
    let lingua_low = LanguageDetectorBuilder::from_all_languages()
        .with_low_accuracy_mode()
        .build();
    let identifiers: Vec<(&str, Identify)> = vec![
        (
            "whatlang (whole text)",
            Box::new(|t: &str| {
                whatlang::detect(t).map(|i| norm(outward_lang::iso_639_1(i.lang())))
            }),
        ),
        (
            "whatlang (first 4 KB)",
            Box::new(|t: &str| {
                whatlang::detect(outward_lang::prefix(t, 4096))
                    .map(|i| norm(outward_lang::iso_639_1(i.lang())))
            }),
        ),
        (
            "whatlang (first 2 KB)",
            Box::new(|t: &str| {
                whatlang::detect(outward_lang::prefix(t, 2048))
                    .map(|i| norm(outward_lang::iso_639_1(i.lang())))
            }),
        ),
        (
            "whatlang (first 1 KB)",
            Box::new(|t: &str| {
                whatlang::detect(outward_lang::prefix(t, 1024))
                    .map(|i| norm(outward_lang::iso_639_1(i.lang())))
            }),
        ),
        (
            "whatlang (first 512 B)",
            Box::new(|t: &str| {
                whatlang::detect(outward_lang::prefix(t, 512))
                    .map(|i| norm(outward_lang::iso_639_1(i.lang())))
            }),
        ),
        (
            "lingua 29 langs, low accuracy, first 1 KB",
            Box::new(|t: &str| {
                lingua_low
                    .detect_language_of(outward_lang::prefix(t, 1024))
                    .map(|l| norm(&l.iso_code_639_1().to_string()))
            }),
        ),
        ("lingua 29 langs, high accuracy", lingua_id(&lingua_high)),
        ("lingua 29 langs, low accuracy", lingua_id(&lingua_low)),
    ];
    let only: Option<String> = std::env::var("ONLY").ok();
    for (name, identify) in &identifiers {
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        let mut per: BTreeMap<String, (u32, u32)> = BTreeMap::new();
        let mut confusions: BTreeMap<(String, String), u32> = BTreeMap::new();
        let start = Instant::now();
        let results: Vec<Option<String>> = pages.iter().map(|(_, t)| identify(t)).collect();
        let secs = start.elapsed().as_secs_f64();
        for ((label, _), got) in pages.iter().zip(results) {
            let e = per.entry(label.clone()).or_default();
            e.1 += 1;
            let got = got.unwrap_or_else(|| "-".into());
            if got == *label {
                e.0 += 1;
            } else {
                *confusions.entry((label.clone(), got)).or_default() += 1;
            }
        }
        let (ok, n) = per.values().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        println!(
            "## {name}: overall {ok}/{n} = {:.3}; {:.1} MB/s ({:.2} s)",
            ok as f64 / n as f64,
            text_bytes as f64 / 1e6 / secs,
            secs
        );
        for (lang, (ok, n)) in &per {
            println!("  {lang}: {ok}/{n} = {:.3}", *ok as f64 / *n as f64);
        }
        println!("  confusions (truth -> got): {confusions:?}");
    }
}
