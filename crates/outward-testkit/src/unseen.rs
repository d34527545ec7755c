//! Pages that mix words a browser shows with words it never shows, for the property that an
//! extraction's text never holds markup or content a browser would not display (issue #37,
//! item 4).
//!
//! [`unseen_page`] builds a page from a [`Chooser`] (a seeded [`SplitMix64`] in tests,
//! [`ByteChooser`] over a fuzz input): a tree of ordinary elements holding *shown* words
//! (`shown0`, `shown1`, … in document order) among contexts a browser never renders, each
//! holding *unseen* words (containing [`UNSEEN`]): `<head>` content, `<script>` and `<style>`
//! source (with markup, comparisons and `</` inside strings), comments (also `<!---->`,
//! `--` inside, `<!-->`), attribute values (quoted with `>` and markup inside, unquoted),
//! end tags with attributes, `<template>`, `<iframe>` fallback, `type=hidden` inputs,
//! bogus comments (`<![CDATA[…]]>`, `<?…?>`, `</ …>`), `hidden` and `display:none`
//! elements, an attribute quote left open over markup, and at the very end of the file an unclosed comment, script or start tag.
//!
//! What is deliberately left out, because a browser does show it: `<textarea>`, `<select>`
//! options, `<button>`, SVG and MathML text, `aria-hidden` content, `<noscript>` (shown with
//! scripting off), image `alt` text, visible form values.
//!
//! Invariants: the same choices give the same page; shown words never touch each other or a
//! tag without a space (so every method can tokenise them); no shown text sits directly in a
//! `<table>` or `<tr>` (a browser would move it), so document order is display order; the page
//! holds far more shown text than any one hidden element (so no "show the hidden element"
//! fallback is entitled to reveal it).

use crate::rng::SplitMix64;

/// Every unseen word contains this; an extraction's text must never.
pub const UNSEEN: &str = "qzunseen";

/// A source of choices: `below(n)` is in `0..n`.
pub trait Chooser {
    fn below(&mut self, n: usize) -> usize;
}

impl Chooser for SplitMix64 {
    fn below(&mut self, n: usize) -> usize {
        SplitMix64::below(self, n)
    }
}

/// Choices read from bytes (a fuzz input): one byte per choice, 0 once they run out, so
/// every input gives a finite page.
pub struct ByteChooser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> ByteChooser<'a> {
    pub fn new(bytes: &'a [u8]) -> ByteChooser<'a> {
        ByteChooser { bytes, at: 0 }
    }
}

impl Chooser for ByteChooser<'_> {
    fn below(&mut self, n: usize) -> usize {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b as usize % n.max(1)
    }
}

/// A generated page and the words a browser shows, in display order.
#[derive(Debug, Clone)]
pub struct UnseenPage {
    pub html: String,
    pub shown: Vec<String>,
}

impl UnseenPage {
    /// What is wrong with `text`, an extraction of this page, if anything: an unseen word
    /// or a `<`/`>` in it (no shown text holds either), or, when `all_shown` (a method that
    /// keeps every visible text, `fulltext`), not exactly the shown words in order.
    pub fn fault(&self, text: &str, all_shown: bool) -> Option<String> {
        if text.contains(UNSEEN) || text.contains('<') || text.contains('>') {
            return Some("unseen markup in the text".into());
        }
        if all_shown
            && !text
                .split_whitespace()
                .eq(self.shown.iter().map(String::as_str))
        {
            return Some("not every shown word, in order".into());
        }
        None
    }
}

/// Element nesting depth of the generated body.
const MAX_DEPTH: usize = 5;
/// Children per element.
const MAX_CHILDREN: usize = 5;
/// Shown words the page holds at least (in a final paragraph when the tree fell short), so
/// no hidden element outweighs what the page shows.
const MIN_SHOWN: usize = 60;

struct Builder<'c, C: Chooser> {
    choose: &'c mut C,
    html: String,
    shown: Vec<String>,
    unseen: usize,
}

/// A page from `choose`: see the module doc.
pub fn unseen_page<C: Chooser>(choose: &mut C) -> UnseenPage {
    let mut b = Builder {
        choose,
        html: String::new(),
        shown: Vec::new(),
        unseen: 0,
    };
    if b.choose.below(2) == 0 {
        b.html.push_str("<!DOCTYPE html>");
    }
    b.html.push_str("<html><head>");
    let (title, description) = (b.unseen_words(2), b.unseen_words(3));
    b.html.push_str(&format!(
        "<title>{title}</title><meta name=\"description\" content=\"{description}\">"
    ));
    let style = b.style();
    b.html.push_str(&style);
    let script = b.script();
    b.html.push_str(&script);
    b.html.push_str("</head>\n<body>");
    let n = 1 + b.choose.below(MAX_CHILDREN);
    for _ in 0..n {
        b.flow(0);
    }
    if b.shown.len() < MIN_SHOWN {
        b.html.push_str("\n<p>");
        b.words(MIN_SHOWN - b.shown.len());
        b.html.push_str("</p>");
    }
    b.html.push_str("\n</body></html>");
    let tail = b.tail();
    b.html.push_str(&tail);
    UnseenPage {
        html: b.html,
        shown: b.shown,
    }
}

/// Flow containers and what they hold.
const BLOCKS: &[&str] = &[
    "div",
    "p",
    "section",
    "article",
    "blockquote",
    "h2",
    "main",
    "aside",
    "footer",
];
const INLINES: &[&str] = &["span", "em", "strong", "b", "i", "a", "small", "code"];

impl<C: Chooser> Builder<'_, C> {
    /// `n` unseen words joined by spaces.
    fn unseen_words(&mut self, n: usize) -> String {
        let mut out = String::new();
        for i in 0..n {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&format!("{UNSEEN}{}", self.unseen));
            self.unseen += 1;
        }
        out
    }

    /// `n` shown words, spaced.
    fn words(&mut self, n: usize) {
        for _ in 0..n {
            let w = format!("shown{}", self.shown.len());
            self.html.push(' ');
            self.html.push_str(&w);
            self.html.push(' ');
            self.shown.push(w);
        }
    }

    /// Attributes of a shown element: sometimes ones whose values hold unseen words,
    /// markup and `>`.
    fn attributes(&mut self) -> String {
        let mut out = String::new();
        for _ in 0..self.choose.below(3) {
            let w = self.unseen_words(1);
            let attr = match self.choose.below(6) {
                0 => format!(" title=\"{w} > <b>{w}</b>\""),
                1 => format!(" data-x='{w} <p class=\"a\">x</p> >'"),
                2 => format!(" data-y={w}"),
                3 => format!(" class=\"c {w}\" id=\"{w}\""),
                4 => format!(" onclick=\"if (a<b) f('{w}>')\""),
                _ => format!(" style=\"color: red; /* {w} */\""),
            };
            out.push_str(&attr);
        }
        out
    }

    /// A flow child at `depth`: an element with children, shown words, or an unseen context.
    fn flow(&mut self, depth: usize) {
        let pick = self.choose.below(10);
        match pick {
            0..=2 => {
                let n = 1 + self.choose.below(8);
                self.words(n);
            }
            3..=5 if depth < MAX_DEPTH => {
                let tag = BLOCKS[self.choose.below(BLOCKS.len())];
                self.element(tag, depth);
            }
            6 if depth < MAX_DEPTH => self.list(depth),
            7 if depth < MAX_DEPTH => self.table(depth),
            8 => {
                let tag = INLINES[self.choose.below(INLINES.len())];
                let attrs = self.attributes();
                let href = if tag == "a" {
                    let w = self.unseen_words(1);
                    format!(" href=\"/{w}?a=1&amp;b=<2>\"")
                } else {
                    String::new()
                };
                self.html.push_str(&format!(" <{tag}{href}{attrs}>"));
                let n = 1 + self.choose.below(4);
                self.words(n);
                self.html.push_str(&format!("</{tag}> "));
            }
            _ => {
                let unseen = self.unseen_context();
                self.html.push_str(&unseen);
            }
        }
    }

    fn element(&mut self, tag: &str, depth: usize) {
        let attrs = self.attributes();
        self.html.push_str(&format!("\n<{tag}{attrs}>"));
        let n = 1 + self.choose.below(MAX_CHILDREN);
        for _ in 0..n {
            if tag == "p" || tag == "h2" {
                // Phrasing content only: a block inside `p` closes it (still shown, in
                // order), but keep the common shape common.
                if self.choose.below(4) == 0 {
                    let unseen = self.unseen_context();
                    self.html.push_str(&unseen);
                } else {
                    let n = 1 + self.choose.below(6);
                    self.words(n);
                }
            } else {
                self.flow(depth + 1);
            }
        }
        // End tags sometimes carry attributes, which a browser ignores.
        if self.choose.below(8) == 0 {
            let w = self.unseen_words(1);
            self.html.push_str(&format!("</{tag} class=\"{w}\">"));
        } else {
            self.html.push_str(&format!("</{tag}>"));
        }
    }

    fn list(&mut self, depth: usize) {
        self.html.push_str("\n<ul>");
        for _ in 0..1 + self.choose.below(4) {
            self.html.push_str("<li>");
            self.flow(depth + 1);
            // `</li>` is optional: the next `<li>` closes it.
            if self.choose.below(2) == 0 {
                self.html.push_str("</li>");
            }
        }
        self.html.push_str("</ul>");
    }

    fn table(&mut self, depth: usize) {
        self.html.push_str("\n<table>");
        for _ in 0..1 + self.choose.below(3) {
            self.html.push_str("<tr>");
            for _ in 0..1 + self.choose.below(3) {
                self.html.push_str("<td>");
                self.flow(depth + 1);
                self.html.push_str("</td>");
            }
            self.html.push_str("</tr>");
        }
        self.html.push_str("</table>");
    }

    fn style(&mut self) -> String {
        let w = self.unseen_words(1);
        format!("<style>p > a {{ content: \"{w}\" }} /* </p><p>{w} */ a[x=\"<b>\"] {{}}</style>")
    }

    fn script(&mut self) -> String {
        let w = self.unseen_words(2);
        match self.choose.below(5) {
            0 => format!(
                "<script>var s = \"</div><p>{w}</p>\"; if (a<b && b>c) {{ x = '<span>'; }}</script>"
            ),
            1 => format!("<script type=\"text/template\"><div class=\"t\">{w}</div></script>"),
            2 => format!(
                "<script>document.write('<scr' + 'ipt src=\"{w}.js\"></scr' + 'ipt>'); // {w}</script>"
            ),
            // `<!--` then `<script` inside a script: the first `</script>` does not end it.
            3 => format!(
                "<script><!--\ndocument.write(\"<script src='/{w}.js'></script>\"); // {w}\n--></script>"
            ),
            _ => format!(
                "<SCRIPT language=\"javascript\">\n<!--\nvar t = \"{w}\";\n//-->\n</SCRIPT>"
            ),
        }
    }

    /// One context a browser never renders, with unseen words in it.
    fn unseen_context(&mut self) -> String {
        let w = self.unseen_words(2);
        let text = match self.choose.below(18) {
            0 => self.script(),
            1 => self.style(),
            2 => format!("<!-- {w} <p>{w}</p> -->"),
            3 => format!("<!---->{}<!-- a -- b {w} -->", " "),
            4 => format!("<!--> <!-- {w} --!>"),
            5 => format!("<template><p>{w}</p><script>{w}</script></template>"),
            6 => format!("<iframe src=\"/{w}\"><p>{w}</p></iframe>"),
            7 => format!("<input type=\"hidden\" name=\"n\" value=\"{w} >\">"),
            8 => format!("<![CDATA[{w}]]>"),
            9 => format!("<?php echo '{w}'; ?>"),
            10 => format!("</ {w}>"),
            11 => format!("<div hidden><p>{w}</p></div>"),
            12 => format!("<span style=\"display:none\">{w}</span>"),
            13 => format!("<p style=\"color: blue; display: none;\">{w}</p>"),
            14 => format!("<img src=\"/{w}.png\" width=\"1\" height=\"1\"><br/>"),
            15 => format!("<link rel=\"stylesheet\" href=\"/{w}.css\"><meta content=\"{w}\">"),
            // A quote left open runs over the `>` and the markup after it, to the next quote.
            17 => format!("<a href=\"/{w}>{w}</a> <b class=\"c\"></b></a>"),
            _ => format!("<title>{w}</title>"),
        };
        format!(" {text} ")
    }

    /// What may end the file: nothing, or an unclosed comment, script, or start tag (the
    /// shape of a truncated crawl record).
    fn tail(&mut self) -> String {
        let w = self.unseen_words(2);
        match self.choose.below(5) {
            0 => format!("<!-- {w} <p>{w}</p>"),
            1 => format!("<script>var x = \"{w}\"; </scr"),
            2 => format!("<div title=\"{w}>{w} <p>{w}"),
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_page_and_words_in_order() {
        let a = unseen_page(&mut SplitMix64::new(7));
        let b = unseen_page(&mut SplitMix64::new(7));
        assert_eq!(a.html, b.html);
        assert!(a.shown.len() >= MIN_SHOWN);
        assert_eq!(a.shown[0], "shown0");
        assert!(a.html.contains(UNSEEN));
        // Every shown word is in the page, spaced, in order.
        let mut at = 0;
        for w in &a.shown {
            let needle = format!(" {w} ");
            at += a.html[at..].find(&needle).expect(w) + needle.len();
        }
    }

    #[test]
    fn an_empty_fuzz_input_gives_a_page() {
        let page = unseen_page(&mut ByteChooser::new(&[]));
        assert_eq!(page.shown.len(), MIN_SHOWN);
        assert!(page.html.contains("</body></html>"));
    }
}
