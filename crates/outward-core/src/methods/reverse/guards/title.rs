//! The `title` guard: a short article beside a longer box. When R does not hold the heading
//! that names the page (its letters and digits those of the `<title>` without the site
//! name, one inside the other, the shorter ≥ [`TITLE_MATCH_SHARE`] % of the longer), that
//! heading seeds a climb; its region wins when it lies apart from R and scores ≥
//! `JOIN_MIN_SCORE` of R's (the join guard's share), R seeded inside boilerplate whose hint
//! holds counting at `SOFT_BOILER` as its seed was ranked: a post of two lines beside a
//! longer "about the author" text, comment thread or footer policy. It runs only when the
//! listing guard did not fire.
//!
//! Measured: 2026-11-25 (a048de3): pages missed 240 → 236, macro F1 0.8802 → 0.8810,
//! precision up or equal on every set; 8 pages up (buzzmachine, bbc.co.uk, posterous,
//! istartedsomething, learnku, arc.dev), 4 down (wsj, discord, visualstudio,
//! thepodcasthost). With WordPress's `category-*` and `tag-*` class names giving no hint
//! (`clean::hints`), dragnet's pages missed 60 → 54. Title separators of site themes (' • ',
//! ' » ') added 2026-11-26 (a15261a): two magic_html forum threads found (F1 0.11 → 0.66,
//! 0.21 → 0.87).

use super::JOIN_MIN_SCORE;
use crate::html::clean::{Cleaned, IN_HEADING};
use crate::methods::reverse::climb::climb;
use crate::methods::reverse::read::PageRead;
use crate::methods::reverse::seeds::{Root, SOFT_BOILER};
use crate::text::page_title::flat_text;
use crate::text::title::choose_title;

/// A title shorter than this (letters and digits) names too little to find its heading.
const TITLE_KEY_MIN: usize = 10;
/// Heading blocks compared with the title at most: an article's own heading is among a
/// page's first ones, and a page of thousands of headings is a listing.
const TITLE_HEADINGS_MAX: usize = 256;
/// The shorter of a heading and the title holds at least this share of the longer one's
/// letters and digits (a heading with a date or a kicker added, a title with a section).
const TITLE_MATCH_SHARE: usize = 70;

/// Letters and digits of `s`, lowercased: what a heading and the title are compared by.
fn title_key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The first heading block that names the page: its letters and digits and those of the
/// `<title>` (site name cut, see `choose_title`) are one inside the other, the shorter
/// holding at least `TITLE_MATCH_SHARE` % of the longer. `None` without a title long
/// enough to tell.
pub(in crate::methods::reverse) fn title_heading(cleaned: &Cleaned) -> Option<usize> {
    let title = choose_title(cleaned.title.as_deref(), None)?;
    let key = title_key(&title);
    let key_chars = key.chars().count();
    if key_chars < TITLE_KEY_MIN {
        return None;
    }
    let blocks = &cleaned.blocks;
    let headings = blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| b.flags & IN_HEADING != 0)
        .take(TITLE_HEADINGS_MAX);
    for (i, b) in headings {
        // Cheap bounds first: a block's characters count every letter and digit.
        let chars = b.chars as usize;
        if 100 * chars < TITLE_MATCH_SHARE * key_chars {
            continue;
        }
        let end = blocks
            .get(i + 1)
            .map_or(cleaned.buf.len(), |n| n.start as usize);
        let heading = title_key(&flat_text(&cleaned.buf, b.start as usize, end));
        let (short, long) = if heading.len() <= key.len() {
            (&heading, &key)
        } else {
            (&key, &heading)
        };
        if 100 * short.len() >= TITLE_MATCH_SHARE * long.len() && long.contains(short.as_str()) {
            return Some(i);
        }
    }
    None
}

/// Recall guard for a short article beside a longer box (a post of a few lines next to
/// an "about this blog" text or a comment thread): the heading that names the page (see
/// `title_heading`) seeds a climb of its own when R does not hold it. Its region wins
/// when it lies apart from R and scores at least `JOIN_MIN_SCORE` of R's, the share at
/// which the join guard counts another region as part of the article: a page's own
/// title is the stronger evidence. R seeded inside boilerplate whose hint holds
/// (`chosen_hinted`: a footer's or a sidebar's policy text, outscoring a post of a few
/// lines) counts its score at `SOFT_BOILER`, as its seed was ranked. Returns the
/// heading's block, its climb and scores.
pub(in crate::methods::reverse) fn title_guard(read: &PageRead, root: &Root) -> Option<Root> {
    let (cleaned, chosen) = (read.cleaned, &root.climb);
    let chosen_hinted = read.hinted(&cleaned.blocks[root.seed]);
    if chosen.score <= 0.0 {
        return None;
    }
    let h = title_heading(cleaned)?;
    let heading = &cleaned.blocks[h];
    let at = heading.seed as usize;
    if chosen.holds(at) || read.hinted(heading) {
        return None;
    }
    let scores = read.scores_for(heading.seed);
    let climb = climb(&cleaned.buf, &scores, at);
    read.add_work(climb.bytes);
    let apart = climb.range.1 <= chosen.range.0 || chosen.range.1 <= climb.range.0;
    let chosen_score = if chosen_hinted {
        SOFT_BOILER * chosen.score
    } else {
        chosen.score
    };
    (apart && climb.score >= JOIN_MIN_SCORE * chosen_score).then_some(Root {
        seed: h,
        climb,
        scores,
    })
}
