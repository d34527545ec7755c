//! The `teasers` guard: a list of cards for other stories inside R is not the story. News and
//! blog pages end their article (often inside the article's own container, where the
//! `prune` guard's hints do not reach) with "Related articles", "More in Sports",
//! "Recommended for you": three or more sibling cards of one shape, each a linked headline
//! plus a line of summary. The link share of such a list (a headline of 60 characters over a
//! summary of 150) stays under the link-list ratio, so the `prune` guard keeps it; its
//! shape gives it away, whatever its class says.
//!
//! An element is a teaser list when at least [`MIN_CARDS`] of its element children share
//! one shape (tag, and class with digits ignored) and hold [`GROUP_SHARE`] of its text, and
//! most of those cards ([`LINKED_SHARE`]) are short ([`CARD_MAX_WEIGHT`]) and open with a
//! linked headline ([`HEADLINE_MIN_LINK`] characters of link text, [`MEAN_HEADLINE_MIN`]
//! on average (as the first or second line of the card). Lists inside the story stay: steps and ingredients carry no headline
//! links, a listicle's items are long prose, a thread's replies lead with a short author
//! link. The short label right before a teaser list, or a link list, ("Related articles")
//! goes with it. Never
//! an ancestor of the seed, never in a listing (there the cards are the page).
//!
//! Measured: see `docs/methods.md` (the rules table) and the commit that added it.

use crate::html::tags::Tag;
use crate::html::tokenize::attribute;
use crate::html::tree::{Kind, NONE, Tree};
use crate::methods::reverse::scores::BlockScores;

/// Fewest cards of one shape that make a teaser list.
pub(in crate::methods::reverse) const MIN_CARDS: usize = 3;

/// Share of the list's text its cards of one shape must hold.
pub(in crate::methods::reverse) const GROUP_SHARE: f64 = 0.7;

/// A card longer than this (text weight) is prose, not a teaser.
pub(in crate::methods::reverse) const CARD_MAX_WEIGHT: f64 = 400.0;

/// A card's headline: at least this much link text.
pub(in crate::methods::reverse) const HEADLINE_MIN_LINK: f64 = 12.0;

/// Mean weight of the cards' headlines: headlines, not author names or API members.
pub(in crate::methods::reverse) const MEAN_HEADLINE_MIN: f64 = 30.0;

/// A card's headline is one of its first this many blocks (a category label may come
/// first).
const HEADLINE_BLOCKS: usize = 2;

/// Share of the cards that must be short and carry a headline.
pub(in crate::methods::reverse) const LINKED_SHARE: f64 = 0.75;

/// A label before a teaser list ("More in Sports"): a heading or a block of at most this
/// much text.
pub(in crate::methods::reverse) const LABEL_MAX_WEIGHT: f64 = 40.0;

/// A teaser list holds at most this share of R's text: more, and the cards are what the page
/// is for (a shop's grid, a directory) even where the listing guard did not fire.
pub(in crate::methods::reverse) const MAX_SHARE_OF_R: f64 = 0.7;

/// A link list is labelled (its label left out with it) when it has at least this many
/// lines: one line under a title is its byline.
pub(in crate::methods::reverse) const LABELLED_LIST_MIN_LINES: usize = 3;

/// Distinct child shapes an element's children are grouped into (the rest are not counted).
const MAX_SHAPES: usize = 8;

/// The canonical start tag of element `id`: `<name flags id="…" class="…">`.
fn start_tag<'b>(tree: &Tree, buf: &'b [u8], id: u32) -> &'b [u8] {
    let start = (tree.node(id).start as usize).min(buf.len());
    let end = memchr::memchr(b'>', &buf[start..]).map_or(buf.len(), |e| start + e);
    &buf[start..end]
}

/// Whether elements `a` and `b` have one shape: the same tag name, and the same class once
/// digits are ignored (`post-118 card` and `post-2207 card` are one shape).
fn same_shape<'b>(tree: &Tree, buf: &'b [u8], a: u32, b: u32) -> bool {
    let (ta, tb) = (start_tag(tree, buf, a), start_tag(tree, buf, b));
    let name = |t: &'b [u8]| -> &'b [u8] {
        let end = t.iter().position(|&c| c == b' ').unwrap_or(t.len());
        &t[..end]
    };
    let class = |t| attribute(t, b" class=\"").unwrap_or_default();
    let no_digits = |v: &'b [u8]| v.iter().filter(|c| !c.is_ascii_digit());
    name(ta) == name(tb) && no_digits(class(ta)).eq(no_digits(class(tb)))
}

/// Whether element `id` of R's built `tree` is a list of teaser cards (see the module docs).
/// `r_weight` is R's text weight.
pub(in crate::methods::reverse) fn is_teaser_list(
    tree: &Tree,
    buf: &[u8],
    scores: &BlockScores,
    r_weight: f64,
    id: u32,
) -> bool {
    let n = tree.node(id);
    let all = scores.range(n.start, n.end);
    let total = all.weight;
    // Cheap first: too little text, or too few links, for MIN_CARDS headlined cards; or
    // too much of R.
    if total <= 0.0
        || all.link < MEAN_HEADLINE_MIN * MIN_CARDS as f64
        || total > MAX_SHARE_OF_R * r_weight
    {
        return false;
    }
    // Children grouped by shape: (first child of the shape, cards, their weight).
    let mut shapes: Vec<(u32, usize, f64)> = Vec::new();
    for c in tree.children(id) {
        let cn = tree.node(c);
        if cn.kind != Kind::Element || cn.end == NONE {
            continue;
        }
        let w = scores.range(cn.start, cn.end).weight;
        match shapes.iter().position(|s| same_shape(tree, buf, s.0, c)) {
            Some(k) => {
                shapes[k].1 += 1;
                shapes[k].2 += w;
            }
            None if shapes.len() < MAX_SHAPES => shapes.push((c, 1, w)),
            None => {}
        }
    }
    let Some(&(first, count, weight)) = shapes.iter().max_by(|a, b| a.2.total_cmp(&b.2)) else {
        return false;
    };
    if count < MIN_CARDS || weight < GROUP_SHARE * total {
        return false;
    }
    let (mut headlined, mut headline_sum) = (0usize, 0.0);
    for c in tree.children(id) {
        let cn = tree.node(c);
        if cn.kind != Kind::Element || cn.end == NONE || !same_shape(tree, buf, first, c) {
            continue;
        }
        let headline = headline(scores, cn.start, cn.end);
        if headline >= HEADLINE_MIN_LINK && scores.range(cn.start, cn.end).weight <= CARD_MAX_WEIGHT
        {
            headlined += 1;
            headline_sum += headline;
        }
    }
    headlined as f64 >= LINKED_SHARE * count as f64
        && headline_sum >= MEAN_HEADLINE_MIN * headlined as f64
}

/// The text weight of the card's headline: the first of its first [`HEADLINE_BLOCKS`]
/// blocks that is a link (a link-list block: its link text is all `scores` counts as
/// links), 0 without one. A card opens with its headline, perhaps after a category label;
/// a listicle's item or a reference entry that ends with a "learn more" link has none.
fn headline(scores: &BlockScores, start: u32, end: u32) -> f64 {
    let (lo, hi) = scores.block_span(start, end);
    (lo..hi.min(lo + HEADLINE_BLOCKS))
        .map(|k| scores.link[k + 1] - scores.link[k])
        .find(|&link| link > 0.0)
        .unwrap_or(0.0)
}

/// Whether element `id` is a label ("Related articles", "More in Sports"): a heading (not
/// the page's `<h1>`), or a
/// block of at most [`LABEL_MAX_WEIGHT`], whose next element sibling `pruned` says is left
/// out (a teaser list, or a link list).
pub(in crate::methods::reverse) fn is_label_of(
    tree: &Tree,
    scores: &BlockScores,
    id: u32,
    pruned: impl Fn(u32) -> bool,
) -> bool {
    let n = tree.node(id);
    let short = (n.tag.is_heading() && n.tag != Tag::H1)
        || (matches!(n.tag, Tag::P | Tag::Div | Tag::Span | Tag::Other)
            && scores.range(n.start, n.end).weight <= LABEL_MAX_WEIGHT);
    if !short {
        return false;
    }
    let mut next = n.next;
    while next != NONE && tree.node(next).kind != Kind::Element {
        next = tree.node(next).next;
    }
    next != NONE && tree.node(next).end != NONE && pruned(next)
}

/// A news story (at a document's URL) whose container ends with a label and `cards` cards
/// for other stories: a linked headline and one line of summary each, classed with no word
/// the hints know.
#[cfg(test)]
pub(in crate::methods::reverse) fn story_with_cards(cards: usize) -> String {
    let paras: String = (0..8)
        .map(|k| {
            format!(
                "<p>Paragraph {k} of the story says that the council met on Monday, and that \
                 the new bridge over the river will open in the spring of next year.</p>"
            )
        })
        .collect();
    let cards: String = (0..cards)
        .map(|k| {
            format!(
                "<article class=\"c-card c-card--{k}\"><h4><a href=\"/2024/05/story-{k}\">\
                 Headline of another story number {k} about the town</a></h4>\
                 <p>One line of summary for story {k}, to make readers click.</p></article>"
            )
        })
        .collect();
    format!(
        "<html><body><div class=story><h1>Bridge to open</h1>{paras}\
         <h3>Elsewhere in the Gazette</h3><div class=c-grid>{cards}</div></div></body></html>"
    )
}

#[cfg(test)]
mod tests {
    use super::story_with_cards;
    use crate::methods::reverse::tests::text_with;
    use crate::methods::reverse::{Guard, Guards};

    const STORY_URL: &str = "https://gazette.example/2024/05/the-bridge-will-open-4711";

    #[test]
    fn cards_for_other_stories_leave_with_their_label() {
        let text = text_with(Guards::ALL_ON, &story_with_cards(4), STORY_URL);
        assert!(text.contains("Paragraph 7 of the story"), "{text}");
        assert!(!text.contains("another story"), "{text}");
        assert!(!text.contains("summary for story"), "{text}");
        assert!(!text.contains("Elsewhere in the Gazette"), "{text}");
        // Two cards are no list; on a landing page's URL the cards are the page.
        let two = text_with(Guards::ALL_ON, &story_with_cards(2), STORY_URL);
        assert!(two.contains("summary for story 1"), "{two}");
        let landing = text_with(
            Guards::ALL_ON,
            &story_with_cards(4),
            "https://gazette.example/news",
        );
        assert!(landing.contains("summary for story 3"), "{landing}");
    }

    /// The lists a story holds: steps without links, a listicle whose items are prose with a
    /// link at the end, replies that open with a short author link.
    #[test]
    fn lists_inside_the_story_stay() {
        let intro = "<p>The recipe below feeds four people, and the whole dish is ready in less \
                     than an hour if the oven is hot before you start.</p>";
        let steps: String = (0..6)
            .map(|k| format!("<li>Step {k}: mix the flour and the butter, then rest it.</li>"))
            .collect();
        let listicle: String = (0..5)
            .map(|k| {
                format!(
                    "<div class=item><p>Idea {k}: a shelf made of old crates keeps the \
                     hallway tidy, costs nothing and takes one afternoon of work with a \
                     saw.</p><p><a href=\"/ideas/{k}\">See the full guide to idea {k} here \
                     on our site</a></p><p>{}</p></div>",
                    "It is a project for a weekend, and children can help with the painting. "
                        .repeat(5)
                )
            })
            .collect();
        let replies: String = (0..5)
            .map(|k| {
                format!(
                    "<div class=c-post><p><a href=\"/u/{k}\">user{k}</a></p><p>Reply {k}: I \
                     made this last week and it worked well.</p></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><div class=story><h1>Crate shelves</h1>{intro}<ol>{steps}</ol>\
             {listicle}<div class=c-posts>{replies}</div></div></body></html>"
        );
        let text = text_with(Guards::ALL_ON, &html, STORY_URL);
        let without = text_with(Guards::ALL_ON.without(Guard::Teasers), &html, STORY_URL);
        assert_eq!(text, without);
        assert!(text.contains("Step 5: mix"), "{text}");
        assert!(text.contains("Idea 4: a shelf"), "{text}");
        assert!(text.contains("Reply 4: I made"), "{text}");
    }
}
