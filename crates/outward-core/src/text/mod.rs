//! The text layer: from the HTML layer's tree or tokens to text. `emit` turns a subtree into
//! [`blocks::Block`]s (block elements end a line, whitespace folded, entities decoded, each
//! line with its kind); `render` turns blocks into plain text or Markdown; `title` chooses
//! the page title; `page_title` applies it to a cleaned page.
//!
//! Invariants: output is valid UTF-8 with no empty line and no run of two spaces.

pub mod blocks;
pub mod emit;
pub mod page_title;
pub mod render;
pub mod title;
