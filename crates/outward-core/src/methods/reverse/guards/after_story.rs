//! The `after-story` guard: a heading of what follows a story ends it — "Related posts",
//! "You may also like", "More stories", "Most popular", "Share this", "About the author",
//! "Tags". A site's theme puts these boxes after the article inside the article's own
//! container, where R holds them: lists of other stories with their summaries (prose the
//! `teasers` guard does not take for cards), share buttons, the author's bio. Where R
//! holds such a heading after its seed, the heading and everything after it in R are left
//! out of the text (the scan and where it does not act: `endings`).
//!
//! The evidence (the dev pages' raw HTML: the text after the first such heading, are its
//! word trigrams in the truth?): out of the truth on 957 pages, in it on 98 (dragnet 622 /
//! 51, wcxb 246 / 31, cleanportaleval 36 / 6, cleaneval 20 / 4, readability 19 / 2,
//! magic_html 11 / 2). A "Related stories" box inside the story, with the story going on
//! after it, is the known loss (cnet.com, nationalgeographic.com).
//!
//! Measured 2026-12-02, `reverse-stage` leave one dataset out, against the same build
//! without it (the stage's training is unchanged: the guard acts after the stage judged R
//! whole, and not on its training pages): macro F1 0.8990 → 0.9006, pages missed 168 →
//! 169; magic_html +0.0045, readability +0.0044, dragnet +0.0031 (P 0.9132 → 0.9198), wcxb
//! +0.0002, cleaneval −0.0001, the others unchanged. In sample 64 pages gain, 23 lose
//! (dragnet 43 / 22: blogs.nfl.com's truths keep the comment guidelines after "Share
//! this:"). Its cost (callgrind, `outward run --threads 1` on dragnet): 4,916.1M
//! instructions → 4,944.3M (+0.6 %), most of it the text of the short headings it reads.
//!
//! The headings in German, French, Spanish, Italian, Portuguese, Polish, Dutch and Chinese
//! (2026-12-02): 18 pages of trafilatura_eval change (snippets: precision 0.8550 → 0.8571,
//! recall unchanged, F1 0.8989 → 0.9000; no page loses a snippet it must hold, 8 lose one
//! they must not) and one of magic_html (gmw.cn, 0.937 → 0.976); leave one dataset out
//! macro F1 unchanged (0.9006, magic_html 0.8022 → 0.8025), misses 169 both.

use super::endings::heading_words;

/// Headings of what follows a story (lowercase, a count and closing punctuation cut).
const AFTER_STORY_TITLES: &[&str] = &[
    "related posts",
    "related articles",
    "related stories",
    "related content",
    "related links",
    "you might also like",
    "you may also like",
    "more stories",
    "recent posts",
    "latest posts",
    "popular posts",
    "popular articles",
    "most popular",
    "most read",
    "trending",
    "read more",
    "share this",
    "share this post",
    "share this story",
    "about the author",
    "tags",
    // The same boxes' headings in the other languages outward reads most, those that close
    // a story (not "Lesen Sie auch", "Lire aussi", "Te puede interesar": a box of those
    // often sits inside the story, which goes on after it).
    "mehr zum thema",
    "das könnte sie auch interessieren",
    "das könnte dich auch interessieren",
    "weitere artikel",
    "ähnliche artikel",
    "verwandte artikel",
    "ähnliche beiträge",
    "weitere beiträge",
    "meistgelesen",
    "meistgelesene artikel",
    "über den autor",
    "über die autorin",
    "schlagwörter",
    "articles similaires",
    "articles liés",
    "sur le même sujet",
    "vous aimerez aussi",
    "les plus lus",
    "à propos de l'auteur",
    "mots-clés",
    "artículos relacionados",
    "noticias relacionadas",
    "lo más leído",
    "sobre el autor",
    "etiquetas",
    "articoli correlati",
    "i più letti",
    "artigos relacionados",
    "notícias relacionadas",
    "mais lidas",
    "sobre o autor",
    "podobne artykuły",
    "powiązane artykuły",
    "najczęściej czytane",
    "o autorze",
    "gerelateerde artikelen",
    "meest gelezen",
    "over de auteur",
    "相关文章",
    "相关阅读",
    "相关新闻",
    "热门文章",
    "热门推荐",
    "猜你喜欢",
];

/// A heading of what follows a story has at most this many characters, blanks aside: the
/// longest title has 16 ("You might also like"), the rest is room for a count and closing
/// punctuation. Longer headings (a story's own subheadings, the teasers' headlines) are
/// not read, which spares the scan most of its text.
pub(in crate::methods::reverse) const AFTER_STORY_MAX_CHARS: u32 = 32;

/// Whether `text` (a heading's) names what follows a story (see the module doc).
pub(in crate::methods::reverse) fn names_after_story(text: &str) -> bool {
    AFTER_STORY_TITLES.contains(&heading_words(text).1.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_of_what_follows_a_story() {
        for text in [
            "Related Posts",
            "RELATED ARTICLES:",
            "You May Also Like",
            "Share this:",
            "About the Author",
            "Tags:",
            "Most Popular",
            "Mehr zum Thema:",
            "Das könnte Sie auch interessieren",
            "Articles similaires",
            "Lo más leído",
            "Najczęściej czytane",
            "相关文章",
        ] {
            assert!(names_after_story(text), "{text}");
        }
        for text in [
            "Related work",
            "Share this recipe with a friend who cooks",
            "The author",
            "Popular science in the 1950s",
            "Comments",
            "Lesen Sie auch",
            "Lire aussi",
            "",
        ] {
            assert!(!names_after_story(text), "{text}");
        }
    }
}
