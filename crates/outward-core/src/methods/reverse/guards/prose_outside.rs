//! The `prose-outside` guard, read only by `--favor recall`: a page whose prose lies mostly
//! outside the content root R gives R's text with that prose around it.
//!
//! Why: when the prose outside R weighs more than R's whole text (the confidence's
//! `prose_outside_r` > 0), then if that prose is main text, R holds under half of it, which
//! is a miss (recall under one half). Such pages are a story beside a longer comment thread
//! that its truth keeps, a post split around a box, a second story. Recall mode prefers
//! keeping that prose to missing the page; balanced and precision modes never read it.
//!
//! Prose is [`is_prose`]'s: a block with sentence punctuation whose text is mostly not links.
//! Each such block outside R is emitted from its first text run to the next block's, all else
//! skipped, so no menu, link list or footer comes with it; the blocks before R come before
//! R's text and those after it after, in page order. The fallback to all visible text for a
//! page the confidence model doubts (`RECALL_FALLBACK_BELOW`) comes first and is not this.
//!
//! Measured 2026-12-01 (`outward eval --lodo --method reverse-stage --favor recall`, 3,847
//! pages, against the same build without it): pages missed 122 → 73 (3.2 % → 1.9 %), macro
//! R 0.943 → 0.955, P 0.888 → 0.864, F1 0.891 → 0.880; dragnet P 0.867 → 0.765 (its truths
//! leave reader comments out). Tried first: all visible text for those pages, 76 missed, F1
//! 0.873. The table per set is in `docs/methods.md`.
//!
//! Invariants: reads the cleaned page's blocks outside R once and emits their bytes once:
//! the work it reports is those blocks and bytes (linear in the page).

use crate::html::clean::Cleaned;
use crate::methods::reverse::around_root::is_prose;
use crate::methods::reverse::scores::BlockScores;
use crate::text::blocks::Blocks;
use crate::text::emit::{TextSink, emit_flat};

/// `inside` (R's text as emitted; R is the byte range `r`) with the prose outside R before
/// and after it, in page order, and the work of reading it: the blocks looked at and the
/// bytes emitted.
pub(in crate::methods::reverse) fn with_prose_outside(
    cleaned: &Cleaned,
    scores: &BlockScores,
    r: (u32, u32),
    inside: &Blocks,
) -> (Blocks, u64) {
    let (lo, hi) = scores.block_span(r.0, r.1);
    let buf_end = cleaned.buf.len() as u32;
    let blocks = &cleaned.blocks;
    let mut work = (lo + blocks.len().saturating_sub(hi)) as u64;
    let mut emit_prose = |indices: std::ops::Range<usize>| {
        let mut skip = Vec::new();
        let mut at = 0;
        for i in indices.filter(|&i| is_prose(&blocks[i])) {
            let (start, end) = (
                blocks[i].start,
                blocks.get(i + 1).map_or(buf_end, |b| b.start),
            );
            if start > at {
                skip.push((at, start));
            }
            work += u64::from(end - start);
            at = end;
        }
        if at == 0 {
            return Blocks::default();
        }
        if at < buf_end {
            skip.push((at, buf_end));
        }
        let mut sink = TextSink::default();
        emit_flat(&cleaned.buf, &skip, &mut sink);
        sink.finish()
    };
    let (before, after) = (emit_prose(0..lo), emit_prose(hi..blocks.len()));
    let mut out = Blocks::default();
    for part in [&before, inside, &after] {
        // Each is a line an emitter made (trimmed, not empty): appended as it is.
        for block in part.iter() {
            out.push_line(block.kind, block.text);
        }
    }
    (out, work)
}

#[cfg(test)]
mod tests {
    use crate::methods::reverse::Reverse;
    use crate::methods::reverse::around_root::tests::paragraphs;
    use crate::methods::reverse::switches::{Guard, Guards};
    use crate::{ExtractOptions, Page, SiteContext};

    /// `--favor recall` on a page whose prose is mostly outside R: a short story between an
    /// earlier thread and a longer one of comments, and a menu of links. The balanced text is
    /// the story; the recall text adds both threads in page order (each comment on its own
    /// line, none twice), never the menu; a story with its prose inside R is the same in both;
    /// with the guard off (`--without prose-outside`) recall gives the balanced text.
    #[test]
    fn recall_adds_the_prose_outside_the_root() {
        use crate::favor::Favor;
        use crate::methods::Extractor;
        let thread = |what: &str, n: usize| -> String {
            (0..n)
                .map(|k| {
                    format!(
                        "<div class=comment>{}</div>",
                        paragraphs(&format!("{what} {k}"), 1)
                    )
                })
                .collect()
        };
        let menu = "<ul class=menu><li><a href=/a>Home page</a></li><li><a href=/b>Sports \
                    desk</a></li><li><a href=/c>Weather</a></li></ul>";
        let html = format!(
            "<html><body>{menu}<div class=early>{}</div><div class=story><h1>Bridge</h1>{}</div>\
             <div class=comments>{}</div></body></html>",
            thread("Earlier", 3),
            paragraphs("Paragraph", 4),
            thread("Comment", 12),
        );
        let text_with = |html: &str, favor: Favor, guards: Guards| {
            let page = Page::new(html, Some("https://gazette.example/2024/05/the-bridge"));
            let options = ExtractOptions {
                favor,
                guards,
                ..ExtractOptions::default()
            };
            let mut reverse = Reverse::with_stage(&options);
            // No confidence model: only the prose rule can widen the text.
            reverse.confidence = None;
            reverse
                .extract(&page, SiteContext::none())
                .text()
                .to_string()
        };
        let text = |html: &str, favor: Favor| text_with(html, favor, Guards::ALL_ON);
        let balanced = text(&html, Favor::Balanced);
        assert!(balanced.contains("Paragraph 3 says"), "{balanced}");
        assert!(!balanced.contains("Comment 0 0 says"), "{balanced}");
        let recall = text(&html, Favor::Recall);
        let at = |needle: &str| {
            recall
                .find(needle)
                .unwrap_or_else(|| panic!("{needle}: {recall}"))
        };
        assert!(at("Earlier 0 0 says") < at("Paragraph 0 says"));
        assert!(at("Paragraph 3 says") < at("Comment 0 0 says"));
        assert!(at("Comment 0 0 says") < at("Comment 11 0 says"));
        assert!(!recall.contains("Sports"), "{recall}");
        assert_eq!(recall.matches("Comment 5 0 says").count(), 1, "{recall}");
        let lines: Vec<&str> = recall.lines().collect();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("Comment 7 0 says") && l.ends_with("next year."))
        );
        let without = Guards::ALL_ON.without(Guard::ProseOutside);
        assert_eq!(text_with(&html, Favor::Recall, without), balanced);
        let alone_html = format!(
            "<html><body>{menu}<div class=story><h1>Bridge</h1>{}</div></body></html>",
            paragraphs("Paragraph", 8)
        );
        assert_eq!(
            text(&alone_html, Favor::Recall),
            text(&alone_html, Favor::Balanced)
        );
    }
}
