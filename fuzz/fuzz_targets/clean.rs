//! The cleaner on arbitrary bytes, with and without `<noscript>` and the elements their class
//! hides kept: deterministic, and its output is what the module docs promise (see
//! `outward_fuzz::check_cleaned`): a buffer whose forward and reverse tokens agree and tile
//! it, `nodes_total` = start tags + text runs, ranges inside the buffer, size linear in the
//! input; the title is clean text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::html::clean::{CleanOptions, clean};

fuzz_target!(|data: &[u8]| {
    for (keep_noscript, keep_class_hidden) in [(false, false), (true, false), (false, true)] {
        let options = CleanOptions {
            keep_noscript,
            keep_class_hidden,
        };
        let c = clean(data, options);
        let again = clean(data, options);
        assert_eq!(c.buf, again.buf, "clean is not deterministic");
        assert_eq!(c.title, again.title);
        outward_fuzz::check_cleaned(data.len(), &c);
    }
});
