//! Tree-construction rules: HTML's implied end tags (`p`, `li`, `dt`/`dd`, table parts,
//! `option`, headings, nested `a`), head handling, the open-element stack and its counts,
//! opening and closing elements (with their boilerplate, link and heading state).
//!
//! Invariants: stack searches look at most `MAX_STACK_SEARCH` entries (linear time on any
//! nesting); every opened element that was emitted is closed exactly once.

use super::*;

/// How far end tags and implied end tags search the open-element stack.
pub(super) const MAX_STACK_SEARCH: usize = 1024;

pub(super) const COUNT_SLOTS: usize = 512;

pub(super) fn fnv(name: &[u8]) -> u32 {
    let mut h: u32 = 0x811c9dc5;
    for &b in name {
        h = (h ^ b as u32).wrapping_mul(0x01000193);
    }
    h
}

pub(super) fn count_key(tag: Tag, name: &[u8]) -> u16 {
    if tag == Tag::Other {
        (128 + fnv(name) % (COUNT_SLOTS as u32 - 128)) as u16
    } else {
        tag as u16
    }
}

impl Open {
    pub(super) fn matches(&self, cleaner: &Cleaner, tag: Tag, name: &[u8]) -> bool {
        self.tag == tag
            && (tag != Tag::Other
                || cleaner.names
                    [self.name_off as usize..self.name_off as usize + self.name_len as usize]
                    == *name)
    }
}

/// Elements that may stay in `<head>` without closing it.
pub(super) fn is_head_content(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Title
            | Tag::Meta
            | Tag::Link
            | Tag::Base
            | Tag::Script
            | Tag::Style
            | Tag::Noscript
            | Tag::Template
            | Tag::Head
            | Tag::Html
            | Tag::Object
    )
}

impl<'a> Cleaner<'a> {
    pub(super) fn head_open(&self) -> bool {
        self.open_counts[Tag::Head as usize] > 0
    }

    /// Whether an `svg` or `math` element is open: foreign content, where HTML's implied
    /// end tags do not apply.
    pub(super) fn in_foreign_content(&self) -> bool {
        self.open_counts[Tag::Svg as usize] > 0 || self.open_counts[Tag::Math as usize] > 0
    }

    pub(super) fn close_head(&mut self) {
        if let Some(idx) = self.find_open(|_, e| e.tag == Tag::Head, |_| false) {
            self.pop_to(idx);
        }
    }

    pub(super) fn close_p(&mut self) {
        if self.open_counts[Tag::P as usize] > 0
            && let Some(idx) = self.find_open(
                |_, e| e.tag == Tag::P,
                |e| {
                    matches!(
                        e.tag,
                        Tag::Table | Tag::Td | Tag::Th | Tag::Caption | Tag::Html | Tag::Button
                    )
                },
            )
        {
            self.pop_to(idx);
        }
    }

    // Called for every start tag; LLVM stops inlining it into the cleaner's loop when that
    // grows a little (measured: +10M instructions on dragnet).
    #[inline(always)]
    pub(super) fn implied_end_tags(&mut self, tag: Tag) {
        match tag {
            Tag::Li => self.close_list_item(|t| t == Tag::Li),
            Tag::Dd | Tag::Dt => self.close_list_item(|t| matches!(t, Tag::Dd | Tag::Dt)),
            Tag::Option | Tag::Optgroup => {
                if let Some(top) = self.stack.last()
                    && top.tag == Tag::Option
                {
                    self.pop_top();
                }
            }
            Tag::Tr => self.close_in_table(|t| t == Tag::Tr),
            Tag::Td | Tag::Th => self.close_in_table(|t| matches!(t, Tag::Td | Tag::Th)),
            Tag::Tbody | Tag::Thead | Tag::Tfoot => self.close_in_table(|t| {
                matches!(
                    t,
                    Tag::Tbody | Tag::Thead | Tag::Tfoot | Tag::Tr | Tag::Td | Tag::Th
                )
            }),
            Tag::A => {
                if self.open_counts[Tag::A as usize] > 0
                    && let Some(idx) = self.find_open(
                        |_, e| e.tag == Tag::A,
                        |e| matches!(e.tag, Tag::Td | Tag::Th | Tag::Table | Tag::Caption),
                    )
                {
                    self.pop_to(idx);
                }
            }
            _ => {}
        }
        if tag.closes_p() {
            self.close_p();
        }
        if tag.is_heading()
            && let Some(top) = self.stack.last()
            && top.tag.is_heading()
        {
            self.pop_top();
        }
    }

    pub(super) fn close_list_item(&mut self, is_item: fn(Tag) -> bool) {
        if let Some(idx) = self.find_open(|_, e| is_item(e.tag), |e| e.tag.is_special_scope_stop())
        {
            self.pop_to(idx);
        }
    }

    /// Close the innermost open element matching `is_target` (a table cell, row or section)
    /// that sits inside the current table.
    pub(super) fn close_in_table(&mut self, is_target: fn(Tag) -> bool) {
        if self.open_counts[Tag::Table as usize] == 0 {
            return;
        }
        // The outermost match before the table boundary: `<tr>` closes an open tr with its
        // cells; `<tbody>` closes the open section with its rows.
        let mut found = None;
        for (k, e) in self.stack.iter().enumerate().rev().take(MAX_STACK_SEARCH) {
            if e.tag == Tag::Table || e.tag == Tag::Template {
                break;
            }
            if is_target(e.tag) {
                found = Some(k);
            }
        }
        if let Some(idx) = found {
            self.pop_to(idx);
        }
    }

    /// The innermost open element matching `is_match`, searching out from the top of the
    /// stack until `is_stop` or a `<template>`: a template's content is a document of its
    /// own, so nothing inside it (`<p>`, `</div>`) closes an element outside it.
    pub(super) fn find_open(
        &self,
        is_match: impl Fn(&Self, &Open) -> bool,
        is_stop: impl Fn(&Open) -> bool,
    ) -> Option<usize> {
        for (k, e) in self.stack.iter().enumerate().rev().take(MAX_STACK_SEARCH) {
            if is_match(self, e) {
                return Some(k);
            }
            if is_stop(e) || e.tag == Tag::Template {
                return None;
            }
        }
        None
    }

    /// The hints of an element about to open (none for one removed or inside removed
    /// content, `html`, `body`, or inside `pre`; no weak boilerplate hint on a `span`).
    pub(super) fn element_hints(&mut self, tag: Tag, attrs: &Attrs<'a>, removed: bool) -> Hints {
        // Class words inside preformatted text mark code tokens (`hljs-comment`), not page
        // parts (Readability skips them inside code too).
        let in_pre = self.open_counts[Tag::Pre as usize] > 0;
        if self.suppress == 0 && !removed && !in_pre && !matches!(tag, Tag::Html | Tag::Body) {
            // Ids are mostly unique on a page; class values repeat on many elements.
            let class = self.class_memo.get(attrs.class);
            let hints = hints_of(attrs, id_value(attrs.id), class);
            // A weak boilerplate word on a span names no part of the page: the parts are
            // blocks, and a span classed "sidebar" around a box of an article's items is
            // the article's (azcentral.com). Strong words (comments, dialogs) stand.
            Hints {
                boiler: hints.boiler && (hints.strong || tag != Tag::Span),
                ..hints
            }
        } else {
            Hints::default()
        }
    }

    /// Opens an element, with its `hints` (see `element_hints`).
    pub(super) fn open_element(
        &mut self,
        tag: Tag,
        raw: &[u8],
        attrs: &Attrs,
        removed: bool,
        hints: Hints,
    ) {
        let name_off = self.names.len() as u32;
        let mut name_len = 0u16;
        if tag == Tag::Other {
            self.names.extend(canonical_name(raw));
            name_len = (self.names.len() - name_off as usize) as u16;
        }
        let key = count_key(tag, &self.names[name_off as usize..]);
        let emitted = self.suppress == 0 && !removed;
        let (mut boiler, mut strong, good) = (hints.boiler, hints.strong, hints.good);
        if emitted && tag.is_boilerplate() {
            boiler = true;
            strong = true;
        }
        let link = emitted && tag == Tag::A && attrs.href;
        if link && self.h1_open.is_some() && lex::names_home(attrs.href_value) {
            self.res.h1_links_home = true;
        }
        if emitted {
            self.emit_tag(tag, raw, attrs, boiler, good);
            self.res.nodes_total += 1;
            if tag == Tag::H1 && self.res.h1.is_none() && self.h1_open.is_none() {
                self.h1_open = Some((self.out.len(), self.stack.len() as u32));
            }
        }
        if removed {
            self.suppress += 1;
        }
        if link {
            self.link_depth += 1;
        }
        if boiler {
            let start = self.out.len() - self.last_tag_len;
            // Inside a dialog, every hinted element is part of the dialog.
            let in_dialog = self
                .boiler_stack
                .last()
                .is_some_and(|&k| self.res.boiler_ranges[k as usize].never_content);
            self.res.boiler_ranges.push(BoilerRange {
                start: start as u32,
                end: u32::MAX,
                strong,
                never_content: hints.never_content || in_dialog,
                comments: hints.comments,
            });
            self.boiler_stack
                .push((self.res.boiler_ranges.len() - 1) as u32);
        }
        if good && emitted {
            self.good_depth += 1;
        }
        if emitted && tag.is_heading() {
            self.heading_depth += 1;
        }
        self.open_counts[key as usize] += 1;
        self.stack.push(Open {
            tag,
            key,
            emitted,
            removed,
            counted_hidden: false,
            link,
            boiler,
            good: good && emitted,
            name_off,
            name_len,
        });
        self.res.max_depth = self.res.max_depth.max(self.stack.len() as u32);
    }

    pub(super) fn pop_top(&mut self) {
        let Some(e) = self.stack.pop() else {
            return;
        };
        self.open_counts[e.key as usize] -= 1;
        if e.removed {
            self.suppress -= 1;
        }
        if e.counted_hidden {
            self.hidden_open = false;
            if self.hidden_held > self.res.hidden_max {
                self.res.hidden_max = self.hidden_held;
                self.res.hidden_max_at = self.hidden_open_at;
            }
        }
        if e.emitted {
            self.finish_run();
            if e.tag.is_block() {
                self.flush_block();
            }
            self.out.extend_from_slice(b"</");
            if e.tag == Tag::Other {
                let name =
                    &self.names[e.name_off as usize..e.name_off as usize + e.name_len as usize];
                self.out.extend_from_slice(name);
            } else {
                self.out.extend_from_slice(e.tag.name());
            }
            self.out.push(b'>');
            if e.link {
                self.link_depth -= 1;
            }
            if e.boiler
                && let Some(id) = self.boiler_stack.pop()
            {
                self.res.boiler_ranges[id as usize].end = self.out.len() as u32;
            }
            if e.good {
                self.good_depth -= 1;
            }
            if e.tag.is_heading() {
                self.heading_depth -= 1;
            }
            if let Some((start, depth)) = self.h1_open
                && depth as usize == self.stack.len()
            {
                self.res.h1 = Some((start as u32, self.out.len() as u32));
                self.h1_open = None;
            }
        }
        if e.tag == Tag::Other {
            self.names.truncate(e.name_off as usize);
        }
    }

    pub(super) fn pop_to(&mut self, idx: usize) {
        while self.stack.len() > idx {
            self.pop_top();
        }
    }
}
