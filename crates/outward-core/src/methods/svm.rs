//! `svm`: seed 001 (Yan, Wang 2020), the block SVM classifier, as published but without its
//! template step (site templates are `template`'s job), on outward's cleaned page.
//!
//! 1. Blocks are the `body`, `section` and `div` elements of the cleaned page
//!    ([`Page::visible`]), plus the page itself for text outside any of them. A block's own
//!    text is the text whose innermost block it is: text of nested blocks is not counted twice.
//! 2. Features, smoothed +1 ([`features`]): R1 = own text / (page text + 1), R2 = own link
//!    text / (page link text + 1), R3 = own links / (page links + 1), R4 = own images / (page
//!    images + 1), R5 = own link text / (own text + 1). Text is counted in characters, links
//!    are `a` elements with an `href`. **R4 is always 0**: the cleaner drops `img` (it keeps
//!    no void element but `br`/`hr`) and the core cleans a page once, so images have no place
//!    in the cleaned tree to be counted in. The feature stays in the model format (five
//!    inputs) so that a cleaner keeping image markers fills it without a new format; a
//!    constant input changes no RBF distance, so today's models ignore it.
//! 3. An RBF-kernel SVM ([`SvmModel`]) decides each block with text: content when
//!    `Σ coef_i · exp(-γ |sv_i - x|²) + bias > 0`. Training (class-balanced C, C and γ by
//!    10-fold cross-validation) lives in the `outward-learn` crate; this file only reads and
//!    applies models.
//! 4. The text of the content blocks, in page order, through the shared text emission
//!    ([`TextSink`]): block elements still break lines, so rendering and formats work as for
//!    every method. Every node counts as parsed: the method reads the whole page.
//!
//! The default model ([`DEFAULT_MODEL`], `models/svm.model`) was trained by `outward train
//! --method svm` on the eight bag-scored dev sets; `ExtractOptions::svm_model` replaces it
//! (`--model PATH`: the CLI reads the file, the core stays free of I/O). The model's digest
//! is the method's [`options_key`](Extractor::options_key), so a run's config hash changes
//! with the model.
//!
//! Measured on the dev sets (`outward eval --lodo --method svm`, each of the eight bag-scored
//! sets scored by a model trained on the other seven): macro P 0.734, R 0.924, F1 0.782
//! (`reverse`: 0.875). Block-level cross-validation is weak (balanced accuracy 0.58-0.62
//! over the whole grid): five ratios cannot tell a short paragraph from a short menu. The
//! shipped model scores 0.762 on the sets it was trained on (its CV chose C 100, γ 100,
//! where most LODO folds chose C 10, γ 100): block accuracy and page F1 disagree. Speed:
//! about 45 MB/s on one core against `reverse`'s 200 (half of it in `exp`: one kernel term
//! per support vector per block with text).
//!
//! Model format, version 1 (little-endian): the magic `OWSVM`, a version byte (1), the
//! number of features (5), a reserved zero byte; γ and the bias as f64; the number of support
//! vectors as u32; per support vector its coefficient (αᵢyᵢ) and five features as f32; last,
//! the FNV-1a 64 hash of every byte before it (the model's digest). [`SvmModel::from_bytes`]
//! refuses anything else (wrong magic, version or feature count, truncation, trailing bytes,
//! a bad checksum, non-finite numbers, γ ≤ 0) with a [`ModelError`], never a panic.
//!
//! Invariants: no recursion on input depth (an explicit stack); the walk that measures the
//! blocks and the walk that emits their text number blocks the same way (one [`Walker`]);
//! `to_bytes(from_bytes(b)) == b` for every accepted `b`.

use std::sync::Arc;

use crate::html::clean::{Cleaned, IN_LINK};
use crate::html::entities::append_decoded;
use crate::html::tags::Tag;
use crate::html::tokenize::forward::ForwardTokenizer;
use crate::html::tokenize::{TokenKind, parse_tag};
use crate::html::tree::F_HREF;
use crate::text::emit::TextSink;
use crate::text::page_title::page_title;
use crate::{ExtractOptions, ExtractStats, Extraction, Extractor, Page, SiteContext, fnv1a};

/// Inputs of the classifier: R1..R5.
pub const FEATURES: usize = 5;

/// The model trained on the eight bag-scored dev sets, shipped with the crate.
pub const DEFAULT_MODEL: &[u8] = include_bytes!("../../models/svm.model");

/// Format version written by [`SvmModel::to_bytes`].
pub const MODEL_VERSION: u8 = 1;

const MAGIC: &[u8; 5] = b"OWSVM";
/// Header: magic, version, feature count, reserved byte, γ, bias, support vector count.
const HEADER: usize = 8 + 8 + 8 + 4;
/// One support vector: coefficient and features.
const SV_BYTES: usize = 4 * (1 + FEATURES);
/// More support vectors than any training run here makes (the trainer subsamples to a few
/// thousand blocks); a bound that keeps a corrupt count from allocating gigabytes.
pub const MAX_SUPPORT_VECTORS: usize = 1 << 20;

/// Why model bytes were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelError {
    /// Not an outward SVM model (the first bytes are not `OWSVM`).
    Magic,
    /// A format version this build does not read.
    Version(u8),
    /// A feature count other than [`FEATURES`].
    Features(u8),
    /// The bytes end before the model does.
    Truncated,
    /// Bytes after the checksum.
    Trailing(usize),
    /// The checksum does not match the bytes.
    Checksum,
    /// Too many support vectors (see [`MAX_SUPPORT_VECTORS`]).
    TooLarge(u64),
    /// γ not positive, or a number that is NaN or infinite.
    Value(&'static str),
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::Magic => write!(f, "not an outward svm model (no OWSVM magic)"),
            ModelError::Version(v) => {
                write!(
                    f,
                    "svm model format version {v} (this build reads {MODEL_VERSION})"
                )
            }
            ModelError::Features(n) => {
                write!(f, "svm model has {n} features (the method has {FEATURES})")
            }
            ModelError::Truncated => write!(f, "svm model is truncated"),
            ModelError::Trailing(n) => write!(f, "svm model has {n} bytes after its end"),
            ModelError::Checksum => write!(f, "svm model checksum does not match (corrupt file)"),
            ModelError::TooLarge(n) => write!(f, "svm model claims {n} support vectors"),
            ModelError::Value(what) => write!(f, "svm model has a bad {what}"),
        }
    }
}

impl std::error::Error for ModelError {}

/// A trained RBF-kernel SVM over [`FEATURES`] inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct SvmModel {
    gamma: f64,
    bias: f64,
    /// Support vectors, each with its coefficient αᵢyᵢ.
    support: Vec<(f32, [f32; FEATURES])>,
    digest: u64,
}

impl SvmModel {
    /// A model from its parts (the trainer's output). Refuses non-finite numbers, γ ≤ 0 and
    /// more than [`MAX_SUPPORT_VECTORS`] support vectors.
    pub fn new(
        gamma: f64,
        bias: f64,
        support: Vec<(f32, [f32; FEATURES])>,
    ) -> Result<SvmModel, ModelError> {
        if !(gamma.is_finite() && gamma > 0.0) {
            return Err(ModelError::Value("gamma"));
        }
        if !bias.is_finite() {
            return Err(ModelError::Value("bias"));
        }
        if support.len() > MAX_SUPPORT_VECTORS {
            return Err(ModelError::TooLarge(support.len() as u64));
        }
        if support
            .iter()
            .any(|(c, x)| !c.is_finite() || x.iter().any(|v| !v.is_finite()))
        {
            return Err(ModelError::Value("support vector"));
        }
        let mut model = SvmModel {
            gamma,
            bias,
            support,
            digest: 0,
        };
        let bytes = model.encode();
        model.digest = fnv1a(&bytes);
        Ok(model)
    }

    /// Reads a model written by [`to_bytes`](Self::to_bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<SvmModel, ModelError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(ModelError::Magic);
        }
        if bytes.len() < HEADER + 8 {
            return Err(ModelError::Truncated);
        }
        if bytes[5] != MODEL_VERSION {
            return Err(ModelError::Version(bytes[5]));
        }
        if usize::from(bytes[6]) != FEATURES {
            return Err(ModelError::Features(bytes[6]));
        }
        let f64_at = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[i..i + 8]);
            f64::from_le_bytes(w)
        };
        let f32_at = |i: usize| {
            let mut w = [0u8; 4];
            w.copy_from_slice(&bytes[i..i + 4]);
            f32::from_le_bytes(w)
        };
        let gamma = f64_at(8);
        let bias = f64_at(16);
        let mut n = [0u8; 4];
        n.copy_from_slice(&bytes[24..28]);
        let n = u64::from(u32::from_le_bytes(n));
        if n > MAX_SUPPORT_VECTORS as u64 {
            return Err(ModelError::TooLarge(n));
        }
        let end = HEADER + n as usize * SV_BYTES;
        if bytes.len() < end + 8 {
            return Err(ModelError::Truncated);
        }
        if bytes.len() > end + 8 {
            return Err(ModelError::Trailing(bytes.len() - end - 8));
        }
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[end..end + 8]);
        if u64::from_le_bytes(sum) != fnv1a(&bytes[..end]) {
            return Err(ModelError::Checksum);
        }
        let support = (0..n as usize)
            .map(|k| {
                let at = HEADER + k * SV_BYTES;
                let mut x = [0f32; FEATURES];
                for (j, v) in x.iter_mut().enumerate() {
                    *v = f32_at(at + 4 * (j + 1));
                }
                (f32_at(at), x)
            })
            .collect();
        SvmModel::new(gamma, bias, support)
    }

    /// The bytes before the checksum.
    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.support.len() * SV_BYTES + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[MODEL_VERSION, FEATURES as u8, 0]);
        out.extend_from_slice(&self.gamma.to_le_bytes());
        out.extend_from_slice(&self.bias.to_le_bytes());
        out.extend_from_slice(&(self.support.len() as u32).to_le_bytes());
        for (c, x) in &self.support {
            out.extend_from_slice(&c.to_le_bytes());
            for v in x {
                out.extend_from_slice(&v.to_le_bytes());
            }
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

    pub fn gamma(&self) -> f64 {
        self.gamma
    }

    pub fn bias(&self) -> f64 {
        self.bias
    }

    /// Number of support vectors.
    pub fn support_vectors(&self) -> usize {
        self.support.len()
    }

    /// The decision value of `x`: positive means content.
    pub fn decision(&self, x: &[f64; FEATURES]) -> f64 {
        let mut sum = self.bias;
        for (c, sv) in &self.support {
            let mut d2 = 0.0;
            for j in 0..FEATURES {
                let d = f64::from(sv[j]) - x[j];
                d2 += d * d;
            }
            sum += f64::from(*c) * (-self.gamma * d2).exp();
        }
        sum
    }
}

/// Elements that are blocks for seed 001.
fn is_svm_block(tag: Tag) -> bool {
    matches!(tag, Tag::Body | Tag::Section | Tag::Div)
}

/// One block of a page as seed 001 sees it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SvmBlock {
    /// Offset of its start tag in the cleaned buffer (0 for the page itself, block 0).
    pub start: u32,
    /// Characters of its own text (not of nested blocks).
    pub text_chars: u32,
    /// Of which inside links.
    pub link_chars: u32,
    /// Links (`a` with `href`) whose innermost block it is.
    pub links: u32,
    /// Images whose innermost block it is (always 0: see the module doc).
    pub images: u32,
    /// Its own text, entities decoded, pieces separated by spaces at element boundaries;
    /// filled only by [`page_blocks`] (training), empty when extracting.
    pub text: String,
}

/// Page totals of the block measures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageTotals {
    pub text_chars: u64,
    pub link_chars: u64,
    pub links: u64,
    pub images: u64,
}

impl PageTotals {
    fn of(blocks: &[SvmBlock]) -> PageTotals {
        let mut t = PageTotals::default();
        for b in blocks {
            t.text_chars += u64::from(b.text_chars);
            t.link_chars += u64::from(b.link_chars);
            t.links += u64::from(b.links);
            t.images += u64::from(b.images);
        }
        t
    }
}

/// R1..R5 of `block` on a page with `totals`.
pub fn features(block: &SvmBlock, totals: &PageTotals) -> [f64; FEATURES] {
    let ratio = |a: u32, b: u64| f64::from(a) / (b as f64 + 1.0);
    [
        ratio(block.text_chars, totals.text_chars),
        ratio(block.link_chars, totals.link_chars),
        ratio(block.links, totals.links),
        ratio(block.images, totals.images),
        ratio(block.link_chars, u64::from(block.text_chars)),
    ]
}

/// Tracks the innermost block during a forward walk of a cleaned buffer. Block 0 is the page
/// itself; the others are numbered in start-tag order.
struct Walker {
    /// Per open element: whether it is a block.
    open: Vec<bool>,
    /// Open blocks, innermost last (block 0 is never popped).
    blocks: Vec<usize>,
    next: usize,
}

impl Walker {
    fn new() -> Walker {
        Walker {
            open: Vec::new(),
            blocks: vec![0],
            next: 1,
        }
    }

    /// A start tag: the number of the block it opens, if it opens one.
    fn start(&mut self, tag: Tag) -> Option<usize> {
        if tag.is_void() {
            return None;
        }
        let block = is_svm_block(tag);
        self.open.push(block);
        block.then(|| {
            let id = self.next;
            self.next += 1;
            self.blocks.push(id);
            id
        })
    }

    /// An end tag (a stray one closes nothing).
    fn end(&mut self) {
        if self.open.pop() == Some(true) && self.blocks.len() > 1 {
            self.blocks.pop();
        }
    }

    fn current(&self) -> usize {
        self.blocks.last().copied().unwrap_or(0)
    }
}

/// The blocks of a cleaned page in page order (block 0: the page itself), measured; with
/// `with_text`, their own text too. Texts starting at an offset in `removed` (sorted) are
/// not there (`template` removes its site's template texts so).
pub fn measure_blocks(cleaned: &Cleaned, with_text: bool, removed: &[u32]) -> Vec<SvmBlock> {
    let buf = &cleaned.buf[..];
    let runs = &cleaned.runs;
    let mut next_run = 0usize;
    let mut blocks = vec![SvmBlock::default()];
    let mut walker = Walker::new();
    let mut scratch = String::new();
    let separate = |blocks: &mut Vec<SvmBlock>, at: usize| {
        if let Some(b) = blocks.get_mut(at)
            && !b.text.is_empty()
            && !b.text.ends_with(' ')
        {
            b.text.push(' ');
        }
    };
    for tok in ForwardTokenizer::new(buf, 0) {
        match tok.kind {
            TokenKind::Text => {
                if removed.binary_search(&tok.start).is_ok() {
                    continue;
                }
                let Some(block) = blocks.get_mut(walker.current()) else {
                    continue;
                };
                if with_text {
                    let end = (tok.end as usize).min(buf.len());
                    scratch.clear();
                    append_decoded(
                        &mut scratch,
                        &String::from_utf8_lossy(&buf[tok.start as usize..end]),
                    );
                    block.text.push_str(&scratch);
                }
                // Non-blank text runs are the cleaner's runs, in buffer order.
                while next_run < runs.len() && runs[next_run].start < tok.start {
                    next_run += 1;
                }
                if let Some(run) = runs.get(next_run).filter(|r| r.start == tok.start) {
                    let chars = run.measure.chars;
                    block.text_chars = block.text_chars.saturating_add(chars);
                    if run.flags & IN_LINK != 0 {
                        block.link_chars = block.link_chars.saturating_add(chars);
                    }
                }
            }
            TokenKind::StartTag => {
                let info = parse_tag(buf, tok);
                if info.tag == Tag::A
                    && info.flags & F_HREF != 0
                    && let Some(block) = blocks.get_mut(walker.current())
                {
                    block.links = block.links.saturating_add(1);
                }
                if with_text && info.tag.is_block() {
                    separate(&mut blocks, walker.current());
                }
                if walker.start(info.tag).is_some() {
                    blocks.push(SvmBlock {
                        start: tok.start,
                        ..SvmBlock::default()
                    });
                }
            }
            TokenKind::EndTag => {
                let tag = parse_tag(buf, tok).tag;
                if with_text && tag.is_block() {
                    separate(&mut blocks, walker.current());
                }
                walker.end();
                if with_text && tag.is_block() {
                    separate(&mut blocks, walker.current());
                }
            }
        }
    }
    if with_text {
        for b in &mut blocks {
            let trimmed = b.text.trim_end().len();
            b.text.truncate(trimmed);
        }
    }
    blocks
}

/// A page's blocks with their own text and features, for training: `(block, R1..R5)`.
pub fn page_blocks(page: &Page) -> Vec<(SvmBlock, [f64; FEATURES])> {
    let blocks = measure_blocks(page.visible(), true, &[]);
    let totals = PageTotals::of(&blocks);
    blocks
        .into_iter()
        .map(|b| {
            let x = features(&b, &totals);
            (b, x)
        })
        .collect()
}

/// Seed 001's block classifier with a model.
pub struct Svm {
    model: Arc<SvmModel>,
}

impl Svm {
    /// The method with `options.svm_model`, or the shipped default model.
    pub fn new(options: &ExtractOptions) -> Svm {
        let model = match &options.svm_model {
            Some(m) => m.clone(),
            None => Arc::new(Svm::default_model()),
        };
        Svm { model }
    }

    /// The shipped model ([`DEFAULT_MODEL`]). Its bytes are checked by the tests; were they
    /// ever unreadable, the stand-in keeps every block (bias 1, no support vector) rather than
    /// fail a run.
    pub fn default_model() -> SvmModel {
        SvmModel::from_bytes(DEFAULT_MODEL).unwrap_or_else(|_| SvmModel {
            gamma: 1.0,
            bias: 1.0,
            support: Vec::new(),
            digest: 0,
        })
    }

    /// The model the method applies.
    pub fn model(&self) -> &SvmModel {
        &self.model
    }

    /// Which blocks of `blocks` are content.
    fn keep(&self, blocks: &[SvmBlock]) -> Vec<bool> {
        let totals = PageTotals::of(blocks);
        blocks
            .iter()
            .map(|b| b.text_chars > 0 && self.model.decision(&features(b, &totals)) > 0.0)
            .collect()
    }
}

impl Extractor for Svm {
    fn name(&self) -> &'static str {
        "svm"
    }

    /// The model's digest: `svm` reads no other option.
    fn options_key(&self) -> String {
        format!("svm_model={:016x}", self.model.digest())
    }

    fn extract(&self, page: &Page, _site: &SiteContext) -> Extraction {
        self.extract_without(page, &[])
    }
}

impl Svm {
    /// The blocks the model calls content, in page order, with the texts starting at an
    /// offset in `removed` (sorted) taken out of the page first.
    pub fn extract_without(&self, page: &Page, removed: &[u32]) -> Extraction {
        let cleaned = page.visible();
        let keep = self.keep(&measure_blocks(cleaned, false, removed));
        let buf = &cleaned.buf[..];
        let mut walker = Walker::new();
        let mut sink = TextSink::default();
        for tok in ForwardTokenizer::new(buf, 0) {
            match tok.kind {
                TokenKind::Text => {
                    if keep.get(walker.current()).copied().unwrap_or(false)
                        && removed.binary_search(&tok.start).is_err()
                    {
                        let end = (tok.end as usize).min(buf.len());
                        sink.push_raw(&buf[tok.start as usize..end]);
                    }
                }
                TokenKind::StartTag => {
                    let tag = parse_tag(buf, tok).tag;
                    walker.start(tag);
                    if tag.is_block() {
                        sink.open_block(tag);
                    }
                }
                TokenKind::EndTag => {
                    let tag = parse_tag(buf, tok).tag;
                    walker.end();
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

    const NAV_AND_ARTICLE: &str = "<html><body>\
        <div class=nav><a href=/a>Home</a> <a href=/b>World news</a> <a href=/c>Sport</a></div>\
        <div class=article><h1>Rain in Spain</h1>\
        <p>The rain in Spain stays mainly in the plain, said the report on Monday.</p>\
        <p>Farmers welcomed the <a href=/w>weather</a> after a dry spring.</p></div>\
        </body></html>";

    fn block_with<'a>(
        blocks: &'a [(SvmBlock, [f64; FEATURES])],
        text: &str,
    ) -> &'a (SvmBlock, [f64; FEATURES]) {
        blocks
            .iter()
            .find(|(b, _)| b.text.contains(text))
            .unwrap_or_else(|| panic!("no block holds {text:?}: {blocks:?}"))
    }

    #[test]
    fn features_of_a_nav_div_and_an_article_div() {
        let page = Page::new(NAV_AND_ARTICLE, None);
        let blocks = page_blocks(&page);
        // The page, body, nav div, article div.
        assert_eq!(blocks.len(), 4, "{blocks:?}");
        let (nav, xn) = block_with(&blocks, "Home");
        let (article, xa) = block_with(&blocks, "Rain in Spain");
        assert_eq!(nav.text, "Home World news Sport");
        assert!(!article.text.contains("Home"), "{}", article.text);
        assert!(article.text.contains("after a dry spring"));
        // Nested blocks' text is not counted in the body.
        let body = &blocks[1].0;
        assert_eq!(body.text_chars, 0, "{body:?}");
        assert_eq!((nav.links, article.links), (3, 1));
        assert_eq!(nav.link_chars, nav.text_chars);
        let page_chars = f64::from(nav.text_chars + article.text_chars);
        let page_link_chars = f64::from(nav.link_chars + article.link_chars);
        assert_eq!(xn[0], f64::from(nav.text_chars) / (page_chars + 1.0));
        assert_eq!(xa[0], f64::from(article.text_chars) / (page_chars + 1.0));
        assert_eq!(xn[1], f64::from(nav.link_chars) / (page_link_chars + 1.0));
        assert_eq!((xn[2], xa[2]), (3.0 / 5.0, 1.0 / 5.0));
        assert_eq!((xn[3], xa[3]), (0.0, 0.0));
        // R5, link density: high for the nav, low for the article.
        assert!(xn[4] > 0.9, "{xn:?}");
        assert!(xa[4] < 0.1, "{xa:?}");
        assert!(xa[0] > 0.7 && xn[0] < 0.2, "{xa:?} {xn:?}");
    }

    #[test]
    fn sections_and_text_outside_blocks() {
        let html = "<p>Loose words before any block.</p><section><p>Section words.</p>\
                    <div>Inner words.</div> tail of the section</section>";
        let page = Page::new(html, None);
        let blocks = page_blocks(&page);
        let texts: Vec<&str> = blocks.iter().map(|(b, _)| b.text.as_str()).collect();
        // The cleaner may wrap the page in a body; the loose words belong to the outermost
        // block, the section's own text excludes its div.
        assert!(texts.iter().any(|t| t.contains("Loose words")), "{texts:?}");
        let section = texts.iter().find(|t| t.contains("Section words")).unwrap();
        assert!(section.contains("tail of the section") && !section.contains("Inner"));
        assert!(texts.contains(&"Inner words."), "{texts:?}");
    }

    /// A small valid model.
    fn link_model() -> SvmModel {
        SvmModel::new(20.0, 0.5, vec![(-1.0, [0.0, 0.0, 0.0, 0.0, 1.0])]).unwrap()
    }

    #[test]
    fn extraction_keeps_the_blocks_the_model_calls_content_in_page_order() {
        // One negative support vector at the nav's features: the nav goes, the article
        // (far from it) stays.
        let blocks = page_blocks(&Page::new(NAV_AND_ARTICLE, None));
        let (_, nav) = block_with(&blocks, "Home");
        let model = SvmModel::new(20.0, 0.5, vec![(-1.0, nav.map(|v| v as f32))]).unwrap();
        let options = ExtractOptions {
            svm_model: Some(Arc::new(model)),
            ..ExtractOptions::default()
        };
        let svm = Svm::new(&options);
        let out = svm.extract_html(NAV_AND_ARTICLE);
        assert_eq!(
            out.text(),
            "Rain in Spain\nThe rain in Spain stays mainly in the plain, said the report on Monday.\n\
             Farmers welcomed the weather after a dry spring."
        );
        let page = Page::new(NAV_AND_ARTICLE, None);
        assert_eq!(out.stats, ExtractStats::whole_page(&page));
    }

    #[test]
    fn model_bytes_round_trip_and_bad_bytes_are_refused() {
        let model = link_model();
        let bytes = model.to_bytes();
        let back = SvmModel::from_bytes(&bytes).unwrap();
        assert_eq!(back, model);
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.digest(), fnv1a(&bytes[..bytes.len() - 8]));

        assert_eq!(SvmModel::from_bytes(b"hello"), Err(ModelError::Magic));
        assert_eq!(SvmModel::from_bytes(b""), Err(ModelError::Magic));
        for cut in 5..bytes.len() {
            assert!(SvmModel::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(SvmModel::from_bytes(&longer), Err(ModelError::Trailing(1)));
        let mut flipped = bytes.clone();
        flipped[20] ^= 1;
        assert_eq!(SvmModel::from_bytes(&flipped), Err(ModelError::Checksum));
        let mut version = bytes.clone();
        version[5] = 9;
        assert_eq!(SvmModel::from_bytes(&version), Err(ModelError::Version(9)));
        let mut huge = bytes.clone();
        huge[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            SvmModel::from_bytes(&huge),
            Err(ModelError::TooLarge(_))
        ));
        assert!(SvmModel::new(f64::NAN, 0.0, Vec::new()).is_err());
        assert!(SvmModel::new(1.0, 0.0, vec![(f32::INFINITY, [0.0; FEATURES])]).is_err());
    }

    #[test]
    fn the_shipped_model_reads_and_its_digest_is_the_options_key() {
        let model = SvmModel::from_bytes(DEFAULT_MODEL).expect("models/svm.model reads");
        assert!(model.support_vectors() > 0);
        let svm = Svm::new(&ExtractOptions::default());
        assert_eq!(svm.model(), &model);
        let other = Svm::new(&ExtractOptions {
            svm_model: Some(Arc::new(link_model())),
            ..ExtractOptions::default()
        });
        assert_ne!(svm.options_key(), other.options_key());
        assert_eq!(
            svm.options_key(),
            format!("svm_model={:016x}", model.digest())
        );
    }

    #[test]
    fn only_the_methods_that_classify_with_it_read_the_model() {
        let with = ExtractOptions {
            svm_model: Some(Arc::new(link_model())),
            ..ExtractOptions::default()
        };
        for info in crate::methods::REGISTRY {
            let key = |o| info.build(o).options_key();
            // `template` is seed 001 whole: its template library, then this classifier.
            let reads = matches!(info.name, "svm" | "template");
            assert_eq!(
                key(&ExtractOptions::default()) != key(&with),
                reads,
                "{}",
                info.name
            );
        }
    }

    #[test]
    fn odd_pages_do_not_panic() {
        let svm = Svm::new(&ExtractOptions::default());
        for html in [
            "",
            "plain text",
            "</div></div><div>",
            "<div><div><div>deep",
            "<section></section>",
        ] {
            let _ = svm.extract_html(html);
        }
        let deep = "<div>".repeat(100_000) + "x";
        let _ = svm.extract_html(&deep);
    }
}
