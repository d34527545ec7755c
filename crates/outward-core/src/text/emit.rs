//! Text emission: the text of a subtree as lines. Block elements (and `br`) end a line,
//! inline elements join, character references are decoded, whitespace runs fold to one
//! space, lines are trimmed and empty lines dropped.
//!
//! Invariants: iterative walk; output is `\n`-separated, never starts or ends with `\n`,
//! never holds two spaces in a row or an empty line.

use crate::html::entities::append_decoded;
use crate::html::tree::{Kind, NONE, Tree};

/// Builds text line by line.
#[derive(Default)]
pub struct TextSink {
    pub out: String,
    line: String,
    scratch: String,
}

impl TextSink {
    pub fn end_line(&mut self) {
        let trimmed = self.line.trim_end();
        if !trimmed.is_empty() {
            if !self.out.is_empty() {
                self.out.push('\n');
            }
            self.out.push_str(trimmed);
        }
        self.line.clear();
    }

    /// Append raw (entity-encoded) text.
    pub fn push_raw(&mut self, raw: &[u8]) {
        let s = String::from_utf8_lossy(raw);
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        append_decoded(&mut scratch, &s);
        self.push_decoded(&scratch);
        self.scratch = scratch;
    }

    /// Append already decoded text.
    pub fn push_decoded(&mut self, text: &str) {
        for ch in text.chars() {
            if ch.is_whitespace() {
                if !self.line.is_empty() && !self.line.ends_with(' ') {
                    self.line.push(' ');
                }
            } else {
                self.line.push(ch);
            }
        }
    }

    pub fn finish(mut self) -> String {
        self.end_line();
        self.out
    }
}

/// Emit the text of `root`'s subtree, leaving out the subtrees for which `skip` is true.
pub fn emit_subtree(
    tree: &Tree,
    buf: &[u8],
    root: u32,
    sink: &mut TextSink,
    mut skip: impl FnMut(u32) -> bool,
) {
    if root == NONE {
        return;
    }
    // Iterative walk with parent/sibling links; blocks end a line on entry and on exit.
    let mut id = root;
    loop {
        let n = tree.node(id);
        let mut descend = false;
        match n.kind {
            Kind::Text => {
                let (s, e) = (n.start as usize, (n.end as usize).min(buf.len()));
                if s < e {
                    sink.push_raw(&buf[s..e]);
                }
            }
            _ => {
                if id == root || !skip(id) {
                    if n.tag.is_block() {
                        sink.end_line();
                    }
                    descend = true;
                }
            }
        }
        if descend && n.first_child != NONE {
            id = n.first_child;
            continue;
        }
        // Leave `id` and its ancestors until one has a next sibling.
        loop {
            let n = tree.node(id);
            if n.kind != Kind::Text && n.tag.is_block() {
                sink.end_line();
            }
            if id == root {
                return;
            }
            if n.next != NONE {
                id = n.next;
                break;
            }
            id = n.parent;
            if id == NONE {
                return;
            }
        }
    }
}
