//! Title choice: the `<title>` text cut after its last separator (` - `, ` – `, ` — `, `_`,
//! `|`, and the spaced bullets and guillemets ` • `, ` · `, ` » `, ` « ` that site themes put
//! before their name) when the part kept is long enough (seed 004's rule), else the first
//! `<h1>`, else the whole `<title>`.
//!
//! Invariants: the result is trimmed, whitespace-folded, entity-decoded and never empty.

use crate::html::entities::decode;
use crate::html::textstats::measure;

fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The kept part is long enough: 3+ words or 4+ CJK characters (CJK-aware weight ≥ 12).
fn long_enough(s: &str) -> bool {
    s.split_whitespace().count() >= 3 || measure(s.as_bytes()).weight >= 12
}

/// Separators written between spaces (` - `, ` • `, …); `_` and `|` separate alone.
const SPACED_SEPARATORS: [char; 7] = ['-', '–', '—', '•', '·', '»', '«'];

/// Where the last separator of `s` starts (its leading space for a spaced one), in one
/// pass over the title instead of a search per separator.
fn last_separator(s: &str) -> Option<usize> {
    let mut last = None;
    let mut before = [None, None];
    for (at, c) in s.char_indices() {
        // `before[1]` is the previous character, `before[0]` the one before it.
        if let [Some((space_at, ' ')), Some((_, sep))] = before
            && c == ' '
            && SPACED_SEPARATORS.contains(&sep)
        {
            last = Some(space_at);
        }
        if c == '_' || c == '|' {
            last = Some(at);
        }
        before = [before[1], Some((at, c))];
    }
    last
}

fn has_separator(s: &str) -> bool {
    last_separator(s).is_some()
}

/// Choose the page title from the raw `<title>` text and the first `<h1>`'s text.
pub fn choose_title(raw_title: Option<&str>, h1: Option<&str>) -> Option<String> {
    let title = raw_title
        .map(|t| fold(&decode(t)))
        .filter(|t| !t.is_empty());
    let h1 = h1.map(fold).filter(|t| !t.is_empty());
    if let Some(t) = &title {
        // Cut after the last separator while what is kept stays long enough.
        let mut kept: &str = t;
        let mut cut_any = false;
        while let Some(at) = last_separator(kept) {
            let shorter = kept[..at].trim();
            if !long_enough(shorter) {
                break;
            }
            kept = shorter;
            cut_any = true;
        }
        if cut_any || h1.is_none() || long_enough(kept) && !has_separator(kept) {
            return Some(kept.to_string());
        }
    }
    h1.or(title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_site_name() {
        assert_eq!(
            choose_title(
                Some("Latest Amelia Earhart search falls short - CBS News"),
                None
            )
            .as_deref(),
            Some("Latest Amelia Earhart search falls short")
        );
        assert_eq!(
            choose_title(Some("北京今天下雨了_新闻中心_新浪网"), None).as_deref(),
            Some("北京今天下雨了")
        );
        // A bullet before the site's name (magiciansandmagic.com's forum theme), a guillemet.
        assert_eq!(
            choose_title(
                Some("Who Is In Your Top 3 Mentalists Of All Time? • MAGICIANSANDMAGIC.COM"),
                None
            )
            .as_deref(),
            Some("Who Is In Your Top 3 Mentalists Of All Time?")
        );
        assert_eq!(
            choose_title(
                Some("Caring for cast iron, step by step « Kitchen Notes"),
                None
            )
            .as_deref(),
            Some("Caring for cast iron, step by step")
        );
    }

    #[test]
    fn the_last_separator_is_the_last_of_any_kind() {
        let separators = [" - ", " – ", " — ", "_", "|", " • ", " · ", " » ", " « "];
        let by_search = |s: &str| separators.iter().filter_map(|sep| s.rfind(sep)).max();
        for s in [
            "",
            "no separator here",
            "Title - Site",
            "a_b - c | d",
            "x - - y",
            "Post • Forum · Site",
            "«quoted» title",
            "ends with a dash -",
            "- starts with one",
            "Überschrift — Zeitung_Ressort",
            "北京今天下雨了_新闻中心_新浪网",
            "a » b « c",
        ] {
            assert_eq!(last_separator(s), by_search(s), "{s}");
        }
    }

    #[test]
    fn short_rest_falls_back_to_h1() {
        assert_eq!(
            choose_title(Some("Home | My Site"), Some("  Welcome   home ")).as_deref(),
            Some("Welcome home")
        );
        assert_eq!(
            choose_title(Some("A &amp; B"), None).as_deref(),
            Some("A & B")
        );
        assert_eq!(choose_title(None, None), None);
    }
}
