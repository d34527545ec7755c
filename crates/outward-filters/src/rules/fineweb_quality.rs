//! FineWeb's own quality rules (Penedo et al. 2024) as DataTrove's `FineWebQualityFilter`
//! applies them, in its order: lines ending in terminal punctuation, short lines, characters
//! of duplicate lines, line breaks per word.

use outward_base::counts::FilterRule;
use serde::{Deserialize, Serialize};

use crate::doc::{Doc, ratio};
use crate::words::{is_terminal_punctuation, python};

/// DataTrove's arguments and defaults (`stop_chars`: its terminal punctuation).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    pub line_punct_thr: f64,
    pub line_punct_exclude_zero: bool,
    pub short_line_thr: f64,
    pub short_line_length: usize,
    pub char_duplicates_ratio: f64,
    pub new_line_ratio: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            line_punct_thr: 0.12,
            line_punct_exclude_zero: false,
            short_line_thr: 0.67,
            short_line_length: 30,
            char_duplicates_ratio: 0.01,
            new_line_ratio: 0.3,
        }
    }
}

/// What the rules decide on (written by `Signals`' serialisation in lib.rs).
#[derive(Debug, Clone, PartialEq)]
pub struct Signals {
    /// Non-blank lines (split at `\n`) ending in terminal punctuation, of all non-blank lines.
    pub line_punct_ratio: f64,
    /// Non-blank lines of at most `short_line_length` characters, of all non-blank lines.
    pub short_line_ratio: f64,
    /// Characters of non-blank lines that repeat an earlier one, of the text's characters
    /// other than line feeds.
    pub char_dup_ratio: f64,
    /// Line feeds per word.
    pub list_ratio: f64,
}

pub fn measure(doc: &Doc, t: &Thresholds) -> Signals {
    // `text.split("\n")` without its blank lines: the pieces between runs of line feeds that
    // are not blank (the empty pieces that split leaves between two line feeds are blank).
    let split = doc.feed_lines();
    let not_blank = |l: &&str| !python::strip(l).is_empty();
    // The repeats among the lines that are not blank (an earlier line equal to one is not
    // blank either).
    let repeated_chars: usize = split.repeated().filter(not_blank).map(python::len).sum();
    let newlines = doc.line_feeds();
    let (mut lines, mut punct, mut short) = (0, 0, 0);
    for line in split.elements.iter().copied().filter(not_blank) {
        lines += 1;
        punct += usize::from(
            line.chars()
                .next_back()
                .is_some_and(is_terminal_punctuation),
        );
        short += usize::from(at_most_chars(line, t.short_line_length));
    }
    Signals {
        line_punct_ratio: ratio(punct, lines),
        short_line_ratio: ratio(short, lines),
        char_dup_ratio: ratio(repeated_chars, doc.chars - newlines),
        list_ratio: ratio(newlines, doc.words.len()),
    }
}

/// Whether `line` has at most `n` characters: read only when its bytes do not say (a
/// character is one to four bytes).
fn at_most_chars(line: &str, n: usize) -> bool {
    match line.len() {
        bytes if bytes <= n => true,
        bytes if bytes > n.saturating_mul(4) => false,
        _ => python::len(line) <= n,
    }
}

/// The first rule that drops the document, in DataTrove's order (a text without a non-blank
/// line is dropped before; the pipeline never writes one).
pub fn decide(s: &Signals, t: &Thresholds) -> Option<FilterRule> {
    let r = s.line_punct_ratio;
    if r < t.line_punct_thr && !(r == 0.0 && t.line_punct_exclude_zero) {
        return Some(FilterRule::LinePunctRatio);
    }
    if s.short_line_ratio > t.short_line_thr {
        return Some(FilterRule::ShortLineRatio);
    }
    if s.char_dup_ratio > t.char_duplicates_ratio {
        return Some(FilterRule::CharDupRatio);
    }
    if s.list_ratio > t.new_line_ratio {
        return Some(FilterRule::ListRatio);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gopher_repetition;

    /// The two filters share one split of the text at line feeds and one pass over its
    /// repeats: Gopher repetition counts a repeated blank line, FineWeb only the repeats
    /// among the lines that are not blank (DataTrove's `find_duplicates` of each list).
    #[test]
    fn blank_lines_repeat_for_gopher_and_not_for_fineweb() {
        let doc = Doc::new("x y\n  \n  \nx y\nz");
        let fineweb = measure(&doc, &Thresholds::default());
        // Not blank: "x y", "x y", "z"; 11 characters besides the line feeds.
        assert_eq!(fineweb.char_dup_ratio, 3.0 / 11.0);
        let gopher = gopher_repetition::measure(&doc);
        // Lines: "x y", "  ", "  ", "x y", "z": the second "  " and "x y" repeat.
        assert_eq!(gopher.dup_line_frac, 2.0 / 5.0);
        assert_eq!(gopher.dup_line_char_frac, 5.0 / 15.0);
    }

    /// A line's characters are counted only where its bytes do not tell: lines of one- to
    /// four-byte characters around every bound up to 40.
    #[test]
    fn short_lines_are_told_as_their_characters_tell() {
        let pieces = ["a", "\u{e9}", "\u{2026}", "\u{1f600}"];
        let mut next = crate::draws(0x3c6e_f372_fe94_f82b);
        for _ in 0..5_000 {
            let line = crate::drawn_text(&mut next, &pieces, 60);
            for n in 0..40 {
                assert_eq!(
                    at_most_chars(&line, n),
                    python::len(&line) <= n,
                    "{line:?} {n}"
                );
            }
        }
    }
}
