//! The text layer: from the HTML layer's tree or tokens to text. `emit` turns a subtree into
//! lines (block elements end a line, whitespace folded, entities decoded); `title` chooses
//! the page title; `page_title` applies it to a cleaned page.
//!
//! Invariants: output is valid UTF-8 with no empty line and no run of two spaces.

pub mod emit;
pub mod page_title;
pub mod title;
