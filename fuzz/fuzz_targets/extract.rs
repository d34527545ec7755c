//! Every extraction method of the registry on `Page::new` of the (lossily decoded) input,
//! without site memory and with a site memory built from the page itself (so `layout`'s
//! template path runs): deterministic, `nodes_parsed <= nodes_total`, `bytes_touched` within
//! the page, text invariants, renderings deterministic (see `outward_fuzz::extract_all`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::methods::REGISTRY;
use outward_core::site::page_prints;
use outward_core::{ExtractOptions, Page, SiteMemoryBuilder};

const URL: &str = "http://fuzz.example/a/b.html";

fuzz_target!(|data: &[u8]| {
    let html = String::from_utf8_lossy(data);
    outward_fuzz::extract_all(&html, None);

    let page = Page::new(&html, Some(URL));
    let Some(prints) = page_prints(&page) else {
        return;
    };
    let mut builder = SiteMemoryBuilder::default();
    builder.add(prints.clone());
    // A second page of the same site: the same template, another URL.
    let mut other = prints;
    other.url = "http://fuzz.example/a/c.html".into();
    other.page ^= 1;
    builder.add(other);
    let memory = builder.finish(1);
    let site = memory.context(page.host());
    for info in REGISTRY {
        let method = info.build(&ExtractOptions::default());
        let ex = method.extract(&page, &site);
        assert_eq!(
            ex,
            method.extract(&page, &site),
            "{}: not deterministic",
            info.name
        );
        assert!(
            ex.stats.nodes_parsed <= ex.stats.nodes_total,
            "{}: {:?}",
            info.name,
            ex.stats
        );
        outward_fuzz::check_text(ex.text(), info.name);
    }
});
