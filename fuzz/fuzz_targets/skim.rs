//! Windowed reading's first pass and its window (issue #38) on arbitrary bytes: the skim is
//! deterministic; its elements nest inside the input (a child inside its parent, the parent
//! seen first); its blocks are in page order with link text within text; the window at any
//! widening is inside the input, starts at a `<` (or is the whole input), and a wider window
//! holds a narrower one.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::html::clean::skim::{NO_PARENT, skim};
use outward_core::methods::reverse::window::window;

fuzz_target!(|data: &[u8]| {
    let s = skim(data);
    assert_eq!(s, skim(data), "skim is not deterministic");
    let n = data.len() as u32;
    for (i, e) in s.elements.iter().enumerate() {
        assert!(e.start < e.end && e.end <= n, "element {i} outside the input");
        assert_eq!(data[e.start as usize], b'<');
        if e.parent != NO_PARENT {
            assert!((e.parent as usize) < i, "a parent after its child");
            let p = s.elements[e.parent as usize];
            assert!(p.start < e.start && e.end <= p.end, "element {i} outside its parent");
        }
    }
    for pair in s.blocks.windows(2) {
        assert!(pair[0].start < pair[1].start, "blocks out of order");
    }
    for b in &s.blocks {
        assert!(b.text > 0 && b.link_text <= b.text && b.start < n);
    }
    let mut previous: Option<(usize, usize)> = None;
    for widen in 0..4 {
        let w = window(&s, data.len(), widen);
        assert_eq!(w.is_none(), s.blocks.is_empty());
        if let Some((a, b)) = w {
            assert!(a < b && b <= data.len());
            assert!(a == 0 && b == data.len() || data[a] == b'<');
            if let Some((pa, pb)) = previous {
                assert!(a <= pa && pb <= b, "a wider window does not hold the narrower");
            }
            previous = Some((a, b));
        }
    }
});
