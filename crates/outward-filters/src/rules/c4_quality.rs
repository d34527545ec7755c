//! C4's line and page rules (Raffel et al. 2020) as DataTrove's `C4QualityFilter` applies
//! them with its defaults (lines split at line breaks): a line is kept when it has no word
//! over 1000 characters, ends in `.`, `?`, `!`, `"` or `'` (not `...`) once Wikipedia-style
//! citations are removed, has 3 words or more, and mentions neither javascript nor a
//! cookie/terms policy; a kept line with "lorem ipsum" or `{` drops the page, and so do fewer
//! than 5 sentences in the kept lines. A page it keeps becomes its kept lines, as DataTrove
//! rewrites `doc.text`.

use outward_base::counts::FilterRule;
use serde::{Deserialize, Serialize};

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};

use crate::doc::Doc;
use crate::words::{python, sentences};

/// DataTrove's arguments and defaults (`split_paragraph = true`; sentence splitting of whole
/// texts is not offered).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    pub remove_citations: bool,
    pub filter_no_terminal_punct: bool,
    /// -1 turns the rule off.
    pub min_num_sentences: i64,
    /// -1 turns the rule off.
    pub min_words_per_line: i64,
    /// -1 turns the rule off.
    pub max_word_length: i64,
    pub filter_lorem_ipsum: bool,
    pub filter_javascript: bool,
    pub filter_curly_bracket: bool,
    pub filter_policy: bool,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            remove_citations: true,
            filter_no_terminal_punct: true,
            min_num_sentences: 5,
            min_words_per_line: 3,
            max_word_length: 1000,
            filter_lorem_ipsum: true,
            filter_javascript: true,
            filter_curly_bracket: true,
            filter_policy: true,
        }
    }
}

/// What the rules decide on.
#[derive(Debug, Clone, PartialEq)]
pub struct Signals {
    /// Lines of the text.
    pub lines: usize,
    /// Sentences in the kept lines.
    pub sentences: usize,
    /// The rule of a kept line that drops the whole page: `lorem_ipsum` or `curly_bracket`.
    pub page_rule: Option<FilterRule>,
    /// Where each kept line is in the text (byte ranges of the stripped lines), in order.
    /// The page as C4 keeps it is made of them when a filter asks (`kept_text`), not for the
    /// signals alone (1.8M instructions on dragnet's texts).
    pub kept: Vec<std::ops::Range<usize>>,
    /// The kept lines a cut citation changed: each as its place in `kept` and its text.
    pub cut: Vec<(usize, String)>,
    /// Whether a kept line is empty.
    pub kept_empty: bool,
}

impl Signals {
    /// The page as C4 keeps it (DataTrove's new `doc.text`): the kept lines of `text` (the
    /// text measured) joined by line feeds, stripped.
    pub fn kept_text(&self, text: &str) -> String {
        let mut kept_text = String::with_capacity(text.len());
        let mut cut = self.cut.iter().peekable();
        for (k, line) in self.kept.iter().enumerate() {
            if k > 0 {
                kept_text.push('\n');
            }
            match cut.next_if(|(at, _)| *at == k) {
                Some((_, line)) => kept_text.push_str(line),
                None => kept_text.push_str(&text[line.clone()]),
            }
        }
        // Python strips the joined lines: only a line that lost a citation can leave white
        // space at an end.
        let stripped = python::strip(&kept_text);
        if stripped.len() != kept_text.len() {
            kept_text = stripped.to_string();
        }
        kept_text
    }

    /// Where each kept line is in the text, when `kept_text` is those lines joined by line
    /// feeds: each kept whole (no citation cut out) and none empty. A later filter then reads
    /// their words instead of splitting the kept text again (`Doc::rejoined_words`).
    pub fn kept_lines(&self) -> Option<&[std::ops::Range<usize>]> {
        (self.cut.is_empty() && !self.kept_empty).then_some(&self.kept[..])
    }

    /// Lines kept (up to the first that drops the page).
    pub fn lines_kept(&self) -> usize {
        self.kept.len()
    }
}

/// ASCII, so a line ends with one exactly when its last byte is one.
const END_PUNCTUATION: [u8; 5] = [b'.', b'?', b'!', b'"', b'\''];
const POLICY: [&str; 6] = [
    "terms of use",
    "privacy policy",
    "cookie policy",
    "uses cookies",
    "use of cookies",
    "use cookies",
];

/// `re.sub(r"\[\d*]|\[edit]|\[citation needed]", "", line)`.
fn remove_citations(line: &str) -> std::borrow::Cow<'_, str> {
    // memchr's search (vectorised), not str::contains' generic one.
    if memchr::memchr(b'[', line.as_bytes()).is_none() {
        return line.into();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = memchr::memchr(b'[', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        let digits = tail
            .chars()
            .take_while(|&c| python::is_decimal(c))
            .map(char::len_utf8)
            .sum::<usize>();
        let cut = if tail[digits..].starts_with(']') {
            Some(digits + 1)
        } else if tail.starts_with("edit]") {
            Some(5)
        } else if tail.starts_with("citation needed]") {
            Some(16)
        } else {
            None
        };
        match cut {
            Some(n) => rest = &tail[n..],
            None => {
                out.push('[');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out.into()
}

/// What a kept line's lower-cased text mentions, by C4's patterns.
#[derive(Default)]
struct Mentions {
    lorem_ipsum: bool,
    javascript: bool,
    policy: bool,
}

/// C4's patterns in the order `Mentions::of` reads their matches: lorem ipsum, javascript,
/// then the policy patterns.
const LOREM_IPSUM: usize = 0;
const JAVASCRIPT: usize = 1;

/// C4's patterns, built once (building them is dearer than searching most lines): one
/// search that says whether a text holds any, and one that reads all matches, overlapping
/// ("javascripterms of use" holds two).
fn patterns() -> &'static [AhoCorasick; 2] {
    static PATTERNS: OnceLock<[AhoCorasick; 2]> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let patterns = || ["lorem ipsum", "javascript"].into_iter().chain(POLICY);
        [MatchKind::LeftmostFirst, MatchKind::Standard].map(|kind| {
            AhoCorasick::builder()
                .match_kind(kind)
                .build(patterns())
                .expect("C4's patterns build")
        })
    })
}

impl Mentions {
    /// The mention of the pattern numbered `pattern`.
    fn add(&mut self, pattern: usize) {
        match pattern {
            LOREM_IPSUM => self.lorem_ipsum = true,
            JAVASCRIPT => self.javascript = true,
            _ => self.policy = true,
        }
    }

    /// The patterns of `line.lower()` (`lower` is scratch space).
    ///
    /// The patterns are ASCII, and only two characters lower-case to ASCII letters (the
    /// Kelvin sign to k, dotted capital I to i and a combining dot): without them, lowering
    /// the ASCII letters alone finds what Python's `lower()` finds.
    fn of(line: &str, ascii: bool, lower: &mut Vec<u8>) -> Mentions {
        if !ascii && lowers_to_ascii(line) {
            lower.clear();
            lower.extend_from_slice(python::lower(line).as_bytes());
        } else {
            ascii_lowered_into(line, lower);
        }
        let mut mentions = Mentions::default();
        for (_, pattern) in matches_in(lower) {
            mentions.add(pattern);
        }
        mentions
    }
}

/// `text` with its ASCII letters lowered, into `lower` (emptied first), by a loop the
/// compiler vectorises (a copy of a long text by `memcpy`, then lowered, cost more).
fn ascii_lowered_into(text: &str, lower: &mut Vec<u8>) {
    lower.clear();
    lower.extend(text.bytes().map(|b| b.to_ascii_lowercase()));
}

/// C4's patterns in `lowered` (a text lowered), each match as its start and its pattern's
/// number, overlapping. Most lines and texts mention none: one search says so, and only then
/// are the matches read.
fn matches_in(lowered: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let [any, each] = patterns();
    any.is_match(lowered)
        .then(|| each.find_overlapping_iter(lowered))
        .into_iter()
        .flatten()
        .map(|m| (m.start(), m.pattern().as_usize()))
}

/// The brackets (`[` and `{`) of a text, found by one search of it (vectorised) and read line
/// by line in order, where a search of each line paid the search's start on each (1.3M
/// instructions fewer on dragnet's texts).
struct Brackets<'t> {
    found: std::iter::Peekable<memchr::Memchr2<'t>>,
}

impl<'t> Brackets<'t> {
    fn of(text: &'t str) -> Brackets<'t> {
        Brackets {
            found: memchr::memchr2_iter(b'[', b'{', text.as_bytes()).peekable(),
        }
    }

    /// Whether the text holds a bracket at `range`, read after the ranges before it.
    fn any_within(&mut self, range: std::ops::Range<usize>) -> bool {
        while self.found.next_if(|&at| at < range.start).is_some() {}
        self.found.peek().is_some_and(|&at| at < range.end)
    }
}

/// C4's patterns found in a whole text at once, read line by line in order: one search of the
/// text, where a search of each line paid the searcher's start on each of dragnet's 15,100
/// searched lines (0.5M instructions fewer on dragnet's texts; the brackets' one search saved
/// 1.3M more). A match lies within one stripped line: no pattern holds a line break, and each
/// begins and ends with a letter.
struct TextMentions {
    /// Each match's start in the text and its pattern's number.
    found: Vec<(usize, usize)>,
    /// The first match not read yet.
    next: usize,
}

impl TextMentions {
    /// The matches in `text` lowered (into `lower`, scratch space); `None` when it holds one of
    /// the two characters that lower-case to ASCII letters (its lines are then searched one by
    /// one, as Python lowers them).
    fn of(text: &str, lower: &mut Vec<u8>) -> Option<TextMentions> {
        if lowers_to_ascii(text) {
            return None;
        }
        ascii_lowered_into(text, lower);
        let found = matches_in(lower).collect();
        Some(TextMentions { found, next: 0 })
    }

    /// The mentions of the line at `range` of the text, read after those of the lines
    /// before it. (Matches are found in the order of their ends, and none spans two lines:
    /// a line's come after the lines' before it.)
    fn within(&mut self, range: std::ops::Range<usize>) -> Mentions {
        let mut mentions = Mentions::default();
        while let Some(&(start, pattern)) = self.found.get(self.next) {
            if start >= range.end {
                break;
            }
            self.next += 1;
            if start >= range.start {
                mentions.add(pattern);
            }
        }
        mentions
    }
}

/// Whether `line` holds one of the two characters that are not ASCII and lower-case to ASCII
/// letters (the Kelvin sign, dotted capital I): their UTF-8 starts with a byte found by
/// `memchr2`, most lines' other characters are not decoded.
fn lowers_to_ascii(line: &str) -> bool {
    const KELVIN: &[u8] = "\u{212a}".as_bytes();
    const DOTTED_I: &[u8] = "\u{130}".as_bytes();
    let bytes = line.as_bytes();
    memchr::memchr2_iter(KELVIN[0], DOTTED_I[0], bytes)
        .any(|at| bytes[at..].starts_with(KELVIN) || bytes[at..].starts_with(DOTTED_I))
}

/// How many words `line.split()` gives, and the longest one's `len`: one pass over the
/// bytes, stepping over plain ones, decoding only those of characters that are not ASCII.
/// It stops at `enough` words (then the longest is of the words read).
fn words_and_longest(line: &str, enough: usize) -> (usize, usize) {
    let bytes = line.as_bytes();
    // `current`: characters of the word being read (0: between words).
    let (mut words, mut longest, mut current) = (0, 0, 0);
    let mut i = 0;
    while i < bytes.len() && words < enough {
        let b = bytes[i];
        let (space, next) = if b.is_ascii() {
            if python::is_ascii_space(b) {
                (true, i + 1)
            } else {
                // Plain bytes are one character each.
                let end = python::skip_plain(bytes, i + 1);
                words += usize::from(current == 0);
                current += end - i;
                i = end;
                continue;
            }
        } else {
            let c = line[i..].chars().next().expect("i is on a char boundary");
            (python::is_space(c), i + c.len_utf8())
        };
        if space {
            longest = longest.max(current);
            current = 0;
        } else {
            words += usize::from(current == 0);
            current += 1;
        }
        i = next;
    }
    (words, longest.max(current))
}

pub fn measure(doc: &Doc, t: &Thresholds) -> Signals {
    let lines = doc.lines();
    let mut signals = Signals {
        lines: lines.len(),
        sentences: 0,
        page_rule: None,
        kept: Vec::with_capacity(lines.len()),
        cut: Vec::new(),
        kept_empty: false,
    };
    // The text or a line lowered, for the patterns.
    let mut lower = Vec::new();
    // Searched when a line is first read for them.
    let mut text_mentions: Option<Option<TextMentions>> = None;
    let mut text_brackets = Brackets::of(doc.text);
    for line in lines {
        let line = python::strip(line);
        let stripped = line;
        // The rules ask whether a word is longer than the bound (none can be in a line of no
        // more bytes than it) and whether the line has enough words: the count stops when
        // both are answered.
        let longest_matters = t.max_word_length != -1 && line.len() as i64 > t.max_word_length;
        let enough = match longest_matters {
            true => usize::MAX,
            false => t.min_words_per_line.max(0) as usize,
        };
        let (words, longest) = words_and_longest(line, enough);
        if longest_matters && longest as i64 > t.max_word_length {
            continue;
        }
        // Most lines have no bracket, no citation to cut out and no curly bracket (cutting a
        // citation out leaves one as it was).
        let start = doc.offset(stripped);
        let brackets = text_brackets.any_within(start..start + stripped.len());
        let line = if t.remove_citations && brackets {
            remove_citations(line)
        } else {
            line.into()
        };
        if t.filter_no_terminal_punct
            && (!line
                .as_bytes()
                .last()
                .is_some_and(|b| END_PUNCTUATION.contains(b))
                || line.ends_with("..."))
        {
            continue;
        }
        if (words as i64) < t.min_words_per_line {
            continue;
        }
        // The text's own matches, unless a citation was cut out of the line (that can join
        // a pattern's halves).
        let from_text = text_mentions
            .get_or_insert_with(|| TextMentions::of(doc.text, &mut lower))
            .as_mut()
            .filter(|_| *line == *stripped);
        let mentions = match from_text {
            Some(text_mentions) => text_mentions.within(start..start + stripped.len()),
            None => Mentions::of(&line, line.is_ascii(), &mut lower),
        };
        if t.filter_lorem_ipsum && mentions.lorem_ipsum {
            signals.page_rule = Some(FilterRule::LoremIpsum);
            break;
        }
        if t.filter_javascript && mentions.javascript {
            continue;
        }
        if t.filter_curly_bracket && brackets && memchr::memchr(b'{', line.as_bytes()).is_some() {
            signals.page_rule = Some(FilterRule::CurlyBracket);
            break;
        }
        if t.filter_policy && mentions.policy {
            continue;
        }
        if t.min_num_sentences != -1 {
            // The document's own words of the line, unless citations were cut out of it.
            signals.sentences += if *line == *stripped {
                sentences::count_words(stripped, doc.words_within(stripped))
            } else {
                sentences::count(&line)
            };
        }
        if *line != *stripped {
            signals.cut.push((signals.kept.len(), line.into_owned()));
        }
        signals.kept_empty |= stripped.is_empty();
        signals.kept.push(start..start + stripped.len());
    }
    signals
}

/// The rule that drops the document, if any.
pub fn decide(s: &Signals, t: &Thresholds) -> Option<FilterRule> {
    s.page_rule.or_else(|| {
        ((s.sentences as i64) < t.min_num_sentences).then_some(FilterRule::TooFewSentences)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_counted_as_str_split() {
        for line in [
            "",
            "  ",
            "one",
            "two  words\t",
            "a\x1cb\x1fc\x0bd",
            "supercalifragilistic x",
            "naïve café\u{a0}au lait",
            "中文 词",
            "\u{201c}Quoted,\u{201d} she said\u{2014}twice\u{2026}\u{3000}then\u{85}more\u{2029}",
            "a\x01b c\u{7f}d \u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}x",
        ] {
            let by_split = python::split_whitespace(line)
                .fold((0, 0), |(n, m), w| (n + 1, m.max(python::len(w))));
            assert_eq!(words_and_longest(line, usize::MAX), by_split, "{line:?}");
            let (n, _) = by_split;
            assert_eq!(words_and_longest(line, 2).0, n.min(2), "{line:?}");
        }
        assert_eq!(words_and_longest(" ab\tcde  f ", usize::MAX), (3, 3));
    }

    /// The two characters found by their bytes, as `contains` finds them, among characters
    /// that share their first byte.
    #[test]
    fn lowering_to_ascii_is_found_by_bytes() {
        for line in [
            "plain",
            "K\u{212a}",
            "\u{130}x",
            "\u{2122}\u{2019}\u{131}\u{133}",
            "caf\u{e9} \u{2026}",
            "",
        ] {
            assert_eq!(
                lowers_to_ascii(line),
                line.contains(['\u{212a}', '\u{130}']),
                "{line:?}"
            );
        }
    }

    /// One scan in either case finds what `pattern in line.lower()` finds, the two characters
    /// that lower-case to ASCII letters included.
    #[test]
    fn mentions_are_found_as_in_the_lowered_line() {
        for line in [
            "Please enable JavaScript.",
            "Lorem Ipsum dolor sit amet",
            "We USE COOKIES here; see the Terms of Use.",
            "This site uses cookies.",
            "use coo\u{212a}ies",
            "the pr\u{130}vacy policy",
            "PRIVACY POLICY of caf\u{e9}s",
            "javascrip t and lorem-ipsum",
            "javascripterms of use",
            "lorem ipsumjavascript",
            "nothing to see",
        ] {
            let lower = python::lower(line);
            let m = Mentions::of(line, line.is_ascii(), &mut Vec::new());
            assert_eq!(m.lorem_ipsum, lower.contains("lorem ipsum"), "{line}");
            assert_eq!(m.javascript, lower.contains("javascript"), "{line}");
            assert_eq!(m.policy, POLICY.iter().any(|p| lower.contains(p)), "{line}");
        }
        assert!(Mentions::of("use coo\u{212a}ies", false, &mut Vec::new()).policy);
        assert!(!Mentions::of("the pr\u{130}vacy policy", false, &mut Vec::new()).policy);
    }

    /// The text's matches and brackets read line by line are each line's own, in texts
    /// drawn from lines with patterns in any case, overlapping ones, brackets, and the
    /// characters that lower-case to ASCII letters (whose texts are searched line by line).
    #[test]
    fn a_texts_mentions_and_brackets_are_its_lines() {
        let pieces = [
            "Please enable JavaScript",
            "lorem IPSUM",
            "javascripterms of use",
            "We use cookies.",
            "the privacy policy",
            " plain words ",
            "a [1] citation",
            "a {curly} one",
            "use coo\u{212a}ies",
            "caf\u{e9}",
            "\u{2028}",
            "\r\n",
            "\n",
            "\n\n",
            "\u{85}",
        ];
        let mut next = crate::draws(0x2545_f491_4f6c_dd1d);
        for _ in 0..5_000 {
            let text = crate::drawn_text(&mut next, &pieces, 10);
            let doc = Doc::new(&text);
            let mut from_text = TextMentions::of(&text, &mut Vec::new());
            let mut brackets = Brackets::of(&text);
            for line in doc.lines() {
                let line = python::strip(line);
                let range = doc.offset(line)..doc.offset(line) + line.len();
                let own = Mentions::of(line, line.is_ascii(), &mut Vec::new());
                if let Some(from_text) = &mut from_text {
                    let read = from_text.within(range.clone());
                    let found = (read.lorem_ipsum, read.javascript, read.policy);
                    assert_eq!(
                        found,
                        (own.lorem_ipsum, own.javascript, own.policy),
                        "{text:?}"
                    );
                }
                let own_brackets = line.contains(['[', '{']);
                assert_eq!(brackets.any_within(range), own_brackets, "{text:?}");
            }
        }
    }

    /// A citation cut out of a line can join a pattern's halves: that line is searched as C4
    /// reads it, not by the text's matches.
    #[test]
    fn a_pattern_joined_by_a_cut_citation_is_found() {
        let t = Thresholds::default();
        let text = "The first line is a plain sentence here.\nPlease enable java[1]script now.";
        let s = measure(&Doc::new(text), &t);
        assert_eq!(s.lines_kept(), 1);
    }

    #[test]
    fn citations_go_as_in_python() {
        assert_eq!(
            remove_citations("Paris.[1][edit] [citation needed]x [a]"),
            "Paris. x [a]"
        );
        assert_eq!(remove_citations("a []b [12"), "a b [12");
    }

    #[test]
    fn keeps_lines_as_c4() {
        let t = Thresholds::default();
        let text = "Home\nThe cat sat on the mat. It was happy.\nWe use cookies on this site.\nEnable JavaScript to see it.\nShort one.\nA third line is here! And a fourth? Yes five.";
        let s = measure(&Doc::new(text), &t);
        assert_eq!(s.lines_kept(), 2);
        assert_eq!(s.sentences, 5);
        assert_eq!(
            s.kept_text(text),
            "The cat sat on the mat. It was happy.\nA third line is here! And a fourth? Yes five."
        );
        assert_eq!(decide(&s, &t), None);
        let s = measure(
            &Doc::new("function f() { return 1; } is what we wrote here."),
            &t,
        );
        assert_eq!(decide(&s, &t), Some(FilterRule::CurlyBracket));
    }
}
