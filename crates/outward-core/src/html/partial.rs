//! The partial parser (paper 002 §2.3): grows one arena tree outward from a start point of a
//! cleaned buffer, reading backward (reverse tokenizer, stack of pending end tags: the
//! paper's Match algorithm) and forward (forward tokenizer, stack of open elements), only as
//! far as the caller asks: [`PartialParse::complete_level`]`(k)` reads just enough to build
//! the whole subtree of the start point's k-th ancestor.
//!
//! The spine: `spine[k]` is the k-th ancestor of the start point. Backward reading discovers
//! an ancestor as a start tag with no pending end tag; forward reading closes one as an end
//! tag with no open element. An ancestor not yet discovered is a `Placeholder` node, so
//! children can be attached on both sides before its tag is known.
//!
//! Invariants: on a cleaned (balanced) buffer, every complete level's subtree equals the
//! same subtree of a full forward parse (tags, child order, text ranges) — tested by
//! property tests; each token is read once; no recursion; counts are exact:
//! `elements_built + texts_built` never exceeds the page's start tags + text runs.

use crate::html::tags::Tag;
use crate::html::tokenize::forward::ForwardTokenizer;
use crate::html::tokenize::reverse::ReverseTokenizer;
use crate::html::tokenize::{TagInfo, Token, TokenKind, parse_tag};
use crate::html::tree::{Kind, NONE, Node, Tree};

pub struct PartialParse<'a> {
    buf: &'a [u8],
    pub tree: Tree,
    back: ReverseTokenizer<'a>,
    fwd: ForwardTokenizer<'a>,
    /// Backward: elements whose end tag was read but not yet their start tag.
    pending: Vec<u32>,
    /// Forward: elements whose start tag was read but not yet their end tag.
    open: Vec<u32>,
    /// `spine[k]`: the k-th ancestor of the start point.
    pub spine: Vec<u32>,
    /// Spine levels whose start tag has been read.
    starts_found: usize,
    /// Spine levels whose end tag has been read.
    ends_found: usize,
    back_done: bool,
    fwd_done: bool,
    /// Spine level of the document root, once backward reading reached the buffer start.
    root_level: Option<usize>,
    pub elements_built: u64,
    pub texts_built: u64,
    /// The node of the first token read forward from the start point (`NONE` until read).
    pub start_node: u32,
    fwd_started: bool,
}

impl<'a> PartialParse<'a> {
    /// Prepare a parse of `buf` starting at token boundary `at`.
    pub fn new(buf: &'a [u8], at: usize) -> Self {
        let at = at.min(buf.len());
        let mut tree = Tree::default();
        let first = tree.add(Node::new(Kind::Placeholder, Tag::Other, NONE, NONE));
        PartialParse {
            buf,
            tree,
            back: ReverseTokenizer::new(buf, at),
            fwd: ForwardTokenizer::new(buf, at),
            pending: Vec::new(),
            open: Vec::new(),
            spine: vec![first],
            starts_found: 0,
            ends_found: 0,
            back_done: false,
            fwd_done: false,
            root_level: None,
            elements_built: 0,
            texts_built: 0,
            start_node: NONE,
            fwd_started: false,
        }
    }

    /// Parse the whole buffer (forward from 0): the reference tree.
    pub fn full(buf: &'a [u8]) -> (Self, u32) {
        let mut p = PartialParse::new(buf, 0);
        let mut k = 0;
        loop {
            match p.complete_level(k) {
                Some(id) if p.tree.node(id).kind == Kind::Root => return (p, id),
                Some(_) => k += 1,
                None => {
                    let root = p.spine[0];
                    return (p, root);
                }
            }
        }
    }

    /// Nodes built from tokens (elements + text).
    pub fn nodes_built(&self) -> u64 {
        self.elements_built + self.texts_built
    }

    /// Bytes tokenized so far.
    pub fn bytes_touched(&self) -> u64 {
        (self.fwd.pos() - self.back.pos()) as u64
    }

    /// Read the start token (forward) and return its node, if the start point holds one.
    pub fn read_start_node(&mut self) -> u32 {
        if !self.fwd_started && !self.fwd_done {
            self.fwd_step();
        }
        self.start_node
    }

    /// Complete the subtree of the start point's `level`-th ancestor and return it, or
    /// `None` when the document has fewer ancestors.
    pub fn complete_level(&mut self, level: usize) -> Option<u32> {
        while self.starts_found <= level && !self.back_done {
            self.back_step();
        }
        if let Some(root_level) = self.root_level
            && root_level <= level
        {
            if root_level < level {
                return None;
            }
            while !self.fwd_done {
                self.fwd_step();
            }
            return Some(self.spine[root_level]);
        }
        while self.ends_found <= level && !self.fwd_done {
            self.fwd_step();
        }
        Some(self.spine[level])
    }

    /// The level of `node` on the spine, if it is an ancestor of the start point.
    pub fn level_of(&self, node: u32) -> Option<usize> {
        self.spine.iter().position(|&s| s == node)
    }

    fn ensure_spine(&mut self, level: usize) {
        while self.spine.len() <= level {
            let child = *self.spine.last().expect("spine is never empty");
            let p = self
                .tree
                .add(Node::new(Kind::Placeholder, Tag::Other, NONE, NONE));
            self.tree.append_child(p, child);
            self.spine.push(p);
        }
    }

    fn element(&mut self, info: TagInfo, start: u32, end: u32) -> u32 {
        let mut n = Node::new(Kind::Element, info.tag, start, end);
        n.flags = info.flags;
        n.name_start = info.name_start;
        n.name_len = info.name_len;
        self.elements_built += 1;
        self.tree.add(n)
    }

    fn same_name(&self, id: u32, info: &TagInfo) -> bool {
        let n = self.tree.node(id);
        n.tag == info.tag
            && (info.tag != Tag::Other
                || self.name_bytes(n.name_start, n.name_len)
                    == self.name_bytes(info.name_start, info.name_len))
    }

    fn name_bytes(&self, start: u32, len: u16) -> &[u8] {
        let s = start as usize;
        &self.buf[s.min(self.buf.len())..(s + len as usize).min(self.buf.len())]
    }

    fn back_container(&self) -> u32 {
        match self.pending.last() {
            Some(&id) => id,
            None => self.spine[self.starts_found],
        }
    }

    fn fwd_container(&self) -> u32 {
        match self.open.last() {
            Some(&id) => id,
            None => self.spine[self.ends_found.min(self.spine.len() - 1)],
        }
    }

    /// Read one token backward.
    fn back_step(&mut self) {
        let Some(tok) = self.back.next() else {
            self.back_done = true;
            // Whatever is still pending had no start tag (uncleaned input): close them here.
            for id in std::mem::take(&mut self.pending) {
                self.tree.node_mut(id).start = 0;
            }
            let level = self.starts_found;
            let root = self.spine[level];
            let n = self.tree.node_mut(root);
            n.kind = Kind::Root;
            n.start = 0;
            self.root_level = Some(level);
            return;
        };
        match tok.kind {
            TokenKind::Text => {
                let id = self
                    .tree
                    .add(Node::new(Kind::Text, Tag::Other, tok.start, tok.end));
                self.texts_built += 1;
                let c = self.back_container();
                self.tree.prepend_child(c, id);
            }
            TokenKind::EndTag => {
                let info = parse_tag(self.buf, tok);
                let id = self.element(info, NONE, tok.end);
                let c = self.back_container();
                self.tree.prepend_child(c, id);
                self.pending.push(id);
            }
            TokenKind::StartTag => self.back_start_tag(tok),
        }
    }

    fn back_start_tag(&mut self, tok: Token) {
        let info = parse_tag(self.buf, tok);
        if info.tag.is_void() {
            let id = self.element(info, tok.start, tok.end);
            let c = self.back_container();
            self.tree.prepend_child(c, id);
            return;
        }
        if let Some(&top) = self.pending.last() {
            if self.same_name(top, &info) {
                self.pending.pop();
                self.set_start(top, info, tok.start);
                return;
            }
            // Match (Fig. 1) for input that is not balanced: a matching pending element
            // deeper in the stack closes those above it (they had no start tag)…
            if let Some(k) = self.pending.iter().rposition(|&p| self.same_name(p, &info)) {
                while self.pending.len() > k + 1 {
                    let id = self.pending.pop().expect("len > k + 1");
                    self.tree.node_mut(id).start = tok.end;
                }
                let id = self.pending.pop().expect("found at k");
                self.set_start(id, info, tok.start);
                return;
            }
            // …otherwise the start tag had no end tag: its element holds the following
            // siblings it can contain.
            self.unclosed_start(info, tok, top);
            return;
        }
        // No pending end tag: this start tag opens the next ancestor of the start point.
        if self.root_level.is_some() {
            return;
        }
        let level = self.starts_found;
        let id = self.spine[level];
        {
            let n = self.tree.node_mut(id);
            n.kind = Kind::Element;
            n.tag = info.tag;
            n.flags = info.flags;
            n.name_start = info.name_start;
            n.name_len = info.name_len;
            n.start = tok.start;
        }
        self.elements_built += 1;
        self.starts_found += 1;
        self.ensure_spine(self.starts_found);
    }

    fn set_start(&mut self, id: u32, info: TagInfo, start: u32) {
        let n = self.tree.node_mut(id);
        n.start = start;
        n.flags = info.flags;
    }

    fn unclosed_start(&mut self, info: TagInfo, tok: Token, container: u32) {
        let mut take = 0;
        let mut end = tok.end;
        for c in self.tree.children(container) {
            let child = self.tree.node(c);
            let fits = match info.tag {
                Tag::P => child.kind == Kind::Text || !child.tag.closes_p(),
                Tag::Li => child.tag != Tag::Li,
                Tag::Dd | Tag::Dt => !matches!(child.tag, Tag::Dd | Tag::Dt),
                Tag::Td | Tag::Th => !matches!(child.tag, Tag::Td | Tag::Th | Tag::Tr),
                Tag::Tr => !matches!(child.tag, Tag::Tr | Tag::Tbody | Tag::Thead | Tag::Tfoot),
                Tag::Option => child.tag != Tag::Option,
                _ => true,
            };
            if !fits {
                break;
            }
            take += 1;
            end = child.end;
        }
        let id = self.element(info, tok.start, end);
        self.tree.adopt_leading_children(container, id, take);
        self.tree.prepend_child(container, id);
    }

    /// Read one token forward.
    fn fwd_step(&mut self) {
        self.fwd_started = true;
        let Some(tok) = self.fwd.next() else {
            self.fwd_done = true;
            let len = self.buf.len() as u32;
            for id in std::mem::take(&mut self.open) {
                self.tree.node_mut(id).end = len;
            }
            for level in self.ends_found..self.spine.len() {
                let id = self.spine[level];
                self.tree.node_mut(id).end = len;
            }
            self.ends_found = self.spine.len();
            return;
        };
        match tok.kind {
            TokenKind::Text => {
                let id = self
                    .tree
                    .add(Node::new(Kind::Text, Tag::Other, tok.start, tok.end));
                self.texts_built += 1;
                let c = self.fwd_container();
                self.tree.append_child(c, id);
                if self.start_node == NONE {
                    self.start_node = id;
                }
            }
            TokenKind::StartTag => {
                let info = parse_tag(self.buf, tok);
                let id = self.element(info, tok.start, tok.end);
                let c = self.fwd_container();
                self.tree.append_child(c, id);
                if self.start_node == NONE {
                    self.start_node = id;
                }
                if !info.tag.is_void() {
                    self.open.push(id);
                }
            }
            TokenKind::EndTag => {
                let info = parse_tag(self.buf, tok);
                if let Some(k) = self.open.iter().rposition(|&o| self.same_name(o, &info)) {
                    while self.open.len() > k {
                        let id = self.open.pop().expect("len > k");
                        self.tree.node_mut(id).end = tok.end;
                    }
                    return;
                }
                if !self.open.is_empty() {
                    // Stray end tag inside open elements (uncleaned input): ignore it.
                    return;
                }
                if self.root_level.is_some_and(|r| self.ends_found >= r) {
                    return;
                }
                // No open element: this end tag closes the next ancestor of the start point.
                let id = self.spine[self.ends_found];
                self.tree.node_mut(id).end = tok.end;
                self.ends_found += 1;
                self.ensure_spine(self.ends_found);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serialise the subtree of `id` as `tag(children)` / `"text"`, iteratively.
    fn shape(p: &PartialParse, id: u32) -> String {
        let mut out = String::new();
        let mut stack: Vec<(u32, bool)> = vec![(id, true)];
        while let Some((n, enter)) = stack.pop() {
            let node = p.tree.node(n);
            if !enter {
                out.push(')');
                continue;
            }
            match node.kind {
                Kind::Text => {
                    let t = &p.buf[node.start as usize..node.end as usize];
                    out.push_str(&format!("{:?}", String::from_utf8_lossy(t)));
                }
                _ => {
                    out.push_str(&format!("{:?}(", node.tag).to_lowercase());
                    stack.push((n, false));
                    let kids: Vec<u32> = p.tree.children(n).collect();
                    for k in kids.into_iter().rev() {
                        stack.push((k, true));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn reverse_parse_builds_ancestors_and_left_siblings() {
        let buf = b"<div><p>a</p><p>b<br>c</p></div>";
        // Start at "c" (offset 20).
        let at = buf.windows(1).rposition(|w| w == b"c").unwrap();
        let mut p = PartialParse::new(buf, at);
        let start = p.read_start_node();
        assert_eq!(p.tree.node(start).kind, Kind::Text);
        let l0 = p.complete_level(0).unwrap();
        assert_eq!(shape(&p, l0), "p(\"b\"br()\"c\")");
        let l1 = p.complete_level(1).unwrap();
        assert_eq!(shape(&p, l1), "div(p(\"a\")p(\"b\"br()\"c\"))");
        let l2 = p.complete_level(2).unwrap();
        assert_eq!(p.tree.node(l2).kind, Kind::Root);
        assert_eq!(p.complete_level(3), None);
        assert_eq!(p.nodes_built(), 7);
    }

    #[test]
    fn match_algorithm_handles_unclosed_start_tags_backward() {
        // Not a cleaned buffer: `<p>` and `<li>` have no end tags.
        let buf = b"<div><p>a<div>b</div><ul><li>x<li>y</ul></div>";
        let mut p = PartialParse::new(buf, buf.len());
        let root = p.complete_level(0).unwrap();
        assert_eq!(
            shape(&p, root),
            "other(div(p(\"a\")div(\"b\")ul(li(\"x\")li(\"y\"))))"
        );
    }

    #[test]
    fn stops_early_when_asked_little() {
        let mut html = String::from("<body>");
        for i in 0..1000 {
            html.push_str(&format!("<div><p>para {i}</p></div>"));
        }
        html.push_str("</body>");
        let at = html.find("para 500").unwrap();
        let mut p = PartialParse::new(html.as_bytes(), at);
        p.complete_level(1).unwrap();
        assert_eq!(p.nodes_built(), 3);
        assert!(p.bytes_touched() < 40);
    }
}
