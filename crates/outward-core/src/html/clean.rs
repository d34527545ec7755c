//! The cleaner: one forward pass over the raw page that makes reverse tokenizing sound and
//! gathers the flat statistics the methods rank seeds by. It owns every HTML tokenizer rule
//! that can only be decided reading forward.
//!
//! Output ([`Cleaned`]): a byte buffer of canonical markup where
//! - comments, doctype, processing instructions, `head`, `script`, `style`, `template`,
//!   `svg`, `math`, `iframe`, `select`, `textarea`, `button`, `object`, `canvas`,
//!   `audio`/`video`, `noscript` (unless kept) and every element marked `hidden`,
//!   `aria-hidden="true"` or `display:none` are gone with their content (`visibility:hidden`
//!   stays: WeChat hides its articles that way until a script shows them)
//!   (`form` is always kept: ASP.NET wraps whole pages in one);
//! - `<` and `>` occur only as tag delimiters (text `<`/`>` become `&lt;`/`&gt;`), so a tag
//!   ends at the first `>` and starts at the last `<` before it, in either direction;
//! - tags are canonical: `<name` + flags (` h` href present, ` b` boilerplate hint,
//!   ` g` content hint) + ` id="…"` / ` class="…"` (quote-free), `>`; names lowercased
//!   (unknown names keep only letters, digits, `-_:.` and non-ASCII);
//! - the markup is balanced: HTML's implied end tags (`p`, `li`, `dt`/`dd`, `tr`/`td`/`th`,
//!   `option`, table sections, headings, nested `a`), misnesting and unclosed elements are
//!   resolved here, stray end tags dropped, every non-void element gets exactly one end tag,
//!   void elements (only `br`, `hr` are kept) none;
//! - blank text runs are one space.
//!
//! Plus: every non-blank text run with its measures and flags (inside a link, inside a
//! boilerplate-hinted element), block-level aggregates of those runs, the node count of the
//! cleaned page, the page `<title>` and the first `<h1>`'s range.
//!
//! Invariants: linear time (stack searches are capped), no recursion, never panics.

use crate::html::tags::Tag;
use crate::html::textstats::{TextMeasure, measure};
use memchr::{memchr, memchr2, memmem};

/// Flag bits of text runs and blocks.
pub const IN_LINK: u8 = 1;
pub const IN_BOILER: u8 = 2;
pub const IN_HEADING: u8 = 4;
pub const IN_GOOD: u8 = 8;

/// How far end tags and implied end tags search the open-element stack.
const MAX_STACK_SEARCH: usize = 1024;

/// One non-blank text run of the cleaned buffer.
#[derive(Debug, Clone, Copy)]
pub struct TextRun {
    pub start: u32,
    pub end: u32,
    pub measure: TextMeasure,
    pub flags: u8,
}

/// The text runs between two block boundaries (a "line" of the rendered page).
#[derive(Debug, Clone, Copy, Default)]
pub struct Block {
    /// Start of the block's first text run in the cleaned buffer.
    pub start: u32,
    /// Start of the block's first run outside links (or the first run).
    pub seed: u32,
    pub weight: u32,
    pub link_weight: u32,
    pub punct: u32,
    pub chars: u32,
    pub flags: u8,
    /// Innermost boilerplate-hinted ancestor (index into `Cleaned::boiler_ranges`), or
    /// `NO_BOILER`.
    pub boiler_id: u32,
}

/// A boilerplate-hinted element: its range in the buffer and whether the hint is strong
/// (comment sections, `nav`/`aside`/`footer` tags) or weak (share, menu, banner, ...).
#[derive(Debug, Clone, Copy)]
pub struct BoilerRange {
    pub start: u32,
    pub end: u32,
    pub strong: bool,
}

/// `Block::boiler_id` of blocks outside boilerplate-hinted elements.
pub const NO_BOILER: u32 = u32::MAX;

/// What the cleaner produced for one page.
#[derive(Debug, Default)]
pub struct Cleaned {
    pub buf: Vec<u8>,
    pub runs: Vec<TextRun>,
    pub blocks: Vec<Block>,
    /// Elements (start tags) + text runs (blank or not) in `buf`.
    pub nodes_total: u64,
    pub title: Option<String>,
    /// Range of the first `<h1>` element in `buf` (start tag to end of end tag).
    pub h1: Option<(u32, u32)>,
    pub saw_noscript: bool,
    /// Sum of the weights of all runs.
    pub text_weight: u64,
    /// `[start, end)` in `buf` of every boilerplate-hinted element.
    pub boiler_ranges: Vec<BoilerRange>,
}

/// Cleaner settings.
#[derive(Debug, Clone, Copy, Default)]
pub struct CleanOptions {
    /// Parse `<noscript>` content as markup and keep it.
    pub keep_noscript: bool,
}

#[derive(Debug, Clone, Copy)]
struct Open {
    tag: Tag,
    /// Key into `open_counts`.
    key: u16,
    /// Start tag written to the output (false inside removed content).
    emitted: bool,
    /// This element is removed with its content.
    removed: bool,
    link: bool,
    boiler: bool,
    good: bool,
    /// Offset of the name in `names` (for `Tag::Other`).
    name_off: u32,
    name_len: u16,
}

const COUNT_SLOTS: usize = 512;

struct Cleaner<'a> {
    src: &'a [u8],
    opts: CleanOptions,
    out: Vec<u8>,
    stack: Vec<Open>,
    names: Vec<u8>,
    open_counts: Vec<u32>,
    suppress: u32,
    link_depth: u32,
    boiler_stack: Vec<u32>,
    good_depth: u32,
    heading_depth: u32,
    run_start: Option<usize>,
    block: Block,
    block_runs: u32,
    res: Cleaned,
    h1_open: Option<(usize, u32)>,
    last_tag_len: usize,
}

/// Attributes of a start tag that the cleaner looks at.
#[derive(Default)]
struct Attrs<'a> {
    id: &'a [u8],
    class: &'a [u8],
    role: &'a [u8],
    itemprop: &'a [u8],
    href: bool,
    hidden: bool,
}

fn fnv(name: &[u8]) -> u32 {
    let mut h: u32 = 0x811c9dc5;
    for &b in name {
        h = (h ^ b as u32).wrapping_mul(0x01000193);
    }
    h
}

fn count_key(tag: Tag, name: &[u8]) -> u16 {
    if tag == Tag::Other {
        (128 + fnv(name) % (COUNT_SLOTS as u32 - 128)) as u16
    } else {
        tag as u16
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Hint kinds of class/id words.
const BOILER: u8 = 1;
/// Keeps an element even when a boilerplate word matched (Readability's "maybe" list).
const MAYBE: u8 = 2;
const GOOD: u8 = 4;
/// A boilerplate word that is trusted even on big elements (comment sections).
const STRONG: u8 = 8;

/// Class/id substrings (lowercase) and their hints, bucketed by first byte so a scan tries
/// only a few words per position. Boilerplate words follow Readability's "unlikely" list.
fn hint_words(first: u8) -> &'static [(&'static [u8], u8)] {
    match first {
        b'a' => &[(b"advert", BOILER), (b"article", MAYBE | GOOD)],
        b'b' => &[
            (b"breadcrumb", BOILER),
            (b"banner", BOILER),
            (b"body", MAYBE | GOOD),
        ],
        b'c' => &[
            (b"comment", BOILER | STRONG),
            (b"cookie", BOILER | STRONG),
            (b"consent", BOILER | STRONG),
            (b"combx", BOILER),
            (b"community", BOILER),
            (b"copyright", BOILER),
            (b"column", MAYBE),
            (b"content", MAYBE | GOOD),
        ],
        b'd' => &[(b"disqus", BOILER | STRONG)],
        b'e' => &[(b"entry", GOOD)],
        b'f' => &[(b"footer", BOILER)],
        b'g' => &[(b"gdpr", BOILER)],
        b'm' => &[
            (b"menu", BOILER),
            (b"masthead", BOILER),
            (b"main", MAYBE | GOOD),
        ],
        b'n' => &[
            (b"newsletter", BOILER),
            (b"navbar", BOILER),
            (b"navigation", BOILER),
        ],
        b'o' => &[(b"outbrain", BOILER), (b"onetrust", BOILER | STRONG)],
        b'p' => &[
            (b"popup", BOILER),
            (b"pagination", BOILER),
            (b"pager", BOILER),
            (b"promo", BOILER),
            (b"post", GOOD),
        ],
        b'r' => &[
            (b"related", BOILER),
            (b"recommend", BOILER),
            (b"remark", BOILER | STRONG),
            (b"replies", BOILER | STRONG),
        ],
        b's' => &[
            (b"sidebar", BOILER),
            (b"share", BOILER),
            (b"sharing", BOILER),
            (b"social", BOILER),
            (b"sponsor", BOILER),
            (b"subscribe", BOILER),
            (b"shoutbox", BOILER),
            (b"skyscraper", BOILER),
            (b"shadow", MAYBE),
            (b"story", GOOD),
        ],
        b't' => &[(b"toolbar", BOILER), (b"taboola", BOILER), (b"text", GOOD)],
        _ => &[],
    }
}

/// Hint bits of one class or id value.
fn value_hints(value: &[u8]) -> u8 {
    let mut lower = [0u8; 300];
    let n = value.len().min(lower.len());
    for (d, s) in lower.iter_mut().zip(value) {
        *d = s.to_ascii_lowercase();
    }
    let v = &lower[..n];
    let mut bits = 0;
    for i in 0..n {
        for (word, kind) in hint_words(v[i]) {
            if v[i..].starts_with(word) {
                bits |= kind;
            }
        }
    }
    // "ad" / "ads" as whole words.
    if v.split(|b| !b.is_ascii_alphanumeric())
        .any(|w| w == b"ad" || w == b"ads")
    {
        bits |= BOILER;
    }
    bits
}

/// An id made of four or more words joined by `-`/`_` (a heading slug, a generated id).
fn is_slug(id: &[u8]) -> bool {
    id.split(|&b| b == b'-' || b == b'_')
        .filter(|w| !w.is_empty())
        .count()
        >= 4
}

/// (boilerplate, strong boilerplate, content) hints of an element's attributes.
fn class_hints(attrs: &Attrs) -> (bool, bool, bool) {
    let mut boiler = false;
    let mut strong = false;
    let mut good = false;
    for value in [attrs.id, attrs.class] {
        if value.is_empty() || value.len() > 300 {
            continue;
        }
        // Ids that are slugs of headings ("evolve-shared-mutable-history") say nothing.
        if std::ptr::eq(value, attrs.id) && is_slug(value) {
            continue;
        }
        let bits = value_hints(value);
        if bits & BOILER != 0 && bits & MAYBE == 0 {
            boiler = true;
            strong |= bits & STRONG != 0;
        }
        if bits & GOOD != 0 {
            good = true;
        }
    }
    let role = attrs.role;
    if role.eq_ignore_ascii_case(b"navigation")
        || role.eq_ignore_ascii_case(b"complementary")
        || role.eq_ignore_ascii_case(b"contentinfo")
        || role.eq_ignore_ascii_case(b"menu")
    {
        boiler = true;
    }
    if role.eq_ignore_ascii_case(b"dialog") || role.eq_ignore_ascii_case(b"alertdialog") {
        boiler = true;
        strong = true;
    }
    if role.eq_ignore_ascii_case(b"main") || value_hints_articlebody(attrs.itemprop) {
        good = true;
        boiler = false;
        strong = false;
    }
    (boiler, strong, good)
}

fn value_hints_articlebody(itemprop: &[u8]) -> bool {
    itemprop.len() >= 11
        && itemprop
            .windows(11)
            .any(|w| w.eq_ignore_ascii_case(b"articlebody"))
}

fn style_hides(style: &[u8]) -> bool {
    if style.len() > 2000 {
        return false;
    }
    let mut compact = [0u8; 64];
    let mut n = 0;
    // Look for display:none / visibility:hidden ignoring spaces and case.
    for &b in style {
        if is_ws(b) {
            continue;
        }
        if b == b';' {
            if is_hiding(&compact[..n]) {
                return true;
            }
            n = 0;
            continue;
        }
        if n < compact.len() {
            compact[n] = b.to_ascii_lowercase();
            n += 1;
        }
    }
    is_hiding(&compact[..n])
}

fn is_hiding(decl: &[u8]) -> bool {
    // visibility:hidden is left alone: WeChat and others hide the article until a script
    // reveals it.
    decl.starts_with(b"display:none")
}

impl<'a> Cleaner<'a> {
    fn new(src: &'a [u8], opts: CleanOptions) -> Self {
        Cleaner {
            src,
            opts,
            out: Vec::with_capacity(src.len() / 2 + 64),
            stack: Vec::with_capacity(64),
            names: Vec::new(),
            open_counts: vec![0; COUNT_SLOTS],
            suppress: 0,
            link_depth: 0,
            boiler_stack: Vec::new(),
            good_depth: 0,
            heading_depth: 0,
            run_start: None,
            block: Block {
                boiler_id: NO_BOILER,
                ..Block::default()
            },
            block_runs: 0,
            res: Cleaned::default(),
            h1_open: None,
            last_tag_len: 0,
        }
    }

    fn run(mut self) -> Cleaned {
        let src = self.src;
        let n = src.len();
        let mut i = 0;
        while i < n {
            let Some(rel) = memchr(b'<', &src[i..]) else {
                self.text(i, n);
                break;
            };
            let lt = i + rel;
            if lt > i {
                self.text(i, lt);
            }
            i = self.markup(lt);
        }
        self.finish_run();
        while !self.stack.is_empty() {
            self.pop_top();
        }
        self.flush_block();
        self.res.buf = self.out;
        self.res
    }

    // ---- text ----

    fn text(&mut self, from: usize, to: usize) {
        let seg = &self.src[from..to];
        if self.head_open() && !seg.iter().all(|&b| is_ws(b)) {
            self.close_head();
        }
        if self.suppress > 0 {
            return;
        }
        self.push_text(seg);
    }

    /// Append text bytes, escaping `<` and `>`.
    fn push_text(&mut self, seg: &[u8]) {
        if self.run_start.is_none() {
            self.run_start = Some(self.out.len());
        }
        let mut rest = seg;
        while let Some(at) = memchr2(b'<', b'>', rest) {
            self.out.extend_from_slice(&rest[..at]);
            self.out
                .extend_from_slice(if rest[at] == b'<' { b"&lt;" } else { b"&gt;" });
            rest = &rest[at + 1..];
        }
        self.out.extend_from_slice(rest);
    }

    /// Close the current text run (before any tag is written).
    fn finish_run(&mut self) {
        let Some(start) = self.run_start.take() else {
            return;
        };
        self.res.nodes_total += 1;
        let bytes = &self.out[start..];
        if bytes.iter().all(|&b| is_ws(b)) {
            self.out.truncate(start);
            self.out.push(b' ');
            return;
        }
        let m = measure(bytes);
        let mut flags = 0;
        if self.link_depth > 0 {
            flags |= IN_LINK;
        }
        if !self.boiler_stack.is_empty() {
            flags |= IN_BOILER;
        }
        if self.heading_depth > 0 {
            flags |= IN_HEADING;
        }
        if self.good_depth > 0 {
            flags |= IN_GOOD;
        }
        let run = TextRun {
            start: start as u32,
            end: self.out.len() as u32,
            measure: m,
            flags,
        };
        self.res.runs.push(run);
        self.res.text_weight += m.weight as u64;
        let b = &mut self.block;
        if self.block_runs == 0 {
            b.start = run.start;
            b.seed = run.start;
            b.flags = flags & !IN_LINK;
            b.boiler_id = self.boiler_stack.last().copied().unwrap_or(NO_BOILER);
        } else if b.link_weight == b.weight && flags & IN_LINK == 0 && b.seed == b.start {
            // First non-link run of a block that so far held only links.
            b.seed = run.start;
        }
        self.block_runs += 1;
        b.weight += m.weight;
        b.chars += m.chars;
        b.punct += m.punct;
        if flags & IN_LINK != 0 {
            b.link_weight += m.weight;
        }
    }

    fn flush_block(&mut self) {
        if self.block_runs > 0 {
            self.res.blocks.push(self.block);
        }
        self.block = Block {
            boiler_id: NO_BOILER,
            ..Block::default()
        };
        self.block_runs = 0;
    }

    // ---- markup ----

    /// Handle the markup starting at `src[lt] == '<'`; returns where to continue.
    fn markup(&mut self, lt: usize) -> usize {
        let src = self.src;
        let n = src.len();
        let next = src.get(lt + 1).copied().unwrap_or(0);
        if next == b'!' {
            if src[lt..].starts_with(b"<!--") {
                let body = lt + 4;
                // `<!-->` and `<!--->` are complete (empty) comments.
                if src[body..].starts_with(b">") {
                    return body + 1;
                }
                if src[body..].starts_with(b"->") {
                    return body + 2;
                }
                return match memmem::find(&src[body..], b"-->") {
                    Some(at) => body + at + 3,
                    None => n,
                };
            }
            return skip_to_gt(src, lt + 2);
        }
        if next == b'?' {
            return skip_to_gt(src, lt + 2);
        }
        if next == b'/' {
            let after = src.get(lt + 2).copied().unwrap_or(0);
            if after.is_ascii_alphabetic() {
                return self.end_tag(lt);
            }
            if after == b'>' {
                return lt + 3;
            }
            if lt + 2 >= n {
                self.text(lt, n);
                return n;
            }
            return skip_to_gt(src, lt + 2);
        }
        if next.is_ascii_alphabetic() {
            return self.start_tag(lt);
        }
        // A lone `<` is text.
        self.text(lt, lt + 1);
        lt + 1
    }

    fn end_tag(&mut self, lt: usize) -> usize {
        let src = self.src;
        let name_start = lt + 2;
        let mut j = name_start;
        while j < src.len() && !is_ws(src[j]) && src[j] != b'/' && src[j] != b'>' {
            j += 1;
        }
        let mut lower = [0u8; 16];
        let raw = &src[name_start..j];
        let tag = if raw.len() <= lower.len() {
            for (d, s) in lower.iter_mut().zip(raw) {
                *d = s.to_ascii_lowercase();
            }
            Tag::from_name(&lower[..raw.len()])
        } else {
            Tag::Other
        };
        let end = match scan_attrs(src, j, None) {
            Some(e) => e,
            None => return src.len(),
        };
        if matches!(tag, Tag::Body | Tag::Html) || tag.is_void() {
            return end;
        }
        let lowered: Vec<u8>;
        let name: &[u8] = if tag == Tag::Other {
            lowered = canonical_name(raw).collect();
            &lowered
        } else {
            &[]
        };
        let key = count_key(tag, name);
        if self.open_counts[key as usize] == 0 {
            return end;
        }
        let is_table_part = matches!(
            tag,
            Tag::Td
                | Tag::Th
                | Tag::Tr
                | Tag::Tbody
                | Tag::Thead
                | Tag::Tfoot
                | Tag::Caption
                | Tag::Table
        );
        let found = self.find_open(
            |c, e| e.matches(c, tag, name),
            |e| {
                if tag == Tag::Table {
                    false
                } else if is_table_part {
                    e.tag == Tag::Table
                } else {
                    matches!(e.tag, Tag::Td | Tag::Th | Tag::Table | Tag::Caption)
                }
            },
        );
        if let Some(idx) = found {
            self.pop_to(idx);
        }
        end
    }

    fn start_tag(&mut self, lt: usize) -> usize {
        let src = self.src;
        let name_start = lt + 1;
        let mut j = name_start;
        while j < src.len() && !is_ws(src[j]) && src[j] != b'/' && src[j] != b'>' {
            j += 1;
        }
        let raw = &src[name_start..j];
        let mut lower = [0u8; 16];
        let tag = if raw.len() <= lower.len() {
            for (d, s) in lower.iter_mut().zip(raw) {
                *d = s.to_ascii_lowercase();
            }
            Tag::from_name(&lower[..raw.len()])
        } else {
            Tag::Other
        };
        let mut attrs = Attrs::default();
        let mut self_closing = false;
        let end = match scan_attrs(src, j, Some((&mut attrs, &mut self_closing))) {
            Some(e) => e,
            None => return src.len(),
        };

        // Raw-text elements: their content is never markup.
        let keep_noscript = tag == Tag::Noscript && self.opts.keep_noscript;
        if tag == Tag::Noscript {
            self.res.saw_noscript = true;
        }
        if (tag.is_raw_text() || tag == Tag::Noscript) && !keep_noscript {
            let content_end = find_raw_end(src, end, raw);
            let after = skip_end_tag(src, content_end);
            if tag == Tag::Title {
                if self.res.title.is_none()
                    && self.open_counts[Tag::Svg as usize] == 0
                    && self.open_counts[Tag::Math as usize] == 0
                {
                    let t = String::from_utf8_lossy(&src[end..content_end]);
                    self.res.title = Some(t.into_owned());
                }
                return after;
            }
            if tag.is_removed() || tag == Tag::Noscript || self.suppress > 0 {
                return after;
            }
            // xmp / plaintext: shown as text.
            self.open_element(tag, raw, &attrs, false);
            self.push_text(&src[end..content_end]);
            if let Some(top) = self.stack.len().checked_sub(1) {
                self.pop_to(top);
            }
            return after;
        }

        if tag.is_void() {
            if self.suppress == 0 && matches!(tag, Tag::Br | Tag::Hr) {
                if self.head_open() {
                    self.close_head();
                }
                if tag == Tag::Hr {
                    self.close_p();
                }
                self.emit_tag(tag, raw, &attrs, false, false);
                self.res.nodes_total += 1;
            }
            return end;
        }
        let removed = (tag.is_removed() || attrs.hidden) && !matches!(tag, Tag::Html | Tag::Body);
        if removed && self_closing {
            // `<svg/>`: nothing to remove.
            return end;
        }
        if self.head_open() && !is_head_content(tag) {
            self.close_head();
        }
        if self.suppress == 0 {
            if matches!(tag, Tag::Html | Tag::Body)
                && self.open_counts[count_key(tag, &[]) as usize] > 0
            {
                return end;
            }
            self.implied_end_tags(tag);
        }
        self.open_element(tag, raw, &attrs, removed);
        end
    }

    fn head_open(&self) -> bool {
        self.open_counts[Tag::Head as usize] > 0
    }

    fn close_head(&mut self) {
        if let Some(idx) = self.find_open(|_, e| e.tag == Tag::Head, |_| false) {
            self.pop_to(idx);
        }
    }

    fn close_p(&mut self) {
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

    fn implied_end_tags(&mut self, tag: Tag) {
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

    fn close_list_item(&mut self, is_item: fn(Tag) -> bool) {
        if let Some(idx) = self.find_open(|_, e| is_item(e.tag), |e| e.tag.is_special_scope_stop())
        {
            self.pop_to(idx);
        }
    }

    /// Close the innermost open element matching `is_target` (a table cell, row or section)
    /// that sits inside the current table.
    fn close_in_table(&mut self, is_target: fn(Tag) -> bool) {
        if self.open_counts[Tag::Table as usize] == 0 {
            return;
        }
        // The outermost match before the table boundary: `<tr>` closes an open tr with its
        // cells; `<tbody>` closes the open section with its rows.
        let mut found = None;
        for (k, e) in self.stack.iter().enumerate().rev().take(MAX_STACK_SEARCH) {
            if e.tag == Tag::Table {
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

    fn find_open(
        &self,
        is_match: impl Fn(&Self, &Open) -> bool,
        is_stop: impl Fn(&Open) -> bool,
    ) -> Option<usize> {
        for (k, e) in self.stack.iter().enumerate().rev().take(MAX_STACK_SEARCH) {
            if is_match(self, e) {
                return Some(k);
            }
            if is_stop(e) {
                return None;
            }
        }
        None
    }

    fn open_element(&mut self, tag: Tag, raw: &[u8], attrs: &Attrs, removed: bool) {
        let name_off = self.names.len() as u32;
        let mut name_len = 0u16;
        if tag == Tag::Other {
            self.names.extend(canonical_name(raw));
            name_len = (self.names.len() - name_off as usize) as u16;
        }
        let key = count_key(tag, &self.names[name_off as usize..]);
        let emitted = self.suppress == 0 && !removed;
        let (mut boiler, mut strong, good) = if emitted && !matches!(tag, Tag::Html | Tag::Body) {
            class_hints(attrs)
        } else {
            (false, false, false)
        };
        if emitted && tag.is_boilerplate() {
            boiler = true;
            strong = true;
        }
        let link = emitted && tag == Tag::A && attrs.href;
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
            self.res.boiler_ranges.push(BoilerRange {
                start: start as u32,
                end: u32::MAX,
                strong,
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
            link,
            boiler,
            good: good && emitted,
            name_off,
            name_len,
        });
    }

    fn emit_tag(&mut self, tag: Tag, raw: &[u8], attrs: &Attrs, boiler: bool, good: bool) {
        self.finish_run();
        if tag.is_block() {
            self.flush_block();
        }
        let tag_start = self.out.len();
        let out = &mut self.out;
        out.push(b'<');
        if tag == Tag::Other {
            out.extend(canonical_name(raw));
        } else {
            out.extend(raw.iter().map(|b| b.to_ascii_lowercase()));
        }
        if attrs.href {
            out.extend_from_slice(b" h");
        }
        if boiler {
            out.extend_from_slice(b" b");
        }
        if good {
            out.extend_from_slice(b" g");
        }
        for (key, value) in [(&b" id=\""[..], attrs.id), (&b" class=\""[..], attrs.class)] {
            if !value.is_empty() {
                out.extend_from_slice(key);
                out.extend(
                    value
                        .iter()
                        .take(200)
                        .filter(|&&b| b != b'"' && b != b'<' && b != b'>'),
                );
                out.push(b'"');
            }
        }
        out.push(b'>');
        self.last_tag_len = self.out.len() - tag_start;
    }

    fn pop_top(&mut self) {
        let Some(e) = self.stack.pop() else {
            return;
        };
        self.open_counts[e.key as usize] -= 1;
        if e.removed {
            self.suppress -= 1;
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
                self.out.extend_from_slice(tag_name(e.tag));
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

    fn pop_to(&mut self, idx: usize) {
        while self.stack.len() > idx {
            self.pop_top();
        }
    }
}

impl Open {
    fn matches(&self, cleaner: &Cleaner, tag: Tag, name: &[u8]) -> bool {
        self.tag == tag
            && (tag != Tag::Other
                || cleaner.names
                    [self.name_off as usize..self.name_off as usize + self.name_len as usize]
                    == *name)
    }
}

/// The name of an unknown element as written to the cleaned buffer: lowercased, at most 64
/// bytes, only letters, digits and `-_:.` (a `<` in a source name such as `<br<p>` must not
/// reach the buffer).
fn canonical_name(raw: &[u8]) -> impl Iterator<Item = u8> + '_ {
    raw.iter()
        .take(64)
        .map(|b| b.to_ascii_lowercase())
        .filter(|&b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.') || b >= 0x80
        })
}

/// Elements that may stay in `<head>` without closing it.
fn is_head_content(tag: Tag) -> bool {
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

/// Canonical lowercase name of a known tag.
pub fn tag_name(tag: Tag) -> &'static [u8] {
    use Tag::*;
    match tag {
        Other => b"x",
        A => b"a",
        Abbr => b"abbr",
        Address => b"address",
        Area => b"area",
        Article => b"article",
        Aside => b"aside",
        Audio => b"audio",
        B => b"b",
        Base => b"base",
        Blockquote => b"blockquote",
        Body => b"body",
        Br => b"br",
        Button => b"button",
        Canvas => b"canvas",
        Caption => b"caption",
        Center => b"center",
        Col => b"col",
        Datalist => b"datalist",
        Dd => b"dd",
        Details => b"details",
        Dialog => b"dialog",
        Dir => b"dir",
        Div => b"div",
        Dl => b"dl",
        Dt => b"dt",
        Em => b"em",
        Embed => b"embed",
        Fieldset => b"fieldset",
        Figcaption => b"figcaption",
        Figure => b"figure",
        Font => b"font",
        Footer => b"footer",
        Form => b"form",
        Frame => b"frame",
        Frameset => b"frameset",
        H1 => b"h1",
        H2 => b"h2",
        H3 => b"h3",
        H4 => b"h4",
        H5 => b"h5",
        H6 => b"h6",
        Head => b"head",
        Header => b"header",
        Hgroup => b"hgroup",
        Hr => b"hr",
        Html => b"html",
        I => b"i",
        Iframe => b"iframe",
        Img => b"img",
        Input => b"input",
        Keygen => b"keygen",
        Label => b"label",
        Legend => b"legend",
        Li => b"li",
        Link => b"link",
        Listing => b"listing",
        Main => b"main",
        Map => b"map",
        Math => b"math",
        Menu => b"menu",
        Meta => b"meta",
        Nav => b"nav",
        Noembed => b"noembed",
        Noframes => b"noframes",
        Noscript => b"noscript",
        Object => b"object",
        Ol => b"ol",
        Optgroup => b"optgroup",
        Option => b"option",
        P => b"p",
        Param => b"param",
        Plaintext => b"plaintext",
        Pre => b"pre",
        Rp => b"rp",
        Rt => b"rt",
        Script => b"script",
        Section => b"section",
        Select => b"select",
        Source => b"source",
        Span => b"span",
        Strong => b"strong",
        Style => b"style",
        Summary => b"summary",
        Svg => b"svg",
        Table => b"table",
        Tbody => b"tbody",
        Td => b"td",
        Template => b"template",
        Textarea => b"textarea",
        Tfoot => b"tfoot",
        Th => b"th",
        Thead => b"thead",
        Title => b"title",
        Tr => b"tr",
        Track => b"track",
        U => b"u",
        Ul => b"ul",
        Video => b"video",
        Wbr => b"wbr",
        Xmp => b"xmp",
    }
}

/// Skip a bogus comment / doctype: to just past the next `>` (or the end).
fn skip_to_gt(src: &[u8], from: usize) -> usize {
    match memchr(b'>', &src[from.min(src.len())..]) {
        Some(at) => from + at + 1,
        None => src.len(),
    }
}

/// Scan a tag's attributes from `from` (just after the name) to just past its `>`,
/// honouring quotes. `None` when the tag never ends (it and the rest are dropped, as
/// browsers do).
fn scan_attrs<'a>(
    src: &'a [u8],
    from: usize,
    mut sink: Option<(&mut Attrs<'a>, &mut bool)>,
) -> Option<usize> {
    let n = src.len();
    let mut i = from;
    loop {
        while i < n && (is_ws(src[i]) || src[i] == b'/') {
            if src[i] == b'/'
                && src.get(i + 1) == Some(&b'>')
                && let Some((_, sc)) = sink.as_mut()
            {
                **sc = true;
            }
            i += 1;
        }
        if i >= n {
            return None;
        }
        if src[i] == b'>' {
            return Some(i + 1);
        }
        let name_start = i;
        i += 1;
        while i < n && !is_ws(src[i]) && !matches!(src[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let name = &src[name_start..i];
        while i < n && is_ws(src[i]) {
            i += 1;
        }
        let mut value: &[u8] = &[];
        if i < n && src[i] == b'=' {
            i += 1;
            while i < n && is_ws(src[i]) {
                i += 1;
            }
            if i >= n {
                return None;
            }
            let q = src[i];
            if q == b'"' || q == b'\'' {
                let at = memchr(q, &src[i + 1..])?;
                value = &src[i + 1..i + 1 + at];
                i = i + 2 + at;
            } else {
                let vs = i;
                while i < n && !is_ws(src[i]) && src[i] != b'>' {
                    i += 1;
                }
                value = &src[vs..i];
            }
        }
        if let Some((attrs, _)) = sink.as_mut() {
            record_attr(attrs, name, value);
        }
    }
}

fn record_attr<'a>(attrs: &mut Attrs<'a>, name: &[u8], value: &'a [u8]) {
    match name.len() {
        2 if name.eq_ignore_ascii_case(b"id") => attrs.id = value,
        4 if name.eq_ignore_ascii_case(b"href") => attrs.href = true,
        4 if name.eq_ignore_ascii_case(b"role") => attrs.role = value,
        5 if name.eq_ignore_ascii_case(b"class") => attrs.class = value,
        5 if name.eq_ignore_ascii_case(b"style") && style_hides(value) => attrs.hidden = true,
        6 if name.eq_ignore_ascii_case(b"hidden") => attrs.hidden = true,
        8 if name.eq_ignore_ascii_case(b"itemprop") => attrs.itemprop = value,
        11 if name.eq_ignore_ascii_case(b"aria-hidden") && value.eq_ignore_ascii_case(b"true") => {
            attrs.hidden = true
        }
        _ => {}
    }
}

/// Where the raw text of an element named `name` ends: at `</name` followed by whitespace,
/// `/` or `>` (case-insensitive), or at the end of input.
fn find_raw_end(src: &[u8], from: usize, name: &[u8]) -> usize {
    let finder = memmem::Finder::new(b"</");
    let mut i = from;
    while let Some(at) = finder.find(&src[i..]) {
        let p = i + at;
        let name_at = p + 2;
        let name_end = name_at + name.len();
        if name_end <= src.len()
            && src[name_at..name_end].eq_ignore_ascii_case(name)
            && src
                .get(name_end)
                .is_none_or(|&b| is_ws(b) || b == b'/' || b == b'>')
        {
            return p;
        }
        i = p + 2;
    }
    src.len()
}

/// Skip an end tag starting at `at` (`</name ...>`), or nothing at the end of input.
fn skip_end_tag(src: &[u8], at: usize) -> usize {
    if at >= src.len() {
        return src.len();
    }
    skip_to_gt(src, at + 2)
}

/// Clean `html` (see the module docs).
pub fn clean(html: &[u8], opts: CleanOptions) -> Cleaned {
    Cleaner::new(html, opts).run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cleaned(html: &str) -> String {
        String::from_utf8(clean(html.as_bytes(), CleanOptions::default()).buf).unwrap()
    }

    #[test]
    fn removes_comments_scripts_and_hidden() {
        assert_eq!(
            cleaned("a<!-- <p>x</p> -->b<script>if (a<b) '</div>'</script>c"),
            "abc"
        );
        assert_eq!(cleaned("<div hidden><p>x</p></div>y"), "y");
        assert_eq!(cleaned("<div style=\"DISPLAY: none\">x</div>y"), "y");
        assert_eq!(cleaned("<span aria-hidden=\"true\">x</span>y"), "y");
        assert_eq!(cleaned("<svg><text>x</text></svg><svg/>y"), "y");
        assert_eq!(
            cleaned("<select><option>o</select><button>b</button>y"),
            "y"
        );
    }

    #[test]
    fn form_is_kept() {
        assert_eq!(
            cleaned("<form><p>in form</p></form>"),
            "<form><p>in form</p></form>"
        );
    }

    #[test]
    fn escapes_angle_brackets_in_text_and_attributes() {
        assert_eq!(cleaned("3 < 4 > 2"), "3 &lt; 4 &gt; 2");
        assert_eq!(
            cleaned("<p title=\"a>b\" class='x<y'>t</p>"),
            "<p class=\"xy\">t</p>"
        );
    }

    #[test]
    fn void_elements_have_no_end_tag() {
        assert_eq!(
            cleaned("a<br>b<br/>c</br><img src=x><hr>"),
            "a<br>b<br>c<hr>"
        );
    }

    #[test]
    fn implied_end_tags() {
        assert_eq!(cleaned("<p>a<p>b"), "<p>a</p><p>b</p>");
        assert_eq!(cleaned("<p>a<div>b</div>"), "<p>a</p><div>b</div>");
        assert_eq!(
            cleaned("<ul><li>a<li>b</ul>"),
            "<ul><li>a</li><li>b</li></ul>"
        );
        assert_eq!(
            cleaned("<dl><dt>a<dd>b<dt>c</dl>"),
            "<dl><dt>a</dt><dd>b</dd><dt>c</dt></dl>"
        );
        assert_eq!(
            cleaned("<table><tr><td>a<td>b<tr><td>c</table>"),
            "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>"
        );
        assert_eq!(cleaned("<h1>a<h2>b"), "<h1>a</h1><h2>b</h2>");
        assert_eq!(cleaned("<a href=x>a<a href=y>b"), "<a h>a</a><a h>b</a>");
    }

    #[test]
    fn misnested_and_stray_end_tags() {
        assert_eq!(cleaned("<b><i>x</b>y</i>"), "<b><i>x</i></b>y");
        assert_eq!(cleaned("</div>x</span>"), "x");
        assert_eq!(cleaned("<div><span>x</div>"), "<div><span>x</span></div>");
        // A `</div>` inside a cell does not close a div outside the table.
        assert_eq!(
            cleaned("<div><table><tr><td>x</div>y</td></tr></table></div>"),
            "<div><table><tr><td>xy</td></tr></table></div>"
        );
    }

    #[test]
    fn unclosed_elements_close_at_the_end() {
        assert_eq!(cleaned("<div><p>x"), "<div><p>x</p></div>");
    }

    #[test]
    fn head_goes_title_is_captured() {
        let c = clean(
            b"<html><head><title>T &amp; U</title><meta x><link y></head><body>b</body></html>",
            CleanOptions::default(),
        );
        assert_eq!(
            String::from_utf8(c.buf).unwrap(),
            "<html><body>b</body></html>"
        );
        assert_eq!(c.title.as_deref(), Some("T &amp; U"));
        // A head that is never closed ends at the first body content.
        assert_eq!(cleaned("<head><title>t</title><p>x"), "<p>x</p>");
    }

    #[test]
    fn canonical_tags_carry_hints() {
        assert_eq!(
            cleaned("<DIV ID=main CLASS=\"post\"><A HREF=\"/x\">l</A></DIV>"),
            "<div g id=\"main\" class=\"post\"><a h>l</a></div>"
        );
        assert_eq!(cleaned("<nav>n</nav>"), "<nav b>n</nav>");
        assert_eq!(
            cleaned("<div class=\"comments\">c</div>"),
            "<div b class=\"comments\">c</div>"
        );
        assert_eq!(cleaned("<br<p>x"), "<brp>x</brp>");
        let c = clean(
            b"<div id=\"onetrust-consent-sdk\">c</div>",
            CleanOptions::default(),
        );
        assert!(c.boiler_ranges[0].strong);
    }

    #[test]
    fn noscript_dropped_or_kept() {
        assert_eq!(cleaned("<noscript><p>x</p></noscript>y"), "y");
        let kept = clean(
            b"<noscript><p>x</p></noscript>y",
            CleanOptions {
                keep_noscript: true,
            },
        );
        assert_eq!(kept.buf, b"<noscript><p>x</p></noscript>y");
    }

    #[test]
    fn unterminated_constructs_end_the_input() {
        assert_eq!(cleaned("a<!-- b"), "a");
        assert_eq!(cleaned("a<script>b"), "a");
        assert_eq!(cleaned("a<p title=\"b>c"), "a");
        assert_eq!(cleaned("a<"), "a&lt;");
    }

    #[test]
    fn runs_blocks_and_counts() {
        let c = clean(
            b"<div><p>Hello, <a href=x>world</a>.</p> <p>Two</p></div>",
            CleanOptions::default(),
        );
        // Elements: div p a p = 4; text runs: "Hello, " "world" "." " " "Two" = 5.
        assert_eq!(c.nodes_total, 9);
        assert_eq!(c.runs.len(), 4);
        assert_eq!(c.blocks.len(), 2);
        assert_eq!(c.blocks[0].link_weight, 5);
        assert_eq!(c.blocks[0].weight, 10);
        assert_eq!(c.runs[1].flags & IN_LINK, IN_LINK);
    }
}
