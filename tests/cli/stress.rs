//! `make stress`: hostile inputs made at test time, each at two sizes (the issue's size and a
//! quarter of it), run through `outward run --threads 1` (#10's generator table).
//!
//! Every case is one WARC file: a `warcinfo`, the hostile record (or bytes), then a good
//! page. What must hold for each: the exit code is 0 or 1 (never a crash or a signal), the
//! good page after the hostile one is written (nothing lost), peak RSS stays under 1 GiB, and
//! the hostile record gets the outcome the table names (written, or a counted skip). Times and
//! peak RSS are printed as a table, not asserted (the machine is shared).
//!
//! The tests are `#[ignore]`d: they take minutes and write gigabytes of generated input;
//! `make stress` runs them (`cargo test --release --test cli stress:: -- --ignored`).

use crate::common::{docs, outward, peak_rss_kib_of};
use outward_testkit::{BodyCoding, Compression, HttpResponse, WarcWriter};
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

const GOOD_URL: &str = "https://good.example/after";
const GOOD_SENTENCE: &str = "The good page after the hostile one is still written";

fn good_page() -> String {
    format!(
        "<html><head><title>Good</title></head><body><article><h1>Still here</h1>\
         <p>{GOOD_SENTENCE}, with enough words to be the main text of its page.</p>\
         <p>A second paragraph says the same thing again in other words, plainly.</p>\
         </article></body></html>"
    )
}

/// A WARC (gzip, a member per record) of a warcinfo, `hostile` and the good page.
fn warc_with(hostile: &HttpResponse) -> Vec<u8> {
    let mut w = WarcWriter::new(Compression::Gzip, 7);
    w.warcinfo("stress.warc.gz");
    w.response("https://hostile.example/page", hostile);
    w.response(GOOD_URL, &HttpResponse::html(&good_page()));
    w.finish().0
}

fn html_case(html: &[u8]) -> Vec<u8> {
    warc_with(&HttpResponse::new(
        200,
        Some("text/html; charset=utf-8"),
        html,
        BodyCoding::Identity,
    ))
}

fn repeat(unit: &str, n: usize) -> Vec<u8> {
    unit.repeat(n).into_bytes()
}

/// `n`-deep nesting cycling through `tags`, a text at the bottom.
fn nesting(tags: &[&str], n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n * 12);
    for i in 0..n {
        out.extend_from_slice(format!("<{}>", tags[i % tags.len()]).as_bytes());
    }
    out.extend_from_slice(b"deep text");
    for i in (0..n).rev() {
        out.extend_from_slice(format!("</{}>", tags[i % tags.len()]).as_bytes());
    }
    out
}

/// An article among `n` sibling sections of about its size, each a different mix of 400 deep
/// items: `paper` compares the article's section with every one of them (its climb asks
/// whether the content root has a similar sibling), 160,000 child pairs each at the top.
fn similar_siblings(n: usize) -> Vec<u8> {
    let mut rng = outward_testkit::SplitMix64::new(3);
    let mut html = format!(
        "<main><section><p>{}</p><p>{}</p>{}</section>",
        "long text ".repeat(200),
        "second text ".repeat(150),
        "<div><p>x</p></div>".repeat(398)
    );
    for _ in 0..n {
        html.push_str("<section>");
        for _ in 0..400 {
            let tag = *rng.pick(&["p", "span", "em", "b"]);
            let depth = rng.range(1, 3);
            html.push_str("<div>");
            html.push_str(&format!("<{tag}>").repeat(depth));
            html.push('x');
            html.push_str(&format!("</{tag}>").repeat(depth));
            html.push_str("</div>");
        }
        html.push_str("</section>");
    }
    html.push_str("</main>");
    html.into_bytes()
}

fn paragraphs(bytes: usize) -> Vec<u8> {
    let p = "<p>Plain words of a long page, one paragraph after another, nothing hostile.</p>\n";
    repeat(p, bytes / p.len() + 1)
}

/// A response whose stored body is `body` with the given content coding header.
fn coded(body: Vec<u8>, coding: &str) -> Vec<u8> {
    let mut r = HttpResponse::new(200, Some("text/html"), b"", BodyCoding::Identity);
    r.headers.retain(|(k, _)| k != "Content-Length");
    r.headers.push(("Content-Encoding".into(), coding.into()));
    r.headers
        .push(("Content-Length".into(), body.len().to_string()));
    r.body = body;
    warc_with(&r)
}

fn zeros_gzip(bytes: usize) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let block = vec![0u8; 1 << 20];
    for _ in 0..bytes / block.len() {
        enc.write_all(&block).unwrap();
    }
    enc.finish().unwrap()
}

fn zeros_zstd(bytes: usize) -> Vec<u8> {
    let mut enc = zstd::stream::Encoder::new(Vec::new(), 1).unwrap();
    let block = vec![0u8; 1 << 20];
    for _ in 0..bytes / block.len() {
        enc.write_all(&block).unwrap();
    }
    enc.finish().unwrap()
}

fn zeros_brotli(bytes: usize) -> Vec<u8> {
    let mut enc = brotli::CompressorWriter::new(Vec::new(), 1 << 16, 1, 22);
    let block = vec![0u8; 1 << 20];
    for _ in 0..bytes / block.len() {
        enc.write_all(&block).unwrap();
    }
    enc.into_inner()
}

/// A plain WARC whose first record's head is `head` (raw bytes up to the blank line) with
/// `block` after it, then the good page.
fn raw_record_then_good(head: &[u8], block: &[u8]) -> Vec<u8> {
    let mut out = head.to_vec();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    let mut w = WarcWriter::new(Compression::None, 9);
    w.response(GOOD_URL, &HttpResponse::html(&good_page()));
    out.extend_from_slice(&w.finish().0);
    out
}

fn warc_head(extra: &str, content_length: &str) -> Vec<u8> {
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-00000000beef>\r\n\
         WARC-Date: 2024-05-18T05:13:42Z\r\nWARC-Target-URI: https://hostile.example/raw\r\n{extra}\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {content_length}\r\n\r\n"
    )
    .into_bytes()
}

struct Case {
    name: &'static str,
    /// The issue's size (the small run uses a quarter).
    size: usize,
    /// File name extension of the generated input.
    ext: &'static str,
    /// Options of `outward run` beside the table's own.
    args: &'static [&'static str],
    make: fn(usize) -> Vec<u8>,
    /// Whether the hostile record itself becomes a document.
    hostile_written: Option<bool>,
    /// A finding this table made that is not fixed yet: reported, not failed on.
    open: Option<&'static str>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "1M-deep div",
            size: 1_000_000,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&nesting(&["div"], n)),
            hostile_written: Some(true),
            open: None,
        },
        Case {
            name: "1M-deep li/td/a/font/p",
            size: 1_000_000,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&nesting(&["li", "td", "a", "font", "p"], n)),
            hostile_written: Some(true),
            open: None,
        },
        Case {
            name: "1M-row table",
            size: 1_000_000,
            ext: "warc.gz",
            args: &[],
            make: |n| {
                let mut html = b"<table>".to_vec();
                for i in 0..n {
                    html.extend_from_slice(
                        format!("<tr><td>row {i}</td><td>cell</td></tr>").as_bytes(),
                    );
                }
                html.extend_from_slice(b"</table>");
                html_case(&html)
            },
            hostile_written: Some(true),
            open: None,
        },
        Case {
            name: "5M tiny tags",
            size: 5_000_000,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&repeat("<b>x</b>", n)),
            hostile_written: Some(true),
            open: None,
        },
        Case {
            name: "5M tiny tags, --max-nodes 1M",
            size: 5_000_000,
            ext: "warc.gz",
            args: &["--max-nodes", "1000000"],
            make: |n| html_case(&repeat("<b>x</b>", n)),
            // Over the budget at both sizes (1.25M and 5M tags): a counted skip.
            hostile_written: Some(false),
            open: None,
        },
        Case {
            name: "paper: 300 wide similar siblings",
            size: 300,
            ext: "warc.gz",
            args: &["--method", "paper"],
            make: |n| html_case(&similar_siblings(n)),
            hostile_written: Some(true),
            open: None,
        },
        Case {
            name: "200 MB text node",
            size: 200 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&repeat("word ", n / 5)),
            // With --max-record-bytes 512 MiB (the default 16 MiB cap skips such a page).
            // Peak RSS was 6x the page (1.2 GiB): the stored body, the decoded HTML, an
            // entity-decoded copy, the line and the text were all alive at once. It is now
            // about 3x (HTML, cleaned page, text).
            hostile_written: Some(true),
            open: None,
        },
        Case {
            name: "1M attributes on one tag",
            size: 1_000_000,
            ext: "warc.gz",
            args: &[],
            make: |n| {
                let mut html = b"<div".to_vec();
                for i in 0..n {
                    html.extend_from_slice(format!(" a{i}=\"v\"").as_bytes());
                }
                html.extend_from_slice(b">text after a long tag</div>");
                html_case(&html)
            },
            hostile_written: Some(true),
            open: None,
        },
        Case {
            name: "only <",
            size: 50 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&vec![b'<'; n]),
            hostile_written: None,
            open: None,
        },
        Case {
            name: "only >",
            size: 50 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&vec![b'>'; n]),
            hostile_written: None,
            open: None,
        },
        Case {
            name: "NULs and invalid UTF-8",
            size: 50 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| {
                html_case(
                    &(0..n)
                        .map(|i| [0u8, 0xff, 0xc3, b'a'][i % 4])
                        .collect::<Vec<_>>(),
                )
            },
            hostile_written: None,
            open: None,
        },
        Case {
            name: "10M entities",
            size: 10_000_000,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&repeat("&amp;", n)),
            // Ampersands only: no letters, so no main text (an `empty` skip).
            hostile_written: Some(false),
            open: None,
        },
        Case {
            name: "unclosed <title> then 20 MB",
            size: 20 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&[b"<title>".to_vec(), paragraphs(n)].concat()),
            hostile_written: None,
            open: None,
        },
        Case {
            name: "unclosed <textarea> then 20 MB",
            size: 20 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&[b"<textarea>".to_vec(), paragraphs(n)].concat()),
            hostile_written: None,
            open: None,
        },
        Case {
            name: "unclosed <script> then 20 MB",
            size: 20 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&[b"<script>".to_vec(), paragraphs(n)].concat()),
            hostile_written: None,
            open: None,
        },
        Case {
            name: "unclosed <style> then 20 MB",
            size: 20 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&[b"<style>".to_vec(), paragraphs(n)].concat()),
            hostile_written: None,
            open: None,
        },
        Case {
            name: "unclosed <!-- then 20 MB",
            size: 20 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&[b"<!--".to_vec(), paragraphs(n)].concat()),
            hostile_written: None,
            open: None,
        },
        Case {
            name: "unclosed <plaintext> then 20 MB",
            size: 20 << 20,
            ext: "warc.gz",
            args: &[],
            make: |n| html_case(&[b"<plaintext>".to_vec(), paragraphs(n)].concat()),
            hostile_written: Some(true),
            open: None,
        },
        Case {
            name: "gzip bomb, 1 GB of zeros",
            size: 1 << 30,
            ext: "warc.gz",
            args: &[],
            make: |n| coded(zeros_gzip(n), "gzip"),
            hostile_written: Some(false),
            open: None,
        },
        Case {
            name: "zstd bomb, 1 GB of zeros",
            size: 1 << 30,
            ext: "warc.gz",
            args: &[],
            make: |n| coded(zeros_zstd(n), "zstd"),
            hostile_written: Some(false),
            open: None,
        },
        Case {
            name: "brotli bomb, 1 GB of zeros",
            size: 1 << 30,
            ext: "warc.gz",
            args: &[],
            make: |n| coded(zeros_brotli(n), "br"),
            hostile_written: Some(false),
            open: None,
        },
        Case {
            name: "chunk size that overflows",
            size: 1,
            ext: "warc.gz",
            args: &[],
            make: |_| {
                let mut r = HttpResponse::new(200, Some("text/html"), b"", BodyCoding::Identity);
                r.headers.retain(|(k, _)| k != "Content-Length");
                r.headers
                    .push(("Transfer-Encoding".into(), "chunked".into()));
                r.body = b"ffffffffffffffffffffffff\r\n<p>chunk</p>\r\n0\r\n\r\n".to_vec();
                warc_with(&r)
            },
            hostile_written: None,
            open: None,
        },
        Case {
            name: "100k HTTP headers",
            size: 100_000,
            ext: "warc.gz",
            args: &[],
            make: |n| {
                let mut r = HttpResponse::html("<p>Body after many headers, a short page.</p>");
                for i in 0..n {
                    r.headers.push((format!("X-H{i}"), "v".into()));
                }
                warc_with(&r)
            },
            hostile_written: None,
            open: None,
        },
        Case {
            name: "Content-Length 2^63",
            size: 1,
            ext: "warc",
            args: &[],
            make: |_| raw_record_then_good(&warc_head("", "9223372036854775808"), b"<p>x</p>"),
            hostile_written: Some(false),
            open: None,
        },
        Case {
            name: "Content-Length -1",
            size: 1,
            ext: "warc",
            args: &[],
            make: |_| raw_record_then_good(&warc_head("", "-1"), b"<p>x</p>"),
            hostile_written: Some(false),
            open: None,
        },
        Case {
            name: "100 MB WARC header line",
            size: 100 << 20,
            ext: "warc",
            args: &[],
            make: |n| {
                let long = format!("X-Long: {}\r\n", "a".repeat(n));
                raw_record_then_good(&warc_head(&long, "8"), b"<p>x</p>")
            },
            hostile_written: Some(false),
            open: None,
        },
        Case {
            name: "truncated .zst frame",
            size: 20 << 20,
            ext: "warc.zst",
            args: &[],
            make: |n| {
                // The good page, then an n-byte page whose frame the file ends inside.
                let mut w = WarcWriter::new(Compression::Zstd, 5);
                w.response(GOOD_URL, &HttpResponse::html(&good_page()));
                let big = String::from_utf8(paragraphs(n)).unwrap();
                w.response("https://hostile.example/cut", &HttpResponse::html(&big));
                let mut bytes = w.finish().0;
                bytes.truncate(bytes.len() - bytes.len() / 8);
                bytes
            },
            hostile_written: Some(false),
            open: None,
        },
        Case {
            name: "1M empty gzip members",
            size: 1_000_000,
            ext: "warc.gz",
            args: &[],
            make: |n| {
                let empty = outward_testkit::gzip(b"");
                let mut out = Vec::with_capacity(empty.len() * n);
                for _ in 0..n {
                    out.extend_from_slice(&empty);
                }
                let mut w = WarcWriter::new(Compression::Gzip, 3);
                w.response(GOOD_URL, &HttpResponse::html(&good_page()));
                out.extend_from_slice(&w.finish().0);
                out
            },
            hostile_written: None,
            open: None,
        },
    ]
}

/// Runs `outward run` on `input`; exit code, wall time, peak RSS (KiB, VmHWM polled).
fn run_measured(input: &Path, out: &Path, args: &[&str]) -> (Option<i32>, Duration, u64) {
    let start = Instant::now();
    let (status, peak) = peak_rss_kib_of(
        outward()
            .args([
                "run",
                "--threads",
                "1",
                "--force",
                "--max-record-bytes",
                "536870912",
                "-o",
            ])
            .arg(out)
            .args(args)
            .arg(input),
    );
    (status.code(), start.elapsed(), peak)
}

/// The documents of every shard in `out`.
fn documents(out: &Path) -> Vec<Value> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(out).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with(".jsonl.zst") {
            all.extend(docs(&path));
        }
    }
    all
}

#[test]
#[ignore = "minutes and gigabytes: run by make stress"]
fn stress_table() {
    let only = std::env::var("STRESS_ONLY").ok();
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    eprintln!(
        "{:<34} {:>12} {:>8} {:>9} | {:>12} {:>8} {:>9} | outcome",
        "case", "size", "s", "RSS MiB", "size", "s", "RSS MiB"
    );
    for case in cases() {
        if only.as_deref().is_some_and(|o| !case.name.contains(o)) {
            continue;
        }
        let mut row = format!("{:<34}", case.name);
        let mut outcome = String::new();
        for size in [case.size.div_ceil(4), case.size] {
            let bytes = (case.make)(size);
            let input = tmp.path().join(format!("stress.{}", case.ext));
            std::fs::write(&input, &bytes).unwrap();
            let file_bytes = bytes.len();
            drop(bytes);
            let out = tmp.path().join("out");
            let (code, time, kib) = run_measured(&input, &out, case.args);
            row.push_str(&format!(
                " {:>12} {:>8.2} {:>9} |",
                file_bytes,
                time.as_secs_f64(),
                kib / 1024
            ));
            let docs = documents(&out);
            let good = docs.iter().any(|d| {
                d["text"]
                    .as_str()
                    .is_some_and(|t| t.contains(GOOD_SENTENCE))
            });
            let hostile = docs.iter().any(|d| {
                d["metadata"]["url"]
                    .as_str()
                    .is_some_and(|u| u.contains("hostile"))
            });
            let degraded = docs
                .iter()
                .filter(|d| d["metadata"]["degraded"].is_string())
                .count();
            outcome = format!(
                "rc {}, {} docs ({degraded} degraded), hostile {}",
                code.map_or("signal".into(), |c| c.to_string()),
                docs.len(),
                if hostile { "written" } else { "skipped" }
            );
            let mut fail = |why: String| failures.push(format!("{} at {size}: {why}", case.name));
            if !matches!(code, Some(0) | Some(1)) {
                fail(format!("exit {code:?}"));
            }
            if !good {
                fail("the good page after it was lost".into());
            }
            if kib >= 1 << 20 {
                fail(format!("peak RSS {} MiB", kib / 1024));
            }
            if let Some(expected) = case.hostile_written
                && expected != hostile
            {
                fail(format!(
                    "hostile record written: {hostile}, expected {expected}"
                ));
            }
            let _ = std::fs::remove_dir_all(&out);
        }
        eprintln!("{row} {outcome}");
        if let Some(open) = case.open {
            eprintln!("    open finding: {open}");
            failures.retain(|f| !f.starts_with(case.name));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
