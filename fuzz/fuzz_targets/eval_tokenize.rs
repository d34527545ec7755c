//! The scorer's tokenizer and P/R/F1 on arbitrary text: tokens are non-empty, deterministic,
//! tokenizing is the same as counting in `prf_counts`; P, R, F1 in [0, 1], a text against
//! itself scores 1, and swapping the sides swaps P and R. Input: `pred, 0xFF, truth`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_eval::{prf, prf_counts, tokenize};

fuzz_target!(|data: &[u8]| {
    let (a, b) = match data.iter().position(|&x| x == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let (pred, truth) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let tokens = tokenize(&pred);
    assert_eq!(tokens, tokenize(&pred), "tokenize is not deterministic");
    assert!(tokens.iter().all(|t| !t.is_empty()), "empty token");
    let s = prf_counts(&pred, &truth);
    assert_eq!(
        s.pred_tokens,
        tokens.len(),
        "prf counts other tokens than tokenize"
    );
    assert_eq!(s.truth_tokens, tokenize(&truth).len());
    for v in [s.p, s.r, s.f1] {
        assert!((0.0..=1.0).contains(&v), "score {v} out of [0, 1]");
    }
    let (p, r, f) = prf(&pred, &pred);
    assert_eq!((p, r, f), (1.0, 1.0, 1.0), "a text against itself");
    let t = prf_counts(&truth, &pred);
    assert_eq!((t.p, t.r, t.f1), (s.r, s.p, s.f1), "swapping sides");
});
