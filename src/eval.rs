//! Scoring extraction against ground truth, with exactly the tokenization of
//! `../shared/eval/score.py` (eval helper's module).
