//! Prints the words of each text on stdin (one JSON string per line) as a JSON array per
//! line: the input of `gen/compare_words.py`, which checks them against spaCy's.

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let text: String =
            serde_json::from_str(&line.expect("stdin reads")).expect("a JSON string");
        let words = outward_filters::words::spacy::words(&text);
        serde_json::to_writer(&mut out, &words).expect("stdout writes");
        out.write_all(b"\n").expect("stdout writes");
    }
}
