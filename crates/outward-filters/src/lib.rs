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
//! Invariant: pure functions of the text and the thresholds: no I/O, no threads, no printing
//! (the scratch tables a thread keeps between documents never change a result).

mod doc;
pub mod rules;
mod table;
mod vocabulary;
pub mod words;

use std::fmt;

use outward_base::counts::FilterRule;
use serde::{Deserialize, Serialize};

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

/// The measures a `--filter` chain made of one split of a text, for its signals.
#[derive(Default)]
struct Measured {
    gopher_quality: Option<gopher_quality::Signals>,
    gopher_repetition: Option<gopher_repetition::Signals>,
    c4_quality: Option<c4_quality::Signals>,
    fineweb_quality: Option<fineweb_quality::Signals>,
}

impl Signals {
    pub fn measure(text: &str, config: &Config) -> Signals {
        Signals::of(&Doc::new(text), config, Measured::default())
    }

    /// The signals of `doc`'s text; the measures in `known` are of that text.
    fn of(doc: &Doc, config: &Config, known: Measured) -> Signals {
        let gopher_quality = known
            .gopher_quality
            .unwrap_or_else(|| gopher_quality::measure(doc, &config.gopher_quality));
        let gopher_repetition = known
            .gopher_repetition
            .unwrap_or_else(|| gopher_repetition::measure(doc));
        let c4_quality = known
            .c4_quality
            .unwrap_or_else(|| c4_quality::measure(doc, &config.c4_quality));
        let fineweb_quality = known
            .fineweb_quality
            .unwrap_or_else(|| fineweb_quality::measure(doc, &config.fineweb_quality));
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

/// What one of [`Signals::FIELDS`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignalKind {
    /// A whole number (words, lines, sentences).
    Count,
    /// A ratio or mean, to 4 decimals.
    Ratio,
    /// A rule's name (DataTrove's), or nothing when no rule applies.
    Rule,
}

/// One value of [`Signals`] as written out: `metadata.signals.<group>.<name>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignalField {
    pub group: &'static str,
    pub name: &'static str,
    pub kind: SignalKind,
}

/// A value of one of [`Signals::FIELDS`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SignalValue {
    Count(u64),
    /// Rounded to 4 decimals.
    Ratio(f64),
    Rule(Option<FilterRule>),
}

const fn field(group: &'static str, name: &'static str, kind: SignalKind) -> SignalField {
    SignalField { group, name, kind }
}

/// How many values [`Signals::values`] gives.
pub const SIGNAL_FIELDS: usize = 34;

impl Signals {
    /// Every value written out, by group (the filter, then `would_drop`: the rule of each filter
    /// that drops the text, by the filter's `--filter` name), in the order of
    /// [`Signals::values`]. The JSON of `metadata.signals` and the Parquet struct `signals` are
    /// both made from this list.
    pub const FIELDS: [SignalField; SIGNAL_FIELDS] = {
        use SignalKind::{Count, Ratio, Rule};
        const GQ: &str = "gopher_quality";
        const GR: &str = "gopher_repetition";
        const C4: &str = "c4_quality";
        const FW: &str = "fineweb_quality";
        const WD: &str = "would_drop";
        [
            field(GQ, "words", Count),
            field(GQ, "non_symbol_words", Count),
            field(GQ, "mean_word_length", Ratio),
            field(GQ, "hash_word_ratio", Ratio),
            field(GQ, "ellipsis_word_ratio", Ratio),
            field(GQ, "bullet_lines_ratio", Ratio),
            field(GQ, "end_ellipsis_lines_ratio", Ratio),
            field(GQ, "alpha_words_ratio", Ratio),
            field(GQ, "stop_words", Count),
            field(GR, "dup_para_frac", Ratio),
            field(GR, "dup_para_char_frac", Ratio),
            field(GR, "dup_line_frac", Ratio),
            field(GR, "dup_line_char_frac", Ratio),
            field(GR, "top_2_gram", Ratio),
            field(GR, "top_3_gram", Ratio),
            field(GR, "top_4_gram", Ratio),
            field(GR, "duplicated_5_n_grams", Ratio),
            field(GR, "duplicated_6_n_grams", Ratio),
            field(GR, "duplicated_7_n_grams", Ratio),
            field(GR, "duplicated_8_n_grams", Ratio),
            field(GR, "duplicated_9_n_grams", Ratio),
            field(GR, "duplicated_10_n_grams", Ratio),
            field(C4, "lines", Count),
            field(C4, "lines_kept", Count),
            field(C4, "sentences", Count),
            field(C4, "page_rule", Rule),
            field(FW, "line_punct_ratio", Ratio),
            field(FW, "short_line_ratio", Ratio),
            field(FW, "char_dup_ratio", Ratio),
            field(FW, "list_ratio", Ratio),
            field(WD, "gopher-quality", Rule),
            field(WD, "gopher-repetition", Rule),
            field(WD, "c4-quality", Rule),
            field(WD, "fineweb-quality", Rule),
        ]
    };

    /// The values of [`Signals::FIELDS`], in its order.
    pub fn values(&self) -> [SignalValue; SIGNAL_FIELDS] {
        use SignalValue::{Count, Ratio, Rule};
        let q = &self.gopher_quality;
        let r = &self.gopher_repetition;
        let c = &self.c4_quality;
        let f = &self.fineweb_quality;
        let ratio = |x: f64| Ratio(rounded(x));
        let [top2, top3, top4] = r.top_n_gram_char_frac;
        let [dup5, dup6, dup7, dup8, dup9, dup10] = r.duplicated_n_gram_char_frac;
        [
            Count(q.words as u64),
            Count(q.non_symbol_words as u64),
            ratio(q.mean_word_length),
            ratio(q.hash_word_ratio),
            ratio(q.ellipsis_word_ratio),
            ratio(q.bullet_lines_ratio),
            ratio(q.end_ellipsis_lines_ratio),
            ratio(q.alpha_words_ratio),
            Count(q.stop_words as u64),
            ratio(r.dup_para_frac),
            ratio(r.dup_para_char_frac),
            ratio(r.dup_line_frac),
            ratio(r.dup_line_char_frac),
            ratio(top2),
            ratio(top3),
            ratio(top4),
            ratio(dup5),
            ratio(dup6),
            ratio(dup7),
            ratio(dup8),
            ratio(dup9),
            ratio(dup10),
            Count(c.lines as u64),
            Count(c.lines_kept() as u64),
            Count(c.sentences as u64),
            Rule(c.page_rule),
            ratio(f.line_punct_ratio),
            ratio(f.short_line_ratio),
            ratio(f.char_dup_ratio),
            ratio(f.list_ratio),
            Rule(self.would_drop[0]),
            Rule(self.would_drop[1]),
            Rule(self.would_drop[2]),
            Rule(self.would_drop[3]),
        ]
    }
}

/// `metadata.signals`' JSON: an object per group of [`Signals::FIELDS`]; a rule that does not
/// apply is left out. Groups and the fields in each come in the order of their names (bytes),
/// as a JSON object of sorted keys writes them, and numbers as `serde_json` writes them (its
/// own `itoa` and `zmij`), so the bytes are serde_json's of the same object
/// (`signals_json_is_serde_jsons_of_the_values`). Written by hand, the JSON before each value
/// as one piece made once (`JsonPiece`) and a ratio's 4 decimals from its digits
/// (`write_ratio`): through serde each of the 34 keys was escaped and each number formatted
/// behind the serializer's calls (15,000 instructions a document; 5,500 now).
impl Signals {
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let values = self.values();
        let pieces = json_pieces();
        // A group opened by a field left out: its next field written is its first.
        let mut opened_empty = false;
        for (piece, &i) in pieces.iter().zip(fields_by_name()) {
            let value = values[i];
            if value == SignalValue::Rule(None) {
                // A rule that does not apply is left out (its group is still written).
                if piece.opens_group {
                    piece.group.write(out);
                    opened_empty = true;
                }
                continue;
            }
            let lead = match (piece.opens_group, opened_empty) {
                (true, _) => &piece.group_and_key,
                (false, true) => &piece.key,
                (false, false) => &piece.next_key,
            };
            opened_empty = false;
            lead.write(out);
            match value {
                SignalValue::Count(n) => {
                    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes())
                }
                SignalValue::Ratio(x) if x.is_finite() => write_ratio(x, out),
                SignalValue::Ratio(_) => out.extend_from_slice(b"null"),
                SignalValue::Rule(rule) => {
                    out.push(b'"');
                    if let Some(rule) = rule {
                        out.extend_from_slice(rule.as_str().as_bytes());
                    }
                    out.push(b'"');
                }
            }
        }
        out.extend_from_slice(b"}}");
    }
}

/// A ratio as serde_json writes it (`zmij`'s shortest form). A ratio is rounded to 4 decimals
/// (`rounded`): a number of at most 4 decimals, under 10^7, is the nearest double to k / 10^4
/// for a whole k, and its shortest form is k's digits with the point before the last four,
/// trailing zeros dropped but one (no shorter decimal is as near: two numbers of 4 decimals lie
/// 10^-4 apart). Written so from k (a tenth of zmij's work); any other number by zmij
/// (`ratios_are_written_as_zmij_writes_them`).
fn write_ratio(x: f64, out: &mut Vec<u8>) {
    // k by truncation (`round` is a call): x · 10^4 is within far less than ½ of k.
    let k = (x * 1e4 + 0.5) as u64;
    if !(x.is_sign_positive() && k < 100_000_000_000 && k as f64 / 1e4 == x) {
        out.extend_from_slice(zmij::Buffer::new().format_finite(x).as_bytes());
        return;
    }
    match k / 10_000 {
        whole @ 0..10 => out.push(b'0' + whole as u8),
        whole => out.extend_from_slice(itoa::Buffer::new().format(whole).as_bytes()),
    }
    let mut decimals = k % 10_000;
    let mut written = *b".0000";
    for at in (1..5).rev() {
        written[at] = b'0' + (decimals % 10) as u8;
        decimals /= 10;
    }
    // Trailing zeros dropped, but the one after the point.
    let end = 5 - written[2..]
        .iter()
        .rev()
        .take_while(|&&d| d == b'0')
        .count();
    out_fixed(out, &written, end);
}

/// Appends `bytes[..len]` to `out`: all of `bytes` copied (a copy of a length known when
/// compiled, made in place, where a length known only when run calls `memcpy`), then the rest
/// cut off again.
#[inline(always)]
fn out_fixed<const N: usize>(out: &mut Vec<u8>, bytes: &[u8; N], len: usize) {
    out.extend_from_slice(bytes);
    out.truncate(out.len() - N + len);
}

/// The JSON before each value of `metadata.signals`, per field in the order written
/// ([`fields_by_name`]). No name needs escaping (`json_pieces_need_no_escapes`).
struct JsonPiece {
    /// The first field of its group (by name).
    opens_group: bool,
    /// The group's opening (`{"group":{` for the first, `},"group":{` after another).
    group: Padded,
    /// The opening and the key (`"name":`).
    group_and_key: Padded,
    /// The key after another field of the group (`,"name":`).
    next_key: Padded,
    /// The key alone.
    key: Padded,
}

/// A piece of JSON in a fixed array, appended with [`out_fixed`].
struct Padded {
    bytes: [u8; PADDED],
    len: usize,
}

/// Bytes of the longest piece, and more.
const PADDED: usize = 64;

impl Padded {
    fn new(piece: &str) -> Padded {
        let mut bytes = [0; PADDED];
        bytes[..piece.len()].copy_from_slice(piece.as_bytes());
        Padded {
            bytes,
            len: piece.len(),
        }
    }

    #[cfg(test)]
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).expect("made of a str")
    }

    fn write(&self, out: &mut Vec<u8>) {
        out_fixed(out, &self.bytes, self.len);
    }
}

fn json_pieces() -> &'static [JsonPiece; SIGNAL_FIELDS] {
    static PIECES: std::sync::OnceLock<[JsonPiece; SIGNAL_FIELDS]> = std::sync::OnceLock::new();
    PIECES.get_or_init(|| {
        let order = fields_by_name();
        std::array::from_fn(|k| {
            let field = &Signals::FIELDS[order[k]];
            let opens_group = k == 0 || Signals::FIELDS[order[k - 1]].group != field.group;
            let before = if k == 0 { "{" } else { "}," };
            let group = format!("{before}\"{}\":{{", field.group);
            let key = format!("\"{}\":", field.name);
            JsonPiece {
                opens_group,
                group_and_key: Padded::new(&format!("{group}{key}")),
                next_key: Padded::new(&format!(",{key}")),
                group: Padded::new(&group),
                key: Padded::new(&key),
            }
        })
    })
}

/// The indices of [`Signals::FIELDS`] ordered by group name, then field name.
fn fields_by_name() -> &'static [usize; SIGNAL_FIELDS] {
    static ORDER: std::sync::OnceLock<[usize; SIGNAL_FIELDS]> = std::sync::OnceLock::new();
    ORDER.get_or_init(|| {
        let mut order: [usize; SIGNAL_FIELDS] = std::array::from_fn(|i| i);
        let key = |&i: &usize| (Signals::FIELDS[i].group, Signals::FIELDS[i].name);
        order.sort_by_key(key);
        order
    })
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
    apply_measuring(filters, text, config, false).0
}

/// [`apply`], and with `signals` the [`Signals`] of the text the chain keeps (what
/// `Signals::measure` of that text gives) when it keeps one: made from the chain's own split
/// and measures of that text where it has them (`--filter` with `--signals`).
pub fn apply_measuring(
    filters: &[Filter],
    text: &str,
    config: &Config,
    signals: bool,
) -> (Verdict, Option<Signals>) {
    let mut rewritten: Option<String> = None;
    // Where the words of the text C4 left are, when they are its kept lines' words.
    let mut rewritten_words: Option<Vec<std::ops::Range<usize>>> = None;
    // C4 kept every line: the text stays, and so does its split.
    let mut kept_whole = false;
    let mut kept_signals = None;
    let mut next = 0;
    while next < filters.len() {
        // The text is split into words once; when C4 replaces it by its kept lines, their
        // words are the text's (unless C4 cut citations out of them).
        let replaced = {
            let current = rewritten.as_deref().unwrap_or(text);
            if current.is_empty() {
                return (Verdict::Empty, None);
            }
            let doc = Doc::split_unless_known(current, rewritten_words.take().as_deref());
            let mut known = Measured::default();
            let mut replaced = None;
            while next < filters.len() && replaced.is_none() {
                let filter = filters[next];
                next += 1;
                let rule = match filter {
                    Filter::C4Quality => {
                        let s = c4_quality::measure(&doc, &config.c4_quality);
                        let rule = c4_quality::decide(&s, &config.c4_quality);
                        if rule.is_none() {
                            let kept_text = s.kept_text(current);
                            if kept_text == current {
                                kept_whole = true;
                                known.c4_quality = Some(s);
                            } else {
                                rewritten_words = s.kept_lines().map(|k| doc.rejoined_words(k));
                                replaced = Some(kept_text);
                            }
                        }
                        rule
                    }
                    Filter::GopherQuality => {
                        let s = gopher_quality::measure(&doc, &config.gopher_quality);
                        let rule = gopher_quality::decide(&s, &config.gopher_quality);
                        known.gopher_quality = Some(s);
                        rule
                    }
                    Filter::GopherRepetition => {
                        let s = gopher_repetition::measure(&doc);
                        let rule = gopher_repetition::decide(&s, &config.gopher_repetition);
                        known.gopher_repetition = Some(s);
                        rule
                    }
                    Filter::FineWebQuality => {
                        if current
                            .split('\n')
                            .all(|l| words::python::strip(l).is_empty())
                        {
                            return (Verdict::Empty, None);
                        }
                        let s = fineweb_quality::measure(&doc, &config.fineweb_quality);
                        let rule = fineweb_quality::decide(&s, &config.fineweb_quality);
                        known.fineweb_quality = Some(s);
                        rule
                    }
                };
                if let Some(rule) = rule {
                    return (Verdict::Drop(rule), None);
                }
            }
            if signals && replaced.is_none() && next == filters.len() {
                kept_signals = Some(Signals::of(&doc, config, known));
            }
            replaced
        };
        if replaced.is_some() {
            rewritten = replaced;
        }
    }
    if kept_whole && rewritten.is_none() {
        rewritten = Some(text.to_string());
    }
    let signals = signals.then(|| {
        kept_signals.unwrap_or_else(|| {
            let kept = rewritten.as_deref().unwrap_or(text);
            let doc = Doc::split_unless_known(kept, rewritten_words.as_deref());
            Signals::of(&doc, config, Measured::default())
        })
    });
    (Verdict::Keep(rewritten), signals)
}

/// A fixed generator of numbers below `n` (xorshift64 from `seed`, never 0), for tests that
/// draw many inputs and must draw the same ones on every run.
#[cfg(test)]
pub(crate) fn draws(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    }
}

/// A text of fewer than `most` pieces drawn from `pieces` by `next` (a `draws`), for tests
/// that hold a fast path to a plain one on many texts.
#[cfg(test)]
pub(crate) fn drawn_text(
    next: &mut impl FnMut(usize) -> usize,
    pieces: &[&str],
    most: usize,
) -> String {
    (0..next(most))
        .map(|_| pieces[next(pieces.len())])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page every filter keeps: sentences of plain prose, one per line.
    const PROSE: &str = "The harbour was quiet when the fishing boats came back that evening.\n\
        Most of the crew had been out since before dawn, and they were tired.\n\
        A few gulls followed the last boat in, hoping for scraps from the nets.\n\
        On the quay, the buyers from the market were already waiting with their carts.\n\
        Prices had been low all week, but the catch was good enough to cover the fuel.\n\
        Later, the captains met in the small cafe to talk about the weather to come.\n\
        Nobody expected the storm that the radio had promised for the next morning.";

    /// The signals are written as an object of sorted keys would write them: the same JSON,
    /// byte for byte, as serde_json writes `serde_json` values built per group (a rule that
    /// does not apply left out, an empty `would_drop` kept, whole-number ratios, counts of
    /// several digits). It fails when a key, a separator or a number differs.
    #[test]
    fn signals_json_is_serde_jsons_of_the_values() {
        use serde_json::{Map, Value};
        let config = Config::default();
        let repeated = "the same line again and again\n".repeat(40);
        let long = PROSE.repeat(30);
        let texts = [
            PROSE,
            "lorem ipsum dolor sit amet.\nshort",
            "x",
            "# one\n# two\n- three...\n\u{2022} four\u{2026}",
            &repeated,
            &long,
        ];
        for text in texts {
            let signals = Signals::measure(text, &config);
            let mut groups: Map<String, Value> = Map::new();
            for (field, value) in Signals::FIELDS.iter().zip(signals.values()) {
                let group = groups
                    .entry(field.group)
                    .or_insert_with(|| Value::Object(Map::new()));
                let value = match value {
                    SignalValue::Count(n) => Value::from(n),
                    SignalValue::Ratio(x) => Value::from(x),
                    SignalValue::Rule(Some(rule)) => Value::from(rule.as_str()),
                    SignalValue::Rule(None) => continue,
                };
                if let Value::Object(map) = group {
                    map.insert(field.name.into(), value);
                }
            }
            let mut written = Vec::new();
            signals.write_json(&mut written);
            assert_eq!(
                String::from_utf8(written).expect("JSON is UTF-8"),
                serde_json::to_string(&groups).expect("values write"),
                "{text:?}"
            );
        }
    }

    /// The text C4 leaves is not split again: its kept lines' words are the words of
    /// splitting it (line breaks of every kind, white space
    /// of every kind at a line's ends and inside it, a dropped line between two kept ones).
    #[test]
    fn the_kept_lines_words_are_the_kept_texts_words() {
        let text = format!(
            "{PROSE}\r\nA heading\n  Second  line,  spaced   out, is kept too!\u{2028}\
             \u{a0}Third\tline with a tab: ends (here).\u{a0}\x0b\n\n\
             short line\x1c\u{3000}A line with \"quotes\" and U.S. ends here. \u{85}\
             Don't stop: a last line's end?\r"
        );
        let doc = Doc::new(&text);
        let c4 = c4_quality::measure(&doc, &Config::default().c4_quality);
        let kept = c4.kept_lines().expect("every kept line whole");
        let kept_text = c4.kept_text(&text);
        assert_eq!(kept.len(), 11, "{kept_text:?}");
        assert!(c4.lines > kept.len());
        let fast = Doc::with_words(&kept_text, &doc.rejoined_words(kept));
        let slow = Doc::new(&kept_text);
        assert_eq!(fast.words, slow.words);
        assert_eq!(fast.chars, slow.chars);
        // A line C4 cut a citation out of is no line of the text: the chain splits again.
        let cited = format!("{PROSE}\nThe storm came as the radio had said it would.[1]");
        let c4 = c4_quality::measure(&Doc::new(&cited), &Config::default().c4_quality);
        assert!(c4.kept_lines().is_none() && c4.kept_text(&cited).ends_with("would."));
    }

    /// The signals `apply_measuring` makes from the chain's own split are those of the text
    /// the chain keeps: kept whole by C4, rewritten by C4 (a heading without a full stop
    /// goes), with C4 first, last or absent.
    #[test]
    fn a_chains_signals_are_the_kept_texts_signals() {
        let config = Config::default();
        let with_heading = format!("Harbour news\n{PROSE}");
        let orders = [
            "gopher-quality,gopher-repetition,c4-quality,fineweb-quality",
            "c4-quality,fineweb-quality,gopher-repetition",
            "fineweb-quality,gopher-quality",
            "gopher-repetition,c4-quality",
        ];
        let mut rewritten = 0;
        for text in [PROSE, with_heading.as_str()] {
            for order in orders {
                let filters = Filter::parse_list(order).unwrap();
                let (verdict, signals) = apply_measuring(&filters, text, &config, true);
                assert_eq!(verdict, apply(&filters, text, &config), "{order}");
                let kept = match &verdict {
                    Verdict::Keep(Some(kept)) => kept.as_str(),
                    Verdict::Keep(None) => text,
                    other => panic!("{order}: {other:?}"),
                };
                rewritten += usize::from(kept != text);
                assert_eq!(signals, Some(Signals::measure(kept, &config)), "{order}");
                assert_eq!(apply_measuring(&filters, text, &config, false).1, None);
            }
        }
        // The heading went wherever C4 ran.
        assert_eq!(rewritten, 3);
    }

    #[test]
    fn would_drop_is_keyed_by_the_names_filter_takes() {
        let names: Vec<&str> = Signals::FIELDS
            .iter()
            .filter(|f| f.group == "would_drop")
            .map(|f| f.name)
            .collect();
        let expected: Vec<&str> = Filter::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names, expected);
    }

    /// The keys written as they are known when compiled are the JSON strings of the names:
    /// nothing in a name needs an escape.
    #[test]
    fn json_pieces_need_no_escapes() {
        for (piece, &i) in json_pieces().iter().zip(fields_by_name()) {
            let field = &Signals::FIELDS[i];
            let key = serde_json::to_string(field.name).unwrap() + ":";
            assert_eq!(piece.key.as_str(), key);
            assert_eq!(piece.next_key.as_str(), format!(",{key}"));
            let group = serde_json::to_string(field.group).unwrap() + ":{";
            let opening = piece.group.as_str();
            assert!(opening.ends_with(&group), "{opening}");
            assert_eq!(piece.group_and_key.as_str(), format!("{opening}{key}"));
        }
    }

    /// Every ratio of 4 decimals up to 100, many up to 10^7, and some far larger, negative,
    /// or of more decimals (which zmij writes), are written as serde_json's zmij writes them.
    #[test]
    fn ratios_are_written_as_zmij_writes_them() {
        let mut zmij = zmij::Buffer::new();
        let mut check = |x: f64| {
            let mut ours = Vec::new();
            write_ratio(x, &mut ours);
            assert_eq!(
                std::str::from_utf8(&ours).unwrap(),
                zmij.format_finite(x),
                "{x:?}"
            );
        };
        for k in 0..1_000_000u64 {
            check(k as f64 / 1e4);
        }
        // Then up to 10^7, k in steps of 9,973,000.
        for k in (1_000_000..100_000_000_000u64).step_by(9_973 * 1_000) {
            check(k as f64 / 1e4);
        }
        for x in [
            1e-5,
            5e-5,
            0.12345,
            1.0 / 3.0,
            -0.0,
            -0.5,
            1e6,
            9_999_999.999_9,
            1e7,
            1e9 + 0.5,
            123_456_789_012.345_6,
            1e15,
            1e16,
            1e300,
            f64::MIN_POSITIVE,
        ] {
            check(x);
            check(rounded(x));
        }
    }

    #[test]
    fn signals_json_has_every_field_but_rules_that_do_not_apply() {
        let text = "Lorem ipsum dolor sit amet.\nA second line of the page, with words.\n";
        let signals = Signals::measure(text, &Config::default());
        let mut written = Vec::new();
        signals.write_json(&mut written);
        let json: serde_json::Value = serde_json::from_slice(&written).unwrap();
        for (field, value) in Signals::FIELDS.iter().zip(signals.values()) {
            let written = &json[field.group][field.name];
            match value {
                SignalValue::Count(n) => assert_eq!(written.as_u64(), Some(n), "{field:?}"),
                SignalValue::Ratio(x) => assert_eq!(written.as_f64(), Some(x), "{field:?}"),
                SignalValue::Rule(Some(rule)) => {
                    assert_eq!(written.as_str(), Some(rule.as_str()), "{field:?}")
                }
                SignalValue::Rule(None) => assert!(written.is_null(), "{field:?}"),
            }
        }
        // C4 drops a page that says lorem ipsum: both its page rule and would_drop say so.
        assert_eq!(json["c4_quality"]["page_rule"], "lorem_ipsum");
        assert_eq!(json["would_drop"]["c4-quality"], "lorem_ipsum");
    }
}
