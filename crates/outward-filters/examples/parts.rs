//! Times each part of the signals over the texts on stdin (one JSON string per line):
//! `cargo run --release --example parts < texts.jsonl`.

use std::io::BufRead;
use std::time::Instant;

use outward_filters::rules::{c4_quality, fineweb_quality, gopher_quality, gopher_repetition};
use outward_filters::{Config, Doc};

fn main() {
    let texts: Vec<String> = std::io::stdin()
        .lock()
        .lines()
        .map(|l| serde_json::from_str(&l.expect("stdin reads")).expect("a JSON string"))
        .collect();
    let config = Config::default();
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut times = [0f64; 5];
    for text in &texts {
        let t = Instant::now();
        let doc = Doc::new(text);
        times[0] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        std::hint::black_box(gopher_quality::measure(&doc, &config.gopher_quality));
        times[1] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        std::hint::black_box(gopher_repetition::measure(&doc));
        times[2] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        std::hint::black_box(c4_quality::measure(&doc, &config.c4_quality));
        times[3] += t.elapsed().as_secs_f64();
        let t = Instant::now();
        std::hint::black_box(fineweb_quality::measure(&doc, &config.fineweb_quality));
        times[4] += t.elapsed().as_secs_f64();
    }
    let names = [
        "words",
        "gopher-quality",
        "gopher-repetition",
        "c4-quality",
        "fineweb-quality",
    ];
    for (name, t) in names.iter().zip(times) {
        println!(
            "{name:18} {:7.1} ms  {:7.1} MB/s",
            t * 1e3,
            bytes as f64 / t / 1e6
        );
    }
}
