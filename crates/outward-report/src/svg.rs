//! Charts drawn as inline SVG by our own code (no library, no network when the page opens):
//! horizontal bars, one per labelled value.
//!
//! Invariants: every bar carries its label and exact value as `data-label` / `data-value`
//! (what tests and scripts read back); text is escaped; the output depends only on the input.

use crate::html::escape;
use std::fmt::Write;

const WIDTH: f64 = 640.0;
const LABEL_WIDTH: f64 = 200.0;
const BAR_HEIGHT: f64 = 18.0;
const GAP: f64 = 4.0;

/// A horizontal bar chart named `name` (its `data-chart`): one bar per `(label, value)`, in
/// the order given, each labelled with `shown(value)`.
pub fn bars(name: &str, items: &[(String, u64)], shown: &dyn Fn(u64) -> String) -> String {
    let items: Vec<(String, f64)> = items.iter().map(|(l, v)| (l.clone(), *v as f64)).collect();
    // Counts below 2^53 are exact as f64, and print without a fraction.
    bars_of(name, &items, &|v| shown(v as u64))
}

/// [`bars`] of measures (scores, rates): bars scaled to the largest, never below zero.
pub fn bars_of(name: &str, items: &[(String, f64)], shown: &dyn Fn(f64) -> String) -> String {
    let max = items
        .iter()
        .map(|(_, v)| *v)
        .fold(0.0_f64, f64::max)
        .max(f64::MIN_POSITIVE);
    let height = items.len() as f64 * (BAR_HEIGHT + GAP) + GAP;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="chart" data-chart="{}" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" xmlns="http://www.w3.org/2000/svg" role="img">"#,
        escape(name)
    );
    for (i, (label, value)) in items.iter().enumerate() {
        let y = GAP + i as f64 * (BAR_HEIGHT + GAP);
        // Room on the right for the value's text ("12345 characters").
        let room = WIDTH - LABEL_WIDTH - 130.0;
        let w = (value.max(0.0) / max * room).max(if *value > 0.0 { 1.0 } else { 0.0 });
        let short = escape(&shorten(label, 30));
        let label = escape(label);
        let _ = write!(
            svg,
            r#"<g data-label="{label}" data-value="{value}"><text x="{:.0}" y="{:.1}" text-anchor="end">{}</text><rect x="{LABEL_WIDTH}" y="{y:.1}" width="{w:.1}" height="{BAR_HEIGHT}"></rect><text x="{:.1}" y="{:.1}">{}</text></g>"#,
            LABEL_WIDTH - 6.0,
            y + BAR_HEIGHT - 5.0,
            short,
            LABEL_WIDTH + w + 6.0,
            y + BAR_HEIGHT - 5.0,
            escape(&shown(*value)),
        );
    }
    svg.push_str("</svg>");
    svg
}

/// The bars of the chart `name` in a page, read back from their `data-label` and
/// `data-value` (what tests and scripts do): `(label, value)` in page order, labels as
/// written (escaped). `None` when the page has no such chart.
pub fn chart_values(page: &str, name: &str) -> Option<Vec<(String, f64)>> {
    let start = page.find(&format!("data-chart=\"{}\"", escape(name)))?;
    let end = start + page[start..].find("</svg>")?;
    page[start..end]
        .split("<g data-label=\"")
        .skip(1)
        .map(|part| {
            let (label, rest) = part.split_once("\" data-value=\"")?;
            let value = rest.split('"').next()?.parse().ok()?;
            Some((label.to_string(), value))
        })
        .collect()
}

/// At most `n` characters, with `…` when cut.
fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut cut: String = s.chars().take(n - 1).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bar_carries_its_label_and_value() {
        let svg = bars("langs", &[("en".into(), 10), ("<zh>".into(), 0)], &|v| {
            format!("{v} docs")
        });
        assert!(
            svg.starts_with(r#"<svg class="chart" data-chart="langs""#),
            "{svg}"
        );
        assert!(svg.contains(r#"data-label="en" data-value="10""#), "{svg}");
        assert!(
            svg.contains(r#"data-label="&lt;zh&gt;" data-value="0""#),
            "{svg}"
        );
        assert!(svg.contains("10 docs"));
        assert!(svg.ends_with("</svg>"));
    }
}
