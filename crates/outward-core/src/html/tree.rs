//! The arena tree both tokenizers grow: `Vec<Node>` addressed by `u32` indices, siblings as
//! a doubly linked list so children can be prepended (reverse parsing) and appended
//! (forward parsing) in O(1). Nodes hold byte ranges into the cleaned buffer, never strings.
//!
//! Invariants: no node owns another (indices only, no `Rc`); every walk over the tree is
//! iterative (parent/sibling links), so depth never touches the call stack.

use crate::html::tags::Tag;

/// "No node" in a link field.
pub const NONE: u32 = u32::MAX;

/// Element flags parsed from the cleaner's canonical tags.
pub const F_HREF: u8 = 1;
pub const F_BOILER: u8 = 2;
pub const F_GOOD: u8 = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Element,
    Text,
    /// An ancestor of the parse's start point whose start tag has not been read yet.
    Placeholder,
    /// The document (above `<html>`).
    Root,
}

#[derive(Debug, Clone, Copy)]
pub struct Node {
    pub kind: Kind,
    pub tag: Tag,
    pub flags: u8,
    /// Offset of the start tag (elements) or of the text.
    pub start: u32,
    /// Offset just past the end tag (elements) or the text; `NONE` while unknown.
    pub end: u32,
    /// Name bytes in the buffer, for `Tag::Other` comparisons.
    pub name_start: u32,
    pub name_len: u16,
    pub parent: u32,
    pub first_child: u32,
    pub last_child: u32,
    pub prev: u32,
    pub next: u32,
}

impl Node {
    pub fn new(kind: Kind, tag: Tag, start: u32, end: u32) -> Node {
        Node {
            kind,
            tag,
            flags: 0,
            start,
            end,
            name_start: 0,
            name_len: 0,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev: NONE,
            next: NONE,
        }
    }
}

#[derive(Debug, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
}

impl Tree {
    pub fn add(&mut self, node: Node) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    pub fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn node_mut(&mut self, id: u32) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    pub fn append_child(&mut self, parent: u32, child: u32) {
        let last = self.node(parent).last_child;
        {
            let c = self.node_mut(child);
            c.parent = parent;
            c.prev = last;
            c.next = NONE;
        }
        if last == NONE {
            self.node_mut(parent).first_child = child;
        } else {
            self.node_mut(last).next = child;
        }
        self.node_mut(parent).last_child = child;
    }

    pub fn prepend_child(&mut self, parent: u32, child: u32) {
        let first = self.node(parent).first_child;
        {
            let c = self.node_mut(child);
            c.parent = parent;
            c.next = first;
            c.prev = NONE;
        }
        if first == NONE {
            self.node_mut(parent).last_child = child;
        } else {
            self.node_mut(first).prev = child;
        }
        self.node_mut(parent).first_child = child;
    }

    /// Move the first `count` children of `from` under `to` (appended, in order).
    pub fn adopt_leading_children(&mut self, from: u32, to: u32, count: usize) {
        for _ in 0..count {
            let c = self.node(from).first_child;
            if c == NONE {
                break;
            }
            let next = self.node(c).next;
            self.node_mut(from).first_child = next;
            if next == NONE {
                self.node_mut(from).last_child = NONE;
            } else {
                self.node_mut(next).prev = NONE;
            }
            self.append_child(to, c);
        }
    }

    /// Children of `id`, in order.
    pub fn children(&self, id: u32) -> Children<'_> {
        Children {
            tree: self,
            next: self.node(id).first_child,
        }
    }

    /// Is `a` an ancestor of (or equal to) `b`?
    pub fn contains(&self, a: u32, mut b: u32) -> bool {
        while b != NONE {
            if a == b {
                return true;
            }
            b = self.node(b).parent;
        }
        false
    }

    /// Pre-order walk of the subtree of `root` (root first), iteratively.
    pub fn descendants(&self, root: u32) -> Descendants<'_> {
        Descendants {
            tree: self,
            root,
            next: root,
        }
    }

    /// Number of nodes in the subtree of `root`.
    pub fn subtree_size(&self, root: u32) -> usize {
        self.descendants(root).count()
    }
}

pub struct Children<'a> {
    tree: &'a Tree,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.tree.node(id).next;
        Some(id)
    }
}

pub struct Descendants<'a> {
    tree: &'a Tree,
    root: u32,
    next: u32,
}

impl Descendants<'_> {
    /// Do not descend into the children of the node last returned.
    pub fn skip_children(&mut self, last: u32) {
        self.next = self.after_subtree(last);
    }

    fn after_subtree(&self, mut id: u32) -> u32 {
        loop {
            if id == self.root {
                return NONE;
            }
            let n = self.tree.node(id);
            if n.next != NONE {
                return n.next;
            }
            id = n.parent;
            if id == NONE {
                return NONE;
            }
        }
    }
}

impl Iterator for Descendants<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let id = self.next;
        if id == NONE {
            return None;
        }
        let n = self.tree.node(id);
        self.next = if n.first_child != NONE {
            n.first_child
        } else {
            self.after_subtree(id)
        };
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepend_append_and_walk() {
        let mut t = Tree::default();
        let r = t.add(Node::new(Kind::Root, Tag::Other, 0, 0));
        let a = t.add(Node::new(Kind::Element, Tag::Div, 0, 0));
        let b = t.add(Node::new(Kind::Element, Tag::P, 0, 0));
        let c = t.add(Node::new(Kind::Text, Tag::Other, 0, 0));
        t.append_child(r, b);
        t.prepend_child(r, a);
        t.append_child(b, c);
        assert_eq!(t.children(r).collect::<Vec<_>>(), vec![a, b]);
        assert_eq!(t.descendants(r).collect::<Vec<_>>(), vec![r, a, b, c]);
        assert_eq!(t.subtree_size(b), 2);
        assert!(t.contains(r, c) && !t.contains(a, c));
    }

    #[test]
    fn deep_chain_walks_without_recursion() {
        let mut t = Tree::default();
        let mut parent = t.add(Node::new(Kind::Root, Tag::Other, 0, 0));
        let root = parent;
        for _ in 0..200_000 {
            let c = t.add(Node::new(Kind::Element, Tag::Div, 0, 0));
            t.append_child(parent, c);
            parent = c;
        }
        assert_eq!(t.subtree_size(root), 200_001);
    }
}
