//! `reverse`'s guards that have code of their own: `listing` (with `landing`), `title`,
//! `join`, `siblings`, `teasers`, `notices`, `comments` and `after-story` (their shared scan
//! in `endings`), `prose-outside`, each in its file with its constants, its reason and a
//! dated "measured" block. Every guard's name and switch is in [`super::switches`]; the other
//! guards are a condition where they act (`hints.rs`, `read.rs`, `emit.rs`, `mod.rs`). The
//! table of every guard with its measured effect per dataset is `docs/methods.md`.
//!
//! Invariants: a guard reads the page through `read::PageRead` and returns a root (or
//! `None`: the plain climb's root stands); it never builds a node.

mod after_story;
mod comments;
mod endings;
mod join;
mod listing;
mod notices;
mod prose_outside;
mod siblings;
mod teasers;
mod title;

pub(super) use after_story::{AFTER_STORY_MAX_CHARS, names_after_story};
pub(super) use comments::{COMMENTS_MAX_CHARS, names_comments};
pub(super) use endings::ending_start;
pub(super) use join::{JOIN_MAX_SHARE, JOIN_MIN_SCORE, join_guard};
pub(super) use listing::listing_guard;
pub(super) use notices::is_notice;
pub(super) use prose_outside::with_prose_outside;
pub(super) use siblings::{SIBLING_MAX_SHARE, is_paragraph, sibling_run};
#[cfg(test)]
pub(super) use teasers::story_with_cards;
pub(super) use teasers::{LABELLED_LIST_MIN_LINES, is_label_of, is_teaser_list};
pub(super) use title::title_guard;
#[cfg(test)]
pub(super) use title::title_heading;
