//! Headings that end the story, the scan shared by the `comments` guard (`comments.rs`:
//! the readers' comments open, `--favor precision` only) and the `after-story` guard
//! (`after_story.rs`: related stories, share buttons, the author's box, tags): where R holds
//! such a heading after its seed, the heading and everything after it in R are left out of
//! the text (`reverse/emit.rs`).
//!
//! A heading ends the story when it is a heading block (`h1`-`h6`) of at most the guard's
//! count of characters (blanks aside) whose text the guard's list names, lies after
//! the seed (the story comes first) and inside R. Neither guard acts on a forum thread's
//! URL (its replies are the page: the `thread` guard), on a landing page's or in a listing
//! (`emit.rs`), nor on a page of several posts each with its own: more than
//! [`ENDINGS_PER_STORY`] headings of the kind after the seed, or a heading before the first
//! that counts a question's answers ("2 Answers": Stack Overflow's comments under the
//! question would cut its answers).
//!
//! Invariants: at most [`ENDING_HEADINGS_MAX`] heading blocks after the seed and as many
//! before the first are read, each once per guard, and the text of a heading longer than
//! the guard's count is not read; no node is built.

use crate::html::clean::{Cleaned, IN_HEADING};
use crate::text::page_title::flat_text;

/// A heading counting a question's answers ("2 Answers") has at most this many characters,
/// blanks aside (as the longest heading a guard reads: the comments').
const ANSWERS_MAX_CHARS: u32 = 120;

/// Heading blocks after the seed read at most: the story ends soon after its seed.
const ENDING_HEADINGS_MAX: usize = 64;

/// Headings of one kind (comments, or what follows a story) one story has at most (its
/// comments, the form's "Leave a Reply", a second page of comments): a page holding more
/// after the seed is a page of several posts each with its own (a question and its
/// answers, a blog's front page), whose later posts are the page.
const ENDINGS_PER_STORY: usize = 3;

/// A heading's text lowercased, its words joined by one space, closing punctuation and a
/// count after it cut ("Comments (26):" → "comments"); and whether a count came before its
/// words, cut too ("22 Comments", "One response to", "No comments" → "comments").
pub(super) fn heading_words(text: &str) -> (bool, String) {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let line = line.to_lowercase();
    let line = line.trim_end_matches([':', '.', '»', '：', '!']);
    let line = line
        .trim_end_matches(|c: char| c.is_ascii_digit() || matches!(c, '(' | ')' | '（' | '）'))
        .trim_end();
    match line.split_once(' ') {
        Some((n, rest))
            if n.bytes().all(|b| b.is_ascii_digit())
                || matches!(n, "one" | "no" | "two" | "three") =>
        {
            (true, rest.to_owned())
        }
        _ => (false, line.to_owned()),
    }
}

/// Whether `text` (a heading's) counts a question's answers ("2 Answers", "1 Answer"): the
/// page is a question and its answers, each with its comments.
fn names_answers(text: &str) -> bool {
    let (counted, rest) = heading_words(text);
    counted && matches!(rest.as_str(), "answer" | "answers")
}

/// Where the story ends in `cleaned` by headings `names` tells (see the module doc), read
/// only in heading blocks of at most `max_chars` characters, blanks aside: the start of the
/// first such heading block after `after` (the seed), when it starts before `before` (R's
/// end). `None`: R holds none after its seed, the page has more than
/// [`ENDINGS_PER_STORY`] after it, or a heading before it counts a question's answers.
pub(in crate::methods::reverse) fn ending_start(
    cleaned: &Cleaned,
    after: u32,
    before: u32,
    max_chars: u32,
    names: impl Fn(&str) -> bool,
) -> Option<u32> {
    let blocks = &cleaned.blocks;
    let text = |i: usize| {
        let end = blocks
            .get(i + 1)
            .map_or(cleaned.buf.len(), |n| n.start as usize);
        flat_text(&cleaned.buf, blocks[i].start as usize, end)
    };
    let is_heading = |i: usize| blocks[i].flags & IN_HEADING != 0;
    let within = |i: usize, max: u32| (1..=max).contains(&blocks[i].chars);
    let seed = blocks.partition_point(|b| b.start <= after);
    let mut found = (seed..blocks.len())
        .filter(|&i| is_heading(i))
        .take(ENDING_HEADINGS_MAX)
        .filter(|&i| within(i, max_chars) && names(&text(i)));
    let first = found.next().filter(|&i| blocks[i].start < before)?;
    if found.count() >= ENDINGS_PER_STORY {
        return None;
    }
    let mut before_first = (0..first)
        .filter(|&i| is_heading(i) && within(i, ANSWERS_MAX_CHARS))
        .take(ENDING_HEADINGS_MAX);
    (!before_first.any(|i| names_answers(&text(i)))).then_some(blocks[first].start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::clean::{CleanOptions, clean};

    #[test]
    fn headings_longer_than_the_guards_count_are_not_read() {
        let html = "<html><body><article><p>The story's first paragraph, long enough to be \
                    its seed, and more of it.</p><h2>The story goes on under this long \
                    subheading</h2><p>More of the story.</p><h2>Tags</h2><p>bridges, votes\
                    </p></article></body></html>";
        let cleaned = clean(html.as_bytes(), CleanOptions::default());
        let at = |needle: &str| {
            let found = cleaned
                .buf
                .windows(needle.len())
                .position(|w| w == needle.as_bytes());
            found.map(|i| i as u32)
        };
        let any = |_: &str| true;
        let seed = at("The story's").unwrap();
        assert_eq!(
            ending_start(&cleaned, seed, u32::MAX, 120, any),
            at("The story goes on")
        );
        assert_eq!(ending_start(&cleaned, seed, u32::MAX, 32, any), at("Tags"));
        assert_eq!(ending_start(&cleaned, seed, u32::MAX, 3, any), None);
        // Only after the seed and before R's end.
        let tags = at("Tags").unwrap();
        assert_eq!(ending_start(&cleaned, tags, u32::MAX, 32, any), None);
        assert_eq!(ending_start(&cleaned, seed, tags, 32, any), None);
    }

    #[test]
    fn answers_counts_and_heading_words() {
        assert!(names_answers("2 Answers 2") && names_answers("1 Answer"));
        assert!(!names_answers("Answers") && !names_answers("3 Comments"));
        assert_eq!(
            heading_words("Comments (26):"),
            (false, "comments".to_owned())
        );
        assert_eq!(heading_words("22 Comments"), (true, "comments".to_owned()));
        assert_eq!(
            heading_words("No Comments »"),
            (true, "comments".to_owned())
        );
    }
}
