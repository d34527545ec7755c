//! The partial parse and range climbing (html/partial.rs, html/climb.rs).
//!
//! On the cleaned buffer of the input: the full parse builds exactly `nodes_total` nodes; a
//! partial parse from a text run or any token boundary has, at every complete level, the
//! same subtree as the full parse (tags, names, ranges, children) and never builds more than
//! `nodes_total` nodes; `RangeClimber` from any element gives exactly the ranges of that
//! element's ancestors in the full tree. On the raw bytes and from arbitrary (non-boundary)
//! offsets: total, levels end, nodes built never exceed the bytes. Input: 2 bytes of start
//! selector, then the page.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::html::clean::{CleanOptions, clean};
use outward_core::html::climb::RangeClimber;
use outward_core::html::partial::PartialParse;
use outward_core::html::tree::{Kind, NONE, Tree};
use std::collections::HashMap;

fn same_subtree(ta: &Tree, a: u32, tb: &Tree, b: u32, buf: &[u8]) {
    let mut stack = vec![(a, b)];
    while let Some((x, y)) = stack.pop() {
        let (nx, ny) = (ta.node(x), tb.node(y));
        let name = |n: &outward_core::html::tree::Node| {
            let s = (n.name_start as usize).min(buf.len());
            buf[s..(s + n.name_len as usize).min(buf.len())].to_vec()
        };
        assert_eq!(nx.kind, ny.kind, "kind at {}", nx.start);
        assert_eq!(nx.tag, ny.tag, "tag at {}", nx.start);
        assert_eq!(name(nx), name(ny), "name at {}", nx.start);
        assert_eq!(
            (nx.start, nx.end),
            (ny.start, ny.end),
            "range at {}",
            nx.start
        );
        let cx: Vec<u32> = ta.children(x).collect();
        let cy: Vec<u32> = tb.children(y).collect();
        assert_eq!(cx.len(), cy.len(), "child count at {}", nx.start);
        stack.extend(cx.into_iter().zip(cy));
    }
}

/// Every level of a parse from `at` until `None`; returns the levels' node ids.
fn all_levels(p: &mut PartialParse, limit: usize) -> Vec<u32> {
    let mut out = Vec::new();
    let mut level = 0;
    while let Some(id) = p.complete_level(level) {
        out.push(id);
        if p.tree.node(id).kind == Kind::Root {
            break;
        }
        level += 1;
        assert!(level <= limit, "more levels than nodes");
    }
    out
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let sel = u16::from_le_bytes([data[0], data[1]]) as usize;
    let raw = &data[2..];

    // Raw (uncleaned) bytes: total from anywhere.
    for at in [0, sel % (raw.len() + 1), raw.len()] {
        let mut p = PartialParse::new(raw, at);
        p.read_start_node();
        all_levels(&mut p, raw.len() + 2);
        assert!(
            p.nodes_built() as usize <= raw.len(),
            "raw: more nodes than bytes"
        );
        assert!(p.bytes_touched() as usize <= raw.len());
    }
    let (full_raw, _) = PartialParse::full(raw);
    assert!(full_raw.nodes_built() as usize <= raw.len());

    // Cleaned buffer: agreement with the full parse.
    let c = clean(raw, CleanOptions::default());
    let buf = &c.buf[..];
    let (full, root) = PartialParse::full(buf);
    assert_eq!(
        full.nodes_built(),
        c.nodes_total,
        "full parse builds exactly nodes_total"
    );
    assert_eq!(full.tree.node(root).kind, Kind::Root);
    let mut by_start: HashMap<u32, u32> = HashMap::new();
    for (i, n) in full.tree.nodes.iter().enumerate() {
        if n.kind == Kind::Element {
            by_start.insert(n.start, i as u32);
        }
    }
    let tokens: Vec<_> =
        outward_core::html::tokenize::forward::ForwardTokenizer::new(buf, 0).collect();
    let mut starts: Vec<usize> = c
        .runs
        .iter()
        .step_by((c.runs.len() / 4).max(1))
        .map(|r| r.start as usize)
        .collect();
    if !tokens.is_empty() {
        starts.push(tokens[sel % tokens.len()].start as usize);
    }
    for at in starts {
        let mut p = PartialParse::new(buf, at);
        let start = p.read_start_node();
        // A start at an end tag has no start node; a text run always has one.
        let at_run = c.runs.iter().any(|r| r.start as usize == at);
        assert!(start != NONE || !at_run, "no start node at a text run");
        let mut level = 0;
        while let Some(id) = p.complete_level(level) {
            assert!(
                p.nodes_built() <= c.nodes_total,
                "partial parse built more than nodes_total"
            );
            let n = *p.tree.node(id);
            if n.kind == Kind::Root {
                same_subtree(&p.tree, id, &full.tree, root, buf);
                break;
            }
            let fid = *by_start
                .get(&n.start)
                .unwrap_or_else(|| panic!("level {level} at {} not in the full tree", n.start));
            same_subtree(&p.tree, id, &full.tree, fid, buf);
            level += 1;
        }
    }
    // An arbitrary offset of the cleaned buffer (not a boundary): total.
    let mut p = PartialParse::new(buf, sel % (buf.len() + 1));
    all_levels(&mut p, buf.len() + 2);
    assert!(p.nodes_built() as usize <= buf.len());

    // Range climbing from an element of the full tree: exactly its ancestors' ranges.
    let elements: Vec<u32> = (0..full.tree.nodes.len() as u32)
        .filter(|&i| full.tree.node(i).kind == Kind::Element)
        .collect();
    if elements.is_empty() {
        return;
    }
    let e = elements[sel % elements.len()];
    let n = full.tree.node(e);
    let mut climber = RangeClimber::new(buf, n.start as usize, n.end as usize);
    let mut prev = (n.start as usize, n.end as usize);
    let mut anc = n.parent;
    loop {
        let got = climber.parent();
        let want = (anc != NONE && full.tree.node(anc).kind == Kind::Element).then(|| {
            let a = full.tree.node(anc);
            (a.start as usize, a.end as usize)
        });
        assert_eq!(
            got, want,
            "climber range differs from the full tree's ancestor"
        );
        let Some(range) = got else { break };
        assert!(range.0 <= prev.0 && range.1 >= prev.1, "ranges only grow");
        assert!(climber.bytes_touched() as usize <= buf.len());
        prev = range;
        anc = full.tree.node(anc).parent;
    }
});
