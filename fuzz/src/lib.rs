//! Shared checks of outward's fuzz targets (`fuzz_targets/*.rs`). Each target feeds hostile
//! bytes to one entry point and asserts the properties the code documents, not only "no
//! panic": determinism (the same input gives the same output twice), `nodes_parsed <=
//! nodes_total`, tokens tiling their buffer, linear bounds on the work counters the code
//! keeps (`bytes_touched`, node counts, `work`), documents that serialise to valid UTF-8 JSON.
//! No clocks: libFuzzer's `-timeout` catches stalls.

use outward_core::html::clean::Cleaned;
use outward_core::html::tokenize::forward::ForwardTokenizer;
use outward_core::html::tokenize::reverse::ReverseTokenizer;
use outward_core::html::tokenize::{Token, TokenKind};
use outward_core::methods::REGISTRY;
use outward_core::methods::reverse::{Guard, Guards};
use outward_core::{ExtractOptions, Extraction, Format, Page, PageMeta, SiteContext};
use outward_output::document::{Document, Provenance};
use outward_warc::reader::{FileStatus, ReadItem, ReaderOptions, WarcReader};
use std::io::Write;
use std::path::PathBuf;

/// Body size cap the reader targets use: small, so `TooBig` paths are reached.
pub const MAX_RECORD_BYTES: u64 = 4096;

/// A per-process scratch file `outward-fuzz-<pid>-<name>` in the temp dir.
pub fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("outward-fuzz-{}-{name}", std::process::id()))
}

/// Writes `bytes` to the scratch file `name` (its extension picks the reader's decompressor)
/// and reads it twice with [`WarcReader`]: both reads must agree item for item; every page
/// respects the size cap and the HTTP status rule. Returns the items as text. The file is
/// removed before the checks (a run of the smoke tests leaves nothing in the temp dir).
pub fn read_archive(name: &str, bytes: &[u8]) -> String {
    let path = scratch(name);
    std::fs::write(&path, bytes).expect("write scratch file");
    let first = read_once(&path);
    let second = read_once(&path);
    let _ = std::fs::remove_file(&path);
    assert_eq!(first, second, "reading the same file twice differs");
    first
}

fn read_once(path: &std::path::Path) -> String {
    let options = ReaderOptions {
        max_record_bytes: MAX_RECORD_BYTES,
    };
    let Ok(mut reader) = WarcReader::open(path, options) else {
        return "open failed".into();
    };
    let mut out = String::new();
    for item in &mut reader {
        if let ReadItem::Page(page) = &item {
            assert!(
                page.body.len() as u64 <= MAX_RECORD_BYTES,
                "page body of {} bytes over max_record_bytes",
                page.body.len()
            );
            assert!(
                matches!(page.http_status, None | Some(200)),
                "page with status {:?}",
                page.http_status
            );
        }
        out.push_str(&format!("{item:?}\n"));
    }
    if let FileStatus::Partial { offset, .. } = reader.status() {
        let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        assert!(
            offset <= len,
            "partial offset {offset} past the file's {len} bytes"
        );
    }
    out.push_str(&format!("{:?}", reader.status()));
    out
}

/// Gzip `data` as one member per WARC record, the way `.warc.gz` files are written: split
/// before each `WARC/` line that can start a record, i.e. one after an empty line. A `WARC/`
/// line inside a header block is a header line in the plain file; a member boundary there
/// would make a different archive, not the same one compressed.
pub fn gzip_members(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for part in split_records_after_blank_line(data, b"WARC/") {
        out.extend_from_slice(&gzip(part));
    }
    out
}

/// `data` split before every occurrence of `marker` at the start of a line.
pub fn split_records<'a>(data: &'a [u8], marker: &[u8]) -> Vec<&'a [u8]> {
    split_before(data, marker, |head| head.ends_with(b"\n"))
}

/// `data` split before every occurrence of `marker` that starts a line following an empty
/// line (`\n\n` or `\n\r\n`).
pub fn split_records_after_blank_line<'a>(data: &'a [u8], marker: &[u8]) -> Vec<&'a [u8]> {
    split_before(data, marker, |head| {
        head.ends_with(b"\n\n") || head.ends_with(b"\n\r\n")
    })
}

/// `data` split before every occurrence of `marker` (not at offset 0) whose preceding bytes
/// satisfy `boundary`.
fn split_before<'a>(
    data: &'a [u8],
    marker: &[u8],
    boundary: impl Fn(&[u8]) -> bool,
) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..data.len() {
        if data[i..].starts_with(marker) && boundary(&data[..i]) {
            parts.push(&data[start..i]);
            start = i;
        }
    }
    parts.push(&data[start..]);
    parts
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).expect("gzip to memory");
    e.finish().expect("gzip to memory")
}

pub fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).expect("zlib to memory");
    e.finish().expect("zlib to memory")
}

pub fn raw_deflate(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).expect("deflate to memory");
    e.finish().expect("deflate to memory")
}

pub fn zstd(data: &[u8]) -> Vec<u8> {
    zstd::bulk::compress(data, 1).expect("zstd to memory")
}

pub fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 1, 18);
        w.write_all(data).expect("brotli to memory");
    }
    out
}

/// Forward tokens of `buf` from `at`, asserting they tile `buf[at..]` exactly.
pub fn forward_tiles(buf: &[u8], at: usize) -> Vec<Token> {
    let at = at.min(buf.len());
    let tokens: Vec<Token> = ForwardTokenizer::new(buf, at).collect();
    let mut pos = at;
    for t in &tokens {
        assert_eq!(
            t.start as usize, pos,
            "forward tokens leave a gap or overlap"
        );
        assert!(t.end > t.start, "empty forward token at {pos}");
        check_kind(buf, t);
        pos = t.end as usize;
    }
    assert_eq!(pos, buf.len(), "forward tokens stop short of the end");
    tokens
}

/// Reverse tokens of `buf[..at]`, asserting they tile it exactly (last token first).
pub fn reverse_tiles(buf: &[u8], at: usize) -> Vec<Token> {
    let at = at.min(buf.len());
    let tokens: Vec<Token> = ReverseTokenizer::new(buf, at).collect();
    let mut pos = at;
    for t in &tokens {
        assert_eq!(t.end as usize, pos, "reverse tokens leave a gap or overlap");
        assert!(t.end > t.start, "empty reverse token at {pos}");
        check_kind(buf, t);
        pos = t.start as usize;
    }
    assert_eq!(pos, 0, "reverse tokens stop short of the start");
    tokens
}

/// A tag token is `<`…`>` with no other `<` or `>` inside.
fn check_kind(buf: &[u8], t: &Token) {
    let bytes = &buf[t.start as usize..t.end as usize];
    if t.kind != TokenKind::Text {
        assert!(
            bytes.len() >= 2 && bytes[0] == b'<' && bytes[bytes.len() - 1] == b'>',
            "tag token {t:?} is not <…>"
        );
        let inner = &bytes[1..bytes.len() - 1];
        assert!(
            !inner.contains(&b'<') && !inner.contains(&b'>'),
            "tag token {t:?} holds a delimiter"
        );
    }
}

/// The properties of a cleaned buffer (see `html::clean`'s module docs): `<`/`>` only as tag
/// delimiters (so both tokenizers give the same tokens), node count exact and linear.
pub fn check_cleaned(src_len: usize, c: &Cleaned) {
    let fwd = forward_tiles(&c.buf, 0);
    let mut rev = reverse_tiles(&c.buf, c.buf.len());
    rev.reverse();
    assert_eq!(
        fwd, rev,
        "forward and reverse tokens differ on a cleaned buffer"
    );
    let nodes = fwd.iter().filter(|t| t.kind != TokenKind::EndTag).count() as u64;
    assert_eq!(
        nodes, c.nodes_total,
        "nodes_total is not start tags + text runs"
    );
    // Linear size: each source byte becomes at most a few output bytes (`<` → `&lt;`,
    // an implied end tag per start tag).
    assert!(
        c.buf.len() <= 8 * src_len + 64,
        "cleaned buffer of {} bytes from {src_len}",
        c.buf.len()
    );
    for run in &c.runs {
        assert!(
            run.start < run.end && run.end as usize <= c.buf.len(),
            "run {run:?}"
        );
    }
    if let Some((s, e)) = c.h1 {
        assert!(s <= e && e as usize <= c.buf.len(), "h1 range");
    }
    for b in &c.boiler_ranges {
        assert!(
            b.start <= b.end && b.end as usize <= c.buf.len(),
            "boiler range {b:?}"
        );
    }
}

/// The text invariants of `text` (module docs): no empty line, no run of two spaces, no
/// leading or trailing newline.
pub fn check_text(text: &str, what: &str) {
    assert!(!text.contains("\n\n"), "{what}: empty line in {text:?}");
    assert!(!text.contains("  "), "{what}: two spaces in {text:?}");
    assert!(
        !text.starts_with('\n') && !text.ends_with('\n'),
        "{what}: text starts or ends with a newline"
    );
}

/// Every registry method on `html` (with `url`): deterministic, counts within bounds, text
/// invariants, both renderings deterministic. Returns the extractions.
/// The document `outward run` would write for `ex` (with the page's own metadata, read from
/// its hostile head): one line of valid UTF-8 JSON whose text and title read back as built,
/// the same bytes when built twice.
pub fn check_document_json(page: &Page, ex: &Extraction, method: &str) {
    let build = || {
        let meta = PageMeta::read(page.html(), page.url(), || None);
        Document::build(
            "<urn:uuid:fuzz>".into(),
            Provenance {
                url: page.url().map(str::to_string),
                ..Provenance::default()
            },
            ex.clone(),
            meta,
            Format::Text,
            method,
        )
    };
    let doc = build();
    let mut line = Vec::new();
    doc.write_json_line(&mut line);
    let mut again = Vec::new();
    build().write_json_line(&mut again);
    assert_eq!(line, again, "{method}: the same document, different bytes");
    assert_eq!(line.last(), Some(&b'\n'), "{method}: one line");
    assert!(
        !line[..line.len() - 1].contains(&b'\n'),
        "{method}: a newline inside the line"
    );
    let text = std::str::from_utf8(&line).expect("document JSON is UTF-8");
    let value: serde_json::Value = serde_json::from_str(text).expect("document line is JSON");
    assert_eq!(
        value["text"].as_str(),
        Some(doc.text.as_str()),
        "{method}: text"
    );
    assert_eq!(
        value["metadata"]["title"].as_str(),
        doc.metadata.title.as_deref(),
        "{method}"
    );
}

pub fn extract_all(html: &str, url: Option<&str>) -> Vec<Extraction> {
    let page = Page::new(html, url);
    let again = Page::new(html, url);
    assert_eq!(
        page.cleaned().buf,
        again.cleaned().buf,
        "cleaning is not deterministic"
    );
    let buf_max = page
        .cleaned()
        .buf
        .len()
        .max(page.visible().buf.len())
        .max(html.len()) as u64;
    let nodes_max = page.cleaned().nodes_total.max(page.visible().nodes_total);
    let mut out = Vec::new();
    for info in REGISTRY {
        let method = info.build(&ExtractOptions::default());
        let ex = method.extract(&page, SiteContext::none());
        let ex2 = method.extract(&again, SiteContext::none());
        assert_eq!(ex, ex2, "{}: same page, different extraction", info.name);
        let s = ex.stats;
        assert!(s.nodes_parsed <= s.nodes_total, "{}: {s:?}", info.name);
        // Every method reports the page's bytes, and reads no more of them than there are.
        assert!(
            s.page_bytes == html.len() as u64 && s.bytes_parsed <= s.page_bytes,
            "{}: {s:?} for a page of {} bytes",
            info.name,
            html.len()
        );
        assert!(
            s.nodes_total <= nodes_max,
            "{}: {s:?} vs {nodes_max}",
            info.name
        );
        assert!(
            s.bytes_touched <= buf_max,
            "{}: {s:?} vs {buf_max}",
            info.name
        );
        // Linear work: a few passes over the page (each climb, the parse, the scoring), plus
        // the comparisons, which have their own budget.
        assert!(
            s.work <= outward_core::WORK_PER_UNIT * (buf_max + nodes_max + 8) + s.similarity_pairs,
            "{}: work {} for {buf_max} bytes, {nodes_max} nodes",
            info.name,
            s.work
        );
        assert!(
            s.similarity_pairs <= ExtractOptions::default().max_comparisons,
            "{}: {s:?}",
            info.name
        );
        check_text(ex.text(), info.name);
        // A page budget of comparisons as small as the page (the method that compares
        // trees): never exceeded, and a climb it stops is marked degraded.
        if s.similarity_pairs > 0 {
            let budget = 1 + s.nodes_total;
            let small = ExtractOptions {
                max_comparisons: budget,
                ..ExtractOptions::default()
            };
            let bounded = info.build(&small).extract(&page, SiteContext::none()).stats;
            assert!(
                bounded.similarity_pairs <= budget,
                "{}: {bounded:?}",
                info.name
            );
            assert!(
                !bounded.degraded || bounded.similarity_pairs == budget,
                "{}: {bounded:?}",
                info.name
            );
            assert!(bounded.nodes_parsed <= bounded.nodes_total);
        }
        check_document_json(&page, &ex, info.name);
        assert_eq!(
            ex.render(Format::Text),
            ex.text(),
            "{}: text render",
            info.name
        );
        let md = ex.render(Format::Markdown);
        assert_eq!(md, ex2.render(Format::Markdown), "{}: markdown", info.name);
        if ex.blocks.is_empty() {
            assert!(md.is_empty(), "{}: markdown of no blocks", info.name);
        }
        out.push(ex);
    }
    // `reverse` with every guard off (what `--without` measures): the same bounds.
    let all_off = Guard::ALL
        .into_iter()
        .fold(Guards::ALL_ON, |guards, guard| guards.without(guard));
    let options = ExtractOptions {
        guards: all_off,
        ..ExtractOptions::default()
    };
    let reverse = outward_core::methods::build("reverse", &options).expect("reverse");
    let s = reverse.extract(&page, SiteContext::none()).stats;
    assert!(
        s.nodes_parsed <= s.nodes_total,
        "reverse, guards off: {s:?}"
    );
    assert!(
        s.work <= outward_core::WORK_PER_UNIT * (buf_max + s.nodes_total + 8),
        "reverse, guards off: work {} for {buf_max} bytes, {} nodes",
        s.work,
        s.nodes_total
    );
    out
}

/// `MemberGzipReader` decodes `file` as fastwarc's `GzipReader` does (see `gzip.rs`): the
/// same bytes, no error and the same member starts when fastwarc has no error; otherwise one
/// byte sequence is a prefix of the other (fastwarc and we drop a damaged member's last buffer,
/// of different sizes), and when we get no further than fastwarc we fail with its error (only
/// a member zlib refuses and libdeflate decodes, CRC-checked, takes us further). Member starts
/// grow and lie inside the file; decoding twice gives the same result.
pub fn check_member_decoding(file: &[u8]) {
    use outward_warc::gzip::MemberGzipReader;
    use std::io::Cursor;
    let ours = outward_testkit::decode_members(MemberGzipReader::new(Cursor::new(file.to_vec())));
    let again = outward_testkit::decode_members(MemberGzipReader::new(Cursor::new(file.to_vec())));
    assert_eq!(ours, again, "decoding the same bytes twice differs");
    assert!(
        ours.2.windows(2).all(|w| w[0] < w[1]) && ours.2.iter().all(|&s| s < file.len() as u64),
        "member starts {:?} in a file of {} bytes",
        ours.2,
        file.len()
    );
    let theirs = outward_testkit::decode_members(fastwarc::stream_io::gzip::GzipReader::new(
        Cursor::new(file.to_vec()),
    ));
    if theirs.1.is_none() {
        assert_eq!(ours, theirs, "a file fastwarc decodes without error");
        return;
    }
    assert!(
        ours.0.starts_with(&theirs.0) || theirs.0.starts_with(&ours.0),
        "the decoded bytes part ways"
    );
    if ours.0.len() <= theirs.0.len() {
        assert_eq!(ours.1, theirs.1, "not fastwarc's error");
    }
}
