//! Prints `metadata.signals` of each text on stdin (one JSON string per line), one JSON object
//! per line, with DataTrove's default thresholds: for checking the filters by hand.

use std::io::{BufRead, Write};

fn main() {
    let config = outward_filters::Config::default();
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut json = Vec::new();
    for line in stdin.lock().lines() {
        let text: String =
            serde_json::from_str(&line.expect("stdin reads")).expect("a JSON string");
        let signals = outward_filters::Signals::measure(&text, &config);
        json.clear();
        signals.write_json(&mut json);
        json.push(b'\n');
        out.write_all(&json).expect("stdout writes");
    }
}
