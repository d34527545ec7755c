//! The cleaner on arbitrary bytes, with and without `<noscript>` kept, with the first
//! element shown if hidden (as the second pass for a page hidden behind one element does),
//! and with that second pass never taken (`reverse` without its `hidden` guard):
//! deterministic, and its output is what the module docs promise (see
//! `outward_fuzz::check_cleaned`): a buffer whose forward and reverse tokens agree and tile
//! it, `nodes_total` = start tags + text runs, ranges inside the buffer, size linear in the
//! input; the title is clean text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::html::clean::{CleanOptions, clean};

fuzz_target!(|data: &[u8]| {
    let first_tag = data.iter().position(|&b| b == b'<').map(|at| at as u32);
    let cases = [
        (false, None, false),
        (true, None, false),
        (false, first_tag, false),
        (false, None, true),
    ];
    for (keep_noscript, reveal, hidden_stays_hidden) in cases {
        let options = CleanOptions {
            keep_noscript,
            reveal,
            hidden_stays_hidden,
        };
        let c = clean(data, options);
        let again = clean(data, options);
        assert_eq!(c.buf, again.buf, "clean is not deterministic");
        assert_eq!(c.title, again.title);
        outward_fuzz::check_cleaned(data.len(), &c);
    }
});
