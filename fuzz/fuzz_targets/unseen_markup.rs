//! Every extraction method of the registry on a page whose shape the input chooses
//! (`outward_testkit::unseen_page` over `ByteChooser`): words a browser shows among contexts
//! it never renders. Properties: no text holds an unseen word, `<` or `>`; `fulltext` is
//! exactly the shown words in order; the text invariants of `extract`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::methods::REGISTRY;
use outward_core::{ExtractOptions, Page, SiteContext};
use outward_testkit::{ByteChooser, unseen_page};

fuzz_target!(|data: &[u8]| {
    let page = unseen_page(&mut ByteChooser::new(data));
    let parsed = Page::new(&page.html, Some("http://fuzz.example/a/b.html"));
    for info in REGISTRY {
        let ex = info
            .build(&ExtractOptions::default())
            .extract(&parsed, &SiteContext::default());
        if let Some(fault) = page.fault(ex.text(), info.name == "fulltext") {
            panic!(
                "{}: {fault}\n--- text:\n{}\n--- page:\n{}",
                info.name,
                ex.text(),
                page.html
            );
        }
        outward_fuzz::check_text(ex.text(), info.name);
    }
});
