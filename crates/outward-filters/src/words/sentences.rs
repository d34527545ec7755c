//! spaCy's sentencizer (its default `punct_chars`), as DataTrove's `split_into_sentences`
//! counts sentences for C4's "at least 5 sentences" rule: a sentence starts at the first token
//! that follows a sentence-ending token and is neither one nor punctuation.

use super::{spacy, tables};
use outward_base::ranges::in_ranges;

/// A token of one character of `punct_chars`, told by its bytes where they suffice.
fn is_sentence_end(token: &str) -> bool {
    const ASCII_ENDS: u128 = super::ascii_mask(tables::SENTENCE_END);
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

/// How many sentences spaCy's sentencizer finds in `text` (at least 1 for a non-empty text).
pub fn count(text: &str) -> usize {
    let mut tokens = Vec::new();
    spacy::tokens(text, &mut tokens);
    count_tokens(&tokens)
}

/// [`count`] of a text already split into spaCy's tokens (white-space tokens included).
pub fn count_tokens(tokens: &[&str]) -> usize {
    if tokens.is_empty() {
        // DataTrove's split of an empty text is one empty part.
        return 1;
    }
    let mut sentences = 1;
    let mut seen_end = false;
    for &token in tokens {
        // Most tokens: a word of two bytes or more that starts with an ASCII byte, which ends
        // no sentence, and starts none where none has ended.
        if !seen_end && token.len() >= 2 && token.as_bytes()[0].is_ascii() {
            continue;
        }
        let ends = is_sentence_end(token);
        if seen_end && !ends && !is_punct(token) {
            sentences += 1;
            seen_end = false;
        } else if ends {
            seen_end = true;
        }
    }
    sentences
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
            }
            ends += usize::from(is_sentence_end(&c.to_string()));
        }
        assert!(ends > 20, "{ends}");
        assert!(!is_sentence_end(""));
    }

    #[test]
    fn counts_as_the_sentencizer() {
        assert_eq!(count("One. Two! Three?"), 3);
        assert_eq!(count("Wait... what?\" he said."), 2);
        assert_eq!(count("No end"), 1);
        assert_eq!(count("Dr. Smith went home."), 1);
    }
}
