//! The extraction's work stays linear on real pages: for every page of the dev data
//! (`../shared/data/dev`, skipped with a note when absent, failed where CI requires it), the
//! partial methods' work counter
//! (`ExtractStats::work`: bytes scanned by each climb and by the parse, blocks scored, nodes
//! built) is at most `WORK_PER_UNIT` per byte and node, the bound the fuzz targets assert on
//! generated pages, apart from the tree comparisons, which have their own budget.

use crate::common::dev_warcs;
use outward_core::methods;
use outward_core::{ExtractOptions, Page, SiteContext, WORK_PER_UNIT};

#[test]
fn work_per_page_is_within_the_linear_bound_on_every_dev_page() {
    let Some(warcs) = dev_warcs() else { return };
    let options = ExtractOptions::default();
    let extractors: Vec<_> = ["reverse", "reverse-stage", "paper"]
        .iter()
        .map(|m| methods::build(m, &options).unwrap())
        .collect();
    let mut worst = vec![0f64; extractors.len()];
    let mut pages = 0;
    for warc in &warcs {
        for html in outward_warc::load_html_pages(warc, u64::MAX).unwrap() {
            pages += 1;
            let page = Page::new(&html, None);
            let size = page.visible().buf.len() as u64 + page.visible().nodes_total + 8;
            for (i, x) in extractors.iter().enumerate() {
                let s = x.extract(&page, SiteContext::none()).stats;
                let work = s.work - s.similarity_pairs;
                assert!(
                    work <= WORK_PER_UNIT * size,
                    "{}: {}: work {work} for {size} ({s:?})",
                    x.name(),
                    warc.display()
                );
                worst[i] = worst[i].max(work as f64 / size as f64);
            }
        }
    }
    for (x, w) in extractors.iter().zip(&worst) {
        eprintln!(
            "{}: most work per byte+node over {pages} pages: {w:.2}",
            x.name()
        );
    }
    assert!(pages > 4000, "{pages} dev pages");
}
