//! Why a record was not turned into a document, and the per-input tallies of it.
//!
//! Owns [`SkipReason`] (one closed list shared by reader, decoder, pipeline and manifest, the
//! quality filters' rules among them as [`FilterRule`]) and [`Counts`]. Invariant: every
//! record read from an input lands in exactly one bucket: `written`, or one `skipped` reason.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// The reason a record produced no document. Serialised in snake_case in the manifest (a
/// filter's rule by DataTrove's name of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    /// A quality filter of `--filter` drops the document by this rule.
    Filtered(FilterRule),
}

/// Declares [`FilterRule`] with DataTrove's name of each rule.
macro_rules! filter_rules {
    ($($(#[$doc:meta])* $rule:ident = $name:literal,)*) => {
        /// A rule of a quality filter (`outward-filters`) that drops a document: DataTrove's
        /// name of it is its name in the manifest and the summary.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum FilterRule {
            $($(#[$doc])* $rule,)*
        }

        impl FilterRule {
            pub const ALL: &[FilterRule] = &[$(FilterRule::$rule,)*];

            /// DataTrove's name of the rule (the reason its filter returns).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(FilterRule::$rule => $name,)*
                }
            }
        }
    };
}

filter_rules! {
    /// Gopher quality: fewer words (not only punctuation) than `min_doc_words`.
    GopherShortDoc = "gopher_short_doc",
    /// Gopher quality: more words than `max_doc_words`.
    GopherLongDoc = "gopher_long_doc",
    /// Gopher quality: mean word length under `min_avg_word_length`.
    GopherBelowAvgThreshold = "gopher_below_avg_threshold",
    /// Gopher quality: mean word length over `max_avg_word_length`.
    GopherAboveAvgThreshold = "gopher_above_avg_threshold",
    /// Gopher quality: `#` per word over `max_symbol_word_ratio`.
    GopherTooManyHashes = "gopher_too_many_hashes",
    /// Gopher quality: ellipses per word over `max_symbol_word_ratio`.
    GopherTooManyEllipsis = "gopher_too_many_ellipsis",
    /// Gopher quality: bullet lines over `max_bullet_lines_ratio`.
    GopherTooManyBullets = "gopher_too_many_bullets",
    /// Gopher quality: lines ending in an ellipsis over `max_ellipsis_lines_ratio`.
    GopherTooManyEndEllipsis = "gopher_too_many_end_ellipsis",
    /// Gopher quality: words with a letter under `max_non_alpha_words_ratio`.
    GopherBelowAlphaThreshold = "gopher_below_alpha_threshold",
    /// Gopher quality: fewer distinct stop words than `min_stop_words`.
    GopherEnoughStopWords = "gopher_enough_stop_words",
    /// Gopher repetition: duplicate paragraphs' share.
    DupParaFrac = "dup_para_frac",
    /// Gopher repetition: duplicate paragraphs' characters' share.
    DupParaCharFrac = "dup_para_char_frac",
    /// Gopher repetition: duplicate lines' share.
    DupLineFrac = "dup_line_frac",
    /// Gopher repetition: duplicate lines' characters' share.
    DupLineCharFrac = "dup_line_char_frac",
    /// Gopher repetition: the most frequent 2-gram's characters' share.
    Top2Gram = "top_2_gram",
    /// Gopher repetition: the most frequent 3-gram's characters' share.
    Top3Gram = "top_3_gram",
    /// Gopher repetition: the most frequent 4-gram's characters' share.
    Top4Gram = "top_4_gram",
    /// Gopher repetition: repeated 5-grams' characters' share.
    Duplicated5NGrams = "duplicated_5_n_grams",
    /// Gopher repetition: repeated 6-grams' characters' share.
    Duplicated6NGrams = "duplicated_6_n_grams",
    /// Gopher repetition: repeated 7-grams' characters' share.
    Duplicated7NGrams = "duplicated_7_n_grams",
    /// Gopher repetition: repeated 8-grams' characters' share.
    Duplicated8NGrams = "duplicated_8_n_grams",
    /// Gopher repetition: repeated 9-grams' characters' share.
    Duplicated9NGrams = "duplicated_9_n_grams",
    /// Gopher repetition: repeated 10-grams' characters' share.
    Duplicated10NGrams = "duplicated_10_n_grams",
    /// C4 quality: a kept line holds "lorem ipsum".
    LoremIpsum = "lorem_ipsum",
    /// C4 quality: a kept line holds `{`.
    CurlyBracket = "curly_bracket",
    /// C4 quality: fewer sentences in the kept lines than `min_num_sentences`.
    TooFewSentences = "too_few_sentences",
    /// FineWeb quality: lines ending in terminal punctuation under `line_punct_thr`.
    LinePunctRatio = "line_punct_ratio",
    /// FineWeb quality: lines of at most `short_line_length` characters over `short_line_thr`.
    ShortLineRatio = "short_line_ratio",
    /// FineWeb quality: duplicate lines' characters over `char_duplicates_ratio`.
    CharDupRatio = "char_dup_ratio",
    /// FineWeb quality: line breaks per word over `new_line_ratio`.
    ListRatio = "list_ratio",
}

impl FilterRule {
    /// The rule named `name` (DataTrove's name).
    pub fn from_name(name: &str) -> Option<FilterRule> {
        FilterRule::ALL.iter().copied().find(|r| r.as_str() == name)
    }
}

impl SkipReason {
    /// Every reason but the filters' rules ([`FilterRule::ALL`]).
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
            SkipReason::Filtered(rule) => rule.as_str(),
        }
    }

    /// The reason named `name` in a manifest.
    pub fn from_name(name: &str) -> Option<SkipReason> {
        SkipReason::ALL
            .iter()
            .copied()
            .find(|r| r.as_str() == name)
            .or_else(|| FilterRule::from_name(name).map(SkipReason::Filtered))
    }
}

impl Serialize for SkipReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SkipReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        SkipReason::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown skip reason {name:?}")))
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

/// A count with its noun as every message writes it: "1 input", "2 inputs".
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
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

    #[test]
    fn every_reason_reads_back_by_its_name() {
        let mut counts = Counts::default();
        for reason in SkipReason::ALL {
            counts.skip(reason);
        }
        for rule in FilterRule::ALL {
            counts.skip(SkipReason::Filtered(*rule));
        }
        let json = serde_json::to_string(&counts).unwrap();
        assert!(
            json.contains(r#""top_4_gram":1"#) && json.contains(r#""too_short":1"#),
            "{json}"
        );
        let back: Counts = serde_json::from_str(&json).unwrap();
        assert_eq!(back, counts);
        assert_eq!(back.skipped.len(), 12 + FilterRule::ALL.len());
        let err = serde_json::from_str::<Counts>(
            r#"{"records":0,"html":0,"written":0,"skipped":{"gopher_nonsense":1},"html_bytes":0}"#,
        );
        assert!(err.unwrap_err().to_string().contains("gopher_nonsense"));
    }
}
