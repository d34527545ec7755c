//! Seed 003's page layout (2017; only sections 5-7 of the paper survive): the tag paths a
//! page is built of, which cluster pages of one template, and the score of every block,
//! whose best rule per cluster is applied to all its pages.
//!
//! Per block b (a block-level or unknown element holding text; see
//! `fingerprint::is_removable`), with T the page's text outside links, lN its links:
//! - p1 = ptext = Tb / T (b's text outside links, as a share of the page's);
//! - p2 = 1 − plink = 1 − lNb / lN (the share of the page's links b does *not* hold);
//! - p3 = ptextl = Tb / lTb (b's text outside links over all of b's text).
//!
//! The paper combines them "weighted by size(b), through α = 0.3"; its formula is lost. Ours:
//!
//! ```text
//! H(b) = p1 · p2 · p3 · size(b)^(−α),   α = 0.3,   size(b) = 1 + elements inside b
//! ```
//!
//! The product is high only for a block that holds most of the page's prose, few of its
//! links and little link text: the page (`body`) holds every link (p2 = 0), a single
//! paragraph a small p1, a menu a small p3. The size term breaks the near-ties between an
//! article and the wrappers around it in favour of the tightest one (a wrapper with twice the
//! elements needs 2^0.3 ≈ 1.23 times the product), without letting a lone paragraph beat the
//! article (p1 decides that).
//!
//! A block's rule is its most specific name, by the paper's priority: `#id` if it has an id,
//! else `tag.class` if it has a class, else its tag path `/html/body/div/…`.
//!
//! Pages are clustered by their sets of tag paths, compared through a 64-slot MinHash
//! signature ([`SIGNATURE_SLOTS`]; the share of equal slots estimates the Jaccard similarity
//! of the two sets, standard error ≤ 0.07), so a host keeps 256 bytes per sample page, not its
//! path set.
//!
//! Invariants: one forward pass, no recursion (an explicit stack), O(buffer + elements ×
//! slots); fixed hashes (no per-process seed), so signatures stored yesterday still compare
//! today; never panics on any buffer.

use crate::html::clean::{Cleaned, IN_LINK};
use crate::html::tokenize::forward::ForwardTokenizer;
use crate::html::tokenize::{TokenKind, attribute, parse_tag};
use crate::html::tree::F_HREF;
use crate::site::fingerprint::is_removable;

/// The size weight of H(b) (the paper's α).
pub const ALPHA: f64 = 0.3;
/// Slots of a page's MinHash signature.
pub const SIGNATURE_SLOTS: usize = 64;
/// Rules a sample page keeps for its cluster's vote (its best-scored ones).
pub const RULES_PER_PAGE: usize = 8;
/// Estimated Jaccard similarity of tag-path sets at which two pages share a template.
pub const CLUSTER_SIMILARITY: f64 = 0.5;

/// What a sample page keeps of its layout for its host's clusters: its signature and its
/// best rules with their scores in millionths (integers: the memory compares and digests
/// exactly). Empty when not computed (a run whose method does not read it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SampleLayout {
    pub signature: Vec<u32>,
    pub rules: Vec<(String, u32)>,
}

impl SampleLayout {
    /// The sample of `layout`.
    pub fn of(layout: &PageLayout) -> SampleLayout {
        SampleLayout {
            signature: layout.signature.clone(),
            rules: layout
                .best_rules()
                .into_iter()
                .map(|(r, s)| (r, (s as f64 * 1e6).round() as u32))
                .collect(),
        }
    }
}

/// One cluster of a host's pages: the signature of its first page and the rule its pages
/// voted for (the highest summed score; ties to the smaller rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterRule {
    pub signature: Vec<u32>,
    pub rule: String,
    /// Sample pages in the cluster.
    pub pages: u32,
}

/// Clusters the sample pages (in the order given: page-hash order, so any build order gives
/// the same clusters): each page joins the most similar cluster's first page when at least
/// [`CLUSTER_SIMILARITY`], else starts a cluster. Pages without a layout are left out.
pub fn cluster_rules<'a>(samples: impl IntoIterator<Item = &'a SampleLayout>) -> Vec<ClusterRule> {
    let mut clusters: Vec<(Vec<u32>, std::collections::BTreeMap<&'a str, u64>, u32)> = Vec::new();
    for sample in samples {
        if sample.signature.is_empty() {
            continue;
        }
        let mut best: Option<(f64, usize)> = None;
        for (i, (signature, _, _)) in clusters.iter().enumerate() {
            let sim = signature_similarity(signature, &sample.signature);
            if sim >= CLUSTER_SIMILARITY && best.is_none_or(|(s, _)| sim > s) {
                best = Some((sim, i));
            }
        }
        let i = match best {
            Some((_, i)) => i,
            None => {
                clusters.push((sample.signature.clone(), Default::default(), 0));
                clusters.len() - 1
            }
        };
        let (_, votes, pages) = &mut clusters[i];
        *pages += 1;
        for (rule, score) in &sample.rules {
            *votes.entry(rule.as_str()).or_insert(0) += *score as u64;
        }
    }
    clusters
        .into_iter()
        .filter_map(|(signature, votes, pages)| {
            let (rule, _) = votes
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))?;
            Some(ClusterRule {
                signature,
                rule: rule.to_string(),
                pages,
            })
        })
        .collect()
}

/// One block of a page: where it is, its rule and its score H.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredBlock {
    pub start: u32,
    pub end: u32,
    pub rule: String,
    pub score: f64,
}

/// A page's layout: its tag-path signature and every block with its score, in end-tag order.
#[derive(Debug, Clone, PartialEq)]
pub struct PageLayout {
    pub signature: Vec<u32>,
    pub blocks: Vec<ScoredBlock>,
}

impl PageLayout {
    /// The distinct rules of the page with the best score each holds, best first (ties by
    /// rule), at most [`RULES_PER_PAGE`]: what a sample page gives its cluster's vote.
    pub fn best_rules(&self) -> Vec<(String, f32)> {
        let mut best: std::collections::BTreeMap<&str, f64> = std::collections::BTreeMap::new();
        for b in &self.blocks {
            if b.score > 0.0 {
                let e = best.entry(&b.rule).or_insert(0.0);
                *e = e.max(b.score);
            }
        }
        let mut rules: Vec<(String, f32)> = best
            .into_iter()
            .map(|(r, s)| (r.to_string(), s as f32))
            .collect();
        rules.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        rules.truncate(RULES_PER_PAGE);
        rules
    }

    /// The block `rule` names on this page: of those it matches, the best scored (the first
    /// in the page on a tie).
    pub fn block_for(&self, rule: &str) -> Option<&ScoredBlock> {
        self.blocks
            .iter()
            .filter(|b| b.rule == rule)
            .min_by(|a, b| b.score.total_cmp(&a.score).then(a.start.cmp(&b.start)))
    }

    /// The page's own best block.
    pub fn best_block(&self) -> Option<&ScoredBlock> {
        self.blocks
            .iter()
            .filter(|b| b.score > 0.0)
            .min_by(|a, b| b.score.total_cmp(&a.score).then(a.start.cmp(&b.start)))
    }
}

/// The estimated Jaccard similarity of the tag-path sets behind two signatures (0 when
/// either is empty or they differ in length).
pub fn signature_similarity(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() || a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).filter(|(x, y)| x == y).count() as f64 / a.len() as f64
}

struct Open {
    start: u32,
    removable: bool,
    rule: Option<String>,
    /// The tag path as text while it is short enough ([`MAX_PATH_BYTES`]).
    path: Option<String>,
    path_hash: u64,
    weight: u64,
    plain: u64,
    links: u64,
    size: u64,
}

fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Longest tag path kept as text; a deeper block's path rule names the path by its hash.
const MAX_PATH_BYTES: usize = 256;

fn path_hash(parent: u64, name: &[u8]) -> u64 {
    name.iter()
        .fold(mix(parent ^ 0x2F), |h, &b| mix(h ^ b as u64))
}

/// The layout of `cleaned` (see the module header).
pub fn page_layout(cleaned: &Cleaned) -> PageLayout {
    let buf = &cleaned.buf[..];
    let runs = &cleaned.runs;
    let mut next_run = 0usize;
    let mut stack: Vec<Open> = Vec::new();
    let mut paths: Vec<u64> = Vec::new();
    // (start, end, rule, plain, weight, links, size) of every candidate block.
    let mut found: Vec<(u32, u32, String, u64, u64, u64, u64)> = Vec::new();
    let (mut page_plain, mut page_links) = (0u64, 0u64);
    for tok in ForwardTokenizer::new(buf, 0) {
        match tok.kind {
            TokenKind::Text => {
                while next_run < runs.len() && runs[next_run].start < tok.start {
                    next_run += 1;
                }
                let Some(run) = runs.get(next_run).filter(|r| r.start == tok.start) else {
                    continue;
                };
                let w = run.measure.weight as u64;
                let plain = if run.flags & IN_LINK != 0 { 0 } else { w };
                page_plain += plain;
                if let Some(top) = stack.last_mut() {
                    top.weight += w;
                    top.plain += plain;
                }
            }
            TokenKind::StartTag => {
                let info = parse_tag(buf, tok);
                if info.tag.is_void() {
                    continue;
                }
                let bytes = &buf[tok.start as usize..(tok.end as usize).min(buf.len())];
                let name_at = info.name_start as usize;
                let name = &buf[name_at..name_at + info.name_len as usize];
                let parent_hash = stack.last().map_or(0, |o| o.path_hash);
                let hash = path_hash(parent_hash, name);
                let name = String::from_utf8_lossy(name);
                let path = match stack.last() {
                    None => Some(format!("/{name}")),
                    Some(o) => o
                        .path
                        .as_ref()
                        .filter(|p| p.len() + name.len() < MAX_PATH_BYTES)
                        .map(|p| format!("{p}/{name}")),
                };
                paths.push(hash);
                let removable = is_removable(info.tag);
                let rule = removable.then(|| {
                    if let Some(id) = attribute(bytes, b" id=\"") {
                        format!("#{}", String::from_utf8_lossy(id))
                    } else if let Some(class) = attribute(bytes, b" class=\"") {
                        format!("{name}.{}", String::from_utf8_lossy(class))
                    } else {
                        path.clone().unwrap_or_else(|| format!("/…{hash:016x}"))
                    }
                });
                let link = u64::from(info.flags & F_HREF != 0 && name == "a");
                page_links += link;
                stack.push(Open {
                    start: tok.start,
                    removable,
                    rule,
                    path,
                    path_hash: hash,
                    weight: 0,
                    plain: 0,
                    links: link,
                    size: 0,
                });
            }
            TokenKind::EndTag => {
                let Some(open) = stack.pop() else { continue };
                close(open, tok.end, &mut stack, &mut found);
            }
        }
    }
    while let Some(open) = stack.pop() {
        close(open, buf.len() as u32, &mut stack, &mut found);
    }
    paths.sort_unstable();
    paths.dedup();
    let blocks = found
        .into_iter()
        .map(|(start, end, rule, plain, weight, links, size)| {
            let p1 = plain as f64 / page_plain.max(1) as f64;
            let p2 = if page_links == 0 {
                1.0
            } else {
                1.0 - links as f64 / page_links as f64
            };
            let p3 = plain as f64 / weight.max(1) as f64;
            let score = p1 * p2 * p3 * ((1 + size) as f64).powf(-ALPHA);
            ScoredBlock {
                start,
                end,
                rule,
                score,
            }
        })
        .collect();
    PageLayout {
        signature: signature(&paths),
        blocks,
    }
}

#[allow(clippy::type_complexity)]
fn close(
    open: Open,
    end: u32,
    stack: &mut [Open],
    found: &mut Vec<(u32, u32, String, u64, u64, u64, u64)>,
) {
    if let Some(parent) = stack.last_mut() {
        parent.weight += open.weight;
        parent.plain += open.plain;
        parent.links += open.links;
        parent.size += open.size + 1;
    }
    if open.removable
        && open.weight > 0
        && let Some(rule) = open.rule
    {
        found.push((
            open.start,
            end,
            rule,
            open.plain,
            open.weight,
            open.links,
            open.size,
        ));
    }
}

/// The MinHash signature of a set of path hashes: per slot, the least of the hashes mixed
/// with the slot's seed (all `u32::MAX` for an empty set).
fn signature(paths: &[u64]) -> Vec<u32> {
    (0..SIGNATURE_SLOTS as u64)
        .map(|slot| {
            let seed = mix(slot.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            paths
                .iter()
                .map(|&h| (mix(h ^ seed) >> 32) as u32)
                .min()
                .unwrap_or(u32::MAX)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::clean::{CleanOptions, clean};

    fn layout(html: &str) -> PageLayout {
        page_layout(&clean(html.as_bytes(), CleanOptions::default()))
    }

    const ARTICLE: &str = "<p>The council met on Tuesday to vote on the harbour budget, and it passed.</p>\
        <p>Members argued for two hours about the new pier and the old lighthouse.</p>";

    #[test]
    fn the_article_scores_best_and_names_its_rule() {
        let page = format!(
            "<body><div id=nav><a href=/>Home</a> <a href=/n>News</a> <a href=/s>Sport</a></div>\
             <div class=wrap><div class=story>{ARTICLE}</div>\
             <div class=side><p>Weather: sunny.</p></div></div></body>"
        );
        let l = layout(&page);
        let best = l.best_block().unwrap();
        assert_eq!(best.rule, "div.story");
        // The wrapper holds the same prose and more: the size term prefers the story.
        let wrap = l.block_for("div.wrap").unwrap();
        assert!(wrap.score < best.score);
        // The menu holds every link: p2 = 0.
        assert_eq!(l.block_for("#nav").unwrap().score, 0.0);
        // A lone paragraph has a small share of the prose.
        assert!(l.block_for("/body/div/div/p").unwrap().score < best.score);
        assert_eq!(l.best_rules()[0].0, "div.story");
    }

    #[test]
    fn pages_of_one_template_have_close_signatures() {
        let page = |extra: &str| {
            format!(
                "<body><div id=nav><a href=/>Home</a></div><div class=story>{ARTICLE}{extra}</div>\
                 <div class=foot><p>Gazette</p></div></body>"
            )
        };
        let a = layout(&page(""));
        let b = layout(&page("<p>One more paragraph.</p>"));
        let other = layout(
            "<body><table><tr><td><span>Forum</span></td></tr></table><ul><li>x</li></ul></body>",
        );
        assert_eq!(a.signature.len(), SIGNATURE_SLOTS);
        assert_eq!(signature_similarity(&a.signature, &b.signature), 1.0);
        assert!(signature_similarity(&a.signature, &other.signature) < CLUSTER_SIMILARITY);
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let depth = 100_000;
        let html = format!(
            "{}words here{}",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        let l = layout(&html);
        assert_eq!(l.blocks.len(), depth);
    }
}
