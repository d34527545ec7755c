//! `linenet`: seed 004 (An, Wang, Xu 2010), the line classifier with title relevance, as
//! published, on outward's cleaned page.
//!
//! 1. Title: the cleaned page's `<title>` ([`Cleaned::title`]) with everything after its last
//!    `-` or `_` removed ([`cut_title`]; a title that would be left empty stays whole).
//! 2. Lines: the lines of the page's text exactly as outward's text emission makes them
//!    (`emit_flat`: block elements and `br` break lines, whitespace folds, empty lines are
//!    dropped; [`page_lines`]). Per line four values ([`line_values`]): text length
//!    `ln(1 + chars) / 10`, total length `ln(1 + chars of the cleaned buffer from the line's
//!    first text to the end of its last text, tags included) / 10`, density `text chars /
//!    total chars` (capped at 1), and relevance to the title: the share of the title's words
//!    that the line holds ([`relevance`]). Lengths are log-scaled, not divided by a page
//!    maximum, so that one long line does not shrink every other line of its page.
//! 3. Words ([`words`]): text with a CJK character is segmented by jieba-rs (HMM on; one
//!    `Jieba` per process, built on first use with a `OnceLock`: 0.1-0.3 s and about 32 MB,
//!    paid only by runs that meet Chinese text); other text splits at every character
//!    that is not alphanumeric. Words are lowercased; words without a letter or digit and
//!    the built-in stop words ([`STOP_WORDS`]: about 60 English function words and 40
//!    Chinese function words and particles) are ignored; the overlap counts distinct words.
//! 4. Inputs (12, [`INPUTS`]): the four values of the line, of the previous line and of the
//!    next line (zeros beyond the page's first and last line). A 12-5-1 network of logistic
//!    (logsig) units ([`LineNetModel`]) calls a line content when its output is above 0.5.
//!    Training (backpropagation, learning rate 0.2, until the mean squared error is at most
//!    0.05 or an epoch cap) lives in `outward-learn`; this file reads and applies models.
//! 5. The content lines in page order through the shared text emission ([`TextSink`]), so
//!    rendering and formats work as for every method. Every node counts as parsed. A page
//!    of a single line keeps it (the paper judges a line among its neighbours; alone, it is
//!    the page's text).
//!
//! The default model ([`DEFAULT_MODEL`], `models/linenet.model`) was trained by `outward
//! train --method linenet` on the eight bag-scored dev sets; `ExtractOptions::linenet_model`
//! replaces it. The model's digest is the method's options key.
//!
//! Measured on the dev sets (`outward eval --lodo --method linenet`, each of the eight
//! bag-scored sets scored by a model trained on the other seven): macro P 0.746, R 0.897,
//! F1 0.767 (`svm` 0.782, `reverse` 0.875); cwced_zh F1 0.797, the 38 Chinese pages of
//! magic_html 0.710. Training never reaches the published target error: on 745,000 dev
//! lines the mean squared error settles at 0.17-0.19 (training accuracy 0.71-0.77) and the
//! epoch cap (100) stops it, 20-40 s on one core. Twelve numbers per line cannot tell a short
//! paragraph from a short menu item any better than `svm`'s five per block; the Chinese
//! portals of the paper, where the title is repeated in the article, suit it best. Speed:
//! about 90 MB/s on one core against `reverse`'s 270 (`outward bench` over cleaneval,
//! cwced_zh and magic_html; jieba is built once per process, when it first has Chinese
//! text to segment).
//!
//! Model format, version 1 (little-endian): the magic `OWNET`, a version byte (1), the
//! number of inputs (12), the number of hidden units (5); per hidden unit its 12 weights and
//! its bias, then the output unit's 5 weights and its bias, all f32; last, the FNV-1a 64
//! hash of every byte before it (the model's digest). [`LineNetModel::from_bytes`] refuses
//! anything else with a [`ModelError`], never a panic.
//!
//! Invariants: the walk that measures lines and the walk that emits them break lines at the
//! same tokens as `emit_flat`; no recursion; `to_bytes(from_bytes(b)) == b` for every
//! accepted `b`.

use std::sync::{Arc, OnceLock};

use crate::fnv1a;
use crate::html::clean::Cleaned;
use crate::html::entities::append_decoded;
use crate::html::tokenize::forward::ForwardTokenizer;
use crate::html::tokenize::{TokenKind, parse_tag};
use crate::text::emit::TextSink;
use crate::text::page_title::page_title;
use crate::{ExtractOptions, ExtractStats, Extraction, Extractor, Page, SiteContext};

/// Values per line: text length, total length, density, title relevance.
pub const LINE_VALUES: usize = 4;
/// Network inputs: the line's values, the previous line's, the next line's.
pub const INPUTS: usize = 3 * LINE_VALUES;
/// Hidden logistic units.
pub const HIDDEN: usize = 5;

/// The model trained on the eight bag-scored dev sets, shipped with the crate.
pub const DEFAULT_MODEL: &[u8] = include_bytes!("../../models/linenet.model");

/// Format version written by [`LineNetModel::to_bytes`].
pub const MODEL_VERSION: u8 = 1;

const MAGIC: &[u8; 5] = b"OWNET";
const HEADER: usize = 8;
const WEIGHTS: usize = HIDDEN * (INPUTS + 1) + HIDDEN + 1;
const MODEL_BYTES: usize = HEADER + 4 * WEIGHTS + 8;
/// Log lengths are divided by this (ln(1 + 22,025) = 10).
const LOG_SCALE: f64 = 10.0;

/// English and Chinese stop words, ignored by [`relevance`].
pub const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "are", "as", "at", "be", "been", "but",
    "by", "can", "do", "for", "from", "has", "have", "he", "her", "his", "how", "i", "if", "in",
    "into", "is", "it", "its", "more", "my", "new", "no", "not", "of", "on", "or", "our", "out",
    "she", "so", "than", "that", "the", "their", "them", "there", "they", "this", "to", "up",
    "was", "we", "were", "what", "when", "which", "who", "will", "with", "you", "your", "的", "了",
    "是", "在", "和", "与", "及", "或", "也", "就", "都", "而", "之", "为", "对", "等", "中", "上",
    "下", "着", "被", "把", "这", "那", "有", "我", "你", "他", "她", "它", "们", "一个", "不",
    "将", "从", "以", "于", "其", "并", "但", "又", "个", "吗", "呢", "吧",
];

/// Why model bytes were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelError {
    /// Not an outward line network (the first bytes are not `OWNET`).
    Magic,
    /// A format version this build does not read.
    Version(u8),
    /// A shape other than 12-5-1: (inputs, hidden).
    Shape(u8, u8),
    /// The bytes end before the model does.
    Truncated,
    /// Bytes after the checksum.
    Trailing(usize),
    /// The checksum does not match the bytes.
    Checksum,
    /// A weight that is NaN or infinite.
    Value,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::Magic => write!(f, "not an outward linenet model (no OWNET magic)"),
            ModelError::Version(v) => write!(
                f,
                "linenet model format version {v} (this build reads {MODEL_VERSION})"
            ),
            ModelError::Shape(i, h) => write!(
                f,
                "linenet model is {i}-{h}-1 (the method is {INPUTS}-{HIDDEN}-1)"
            ),
            ModelError::Truncated => write!(f, "linenet model is truncated"),
            ModelError::Trailing(n) => write!(f, "linenet model has {n} bytes after its end"),
            ModelError::Checksum => {
                write!(f, "linenet model checksum does not match (corrupt file)")
            }
            ModelError::Value => write!(f, "linenet model has a weight that is not finite"),
        }
    }
}

impl std::error::Error for ModelError {}

/// The logistic function.
pub fn logsig(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A trained 12-5-1 logistic network.
#[derive(Debug, Clone, PartialEq)]
pub struct LineNetModel {
    /// Per hidden unit: its weights over the inputs, then its bias.
    hidden: [[f32; INPUTS + 1]; HIDDEN],
    /// The output unit's weights over the hidden units, then its bias.
    output: [f32; HIDDEN + 1],
    digest: u64,
}

impl LineNetModel {
    /// A model from its weights (the trainer's output). Refuses non-finite weights.
    pub fn new(
        hidden: [[f32; INPUTS + 1]; HIDDEN],
        output: [f32; HIDDEN + 1],
    ) -> Result<LineNetModel, ModelError> {
        if hidden
            .iter()
            .flatten()
            .chain(&output)
            .any(|w| !w.is_finite())
        {
            return Err(ModelError::Value);
        }
        let mut model = LineNetModel {
            hidden,
            output,
            digest: 0,
        };
        model.digest = fnv1a(&model.encode());
        Ok(model)
    }

    /// Reads a model written by [`to_bytes`](Self::to_bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<LineNetModel, ModelError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(ModelError::Magic);
        }
        if bytes.len() < HEADER {
            return Err(ModelError::Truncated);
        }
        if bytes[5] != MODEL_VERSION {
            return Err(ModelError::Version(bytes[5]));
        }
        if usize::from(bytes[6]) != INPUTS || usize::from(bytes[7]) != HIDDEN {
            return Err(ModelError::Shape(bytes[6], bytes[7]));
        }
        if bytes.len() < MODEL_BYTES {
            return Err(ModelError::Truncated);
        }
        if bytes.len() > MODEL_BYTES {
            return Err(ModelError::Trailing(bytes.len() - MODEL_BYTES));
        }
        let end = MODEL_BYTES - 8;
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[end..]);
        if u64::from_le_bytes(sum) != fnv1a(&bytes[..end]) {
            return Err(ModelError::Checksum);
        }
        let mut weights = bytes[HEADER..end].chunks_exact(4).map(|w| {
            let mut a = [0u8; 4];
            a.copy_from_slice(w);
            f32::from_le_bytes(a)
        });
        let mut hidden = [[0f32; INPUTS + 1]; HIDDEN];
        for w in hidden.iter_mut().flatten() {
            *w = weights.next().unwrap_or(f32::NAN);
        }
        let mut output = [0f32; HIDDEN + 1];
        for w in &mut output {
            *w = weights.next().unwrap_or(f32::NAN);
        }
        LineNetModel::new(hidden, output)
    }

    /// The bytes before the checksum.
    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(MODEL_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[MODEL_VERSION, INPUTS as u8, HIDDEN as u8]);
        for w in self.hidden.iter().flatten().chain(&self.output) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The model file's bytes (see the module doc).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.encode();
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// FNV-1a 64 of the model's bytes: what the config hash holds.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// Hidden weights (per unit: inputs, then bias).
    pub fn hidden(&self) -> &[[f32; INPUTS + 1]; HIDDEN] {
        &self.hidden
    }

    /// Output weights (hidden units, then bias).
    pub fn output(&self) -> &[f32; HIDDEN + 1] {
        &self.output
    }

    /// The network's output for `x`, in (0, 1): above 0.5 means content.
    pub fn score(&self, x: &[f32; INPUTS]) -> f64 {
        let mut out = f64::from(self.output[HIDDEN]);
        for (unit, w) in self.hidden.iter().zip(&self.output) {
            let mut a = f64::from(unit[INPUTS]);
            for (wi, xi) in unit.iter().zip(x) {
                a += f64::from(*wi) * f64::from(*xi);
            }
            out += f64::from(*w) * logsig(a);
        }
        logsig(out)
    }
}

/// The title with everything after its last `-` or `_` removed (trimmed); the whole title
/// when that would leave nothing.
pub fn cut_title(title: &str) -> &str {
    let cut = title
        .rfind(['-', '_'])
        .map_or(title, |at| title[..at].trim());
    if cut.is_empty() { title.trim() } else { cut }
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// The process's one segmenter, built on first use.
fn jieba() -> &'static jieba_rs::Jieba {
    static JIEBA: OnceLock<jieba_rs::Jieba> = OnceLock::new();
    JIEBA.get_or_init(jieba_rs::Jieba::new)
}

/// The words of `text` (see the module doc), stop words left out, sorted and distinct.
pub fn words(text: &str) -> Vec<String> {
    let keep = |w: &str| {
        let w = w.trim().to_lowercase();
        (w.chars().any(char::is_alphanumeric) && !STOP_WORDS.contains(&w.as_str())).then_some(w)
    };
    let mut out: Vec<String> = if text.chars().any(is_cjk) {
        jieba()
            .cut(text, true)
            .into_iter()
            .filter_map(|t| keep(t.word))
            .collect()
    } else {
        text.split(|c: char| !c.is_alphanumeric())
            .filter_map(keep)
            .collect()
    };
    out.sort_unstable();
    out.dedup();
    out
}

/// The share of `title_words` (sorted, distinct) that `line` holds: 0 without title words.
pub fn relevance(title_words: &[String], line: &str) -> f64 {
    if title_words.is_empty() {
        return 0.0;
    }
    let line_words = words(line);
    let common = title_words
        .iter()
        .filter(|w| line_words.binary_search(w).is_ok())
        .count();
    common as f64 / title_words.len() as f64
}

/// One line of a page's text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Line {
    /// The line as the text emission writes it.
    pub text: String,
    /// Offsets in the cleaned buffer of its first text's start and its last text's end.
    pub start: u32,
    pub end: u32,
    /// Characters of its text.
    pub text_chars: u32,
    /// Characters of the buffer from `start` to `end`: text and tags.
    pub total_chars: u32,
}

/// Folds text into lines as `TextSink` does, remembering where each line lies in the buffer.
#[derive(Default)]
struct LineBuilder {
    lines: Vec<Line>,
    current: String,
    start: Option<u32>,
    end: u32,
    scratch: String,
}

impl LineBuilder {
    fn push_raw(&mut self, buf: &[u8], start: u32, end: u32) {
        let end_at = (end as usize).min(buf.len());
        self.scratch.clear();
        append_decoded(
            &mut self.scratch,
            &String::from_utf8_lossy(&buf[start as usize..end_at]),
        );
        let mut visible = false;
        for ch in self.scratch.chars() {
            if ch.is_whitespace() {
                if !self.current.is_empty() && !self.current.ends_with(' ') {
                    self.current.push(' ');
                }
            } else {
                self.current.push(ch);
                visible = true;
            }
        }
        if visible {
            self.start.get_or_insert(start);
            self.end = end;
        }
    }

    fn end_line(&mut self, buf: &[u8]) {
        let trimmed = self.current.trim_end();
        if let (false, Some(start)) = (trimmed.is_empty(), self.start) {
            let span = &buf[start as usize..(self.end as usize).min(buf.len())];
            let total = span.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            let text_chars = trimmed.chars().count();
            self.lines.push(Line {
                text: trimmed.to_string(),
                start,
                end: self.end,
                text_chars: text_chars as u32,
                total_chars: total as u32,
            });
        }
        self.current.clear();
        self.start = None;
    }
}

/// The lines of a cleaned page's text, in page order (the lines `emit_flat` makes).
pub fn page_lines(cleaned: &Cleaned) -> Vec<Line> {
    let buf = &cleaned.buf[..];
    let mut b = LineBuilder::default();
    for tok in ForwardTokenizer::new(buf, 0) {
        match tok.kind {
            TokenKind::Text => b.push_raw(buf, tok.start, tok.end),
            TokenKind::StartTag | TokenKind::EndTag => {
                if parse_tag(buf, tok).tag.is_block() {
                    b.end_line(buf);
                }
            }
        }
    }
    b.end_line(buf);
    b.lines
}

/// The four values of each line (see the module doc) given the page title's words.
pub fn line_values(lines: &[Line], title_words: &[String]) -> Vec<[f32; LINE_VALUES]> {
    lines
        .iter()
        .map(|l| {
            let text = f64::from(l.text_chars);
            let total = f64::from(l.total_chars.max(l.text_chars)).max(1.0);
            [
                ((1.0 + text).ln() / LOG_SCALE) as f32,
                ((1.0 + total).ln() / LOG_SCALE) as f32,
                (text / total).min(1.0) as f32,
                relevance(title_words, &l.text) as f32,
            ]
        })
        .collect()
}

/// The network inputs of each line: its values, the previous line's, the next line's.
pub fn inputs(values: &[[f32; LINE_VALUES]]) -> Vec<[f32; INPUTS]> {
    (0..values.len())
        .map(|i| {
            let mut x = [0f32; INPUTS];
            x[..LINE_VALUES].copy_from_slice(&values[i]);
            if i > 0 {
                x[LINE_VALUES..2 * LINE_VALUES].copy_from_slice(&values[i - 1]);
            }
            if let Some(next) = values.get(i + 1) {
                x[2 * LINE_VALUES..].copy_from_slice(next);
            }
            x
        })
        .collect()
}

/// The title words of a cleaned page: its `<title>`, cut (see [`cut_title`]).
pub fn title_words(cleaned: &Cleaned) -> Vec<String> {
    cleaned
        .title
        .as_deref()
        .map(|t| words(cut_title(t)))
        .unwrap_or_default()
}

/// A page's lines with their network inputs (training and extraction share it).
pub fn page_line_inputs(page: &Page) -> (Vec<Line>, Vec<[f32; INPUTS]>) {
    let cleaned = page.visible();
    let lines = page_lines(cleaned);
    let x = inputs(&line_values(&lines, &title_words(cleaned)));
    (lines, x)
}

/// Seed 004's line classifier with a model.
pub struct LineNet {
    model: Arc<LineNetModel>,
}

impl LineNet {
    /// The method with `options.linenet_model`, or the shipped default model.
    pub fn new(options: &ExtractOptions) -> LineNet {
        let model = match &options.linenet_model {
            Some(m) => m.clone(),
            None => Arc::new(LineNet::default_model()),
        };
        LineNet { model }
    }

    /// The shipped model ([`DEFAULT_MODEL`]); were its bytes ever unreadable (the tests check
    /// them), the stand-in keeps every line (zero weights, output bias 10).
    pub fn default_model() -> LineNetModel {
        LineNetModel::from_bytes(DEFAULT_MODEL).unwrap_or_else(|_| {
            let mut output = [0f32; HIDDEN + 1];
            output[HIDDEN] = 10.0;
            LineNetModel {
                hidden: [[0f32; INPUTS + 1]; HIDDEN],
                output,
                digest: 0,
            }
        })
    }

    /// The model the method applies.
    pub fn model(&self) -> &LineNetModel {
        &self.model
    }
}

impl Extractor for LineNet {
    fn name(&self) -> &'static str {
        "linenet"
    }

    /// The model's digest: `linenet` reads no other option.
    fn options_key(&self) -> String {
        format!("linenet_model={:016x}", self.model.digest())
    }

    fn extract(&self, page: &Page, _site: &SiteContext) -> Extraction {
        let cleaned = page.visible();
        let (lines, x) = page_line_inputs(page);
        // A page of one line has no context to judge it in: that line is its text.
        let keep: Vec<bool> = if lines.len() == 1 {
            vec![true]
        } else {
            x.iter().map(|x| self.model.score(x) > 0.5).collect()
        };
        let buf = &cleaned.buf[..];
        let mut sink = TextSink::default();
        let mut at = 0usize;
        for tok in ForwardTokenizer::new(buf, 0) {
            match tok.kind {
                TokenKind::Text => {
                    while at < lines.len() && lines[at].end <= tok.start {
                        at += 1;
                    }
                    let inside = lines
                        .get(at)
                        .is_some_and(|l| l.start <= tok.start && tok.end <= l.end);
                    if inside && keep[at] {
                        let end = (tok.end as usize).min(buf.len());
                        sink.push_raw(&buf[tok.start as usize..end]);
                    }
                }
                TokenKind::StartTag => {
                    let tag = parse_tag(buf, tok).tag;
                    if tag.is_block() {
                        sink.open_block(tag);
                    }
                }
                TokenKind::EndTag => {
                    let tag = parse_tag(buf, tok).tag;
                    if tag.is_block() {
                        sink.close_block(tag);
                    }
                }
            }
        }
        Extraction {
            blocks: sink.finish(),
            title: page_title(cleaned),
            stats: ExtractStats::whole_page(page),
            site_rule: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::emit::emit_flat;

    #[test]
    fn title_is_cut_after_its_last_dash_or_underscore() {
        assert_eq!(
            cut_title("Rain in Spain - World - Gazette"),
            "Rain in Spain - World"
        );
        assert_eq!(cut_title("北京今日降雨_新闻_新浪网"), "北京今日降雨_新闻");
        assert_eq!(cut_title("No separator here"), "No separator here");
        assert_eq!(cut_title("- Gazette"), "- Gazette");
        assert_eq!(cut_title(""), "");
    }

    #[test]
    fn relevance_segments_chinese_with_jieba_and_ignores_stop_words() {
        let title = words(cut_title("北京市今天发布暴雨预警_新闻_新浪网"));
        assert!(title.contains(&"北京市".to_string()), "{title:?}");
        assert!(title.contains(&"暴雨".to_string()), "{title:?}");
        assert!(!title.contains(&"新浪网".to_string()), "{title:?}");
        let r = relevance(&title, "北京市气象台发布了暴雨预警。");
        assert!((0.5..=1.0).contains(&r), "{r} {title:?}");
        assert_eq!(relevance(&title, "版权所有 联系我们"), 0.0);
        // English: lowercased words, stop words ignored.
        let en = words("The Rain in Spain");
        assert_eq!(en, vec!["rain".to_string(), "spain".to_string()]);
        assert_eq!(relevance(&en, "RAIN, rain and more rain"), 0.5);
        assert_eq!(relevance(&[], "anything"), 0.0);
    }

    const PAGE: &str = "<html><head><title>Rain in Spain - Gazette</title></head><body>\
        <div><a href=/a>Home</a> <a href=/b>News</a></div>\
        <p>The rain in Spain stays <b>mainly</b> in the plain.</p>\
        <div>Copyright</div></body></html>";

    #[test]
    fn features_of_a_three_line_page() {
        let page = Page::new(PAGE, None);
        let (lines, x) = page_line_inputs(&page);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Home News",
                "The rain in Spain stays mainly in the plain.",
                "Copyright"
            ]
        );
        // The same lines as the text emission.
        let mut sink = TextSink::default();
        emit_flat(&page.visible().buf, &[], &mut sink);
        assert_eq!(sink.finish().text(), texts.join("\n"));
        assert_eq!(x.len(), 3);
        let story = &lines[1];
        assert_eq!(story.text_chars, 44);
        assert!(story.total_chars > story.text_chars, "{story:?}");
        let ln = |v: u32| ((1.0 + f64::from(v)).ln() / LOG_SCALE) as f32;
        assert_eq!(x[1][0], ln(44));
        assert_eq!(x[1][1], ln(story.total_chars));
        assert_eq!(x[1][2], (44.0 / f64::from(story.total_chars)) as f32);
        // Title "Rain in Spain": both its words are in the story, none in the menu.
        assert_eq!(x[1][3], 1.0);
        assert_eq!(x[0][3], 0.0);
        // Links make the menu's markup heavy.
        assert!(x[0][2] < x[1][2], "{x:?}");
        // Neighbours: the first line has no previous one, the last no next one.
        assert_eq!(&x[0][..4], &x[1][4..8]);
        assert_eq!(&x[2][..4], &x[1][8..]);
        assert_eq!(&x[0][4..8], &[0.0; 4]);
        assert_eq!(&x[2][8..], &[0.0; 4]);
    }

    /// A model that keeps lines whose relevance is high.
    fn relevance_model() -> LineNetModel {
        let mut hidden = [[0f32; INPUTS + 1]; HIDDEN];
        hidden[0][3] = 20.0;
        hidden[0][INPUTS] = -10.0;
        let mut output = [0f32; HIDDEN + 1];
        output[0] = 20.0;
        output[HIDDEN] = -10.0;
        LineNetModel::new(hidden, output).unwrap()
    }

    #[test]
    fn extraction_keeps_the_lines_the_model_calls_content() {
        let options = ExtractOptions {
            linenet_model: Some(Arc::new(relevance_model())),
            ..ExtractOptions::default()
        };
        let out = LineNet::new(&options).extract_html(PAGE);
        assert_eq!(out.text(), "The rain in Spain stays mainly in the plain.");
        assert_eq!(out.stats, ExtractStats::whole_page(&Page::new(PAGE, None)));
    }

    #[test]
    fn model_bytes_round_trip_and_bad_bytes_are_refused() {
        let model = relevance_model();
        let bytes = model.to_bytes();
        assert_eq!(bytes.len(), MODEL_BYTES);
        let back = LineNetModel::from_bytes(&bytes).unwrap();
        assert_eq!(back, model);
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.digest(), fnv1a(&bytes[..bytes.len() - 8]));
        assert_eq!(
            LineNetModel::from_bytes(b"OWSVM\x01"),
            Err(ModelError::Magic)
        );
        assert_eq!(LineNetModel::from_bytes(b""), Err(ModelError::Magic));
        for cut in 5..bytes.len() {
            assert!(
                LineNetModel::from_bytes(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            LineNetModel::from_bytes(&longer),
            Err(ModelError::Trailing(1))
        );
        let mut flipped = bytes.clone();
        flipped[20] ^= 1;
        assert_eq!(
            LineNetModel::from_bytes(&flipped),
            Err(ModelError::Checksum)
        );
        let mut version = bytes.clone();
        version[5] = 9;
        assert_eq!(
            LineNetModel::from_bytes(&version),
            Err(ModelError::Version(9))
        );
        let mut shape = bytes.clone();
        shape[7] = 6;
        assert_eq!(
            LineNetModel::from_bytes(&shape),
            Err(ModelError::Shape(12, 6))
        );
        let mut hidden = [[0f32; INPUTS + 1]; HIDDEN];
        hidden[2][4] = f32::NAN;
        assert_eq!(
            LineNetModel::new(hidden, [0.0; HIDDEN + 1]),
            Err(ModelError::Value)
        );
    }

    #[test]
    fn the_shipped_model_reads_and_its_digest_is_the_options_key() {
        let model = LineNetModel::from_bytes(DEFAULT_MODEL).expect("models/linenet.model reads");
        let net = LineNet::new(&ExtractOptions::default());
        assert_eq!(net.model(), &model);
        assert_eq!(
            net.options_key(),
            format!("linenet_model={:016x}", model.digest())
        );
        let other = LineNet::new(&ExtractOptions {
            linenet_model: Some(Arc::new(relevance_model())),
            ..ExtractOptions::default()
        });
        assert_ne!(net.options_key(), other.options_key());
        // Only linenet reads the option.
        let with = ExtractOptions {
            linenet_model: Some(Arc::new(relevance_model())),
            ..ExtractOptions::default()
        };
        for info in crate::methods::REGISTRY {
            let key = |o| info.build(o).options_key();
            assert_eq!(
                key(&ExtractOptions::default()) != key(&with),
                info.name == "linenet",
                "{}",
                info.name
            );
        }
    }

    #[test]
    fn odd_pages_do_not_panic() {
        let net = LineNet::new(&ExtractOptions::default());
        for html in [
            "",
            "plain text",
            "</div></div><div>",
            "<title>_</title>x",
            "<title>中文</title><p>中文 &amp; text</p>",
        ] {
            let _ = net.extract_html(html);
        }
        let deep = "<div>".repeat(100_000) + "x";
        let _ = net.extract_html(&deep);
    }
}
