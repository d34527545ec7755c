//! The page of `outward eval --report FILE`: per-set precision, recall and F1 as bars, the
//! share of pages missed (recall < 0.5) per set, the macro over the bag-scored sets, and the
//! worst pages with their URL and scores.
//!
//! Invariants: self-contained like the run's page (inline style and SVG, no script); the
//! numbers drawn are the ones given, unrounded in `data-value`.

use crate::html::{STYLE, escape};
use crate::svg::bars_of;
use std::fmt::Write;

/// One scored set.
#[derive(Debug, Clone)]
pub struct EvalSet {
    pub name: String,
    /// Snippet-scored (micro over must-include / must-exclude snippets): left out of the
    /// macro and the miss rate.
    pub snippets: bool,
    pub p: Option<f64>,
    pub r: Option<f64>,
    pub f1: Option<f64>,
    /// Pages with recall < 0.5 among those whose truth has text, those pages, and the
    /// share (as the scorer computes it).
    pub misses: usize,
    pub scorable: usize,
    pub miss_rate: Option<f64>,
}

/// One badly extracted page.
#[derive(Debug, Clone)]
pub struct WorstPage {
    pub dataset: String,
    pub record_id: String,
    pub url: Option<String>,
    pub p: f64,
    pub r: f64,
    pub f1: f64,
    /// Nodes the method parsed, of the page's.
    pub nodes_parsed: u64,
    pub nodes_total: u64,
    /// The first characters of the extracted text.
    pub text_start: String,
}

/// What the page shows.
#[derive(Debug, Clone)]
pub struct EvalPage {
    /// The method, and how it was scored (`reverse-stage`, or `… leave one dataset out`).
    pub title: String,
    pub sets: Vec<EvalSet>,
    pub worst: Vec<WorstPage>,
}

/// The macro P, R and F1 over the bag-scored sets, and the pages missed of all of them.
pub fn macro_scores(sets: &[EvalSet]) -> (f64, f64, f64, usize, usize) {
    let bag: Vec<&EvalSet> = sets.iter().filter(|s| !s.snippets).collect();
    let mean = |f: &dyn Fn(&EvalSet) -> Option<f64>| {
        let v: Vec<f64> = bag.iter().filter_map(|s| f(s)).collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    };
    (
        mean(&|s| s.p),
        mean(&|s| s.r),
        mean(&|s| s.f1),
        bag.iter().map(|s| s.misses).sum(),
        bag.iter().map(|s| s.scorable).sum(),
    )
}

/// The page.
pub fn render_eval(page: &EvalPage) -> String {
    let mut p = String::new();
    let title = format!("outward eval: {}", page.title);
    let _ = write!(
        p,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}</title><style>{STYLE}</style></head><body><h1>{0}</h1>",
        escape(&title)
    );
    let (mp, mr, mf, misses, scorable) = macro_scores(&page.sets);
    let _ = write!(
        p,
        "<p id=\"macro\" data-f1=\"{mf}\" data-misses=\"{misses}\">Macro over {} bag-scored sets: P {mp:.4} R {mr:.4} F1 {mf:.4}; {misses} of {scorable} pages missed (recall &lt; 0.5, {:.1}%).</p>",
        page.sets.iter().filter(|s| !s.snippets).count(),
        100.0 * misses as f64 / scorable.max(1) as f64
    );
    p.push_str("<table id=\"sets\"><tr><th>set</th><th class=n>P</th><th class=n>R</th><th class=n>F1</th><th class=n>missed</th><th class=n>pages</th></tr>");
    let score = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v:.4}"));
    for s in &page.sets {
        let _ = write!(
            p,
            "<tr><td>{}{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>",
            escape(&s.name),
            if s.snippets { " (snippets)" } else { "" },
            score(s.p),
            score(s.r),
            score(s.f1),
            if s.snippets {
                "–".to_string()
            } else {
                s.misses.to_string()
            },
            s.scorable
        );
    }
    p.push_str("</table>");
    for (name, heading, value) in [
        (
            "f1",
            "F1 per set",
            &(|s: &EvalSet| s.f1) as &dyn Fn(&EvalSet) -> Option<f64>,
        ),
        ("precision", "Precision per set", &|s: &EvalSet| s.p),
        ("recall", "Recall per set", &|s: &EvalSet| s.r),
    ] {
        let items: Vec<(String, f64)> = page
            .sets
            .iter()
            .filter_map(|s| value(s).map(|v| (s.name.clone(), v)))
            .collect();
        let _ = write!(p, "<h2>{heading}</h2>");
        p.push_str(&bars_of(name, &items, &|v| format!("{v:.4}")));
    }
    let misses: Vec<(String, f64)> = page
        .sets
        .iter()
        .filter(|s| !s.snippets)
        .filter_map(|s| s.miss_rate.map(|rate| (s.name.clone(), rate)))
        .collect();
    p.push_str("<h2>Pages missed (recall &lt; 0.5) per set</h2>");
    p.push_str(&bars_of("miss-rate", &misses, &|v| {
        format!("{:.1}%", 100.0 * v)
    }));
    if !page.worst.is_empty() {
        let _ = write!(
            p,
            "<h2>The {} worst pages (F1, then recall)</h2><table id=\"worst\"><tr><th>set</th><th class=n>R</th><th class=n>P</th><th class=n>F1</th><th class=n>nodes</th><th>record, URL, start of the text</th></tr>",
            page.worst.len()
        );
        for w in &page.worst {
            let _ = write!(
                p,
                "<tr><td>{}</td><td class=n>{:.3}</td><td class=n>{:.3}</td><td class=n>{:.3}</td><td class=n>{}/{}</td><td>{}<br>{}<br>{}</td></tr>",
                escape(&w.dataset),
                w.r,
                w.p,
                w.f1,
                w.nodes_parsed,
                w.nodes_total,
                escape(&w.record_id),
                escape(w.url.as_deref().unwrap_or("–")),
                escape(&w.text_start)
            );
        }
        p.push_str("</table>");
    }
    p.push_str("</body></html>\n");
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(name: &str, f1: f64, misses: usize, snippets: bool) -> EvalSet {
        EvalSet {
            name: name.into(),
            snippets,
            p: Some(f1),
            r: Some(f1),
            f1: Some(f1),
            misses,
            scorable: 10,
            miss_rate: Some(misses as f64 / 10.0),
        }
    }

    #[test]
    fn the_macro_leaves_snippet_sets_out() {
        let sets = [
            set("a", 0.8, 1, false),
            set("b", 0.6, 3, false),
            set("s", 0.1, 9, true),
        ];
        let (_, _, f1, misses, scorable) = macro_scores(&sets);
        assert!((f1 - 0.7).abs() < 1e-12);
        assert_eq!((misses, scorable), (4, 20));
        let page = render_eval(&EvalPage {
            title: "m".into(),
            sets: sets.to_vec(),
            worst: Vec::new(),
        });
        assert!(page.contains(r#"data-chart="f1""#));
        assert!(
            page.contains(r#"data-label="b" data-value="0.6""#),
            "{page}"
        );
        assert!(
            page.contains(r#"data-label="b" data-value="0.3""#),
            "miss rate"
        );
        assert!(!page.contains("<script"));
    }
}
