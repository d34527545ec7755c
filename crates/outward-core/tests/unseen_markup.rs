//! Property (issue #37, item 4): an extraction's text never holds markup or content a browser
//! would not show — script and style source, comments, attribute values, `<head>`, templates,
//! hidden elements, bogus comments, an attribute quote left open, the unclosed comment,
//! script or tag a truncated record ends with — for every method of the registry, on pages
//! generated from seeds (`outward_testkit::unseen_page`). And `fulltext` keeps every word a
//! browser shows, in order: what the cleaner hides, it hides without swallowing the text
//! after it. The fuzz target `unseen_markup` checks the same on pages libFuzzer chooses.

use outward_core::methods::REGISTRY;
use outward_core::{ExtractOptions, Page, SiteContext};
use outward_testkit::{SplitMix64, unseen_page};

/// Pages per run (about 1.5 s in release): every context and tail meets every nesting
/// many times. 20,000 pass too.
const CASES: u64 = 1000;

#[test]
fn text_never_holds_what_a_browser_hides() {
    for case in 0..CASES {
        let page = unseen_page(&mut SplitMix64::new(case));
        let parsed = Page::new(&page.html, Some("http://unseen.example/a/story.html"));
        for info in REGISTRY {
            let ex = info
                .build(&ExtractOptions::default())
                .extract(&parsed, &SiteContext::default());
            if let Some(fault) = page.fault(ex.text(), info.name == "fulltext") {
                panic!(
                    "case {case}, {}: {fault}\n--- text:\n{}\n--- page:\n{}",
                    info.name,
                    ex.text(),
                    page.html
                );
            }
        }
    }
}

/// The regressions the property found, each a shape of real pages.
#[test]
fn what_the_property_found() {
    let fulltext = |html: &str| {
        outward_core::methods::build("fulltext", &ExtractOptions::default())
            .unwrap()
            .extract_html(html)
            .text()
            .to_string()
    };
    // Old ad code: `<!-- document.write("<script …></script>") -->` inside a script.
    assert_eq!(
        fulltext(
            "<p>a</p><script><!--\ndocument.write(\"<script src=x></script>\"); // code\n--></script><p>b</p>"
        ),
        "a\nb"
    );
    // A comment closed with `--!>` (it swallowed the page up to the next `-->`).
    assert_eq!(
        fulltext("<p>a <!-- x --!> b</p><!-- y --><p>c</p>"),
        "a b\nc"
    );
    // A `<p>` inside a `<template>` inside a `<p>` (it closed the outer `p`, ending the
    // template's suppression).
    assert_eq!(
        fulltext("<p>a <template><p>code</p></template> b</p>"),
        "a b"
    );
}
