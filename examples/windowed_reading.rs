//! Measures windowed reading (issue #38) on WARC files: what a first pass costs, what the
//! full reading of its window costs, and how often the window holds the default method's
//! answer.
//!
//! `cargo run --release --example windowed_reading -- MODE WARC...`, MODE one of:
//! - `agreement`: per widening of the window (0 to 3 levels above the skim's climb), the
//!   window's share of the page's bytes (median, p90) and the share of pages whose
//!   `reverse-stage` output (of the whole page) the window's visible text holds at least 95 %
//!   of (tokens as the eval scores them: `outward_eval::prf_counts`);
//! - `read` (nothing: the cost of reading the WARC, to subtract), `clean`, `skim`, `lex` (`count_start_tags`, the lexing floor), `window0`, `window1`
//!   (the skim, then the cleaner over its window widened by 0 or 1 level): one pass of that
//!   kind over every page, to be counted by `valgrind --tool=callgrind`.
//!
//! Pages are read as `outward_warc::load_html_pages` decodes them (no URLs: the method's
//! URL-kind guards do not fire).

use outward_core::html::clean::skim::{count_start_tags, skim};
use outward_core::html::clean::{CleanOptions, clean};
use outward_core::methods::reverse::window::window;
use outward_core::{ExtractOptions, Extractor, Fulltext, Page, Reverse, SiteContext};
use std::path::PathBuf;

/// Widenings `agreement` reports.
const WIDENINGS: usize = 4;

fn agreement(pages: &[String]) {
    let reverse = Reverse::with_stage(&ExtractOptions::default());
    let site = SiteContext::default();
    let mut shares = vec![Vec::new(); WIDENINGS];
    let mut held = [0usize; WIDENINGS];
    let mut judged = 0usize;
    for html in pages {
        let extraction = reverse.extract(&Page::new(html, None), &site);
        let out = extraction.blocks.text();
        if outward_eval::tokenize(out).is_empty() {
            continue;
        }
        judged += 1;
        let s = skim(html.as_bytes());
        for widen in 0..WIDENINGS {
            let Some((start, end)) = window(&s, html.len(), widen) else {
                shares[widen].push(0.0);
                continue;
            };
            shares[widen].push((end - start) as f64 / html.len() as f64);
            let text = Fulltext.extract(&Page::new(&html[start..end], None), &site);
            // The output's share of tokens the window's text holds: its precision against
            // the window as truth.
            if outward_eval::prf_counts(out, text.blocks.text()).p >= 0.95 {
                held[widen] += 1;
            }
        }
    }
    for (widen, mut s) in shares.into_iter().enumerate() {
        s.sort_by(f64::total_cmp);
        let at = |q: f64| s.get((q * s.len() as f64) as usize).copied().unwrap_or(0.0);
        println!(
            "widen {widen}: window / page bytes median {:.3}, p90 {:.3}; output held (>= 95 %) on {:.1} % of {judged} pages",
            at(0.5),
            at(0.9),
            100.0 * held[widen] as f64 / judged.max(1) as f64
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let mut pages = Vec::new();
    for path in args.map(PathBuf::from) {
        pages.extend(outward_warc::load_html_pages(&path, u64::MAX).expect("a WARC file"));
    }
    if mode == "agreement" {
        return agreement(&pages);
    }
    let mut blocks = 0usize;
    for p in pages.iter().map(String::as_bytes) {
        blocks += match mode.as_str() {
            "read" => 0,
            "clean" => clean(p, CleanOptions::default()).blocks.len(),
            "skim" => skim(p).blocks.len(),
            "lex" => count_start_tags(p),
            "window0" | "window1" => {
                let s = skim(p);
                let widen = usize::from(mode == "window1");
                window(&s, p.len(), widen).map_or(0, |(a, b)| {
                    clean(&p[a..b], CleanOptions::default()).blocks.len()
                })
            }
            _ => panic!("MODE: agreement, read, clean, skim, lex, window0 or window1"),
        };
    }
    let bytes: usize = pages.iter().map(String::len).sum();
    println!("{mode}: {} pages, {bytes} bytes ({blocks})", pages.len());
}
