//! `reverse`: the product method. Paper 002's reverse-order partial parse (start from the
//! text, parse outward only as far as the content root), with the seed and the content root
//! R chosen by evidence instead of by the two longest text nodes. [`Reverse::run`] is the
//! method as a list of steps, each in a module of its own:
//!
//! 1. **Read** the page as a reader sees it (`read`: [`Page::view`], cleaned once, with its
//!    `<noscript>` content or its one hidden element shown when the page shows less; the
//!    site template; what the URL says, `url_kind`; which boilerplate hints hold, `hints`).
//! 2. **Score** every block (line) of the cleaned page from the cleaner's flat statistics
//!    (`scores`): good = the text of blocks that are neither link lists (link text > 60 %,
//!    unless the block is prose whose words are interleaved with its links) nor
//!    boilerplate-hinted, halved without sentence punctuation; bad = text of
//!    boilerplate-hinted blocks + half the text of link lists. Prefix sums give any
//!    subtree's totals in O(log n).
//! 3. **Seed** (`seeds`) = the block whose neighbourhood holds the most good text (an
//!    article is a run of paragraphs), and up to two alternatives outside its R.
//! 4. **Climb** (`climb`) from each seed by depth counting over the cleaned buffer (no
//!    tree): R = the ancestor maximising good − α·bad, looking up to three text-adding levels
//!    past the best; an alternative seed's R wins only with a clearly better score (×1.2).
//! 5. **Recall guards** (`guards`) correct R: `listing` (a page without an article gives its
//!    densest list; `landing` inside it), else `title` (the heading that names the page);
//!    then `join` (an article in several regions).
//! 6. **Build** the tree with the reverse-order partial parser only for R (and the spine up
//!    to it); the `siblings` guard builds R's parent and grows a paragraph-level R to its
//!    run of sibling paragraphs.
//! 7. **Emit** (`emit`) R with the page's `<h1>` first when it sits above R, pruning what
//!    the rules call boilerplate inside it (`prune`), never an ancestor of the seed.
//! 8. `reverse-stage` only: the learned stage (`stage_inputs`, the model in
//!    [`super::stage`]) prunes the elements inside R that its model calls boilerplate.
//!
//! Every rule that corrects the plain climb is a named [`Guard`] that `--without NAME`
//! switches off ([`Guards`], part of the options key); `docs/methods.md` has each one's
//! measured effect per dataset.
//!
//! Invariants: only R's subtree (plus the spine; R's parent's for the sibling guard) is
//! ever built; nodes_parsed ≤ nodes_total; never panics.

mod around_root;
mod climb;
mod emit;
mod guards;
mod hints;
mod read;
mod scores;
mod seeds;
mod stage_inputs;
mod switches;
mod url_kind;
pub mod window;

#[cfg(test)]
mod tests;

pub use stage_inputs::StageCandidate;
pub use switches::{Guard, Guards, UnknownGuard};

use crate::html::partial::PartialParse;
use crate::methods::Fulltext;
use crate::methods::confidence::{ConfidenceModel, Signals, punctuation_per_100, title_in_output};
use crate::methods::stage::StageModel;
use crate::text::page_title::page_title;
use crate::{
    Blocks, ExtractOptions, ExtractStats, Extraction, Extractor, Favor, Page, SiteContext,
};
use climb::Climb;
use emit::{Region, emit};
use guards::{
    JOIN_MAX_SHARE, SIBLING_MAX_SHARE, is_paragraph, join_guard, listing_guard, sibling_run,
    title_guard, with_prose_outside,
};
use read::PageRead;
use scores::Template;
use seeds::{Root, Seeding};
use stage_inputs::StageMode;
use std::sync::Arc;

/// `--favor recall`: a page whose confidence (the F1 the model expects of its text) is
/// under this, a page the model expects to be missed (recall under one half is a miss),
/// gives all its visible text (`fulltext`) instead of its root's.
pub const RECALL_FALLBACK_BELOW: f32 = 0.5;

/// The `reverse` method (and `reverse-stage`, with a model).
pub struct Reverse {
    /// Which guards are on (all, as shipped).
    pub guards: Guards,
    /// The learned stage's model (`reverse-stage`); `None`: the rules alone (`reverse`).
    pub stage: Option<Arc<StageModel>>,
    /// The F-measure the learned stage maximises (`--favor`); the rules alone do not read it.
    pub favor: Favor,
    /// How sure the method is of a page ([`ConfidenceModel`]); with the learned stage only.
    pub confidence: Option<Arc<ConfidenceModel>>,
}

impl Default for Reverse {
    fn default() -> Self {
        Reverse {
            guards: Guards::ALL_ON,
            stage: None,
            favor: Favor::Balanced,
            confidence: None,
        }
    }
}

impl Reverse {
    /// `reverse` with `options.guards`.
    pub fn new(options: &ExtractOptions) -> Reverse {
        Reverse {
            guards: options.guards,
            ..Reverse::default()
        }
    }

    /// `reverse` with the learned stage: `options.stage_model`, or the shipped model.
    pub fn with_stage(options: &ExtractOptions) -> Reverse {
        let model = match &options.stage_model {
            Some(m) => m.clone(),
            None => Arc::new(StageModel::default_model()),
        };
        Reverse {
            guards: options.guards,
            stage: Some(model),
            favor: options.favor,
            confidence: Some(match &options.confidence_model {
                Some(m) => m.clone(),
                None => Arc::new(ConfidenceModel::default_model()),
            }),
        }
    }

    /// Every element the learned stage would judge on `page`, with its inputs and its text,
    /// as the rules alone leave the page (the training samples of `outward-learn`).
    /// Returns the page's extraction by the rules alone too.
    pub fn stage_candidates(
        &self,
        page: &Page,
        site: &SiteContext,
    ) -> (Extraction, Vec<StageCandidate>) {
        let mut out = Vec::new();
        let (extraction, _) = self.run(page, site, StageMode::Collect(&mut out));
        (extraction, out)
    }

    /// The page's extraction and the signals of its confidence (`None` without the learned
    /// stage, or when the page gave no root): what `extract` judges, and the training
    /// samples of the confidence model.
    pub fn confidence_signals(
        &self,
        page: &Page,
        site: &SiteContext,
    ) -> (Extraction, Option<Signals>) {
        match &self.stage {
            Some(model) => self.run(page, site, StageMode::Apply(model, self.favor)),
            None => self.run(page, site, StageMode::Off),
        }
    }
}

impl Extractor for Reverse {
    fn name(&self) -> &'static str {
        if self.stage.is_some() {
            "reverse-stage"
        } else {
            "reverse"
        }
    }

    /// `reverse` reads the guards turned off (nothing when all are on; its parameters are
    /// constants of the method); `reverse-stage` also reads its model, whose digest is in
    /// the key, and `--favor` (named unless balanced).
    fn options_key(&self) -> String {
        let guards = self.guards.options_key();
        let Some(model) = &self.stage else {
            return guards;
        };
        let mut key = format!("stage_model={:016x}", model.digest());
        if self.favor != Favor::Balanced {
            key.push_str(";favor=");
            key.push_str(self.favor.name());
        }
        if !guards.is_empty() {
            key.push(';');
            key.push_str(&guards);
        }
        key
    }

    fn extract(&self, page: &Page, site: &SiteContext) -> Extraction {
        let (mut extraction, signals) = self.confidence_signals(page, site);
        let Some(model) = &self.confidence else {
            return extraction;
        };
        // A page that gave no root gave no text: nothing of it is expected to be right.
        let confidence = signals.map_or(0.0, |s| model.confidence(&s));
        extraction.stats.confidence = Some(confidence);
        if self.favor == Favor::Recall && confidence < RECALL_FALLBACK_BELOW {
            // A page the model expects to be missed gives all its visible text.
            let mut whole = Fulltext.extract(page, site);
            whole.stats.confidence = Some(confidence);
            whole.stats.work += extraction.stats.work;
            return whole;
        }
        extraction
    }
}

impl Reverse {
    /// The method, step by step (see the module docs), and the confidence's signals (with
    /// the learned stage, when the page gave a root).
    fn run(
        &self,
        page: &Page,
        site: &SiteContext,
        mode: StageMode<'_>,
    ) -> (Extraction, Option<Signals>) {
        // 1. Read.
        let view = page.view(
            self.guards.on(Guard::Noscript),
            self.guards.on(Guard::Hidden),
        );
        let cleaned = &*view;
        let read = PageRead::new(cleaned, site, page.url(), self.guards);
        let title = page_title(cleaned);
        let mut stats = ExtractStats {
            nodes_total: cleaned.nodes_total,
            ..ExtractStats::of_page(page)
        };
        let nothing = |title, stats| {
            let extraction = Extraction {
                blocks: Blocks::default(),
                title,
                stats,
                site_rule: None,
            };
            (extraction, None)
        };
        // 2-4. Score, seed, climb.
        let ranked = seeds::ranked(&read);
        if ranked.is_empty() {
            return nothing(title, stats);
        }
        let Some(Seeding {
            root,
            tried,
            bytes_scanned,
        }) = seeds::choose(&read, &ranked)
        else {
            return nothing(title, stats);
        };
        // 5. Recall guards.
        let (root, listing, page_good) = recall_guards(&read, root, &tried);
        // 6. Build R; the sibling guard.
        let seed_at = cleaned.blocks[root.seed].seed;
        let mut pp = PartialParse::new(&cleaned.buf, seed_at as usize);
        pp.read_start_node();
        let Some(first) = pp.complete_level(0) else {
            return nothing(title, stats);
        };
        let r = pp.complete_level(root.climb.level).unwrap_or(first);
        let roots = if listing || !self.guards.on(Guard::Siblings) {
            vec![r]
        } else {
            siblings(&mut pp, &root, r, page_good)
        };
        // 7-8. Emit, with pruning and the learned stage.
        let region = Region {
            tree: &pp.tree,
            roots,
            r,
            seed_at,
            listing,
        };
        let recall = matches!(mode, StageMode::Apply(_, Favor::Recall));
        let emitted = emit(&read, &region, &root.scores, mode);
        stats.template_removed = emitted.template_removed;
        stats.stage_pruned = emitted.stage_pruned;
        stats.nodes_parsed = pp.nodes_built();
        stats.bytes_touched = pp.bytes_touched().max(bytes_scanned);
        stats.work = read.work() + pp.bytes_touched() + pp.nodes_built();
        let text = emitted.blocks.text();
        // The h1 inside R, or above it where the headline guard emits it.
        let n = pp.tree.node(r);
        let h1_at_r = cleaned
            .h1
            .is_some_and(|(hs, he)| n.start <= hs && he <= n.end)
            || cleaned
                .headline()
                .is_some_and(|(_, he)| he <= n.start && read.on(Guard::Headline));
        let r_range = {
            let r_node = pp.tree.node(r);
            (r_node.start, r_node.end)
        };
        let signals = emitted.stage_view.as_ref().map(|view| {
            let page_text = root.scores.weight.last().copied().unwrap_or(0.0);
            let r_totals = root.scores.range(r_range.0, r_range.1);
            let runner_up = match tried.as_slice() {
                [first, second, ..] if first.score > 0.0 => (second.score / first.score).max(0.0),
                _ => 0.0,
            };
            Signals {
                stage_judged: f64::from(u8::from(view.expected_main_share.is_some())),
                expected_main_share: f64::from(view.expected_main_share.unwrap_or(1.0)),
                stage_pruned_share: f64::from(view.pruned_share),
                r_good_share: r_totals.good / page_good.max(1.0),
                r_text_share: r_totals.weight / page_text.max(1.0),
                r_link_share: r_totals.link / r_totals.weight.max(1.0),
                r_unpunctuated_share: view.r_unpunctuated_share,
                ln_page_text: page_text.ln_1p(),
                ln_r_text: r_totals.weight.ln_1p(),
                ln_output_chars: (text.len() as f64).ln_1p(),
                listing: f64::from(u8::from(listing)),
                landing_url: f64::from(u8::from(read.url_kind.landing)),
                ln_roots: (region.roots.len() as f64).ln(),
                runner_up,
                title_in_output: title_in_output(title.as_deref(), text),
                has_h1: f64::from(u8::from(cleaned.h1.is_some())),
                h1_at_r: f64::from(u8::from(h1_at_r)),
                output_punctuation: punctuation_per_100(text),
                wider_good_gain: around_root::wider_good_gain(
                    &root.scores,
                    &root.climb,
                    r_range,
                    r_totals.good,
                    page_good,
                ),
                largest_part_good_share: around_root::largest_part_good_share(
                    &pp.tree,
                    &root.scores,
                    r,
                    &r_totals,
                ),
                output_over_page: (text.len() as f64).ln_1p() - page_text.ln_1p(),
                other_region_good_share: around_root::other_region_good_share(
                    &root.scores,
                    &tried,
                    r_range,
                    page_good,
                ),
                prose_outside_r: around_root::prose_outside(
                    cleaned,
                    &root.scores,
                    r_range,
                    r_totals.weight,
                ),
            }
        });
        let mut blocks = emitted.blocks;
        if recall
            && read.on(Guard::ProseOutside)
            && signals.as_ref().is_some_and(|s| s.prose_outside_r > 0.0)
        {
            let work;
            (blocks, work) = with_prose_outside(cleaned, &root.scores, r_range, &blocks);
            stats.work += work;
        }
        let extraction = Extraction {
            blocks,
            title,
            stats,
            site_rule: None,
        };
        (extraction, signals)
    }
}

/// The page's good text as the guards' shares measure it: its template counted as text
/// (site memory leaves the template out of R, not out of the page the shares were measured
/// on), scored for the seed at `seed_at`.
fn page_good(read: &PageRead, scores: &scores::BlockScores, seed_at: u32) -> f64 {
    if read.template.ranges.is_empty() {
        scores.good.last().copied().unwrap_or(0.0)
    } else {
        read.scores_with(seed_at, &Template::none())
            .good
            .last()
            .copied()
            .unwrap_or(0.0)
    }
}

/// Step 5: the recall guards on the seeds' best root. A page without an article gives its
/// densest list (`listing`); else the heading that names the page may seed the root
/// (`title`); an article's root holding under [`JOIN_MAX_SHARE`] of the page's good text is
/// joined with the other seeds' regions (`join`). Returns the root, whether the listing
/// guard chose it, and the page's good text as the guards measure it ([`page_good`]).
fn recall_guards(read: &PageRead, root: Root, tried: &[Climb]) -> (Root, bool, f64) {
    let list = read
        .on(Guard::Listing)
        .then(|| listing_guard(read, &root))
        .flatten();
    let listing = list.is_some();
    let root = match list {
        Some(list) => list,
        None => read
            .on(Guard::Title)
            .then(|| title_guard(read, &root))
            .flatten()
            .unwrap_or(root),
    };
    let seed_at = read.cleaned.blocks[root.seed].seed;
    let page_good = page_good(read, &root.scores, seed_at);
    if listing || !read.on(Guard::Join) {
        return (root, listing, page_good);
    }
    let r_good = root
        .scores
        .range(root.climb.range.0 as u32, root.climb.range.1 as u32)
        .good;
    if r_good >= JOIN_MAX_SHARE * page_good {
        return (root, listing, page_good);
    }
    let climb = join_guard(read, &root.scores, seed_at as usize, root.climb, tried);
    (Root { climb, ..root }, listing, page_good)
}

/// Step 6's sibling guard: a paragraph-level R holding under [`SIBLING_MAX_SHARE`] of the
/// page's good text (`page_good`) grows to its run of siblings (R's parent is built for it).
fn siblings(pp: &mut PartialParse, root: &Root, r: u32, page_good: f64) -> Vec<u32> {
    let r_node = pp.tree.node(r);
    let r_share = root.scores.range(r_node.start, r_node.end).good / page_good.max(1.0);
    if r_share >= SIBLING_MAX_SHARE || !is_paragraph(r_node.tag) {
        return vec![r];
    }
    match pp.complete_level(root.climb.level + 1) {
        Some(p) if p != r => sibling_run(&pp.tree, &root.scores, p, r),
        _ => vec![r],
    }
}
