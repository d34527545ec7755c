//! Times each part of the signals over the texts on stdin (one JSON string per line):
//! `cargo run --release --example parts [PART...] < texts.jsonl`, PART one of `words`,
//! `gopher-quality`, `gopher-repetition`, `c4-quality`, `fineweb-quality` or `none` (all
//! parts when none is named; the words are split whenever a filter runs). Under callgrind, the
//! instructions of a part are those of a run with it less those of a run without it.

use std::hint::black_box;
use std::io::BufRead;
use std::time::Instant;

use outward_filters::rules::{c4_quality, fineweb_quality, gopher_quality, gopher_repetition};
use outward_filters::{Config, Doc};

const NAMES: [&str; 5] = [
    "words",
    "gopher-quality",
    "gopher-repetition",
    "c4-quality",
    "fineweb-quality",
];

fn main() {
    let texts: Vec<String> = std::io::stdin()
        .lock()
        .lines()
        .map(|l| serde_json::from_str(&l.expect("stdin reads")).expect("a JSON string"))
        .collect();
    let config = Config::default();
    let named: Vec<String> = std::env::args().skip(1).collect();
    let run = |part: &str| named.is_empty() || named.iter().any(|n| n == part);
    let split = (1..5).any(|i| run(NAMES[i])) || run(NAMES[0]);
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut times = [0f64; 5];
    for text in texts.iter().filter(|_| split) {
        let t = Instant::now();
        let doc = Doc::new(text);
        times[0] += t.elapsed().as_secs_f64();
        for (part, time) in times.iter_mut().enumerate().skip(1) {
            if !run(NAMES[part]) {
                continue;
            }
            let t = Instant::now();
            match part {
                1 => drop(black_box(gopher_quality::measure(
                    &doc,
                    &config.gopher_quality,
                ))),
                2 => drop(black_box(gopher_repetition::measure(&doc))),
                3 => drop(black_box(c4_quality::measure(&doc, &config.c4_quality))),
                _ => drop(black_box(fineweb_quality::measure(
                    &doc,
                    &config.fineweb_quality,
                ))),
            }
            *time += t.elapsed().as_secs_f64();
        }
    }
    for (name, t) in NAMES.iter().zip(times) {
        println!(
            "{name:18} {:7.1} ms  {:7.1} MB/s",
            t * 1e3,
            bytes as f64 / t / 1e6
        );
    }
}
