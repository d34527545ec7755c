//! Agreement property tests: on the subtree it covers, the partial (reverse + forward) parse
//! equals the same subtree of a full forward parse of the same cleaned page — tag names,
//! child order, text ranges — over generated random pages and, when present, dev pages.
//! Also: a full forward parse builds exactly `nodes_total` nodes, and a partial parse never
//! more.

use outward_core::html::clean::{CleanOptions, clean};
use outward_core::html::partial::PartialParse;
use outward_core::html::tree::{Kind, NONE, Tree};
use std::collections::HashMap;

/// Small deterministic generator (64-bit LCG), no extra crates.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const TAGS: &[&str] = &[
    "div",
    "p",
    "span",
    "a",
    "li",
    "ul",
    "ol",
    "table",
    "tr",
    "td",
    "th",
    "tbody",
    "b",
    "i",
    "h1",
    "h2",
    "section",
    "article",
    "dd",
    "dt",
    "dl",
    "option",
    "form",
    "nav",
    "footer",
    "my-widget",
    "DIV",
    "P",
    "Span",
    "em",
    "pre",
    "blockquote",
    "header",
    "aside",
    "select",
    "button",
    "svg",
    "template",
    "head",
    "body",
    "html",
    "font",
    "center",
];
const VOIDS: &[&str] = &["br", "img", "hr", "input", "meta", "link", "wbr", "source"];
const RAW: &[&str] = &["script", "style", "textarea", "title", "noscript", "iframe"];
const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "中文",
    "新闻",
    "a < b",
    "x > y",
    "&amp;",
    "&lt;p&gt;",
    "&nbsp;",
    "R&D",
    "<",
    "3 < 4 > 2",
    "。",
    ",",
    "<3",
    "</",
    "<!",
    "< p>",
];

fn attrs(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(3) {
        match rng.below(9) {
            0 => s.push_str(" class=\"content main\""),
            1 => s.push_str(" id='footer'"),
            2 => s.push_str(" title=\"a > b < c\""),
            3 => s.push_str(" href=\"/x?a=1&b=2\""),
            4 => s.push_str(" data-x='it\"s > fine'"),
            5 => s.push_str(" hidden"),
            6 => s.push_str(" style=\"display: none\""),
            7 => s.push_str(" class=comment"),
            _ => s.push_str(" aria-hidden=\"true\""),
        }
    }
    s
}

/// A random, often broken, page.
fn random_page(seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut out = String::new();
    let mut open: Vec<&str> = Vec::new();
    let steps = 20 + rng.below(300);
    for _ in 0..steps {
        match rng.below(14) {
            0..=3 => {
                let t = rng.pick(TAGS);
                let a = attrs(&mut rng);
                out.push_str(&format!("<{t}{a}>"));
                open.push(t);
            }
            4..=5 => {
                if let Some(t) = open.pop() {
                    out.push_str(&format!("</{t}>"));
                }
            }
            6 => {
                // Stray or misnested end tag.
                let t = rng.pick(TAGS);
                out.push_str(&format!("</{t}>"));
            }
            7 => {
                let t = rng.pick(VOIDS);
                out.push_str(&format!(
                    "<{t}{}>",
                    if rng.below(2) == 0 { "/" } else { "" }
                ));
            }
            8 => {
                let t = rng.pick(RAW);
                out.push_str(&format!("<{t}>var x = '<p>no</p>'; a </{t}>"));
            }
            9 => out.push_str("<!-- comment with <b>tags</b> -->"),
            _ => {
                for _ in 0..1 + rng.below(4) {
                    out.push_str(rng.pick(WORDS));
                    out.push(' ');
                }
            }
        }
    }
    if rng.below(4) == 0 {
        out.push_str("<!-- unterminated <p>");
    }
    out
}

/// Nodes of a full tree by start offset (the root excluded).
fn index_by_start(tree: &Tree) -> HashMap<(u32, bool), u32> {
    let mut map = HashMap::new();
    for (i, n) in tree.nodes.iter().enumerate() {
        if matches!(n.kind, Kind::Element | Kind::Text) {
            map.insert((n.start, n.kind == Kind::Text), i as u32);
        }
    }
    map
}

/// Compare subtree `a` of `ta` with subtree `b` of `tb`, iteratively.
fn assert_same_subtree(ta: &Tree, a: u32, tb: &Tree, b: u32, buf: &[u8], ctx: &str) {
    let mut stack = vec![(a, b)];
    while let Some((x, y)) = stack.pop() {
        let (nx, ny) = (ta.node(x), tb.node(y));
        let name = |n: &outward_core::html::tree::Node| {
            let s = n.name_start as usize;
            buf[s..s + n.name_len as usize].to_vec()
        };
        assert_eq!(nx.kind, ny.kind, "{ctx}: kind at {}", nx.start);
        assert_eq!(nx.tag, ny.tag, "{ctx}: tag at {}", nx.start);
        assert_eq!(name(nx), name(ny), "{ctx}: name at {}", nx.start);
        assert_eq!((nx.start, nx.end), (ny.start, ny.end), "{ctx}: range");
        let cx: Vec<u32> = ta.children(x).collect();
        let cy: Vec<u32> = tb.children(y).collect();
        assert_eq!(cx.len(), cy.len(), "{ctx}: child count at {}", nx.start);
        stack.extend(cx.into_iter().zip(cy));
    }
}

/// Check every complete level of partial parses started at some text runs of `html`.
fn check_page(html: &str, starts: usize, ctx: &str) {
    let cleaned = clean(html.as_bytes(), CleanOptions::default());
    let buf = &cleaned.buf;
    let (full, full_root) = PartialParse::full(buf);
    assert_eq!(
        full.nodes_built(),
        cleaned.nodes_total,
        "{ctx}: full parse builds exactly nodes_total"
    );
    assert_eq!(full.tree.node(full_root).kind, Kind::Root);
    let index = index_by_start(&full.tree);
    let runs = &cleaned.runs;
    if runs.is_empty() {
        return;
    }
    let step = (runs.len() / starts.max(1)).max(1);
    for run in runs.iter().step_by(step).take(starts) {
        let mut pp = PartialParse::new(buf, run.start as usize);
        let start_node = pp.read_start_node();
        assert_ne!(start_node, NONE, "{ctx}: start node");
        let mut level = 0;
        while let Some(id) = pp.complete_level(level) {
            let n = *pp.tree.node(id);
            assert!(pp.nodes_built() <= cleaned.nodes_total, "{ctx}: count");
            if n.kind == Kind::Root {
                assert_same_subtree(&pp.tree, id, &full.tree, full_root, buf, ctx);
                break;
            }
            let Some(&fid) = index.get(&(n.start, false)) else {
                panic!(
                    "{ctx}: level {level} start {} not in the full tree",
                    n.start
                );
            };
            assert_same_subtree(&pp.tree, id, &full.tree, fid, buf, ctx);
            level += 1;
        }
    }
}

#[test]
fn generated_pages_agree_with_full_parse() {
    for seed in 0..400u64 {
        let html = random_page(seed * 7919 + 1);
        check_page(&html, 6, &format!("seed {seed}"));
    }
}

#[test]
fn hand_written_edge_cases_agree() {
    let pages = [
        "<p>one<p>two<div>three</div><li>a<li>b",
        "<table><tr><td>a<td>b<tr><td>c</table>after",
        "<b><i>x</b>y</i>z",
        "<div title=\"a > b\">q<span a='<'>w</span></div>",
        "<dl><dt>t<dd>d<dt>t2</dl>",
        "text only, no tags at all",
        "<html><head><title>T</title></head><body><p>x</body></html><p>late",
        "<br<p>odd name</p><my-el>custom</my-el>",
    ];
    for (i, html) in pages.iter().enumerate() {
        check_page(html, 10, &format!("edge {i}"));
    }
}

#[test]
fn dev_pages_agree_with_full_parse() {
    let Some(dragnet) = outward_testkit::shared_data("data/dev/dragnet.warc.gz") else {
        return;
    };
    let pages = outward_warc::load_html_pages(&dragnet, u64::MAX).expect("read dragnet");
    assert!(pages.len() > 1000, "dragnet has {} pages", pages.len());
    for (i, html) in pages.iter().enumerate().step_by(60).take(20) {
        check_page(html, 3, &format!("dragnet page {i}"));
    }
}
