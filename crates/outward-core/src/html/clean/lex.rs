//! Lexing for the cleaner: where markup starts and ends in the raw page (comments,
//! doctype, processing instructions, start and end tags), tag names, the attributes the
//! cleaner reads, and the end of raw-text content (`script`, `style`, `title`, ...).
//!
//! Invariants: every scan is forward, bounded by the input and total on any bytes; a
//! construct left open at the end of the input ends the input.

use super::*;
use std::sync::LazyLock;

/// Attributes of a start tag that the cleaner looks at.
#[derive(Default)]
pub(super) struct Attrs<'a> {
    pub(super) id: &'a [u8],
    pub(super) class: &'a [u8],
    pub(super) role: &'a [u8],
    pub(super) itemprop: &'a [u8],
    pub(super) href: bool,
    /// The href's value (read by [`names_home`] inside the first `<h1>` only).
    pub(super) href_value: &'a [u8],
    /// Hidden from view: `display:none`, `hidden`, `popover`.
    pub(super) hidden: bool,
    /// `aria-hidden="true"`: hidden from screen readers, and so from the text (icons, a
    /// carousel's off-screen copies, decoys), but not a hidden block a script will show.
    pub(super) aria_hidden: bool,
    /// `aria-labelledby` is present: something else on the page names (and often opens) it.
    pub(super) labelled: bool,
}

/// Byte classes of the lexer (bits of [`LEX_CLASS`]).
const WS: u8 = 1;
const SLASH: u8 = 2;
const GT: u8 = 4;
const EQ: u8 = 8;

/// The class bits of every byte: HTML whitespace, `/`, `>`, `=`; 0 for all others.
static LEX_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b' ' as usize] = WS;
    t[b'\t' as usize] = WS;
    t[b'\n' as usize] = WS;
    t[b'\r' as usize] = WS;
    t[0x0c] = WS;
    t[b'/' as usize] = SLASH;
    t[b'>' as usize] = GT;
    t[b'=' as usize] = EQ;
    t
};

#[inline]
fn class(b: u8) -> u8 {
    LEX_CLASS[b as usize]
}

pub(super) fn is_ws(b: u8) -> bool {
    class(b) == WS
}

/// The first index at or after `from` whose byte's class meets `stop`, or `src.len()`.
#[inline]
fn find_class(src: &[u8], from: usize, stop: u8) -> usize {
    src[from.min(src.len())..]
        .iter()
        .position(|&b| class(b) & stop != 0)
        .map_or(src.len(), |k| from + k)
}

/// The first index at or after `from` whose byte is not whitespace, or `src.len()`.
#[inline]
fn skip_ws(src: &[u8], from: usize) -> usize {
    src[from.min(src.len())..]
        .iter()
        .position(|&b| class(b) != WS)
        .map_or(src.len(), |k| from + k)
}

/// Where a tag name that starts at `from` ends: at whitespace, `/`, `>` or the end.
#[inline]
pub(super) fn tag_name_end(src: &[u8], from: usize) -> usize {
    find_class(src, from, WS | SLASH | GT)
}

/// The tag of a source tag name, any case (most are lowercase already: no copy then).
pub(super) fn lowercase_tag(raw: &[u8]) -> Tag {
    let mut lower = [0u8; 16];
    if raw.len() > lower.len() {
        return Tag::Other;
    }
    if !raw.iter().any(u8::is_ascii_uppercase) {
        return Tag::from_name(raw);
    }
    for (d, s) in lower.iter_mut().zip(raw) {
        *d = s.to_ascii_lowercase();
    }
    Tag::from_name(&lower[..raw.len()])
}

/// What the markup starting at a `<` is: the one reading of it the cleaner, the skim and the
/// lexing floor share, so that every pass agrees on where markup is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Markup {
    /// A comment, doctype, processing instruction or bogus end tag (`</>`, `</ x>`): nothing
    /// to read in it; go on at this byte.
    Skipped(usize),
    /// `</` and a letter: an end tag.
    EndTag,
    /// `<` and a letter: a start tag.
    StartTag,
    /// Not markup: the `<` is text, up to this byte (a lone `<`; a `</` ending the input).
    Text(usize),
}

/// Reads the markup starting at `src[lt] == '<'` (see [`Markup`]).
#[inline(always)]
pub(super) fn markup_at(src: &[u8], lt: usize) -> Markup {
    let n = src.len();
    match src.get(lt + 1).copied().unwrap_or(0) {
        b'!' if src[lt..].starts_with(b"<!--") => {
            let body = lt + 4;
            // `<!-->` and `<!--->` are complete (empty) comments.
            if src[body..].starts_with(b">") {
                Markup::Skipped(body + 1)
            } else if src[body..].starts_with(b"->") {
                Markup::Skipped(body + 2)
            } else {
                Markup::Skipped(comment_end(src, body))
            }
        }
        b'!' | b'?' => Markup::Skipped(skip_to_gt(src, lt + 2)),
        b'/' => match src.get(lt + 2).copied().unwrap_or(0) {
            c if c.is_ascii_alphabetic() => Markup::EndTag,
            b'>' => Markup::Skipped(lt + 3),
            _ if lt + 2 >= n => Markup::Text(n),
            _ => Markup::Skipped(skip_to_gt(src, lt + 2)),
        },
        c if c.is_ascii_alphabetic() => Markup::StartTag,
        _ => Markup::Text(lt + 1),
    }
}

/// Skip a bogus comment / doctype: to just past the next `>` (or the end).
pub(super) fn skip_to_gt(src: &[u8], from: usize) -> usize {
    match find_byte(b'>', &src[from.min(src.len())..]) {
        Some(at) => from + at + 1,
        None => src.len(),
    }
}

/// Scan a tag's attributes from `from` (just after the name) to just past its `>`,
/// honouring quotes. `None` when the tag never ends (it and the rest are dropped, as
/// browsers do).
#[inline]
pub(super) fn scan_attrs<'a>(
    src: &'a [u8],
    from: usize,
    sink: Option<(&mut Attrs<'a>, &mut bool)>,
) -> Option<usize> {
    // Most end tags and many start tags (`<p>`, `<li>`, `</div>`) have no attributes.
    if src.get(from) == Some(&b'>') {
        return Some(from + 1);
    }
    scan_attr_list(src, from, sink)
}

/// [`scan_attrs`] of a tag with something between its name and its `>`.
fn scan_attr_list<'a>(
    src: &'a [u8],
    from: usize,
    mut sink: Option<(&mut Attrs<'a>, &mut bool)>,
) -> Option<usize> {
    let n = src.len();
    let mut i = from;
    loop {
        while i < n && class(src[i]) & (WS | SLASH) != 0 {
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
        i = find_class(src, i + 1, WS | SLASH | GT | EQ);
        let name = &src[name_start..i];
        i = skip_ws(src, i);
        let mut value: &[u8] = &[];
        if i < n && src[i] == b'=' {
            i = skip_ws(src, i + 1);
            if i >= n {
                return None;
            }
            let q = src[i];
            if q == b'"' || q == b'\'' {
                let at = find_byte(q, &src[i + 1..])?;
                value = &src[i + 1..i + 1 + at];
                i = i + 2 + at;
            } else {
                let vs = i;
                i = find_class(src, i, WS | GT);
                value = &src[vs..i];
            }
        }
        if let Some((attrs, _)) = sink.as_mut() {
            record_attr(attrs, name, value);
        }
    }
}

pub(super) fn record_attr<'a>(attrs: &mut Attrs<'a>, name: &[u8], value: &'a [u8]) {
    match name.len() {
        2 if name.eq_ignore_ascii_case(b"id") => attrs.id = value,
        4 if name.eq_ignore_ascii_case(b"href") => {
            attrs.href = true;
            attrs.href_value = value;
        }
        4 if name.eq_ignore_ascii_case(b"role") => attrs.role = value,
        5 if name.eq_ignore_ascii_case(b"class") => attrs.class = value,
        5 if name.eq_ignore_ascii_case(b"style") && style_hides(value) => attrs.hidden = true,
        // `hidden="until-found"`: collapsed, but shown by the browser's find and meant to
        // be read (accordions).
        6 if name.eq_ignore_ascii_case(b"hidden")
            && !value.eq_ignore_ascii_case(b"until-found") =>
        {
            attrs.hidden = true
        }
        // A popover (`<div popover>`) is hidden until a script or button opens it.
        7 if name.eq_ignore_ascii_case(b"popover") => attrs.hidden = true,
        8 if name.eq_ignore_ascii_case(b"itemprop") => attrs.itemprop = value,
        11 if name.eq_ignore_ascii_case(b"aria-hidden") && value.eq_ignore_ascii_case(b"true") => {
            attrs.aria_hidden = true
        }
        15 if name.eq_ignore_ascii_case(b"aria-labelledby") => attrs.labelled = true,
        _ => {}
    }
}

/// Whether a link's href names a site's home page: `/`, an empty path after a scheme's or a
/// protocol-relative host (`http://example.com/`, `//example.com`), or its index file
/// (`index.html`, `/index.php`), with no query and no fragment. Which site is not asked: a
/// page's header links home, and nothing else on a page links to a bare host from inside its
/// headline.
pub(super) fn names_home(href: &[u8]) -> bool {
    let href = href.trim_ascii();
    // An empty href is the page itself.
    if href.is_empty() {
        return false;
    }
    let path = match href.iter().position(|&b| b == b':') {
        Some(colon)
            if href[..colon].eq_ignore_ascii_case(b"http")
                || href[..colon].eq_ignore_ascii_case(b"https") =>
        {
            &href[colon + 1..]
        }
        Some(_) => return false,
        None => href,
    };
    let path = match path.strip_prefix(b"//") {
        Some(host_and_path) => {
            let host_end = host_and_path
                .iter()
                .position(|&b| b == b'/')
                .unwrap_or(host_and_path.len());
            if host_end == 0 {
                return false;
            }
            &host_and_path[host_end..]
        }
        None if path.len() == href.len() => path,
        // `http:path` without a host.
        None => return false,
    };
    let file = path.strip_prefix(b"/").unwrap_or(path);
    if file.is_empty() {
        return true;
    }
    let Some(ext) = file.strip_prefix(b"index.") else {
        return false;
    };
    [
        b"html".as_slice(),
        b"htm",
        b"php",
        b"asp",
        b"aspx",
        b"shtml",
    ]
    .iter()
    .any(|e| ext.eq_ignore_ascii_case(e))
}

/// Whether an element with this id is a segment that React streams in hidden
/// (`<div hidden id="S:0">`, server rendering with Suspense, as Next.js pages are served):
/// the page's script moves it into place at once, so it is what a reader sees, often the
/// whole article.
fn is_streamed_segment(id: &[u8]) -> bool {
    id.len() > 2 && id.starts_with(b"S:") && id[2..].iter().all(u8::is_ascii_digit)
}

/// The text weight (as `Cleaned::text_weight`) of the text outside tags in `markup`: what a
/// `<noscript>` would show, roughly (comments and raw text count as text).
fn text_weight_of_markup(markup: &[u8]) -> u64 {
    let mut weight = 0u64;
    let mut rest = markup;
    while !rest.is_empty() {
        let text_end = find_byte(b'<', rest).unwrap_or(rest.len());
        weight += u64::from(measure(&rest[..text_end]).weight);
        rest = &rest[text_end..];
        rest = match find_byte(b'>', rest) {
            Some(gt) => &rest[gt + 1..],
            None => &[],
        };
    }
    weight
}

/// Searchers built once per process: building one is most of the cost of a short search,
/// and pages hold thousands of comments and scripts.
static END_TAG_OPEN: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b"</"));
static DASHES: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new(b"--"));

/// Where a comment whose text starts at `body` ends (just past it): after the first `-->` or
/// `--!>` (HTML ends a comment at either), or at the end of input.
pub(super) fn comment_end(src: &[u8], body: usize) -> usize {
    let mut i = body;
    while let Some(at) = DASHES.find(&src[i..]) {
        let after = i + at + 2;
        match src.get(after) {
            Some(b'>') => return after + 1,
            Some(b'!') if src.get(after + 1) == Some(&b'>') => return after + 2,
            _ => i = after - 1,
        }
    }
    src.len()
}

/// Where the raw text of an element named `name` ends: at `</name` followed by whitespace,
/// `/` or `>` (case-insensitive), or at the end of input.
pub(super) fn find_raw_end(src: &[u8], from: usize, name: &[u8]) -> usize {
    let mut i = from;
    while let Some(at) = END_TAG_OPEN.find(&src[i..]) {
        let p = i + at;
        if names_tag(src, p + 2, name, true) {
            return p;
        }
        i = p + 2;
    }
    src.len()
}

/// Whether `src` holds the tag name `name` (any case) at `at`, followed by whitespace, `/` or
/// `>` (or, when `at_end_too`, the end of input): where a tokenizer reads a tag of that name.
fn names_tag(src: &[u8], at: usize, name: &[u8], at_end_too: bool) -> bool {
    let end = at + name.len();
    src.get(at..end)
        .is_some_and(|n| n.eq_ignore_ascii_case(name))
        && src
            .get(end)
            .map_or(at_end_too, |&b| is_ws(b) || b == b'/' || b == b'>')
}

static COMMENT_OPEN: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b"<!--"));

/// Where a `<script>`'s source ends, as a browser's tokenizer decides (HTML's script data
/// states): at the first `</script` (as [`find_raw_end`]) unless a `<!--` comes before it.
/// Inside `<!--` … `-->` the source is *escaped*, and a `<script` there opens a nested,
/// *double-escaped* script whose `</script` does not end the element: old ad code writes
/// `<!-- document.write("<script src=…></script>"); -->`, and ending at that inner
/// `</script>` would show the rest of the source as text. `-->` leaves either state.
/// Linear: one pass over the source; without a `<!--` before the first `</script` it is
/// [`find_raw_end`].
pub(super) fn find_script_end(src: &[u8], from: usize) -> usize {
    let first_end = find_raw_end(src, from, b"script");
    if COMMENT_OPEN.find(&src[from..first_end]).is_none() {
        return first_end;
    }
    #[derive(PartialEq)]
    enum State {
        Data,
        Escaped,
        DoubleEscaped,
    }
    let names_script = |at: usize| names_tag(src, at, b"script", false);
    let mut state = State::Data;
    let mut i = from;
    while let Some(at) = memchr::memchr2(b'<', b'-', &src[i..]) {
        let q = i + at;
        i = q + 1;
        if src[q] == b'-' {
            if state != State::Data && src[q..].starts_with(b"-->") {
                state = State::Data;
                i = q + 3;
            }
            continue;
        }
        let rest = &src[q..];
        if state == State::Data && rest.starts_with(b"<!--") {
            // From the dashes on: `<!-->` and `<!--->` are closed at once.
            state = State::Escaped;
            i = q + 2;
        } else if rest.starts_with(b"</") && names_script(q + 2) {
            match state {
                State::DoubleEscaped => state = State::Escaped,
                _ => return q,
            }
        } else if state == State::Escaped && names_script(q + 1) {
            state = State::DoubleEscaped;
        }
    }
    src.len()
}

/// Skip an end tag starting at `at` (`</name ...>`), or nothing at the end of input.
pub(super) fn skip_end_tag(src: &[u8], at: usize) -> usize {
    if at >= src.len() {
        return src.len();
    }
    skip_to_gt(src, at + 2)
}

/// The name of an unknown element as written to the cleaned buffer: lowercased, at most 64
/// bytes, only letters, digits and `-_:.` (a `<` in a source name such as `<br<p>` must not
/// reach the buffer). A name that filters down to a known tag's (`<lin'k>` → `link`) gets a
/// trailing `-`: the tokenizers would read it back as that tag (a void `link` with an end
/// tag), and the cleaned buffer would no longer be balanced for them.
pub(super) fn canonical_name(raw: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let kept = || {
        raw.iter()
            .take(64)
            .map(|b| b.to_ascii_lowercase())
            .filter(|&b| {
                b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.') || b >= 0x80
            })
    };
    let mut short = [0u8; 16];
    let mut len = 0;
    for b in kept() {
        if len == short.len() {
            len += 1;
            break;
        }
        short[len] = b;
        len += 1;
    }
    let known = len <= short.len() && Tag::from_name(&short[..len]) != Tag::Other;
    kept().chain(known.then_some(b'-'))
}

impl Cleaner<'_> {
    /// Handle the markup starting at `src[lt] == '<'`; returns where to continue.
    pub(super) fn markup(&mut self, lt: usize) -> usize {
        match markup_at(self.src, lt) {
            Markup::Skipped(next) => next,
            Markup::EndTag => self.end_tag(lt),
            Markup::StartTag => self.start_tag(lt),
            Markup::Text(end) => {
                self.text(lt, end);
                end
            }
        }
    }

    pub(super) fn end_tag(&mut self, lt: usize) -> usize {
        let src = self.src;
        let name_start = lt + 2;
        let j = tag_name_end(src, name_start);
        let raw = &src[name_start..j];
        let tag = lowercase_tag(raw);
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

    pub(super) fn start_tag(&mut self, lt: usize) -> usize {
        let src = self.src;
        let name_start = lt + 1;
        let j = tag_name_end(src, name_start);
        let raw = &src[name_start..j];
        let tag = lowercase_tag(raw);
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
            let content_end = if tag == Tag::Script {
                find_script_end(src, end)
            } else {
                find_raw_end(src, end, raw)
            };
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
            if tag == Tag::Noscript {
                let held = text_weight_of_markup(&src[end..content_end]);
                self.res.noscript_max = self.res.noscript_max.max(held);
            }
            if tag.is_removed() || tag == Tag::Noscript || self.suppress > 0 {
                return after;
            }
            // xmp / plaintext: shown as text.
            let hints = self.element_hints(tag, &attrs, false);
            self.open_element(tag, raw, &attrs, false, hints);
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
        let revealed = self.opts.reveal == Some(lt as u32);
        let attr_hidden = (attrs.hidden || attrs.aria_hidden)
            && !is_streamed_segment(attrs.id)
            && !is_collapsed_panel(&attrs)
            && !revealed
            && !matches!(tag, Tag::Html | Tag::Body);
        let mut removed = tag.is_removed() && !matches!(tag, Tag::Html | Tag::Body);
        let mut hints = self.element_hints(tag, &attrs, removed);
        let class_hidden = hints.hides && !revealed;
        // The outermost hidden element's text is counted: a page whose text is mostly in one
        // is cleaned again showing it (see `clean`).
        let counts_hidden =
            ((attr_hidden && attrs.hidden) || class_hidden) && !removed && self.suppress == 0;
        if attr_hidden || class_hidden {
            removed = true;
            hints = Hints::default();
        }
        if removed && self_closing {
            // `<svg/>`: nothing to remove.
            return end;
        }
        if self.head_open() && !is_head_content(tag) {
            self.close_head();
        }
        if self.suppress == 0
            && matches!(tag, Tag::Html | Tag::Body)
            && self.open_counts[count_key(tag, &[]) as usize] > 0
        {
            return end;
        }
        // Implied end tags hold inside removed content too, as a browser builds the tree
        // whatever CSS then hides: `<p style="display:none">&nbsp;<p>The article…` closes
        // the hidden paragraph, and the article after it is shown (thepodcasthost.com).
        // Not inside SVG or MathML, whose elements (`<a>`, `<title>`) imply nothing.
        if self.suppress == 0 || !self.in_foreign_content() {
            self.implied_end_tags(tag);
        }
        self.open_element(tag, raw, &attrs, removed, hints);
        if counts_hidden && let Some(top) = self.stack.last_mut() {
            top.counted_hidden = true;
            self.hidden_open = true;
            self.hidden_held = 0;
            self.hidden_open_at = lt as u32;
        }
        end
    }
}
