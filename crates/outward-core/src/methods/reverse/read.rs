//! One page as `reverse` reads it: the cleaned view, the site template, what its URL says,
//! which boilerplate hints hold, the scoring of the page for a seed, and the work counter.
//! Every step of [`super::Reverse`] and every guard reads the page through it.
//!
//! Invariants: built once per page; [`PageRead::scores_for`] costs one pass over the blocks
//! and counts it as work; nothing here parses a node.

use super::hints::{self, Peers};
use super::scores::{BlockScores, Template};
use super::switches::{Guard, Guards};
use super::url_kind::UrlKind;
use crate::SiteContext;
use crate::html::clean::{BlockStats, Cleaned, NO_BOILER};
use std::cell::Cell;

pub(super) struct PageRead<'a> {
    pub(super) cleaned: &'a Cleaned,
    /// Site memory's template of the page (empty without memory).
    pub(super) template: Template,
    /// What the page's URL says, with the `landing` and `thread` guards applied.
    pub(super) url_kind: UrlKind,
    /// Per boilerplate range: whether its hint holds (see [`hints::which_hold`]).
    hint_holds: Vec<bool>,
    guards: Guards,
    /// Work done, in bytes scanned by each climb and the parse plus blocks scored per pass
    /// (`ExtractStats::work`).
    work: Cell<u64>,
}

impl<'a> PageRead<'a> {
    pub(super) fn new(
        cleaned: &'a Cleaned,
        site: &SiteContext,
        url: Option<&str>,
        guards: Guards,
    ) -> Self {
        let template = Template::new(cleaned, site);
        let kind = url.map(UrlKind::of).unwrap_or_default();
        let url_kind = UrlKind {
            landing: kind.landing && guards.on(Guard::Landing),
            thread: kind.thread && guards.on(Guard::Thread),
        };
        let hint_holds = hints::which_hold(cleaned, url_kind.thread, guards.on(Guard::WeakHints));
        PageRead {
            cleaned,
            template,
            url_kind,
            hint_holds,
            guards,
            work: Cell::new(0),
        }
    }

    /// Whether `guard` is on.
    pub(super) fn on(&self, guard: Guard) -> bool {
        self.guards.on(guard)
    }

    /// Whether the hint of boilerplate range `k` holds.
    pub(super) fn hint_holds(&self, k: usize) -> bool {
        self.hint_holds[k]
    }

    /// Whether `b` lies in a hinted element whose hint holds.
    pub(super) fn hinted(&self, b: &BlockStats) -> bool {
        b.boiler_id != NO_BOILER && self.hint_holds[b.boiler_id as usize]
    }

    /// Whether `b` lies in a privacy or cookie dialog: never a seed, never excused.
    pub(super) fn never_content(&self, b: &BlockStats) -> bool {
        b.boiler_id != NO_BOILER && self.cleaned.boiler_ranges[b.boiler_id as usize].never_content
    }

    /// The peers of a seed at `seed_at` (none with the `peers` guard off).
    pub(super) fn peers(&self, seed_at: u32) -> Peers<'a> {
        Peers::of(self.cleaned, seed_at, self.guards.on(Guard::Peers))
    }

    /// Scoring for a seed at `seed_at`: hints on the seed's own ancestors are false, and so
    /// are those of their peers (see [`Peers`]); the others hard. `template` counts as
    /// neither good nor bad text.
    pub(super) fn scores_with(&self, seed_at: u32, template: &Template) -> BlockScores {
        self.add_work(self.cleaned.blocks.len() as u64);
        let ranges = &self.cleaned.boiler_ranges;
        let peers = self.peers(seed_at);
        BlockScores::new(&self.cleaned.blocks, template, |b| {
            if !self.hinted(b) {
                return None;
            }
            let k = b.boiler_id as usize;
            let r = &ranges[k];
            (r.never_content || !(r.start <= seed_at && seed_at < r.end || peers.holds(k)))
                .then_some(0.0)
        })
        .0
    }

    /// [`PageRead::scores_with`] the page's template.
    pub(super) fn scores_for(&self, seed_at: u32) -> BlockScores {
        self.scores_with(seed_at, &self.template)
    }

    pub(super) fn add_work(&self, units: u64) {
        self.work.set(self.work.get() + units);
    }

    pub(super) fn work(&self) -> u64 {
        self.work.get()
    }
}
