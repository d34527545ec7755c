//! Both tokenizers over raw bytes (total: tokens tile the buffer from any start point, tags
//! are `<`…`>`) and over the cleaned buffer of the same bytes (forward and reverse give the
//! same tokens in opposite orders, also from any token boundary). Input: 2 bytes of start
//! point, then the page.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::html::clean::{CleanOptions, clean};
use outward_core::html::tokenize::parse_tag;
use outward_fuzz::{forward_tiles, reverse_tiles};

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let sel = u16::from_le_bytes([data[0], data[1]]) as usize;
    let raw = &data[2..];
    // Raw bytes: total from any position, each direction on its own.
    let at = sel % (raw.len() + 1);
    for t in forward_tiles(raw, 0)
        .into_iter()
        .chain(forward_tiles(raw, at))
    {
        parse_tag(raw, t);
    }
    reverse_tiles(raw, raw.len());
    reverse_tiles(raw, at);

    // Cleaned buffer: both directions agree from every token boundary we try.
    let c = clean(raw, CleanOptions::default());
    let buf = &c.buf;
    let fwd = forward_tiles(buf, 0);
    let mut rev = reverse_tiles(buf, buf.len());
    rev.reverse();
    assert_eq!(fwd, rev, "cleaned buffer: forward and reverse differ");
    if !fwd.is_empty() {
        let k = sel % fwd.len();
        let b = fwd[k].start as usize;
        assert_eq!(forward_tiles(buf, b), fwd[k..], "forward from a boundary");
        let mut back = reverse_tiles(buf, b);
        back.reverse();
        assert_eq!(back, fwd[..k], "reverse from a boundary");
        for t in &fwd {
            let info = parse_tag(buf, *t);
            assert!(info.name_start as usize + info.name_len as usize <= buf.len());
        }
    }
});
