//! Why a record was not turned into a document, and the per-input tallies of it.
//!
//! Owns [`SkipReason`] (one closed list shared by reader, decoder, pipeline and manifest) and
//! [`Counts`]. Invariant: every record read from an input lands in exactly one bucket:
//! `written`, or one `skipped` reason.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The reason a record produced no document. Serialised in snake_case in the manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// warcinfo, request, metadata, conversion, ... records.
    OtherType,
    /// A revisit record (no payload of its own).
    Revisit,
    /// HTTP status other than 200.
    Status,
    /// Content type (declared or sniffed) is not HTML.
    NotHtml,
    /// Record or decoded payload larger than the configured cap.
    TooBig,
    /// Transfer/Content-Encoding could not be decoded.
    DecodeError,
    /// The record is cut short (bytes read differ from Content-Length) or its headers are broken.
    BadRecord,
    /// No payload, or extraction produced no text.
    Empty,
    /// The extractor failed on this record (a bug caught at the record boundary).
    ExtractFailed,
    /// The document's text is shorter than `--min-chars`.
    TooShort,
    /// The document's identified language is not one of `--lang`.
    Language,
    /// The page asks for more work than a per-record budget allows (`--max-nodes`,
    /// `--max-depth`).
    OverBudget,
}

impl SkipReason {
    pub const ALL: [SkipReason; 12] = [
        SkipReason::OtherType,
        SkipReason::Revisit,
        SkipReason::Status,
        SkipReason::NotHtml,
        SkipReason::TooBig,
        SkipReason::DecodeError,
        SkipReason::BadRecord,
        SkipReason::Empty,
        SkipReason::ExtractFailed,
        SkipReason::TooShort,
        SkipReason::Language,
        SkipReason::OverBudget,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::OtherType => "other_type",
            SkipReason::Revisit => "revisit",
            SkipReason::Status => "status",
            SkipReason::NotHtml => "not_html",
            SkipReason::TooBig => "too_big",
            SkipReason::DecodeError => "decode_error",
            SkipReason::BadRecord => "bad_record",
            SkipReason::Empty => "empty",
            SkipReason::ExtractFailed => "extract_failed",
            SkipReason::TooShort => "too_short",
            SkipReason::Language => "language",
            SkipReason::OverBudget => "over_budget",
        }
    }
}

/// Tallies for one input file (or a whole run, by [`Counts::add`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// WARC records read (every type).
    pub records: u64,
    /// Records that reached extraction (HTML responses/resources that decoded).
    pub html: u64,
    /// Documents written.
    pub written: u64,
    /// Records skipped, by reason (only non-zero reasons are present).
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Bytes of decoded HTML handed to the extractor.
    pub html_bytes: u64,
    /// Characters of text in the documents written (absent from manifest lines written
    /// before it existed: 0).
    #[serde(default)]
    pub text_chars: u64,
    /// Documents written with what their method had when a per-page work budget ran out
    /// (among `written`; absent from the manifest when none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub degraded: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Counts {
    pub fn skip(&mut self, reason: SkipReason) {
        *self.skipped.entry(reason).or_insert(0) += 1;
    }

    pub fn skipped_total(&self) -> u64 {
        self.skipped.values().sum()
    }

    pub fn add(&mut self, other: &Counts) {
        self.records += other.records;
        self.html += other.html;
        self.written += other.written;
        self.html_bytes += other.html_bytes;
        self.text_chars += other.text_chars;
        self.degraded += other.degraded;
        for (reason, n) in &other.skipped {
            *self.skipped.entry(*reason).or_insert(0) += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_merges_reasons() {
        let mut a = Counts {
            records: 3,
            ..Counts::default()
        };
        a.skip(SkipReason::Status);
        let mut b = Counts {
            records: 2,
            ..Counts::default()
        };
        b.skip(SkipReason::Status);
        b.skip(SkipReason::NotHtml);
        a.add(&b);
        assert_eq!(a.records, 5);
        assert_eq!(a.skipped[&SkipReason::Status], 2);
        assert_eq!(a.skipped_total(), 3);
        let json = serde_json::to_string(&a.skipped).unwrap();
        assert_eq!(json, r#"{"status":2,"not_html":1}"#);
    }
}
