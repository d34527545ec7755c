//! outward-base: the few things both sides of outward share and that belong to neither.
//! `counts` names what became of every record of an input (written, or skipped and why), as
//! the reader, the decoder, the pipeline and the manifest all count it; `base32` is the one
//! RFC 4648 base32 of the workspace (ARC record ids, WET digests); `fxhash` the one fast
//! unkeyed hasher (token bags, tree shapes, words); `ranges` the lookup of generated
//! character-class tables.
//!
//! Invariant: a leaf of the crate graph: it depends on nothing of the workspace, so any crate
//! may use it without tying itself to another.

pub mod base32;
pub mod counts;
pub mod fxhash;
pub mod ranges;
