//! Page metadata from the raw HTML head: the title (site-name suffix removed), description,
//! author, publication date, site name, canonical URL and declared language, from `<title>`,
//! `<meta name|property|itemprop>` (OpenGraph and friends), `<link rel=canonical>`,
//! `<html lang>` and JSON-LD (`<script type="application/ld+json">`). The cleaner drops
//! `<head>`, so this reads the page's own bytes.
//!
//! Invariants: linear in the bytes read and bounded: the head scan stops at `</head>`, at the
//! first tag that only a body holds, or after [`HEAD_CAP`] bytes; JSON-LD is read from at most
//! [`MAX_JSON_LD`] scripts of at most [`JSON_LD_CAP`] bytes each, nested at most
//! [`MAX_JSON_DEPTH`] deep, with an explicit stack (no recursion). Never panics on any input.
//! Every value is entity-decoded, whitespace-folded, trimmed and never empty; a field the
//! page does not give is `None`.

use crate::html::entities::decode;
use memchr::memmem;

/// Bytes of the page the head scan reads at most.
pub const HEAD_CAP: usize = 256 * 1024;
/// JSON-LD scripts read at most (head and body).
pub const MAX_JSON_LD: usize = 8;
/// Bytes of one JSON-LD script read at most.
pub const JSON_LD_CAP: usize = 256 * 1024;
/// Nesting of JSON-LD containers followed at most; deeper content is skipped.
pub const MAX_JSON_DEPTH: usize = 32;
/// Distinct authors kept at most.
const MAX_AUTHORS: usize = 5;

/// What a page says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageMeta {
    /// `<title>` with its site-name part removed (see [`strip_site_name`]), else `og:title`,
    /// else the first `<h1>`.
    pub title: Option<String>,
    pub description: Option<String>,
    /// Authors joined by `"; "`.
    pub author: Option<String>,
    /// As the page writes it (ISO 8601 in practice).
    pub date_published: Option<String>,
    pub site_name: Option<String>,
    /// Absolute `http(s)` URL (a root-relative one is resolved against the page URL).
    pub canonical_url: Option<String>,
    /// `<html lang>` as written (`en`, `en-US`, `de_DE`).
    pub html_lang: Option<String>,
}

/// Candidates for one field, the lowest priority number winning, the first seen among equals.
#[derive(Default)]
struct Best(Option<(u8, String)>);

impl Best {
    fn offer(&mut self, priority: u8, raw: &str) {
        if self.0.as_ref().is_some_and(|(p, _)| *p <= priority) {
            return;
        }
        if let Some(v) = clean(raw) {
            self.0 = Some((priority, v));
        }
    }

    fn take(self) -> Option<String> {
        self.0.map(|(_, v)| v)
    }
}

/// What the scan gathered.
#[derive(Default)]
struct Found {
    title: Option<String>,
    og_title: Best,
    description: Best,
    author: Best,
    json_authors: Vec<String>,
    date: Best,
    site_name: Best,
    canonical: Best,
    html_lang: Option<String>,
}

impl PageMeta {
    /// Reads the metadata of `html`, fetched from `url` when known. `h1` gives the text of
    /// the page's first `<h1>`; it is called only when neither `<title>` nor `og:title`
    /// gives a title.
    pub fn read(html: &str, url: Option<&str>, h1: impl FnOnce() -> Option<String>) -> PageMeta {
        let bytes = html.as_bytes();
        let mut found = Found::default();
        let mut scripts = 0usize;
        let stop = scan_head(bytes, &mut found, &mut scripts);
        // JSON-LD often sits in the body: find the rest by their type, linearly.
        let finder = memmem::Finder::new(b"ld+json");
        let mut at = stop;
        while scripts < MAX_JSON_LD {
            let Some(hit) = bytes.get(at..).and_then(|rest| finder.find(rest)) else {
                break;
            };
            let hit = at + hit;
            at = hit + 7;
            // Inside a `<script ...>` open tag?
            let from = hit.saturating_sub(300);
            let Some(lt) = memchr::memrchr(b'<', &bytes[from..hit]).map(|i| from + i) else {
                continue;
            };
            if !starts_with_ci(&bytes[lt..], b"<script") || bytes[lt..hit].contains(&b'>') {
                continue;
            }
            let Some(gt) = memchr::memchr(b'>', &bytes[hit..]).map(|i| hit + i + 1) else {
                break;
            };
            let end = find_ci(bytes, gt, b"</script").unwrap_or(bytes.len());
            json_ld(&bytes[gt..end], &mut found);
            scripts += 1;
            at = end;
        }
        let author = if found.json_authors.is_empty() {
            found.author.take()
        } else {
            Some(found.json_authors.join("; "))
        };
        let title = found
            .title
            .as_deref()
            .map(strip_site_name)
            .or_else(|| found.og_title.take())
            .or_else(|| h1().and_then(|h| clean(&h)));
        PageMeta {
            title,
            description: found.description.take(),
            author,
            date_published: found.date.take(),
            site_name: found.site_name.take(),
            canonical_url: found.canonical.take().and_then(|c| absolute_url(&c, url)),
            html_lang: found.html_lang,
        }
    }
}

/// Scans the head's tags into `found`; returns where it stopped.
fn scan_head(bytes: &[u8], found: &mut Found, scripts: &mut usize) -> usize {
    let limit = bytes.len().min(HEAD_CAP);
    let mut attrs = Attrs::new();
    let mut i = 0;
    while i < limit {
        let Some(lt) = memchr::memchr(b'<', &bytes[i..limit]).map(|p| i + p) else {
            return limit;
        };
        let rest = &bytes[lt..];
        if rest.starts_with(b"<!--") {
            match memmem::find(&bytes[lt + 4..], b"-->") {
                Some(p) => i = lt + 4 + p + 3,
                None => return bytes.len(),
            }
            continue;
        }
        if rest.starts_with(b"</") {
            let (name, _) = tag_name(bytes, lt + 2);
            if name.as_str() == "head" {
                return lt;
            }
            i = lt + 2;
            continue;
        }
        if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
            i = memchr::memchr(b'>', &bytes[lt..]).map_or(bytes.len(), |p| lt + p + 1);
            continue;
        }
        let (name, after_name) = tag_name(bytes, lt + 1);
        let name = name.as_str();
        if name.is_empty() {
            i = lt + 1;
            continue;
        }
        let tag_end = attributes(bytes, after_name, &mut attrs);
        i = tag_end;
        match name {
            "html" if found.html_lang.is_none() => {
                found.html_lang = attr(&attrs, "lang")
                    .or_else(|| attr(&attrs, "xml:lang"))
                    .and_then(clean)
                    .filter(|l| l.len() <= 35);
            }
            "title" => {
                let end = find_ci(bytes, tag_end, b"</title").unwrap_or(bytes.len());
                if found.title.is_none() {
                    let raw = String::from_utf8_lossy(&bytes[tag_end.min(end)..end]);
                    found.title = clean(&raw);
                }
                i = end;
            }
            "meta" => meta(&attrs, found),
            "link" => {
                let rel = attr(&attrs, "rel").unwrap_or("");
                if rel
                    .split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("canonical"))
                    && let Some(href) = attr(&attrs, "href")
                {
                    found.canonical.offer(0, href);
                }
            }
            "script" => {
                let end = find_ci(bytes, tag_end, b"</script").unwrap_or(bytes.len());
                let is_ld = attr(&attrs, "type")
                    .is_some_and(|t| t.to_ascii_lowercase().contains("ld+json"));
                if is_ld && *scripts < MAX_JSON_LD {
                    json_ld(&bytes[tag_end.min(end)..end], found);
                    *scripts += 1;
                }
                i = end;
            }
            // Raw text, and foreign content whose `<title>` is not the page's.
            "style" | "textarea" | "xmp" | "noembed" | "noframes" | "template" | "svg" | "math" => {
                let close = format!("</{name}");
                i = find_ci(bytes, tag_end, close.as_bytes()).unwrap_or(bytes.len());
            }
            // Tags only a body holds: the head is over.
            "body" | "div" | "p" | "h1" | "h2" | "h3" | "article" | "main" | "section"
            | "table" | "ul" | "ol" | "form" | "header" | "nav" | "footer" => return lt,
            _ => {}
        }
    }
    limit.min(i)
}

/// One `<meta>` tag.
fn meta(attrs: &Attrs, found: &mut Found) {
    let Some(content) = attr(attrs, "content") else {
        return;
    };
    let key = attr(attrs, "property")
        .or_else(|| attr(attrs, "name"))
        .or_else(|| attr(attrs, "itemprop"))
        .unwrap_or("")
        .trim();
    // Lowercased without an allocation; no known key is longer than `Lowered` holds.
    let key = Lowered::new(key.as_bytes());
    let not_url = |v: &str| !v.trim_start().starts_with("http");
    match key.as_ref().map_or("", Lowered::as_str) {
        "og:title" => found.og_title.offer(0, content),
        "description" => found.description.offer(0, content),
        "og:description" => found.description.offer(1, content),
        "twitter:description" | "dc.description" | "dcterms.description" => {
            found.description.offer(2, content)
        }
        "author" | "dc.creator" | "dcterms.creator" | "citation_author" | "sailthru.author"
        | "parsely-author"
            if not_url(content) =>
        {
            found.author.offer(0, strip_by(content))
        }
        "article:author" | "og:article:author" | "byl" if not_url(content) => {
            found.author.offer(1, strip_by(content))
        }
        "article:published_time" | "og:published_time" | "datepublished" => {
            found.date.offer(0, content)
        }
        "citation_publication_date"
        | "dc.date.issued"
        | "dcterms.issued"
        | "pubdate"
        | "publish-date"
        | "publish_date"
        | "parsely-pub-date"
        | "sailthru.date" => found.date.offer(2, content),
        "date" | "dc.date" | "dcterms.date" | "dcterms.created" => found.date.offer(3, content),
        "og:site_name" => found.site_name.offer(0, content),
        "application-name" | "apple-mobile-web-app-title" => found.site_name.offer(2, content),
        "og:url" => found.canonical.offer(1, content),
        _ => {}
    }
}

/// "By Jane Doe" → "Jane Doe".
fn strip_by(s: &str) -> &str {
    let t = s.trim_start();
    for prefix in ["By ", "by ", "BY ", "Von ", "von "] {
        if let Some(rest) = t.strip_prefix(prefix) {
            return rest;
        }
    }
    t
}

/// Reads one JSON-LD block: authors' names, `datePublished`, the publisher's name and the
/// top item's `description`, wherever they sit (`@graph` arrays included). Tolerant: stops at
/// the first thing that is not JSON, keeping what it read.
fn json_ld(src: &[u8], found: &mut Found) {
    let src = &src[..src.len().min(JSON_LD_CAP)];
    // One entry per open container: `Some(key being read)` for objects, `None` for arrays.
    let mut stack: Vec<Option<String>> = Vec::new();
    let mut expect_key = false;
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        match c {
            b'{' | b'[' => {
                if stack.len() >= MAX_JSON_DEPTH {
                    return;
                }
                stack.push((c == b'{').then(String::new));
                expect_key = c == b'{';
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                expect_key = false;
                i += 1;
            }
            b',' => {
                expect_key = matches!(stack.last(), Some(Some(_)));
                i += 1;
            }
            b':' => {
                expect_key = false;
                i += 1;
            }
            b'"' => {
                let (s, next) = json_string(src, i + 1);
                i = next;
                if expect_key {
                    if let Some(Some(key)) = stack.last_mut() {
                        *key = s;
                    }
                    expect_key = false;
                } else {
                    json_value(&stack, &s, found);
                }
            }
            c if c.is_ascii_whitespace() => i += 1,
            // Numbers, true, false, null: nothing we read.
            c if c.is_ascii_alphanumeric() || c == b'-' || c == b'+' || c == b'.' => i += 1,
            _ => return,
        }
    }
}

/// A string value found under the keys of `stack`.
fn json_value(stack: &[Option<String>], value: &str, found: &mut Found) {
    let path: Vec<&str> = stack
        .iter()
        .flatten()
        .map(String::as_str)
        .filter(|k| *k != "@graph")
        .collect();
    let Some(&last) = path.last() else {
        return;
    };
    let under = |name: &str| path[..path.len() - 1].contains(&name);
    if last == "datePublished" {
        found.date.offer(1, value);
    } else if (last == "name" && (under("author") || under("creator")))
        || ((last == "author" || last == "creator") && !value.starts_with("http"))
    {
        if found.json_authors.len() < MAX_AUTHORS
            && let Some(name) = clean(value)
            && !found.json_authors.contains(&name)
        {
            found.json_authors.push(name);
        }
    } else if last == "name" && path.len() == 2 && path[0] == "publisher" {
        found.site_name.offer(1, value);
    } else if last == "description" && path.len() == 1 {
        found.description.offer(3, value);
    }
}

/// A JSON string starting after its opening quote: its value and the index after its closing
/// quote (the end of `src` when unterminated).
fn json_string(src: &[u8], start: usize) -> (String, usize) {
    let mut out: Vec<u8> = Vec::new();
    let mut i = start;
    while i < src.len() {
        match src[i] {
            b'"' => return (String::from_utf8_lossy(&out).into_owned(), i + 1),
            b'\\' if i + 1 < src.len() => {
                let e = src[i + 1];
                i += 2;
                let ch = match e {
                    b'n' => '\n',
                    b't' => '\t',
                    b'r' => '\r',
                    b'b' | b'f' => ' ',
                    b'u' => {
                        let (c, used) = json_unicode(&src[i..]);
                        i += used;
                        c
                    }
                    other => other as char,
                };
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    (String::from_utf8_lossy(&out).into_owned(), src.len())
}

/// The character of a `\u` escape (its 4 hex digits at the start of `s`, and a low surrogate
/// escape after a high one), and the bytes used; U+FFFD when broken.
fn json_unicode(s: &[u8]) -> (char, usize) {
    let hex = |s: &[u8]| -> Option<u32> {
        let digits = std::str::from_utf8(s.get(..4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    let Some(hi) = hex(s) else {
        return ('\u{fffd}', 0);
    };
    if (0xD800..0xDC00).contains(&hi)
        && s.get(4..6) == Some(b"\\u")
        && let Some(lo) = hex(&s[6..]).filter(|lo| (0xDC00..0xE000).contains(lo))
    {
        let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
        return (char::from_u32(c).unwrap_or('\u{fffd}'), 10);
    }
    (char::from_u32(hi).unwrap_or('\u{fffd}'), 4)
}

/// The `<title>` text without its site name, as trafilatura cuts it: split at the last
/// separator standing between spaces (`-`, `|`, `–`, `—`, `•`, `·`, `:`, `»`, ...), keep the
/// first part unless it is a domain name (then the second, unless it is one too: then the
/// whole title). Trafilatura tests "holds a dot", which turns "Kettle 1.2 L | Shop" into
/// "Shop"; here only a one-word part with a dot counts. A CJK title without such a separator
/// is cut at its first `_` (`新闻标题_频道_网站`). `title` is already cleaned.
pub fn strip_site_name(title: &str) -> String {
    const SEPARATORS: &[char] = &[
        '-', '|', '–', '•', '·', '—', '⁄', '*', '⋆', '~', '‹', '«', '<', '›', '»', '>', ':',
    ];
    // The last " X " with X a separator, not at the very start.
    let chars: Vec<(usize, char)> = title.char_indices().collect();
    let mut split = None;
    for w in (1..chars.len().saturating_sub(2)).rev() {
        let (at, c) = chars[w];
        if SEPARATORS.contains(&c) && chars[w - 1].1 == ' ' && chars[w + 1].1 == ' ' {
            split = Some((chars[w - 1].0, at + c.len_utf8() + 1));
            break;
        }
    }
    let Some((first_end, second_start)) = split else {
        if let Some(at) = title.find('_') {
            let head = title[..at].trim();
            if head.chars().any(is_cjk) {
                return head.to_string();
            }
        }
        return title.to_string();
    };
    let first = &title[..first_end];
    let second = &title[second_start..];
    let domain = |s: &str| !s.contains(' ') && s.trim_matches('.').contains('.');
    if !first.is_empty() && !domain(first) {
        first.to_string()
    } else if !second.is_empty() && !domain(second) {
        second.to_string()
    } else {
        title.to_string()
    }
}

/// Han, kana and hangul.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// Entity-decoded, whitespace-folded, trimmed; `None` when nothing is left.
fn clean(raw: &str) -> Option<String> {
    let decoded = decode(raw);
    let mut out = String::with_capacity(decoded.len());
    for word in decoded.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    (!out.is_empty()).then_some(out)
}

/// `href` as an absolute `http(s)` URL, resolving `//host/...` and `/path` against `base`.
fn absolute_url(href: &str, base: Option<&str>) -> Option<String> {
    let lower = href.get(..8).unwrap_or(href).to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return Some(href.to_string());
    }
    let base = base?;
    let scheme_end = base.find("://")?;
    if let Some(rest) = href.strip_prefix("//") {
        return Some(format!("{}://{rest}", &base[..scheme_end]));
    }
    if href.starts_with('/') {
        let after = scheme_end + 3;
        let origin_end = base[after..]
            .find(['/', '?', '#'])
            .map_or(base.len(), |p| after + p);
        return Some(format!("{}{href}", &base[..origin_end]));
    }
    None
}

/// Lowercased tag name at `at` (letters, digits, `-`, `:`), and the index after it.
fn tag_name(bytes: &[u8], at: usize) -> (Lowered, usize) {
    let mut end = at;
    while end < bytes.len()
        && end - at < Lowered::CAPACITY
        && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'-' || bytes[end] == b':')
    {
        end += 1;
    }
    if at >= bytes.len() || !bytes[at].is_ascii_alphabetic() {
        return (Lowered::default(), at);
    }
    (Lowered::new(&bytes[at..end]).unwrap_or_default(), end)
}

/// A short name ASCII-lowercased without an allocation (a tag name, a `<meta>` key): the
/// head scan reads every tag of the head.
#[derive(Default)]
struct Lowered {
    bytes: [u8; Lowered::CAPACITY],
    len: u8,
}

impl Lowered {
    /// Bytes held at most: more than any tag name or `<meta>` key the scan knows.
    const CAPACITY: usize = 32;

    /// `name` lowercased, or `None` when it is longer than `CAPACITY`.
    fn new(name: &[u8]) -> Option<Lowered> {
        let mut lowered = Lowered::default();
        let buf = lowered.bytes.get_mut(..name.len())?;
        buf.copy_from_slice(name);
        buf.make_ascii_lowercase();
        lowered.len = name.len() as u8;
        Some(lowered)
    }

    /// As text (empty when the bytes are not UTF-8; ASCII lowercasing keeps UTF-8 valid).
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

/// The attributes of a tag from `at` (after its name) to its `>`, into `attrs` (cleared
/// first) as written; returns the index after the `>`.
fn attributes<'a>(bytes: &'a [u8], mut i: usize, attrs: &mut Attrs<'a>) -> usize {
    attrs.clear();
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        if i >= bytes.len() {
            return bytes.len();
        }
        if bytes[i] == b'>' {
            return i + 1;
        }
        let name_start = i;
        while i < bytes.len()
            && !bytes[i].is_ascii_whitespace()
            && !matches!(bytes[i], b'=' | b'>' | b'/')
        {
            i += 1;
        }
        let name = &bytes[name_start..i];
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b'=' {
            if name.is_empty() {
                i += 1;
            } else {
                attrs.push((name, b""));
            }
            continue;
        }
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let value = match bytes.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                let start = i + 1;
                let end = memchr::memchr(q, &bytes[start..]).map_or(bytes.len(), |p| start + p);
                i = (end + 1).min(bytes.len());
                &bytes[start..end]
            }
            _ => {
                let start = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' {
                    i += 1;
                }
                &bytes[start..i]
            }
        };
        attrs.push((name, value));
    }
}

/// A tag's attributes as written: (name, value) pairs in order, not decoded.
type Attrs<'a> = Vec<(&'a [u8], &'a [u8])>;

/// The value of the first attribute named `name` (a lowercase name; the tag's may be in any
/// case), as text (empty when it is not UTF-8).
fn attr<'a>(attrs: &Attrs<'a>, name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
        .map(|(_, v)| std::str::from_utf8(v).unwrap_or(""))
}

fn starts_with_ci(hay: &[u8], lower: &[u8]) -> bool {
    hay.len() >= lower.len() && hay[..lower.len()].eq_ignore_ascii_case(lower)
}

/// First index ≥ `from` where `lower` (an ASCII string starting with `<`) occurs, ignoring
/// ASCII case.
fn find_ci(bytes: &[u8], from: usize, lower: &[u8]) -> Option<usize> {
    let mut i = from;
    while i < bytes.len() {
        let p = i + memchr::memchr(lower[0], &bytes[i..])?;
        if starts_with_ci(&bytes[p..], lower) {
            return Some(p);
        }
        i = p + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(html: &str) -> PageMeta {
        PageMeta::read(html, Some("https://www.example.com/news/a?x=1"), || {
            Some("The H1 headline".to_string())
        })
    }

    #[test]
    fn opengraph_and_json_ld_graph() {
        let html = r#"<!DOCTYPE html><html lang="en-GB"><head>
<meta charset="utf-8">
<title>Rivers warm faster than air | The Daily Example</title>
<meta name="description" content="A thirty-year study of 120 rivers &amp; their fish.">
<meta property="og:title" content="Rivers are warming (OG)">
<meta property="og:site_name" content="The Daily Example">
<meta property="og:url" content="https://www.example.com/og-url">
<meta property="article:published_time" content="2024-03-03T09:00:00Z">
<link rel="canonical" href="/news/rivers-warm">
<script type="application/ld+json">
{"@context":"https://schema.org","@graph":[
  {"@type":"WebSite","name":"Daily Example Site","url":"https://www.example.com/"},
  {"@type":"NewsArticle","headline":"Rivers","datePublished":"2024-03-02",
   "author":[{"@type":"Person","name":"Ada Example"},{"@type":"Person","name":"Bo \u00c5berg"}],
   "publisher":{"@type":"Organization","name":"Example Media","logo":{"@type":"ImageObject","url":"x.png"}}}
]}
</script>
</head><body><h1>Other</h1></body></html>"#;
        let m = read(html);
        assert_eq!(m.title.as_deref(), Some("Rivers warm faster than air"));
        assert_eq!(
            m.description.as_deref(),
            Some("A thirty-year study of 120 rivers & their fish.")
        );
        assert_eq!(m.author.as_deref(), Some("Ada Example; Bo Åberg"));
        // article:published_time outranks JSON-LD's datePublished.
        assert_eq!(m.date_published.as_deref(), Some("2024-03-03T09:00:00Z"));
        assert_eq!(m.site_name.as_deref(), Some("The Daily Example"));
        assert_eq!(
            m.canonical_url.as_deref(),
            Some("https://www.example.com/news/rivers-warm")
        );
        assert_eq!(m.html_lang.as_deref(), Some("en-GB"));
    }

    #[test]
    fn json_ld_alone_gives_date_author_publisher_description() {
        let html = r#"<html><head><title>Post</title>
<script type='application/ld+json'>{"@type":"BlogPosting","description":"About &quot;bikes&quot;",
"datePublished":"2023-11-05","author":{"@type":"Person","name":"Jane Roe"},
"publisher":{"name":"Bike Blog"}}</script></head><body></body></html>"#;
        let m = read(html);
        assert_eq!(m.date_published.as_deref(), Some("2023-11-05"));
        assert_eq!(m.author.as_deref(), Some("Jane Roe"));
        assert_eq!(m.site_name.as_deref(), Some("Bike Blog"));
        assert_eq!(m.description.as_deref(), Some("About \"bikes\""));
        assert_eq!(m.canonical_url, None);
    }

    /// Tag and attribute names in any case, keys in any case, and what is not read: a key
    /// longer than any known one, a value that is not UTF-8, a later duplicate attribute.
    #[test]
    fn names_in_any_case_and_values_as_written() {
        let html = "<HTML LANG=de><HEAD><TITLE>Ein Titel</TITLE>\
<META NAME=\"Description\" CONTENT=\"Erste Beschreibung\" content=\"zweite\">\
<Meta Property=\"OG:Site_Name\" Content=\"Beispiel\">\
<meta name=\"a-key-much-longer-than-any-known-one-description\" content=\"no\">\
<LINK REL=\"Canonical\" HREF=\"/kanonisch\"></HEAD><BODY></BODY></HTML>";
        let m = read(html);
        assert_eq!(m.title.as_deref(), Some("Ein Titel"));
        assert_eq!(m.description.as_deref(), Some("Erste Beschreibung"));
        assert_eq!(m.site_name.as_deref(), Some("Beispiel"));
        assert_eq!(
            m.canonical_url.as_deref(),
            Some("https://www.example.com/kanonisch")
        );
        assert_eq!(m.html_lang.as_deref(), Some("de"));
        // A description whose bytes are not UTF-8 reads as empty: no description.
        let mut bytes = b"<html><head><meta name=description content=\"caf".to_vec();
        bytes.extend_from_slice(b"\xe9\"></head><body></body></html>");
        let mut found = Found::default();
        let mut scripts = 0;
        scan_head(&bytes, &mut found, &mut scripts);
        assert_eq!(found.description.take(), None);
    }

    #[test]
    fn json_ld_in_the_body_is_read() {
        let html = r#"<html><head><title>T</title></head><body><p>text</p>
<script type="application/ld+json">{"author":"Max Mustermann","datePublished":"2020-01-01"}</script>
</body></html>"#;
        let m = read(html);
        assert_eq!(m.author.as_deref(), Some("Max Mustermann"));
        assert_eq!(m.date_published.as_deref(), Some("2020-01-01"));
    }

    #[test]
    fn site_name_suffixes() {
        let cases = [
            (
                "Rivers warm faster | The Daily Example",
                "Rivers warm faster",
            ),
            (
                "Rivers warm faster - The Daily Example",
                "Rivers warm faster",
            ),
            (
                "Rivers warm faster – Example – News",
                "Rivers warm faster – Example",
            ),
            ("example.com | Rivers warm faster", "Rivers warm faster"),
            ("Rivers warm faster - example.com", "Rivers warm faster"),
            ("example.org - example.com", "example.org - example.com"),
            ("Self-made title", "Self-made title"),
            (
                "Trail Kettle 1.2 L – Kitchen | Shop",
                "Trail Kettle 1.2 L – Kitchen",
            ),
            ("北京今天下雨了_新闻中心_新浪网", "北京今天下雨了"),
            ("snake_case_names", "snake_case_names"),
            ("Review: a film » Blog", "Review: a film"),
        ];
        for (raw, want) in cases {
            assert_eq!(strip_site_name(raw), want, "{raw}");
        }
        let m = read("<title>Big &amp; small\n  - Site</title>");
        assert_eq!(m.title.as_deref(), Some("Big & small"));
    }

    #[test]
    fn title_falls_back_to_og_then_h1() {
        let m = read(r#"<head><meta property="og:title" content="From OG"></head>"#);
        assert_eq!(m.title.as_deref(), Some("From OG"));
        let m = read("<head><title>  </title></head><body><h1>x</h1>");
        assert_eq!(m.title.as_deref(), Some("The H1 headline"));
        let m = PageMeta::read("<p>nothing</p>", None, || None);
        assert_eq!(m, PageMeta::default());
    }

    #[test]
    fn titles_outside_the_head_are_ignored() {
        let html = r#"<html><head>
<svg><title>Icon title</title></svg>
<title>Real title</title></head>
<body><svg><title>Body icon</title></svg><title>Body title</title></body></html>"#;
        assert_eq!(read(html).title.as_deref(), Some("Real title"));
        // A `<title>` in the body is not the page's: the h1 is used.
        let html = "<html><head></head><body><title>Body title</title></body>";
        assert_eq!(read(html).title.as_deref(), Some("The H1 headline"));
    }

    #[test]
    fn head_without_end_and_broken_markup() {
        let m = read(
            r#"<html lang=de><title>Ohne Ende</title><meta name=author content="Von Erika Muster">"#,
        );
        assert_eq!(m.title.as_deref(), Some("Ohne Ende"));
        assert_eq!(m.author.as_deref(), Some("Erika Muster"));
        assert_eq!(m.html_lang.as_deref(), Some("de"));
        for junk in [
            "<",
            "<title",
            "<title>unterminated",
            "<meta content='x",
            "<!-- never closed",
            "<script type=application/ld+json>{\"author\":{\"name\":\"A",
            "<script type=application/ld+json>[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"x\"",
            "<script type=application/ld+json>{\"description\":\"\\ud800\\u12\"}",
            "ld+json",
            "<html lang=\"\">",
        ] {
            let _ = read(junk);
        }
        let m = read("<title>unterminated");
        assert_eq!(m.title.as_deref(), Some("unterminated"));
    }

    #[test]
    fn a_megabyte_of_junk_is_read_only_up_to_the_cap() {
        let mut html = String::from("<html><head>");
        while html.len() < (1 << 20) {
            html.push_str("<meta name=x content=y><junk a=b> &amp; filler text ");
        }
        html.push_str("<title>Too late</title></head>");
        let start = std::time::Instant::now();
        let m = read(&html);
        assert!(start.elapsed().as_secs() < 2);
        // The title lies past the cap: not read; the h1 stands in.
        assert_eq!(m.title.as_deref(), Some("The H1 headline"));
    }

    #[test]
    fn canonical_urls_are_absolute() {
        let base = Some("https://www.example.com/news/a?x=1");
        assert_eq!(
            absolute_url("//cdn.example.com/a", base).as_deref(),
            Some("https://cdn.example.com/a")
        );
        assert_eq!(
            absolute_url("/b", Some("http://h.org")).as_deref(),
            Some("http://h.org/b")
        );
        assert_eq!(absolute_url("relative/c", base), None);
        assert_eq!(absolute_url("/b", None), None);
        assert_eq!(
            absolute_url("HTTPS://X.ORG/", None).as_deref(),
            Some("HTTPS://X.ORG/")
        );
    }
}
