//! outward-filters: the numbers the Gopher, C4 and FineWeb quality filters decide on, computed
//! from a document's text in one pass, and their decisions, made as DataTrove 0.10 makes them
//! (`GopherQualityFilter`, `GopherRepetitionFilter`, `C4QualityFilter`, `FineWebQualityFilter`,
//! English word splitting, which DataTrove applies to every document unless told otherwise).
//!
//! - [`words`]: words, lines and sentences as DataTrove counts them (spaCy's English tokenizer
//!   and sentencizer, Python's `str` methods);
//! - [`rules`]: one file per filter: thresholds, signals, decision;
//! - here: [`Filter`] (the names `--filter` takes), [`Config`] (all thresholds, read from a
//!   JSON file), [`Signals`] (everything, for `--signals`) and [`apply`] (a `--filter` chain).
//!
//! Invariant: pure functions of the text and the thresholds: no I/O, no threads, no printing.

mod doc;
pub mod rules;
pub mod words;

use std::fmt;

use outward_base::counts::FilterRule;
use serde::{Deserialize, Serialize, Serializer};

pub use doc::Doc;
use rules::{c4_quality, fineweb_quality, gopher_quality, gopher_repetition};

/// One of the four filters, by the name `--filter` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Filter {
    GopherQuality,
    GopherRepetition,
    C4Quality,
    FineWebQuality,
}

impl Filter {
    pub const ALL: [Filter; 4] = [
        Filter::GopherQuality,
        Filter::GopherRepetition,
        Filter::C4Quality,
        Filter::FineWebQuality,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Filter::GopherQuality => "gopher-quality",
            Filter::GopherRepetition => "gopher-repetition",
            Filter::C4Quality => "c4-quality",
            Filter::FineWebQuality => "fineweb-quality",
        }
    }

    /// DataTrove's class doing the same.
    pub fn datatrove_class(self) -> &'static str {
        match self {
            Filter::GopherQuality => "GopherQualityFilter",
            Filter::GopherRepetition => "GopherRepetitionFilter",
            Filter::C4Quality => "C4QualityFilter",
            Filter::FineWebQuality => "FineWebQualityFilter",
        }
    }

    /// The filter named `name`; the error lists the names there are.
    pub fn from_name(name: &str) -> Result<Filter, String> {
        Filter::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Filter::ALL.iter().map(|f| f.name()).collect();
                format!("unknown filter {name:?} (there are {})", names.join(", "))
            })
    }

    /// A comma-separated list of filter names, in the order given, none twice.
    pub fn parse_list(list: &str) -> Result<Vec<Filter>, String> {
        let mut filters = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let f = Filter::from_name(name)?;
            if filters.contains(&f) {
                return Err(format!("filter {name:?} is named twice"));
            }
            filters.push(f);
        }
        Ok(filters)
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every filter's thresholds: DataTrove's defaults, or a JSON file's
/// (`{"gopher-quality": {"min_doc_words": 100}, "fineweb-quality": {"line_punct_thr": 0.1}}`,
/// DataTrove's argument names; a filter or threshold not named keeps its default).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    #[serde(rename = "gopher-quality")]
    pub gopher_quality: gopher_quality::Thresholds,
    #[serde(rename = "gopher-repetition")]
    pub gopher_repetition: gopher_repetition::Thresholds,
    #[serde(rename = "c4-quality")]
    pub c4_quality: c4_quality::Thresholds,
    #[serde(rename = "fineweb-quality")]
    pub fineweb_quality: fineweb_quality::Thresholds,
}

impl Config {
    /// Reads a config file's JSON; the error names the unknown filter or threshold, or the
    /// value that does not fit.
    pub fn from_json(json: &str) -> Result<Config, String> {
        let config: Config = serde_json::from_str(json).map_err(|e| e.to_string())?;
        if let Some(bad) = config.gopher_repetition.unknown_n() {
            return Err(format!("gopher-repetition: no rule for {bad}"));
        }
        Ok(config)
    }

    /// The config as one canonical JSON line (for the settings record and its hash).
    pub fn canonical(&self) -> String {
        serde_json::to_string(self).expect("thresholds serialise")
    }
}

/// Every filter's signals of one text, and which of them would drop it (each filter alone, on
/// the text as extracted): `metadata.signals`.
#[derive(Debug, Clone, PartialEq)]
pub struct Signals {
    pub gopher_quality: gopher_quality::Signals,
    pub gopher_repetition: gopher_repetition::Signals,
    pub c4_quality: c4_quality::Signals,
    pub fineweb_quality: fineweb_quality::Signals,
    /// The rule of each filter that drops the text, in [`Filter::ALL`]'s order.
    pub would_drop: [Option<FilterRule>; 4],
}

impl Signals {
    pub fn measure(text: &str, config: &Config) -> Signals {
        let doc = Doc::new(text);
        let gopher_quality = gopher_quality::measure(&doc, &config.gopher_quality);
        let gopher_repetition = gopher_repetition::measure(&doc);
        let c4_quality = c4_quality::measure(&doc, &config.c4_quality);
        let fineweb_quality = fineweb_quality::measure(&doc, &config.fineweb_quality);
        let would_drop = [
            gopher_quality::decide(&gopher_quality, &config.gopher_quality),
            gopher_repetition::decide(&gopher_repetition, &config.gopher_repetition),
            c4_quality::decide(&c4_quality, &config.c4_quality),
            fineweb_quality::decide(&fineweb_quality, &config.fineweb_quality),
        ];
        Signals {
            gopher_quality,
            gopher_repetition,
            c4_quality,
            fineweb_quality,
            would_drop,
        }
    }

    /// The rule by which `filter` drops the text, if it does.
    pub fn drop_rule(&self, filter: Filter) -> Option<FilterRule> {
        self.would_drop[filter as usize]
    }
}

/// A ratio to 4 decimals in the output (decisions use the exact value).
fn rounded(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

impl Serialize for Signals {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde_json::{Map, Value, json};
        let q = &self.gopher_quality;
        let r = &self.gopher_repetition;
        let c = &self.c4_quality;
        let f = &self.fineweb_quality;
        let mut repetition = Map::new();
        repetition.insert("dup_para_frac".into(), json!(rounded(r.dup_para_frac)));
        repetition.insert(
            "dup_para_char_frac".into(),
            json!(rounded(r.dup_para_char_frac)),
        );
        repetition.insert("dup_line_frac".into(), json!(rounded(r.dup_line_frac)));
        repetition.insert(
            "dup_line_char_frac".into(),
            json!(rounded(r.dup_line_char_frac)),
        );
        for (i, v) in r.top_n_gram_char_frac.iter().enumerate() {
            repetition.insert(format!("top_{}_gram", i + 2), json!(rounded(*v)));
        }
        for (i, v) in r.duplicated_n_gram_char_frac.iter().enumerate() {
            repetition.insert(format!("duplicated_{}_n_grams", i + 5), json!(rounded(*v)));
        }
        let mut c4 = Map::new();
        c4.insert("lines".into(), json!(c.lines));
        c4.insert("lines_kept".into(), json!(c.lines_kept));
        c4.insert("sentences".into(), json!(c.sentences));
        if let Some(rule) = c.page_rule {
            c4.insert("page_rule".into(), json!(rule.as_str()));
        }
        let mut would_drop = Map::new();
        for filter in Filter::ALL {
            if let Some(rule) = self.drop_rule(filter) {
                would_drop.insert(filter.name().into(), json!(rule.as_str()));
            }
        }
        let value = json!({
            "gopher_quality": {
                "words": q.words,
                "non_symbol_words": q.non_symbol_words,
                "mean_word_length": rounded(q.mean_word_length),
                "hash_word_ratio": rounded(q.hash_word_ratio),
                "ellipsis_word_ratio": rounded(q.ellipsis_word_ratio),
                "bullet_lines_ratio": rounded(q.bullet_lines_ratio),
                "end_ellipsis_lines_ratio": rounded(q.end_ellipsis_lines_ratio),
                "alpha_words_ratio": rounded(q.alpha_words_ratio),
                "stop_words": q.stop_words,
            },
            "gopher_repetition": Value::Object(repetition),
            "c4_quality": Value::Object(c4),
            "fineweb_quality": {
                "line_punct_ratio": rounded(f.line_punct_ratio),
                "short_line_ratio": rounded(f.short_line_ratio),
                "char_dup_ratio": rounded(f.char_dup_ratio),
                "list_ratio": rounded(f.list_ratio),
            },
            "would_drop": Value::Object(would_drop),
        });
        value.serialize(serializer)
    }
}

/// What a `--filter` chain makes of a text.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Kept; with `c4-quality` in the chain, the text C4 keeps (its kept lines).
    Keep(Option<String>),
    /// Dropped by this rule.
    Drop(FilterRule),
    /// Dropped as empty (no text, or no line that is not blank), before any rule.
    Empty,
}

/// Runs `filters` in their order over `text`, as a DataTrove pipeline of the same filters does:
/// the first that drops the text decides, and a filter after `c4-quality` reads the lines C4
/// kept.
pub fn apply(filters: &[Filter], text: &str, config: &Config) -> Verdict {
    let mut rewritten: Option<String> = None;
    let mut next = 0;
    while next < filters.len() {
        // The text is split into words once, until C4 replaces it by its kept lines.
        let replaced = {
            let current = rewritten.as_deref().unwrap_or(text);
            if current.is_empty() {
                return Verdict::Empty;
            }
            let doc = Doc::new(current);
            let mut replaced = None;
            while next < filters.len() && replaced.is_none() {
                let filter = filters[next];
                next += 1;
                let rule = match filter {
                    Filter::C4Quality => {
                        let s = c4_quality::measure(&doc, &config.c4_quality);
                        let rule = c4_quality::decide(&s, &config.c4_quality);
                        if rule.is_none() {
                            replaced = Some(s.kept_text);
                        }
                        rule
                    }
                    Filter::GopherQuality => {
                        let s = gopher_quality::measure(&doc, &config.gopher_quality);
                        gopher_quality::decide(&s, &config.gopher_quality)
                    }
                    Filter::GopherRepetition => {
                        let s = gopher_repetition::measure(&doc);
                        gopher_repetition::decide(&s, &config.gopher_repetition)
                    }
                    Filter::FineWebQuality => {
                        if current
                            .split('\n')
                            .all(|l| words::python::strip(l).is_empty())
                        {
                            return Verdict::Empty;
                        }
                        let s = fineweb_quality::measure(&doc, &config.fineweb_quality);
                        fineweb_quality::decide(&s, &config.fineweb_quality)
                    }
                };
                if let Some(rule) = rule {
                    return Verdict::Drop(rule);
                }
            }
            replaced
        };
        if replaced.is_some() {
            rewritten = replaced;
        }
    }
    Verdict::Keep(rewritten)
}
