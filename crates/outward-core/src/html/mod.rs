//! The HTML layer: everything that knows markup. One tag table (`tags`); the cleaner that
//! makes a raw page sound for reverse reading and gathers its flat statistics (`clean`, with
//! `textstats` for CJK-aware run measures and `entities` for character references); one
//! tokenizer state machine per direction (`tokenize`); the arena tree and the partial parser
//! that grows it outward from a start point (`tree`, `partial`); range climbing without a
//! tree (`climb`); tree similarity (`similarity`); short byte searches (`find`).
//!
//! Invariants: nothing here allocates per byte, recurses on input depth or panics on any
//! input; every routine is total on arbitrary bytes.

pub mod clean;
pub mod climb;
pub mod entities;
pub mod find;
pub mod partial;
pub mod similarity;
pub mod tags;
pub mod textstats;
pub mod tokenize;
pub mod tree;
