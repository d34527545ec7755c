//! Which of the cleaner's boilerplate hints hold on a page, for `reverse`. The cleaner marks
//! elements by their class/id words, roles and tags ([`BoilerRange`]: strong hints such as
//! comment sections, nav/aside/footer; weak ones such as share, menu, banner); `reverse`
//! decides per page which of them to believe:
//! - `weak-hints` guard: a weak hint on an element holding more than
//!   [`WEAK_HINT_MAX_SHARE`] of the page's good text is false (an article wrapped in a
//!   `share_wrapper`). Added 2026-11-22 (9bf1a3f) without a recorded measurement; see
//!   `docs/methods.md` for its effect measured with `--without weak-hints`.
//! - `thread` guard: on a forum thread's URL ([`super::url_kind`]) a hint naming comments or
//!   replies is false everywhere: a thread whose question and replies are of different
//!   kinds (warriorforum, old.reddit, wallstreetoasis, bbPress and vBulletin boards) is its
//!   replies too. Measured 2026-11-26 (d6250c7, 7ce874d): pages missed 197 → 175
//!   (magic_html 20 → 13, wcxb 93 → 90, cleaneval 17 → 16), F1 magic_html 0.7570 → 0.7786,
//!   wcxb 0.8344 → 0.8359, cleaneval 0.9237 → 0.9248, no set lower; magic_html's precision
//!   0.7586 → 0.7570 (a thread whose truth is its first post: what.thedailywtf.com). Q&A
//!   sites' `/questions/` was measured and left out: Stack Exchange pages already give
//!   their question and answers, and with the comments under each answer their precision
//!   fell (serverfault 0.89 → 0.55).
//! - `peers` guard ([`Peers`]): any hint on the seed's own ancestors is false, except a
//!   privacy or cookie dialog's (never main text: no seed is taken in one), and so is the
//!   hint of their peers, the elements of the same tag and class: forum software marks
//!   every post of a thread as a comment, and when the longest text is in one post the
//!   others are the rest of the thread (on an article page the seed lies in the article and
//!   the comments stay out). Measured 2026-11-26 (46c70c9): pages missed 228 → 216 (wcxb
//!   119 → 111, magic_html 23 → 20), macro F1 0.8816 → 0.8832 (magic_html +0.011, wcxb
//!   +0.002, no set lower); the price is magic_html's precision (0.7664 → 0.7586), whose
//!   truth for some threads is the first post alone (as some of wcxb's: linustechtips,
//!   affinity.serif).
//!
//! Invariants: one pass over the hinted ranges per page; a peer's kind is read at most once.

use super::scores::{BlockScores, Template};
use crate::html::clean::{BoilerRange, Cleaned, NO_BOILER};
use crate::html::tokenize::attribute;
use std::cell::Cell;

/// A weak boilerplate hint on an element holding more than this share of the page's good
/// text is ignored (the `weak-hints` guard).
const WEAK_HINT_MAX_SHARE: f64 = 0.6;

/// Per boilerplate range of `cleaned` (sorted by start): whether its hint holds. On a forum
/// thread (`thread`) a hint naming comments or replies is false; with `weak_hints`, a weak
/// hint on an element holding more than [`WEAK_HINT_MAX_SHARE`] of the page's good text
/// (counted without the template, as the share was measured) is false; strong hints
/// (comment sections, nav/aside/footer) stand.
pub(super) fn which_hold(cleaned: &Cleaned, thread: bool, weak_hints: bool) -> Vec<bool> {
    let ranges = &cleaned.boiler_ranges;
    let plain = weak_hints.then(|| {
        let (plain, _) = BlockScores::new(&cleaned.blocks, &Template::none(), |_| None);
        let total_good = plain.good.last().copied().unwrap_or(0.0);
        (plain, total_good)
    });
    ranges
        .iter()
        .map(|r| {
            !(thread && r.comments)
                && (r.strong
                    || plain.as_ref().is_none_or(|(plain, total_good)| {
                        plain.range(r.start, r.end).good <= WEAK_HINT_MAX_SHARE * total_good
                    }))
        })
        .collect()
}

/// The kind of a boilerplate-hinted element: its tag name and its class, read from its
/// start tag in the cleaned buffer (the id is left out: posts carry their own ids).
type HintKind<'a> = (&'a [u8], &'a [u8]);

fn hint_kind<'a>(buf: &'a [u8], range: &BoilerRange) -> HintKind<'a> {
    let start = (range.start as usize).min(buf.len());
    let tag_end = memchr::memchr(b'>', &buf[start..]).map_or(buf.len(), |e| start + e);
    let tag = &buf[start..tag_end];
    let name_end = memchr::memchr(b' ', tag).unwrap_or(tag.len());
    let name = tag.get(1..name_end).unwrap_or_default();
    (name, attribute(tag, b" class=\"").unwrap_or_default())
}

/// The kinds of the hinted elements that hold a seed. A hinted element of the same kind is
/// their peer, and its hint is as false as theirs: on a forum thread every post is marked up
/// as a "comment" (`<article class="cPost ipsComment">`), and when the longest text is in
/// one, the others are the rest of the thread. On an article page the seed lies in the
/// article, and the comments stay boilerplate. Kinds are read only when the seed lies in a
/// hinted element with a class, each at most once.
pub(super) struct Peers<'a> {
    buf: &'a [u8],
    ranges: &'a [BoilerRange],
    kinds: Vec<HintKind<'a>>,
    /// Per range, once known: whether it is a peer.
    known: Vec<Cell<Option<bool>>>,
}

impl<'a> Peers<'a> {
    /// The peers of a seed at `seed_at`: the kinds of the hinted elements holding it
    /// (dialogs and class-less elements left out). `ranges` are sorted by start. With the
    /// `peers` guard off (`on` false) no element is a peer.
    pub(super) fn of(cleaned: &'a Cleaned, seed_at: u32, on: bool) -> Self {
        let (buf, ranges) = (&cleaned.buf[..], &cleaned.boiler_ranges[..]);
        // The seed's block says whether any hinted element holds it (most seeds: none).
        let block = cleaned.blocks.partition_point(|b| b.start <= seed_at);
        let hinted = block
            .checked_sub(1)
            .is_some_and(|k| cleaned.blocks[k].boiler_id != NO_BOILER);
        let kinds: Vec<HintKind<'a>> = ranges
            .iter()
            .take_while(|r| on && hinted && r.start <= seed_at)
            .filter(|r| seed_at < r.end && !r.never_content)
            .map(|r| hint_kind(buf, r))
            .filter(|kind| !kind.1.is_empty())
            .collect();
        let known = if kinds.is_empty() {
            Vec::new()
        } else {
            vec![Cell::new(None); ranges.len()]
        };
        Peers {
            buf,
            ranges,
            kinds,
            known,
        }
    }

    /// Whether the hinted element `ranges[k]` is a peer.
    pub(super) fn holds(&self, k: usize) -> bool {
        let Some(known) = self.known.get(k) else {
            return false;
        };
        if let Some(peer) = known.get() {
            return peer;
        }
        let peer = self.kinds.contains(&hint_kind(self.buf, &self.ranges[k]));
        known.set(Some(peer));
        peer
    }
}
