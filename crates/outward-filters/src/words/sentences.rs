//! spaCy's sentencizer (its default `punct_chars`), as DataTrove's `split_into_sentences`
//! counts sentences for C4's "at least 5 sentences" rule: a sentence starts at the first token
//! that follows a sentence-ending token and is neither one nor punctuation.

use super::{spacy, tables};
use outward_base::ranges::in_ranges;

/// The ASCII characters of `punct_chars`, as bits.
const ASCII_ENDS: u128 = super::ascii_mask(tables::SENTENCE_END);

/// Per first byte, the fewest bytes of a token that is no sentence end (`is_sentence_end`):
/// 1 for ASCII but `punct_chars`' own, 2 for those, 5 where the byte starts a character that
/// is not ASCII (a sentence end is one character).
const NO_END_FROM: [u8; 256] = {
    let mut table = [5; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = if ASCII_ENDS & (1 << b) != 0 { 2 } else { 1 };
        b += 1;
    }
    table
};

/// A token of one character of `punct_chars`, told by its bytes where they suffice.
fn is_sentence_end(token: &str) -> bool {
    match token.as_bytes() {
        // Most tokens: a word, whose first byte is ASCII and which is longer than one byte.
        &[b] => b < 128 && ASCII_ENDS & (1 << b) != 0,
        [first, ..] if first.is_ascii() || token.len() > 4 => false,
        _ => is_sentence_end_by_characters(token),
    }
}

/// A token of one character of `punct_chars`, by its characters (the definition).
fn is_sentence_end_by_characters(token: &str) -> bool {
    let mut chars = token.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => in_ranges(tables::SENTENCE_END, c as u32),
        _ => false,
    }
}

/// spaCy's `is_punct`: every character of general category P*.
fn is_punct(token: &str) -> bool {
    token.chars().all(|c| {
        if c.is_ascii() {
            c.is_ascii_punctuation()
                && !matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~')
        } else {
            in_ranges(tables::PUNCT_CATEGORY, c as u32)
        }
    })
}

/// How many sentences spaCy's sentencizer finds in `text` (at least 1).
pub fn count(text: &str) -> usize {
    count_words(text, &spacy::words(text))
}

/// [`count`] of `text` split into `words` (its words, slices of one text that holds it).
///
/// spaCy's white-space tokens are not in `words`, so they are read from the gaps: the white
/// space after a word is a token unless it is one `' '` (which the tokenizer absorbs); a token
/// of white space is neither a sentence end nor punctuation. (White space before the first
/// word is a token too, but no sentence has ended there.)
pub fn count_words(text: &str, words: &[&str]) -> usize {
    let base = text.as_ptr() as usize;
    let gap_is_token = |from: usize, to: usize| to > from && &text.as_bytes()[from..to] != b" ";
    let mut sentences = Sentencizer::default();
    // Where the white space after the last word read starts. Only white space after a
    // sentence end can start a sentence, so white space before the first word never does.
    let mut after = 0;
    let mut rest = words;
    loop {
        if !sentences.seen_end {
            // Where no sentence has ended, no token but a sentence end changes the count: the
            // tokens `NO_END_FROM` tells from sentence ends (words of two bytes or more, the
            // first ASCII; one byte that ends no sentence, as "," or "-") are stepped over
            // without reading where they are (one-byte tokens too since −0.7M instructions on
            // dragnet's texts).
            let plain = rest
                .iter()
                .take_while(|w| {
                    w.as_bytes()
                        .first()
                        .is_some_and(|&b| w.len() >= usize::from(NO_END_FROM[usize::from(b)]))
                })
                .count();
            rest = &rest[plain..];
        }
        let Some((&word, tail)) = rest.split_first() else {
            break;
        };
        rest = tail;
        let start = word.as_ptr() as usize - base;
        if sentences.seen_end && gap_is_token(after, start) {
            sentences.white_space();
        }
        after = start + word.len();
        sentences.token(word);
    }
    // The white space after the last word (a token unless it is one ' ').
    if sentences.seen_end && gap_is_token(after, text.len()) {
        sentences.white_space();
    }
    sentences.count
}

/// The sentencizer over a text's tokens in order: a sentence starts at the first token after
/// a sentence end that is neither one nor punctuation.
struct Sentencizer {
    count: usize,
    seen_end: bool,
}

impl Default for Sentencizer {
    /// A text's first sentence.
    fn default() -> Self {
        Sentencizer {
            count: 1,
            seen_end: false,
        }
    }
}

impl Sentencizer {
    fn token(&mut self, token: &str) {
        let ends = is_sentence_end(token);
        if self.seen_end && !ends && !is_punct(token) {
            self.white_space();
        } else if ends {
            self.seen_end = true;
        }
    }

    /// A token that is neither a sentence end nor punctuation, as white space.
    fn white_space(&mut self) {
        if self.seen_end {
            self.count += 1;
            self.seen_end = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte tests give the character test's answer for every character alone, and for
    /// two-character tokens.
    #[test]
    fn sentence_ends_are_single_characters_of_the_table() {
        let mut ends = 0;
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            for token in [c.to_string(), format!("{c}."), format!("a{c}")] {
                let by_chars = is_sentence_end_by_characters(&token);
                assert_eq!(is_sentence_end(&token), by_chars, "{token:?}");
                let no_end =
                    token.len() >= usize::from(NO_END_FROM[usize::from(token.as_bytes()[0])]);
                assert!(!(no_end && by_chars), "{token:?}");
            }
            ends += usize::from(is_sentence_end(&c.to_string()));
        }
        assert!(ends > 20, "{ends}");
        assert!(!is_sentence_end(""));
    }

    /// The sentencizer over every token, white space included (the definition).
    fn count_over_tokens(text: &str) -> usize {
        let mut tokens = Vec::new();
        spacy::tokens(text, &mut tokens);
        let mut sentences = Sentencizer::default();
        for token in tokens {
            sentences.token(token);
        }
        sentences.count
    }

    /// White space read from the gaps between words counts as spaCy's white-space tokens do:
    /// texts drawn from words, marks and white space of every kind, at their ends too, and
    /// each line of them counted with the whole text's words.
    #[test]
    fn white_space_between_words_counts_as_its_tokens() {
        let pieces = [
            "word", "Two", ".", "!", "?", "...", ",", "\"", "\u{201d}", "U.S.", "Mr.", "(a)", " ",
            "  ", "\n", "\n\n", "\t", "\u{a0}", "\u{3000}", " \n ", "end.", "\u{2026}", "-",
        ];
        let mut next = crate::draws(0x5851_f42d_4c95_7f2d);
        for _ in 0..20_000 {
            let text = crate::drawn_text(&mut next, &pieces, 12);
            assert_eq!(count(&text), count_over_tokens(&text), "{text:?}");
            let doc = crate::Doc::new(&text);
            for line in text.split('\n').map(crate::words::python::strip) {
                if line.is_empty() {
                    continue;
                }
                let within = doc.words_within(line);
                assert_eq!(
                    count_words(line, within),
                    count_over_tokens(line),
                    "{line:?}"
                );
            }
        }
    }

    #[test]
    fn counts_as_the_sentencizer() {
        assert_eq!(count("One. Two! Three?"), 3);
        assert_eq!(count("Wait... what?\" he said."), 2);
        assert_eq!(count("No end"), 1);
        assert_eq!(count("Dr. Smith went home."), 1);
    }
}
