//! Site memory: what repeats across the pages of one host (navigation, footers, sidebars,
//! "related" lists) is not main text (seeds 000, 001, 003). It is built from pages, holds
//! order-free aggregates only, and reaches the methods as a [`SiteContext`].
//!
//! - [`page_prints`]: a page's fingerprints (see [`fingerprint`]): its host, the hash of the
//!   whole cleaned page, and the distinct hashes of its removable text-holding elements.
//! - [`SiteMemoryBuilder`]: per host, how many distinct pages hold each fingerprint. A page
//!   whose whole-page hash was seen before on its host counts once (a crawl often holds the
//!   same page under several URLs; it must not make its own article "repeated"). Adding and
//!   [`SiteMemoryBuilder::merge`] commute: the memory is the same for any page order, any
//!   split of the pages between builders, any thread count.
//! - [`SiteMemory`]: per host with at least `min_pages` distinct pages, the fingerprints seen
//!   on at least `min_pages` of them, with their counts. [`SiteContexts`] is where methods'
//!   contexts come from: a memory, or a store read host by host (the pipeline's). The
//!   [`store::digest`] of a builder names its content (for config hashes).
//! - [`template_ranges`]: the outermost elements of a page that the memory marks as template.
//! - [`leaves`]: the leaf texts of the first [`leaves::BATCH_PAGES`] sample pages of a host,
//!   from which [`SiteMemory`] builds the host's seed 001 template library.
//!
//! Invariants: pure (no I/O, no clocks, no randomness); deterministic iteration everywhere
//! that decides output (sorted keys); a page whose host is unknown or has too few pages gets
//! an empty context and is judged alone.

pub mod fingerprint;
pub mod leaves;
pub mod rules;
pub mod store;

use crate::Page;
use crate::html::clean::Cleaned;
use fingerprint::{ElementPrint, element_prints};
use leaves::{BATCH_PAGES, LeafSet, TemplateLibrary, page_leaves};
use rules::{ClusterRule, SampleLayout, cluster_rules, page_layout, signature_similarity};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// Pages of a host that must hold a block for it to be template, and pages a host needs
/// before its memory is used (the prototype's and seed 001's N2 = 3).
pub const DEFAULT_MIN_PAGES: u32 = 3;

/// Pages per host whose whole fingerprint set is kept as a possible reference page for the
/// `layout` method (seed 000): those with the smallest page hashes, a sample that does not
/// depend on the order pages arrive in.
pub const MAX_SAMPLE_PAGES: usize = 32;

/// One page kept whole: its URL, its element fingerprints (sorted, distinct) and, for the
/// first [`BATCH_PAGES`] samples of a host (by page hash), its leaves (see [`leaves`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageSample {
    pub url: String,
    pub elements: Vec<u64>,
    pub leaves: LeafSet,
    /// Seed 003's layout of the page (see [`rules`]).
    pub layout: SampleLayout,
}

impl PageSample {
    /// Bytes the sample holds, about (its heap parts and their headers).
    pub fn heap_bytes(&self) -> usize {
        let rules: usize = self.layout.rules.iter().map(|(r, _)| r.len() + 32).sum();
        96 + self.url.len()
            + self.elements.len() * 8
            + self.leaves.heap_bytes()
            + self.layout.signature.len() * 4
            + rules
    }
}

/// A page's fingerprints, ready to add to a [`SiteMemoryBuilder`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagePrints {
    pub host: String,
    pub url: String,
    /// Hash of the whole cleaned page.
    pub page: u64,
    /// Distinct element fingerprints, sorted.
    pub elements: Vec<u64>,
    /// Distinct leaves, sorted (see [`leaves::page_leaves`]).
    pub leaves: LeafSet,
    /// Seed 003's layout (see [`rules`]).
    pub layout: SampleLayout,
}

/// The fingerprints of `page` as methods see it ([`Page::visible`]), with everything a sample
/// page may keep, or `None` when its URL has no host.
pub fn page_prints(page: &Page) -> Option<PagePrints> {
    page_prints_with(page, SampleNeeds::ALL)
}

/// What of a sample page a method reads beyond the element fingerprints: seed 001's leaf
/// texts, seed 003's layout. A run that learns its own site memory computes only what its
/// method reads (each costs about as much as the fingerprints); stores keep everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleNeeds {
    pub leaves: bool,
    pub layout: bool,
}

impl SampleNeeds {
    pub const ALL: SampleNeeds = SampleNeeds {
        leaves: true,
        layout: true,
    };

    /// What the method called `method` reads.
    pub fn of(method: &str) -> SampleNeeds {
        SampleNeeds {
            leaves: method == "template",
            layout: method == "cluster",
        }
    }

    /// Whether what `self` keeps is enough for a method reading `needs`.
    pub fn covers(self, needs: SampleNeeds) -> bool {
        (self.leaves || !needs.leaves) && (self.layout || !needs.layout)
    }

    /// What both keep.
    pub fn both(self, other: SampleNeeds) -> SampleNeeds {
        SampleNeeds {
            leaves: self.leaves && other.leaves,
            layout: self.layout && other.layout,
        }
    }
}

/// [`page_prints`], with only what `needs` asks for.
pub fn page_prints_with(page: &Page, needs: SampleNeeds) -> Option<PagePrints> {
    let host = page.host()?.to_string();
    let (prints, root) = element_prints(page.visible());
    let mut elements: Vec<u64> = prints.iter().map(|p| p.hash).collect();
    elements.sort_unstable();
    elements.dedup();
    Some(PagePrints {
        host,
        url: page.url().unwrap_or_default().to_string(),
        page: root,
        elements,
        leaves: if needs.leaves {
            page_leaves(page.visible())
        } else {
            LeafSet::default()
        },
        layout: if needs.layout {
            SampleLayout::of(&page_layout(page.visible()))
        } else {
            SampleLayout::default()
        },
    })
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct HostAccumulator {
    /// Whole-page hashes of the distinct pages seen (a store keeps a bounded sample).
    pages: HashSet<u64>,
    /// Pages counted whose hash a store no longer keeps (see `store`).
    untracked: u32,
    counts: HashMap<u64, u32>,
    /// Whole pages kept as references, by page hash (at most [`MAX_SAMPLE_PAGES`]).
    samples: BTreeMap<u64, PageSample>,
}

impl HostAccumulator {
    fn pages(&self) -> u32 {
        (self.pages.len() as u32).saturating_add(self.untracked)
    }

    /// Keeps `sample` if it ranks among the host's [`MAX_SAMPLE_PAGES`]; returns the change
    /// in the bytes the samples hold (see [`PageSample::heap_bytes`]).
    fn sample(&mut self, page: u64, sample: PageSample) -> isize {
        if self.samples.len() >= MAX_SAMPLE_PAGES
            && self
                .samples
                .last_key_value()
                .is_some_and(|(&k, _)| k < page)
        {
            return 0;
        }
        let mut delta = 0isize;
        // The same page under several URLs: the smallest URL, whatever order they came in.
        match self.samples.entry(page) {
            std::collections::btree_map::Entry::Vacant(e) => {
                delta += e.insert(sample).heap_bytes() as isize;
            }
            std::collections::btree_map::Entry::Occupied(mut e) => {
                if sample.url < e.get().url {
                    e.get_mut().url = sample.url;
                }
            }
        }
        while self.samples.len() > MAX_SAMPLE_PAGES {
            if let Some((_, gone)) = self.samples.pop_last() {
                delta -= gone.heap_bytes() as isize;
            }
        }
        // A sample ranked past the batch never comes back into it (only smaller page hashes
        // arrive before it, here or in a merge): its leaves are never read.
        for sample in self.samples.values_mut().skip(BATCH_PAGES) {
            delta -= sample.leaves.heap_bytes() as isize;
            sample.leaves = LeafSet::default();
        }
        delta
    }
}

/// Collects [`PagePrints`] into per-host counts; see the module header.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SiteMemoryBuilder {
    hosts: HashMap<String, HostAccumulator>,
}

/// Bytes a builder's hash sets and maps spend per entry, about (key, value, control byte,
/// load factor): what [`SiteMemoryBuilder::add_measured`] counts.
const SET_ENTRY_BYTES: isize = 20;
const MAP_ENTRY_BYTES: isize = 28;
/// Bytes a new host costs beyond its entries (its name, maps and sample tree).
const HOST_BYTES: isize = 256;

impl SiteMemoryBuilder {
    pub fn add(&mut self, prints: PagePrints) {
        self.add_measured(prints);
    }

    /// [`add`](Self::add), returning about how many bytes the builder grew by (negative when
    /// a sample gave way to a smaller one): what a caller bounding its memory adds up.
    pub fn add_measured(&mut self, prints: PagePrints) -> isize {
        let mut grown = 0isize;
        let host = match self.hosts.entry(prints.host) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                grown += HOST_BYTES + e.key().len() as isize;
                e.insert(HostAccumulator::default())
            }
        };
        if !host.pages.insert(prints.page) {
            if let Some(kept) = host.samples.get_mut(&prints.page)
                && prints.url < kept.url
            {
                kept.url = prints.url;
            }
            return grown;
        }
        grown += SET_ENTRY_BYTES;
        let before = host.counts.len();
        for &h in &prints.elements {
            let count = host.counts.entry(h).or_insert(0);
            *count = count.saturating_add(1);
        }
        grown += (host.counts.len() - before) as isize * MAP_ENTRY_BYTES;
        grown
            + host.sample(
                prints.page,
                PageSample {
                    url: prints.url,
                    elements: prints.elements,
                    leaves: prints.leaves,
                    layout: prints.layout,
                },
            )
    }

    /// Adds everything `other` collected. Exact when the two saw different pages (the way
    /// a run splits its inputs), and when a page both saw is a sample of either (every page
    /// of a host of at most [`MAX_SAMPLE_PAGES`] is): its blocks are counted once. Another
    /// page both saw counts twice, capped at the host's distinct pages. Commutes with
    /// [`add`](Self::add) and itself.
    pub fn merge(&mut self, other: SiteMemoryBuilder) {
        for (name, acc) in other.hosts {
            let host = self.hosts.entry(name).or_default();
            // Blocks of the pages counted on both sides, once per such page.
            let mut twice: HashMap<u64, u32> = HashMap::new();
            for page in acc.pages.iter().filter(|p| host.pages.contains(p)) {
                if let Some(sample) = host.samples.get(page).or_else(|| acc.samples.get(page)) {
                    for &h in &sample.elements {
                        *twice.entry(h).or_insert(0) += 1;
                    }
                }
            }
            host.pages.extend(acc.pages);
            host.untracked = host.untracked.saturating_add(acc.untracked);
            let cap = host.pages();
            for (h, c) in acc.counts {
                let e = host.counts.entry(h).or_insert(0);
                let again = twice.get(&h).copied().unwrap_or(0);
                *e = e.saturating_add(c).saturating_sub(again).min(cap);
            }
            for (page, sample) in acc.samples {
                let _ = host.sample(page, sample);
            }
        }
    }

    /// Forgets what of the sample pages `needs` does not ask for: the memory of a method
    /// (see [`SampleNeeds::of`]) is then the same whether it came from a store or from pages
    /// fingerprinted for that method alone.
    pub fn keep_only(&mut self, needs: SampleNeeds) {
        for host in self.hosts.values_mut() {
            for sample in host.samples.values_mut() {
                if !needs.leaves {
                    sample.leaves = LeafSet::default();
                }
                if !needs.layout {
                    sample.layout = SampleLayout::default();
                }
            }
        }
    }

    /// Forgets what no memory of `min_pages` or more pages per host reads (see
    /// [`finish`](Self::finish)): hosts of fewer pages, blocks held by fewer pages, and the
    /// page hashes (their number stays, as untracked pages). `finish` with any `min_pages`
    /// at least this gives the same memory as before; merging more pages in is no longer
    /// exact (a final store).
    pub fn keep_final(&mut self, min_pages: u32) {
        self.hosts.retain(|_, host| host.pages() >= min_pages);
        for host in self.hosts.values_mut() {
            host.untracked = host.pages();
            host.pages = HashSet::new();
            host.counts.retain(|_, &mut count| count >= min_pages);
        }
    }

    /// Pages added (distinct per host).
    pub fn pages(&self) -> u64 {
        self.hosts.values().map(|h| h.pages() as u64).sum()
    }

    /// Hosts seen.
    pub fn hosts(&self) -> usize {
        self.hosts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty()
    }

    /// The memory: hosts with at least `min_pages` distinct pages, and their fingerprints
    /// seen on at least `min_pages` pages.
    pub fn finish(self, min_pages: u32) -> SiteMemory {
        let min_pages = min_pages.max(2);
        let mut hosts = HashMap::new();
        for (name, acc) in self.hosts {
            let pages = acc.pages();
            if pages < min_pages {
                continue;
            }
            let counts: HashMap<u64, u32> = acc
                .counts
                .into_iter()
                .filter(|&(_, c)| c >= min_pages)
                .collect();
            let samples: Vec<(u64, PageSample)> = acc.samples.into_iter().collect();
            let batch: Vec<&LeafSet> = samples
                .iter()
                .take(BATCH_PAGES)
                .map(|(_, s)| &s.leaves)
                .collect();
            let library = TemplateLibrary::build(&batch);
            let clusters = cluster_rules(samples.iter().map(|(_, s)| &s.layout));
            hosts.insert(
                name,
                Arc::new(HostMemory {
                    pages,
                    counts,
                    samples,
                    library,
                    clusters,
                }),
            );
        }
        SiteMemory { hosts, min_pages }
    }
}

/// What site memory knows of one host.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct HostMemory {
    /// Distinct pages seen.
    pub pages: u32,
    /// Fingerprint → distinct pages holding it (only those at or over the threshold).
    pub counts: HashMap<u64, u32>,
    /// Reference pages (page hash, sample), sorted by page hash.
    pub samples: Vec<(u64, PageSample)>,
    /// Seed 001's template leaves, from the first [`BATCH_PAGES`] samples.
    pub library: TemplateLibrary,
    /// Seed 003's clusters of the samples and their rules.
    pub clusters: Vec<ClusterRule>,
}

/// Site memory for many hosts; see the module header.
#[derive(Debug, Default)]
pub struct SiteMemory {
    hosts: HashMap<String, Arc<HostMemory>>,
    min_pages: u32,
}

impl SiteMemory {
    /// The context of a page of `host`.
    pub fn context(&self, host: Option<&str>) -> SiteContext {
        SiteContext {
            host: host.and_then(|h| self.hosts.get(h)).cloned(),
            min_pages: self.min_pages,
        }
    }

    /// Hosts remembered.
    pub fn hosts(&self) -> usize {
        self.hosts.len()
    }

    /// Pages of the remembered hosts.
    pub fn pages(&self) -> u64 {
        self.hosts.values().map(|h| h.pages as u64).sum()
    }

    /// Template fingerprints remembered over all hosts.
    pub fn fingerprints(&self) -> u64 {
        self.hosts.values().map(|h| h.counts.len() as u64).sum()
    }
}

/// Where the site contexts of a run's pages come from: a [`SiteMemory`] held whole, or a
/// store read host by host. Whichever it is, the same host gets the same context.
pub trait SiteContexts: Sync {
    /// The context of a page of `host` (empty for an unknown host or none).
    fn context(&self, host: Option<&str>) -> SiteContext;
}

impl SiteContexts for SiteMemory {
    fn context(&self, host: Option<&str>) -> SiteContext {
        SiteMemory::context(self, host)
    }
}

/// What is known about a page's site beyond the page itself: what repeats across its pages.
/// Methods receive it beside the [`Page`]; an empty context (no memory, or a host with too
/// few pages) makes a method judge the page alone.
#[derive(Debug, Clone, Default)]
pub struct SiteContext {
    host: Option<Arc<HostMemory>>,
    min_pages: u32,
}

impl SiteContext {
    /// The context of a page whose site is unknown.
    pub fn none() -> &'static SiteContext {
        static NONE: SiteContext = SiteContext {
            host: None,
            min_pages: DEFAULT_MIN_PAGES,
        };
        &NONE
    }

    /// Whether the memory knows this page's host (it had enough pages).
    pub fn is_empty(&self) -> bool {
        self.host.is_none()
    }

    /// Distinct pages of the host holding an element with this fingerprint (0 when the
    /// memory does not know it).
    pub fn pages_holding(&self, hash: u64) -> u32 {
        self.host
            .as_ref()
            .and_then(|h| h.counts.get(&hash).copied())
            .unwrap_or(0)
    }

    /// The reference page for the page at `url` whose page hash is `page` (seed 000): the
    /// remembered page of the host whose URL is most similar ([`url_similarity`]) without
    /// being the page itself, preferring similarity below 1 (another page of the same
    /// section) to 1 (the same address, other content); ties go to the smaller page hash.
    pub fn reference_for(&self, url: &str, page: u64) -> Option<&PageSample> {
        let host = self.host.as_ref()?;
        let mut best: Option<(f64, &PageSample)> = None;
        for (hash, sample) in &host.samples {
            if *hash == page {
                continue;
            }
            let sim = url_similarity(url, &sample.url);
            // Below 1 beats 1; among those, higher wins.
            let rank = if sim < 1.0 { sim } else { -1.0 };
            if best.is_none_or(|(r, _)| rank > r) {
                best = Some((rank, sample));
            }
        }
        best.map(|(_, s)| s)
    }

    /// The host's seed 001 template library (`None` without memory of the host).
    pub fn template_library(&self) -> Option<&TemplateLibrary> {
        self.host.as_ref().map(|h| &h.library)
    }

    /// Seed 003: the rule of the host's cluster most similar to a page with this tag-path
    /// signature (at least [`rules::CLUSTER_SIMILARITY`]), if any.
    pub fn cluster_rule(&self, signature: &[u32]) -> Option<&ClusterRule> {
        let host = self.host.as_ref()?;
        let mut best: Option<(f64, &ClusterRule)> = None;
        for c in &host.clusters {
            let sim = signature_similarity(&c.signature, signature);
            if sim >= rules::CLUSTER_SIMILARITY && best.is_none_or(|(s, _)| sim > s) {
                best = Some((sim, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// Distinct pages seen of the host.
    pub fn host_pages(&self) -> u32 {
        self.host.as_ref().map_or(0, |h| h.pages)
    }
}

/// Seed 000's URL similarity: cl / max(la, lb), where a URL's parts are its path segments
/// then its query's `key=value` pairs, and cl counts the equal leading parts. 1 for the
/// same parts; 0 when the first part differs or either has none.
pub fn url_similarity(a: &str, b: &str) -> f64 {
    fn parts(url: &str) -> Vec<&str> {
        let rest = url.find("://").map_or(url, |i| &url[i + 3..]);
        let path_and_query = rest.find('/').map_or("", |i| &rest[i..]);
        let path_and_query = path_and_query.split('#').next().unwrap_or("");
        let (path, query) = path_and_query
            .split_once('?')
            .unwrap_or((path_and_query, ""));
        path.split('/')
            .filter(|s| !s.is_empty())
            .chain(query.split('&').filter(|s| !s.is_empty()))
            .collect()
    }
    let (pa, pb) = (parts(a), parts(b));
    let longest = pa.len().max(pb.len());
    if longest == 0 {
        return if a == b { 1.0 } else { 0.0 };
    }
    let common = pa.iter().zip(&pb).take_while(|(x, y)| x == y).count();
    common as f64 / longest as f64
}

/// Text outside links above which an element is prose (about 20 words; a menu, a label or a
/// copyright line weighs less).
pub const PROSE_WEIGHT: u32 = 100;
/// Share of its host's pages a prose element must be on to be template: site-wide prose
/// (a disclaimer, a newsletter blurb) is; prose shared by a few pages is more often shared
/// content (a syndicated paragraph, a product description, a quote).
pub const PROSE_HOST_SHARE: f64 = 0.5;
/// Seed 001's template rule, N2 = 3 of N1 = 10 pages: an element is template when it is on
/// at least `min_pages` (N2) of every `TEMPLATE_WINDOW` (N1) pages of its host, so on a host
/// of 40 pages a label on 3 of them is not, one on 10 is. Without it, a host of many pages
/// made every short text that 3 of its pages share template: the 57 test pages of
/// readability's placeholder host lost a shared heading and a short paragraph of their
/// articles (that set's F1 −0.005 with site memory; with it, no dev set is lower).
pub const TEMPLATE_WINDOW: u32 = 10;
/// An element holding more than this share of its page's text is never template (the same
/// article under several URLs of one host is still the article).
pub const MAX_PAGE_SHARE: f64 = 0.6;

/// The outermost elements of `cleaned` that the site memory marks as template, as sorted,
/// disjoint byte ranges: elements seen on at least `min_pages` of every [`TEMPLATE_WINDOW`]
/// distinct pages of the host ([`template_pages`]; prose ones on at least
/// [`PROSE_HOST_SHARE`] of them), never one holding more than [`MAX_PAGE_SHARE`] of the
/// page's text.
pub fn template_ranges(cleaned: &Cleaned, site: &SiteContext) -> Vec<(u32, u32)> {
    if site.is_empty() {
        return Vec::new();
    }
    let (mut prints, _) = element_prints(cleaned);
    let max_weight = MAX_PAGE_SHARE * cleaned.text_weight as f64;
    let prose_pages = PROSE_HOST_SHARE * site.host_pages() as f64;
    let min_pages = template_pages(site.min_pages, site.host_pages());
    prints.retain(|p| {
        let pages = site.pages_holding(p.hash);
        (p.weight as f64) <= max_weight
            && pages >= min_pages
            && (p.plain <= PROSE_WEIGHT || pages as f64 >= prose_pages)
    });
    outermost(prints)
}

/// Pages of a host of `host_pages` that must hold an element for it to be template:
/// `min_pages` of every [`TEMPLATE_WINDOW`] pages (rounded up), at least `min_pages`, at most
/// [`TEMPLATE_WINDOW`].
pub fn template_pages(min_pages: u32, host_pages: u32) -> u32 {
    let per_window =
        (u64::from(min_pages) * u64::from(host_pages)).div_ceil(u64::from(TEMPLATE_WINDOW));
    min_pages.max(per_window.min(u64::from(TEMPLATE_WINDOW)) as u32)
}

/// The ranges of the elements not inside another one of `prints`, sorted.
pub(crate) fn outermost(mut prints: Vec<ElementPrint>) -> Vec<(u32, u32)> {
    // Outermost first among those starting at the same place; then skip what they hold.
    prints.sort_unstable_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for p in prints {
        if ranges.last().is_some_and(|&(_, end)| p.start < end) {
            continue;
        }
        ranges.push((p.start, p.end));
    }
    ranges
}

/// A site memory builder that has read `pages` (URL, HTML), for tests.
#[cfg(test)]
pub(crate) fn builder_of(pages: &[(String, String)]) -> SiteMemoryBuilder {
    let mut b = SiteMemoryBuilder::default();
    for (url, html) in pages {
        b.add(page_prints(&Page::new(html, Some(url))).unwrap());
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_html(article: &str, extra: &str) -> String {
        format!(
            "<html><body><div class=nav><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul></div>\
             <div id=main><h1>Title</h1><p>{article}</p></div>\
             <div class=related><p>Related: other stories you may like {extra}</p></div>\
             <div class=footer><p>Copyright the site, all rights reserved.</p></div></body></html>"
        )
    }

    fn site_pages() -> Vec<(String, String)> {
        (0..4)
            .map(|i| {
                (
                    format!("https://news.example/story/{i}"),
                    page_html(&format!("Story number {i} tells its own news."), "x"),
                )
            })
            .collect()
    }

    #[test]
    fn a_block_is_template_on_three_of_every_ten_pages_of_its_host() {
        assert_eq!(template_pages(3, 3), 3);
        assert_eq!(template_pages(3, 10), 3);
        assert_eq!(template_pages(3, 11), 4);
        assert_eq!(template_pages(3, 40), 10);
        assert_eq!(template_pages(3, 100_000), 10);
        assert_eq!(template_pages(5, 4), 5);
        // 40 pages of one host; a short label on 3 of them, a menu on 10.
        let pages: Vec<(String, String)> = (0..40)
            .map(|i| {
                let label = if i < 3 {
                    "<div class=x><b>Spring sale</b></div>"
                } else {
                    ""
                };
                let menu = if i < 10 {
                    "<div class=y><b>Gift cards here</b></div>"
                } else {
                    ""
                };
                (
                    format!("https://shop.example/item/{i}"),
                    format!(
                        "<html><body>{label}{menu}<div id=main><p>Item {i} is a sturdy \
                         thing, and this is the text that tells you why it is.</p></div>\
                         </body></html>"
                    ),
                )
            })
            .collect();
        let memory = builder_of(&pages).finish(3);
        let (url, html) = &pages[0];
        let page = Page::new(html, Some(url));
        let site = memory.context(page.host());
        let buf = &page.visible().buf;
        let texts: Vec<String> = template_ranges(page.visible(), &site)
            .iter()
            .map(|&(s, e)| String::from_utf8_lossy(&buf[s as usize..e as usize]).into_owned())
            .collect();
        assert!(texts.iter().any(|t| t.contains("Gift cards")), "{texts:?}");
        assert!(
            !texts.iter().any(|t| t.contains("Spring sale")),
            "{texts:?}"
        );
    }

    /// A final store's memory: the host of two pages and the blocks on fewer than 3 pages
    /// are gone, and every memory of 3 pages or more judges pages as before.
    #[test]
    fn keep_final_forgets_only_what_larger_memories_do_not_read() {
        let mut pages = site_pages();
        pages.extend((0..2).map(|i| {
            (
                format!("https://small.example/{i}"),
                page_html(&format!("Small site story {i}."), "y"),
            )
        }));
        // A block on two pages of news.example only.
        for (_, html) in pages.iter_mut().take(2) {
            *html = html.replace(
                "<div id=main>",
                "<div class=pair><p>Pair</p></div><div id=main>",
            );
        }
        let whole = builder_of(&pages);
        let mut kept = whole.clone();
        kept.keep_final(3);
        assert_eq!((whole.hosts(), kept.hosts()), (2, 1));
        assert_eq!(kept.pages(), 4);
        let host = &kept.hosts["news.example"];
        assert!(host.pages.is_empty());
        assert!(host.counts.values().all(|&c| c >= 3), "{:?}", host.counts);
        assert!(whole.hosts["news.example"].counts.values().any(|&c| c == 2));
        for min_pages in [3, 4, 5] {
            let (before, after) = (
                whole.clone().finish(min_pages),
                kept.clone().finish(min_pages),
            );
            assert_eq!(before.hosts(), after.hosts());
            assert_eq!(before.fingerprints(), after.fingerprints());
            for (url, html) in &pages {
                let page = Page::new(html, Some(url));
                assert_eq!(
                    template_ranges(page.visible(), &before.context(page.host())),
                    template_ranges(page.visible(), &after.context(page.host())),
                    "{url} {min_pages}"
                );
                assert_eq!(
                    before.context(page.host()).host_pages(),
                    after.context(page.host()).host_pages()
                );
            }
        }
    }

    #[test]
    fn repeated_blocks_are_template_and_articles_are_not() {
        let memory = builder_of(&site_pages()).finish(3);
        assert_eq!(memory.hosts(), 1);
        let html = page_html("A fifth story nobody saw before.", "x");
        let page = Page::new(&html, Some("https://news.example/story/5"));
        let site = memory.context(page.host());
        let ranges = template_ranges(page.visible(), &site);
        let buf = &page.visible().buf;
        let texts: Vec<String> = ranges
            .iter()
            .map(|&(s, e)| String::from_utf8_lossy(&buf[s as usize..e as usize]).into_owned())
            .collect();
        // The menu, the section heading every page repeats, the related box, the footer.
        assert_eq!(texts.len(), 4, "{texts:#?}");
        assert!(texts[0].contains("class=\"nav\""), "{texts:#?}");
        assert_eq!(texts[1], "<h1>Title</h1>");
        assert!(texts[2].contains("class=\"related\""), "{texts:#?}");
        assert!(texts[3].contains("class=\"footer\""), "{texts:#?}");
        assert!(texts.iter().all(|t| !t.contains("fifth story")));
        // Another host, or no host, knows nothing.
        assert!(memory.context(Some("other.example")).is_empty());
        assert!(template_ranges(page.visible(), SiteContext::none()).is_empty());
    }

    #[test]
    fn the_same_page_under_several_urls_counts_once() {
        let html = page_html("One story, three addresses.", "x");
        let pages: Vec<(String, String)> = ["a", "b", "c", "d"]
            .iter()
            .map(|u| (format!("https://news.example/{u}"), html.clone()))
            .collect();
        let memory = builder_of(&pages).finish(3);
        assert_eq!(memory.hosts(), 0, "one distinct page is not a site");
        // Which of its URLs a kept page carries does not depend on the order either.
        let mut site = site_pages();
        site.push(("https://news.example/zz".into(), pages[0].1.clone()));
        site.push(("https://news.example/aa".into(), pages[0].1.clone()));
        let forward = builder_of(&site);
        site.reverse();
        let backward = builder_of(&site);
        assert_eq!(forward, backward);
        assert_eq!(
            store::digest(&forward, SampleNeeds::ALL),
            store::digest(&backward, SampleNeeds::ALL)
        );
        let mut left = builder_of(&site[..2]);
        left.merge(builder_of(&site[2..]));
        assert_eq!(left, forward);
    }

    #[test]
    fn order_and_split_do_not_change_the_memory() {
        let pages = site_pages();
        let whole = builder_of(&pages);
        let mut reversed = pages.clone();
        reversed.reverse();
        let backwards = builder_of(&reversed);
        let mut merged = builder_of(&pages[..2]);
        merged.merge(builder_of(&pages[2..]));
        assert_eq!(whole, backwards);
        assert_eq!(whole, merged);
        assert_eq!(
            store::digest(&whole, SampleNeeds::ALL),
            store::digest(&merged, SampleNeeds::ALL)
        );
        assert_ne!(
            store::digest(&whole, SampleNeeds::ALL),
            store::digest(&builder_of(&pages[..3]), SampleNeeds::ALL)
        );
    }

    #[test]
    fn an_element_holding_most_of_the_page_is_never_template() {
        // Three near-empty pages and one with the same long block: the block repeats but
        // it is this page's text.
        let long = "A long paragraph that is the page. ".repeat(30);
        let pages: Vec<(String, String)> = (0..3)
            .map(|i| {
                (
                    format!("https://s.example/{i}"),
                    format!("<body><p>Page {i}</p><div class=box><p>{long}</p></div></body>"),
                )
            })
            .collect();
        let memory = builder_of(&pages).finish(3);
        let html = format!("<body><p>Page 9</p><div class=box><p>{long}</p></div></body>");
        let page = Page::new(&html, Some("https://s.example/9"));
        let site = memory.context(page.host());
        assert!(template_ranges(page.visible(), &site).is_empty());
        // Beside a longer article of its own, the same block is the site's.
        let article = "Words of this page alone, and many of them. ".repeat(90);
        let html = format!("<body><p>{article}</p><div class=box><p>{long}</p></div></body>");
        let page = Page::new(&html, Some("https://s.example/10"));
        assert_eq!(template_ranges(page.visible(), &site).len(), 1);
    }
}
