//! outward-core, the extraction core: HTML text in, [`Extraction`] out. Pure: no I/O, no
//! threads, no printing, no globals beyond read-only tables. Its dependencies: `memchr` and
//! `jieba-rs` (`linenet`'s Chinese words, built only when Chinese text comes).
//!
//! A record's HTML is analysed once into a [`Page`]; every method sits behind [`Extractor`],
//! is found by name in the registry ([`methods::build`]) and reads the `Page` with the
//! [`SiteContext`] of its site. `outward run`, `extract`, `eval`, `bench` and the benches all
//! go through the registry. Layers: `html` (markup), `text` (text and titles), `site` (what repeats across a
//! host's pages), `methods`; beside them `meta` reads what a page says about itself (title,
//! description, author, dates, canonical URL, language) from its raw head.
//!
//! Invariants: never panics, never recurses on input depth, runs in time linear-ish in the
//! input; `stats.nodes_parsed <= stats.nodes_total` for partial methods.

mod favor;
pub mod html;
pub mod meta;
pub mod methods;
mod page;
pub mod site;
pub mod text;

pub use favor::Favor;
pub use meta::PageMeta;
pub use methods::{Fulltext, Paper, Reverse};
pub use page::{Page, host_of};
pub use site::{SiteContext, SiteContexts, SiteMemory, SiteMemoryBuilder};
pub use text::blocks::{Block, BlockKind, Blocks};
pub use text::render::Format;

/// Parameters shared by the methods.
#[derive(Debug, Clone)]
pub struct ExtractOptions {
    /// Sim threshold for widening the content root to its parent (paper: 0.8).
    pub similarity_threshold: f64,
    /// The model `svm` applies instead of its shipped one (`--model PATH`: read and parsed
    /// by the caller, so the core does no I/O). Only `svm` reads it.
    pub svm_model: Option<std::sync::Arc<methods::svm::SvmModel>>,
    /// The model `linenet` applies instead of its shipped one (`--model PATH`, read by the
    /// caller). Only `linenet` reads it.
    pub linenet_model: Option<std::sync::Arc<methods::linenet::LineNetModel>>,
    /// The model `reverse-stage` applies instead of its shipped one (`--model PATH`, read by
    /// the caller). Only `reverse-stage` reads it.
    pub stage_model: Option<std::sync::Arc<methods::stage::StageModel>>,
    /// The confidence model `reverse-stage` applies instead of its shipped one (leave one
    /// dataset out fits one per held-out set). Only `reverse-stage` reads it.
    pub confidence_model: Option<std::sync::Arc<methods::confidence::ConfidenceModel>>,
    /// A page's budget of child-pair evaluations for the tree similarity (`paper`'s climb):
    /// when it runs out the climb stops where it is and the extraction is marked
    /// [`ExtractStats::degraded`]. Bounds the work of a page of many wide, deep, similar
    /// sibling subtrees.
    pub max_comparisons: u64,
    /// `reverse`'s guards (`--without NAME` turns one off). Only `reverse` and
    /// `reverse-stage` read them.
    pub guards: methods::reverse::Guards,
    /// Which side of the precision/recall trade to lean to (`--favor`). Only
    /// `reverse-stage` reads it.
    pub favor: Favor,
}

/// [`ExtractOptions::max_comparisons`] unless set: about 0.2 s of comparisons at most, ten
/// times what the most demanding of the 4,866 dev pages asks (between 100k and 200k).
pub const DEFAULT_MAX_COMPARISONS: u64 = 2_000_000;

/// The revision of what the methods write. Bump it with every change that changes any
/// method's output on purpose (a new rule, a retrained shipped model): it enters every run's
/// config hash, so a run resumed by a newer build redoes its inputs instead of mixing the
/// old build's shards with the new one's (the tool's version alone does not change between
/// such commits). 1: issue #37's `teasers` guard and the stage model retrained with it;
/// 2: `reverse-stage`'s `extraction_confidence` in every document; 3: the cleaner ends a
/// script, a comment and a template's content where a browser does; 4: the confidence reads
/// five more signals (the page around the root) and its shipped model is refit with them;
/// 5: `--favor recall` adds the prose outside the root when the root holds less than it;
/// 6: the confidence is fitted to the F1's empirical log-odds, then calibrated (refit);
/// 7: an `<h1>` linking to the site's home page is the site's name: no headline, no title;
/// 8: `--favor precision` ends the text at a heading that opens the readers' comments;
/// 9: a heading of what follows the story ("Related posts", "Share this") ends the text;
/// 10: the confidence's shipped model refit on the pages as revision 9 extracts them.
pub const EXTRACTION_REVISION: u32 = 10;

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions {
            similarity_threshold: 0.8,
            svm_model: None,
            linenet_model: None,
            stage_model: None,
            confidence_model: None,
            max_comparisons: DEFAULT_MAX_COMPARISONS,
            guards: methods::reverse::Guards::ALL_ON,
            favor: Favor::Balanced,
        }
    }
}

/// The most [`ExtractStats::work`] a partial method spends per byte and node of the page's
/// visible buffer (`reverse`: at most five climbs, the parse and seven scoring passes), apart
/// from the tree comparisons; the fuzz targets and the dev-data test assert it.
pub const WORK_PER_UNIT: u64 = 8;

/// FNV-1a, 64 bits (fixed, the same on every platform): the checksum and digest of the
/// learned methods' models, the label hash of unknown tag names in the tree similarity, and
/// the host names a site store reader remembers.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Counters a method reports about the work it did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ExtractStats {
    /// Nodes (elements + text) built by the method's parse.
    pub nodes_parsed: u64,
    /// Nodes in the whole page (a cheap full tokenizer pass).
    pub nodes_total: u64,
    /// Bytes of input the parse tokenized.
    pub bytes_touched: u64,
    /// Bytes of the decoded page (its HTML as the method was given it).
    pub page_bytes: u64,
    /// Bytes of the decoded page the full reading touched ([`Page::bytes_read`]): today every
    /// byte, for every method, since the page's analysis (the cleaner's one pass) reads the
    /// whole page; issue #38 measured a windowed reading and found it costs more.
    pub bytes_parsed: u64,
    /// Template blocks or texts (site memory) the method took out of the page's text.
    pub template_removed: u32,
    /// Elements the learned stage (`reverse-stage`) took out of the content root.
    pub stage_pruned: u32,
    /// Child-pair evaluations of the tree similarity (`paper`).
    pub similarity_pairs: u64,
    /// The work of the extraction after the page's analysis, counted where it is done: bytes
    /// scanned by each climb and by the partial parse (summed over climbs, unlike
    /// `bytes_touched`), blocks scored by each scoring pass, nodes built and
    /// `similarity_pairs`; a method that reads the whole page once reports that pass (its
    /// bytes and nodes). Linear in the page (the fuzz targets assert it), but for the
    /// comparisons, which `ExtractOptions::max_comparisons` bounds.
    pub work: u64,
    /// A work budget ran out ([`ExtractOptions::max_comparisons`]): the result is what the
    /// method had when it stopped.
    pub degraded: bool,
    /// The F1 the method expects of this page's text, 0..1 (`reverse-stage`: see
    /// [`methods::confidence`]); `None` for methods that do not say.
    pub confidence: Option<f32>,
}

impl ExtractStats {
    /// The counters of a method reading `page` before it has done anything: the page's bytes
    /// and the bytes its analysis read; every other counter zero.
    pub fn of_page(page: &Page) -> ExtractStats {
        ExtractStats {
            page_bytes: page.html().len() as u64,
            bytes_parsed: page.bytes_read(),
            ..ExtractStats::default()
        }
    }

    /// A method that reads the whole page: every node parsed, every byte touched.
    pub fn whole_page(page: &Page) -> ExtractStats {
        let nodes = page.visible().nodes_total;
        ExtractStats {
            nodes_parsed: nodes,
            nodes_total: nodes,
            bytes_touched: page.html().len() as u64,
            work: page.visible().buf.len() as u64 + nodes,
            ..ExtractStats::of_page(page)
        }
    }
}

/// The result of extracting one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extraction {
    /// The main content in page order: lines of text (whitespace normalised, entities
    /// decoded), each with the kind of element it sits in. Rendered by `text::render`.
    pub blocks: Blocks,
    pub title: Option<String>,
    pub stats: ExtractStats,
    /// The site rule that chose the text (`cluster` with site memory: the rule of the page's
    /// cluster, `#id`, `tag.class` or a tag path); `None` when the page was judged alone.
    pub site_rule: Option<String>,
}

impl Extraction {
    /// The main content as plain text, one line per block.
    pub fn text(&self) -> &str {
        self.blocks.text()
    }

    /// The main content in `format`.
    pub fn render(&self, format: Format) -> String {
        text::render::render(&self.blocks, format)
    }
}

/// One extraction method. Found by name through [`methods::build`]; reads a [`Page`]
/// analysed once and what is known of its site.
pub trait Extractor: Send + Sync {
    /// The method's name in the registry: `--method NAME` and the documents' `extractor`.
    fn name(&self) -> &'static str;
    /// The options this method reads, as a stable string for a run's config hash ("" when it
    /// reads none): a setting the method ignores must not make a run reprocess its inputs.
    fn options_key(&self) -> String;
    /// Extracts the main content of `page`.
    fn extract(&self, page: &Page, site: &SiteContext) -> Extraction;
    /// Extracts the main content of a page known only by its HTML.
    fn extract_html(&self, html: &str) -> Extraction {
        self.extract(&Page::new(html, None), SiteContext::none())
    }
}
