//! Prints `metadata.signals` of each text on stdin (one JSON string per line), one JSON object
//! per line, with DataTrove's default thresholds: for checking the filters by hand.

use std::io::{BufRead, Write};

fn main() {
    let config = outward_filters::Config::default();
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let text: String =
            serde_json::from_str(&line.expect("stdin reads")).expect("a JSON string");
        let signals = outward_filters::Signals::measure(&text, &config);
        serde_json::to_writer(&mut out, &signals).expect("stdout writes");
        out.write_all(b"\n").expect("stdout writes");
    }
}
