//! `reverse`'s emission: the text of R (or its run of siblings), with the page's `<h1>` first
//! when it sits above R (the `headline` guard), pruning inside R the block elements that
//! site memory's template holds, that are boilerplate-hinted (where the hint holds and the
//! element is no peer of the seed's) or link lists (seed 000's rules 1-2; in a listing,
//! menus only: its items are links) — the `prune` guard —, lists of cards for other stories
//! (`teasers`), notices that the page needs JavaScript and sign-in prompts (`notices`),
//! what follows the story after its heading (`after-story`: related stories, share
//! buttons, the author's box), with `--favor precision` the readers' comments after theirs
//! (`comments`) and, for `reverse-stage`, those the learned stage calls boilerplate. An
//! ancestor of the seed is never pruned.
//!
//! Invariants: the tree is walked once per root; each element is judged once, top down (a
//! pruned element's subtree is not visited).

use super::guards::{
    AFTER_STORY_MAX_CHARS, COMMENTS_MAX_CHARS, LABELLED_LIST_MIN_LINES, ending_start, is_label_of,
    is_notice, is_teaser_list, names_after_story, names_comments,
};
use super::read::PageRead;
use super::scores::{BlockScores, LINK_LIST_RATIO};
use super::stage_inputs::{
    PageCut, STAGE_MAX_UNPUNCTUATED, StageCandidate, StageMode, StagePage, stage_budget,
};
use super::switches::Guard;
use crate::html::tags::Tag;
use crate::html::tree::{F_BOILER, Kind, Tree};
use crate::text::emit::{TextSink, emit_subtree};
use crate::text::page_title::flat_text;
use crate::{Blocks, Favor};

/// What emission gave.
pub(super) struct Emitted {
    pub(super) blocks: Blocks,
    /// Elements of the site template pruned.
    pub(super) template_removed: u32,
    /// Elements the learned stage pruned.
    pub(super) stage_pruned: u32,
    /// What the learned stage saw of R (`None` with the stage off).
    pub(super) stage_view: Option<StageView>,
}

/// What the learned stage saw of R: the confidence's signals.
pub(super) struct StageView {
    /// Share of R's text in blocks without sentence punctuation.
    pub(super) r_unpunctuated_share: f64,
    /// The share of R's text the model expects to be main text (`None`: R not judged).
    pub(super) expected_main_share: Option<f32>,
    /// Share of R's text the stage pruned.
    pub(super) pruned_share: f32,
}

/// What is emitted: `roots` (R, or R's run of siblings) of the built `tree`, R being `r`,
/// scored by `scores`, for the seed at `seed_at`; `listing` when the listing guard chose R.
pub(super) struct Region<'t> {
    pub(super) tree: &'t Tree,
    pub(super) roots: Vec<u32>,
    pub(super) r: u32,
    pub(super) seed_at: u32,
    pub(super) listing: bool,
}

/// Emit `region` of `page` (see the module docs); `mode` says what the learned stage does.
pub(super) fn emit(
    read: &PageRead,
    region: &Region,
    scores: &BlockScores,
    mode: StageMode<'_>,
) -> Emitted {
    let (cleaned, tree, seed_at, listing) =
        (read.cleaned, region.tree, region.seed_at, region.listing);
    let (buf, ranges, roots) = (&cleaned.buf, &cleaned.boiler_ranges, &region.roots[..]);
    let ratio = LINK_LIST_RATIO;
    let prune_on = read.on(Guard::Prune);
    let mut template_removed = 0u32;
    // Elements the rules (and the stage) may prune: blocks and unknown elements that do
    // not hold the seed.
    let prunable = |id: u32| {
        let n = tree.node(id);
        n.kind == Kind::Element
            && (n.tag.is_block() || n.tag == Tag::Other)
            && !(n.start <= seed_at && seed_at < n.end)
    };
    // Site memory's template (counted where the page is emitted), then hinted
    // boilerplate and link lists.
    let template_at = |id: u32| read.template.starts_at(tree.node(id).start);
    let peers = read.peers(seed_at);
    // Mostly link text: a link list (seed 000's rule 2).
    let mostly_links = |t: &super::scores::Totals| t.weight > 0.0 && t.link > ratio * t.weight;
    let hint_or_links = |id: u32| {
        if !prune_on {
            return false;
        }
        let n = tree.node(id);
        if n.flags & F_BOILER != 0 {
            // Only when the hint holds (see `hints::which_hold`) and the element is no peer
            // of the seed's own hinted container; ranges are sorted by start.
            let k = ranges.partition_point(|r| r.start < n.start);
            if ranges.get(k).is_none_or(|r| r.start != n.start)
                || (read.hint_holds(k) && !peers.holds(k))
            {
                return true;
            }
        }
        let t = scores.range(n.start, n.end);
        if listing {
            return t.weight > 0.0 && t.menu > ratio * t.weight;
        }
        mostly_links(&t)
    };
    // Lists of cards for other stories, and their labels (not in a listing, nor on a
    // landing page's URL: there the cards are the page).
    let teasers_on = read.on(Guard::Teasers) && !listing && !read.url_kind.landing;
    let r_weight: f64 = if teasers_on {
        roots
            .iter()
            .map(|&id| {
                let n = tree.node(id);
                scores.range(n.start, n.end).weight
            })
            .sum()
    } else {
        0.0
    };
    let teaser_list = |id: u32| is_teaser_list(tree, buf, scores, r_weight, id);
    // A list of links (three lines or more: not a byline under a title).
    let link_list = |id: u32| {
        let n = tree.node(id);
        let (lo, hi) = scores.block_span(n.start, n.end);
        hi - lo >= LABELLED_LIST_MIN_LINES && mostly_links(&scores.range(n.start, n.end))
    };
    let teasers = |id: u32| {
        teasers_on
            && (teaser_list(id)
                || is_label_of(tree, scores, id, |next| {
                    teaser_list(next) || (prune_on && link_list(next))
                }))
    };
    // Notices that the page needs JavaScript or a newer browser, and sign-in prompts.
    let notices_on = read.on(Guard::Notices);
    let notice = |id: u32| notices_on && is_notice(tree, buf, scores, id);
    // Where the story ends: at a heading of what follows it (`after-story`) or, with
    // `--favor precision`, at the heading that opens the readers' comments (`comments`),
    // after the seed (not on a forum thread's URL, a landing page's or in a listing: there
    // the replies or items are the page). The heading holding that start and every element
    // after it are left out, after the learned stage has judged R as a whole: its cut and
    // budget, and its training pages (`StageMode::Collect`), are those of R uncut.
    let comments_on =
        read.on(Guard::Comments) && matches!(mode, StageMode::Apply(_, Favor::Precision));
    let after_story_on = read.on(Guard::AfterStory) && !matches!(mode, StageMode::Collect(_));
    let story_end_at = ((comments_on || after_story_on)
        && !listing
        && !read.url_kind.thread
        && !read.url_kind.landing)
        .then(|| {
            let end = roots.iter().map(|&id| tree.node(id).end).max().unwrap_or(0);
            let comments = comments_on
                .then(|| ending_start(cleaned, seed_at, end, COMMENTS_MAX_CHARS, names_comments))
                .flatten();
            let after_story = after_story_on
                .then(|| {
                    ending_start(
                        cleaned,
                        seed_at,
                        end,
                        AFTER_STORY_MAX_CHARS,
                        names_after_story,
                    )
                })
                .flatten();
            comments.into_iter().chain(after_story).min()
        })
        .flatten();
    let after_story_end = |id: u32| {
        story_end_at.is_some_and(|at| {
            let n = tree.node(id);
            n.kind == Kind::Element
                && n.end > at
                && (n.start >= at || (n.tag.is_heading() && n.start > seed_at))
        })
    };
    let rules_prune = |id: u32| template_at(id) || hint_or_links(id) || teasers(id) || notice(id);
    // The stage judges roots of running prose only (see `STAGE_MAX_UNPUNCTUATED`).
    let page_inputs = match mode {
        StageMode::Off => None,
        _ => Some(StagePage::new(
            cleaned, tree, scores, region.r, seed_at, listing,
        )),
    };
    let r_unpunctuated_share = page_inputs.as_ref().map(|i| i.r_unpunct);
    let inputs = page_inputs.filter(|i| i.r_unpunct <= STAGE_MAX_UNPUNCTUATED);
    // The stage's cut for this page, and each candidate's probability (see `PageCut`).
    let page_cut = match (&mode, &inputs) {
        (StageMode::Apply(model, favor), Some(inputs)) => Some(PageCut::new(
            tree,
            roots,
            model,
            *favor,
            inputs,
            |id| prunable(id) && rules_prune(id),
            |id| prunable(id) && inputs.judges(id),
        )),
        _ => None,
    };
    let budget = match &mode {
        StageMode::Apply(_, favor) => stage_budget(*favor),
        _ => 0.0,
    };
    let mut collected: Vec<u32> = Vec::new();
    let mut stage_pruned = 0u32;
    let mut pruned_share = 0f32;
    let mut skip = |id: u32| {
        if after_story_end(id) {
            return true;
        }
        if !prunable(id) {
            return false;
        }
        if template_at(id) {
            template_removed += 1;
            return true;
        }
        if hint_or_links(id) || teasers(id) || notice(id) {
            return true;
        }
        let Some(inputs) = &inputs else {
            return false;
        };
        if !inputs.judges(id) {
            return false;
        }
        match &mode {
            StageMode::Apply(model, _) => {
                let share = inputs.share_of_r(id);
                let prunes = page_cut
                    .as_ref()
                    .is_some_and(|cut| cut.prunes(id, || model.probability(&inputs.features(id))));
                if pruned_share + share > budget || !prunes {
                    return false;
                }
                pruned_share += share;
                stage_pruned += 1;
                true
            }
            StageMode::Collect(_) => {
                collected.push(id);
                false
            }
            StageMode::Off => false,
        }
    };
    let mut sink = TextSink::default();
    // The headline usually sits just above the article body: keep it, unless it links to
    // the site's home page: then it is the site's name over every page (an old blog theme's
    // title), which truths leave out (dragnet: out on 284 pages, kept on 23).
    if let Some((hs, he)) = cleaned.headline()
        && read.on(Guard::Headline)
        && he <= tree.node(roots[0]).start
    {
        let headline = flat_text(buf, hs as usize, he as usize);
        if !headline.is_empty() {
            sink.open_block(Tag::H1);
            sink.push_decoded(&headline);
            sink.close_block(Tag::H1);
        }
    }
    for &root in roots {
        emit_subtree(tree, buf, root, &mut sink, &mut skip);
    }
    if let (StageMode::Collect(out), Some(inputs)) = (mode, &inputs) {
        for &id in &collected {
            let mut own = TextSink::default();
            emit_subtree(tree, buf, id, &mut own, |k| prunable(k) && rules_prune(k));
            out.push(StageCandidate {
                x: inputs.features(id),
                text: own.finish().into_text(),
            });
        }
    }
    let stage_view = r_unpunctuated_share.map(|r_unpunctuated_share| StageView {
        r_unpunctuated_share,
        expected_main_share: page_cut.as_ref().map(|c| c.expected),
        pruned_share,
    });
    Emitted {
        blocks: sink.finish(),
        template_removed,
        stage_pruned,
        stage_view,
    }
}
