//! `reverse`'s seed: the block whose neighbourhood holds the most good text (an article is a
//! run of paragraphs; one long caption or notice alone is not). The best seed and up to two
//! alternatives outside its R (and outside boilerplate) are climbed by ranges; an
//! alternative wins only with a clearly better score. Seeds are ranked with boilerplate
//! hints soft ([`SOFT_BOILER`]): a false hint on a page-wide wrapper must not hide the
//! article.
//!
//! Invariants: at most [`MAX_SEEDS`] climbs; each candidate block is scored once.

use super::climb::{Climb, climb};
use super::read::PageRead;
use super::scores::BlockScores;

/// Share of its good text a boilerplate-hinted block keeps when choosing the seed.
pub(super) const SOFT_BOILER: f64 = 0.25;

/// Blocks on each side whose text counts towards a block's seed score.
const SEED_WINDOW: usize = 4;

/// Seed candidates, best first: blocks ranked by the good text net of bad text in their
/// neighbourhood (±`SEED_WINDOW` blocks, weights falling off with distance) plus their own.
/// An article is a run of paragraphs; one long caption or notice alone is not. Falls back
/// to `fallback` (the block with the most text outside links) when nothing scores.
pub(super) fn rank_seeds(
    goods: &[f64],
    bads: &[f64],
    fallback: impl FnOnce() -> Option<usize>,
) -> Vec<(usize, f64)> {
    let n = goods.len();
    let mut ranked: Vec<(usize, f64)> = Vec::new();
    for i in 0..n {
        if goods[i] <= 0.0 {
            continue;
        }
        let lo = i.saturating_sub(SEED_WINDOW);
        let hi = (i + SEED_WINDOW + 1).min(n);
        let mut score = 0.0;
        for j in lo..hi {
            let dist = i.abs_diff(j) as f64;
            let w = 1.0 / (1.0 + dist);
            score += w * (goods[j] - 0.5 * bads[j]);
        }
        // The block itself must carry its weight: prefer the strongest block nearby.
        score += goods[i];
        ranked.push((i, score));
    }
    if ranked.is_empty()
        && let Some(i) = fallback()
    {
        ranked.push((i, 0.0));
    }
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.truncate(MAX_SEEDS * 8);
    ranked
}

/// Seeds tried (the best one plus alternatives in other regions).
const MAX_SEEDS: usize = 3;
/// An alternative seed's R must beat the best seed's by this factor to be kept.
const ALT_SEED_MARGIN: f64 = 1.2;

/// A content root: the seed's block, its climb and the page's scoring for it.
pub(super) struct Root {
    pub(super) seed: usize,
    pub(super) climb: Climb,
    pub(super) scores: BlockScores,
}

/// The seeds tried on a page and the root the best of them gave.
pub(super) struct Seeding {
    pub(super) root: Root,
    /// Every seed's climb, the best first.
    pub(super) tried: Vec<Climb>,
    /// The most bytes one climb tokenized.
    pub(super) bytes_scanned: u64,
}

/// Seed candidates of `page`, best first (see [`rank_seeds`]): blocks scored with hinted
/// blocks keeping [`SOFT_BOILER`] of their good text, and privacy dialogs none.
pub(super) fn ranked(page: &PageRead) -> Vec<(usize, f64)> {
    let cleaned = page.cleaned;
    let (seed_scores, goods) = BlockScores::new(&cleaned.blocks, &page.template, |b| {
        if page.never_content(b) {
            Some(0.0)
        } else {
            page.hinted(b).then_some(SOFT_BOILER)
        }
    });
    page.add_work(2 * cleaned.blocks.len() as u64);
    let bads: Vec<f64> = seed_scores.bad.windows(2).map(|w| w[1] - w[0]).collect();
    let blocks = &cleaned.blocks;
    rank_seeds(&goods, &bads, || {
        (0..blocks.len())
            .filter(|&i| blocks[i].weight > blocks[i].link_weight)
            .max_by_key(|&i| blocks[i].weight - blocks[i].link_weight)
    })
}

/// The best seed, and up to `MAX_SEEDS - 1` alternatives outside its R and outside
/// boilerplate: each is climbed by ranges only; the best R wins (an alternative by
/// [`ALT_SEED_MARGIN`]) and only it will be built.
pub(super) fn choose(page: &PageRead, ranked: &[(usize, f64)]) -> Option<Seeding> {
    let buf = &page.cleaned.buf;
    let mut best: Option<Root> = None;
    let mut tried: Vec<Climb> = Vec::new();
    let mut bytes_scanned = 0u64;
    for (rank, &(block, _)) in ranked.iter().enumerate() {
        if tried.len() >= MAX_SEEDS {
            break;
        }
        let b = &page.cleaned.blocks[block];
        let at = b.seed as usize;
        if rank > 0 && (page.hinted(b) || tried.iter().any(|c| c.holds(at))) {
            continue;
        }
        let scores = page.scores_for(b.seed);
        let climb = climb(buf, &scores, at);
        bytes_scanned = bytes_scanned.max(climb.bytes);
        page.add_work(climb.bytes);
        tried.push(climb);
        let better = match &best {
            None => true,
            Some(root) => climb.score > ALT_SEED_MARGIN * root.climb.score,
        };
        if better {
            best = Some(Root {
                seed: block,
                climb,
                scores,
            });
        }
    }
    Some(Seeding {
        root: best?,
        tried,
        bytes_scanned,
    })
}
