//! The ARC reader on small files written by each test, and on every damage of one.

use super::*;
use outward_base::base32;
use sha1::Sha1;
use std::io::Write;

const FILEDESC: &str = "filedesc://t.arc 127.0.0.1 20140216050221 text/plain 65\n\
                        1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n\n";

fn http(status: &str, ctype: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// One ARC record: header line, block, newline.
fn record(url: &str, date: &str, block: &str) -> String {
    format!(
        "{url} 93.184.216.119 {date} text/html {}\n{block}\n",
        block.len()
    )
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Reads `bytes` as an ARC file (directly, whatever it starts with).
fn read(bytes: &[u8], options: ReaderOptions) -> (Vec<ReadItem>, FileStatus) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.arc");
    std::fs::write(&path, bytes).unwrap();
    let mut r = ArcReader::open(crate::source::LocalFile::shared(&path), options).unwrap();
    let items: Vec<ReadItem> = r.by_ref().collect();
    (items, r.status())
}

fn outline(items: &[ReadItem]) -> Vec<String> {
    items
        .iter()
        .map(|i| match i {
            ReadItem::Page(p) => format!("page {}", p.target_uri.as_deref().unwrap_or("")),
            ReadItem::Skipped(s) => s.reason.as_str().to_string(),
        })
        .collect()
}

fn offsets(items: &[ReadItem]) -> Vec<u64> {
    items
        .iter()
        .map(|i| match i {
            ReadItem::Page(p) => p.offset,
            ReadItem::Skipped(s) => s.offset,
        })
        .collect()
}

fn page(item: &ReadItem) -> &RawPage {
    match item {
        ReadItem::Page(p) => p,
        other => panic!("not a page: {other:?}"),
    }
}

fn skipped(item: &ReadItem) -> &Skip {
    match item {
        ReadItem::Skipped(s) => s,
        other => panic!("not a skip: {other:?}"),
    }
}

#[test]
fn header_lines_split_from_the_right() {
    let h = ArcHeader::parse(
        b"http://e.com/a b?c=Examples From The Web 1.2.3.4 20140216050221 text/html 1591\r",
    )
    .unwrap();
    assert_eq!(h.url, "http://e.com/a b?c=Examples From The Web");
    assert_eq!(
        (h.ip.as_str(), h.date.as_str(), h.content_type.as_str()),
        ("1.2.3.4", "20140216050221", "text/html")
    );
    assert_eq!(h.length(), Some(1591));
    assert!(h.plausible());
    // Latin-1 bytes in the URL are kept as their characters.
    let h = ArcHeader::parse(b"http://e.com/\xe9 1.2.3.4 20140216050221 text/html 0").unwrap();
    assert_eq!(h.url, "http://e.com/\u{e9}");
    for bad_len in ["-1", "abc", "", "+5", "99999999999999999999999"] {
        let line = format!("http://e.com/ 1.2.3.4 20140216050221 text/html {bad_len}");
        let h = ArcHeader::parse(line.as_bytes());
        assert!(h.as_ref().is_none_or(|h| h.length().is_none()), "{bad_len}");
    }
    assert_eq!(ArcHeader::parse(b"1 0 LiveWeb Capture"), None);
    assert_eq!(ArcHeader::parse(b"HTTP/1.1 200 OK"), None);
    assert_eq!(ArcHeader::parse(b""), None);
    // Five fields but not a header worth resyncing on.
    let h = ArcHeader::parse(b"URL IP-address Archive-date Content-type Archive-length");
    assert!(h.is_some_and(|h| !h.plausible()));
}

#[test]
fn dates() {
    assert_eq!(
        iso_date("20140216050221").as_deref(),
        Some("2014-02-16T05:02:21Z")
    );
    // Digits past 14 are ignored (warcio does the same).
    assert_eq!(
        iso_date("201404010000000000").as_deref(),
        Some("2014-04-01T00:00:00Z")
    );
    assert_eq!(
        iso_date("20000229235959").as_deref(),
        Some("2000-02-29T23:59:59Z")
    );
    for bad in [
        "2014021605022",
        "20140230000000",
        "20141301000000",
        "2014021624000x",
        "",
    ] {
        assert_eq!(iso_date(bad), None, "{bad}");
    }
    assert_eq!(iso_date("19000229000000"), None);
}

#[test]
fn space_in_url_page_with_deterministic_id() {
    let url = "http://example.com/index.cfm?Title=Examples From The Live Web&x=1";
    let block = http("200 OK", "text/html", "<p>hello</p>");
    let rec = record(url, "20140216050221", &block);
    let file = format!("{FILEDESC}{rec}");
    let (items, status) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(status, FileStatus::Complete);
    assert_eq!(
        outline(&items),
        ["other_type".to_string(), format!("page {url}")]
    );
    let p = page(&items[1]);
    assert_eq!(p.body, b"<p>hello</p>");
    assert_eq!(p.date.as_deref(), Some("2014-02-16T05:02:21Z"));
    assert_eq!(p.offset, FILEDESC.len() as u64);
    assert_eq!(p.content_type.as_deref(), Some("text/html"));
    assert_eq!(p.http_headers.len(), 2);
    assert_eq!(p.payload_digest, None);
    // The id is the SHA-1 of header line + "\n" + block, whatever precedes the record.
    let line = rec.lines().next().unwrap();
    let want = format!(
        "<urn:sha1:{}>",
        base32::encode(&Sha1::digest(format!("{line}\n{block}").as_bytes()))
    );
    assert_eq!(p.record_id, want);
    assert_eq!(want.len(), "<urn:sha1:>".len() + 32);
    let other = format!(
        "{FILEDESC}{}{rec}",
        record("http://a/", "20140216050221", "x")
    );
    let (items2, _) = read(other.as_bytes(), ReaderOptions::default());
    assert_eq!(page(&items2[2]).record_id, want);
    // CRLF after the header line gives the same id.
    let crlf = file.replacen(&format!("{line}\n"), &format!("{line}\r\n"), 1);
    let (items3, _) = read(crlf.as_bytes(), ReaderOptions::default());
    assert_eq!(page(&items3[1]).record_id, want);
}

#[test]
fn record_kinds_and_skip_reasons() {
    let mut file = FILEDESC.to_string();
    file += &record(
        "http://a/",
        "20140216050221",
        &http("404 Not Found", "text/html", "x"),
    );
    file += &record(
        "https://b/",
        "20140216050221",
        &http("200 OK", "image/png", "x"),
    );
    file += &record("http://c/", "20140216050221", "not http at all");
    file += &record("http://d/", "20140216050221", "");
    file += &record("http://e/", "20140216050221", "HTTP/1.1 200 OK\r\n\r\n");
    file += "dns:example.com 1.2.3.4 20140216050221 text/dns 16\n20140216 1.2.3.4\n";
    file += &record("ftp://f/x.html", "20140216050221", "<p>ftp page</p>");
    file += &record(
        "http://g/",
        "20140216050221",
        &http("200 OK", "text/html", "<p>g</p>"),
    );
    let (items, status) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(status, FileStatus::Complete);
    assert_eq!(
        outline(&items),
        [
            "other_type",
            "status",
            "not_html",
            "not_html",
            "empty",
            "empty",
            "not_html",
            "page ftp://f/x.html",
            "page http://g/",
        ]
    );
    // Non-HTTP schemes are typed by the ARC header: text/dns is not HTML, ftp's text/html is.
    let p = page(&items[7]);
    assert!(p.http_headers.is_empty());
    assert_eq!(p.body, b"<p>ftp page</p>");
    assert_eq!(p.content_type.as_deref(), Some("text/html"));
    // Skips carry the deterministic id too; offsets are where each header line starts.
    assert!(
        skipped(&items[1])
            .record_id
            .as_deref()
            .unwrap()
            .starts_with("<urn:sha1:")
    );
    let offs = offsets(&items);
    assert!(offs.windows(2).all(|w| w[0] < w[1]), "{offs:?}");
    assert_eq!(&file.as_bytes()[offs[8] as usize..][..9], b"http://g/");
    // Too big: skipped without being copied.
    let opts = ReaderOptions {
        max_record_bytes: 3,
    };
    let (items, _) = read(file.as_bytes(), opts);
    assert_eq!(outline(&items)[8], "too_big");
}

#[test]
fn truncated_block_is_bad_and_partial() {
    let good = record(
        "http://a/",
        "20140216050221",
        &http("200 OK", "text/html", "<p>a</p>"),
    );
    let body = "<p>this body is cut</p>".repeat(20);
    let cut = record(
        "http://b/",
        "20140216050221",
        &http("200 OK", "text/html", &body),
    );
    let at = cut.len() - 100;
    let file = format!("{FILEDESC}{good}{}", &cut[..at]);
    let (items, status) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(
        outline(&items),
        ["other_type", "page http://a/", "bad_record"]
    );
    let off = (FILEDESC.len() + good.len()) as u64;
    assert_eq!(skipped(&items[2]).offset, off);
    match status {
        FileStatus::Partial { offset, error } => {
            assert_eq!(offset, off);
            assert!(error.contains("truncated record"), "{error}");
        }
        other => panic!("{other:?}"),
    }
    // A header line cut by the end of the file.
    let file = format!("{FILEDESC}{good}http://b/ 1.2.3.4 2014");
    let (items, status) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(
        outline(&items),
        ["other_type", "page http://a/", "bad_record"]
    );
    assert!(matches!(status, FileStatus::Partial { offset, .. } if offset == off));
}

#[test]
fn length_past_eof_with_a_complete_http_body_is_a_page() {
    // warcio's example-space-in-url.arc: CRs stripped from the HTTP head after the ARC
    // length was written, so the length runs past the end of the file.
    let block = http("200 OK", "text/html", "<p>all here</p>\n");
    let head = format!(
        "http://a/ 1.2.3.4 20140216050221 text/html {}\n",
        block.len() + 14
    );
    let file = format!("{FILEDESC}{head}{block}\n");
    let (items, status) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(status, FileStatus::Complete);
    assert_eq!(page(&items[1]).body, b"<p>all here</p>\n");
    // Without a Content-Length nothing shows the body is whole: cut.
    let block = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>all here?</p>";
    let head = format!(
        "http://a/ 1.2.3.4 20140216050221 text/html {}\n",
        block.len() + 14
    );
    let file = format!("{FILEDESC}{head}{block}\n");
    let (items, status) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(outline(&items), ["other_type", "bad_record"]);
    assert!(matches!(status, FileStatus::Partial { .. }));
}

#[test]
fn garbage_and_bad_lengths_are_counted_and_skipped() {
    let a = record(
        "http://a/",
        "20140216050221",
        &http("200 OK", "text/html", "<p>a</p>"),
    );
    let b = record(
        "http://b/",
        "20140216050221",
        &http("200 OK", "text/html", "<p>b</p>"),
    );
    // A junk line where a header should be: one bad record, the next record kept.
    let file = format!("{FILEDESC}{a}this is junk\nmore junk, and more\n\x00\x01\n{b}");
    let (items, status) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(status, FileStatus::Complete);
    assert_eq!(
        outline(&items),
        [
            "other_type",
            "page http://a/",
            "bad_record",
            "page http://b/"
        ]
    );
    assert_eq!(skipped(&items[2]).record_id, None);
    assert_eq!(skipped(&items[2]).offset, (FILEDESC.len() + a.len()) as u64);
    // A line far over the limit (no newline for 100 KiB).
    let long = "x".repeat(100 << 10);
    let file = format!("{FILEDESC}{a}{long}\n{b}");
    let (items, _) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(
        outline(&items),
        [
            "other_type",
            "page http://a/",
            "bad_record",
            "page http://b/"
        ]
    );
    // A length that is not a number, with its block after it: one bad record, then b.
    let block = http("200 OK", "text/html", "<p>lost</p>");
    let file = format!("{FILEDESC}http://x/ 1.2.3.4 20140216050221 text/html -1\n{block}\n{b}");
    let (items, status) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(
        outline(&items),
        ["other_type", "bad_record", "page http://b/"]
    );
    assert_eq!(status, FileStatus::Complete);
    // A length too short: the block does not end at a line end; b is found again.
    let block = http("200 OK", "text/html", "<p>short</p>");
    let file = format!(
        "{FILEDESC}http://s/ 1.2.3.4 20140216050221 text/html {}\n{block}\n{b}",
        block.len() - 5
    );
    let (items, _) = read(file.as_bytes(), ReaderOptions::default());
    assert_eq!(
        outline(&items),
        ["other_type", "bad_record", "page http://b/"]
    );
}

#[test]
fn gzip_per_record_offsets_and_damage() {
    let recs = [
        FILEDESC.to_string(),
        record(
            "http://a/",
            "20140216050221",
            &http("200 OK", "text/html", "<p>a</p>"),
        ),
        record(
            "http://b/",
            "20140216050221",
            &http("200 OK", "text/html", "<p>b</p>"),
        ),
        record(
            "http://c/",
            "20140216050221",
            &http("200 OK", "text/html", "<p>c</p>"),
        ),
    ];
    let members: Vec<Vec<u8>> = recs.iter().map(|r| gz(r.as_bytes())).collect();
    let starts: Vec<u64> = members
        .iter()
        .scan(0u64, |at, m| {
            let s = *at;
            *at += m.len() as u64;
            Some(s)
        })
        .collect();
    let file = members.concat();
    let (items, status) = read(&file, ReaderOptions::default());
    assert_eq!(status, FileStatus::Complete);
    assert_eq!(offsets(&items), starts);
    // The same records as plain ARC give the same ids.
    let (plain, _) = read(recs.concat().as_bytes(), ReaderOptions::default());
    assert_eq!(page(&items[2]).record_id, page(&plain[2]).record_id);
    // Member 2 corrupt: one bad record at its offset, file Partial there, c still read.
    let mut bad = members.clone();
    let mid = bad[2].len() / 2;
    bad[2][mid..mid + 6].copy_from_slice(b"\xff\xff\xff\xff\xff\xff");
    let (items, status) = read(&bad.concat(), ReaderOptions::default());
    assert_eq!(
        outline(&items),
        [
            "other_type",
            "page http://a/",
            "bad_record",
            "page http://c/"
        ]
    );
    assert_eq!(skipped(&items[2]).offset, starts[2]);
    assert_eq!(offsets(&items)[3], starts[3]);
    assert!(
        matches!(&status, FileStatus::Partial { offset, .. } if *offset == starts[2]),
        "{status:?}"
    );
    // Cut inside the last member: the last record is bad, Partial at its member.
    let cut = &file[..file.len() - 20];
    let (items, status) = read(cut, ReaderOptions::default());
    assert_eq!(
        outline(&items),
        [
            "other_type",
            "page http://a/",
            "page http://b/",
            "bad_record"
        ]
    );
    assert!(matches!(status, FileStatus::Partial { offset, .. } if offset == starts[3]));
}

#[test]
fn zstd_frames_are_members_too() {
    let recs = [
        FILEDESC.to_string(),
        record(
            "http://a/",
            "20140216050221",
            &http("200 OK", "text/html", "<p>a</p>"),
        ),
    ];
    let frames: Vec<Vec<u8>> = recs
        .iter()
        .map(|r| zstd::stream::encode_all(r.as_bytes(), 3).unwrap())
        .collect();
    let (items, status) = read(&frames.concat(), ReaderOptions::default());
    assert_eq!(status, FileStatus::Complete);
    assert_eq!(outline(&items), ["other_type", "page http://a/"]);
    assert_eq!(offsets(&items), [0, frames[0].len() as u64]);
}

/// Every prefix of a file and every single-byte corruption of it: no panic, no hang, and
/// never more items than lines (each item consumes at least one line).
#[test]
fn any_damage_ends_cleanly() {
    let mut file = FILEDESC.to_string();
    for u in ["http://a/", "http://b c/", "dns:x"] {
        file += &record(
            u,
            "20140216050221",
            &http("200 OK", "text/html", "<p>x</p>\n"),
        );
    }
    let plain = file.into_bytes();
    let lines = plain.iter().filter(|&&b| b == b'\n').count() + 1;
    let gzipped: Vec<u8> = plain
        .split_inclusive(|&b| b == b'\n')
        .collect::<Vec<_>>()
        .chunks(4)
        .flat_map(|c| gz(&c.concat()))
        .collect();
    for bytes in [&plain, &gzipped] {
        for cut in 0..bytes.len() {
            let (items, _) = read(&bytes[..cut], ReaderOptions::default());
            assert!(items.len() <= lines, "cut {cut}: {}", items.len());
        }
        for at in (0..bytes.len()).step_by(3) {
            for v in [0u8, b'\n', b' ', 0xff] {
                let mut b = bytes.to_vec();
                b[at] = v;
                let (items, _) = read(&b, ReaderOptions::default());
                assert!(items.len() <= lines, "byte {at}: {}", items.len());
            }
        }
    }
}
