//! The cleaner: one forward pass over the raw page that makes reverse tokenizing sound and
//! gathers the flat statistics the methods rank seeds by. It owns every HTML tokenizer rule
//! that can only be decided reading forward.
//!
//! Output ([`Cleaned`]): a byte buffer of canonical markup where
//! - comments, doctype, processing instructions, `head`, `script`, `style`, `template`,
//!   `svg`, `math`, `iframe`, `select`, `textarea`, `button`, `object`, `canvas`,
//!   `audio`/`video`, `noscript` (unless kept) and every element marked `hidden`,
//!   `aria-hidden="true"`, `popover` or `display:none` are gone with their content
//!   (`visibility:hidden` stays: WeChat hides its articles that way until a script shows
//!   them; so do React's streamed segments, `<div hidden id="S:0">`, which a script moves
//!   into place at once: Next.js pages serve their article that way; so do the collapsed
//!   panels of tabs and accordions, `role="tabpanel"`, `role="region"`, labelled by their
//!   trigger or classed `accordion…`/`…collapse…`, whose FAQ answers and details are the
//!   page's text) (`form` is always kept: ASP.NET wraps whole pages in one); so are
//!   elements whose class hides them on every screen (`hidden`, `hide`, `d-none` without a
//!   responsive class that shows them: a teaser copy of the article for other readers,
//!   closed pop-ups), unless one hidden element (by class, `hidden` or `display:none`; not
//!   `aria-hidden`) holds more text than the page shows: then the page waits behind a
//!   preloader or an age gate for a script (`<div class="root hide">`), and a second pass
//!   shows that element;
//! - a comment ends at `-->` or `--!>`; a script's source ends where a browser's tokenizer
//!   ends it (a `<script` inside `<!--` … `-->` in a script nests: old ad code's
//!   `document.write("<script …></script>")` does not end the outer script); nothing inside
//!   a `<template>` closes an element outside it;
//! - implied end tags apply inside hidden content too (`<p hidden>…<p>` closes the hidden
//!   paragraph), except inside `svg` and `math`;
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
//! Split by job: `lex` (where markup starts and ends, tag names, attributes, raw text),
//! `rules` (tree construction: implied end tags, the open-element stack), `hints`
//! (boilerplate and content hints of attributes), `stats` (text runs and block statistics),
//! `output` (canonical tags); this file drives the single pass.
//!
//! Invariants: linear time (stack searches are capped), no recursion, never panics.

use crate::html::find::{find_angle, find_byte};
use crate::html::tags::Tag;
use crate::html::textstats::{TextMeasure, measure};
use memchr::memmem;

mod hints;
mod lex;
mod output;
mod rules;
pub mod skim;
mod stats;

use hints::*;
use lex::*;
use rules::*;

/// Flag bits of text runs and blocks.
pub const IN_LINK: u8 = 1;
pub const IN_BOILER: u8 = 2;
pub const IN_HEADING: u8 = 4;
pub const IN_GOOD: u8 = 8;

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
pub struct BlockStats {
    /// Start of the block's first text run in the cleaned buffer.
    pub start: u32,
    /// Start of the block's first run outside links (or the first run).
    pub seed: u32,
    pub weight: u32,
    pub link_weight: u32,
    /// Runs outside links that hold text (words between the links of running prose).
    pub plain_runs: u32,
    /// Runs inside links that hold text.
    pub link_runs: u32,
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
    /// Never main text (a privacy or cookie dialog, `role=dialog`, or a hinted element
    /// inside one): no seed is taken in it and its hint is never excused.
    pub never_content: bool,
    /// Hinted as comments or replies (`class="comments"`, `id="disqus_thread"`).
    pub comments: bool,
}

/// `BlockStats::boiler_id` of blocks outside boilerplate-hinted elements.
pub const NO_BOILER: u32 = u32::MAX;

/// What the cleaner produced for one page.
#[derive(Debug, Default, Clone)]
pub struct Cleaned {
    pub buf: Vec<u8>,
    pub runs: Vec<TextRun>,
    pub blocks: Vec<BlockStats>,
    /// Elements (start tags) + text runs (blank or not) in `buf`.
    pub nodes_total: u64,
    /// Most elements open at once: the page's nesting depth.
    pub max_depth: u32,
    pub title: Option<String>,
    /// Range of the first `<h1>` element in `buf` (start tag to end of end tag).
    pub h1: Option<(u32, u32)>,
    /// The first `<h1>` holds a link to the site's home page: the site's name over every
    /// page (a blog's title, a logo), not the page's headline.
    pub h1_links_home: bool,
    pub saw_noscript: bool,
    /// The most text weight (as `text_weight`, of the text outside its tags) one
    /// `<noscript>` held, when not kept.
    pub noscript_max: u64,
    /// Sum of the weights of all runs.
    pub text_weight: u64,
    /// `[start, end)` in `buf` of every boilerplate-hinted element.
    pub boiler_ranges: Vec<BoilerRange>,
    /// The most text weight (as `text_weight`) one hidden element held (hidden by its class,
    /// see `class_hides`, or by its attributes: `display:none`, `hidden`, `popover`; not by
    /// `aria-hidden` alone; not counting elements inside it or removed by their tag).
    pub hidden_max: u64,
    /// Where that element's start tag begins in the source (its `<`).
    pub hidden_max_at: u32,
}

impl Cleaned {
    /// The first `<h1>`'s range when it is the page's headline: not when it links to the
    /// site's home page ([`Cleaned::h1_links_home`], the site's name over every page).
    pub fn headline(&self) -> Option<(u32, u32)> {
        self.h1.filter(|_| !self.h1_links_home)
    }
}

/// Cleaner settings.
#[derive(Debug, Clone, Copy, Default)]
pub struct CleanOptions {
    /// Parse `<noscript>` content as markup and keep it.
    pub keep_noscript: bool,
    /// Show the hidden element whose start tag begins at this source offset (and what it
    /// holds, except what is hidden inside it).
    pub reveal: Option<u32>,
    /// Never clean again with the heaviest hidden element shown (see [`clean`]): `reverse`
    /// with its `hidden` guard off.
    pub hidden_stays_hidden: bool,
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
    /// Hidden by its class or attributes, outermost: its text is counted (`hidden_held`).
    counted_hidden: bool,
    link: bool,
    boiler: bool,
    good: bool,
    /// Offset of the name in `names` (for `Tag::Other`).
    name_off: u32,
    name_len: u16,
}

struct Cleaner<'a> {
    src: &'a [u8],
    opts: CleanOptions,
    out: Vec<u8>,
    stack: Vec<Open>,
    names: Vec<u8>,
    open_counts: Vec<u32>,
    suppress: u32,
    /// A counted hidden element is open (at most one is: inside removed content none is
    /// counted); `hidden_held` is the weight of its text so far, `hidden_open_at` where its
    /// start tag begins.
    hidden_open: bool,
    hidden_held: u64,
    hidden_open_at: u32,
    link_depth: u32,
    boiler_stack: Vec<u32>,
    good_depth: u32,
    heading_depth: u32,
    run_start: Option<usize>,
    block: BlockStats,
    block_runs: u32,
    res: Cleaned,
    h1_open: Option<(usize, u32)>,
    last_tag_len: usize,
    class_memo: ClassMemo<'a>,
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
            hidden_open: false,
            hidden_held: 0,
            hidden_open_at: 0,
            link_depth: 0,
            boiler_stack: Vec::new(),
            good_depth: 0,
            heading_depth: 0,
            run_start: None,
            block: BlockStats {
                boiler_id: NO_BOILER,
                ..BlockStats::default()
            },
            block_runs: 0,
            res: Cleaned::default(),
            h1_open: None,
            last_tag_len: 0,
            class_memo: ClassMemo::new(),
        }
    }

    fn run(mut self) -> Cleaned {
        let src = self.src;
        let n = src.len();
        let mut i = 0;
        while i < n {
            let Some(rel) = find_byte(b'<', &src[i..]) else {
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
}

/// A page where one hidden element holds more text than this many times the text shown is
/// cleaned again with that element shown: its root waits behind a preloader for a script
/// (`<div class="root hide">`), an age gate (`<div class="easylockdown-content"
/// style="display:none">`) or a deferred block, which a reader's browser shows.
const HIDDEN_RETRY: u64 = 1;

/// Clean `html` (see the module docs).
pub fn clean(html: &[u8], opts: CleanOptions) -> Cleaned {
    let cleaned = Cleaner::new(html, opts).run();
    if opts.reveal.is_none()
        && !opts.hidden_stays_hidden
        && cleaned.hidden_max > HIDDEN_RETRY * cleaned.text_weight
    {
        let again = CleanOptions {
            reveal: Some(cleaned.hidden_max_at),
            ..opts
        };
        return Cleaner::new(html, again).run();
    }
    cleaned
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cleaned(html: &str) -> String {
        String::from_utf8(clean(html.as_bytes(), CleanOptions::default()).buf).unwrap()
    }

    /// A blog's name in its header (`<h1><a href="http://blog.example/">`) is the site's, not
    /// the story's: the first `<h1>` is marked when it links home, whatever form the link's
    /// href takes; a link elsewhere, or a home link after the `<h1>`, marks nothing.
    #[test]
    fn the_first_h1_linking_home_is_marked() {
        let links_home = |html: &str| clean(html.as_bytes(), CleanOptions::default()).h1_links_home;
        for home in [
            "/",
            "http://blog.example.com/",
            "https://blog.example.com",
            "//blog.example.com/",
            " HTTP://Blog.Example.com/ ",
            "index.html",
            "/index.php",
        ] {
            let page =
                format!("<h1 id=title><a href=\"{home}\">Sutter's Mill</a></h1><h2>Post</h2>");
            assert!(links_home(&page), "{home}");
        }
        for elsewhere in [
            "/2012/10/09/post",
            "http://blog.example.com/about",
            "https://blog.example.com/?p=12",
            "/index.html#top",
            "",
            "#",
            "//",
            "http:relative",
            "mailto:me@blog.example.com",
            "javascript:void(0)",
            "archive.html",
        ] {
            let page = format!("<h1><a href=\"{elsewhere}\">The bridge vote</a></h1>");
            assert!(!links_home(&page), "{elsewhere:?}");
        }
        assert!(!links_home(
            "<h1>The bridge vote</h1><a href=\"/\">Home</a>"
        ));
        assert!(!links_home(
            "<h1>The bridge vote</h1><h1><a href=\"/\">Blog</a></h1>"
        ));
        assert!(!links_home(
            "<div><a href=\"/\">Blog</a></div><h1>The bridge vote</h1>"
        ));
    }

    #[test]
    fn nothing_in_a_template_closes_what_is_outside_it() {
        assert_eq!(
            cleaned("<p>a <template><p>x</p></div><li>y</template> b</p>"),
            "<p>a  b</p>"
        );
    }

    #[test]
    fn a_script_ends_where_a_browser_ends_it() {
        // `<!--` then `<script` inside a script: the inner `</script>` does not end it.
        let old_ad = "a<script><!--\ndocument.write(\"<script src='x.js'></script>\");                       // unseen\n--></script>b";
        assert_eq!(cleaned(old_ad), "ab");
        // Escaped but not double-escaped: the first `</script>` ends it.
        assert_eq!(cleaned("a<script><!-- x </script>b -->c"), "ab --&gt;c");
        // `<!-->` closes at once, so a later `<script>` is plain source.
        assert_eq!(
            cleaned("a<script><!--> <script> </script>b</script>c"),
            "abc"
        );
        // Double-escaped until `-->`, then the next `</script>` ends it.
        assert_eq!(
            cleaned("a<script><!-- <SCRIPT>x</SCRIPT> --> y</script>b"),
            "ab"
        );
        // Unclosed: the source runs to the end of the page.
        assert_eq!(cleaned("a<script><!-- <script> </script>b"), "a");
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
    fn elements_their_class_hides_are_removed() {
        assert_eq!(cleaned("<div class=\"story hidden\"><p>x</p></div>y"), "y");
        assert_eq!(cleaned("<p class=HIDE>x</p>y"), "y");
        assert_eq!(cleaned("<span class=\"d-none\">x</span>y"), "y");
        // Shown on some screens (Tailwind's `md:block`, Bootstrap's `d-lg-block`), or only
        // named alike: kept.
        for html in [
            "<div class=\"hidden md:block\">x</div>",
            "<div class=\"d-none d-lg-block\">x</div>",
            "<div class=\"overflow-hidden\">x</div>",
            "<div class=\"hidden-xs\">x</div>",
        ] {
            assert!(cleaned(html).contains('x'), "{html}");
        }
        // A page whose root waits hidden behind a preloader: the first pass hides more than
        // it shows, so the page is cleaned again with that element shown; what is hidden
        // inside it stays hidden.
        let text = "Story line that a reader sees once the script has run. ".repeat(20);
        let page = format!(
            "<body><div class=\"preloader\"></div><div class=\"root hide\"><p>{text}</p>\
             <div class=hidden>closed pop-up</div></div><p>footer</p></body>"
        );
        let kept = clean(page.as_bytes(), CleanOptions::default());
        let buf = String::from_utf8(kept.buf).unwrap();
        assert!(buf.contains("Story line that a reader sees"), "{buf}");
        assert!(!buf.contains("closed pop-up"), "{buf}");
        let first = Cleaner::new(page.as_bytes(), CleanOptions::default()).run();
        assert!(first.hidden_max > first.text_weight);
        assert!(!String::from_utf8(first.buf).unwrap().contains("Story line"));
    }

    #[test]
    fn a_page_hidden_by_its_style_is_shown_when_it_holds_most_text() {
        // deathwishcoffee.com: the whole shop waits in `display:none` behind an age gate.
        let text = "Dark roast, bold flavour and a smooth finish in every cup. ".repeat(20);
        let page = format!(
            "<body><div class=gate><p>Are you 21?</p></div>\
             <div class=\"easylockdown-content\" style=\"display:none;\"><p>{text}</p>\
             <div style=\"display:none\">closed cart</div></div><p>footer</p></body>"
        );
        let buf = cleaned(&page);
        assert!(buf.contains("Dark roast"), "{buf}");
        assert!(!buf.contains("closed cart"), "{buf}");
        // Less hidden text than shown: it stays hidden.
        let page = format!(
            "<body><p>{text}</p><div style=\"display:none\"><p>Hidden copy.</p></div></body>"
        );
        assert!(!cleaned(&page).contains("Hidden copy"));
        // `aria-hidden` hides from the text but is no block waiting for a script (yahoo's
        // off-screen news stream beside a short story): never shown.
        let page = format!(
            "<body><p>Short story.</p><div aria-hidden=\"true\"><p>{text}</p></div></body>"
        );
        assert!(!cleaned(&page).contains("Dark roast"));
        // Unless its class hides it too (merrilledge.com's methods, `class="hide"
        // aria-hidden="true"`, shown by a script).
        let page = format!(
            "<body><p>Short story.</p><div class=hide aria-hidden=\"true\"><p>{text}</p>\
             </div></body>"
        );
        assert!(cleaned(&page).contains("Dark roast"));
    }

    #[test]
    fn collapsed_panels_of_tabs_and_accordions_are_kept() {
        for html in [
            "<div role=\"tabpanel\" aria-labelledby=\"t2\" hidden>panel</div>",
            "<div role=\"region\" style=\"display:none;\">panel</div>",
            "<div aria-labelledby=\"item-2-heading\" aria-hidden=\"true\" hidden>panel</div>",
            "<div class=\"faq-answer accordion-content\" style=\"display:none\">panel</div>",
            "<div class=\"chakra-collapse\" style=\"display:none;opacity:0\">panel</div>",
            "<div hidden=\"until-found\">panel</div>",
        ] {
            assert_eq!(cleaned(html).matches("panel").count(), 1, "{html}");
        }
        // Dialogs, menus and popovers stay hidden.
        for html in [
            "<div role=\"dialog\" aria-labelledby=\"h\" hidden>panel</div>",
            "<ul role=\"menu\" aria-labelledby=\"b\" style=\"display:none\">panel</ul>",
            "<div popover><div role=\"tabpanel\">panel</div></div>",
            "<div class=\"accordion\" role=\"dialog\" hidden>panel</div>",
        ] {
            let page = format!("{html}<p>The text shown.</p>");
            assert!(!cleaned(&page).contains("panel"), "{page}");
        }
    }

    #[test]
    fn segments_react_streams_in_hidden_are_kept() {
        // Next.js / React streaming: the article arrives in `<div hidden id="S:0">` and a
        // script moves it into place (wcxb: agencyanalytics.com, render.com, fool.com).
        assert_eq!(
            cleaned("<template id=\"B:0\"></template><div hidden id=\"S:0\"><p>x</p></div>y"),
            "<div id=\"S:0\"><p>x</p></div>y"
        );
        assert_eq!(
            cleaned("<div hidden=\"\" id=\"S:12\"><p>x</p></div>y"),
            "<div id=\"S:12\"><p>x</p></div>y"
        );
        // Other hidden elements, and ids that only look alike, stay out.
        for html in [
            "<div hidden id=\"S:\"><p>x</p></div>y",
            "<div hidden id=\"S:0a\"><p>x</p></div>y",
            "<div hidden id=\"s:0\"><p>x</p></div>y",
            "<div hidden id=\"B:0\"><p>x</p></div>y",
        ] {
            assert_eq!(cleaned(html), "y", "{html}");
        }
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
    fn implied_end_tags_close_hidden_elements() {
        // thepodcasthost.com: an unclosed hidden paragraph before the article's first one.
        assert_eq!(
            cleaned("<p style=\"display: none;\">&nbsp;<p>article</p>"),
            "<p>article</p>"
        );
        assert_eq!(cleaned("<ul><li hidden>a<li>b</ul>"), "<ul><li>b</li></ul>");
        assert_eq!(
            cleaned("<div hidden><p>a<p>b</div><p>shown text</p>"),
            "<p>shown text</p>"
        );
        // Inside SVG, `<a>` implies no end tag: the hidden drawing stays hidden.
        assert_eq!(
            cleaned("<a href=x>a<svg><a>b</a></svg>c</a>"),
            "<a h>ac</a>"
        );
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

    /// Each hinted range's (strong, never content), in order.
    fn strong_and_never_content(c: &Cleaned) -> Vec<(bool, bool)> {
        c.boiler_ranges
            .iter()
            .map(|r| (r.strong, r.never_content))
            .collect()
    }

    /// A privacy dialog is never main text, even when a "maybe" word (`content`) sits in its
    /// class, and every hinted element inside it is part of it (wired.com, 2026: the consent
    /// text was the longest prose of a category page and became its main text).
    #[test]
    fn privacy_dialogs_are_never_content() {
        let c = clean(
            b"<div id=\"fides-consent-content\"><p>We use cookies.</p></div>\
              <div class=\"main-content\"><p>Article.</p></div>\
              <div role=\"alertdialog\"><div class=\"fides-banner\"><p>Partners.</p></div></div>\
              <div class=\"share\"><p>Share this.</p></div>",
            CleanOptions::default(),
        );
        let flags = strong_and_never_content(&c);
        // consent (strong, never content); the dialog; the banner inside it; share (weak).
        assert_eq!(
            flags,
            [(true, true), (true, true), (false, true), (false, false)]
        );
    }

    /// An ARIA alert is a notice, not the article (netflixtechblog.com, wcxb: Medium's
    /// `<div role="alert">To make Medium work, we log user data…</div>` under obfuscated
    /// classes): a weak hint, which a large element sheds like any other.
    #[test]
    fn aria_alerts_are_weak_boilerplate() {
        let c = clean(
            b"<div class=\"kt s\"><div role=\"alert\">To make Medium work, we log user data.</div></div>\
              <article><p>Scaling containers on modern CPUs.</p></article>",
            CleanOptions::default(),
        );
        let flags = strong_and_never_content(&c);
        assert_eq!(flags, [(false, false)]);
        let hinted = &c.buf[c.boiler_ranges[0].start as usize..c.boiler_ranges[0].end as usize];
        assert!(
            hinted.starts_with(b"<div"),
            "{}",
            String::from_utf8_lossy(hinted)
        );
    }

    /// coryd.dev/posts/2021/a-brief-intro-to-git (wcxb): highlighted code marks its comments
    /// `<span class="hljs-comment">`, which made the whole code block a comment section
    /// (hard boilerplate) and cut the article there. Inside `<pre>` class words are code's.
    #[test]
    fn class_words_inside_preformatted_text_are_not_hints() {
        let c = clean(
            b"<p>Start with these:</p><pre><code><span class=\"hljs-comment\"># clone\
              </span>\ngit clone url</code></pre><div class=\"comments\"><p>Nice.</p></div>",
            CleanOptions::default(),
        );
        // Only the comment section after the code is hinted.
        assert_eq!(c.boiler_ranges.len(), 1);
        let hinted = &c.buf[c.boiler_ranges[0].start as usize..c.boiler_ranges[0].end as usize];
        assert!(
            hinted.starts_with(b"<div"),
            "{}",
            String::from_utf8_lossy(hinted)
        );
    }

    #[test]
    fn noscript_dropped_or_kept() {
        assert_eq!(cleaned("<noscript><p>x</p></noscript>y"), "y");
        let kept = clean(
            b"<noscript><p>x</p></noscript>y",
            CleanOptions {
                keep_noscript: true,
                ..CleanOptions::default()
            },
        );
        assert_eq!(kept.buf, b"<noscript><p>x</p></noscript>y");
    }

    #[test]
    fn unterminated_constructs_end_the_input() {
        assert_eq!(cleaned("a<!-- b"), "a");
        // `--!>` ends a comment too; `--->` is `-` then `-->`.
        assert_eq!(
            cleaned("a<!-- x --!>b<!-- y --->c<!-- z -- ->d-->e"),
            "abce"
        );
        assert_eq!(cleaned("a<script>b"), "a");
        assert_eq!(cleaned("a<p title=\"b>c"), "a");
        assert_eq!(cleaned("a<"), "a&lt;");
    }

    #[test]
    fn nesting_depth_counts_open_elements_after_implied_end_tags() {
        let deep = "<div>".repeat(1000) + "x";
        assert_eq!(
            clean(deep.as_bytes(), CleanOptions::default()).max_depth,
            1000
        );
        // A `p` closes the open `p`, an `li` the open `li`: a list is not a staircase.
        let flat = "<ul>".to_string() + &"<li><p>a<p>b".repeat(500) + "</ul>";
        assert_eq!(clean(flat.as_bytes(), CleanOptions::default()).max_depth, 3);
    }

    #[test]
    fn runs_blocks_and_counts() {
        let c = clean(
            b"<div><p>Hello, <a href=x>world</a>.</p> <p>Two</p></div>",
            CleanOptions::default(),
        );
        // Elements: div p a p = 4; text runs: "Hello, " "world" "." " " "Two" = 5.
        assert_eq!(c.nodes_total, 9);
        // div > p > a.
        assert_eq!(c.max_depth, 3);
        assert_eq!(c.runs.len(), 4);
        assert_eq!(c.blocks.len(), 2);
        assert_eq!(c.blocks[0].link_weight, 5);
        assert_eq!(c.blocks[0].weight, 10);
        assert_eq!(c.runs[1].flags & IN_LINK, IN_LINK);
    }
}
