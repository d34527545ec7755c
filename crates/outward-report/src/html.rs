//! The report page: one self-contained HTML file (inline style, inline SVG, no script, no
//! request leaving the file) drawn from [`Gathered`].
//!
//! Invariants: every text from the corpus is escaped; the page depends only on what was
//! gathered (no clock, no randomness beyond the seeded sample).

use crate::gather::{Gathered, SAMPLE_CHARS, doubling_label, signal_bucket_label, tenth_label};
use crate::svg::{bars, bars_of};
use outward_base::counts::plural;
use outward_filters::Signals;
use outward_output::timings::{InputTiming, per_second};
use std::fmt::Write;

/// Bars at most in each throughput chart: more inputs are drawn in groups of consecutive ones.
pub const THROUGHPUT_BARS: usize = 40;

/// Hosts listed in each top-hosts chart.
pub const TOP_HOSTS: usize = 20;

/// The style of every page (inline: nothing is fetched).
pub const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:980px;color:#222}\
h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}\
td.n,th.n{text-align:right}.chart rect{fill:#4a7ab5}.chart text{font-size:12px;fill:#222}\
#sample{table-layout:fixed;width:100%}#sample td{overflow-wrap:anywhere}.problem{background:#fff3f0;border:1px solid #e0a090;padding:.5em 1em}.note{color:#666}";

/// Escapes `&`, `<`, `>`, `"` and `'` for HTML text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page.
pub fn render(g: &Gathered) -> String {
    let mut p = String::new();
    let title = format!("outward report: {}", g.dir.display());
    let _ = write!(
        p,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body><h1>{}</h1>",
        escape(&title),
        escape(&title)
    );
    summary(&mut p, g);
    problems(&mut p, g);
    records(&mut p, g);
    throughput(&mut p, g);
    languages(&mut p, g);
    lengths(&mut p, g);
    nodes(&mut p, g);
    hosts(&mut p, g);
    site_memory(&mut p, g);
    quality_signals(&mut p, g);
    sample(&mut p, g);
    p.push_str("</body></html>\n");
    p
}

fn summary(p: &mut String, g: &Gathered) {
    let mut statuses: Vec<(&str, usize)> = Vec::new();
    for status in ["complete", "partial", "empty", "failed"] {
        let n = g.inputs.iter().filter(|e| e.status == status).count();
        if n > 0 {
            statuses.push((status, n));
        }
    }
    let statuses: Vec<String> = statuses.iter().map(|(s, n)| format!("{n} {s}")).collect();
    let _ = write!(
        p,
        "<p id=\"summary\" data-inputs=\"{}\" data-records=\"{}\" data-written=\"{}\" data-documents=\"{}\">{} inputs ({}): {} records read, {} documents written, {} records skipped; {} documents read from the shards.</p>",
        g.inputs.len(),
        g.totals.records,
        g.totals.written,
        g.documents,
        g.inputs.len(),
        statuses.join(", "),
        g.totals.records,
        g.totals.written,
        g.totals.skipped_total(),
        g.documents
    );
}

fn problems(p: &mut String, g: &Gathered) {
    if g.problems.is_empty() {
        return;
    }
    let _ = write!(
        p,
        "<div class=\"problem\" id=\"problems\"><h2>What could not be read</h2><ul>"
    );
    for problem in &g.problems {
        let _ = write!(
            p,
            "<li data-input=\"{}\">{}: {}</li>",
            escape(&problem.input),
            escape(&problem.input),
            escape(&problem.what)
        );
    }
    p.push_str("</ul><p class=\"note\">The pictures below count what could be read.</p></div>");
}

fn records(p: &mut String, g: &Gathered) {
    p.push_str("<h2>Records: written and skipped by reason</h2>");
    let mut items = vec![("written".to_string(), g.totals.written)];
    items.extend(
        g.totals
            .skipped
            .iter()
            .map(|(reason, n)| (reason.as_str().to_string(), *n)),
    );
    p.push_str(&bars("records", &items, &|v| format!("{v} records")));
    p.push_str("<table id=\"inputs\"><tr><th>input</th><th>status</th><th class=n>records</th><th class=n>written</th><th class=n>skipped</th><th class=n>output bytes</th><th class=n>seconds</th><th class=n>MB/s of HTML</th></tr>");
    let timings: std::collections::HashMap<&str, &InputTiming> =
        g.timings.iter().map(|t| (t.output.as_str(), t)).collect();
    for e in &g.inputs {
        let timing = timings.get(e.output.as_str());
        let (seconds, rate) = timing.map_or((String::new(), String::new()), |t| {
            (
                format!("{:.3}", t.seconds),
                format!("{:.1}", t.html_mb_per_s()),
            )
        });
        let _ = write!(
            p,
            "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{seconds}</td><td class=n>{rate}</td></tr>",
            escape(&e.input),
            escape(&e.status),
            e.counts.records,
            e.counts.written,
            e.counts.skipped_total(),
            e.output_bytes
        );
    }
    p.push_str("</table>");
}

fn throughput(p: &mut String, g: &Gathered) {
    p.push_str("<h2>Throughput over inputs</h2>");
    if g.timings.is_empty() {
        let _ = write!(
            p,
            "<p class=\"note\" id=\"throughput\" data-timed=\"0\">No input has a timing (the run that wrote these outputs logged none in timings.jsonl).</p>"
        );
        return;
    }
    let seconds: f64 = g.timings.iter().map(|t| t.seconds).sum();
    let html: u64 = g.timings.iter().map(|t| t.html_bytes).sum();
    let written: u64 = g.timings.iter().map(|t| t.written).sum();
    let group = g.timings.len().div_ceil(THROUGHPUT_BARS);
    let grouped = if group > 1 {
        format!(" Bars are groups of {group} inputs in the order they were started.")
    } else {
        " One bar per input, in the order they were started.".to_string()
    };
    let at_once = g
        .timings
        .iter()
        .map(|t| t.inputs_at_once)
        .max()
        .unwrap_or(1);
    let threads = g.timings.iter().map(|t| t.threads).max().unwrap_or(1);
    let _ = write!(
        p,
        "<p class=\"note\" id=\"throughput\" data-timed=\"{}\" data-seconds=\"{seconds:.3}\" data-html-bytes=\"{html}\">{} of {} inputs timed: {:.1} MB of HTML and {written} documents in {seconds:.1} s of input time ({:.1} MB/s, {:.0} documents/s). An input's time runs from opening it to its manifest line; the run read up to {} at once on {}, sharing them, so an input's rate is its share of the run's.{grouped}</p>",
        g.timings.len(),
        g.timings.len(),
        g.inputs.len(),
        html as f64 / 1e6,
        per_second(html as f64 / 1e6, seconds),
        per_second(written as f64, seconds),
        plural(at_once, "input"),
        plural(threads, "thread"),
    );
    let groups: Vec<(String, &[InputTiming])> = g
        .timings
        .chunks(group)
        .enumerate()
        .map(|(i, chunk)| {
            let label = match chunk {
                [one] => file_name(&one.input),
                _ => format!("inputs {}–{}", i * group + 1, i * group + chunk.len()),
            };
            (label, chunk)
        })
        .collect();
    let rate = |chunk: &[InputTiming], amount: &dyn Fn(&InputTiming) -> f64| {
        per_second(
            chunk.iter().map(amount).sum(),
            chunk.iter().map(|t| t.seconds).sum(),
        )
    };
    let mb: Vec<(String, f64)> = groups
        .iter()
        .map(|(l, c)| (l.clone(), rate(c, &|t| t.html_bytes as f64 / 1e6)))
        .collect();
    p.push_str("<p>MB of HTML per second</p>");
    p.push_str(&bars_of("throughput-html", &mb, &|v| {
        format!("{v:.1} MB/s")
    }));
    let docs: Vec<(String, f64)> = groups
        .iter()
        .map(|(l, c)| (l.clone(), rate(c, &|t| t.written as f64)))
        .collect();
    p.push_str("<p>Documents written per second</p>");
    p.push_str(&bars_of("throughput-documents", &docs, &|v| {
        format!("{v:.0} documents/s")
    }));
}

/// The last part of an input's path or URL (what a bar's label has room for).
fn file_name(input: &str) -> String {
    input
        .trim_end_matches('/')
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(input)
        .to_string()
}

fn languages(p: &mut String, g: &Gathered) {
    p.push_str("<h2>Languages</h2>");
    let mut items: Vec<(String, u64, f64)> = g
        .languages
        .iter()
        .map(|(l, (n, score))| (l.clone(), *n, score / (*n).max(1) as f64))
        .collect();
    items.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let shown: Vec<(String, u64)> = items.iter().map(|(l, n, _)| (l.clone(), *n)).collect();
    p.push_str(&bars("languages", &shown, &|v| format!("{v} documents")));
    p.push_str(
        "<table id=\"language-scores\"><tr><th>language</th><th class=n>documents</th><th class=n>mean language_score</th><th class=n>p10</th><th class=n>median</th><th class=n>p90</th></tr>",
    );
    let mut all = [0u64; 10];
    for (language, n, mean) in &items {
        let tenths = g.language_scores.get(language).copied().unwrap_or_default();
        for (a, t) in all.iter_mut().zip(tenths) {
            *a += t;
        }
        let _ = write!(
            p,
            "<tr><td>{}</td><td class=n>{n}</td><td class=n>{mean:.3}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>",
            escape(language),
            tenth_label(tenth_quantile(&tenths, 0.1)),
            tenth_label(tenth_quantile(&tenths, 0.5)),
            tenth_label(tenth_quantile(&tenths, 0.9)),
        );
    }
    p.push_str("</table><p>language_score of every document, in tenths</p>");
    let spread: Vec<(String, u64)> = all
        .iter()
        .enumerate()
        .map(|(i, n)| (tenth_label(i), *n))
        .collect();
    p.push_str(&bars("language-score", &spread, &|v| {
        format!("{v} documents")
    }));
}

/// The tenth that holds the `q` quantile of the documents counted in `tenths`.
fn tenth_quantile(tenths: &[u64; 10], q: f64) -> usize {
    let total: u64 = tenths.iter().sum();
    let want = ((total as f64 * q).ceil() as u64).max(1);
    let mut seen = 0;
    for (i, n) in tenths.iter().enumerate() {
        seen += n;
        if seen >= want {
            return i;
        }
    }
    9
}

fn lengths(p: &mut String, g: &Gathered) {
    p.push_str("<h2>Text length (characters, buckets doubling)</h2>");
    let items: Vec<(String, u64)> = g
        .text_chars
        .iter()
        .map(|(&k, n)| (doubling_label(k), *n))
        .collect();
    p.push_str(&bars("text-length", &items, &|v| format!("{v} documents")));
}

fn nodes(p: &mut String, g: &Gathered) {
    p.push_str("<h2>Nodes parsed / nodes in the page</h2>");
    if g.with_nodes == 0 {
        p.push_str("<p class=\"note\">No document reports node counts (WET output does not hold them).</p>");
        return;
    }
    let items: Vec<(String, u64)> = g
        .nodes_fraction
        .iter()
        .enumerate()
        .map(|(i, n)| (tenth_label(i), *n))
        .collect();
    p.push_str(&bars("nodes-fraction", &items, &|v| {
        format!("{v} documents")
    }));
}

fn hosts(p: &mut String, g: &Gathered) {
    let top = |key: &dyn Fn(&(u64, u64, u64)) -> u64| {
        let mut all: Vec<(String, u64)> =
            g.hosts.iter().map(|(h, v)| (h.clone(), key(v))).collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        all.truncate(TOP_HOSTS);
        all
    };
    let _ = write!(
        p,
        "<h2>Top hosts</h2><p class=\"note\">{} hosts in all; the {TOP_HOSTS} with the most documents, then with the most bytes of text (UTF-8), then with the most characters of text.</p>",
        g.hosts.len()
    );
    p.push_str(&bars("hosts-documents", &top(&|v| v.0), &|v| {
        format!("{v} documents")
    }));
    p.push_str(&bars("hosts-bytes", &top(&|v| v.2), &|v| {
        format!("{v} bytes")
    }));
    p.push_str(&bars("hosts-characters", &top(&|v| v.1), &|v| {
        format!("{v} characters")
    }));
}

fn site_memory(p: &mut String, g: &Gathered) {
    if g.template_pages == 0 && g.template_removed == 0 {
        return;
    }
    let _ = write!(
        p,
        "<h2>Site memory</h2><p id=\"site-memory\" data-pages=\"{}\" data-removed=\"{}\">Site memory took {} template blocks out of {} documents.</p>",
        g.template_pages, g.template_removed, g.template_removed, g.template_pages
    );
}

/// With `--signals`: how many documents each quality filter would drop, by rule.
fn quality_signals(p: &mut String, g: &Gathered) {
    if g.with_signals == 0 {
        return;
    }
    let _ = write!(
        p,
        "<h2>Quality filters (signals)</h2><p class=\"note\" id=\"signals\" data-documents=\"{}\" data-passing=\"{}\">{} documents carry signals; {} of them pass all four filters (Gopher quality, Gopher repetition, C4, FineWeb), each alone on the text as written. The documents each filter would drop, by its rule:</p>",
        g.with_signals, g.passing_all_filters, g.with_signals, g.passing_all_filters
    );
    let mut items: Vec<(String, u64)> = g
        .would_drop
        .iter()
        .map(|((filter, rule), n)| (format!("{filter}: {rule}"), *n))
        .collect();
    items.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    p.push_str(&bars("would-drop", &items, &|v| format!("{v} documents")));
    p.push_str("<p class=\"note\">Each number the filters decide on, over the documents: counts in buckets doubling, ratios in tenths (a mean word length by whole characters).</p>");
    for (&i, histogram) in &g.signal_histograms {
        let field = &Signals::FIELDS[i];
        let name = format!("{}.{}", field.group, field.name);
        let _ = write!(p, "<h3>{}</h3>", escape(&name));
        let items: Vec<(String, u64)> = histogram
            .iter()
            .map(|(&bucket, &n)| (signal_bucket_label(field.kind, bucket), n))
            .collect();
        p.push_str(&bars(&format!("signal-{name}"), &items, &|v| {
            format!("{v} documents")
        }));
    }
}

fn sample(p: &mut String, g: &Gathered) {
    let _ = write!(
        p,
        "<h2>{} documents picked at random</h2><p class=\"note\">A seeded sample: the same output gives the same documents. The first {SAMPLE_CHARS} characters of each.</p><table id=\"sample\"><tr><th>URL</th><th>title</th><th>language</th><th>text</th></tr>",
        g.sample.len()
    );
    for d in &g.sample {
        let _ = write!(
            p,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&d.url),
            escape(&d.title),
            escape(&d.language),
            escape(&d.text)
        );
    }
    p.push_str("</table>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(i: usize) -> InputTiming {
        InputTiming {
            input: format!("s3://bucket/crawl/part-{i:03}.warc.gz"),
            output: format!("part-{i:03}.jsonl.zst"),
            output_sha256: String::new(),
            started: i as f64,
            seconds: 1.0 + i as f64,
            input_bytes: 1,
            // Rates of 1, 2, 3, … MB/s: a group's bar (its bytes over its seconds) differs
            // from the mean of its inputs' rates.
            html_bytes: 1_000_000 * (i as u64 + 1) * (i as u64 + 1),
            records: 10,
            written: 10,
            threads: 8,
            inputs_at_once: 2,
        }
    }

    fn bars_of_chart(page: &str, name: &str) -> Vec<(String, f64)> {
        crate::svg::chart_values(page, name).expect("the chart")
    }

    #[test]
    fn tenth_quantiles() {
        let tenths = [0, 0, 0, 0, 0, 1, 0, 0, 3, 6];
        assert_eq!(tenth_quantile(&tenths, 0.1), 5);
        assert_eq!(tenth_quantile(&tenths, 0.5), 9);
        assert_eq!(tenth_quantile(&tenths, 0.3), 8);
        assert_eq!(tenth_label(9), "0.9 – 1.0");
        assert_eq!(tenth_label(0), "0.0 – 0.1");
    }

    /// Many inputs are drawn in groups of consecutive ones, each bar the group's bytes over
    /// its seconds (not a mean of rates); a few inputs get a bar each, labelled by file name.
    #[test]
    fn throughput_bars_group_many_inputs() {
        let g = Gathered {
            timings: (0..81).map(timing).collect(),
            ..Gathered::default()
        };
        let mut page = String::new();
        throughput(&mut page, &g);
        let bars = bars_of_chart(&page, "throughput-html");
        // 81 inputs in groups of 3 (the fewest that keep 40 bars or fewer).
        assert_eq!(bars.len(), 27);
        assert_eq!(bars[0].0, "inputs 1–3");
        assert_eq!(bars[26].0, "inputs 79–81");
        // (1 + 4 + 9) MB over (1 + 2 + 3) s, where the mean of the rates would be 2.
        let expected = (1.0 + 4.0 + 9.0) / (1.0 + 2.0 + 3.0);
        assert!((bars[0].1 - expected).abs() < 1e-12, "{:?}", bars[0]);
        assert!(page.contains("groups of 3 inputs"));
        assert!(page.contains("2 inputs at once on 8 threads"));

        let g = Gathered {
            timings: (0..2).map(timing).collect(),
            ..Gathered::default()
        };
        let mut page = String::new();
        throughput(&mut page, &g);
        let bars = bars_of_chart(&page, "throughput-documents");
        assert_eq!(
            bars,
            [
                ("part-000.warc.gz".to_string(), 10.0),
                ("part-001.warc.gz".to_string(), 5.0)
            ]
        );
    }
}
