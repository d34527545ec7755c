//! The `comments` guard: a heading that opens the readers' comments ends the story. Blog
//! engines put the comments after the post in the post's own container, under a heading —
//! Movable Type and TypePad `<h2 id="comments">Comments</h2>`, WordPress `<h3>12 Responses
//! to “…”</h3>` or "3 thoughts on “…”", Blogger `<h4>5 comments:</h4>`, the form's "Leave a
//! Reply" — and the comment bodies carry no class that names them (`commentbody` reads as a
//! body). Where R holds such a heading after its seed, the heading and everything after it
//! in R are left out of the text.
//!
//! A comments heading is a short heading block (see `endings`) whose text, a count and
//! closing punctuation aside, is one of [`COMMENTS_TITLES`], or opens with "N responses
//! to", "N thoughts on", … (see [`names_comments`]). "Recent comments" (a sidebar's list)
//! and "Discussion" (a section of a paper) are no such heading. Where the guard does not
//! act (a forum thread's URL, a page of several posts each with its comments, a question
//! and its answers) is `endings`', shared with the `after-story` guard.
//!
//! The evidence (the dev pages' raw HTML: the text after the first such heading, are its
//! word trigrams in the truth?): out of the truth on 480 pages, in it on 40 (dragnet 434 /
//! 20, wcxb 34 / 6, readability 5 / 2, cleaneval 2 / 11: CleanEval's annotators kept
//! comments). "TrackBack" headings are left alone: dragnet's truths keep the trackbacks of
//! one blog's pages and leave them out on others.
//!
//! Read only by `--favor precision`, the mode for a corpus that would rather lose a
//! paragraph than keep what is not the story: the truths disagree on comments, and in the
//! balanced default the guard cost CleanEval what it gave Dragnet (LODO, 2026-12-02: macro
//! F1 0.8990 → 0.8994, dragnet 0.9011 → 0.9057, cleaneval 0.9275 → 0.9266 and two more of
//! its pages missed, 168 → 171 in all).
//!
//! Measured 2026-12-02, `reverse-stage --favor precision` leave one dataset out, against
//! the same build with `--without comments`: dragnet P 0.9289 → 0.9333 with R 0.9055 both
//! (the bar: P ≥ 0.93 with R ≥ 0.85), F1 0.8993 → 0.9030; cleaneval P +0.0009, R
//! −0.0018, F1 0.9153 → 0.9147 (two more of its pages missed); the other sets within
//! 0.0002; macro F1 0.8883 → 0.8887, pages missed 260 → 262. Balanced and recall output
//! unchanged. Since the `after-story` guard (the cut made after the stage has judged R
//! whole), with both: dragnet P 0.9368, R 0.9046; macro F1 0.8898.

use super::endings::heading_words;

/// Headings that open the comments (lowercase, a count and closing punctuation cut).
const COMMENTS_TITLES: &[&str] = &[
    "comment",
    "comments",
    "reader comments",
    "readers comments",
    "readers' comments",
    "reader's comments",
    "user comments",
    "your comments",
    "comments and trackbacks",
    "leave a reply",
    "leave a comment",
    "leave your comment",
    "post a comment",
    "add a comment",
    "add comment",
    "add your comment",
    "write a comment",
    "join the discussion",
    "评论",
    "网友评论",
    "发表评论",
    "全部评论",
    "读者评论",
    "用户评论",
];

/// Openings of a comments heading that names the post after them ("12 responses to “…”",
/// "3 thoughts on “…”", "2 comments on “…”"), after a count or "one".
const COMMENTS_OPENINGS: &[&str] = &[
    "responses to ",
    "response to ",
    "thoughts on ",
    "thought on ",
    "comments on ",
    "comment on ",
    "comments to ",
    "replies to ",
    "reply to ",
];

/// Headings that open the comments only after a count ("76 Replies", "3 Responses"):
/// alone they may title a section of the story.
const COUNTED_TITLES: &[&str] = &["responses", "response", "replies", "reply"];

/// A heading that opens the comments has at most this many characters, blanks aside ("124
/// Reader Comments", "310 Responses to “The Busy Beaver Frontier”" with a post's title).
pub(in crate::methods::reverse) const COMMENTS_MAX_CHARS: u32 = 120;

/// Whether `text` (a heading's) opens the comments (see the module doc).
pub(in crate::methods::reverse) fn names_comments(text: &str) -> bool {
    let (counted, rest) = heading_words(text);
    let rest = rest.as_str();
    COMMENTS_TITLES.contains(&rest)
        || (counted && COUNTED_TITLES.contains(&rest))
        || COMMENTS_OPENINGS.iter().any(|o| {
            rest.strip_prefix(o)
                .is_some_and(|post| counted || post.starts_with(['“', '"', '«', '\'']))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_that_open_the_comments() {
        for text in [
            "Comments",
            "COMMENTS:",
            "22 Comments:",
            "0 comments:",
            "Comments (26)",
            "1 Comment",
            "No Comments »",
            "124 Reader Comments",
            "Leave a Reply",
            "Leave A Comment",
            "Post a Comment",
            "76 Replies",
            "3 Responses",
            "310 Responses to “The Busy Beaver Frontier”",
            "One Response to \"Spring\"",
            "6 thoughts on “Top 10: Best Language Learning Apps”",
            "  comments\n",
            "网友评论",
            "评论(3)",
        ] {
            assert!(names_comments(text), "{text}");
        }
        for text in [
            "Recent Comments",
            "Latest comments",
            "Discussion",
            "Replies",
            "Response",
            "Thoughts on Zig",
            "Comments on the draft rule are due in March",
            "Responses to the pandemic",
            "How to reply to a comment",
            "Most commented",
            "",
        ] {
            assert!(!names_comments(text), "{text}");
        }
    }
}
