//! The WARC reader on small files written by each test: framing, resyncs, gzip members.

use super::classify::is_record_boundary;
use super::*;
use crate::record::MAX_HEADER_LEN;
use crate::resync::member_holds_one_record;
use crate::source::LocalFile;
use std::path::Path;

/// Reads `p` as a WARC file (directly, whatever it starts with).
fn open(p: &Path) -> WarcRecords {
    WarcRecords::open(LocalFile::shared(p), ReaderOptions::default()).unwrap()
}

fn write_tmp(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn response(id: u32, status: &str, ctype: &str, body: &str) -> Vec<u8> {
    let http = format!("HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\n\r\n{body}");
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:x:{id}>\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    )
    .into_bytes()
}

/// Found by fuzzing (`warc_gzip`, seed `content-length-ends-before-a-lf.warc`): record 2's
/// Content-Length ran over its trailer and record 3's first line, ending just before the LF
/// of record 3's `WARC-Type: response` CR LF. The lone LF after the block was taken for a
/// trailer, so record 2 came out as a sound page with record 3's head in it and record 3
/// was lost without a count. Now a single line break must be followed by `WARC/`: record 2
/// is a bad record and record 3 is found again.
#[test]
fn a_length_ending_inside_the_next_records_head_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let first = response(1, "200 OK", "text/html", "<p>one</p>");
    let second = String::from_utf8(response(2, "200 OK", "text/html", "<p>two</p>")).unwrap();
    let third = response(3, "200 OK", "text/html", "<p>three</p>");
    // From record 2's block end through record 3's `WARC/1.0\r\nWARC-Type: response\r`.
    let overrun = 4 + "WARC/1.0\r\nWARC-Type: response\r".len();
    let length = |s: &str| {
        let at = s.find("Content-Length: ").unwrap() + 16;
        s[at..]
            .split("\r\n")
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    let n = length(&second);
    let second = second.replace(
        &format!("Content-Length: {n}\r\n"),
        &format!("Content-Length: {}\r\n", n + overrun),
    );
    let bytes = [first.as_slice(), second.as_bytes(), &third].concat();
    for gzip in [false, true] {
        let (name, bytes) = if gzip {
            let members = [first.clone(), second.clone().into_bytes(), third.clone()];
            let gz: Vec<u8> = members
                .iter()
                .flat_map(|m| outward_testkit::gzip(m))
                .collect();
            ("overrun.warc.gz", gz)
        } else {
            ("overrun.warc", bytes.clone())
        };
        let p = write_tmp(dir.path(), name, &bytes);
        let mut r = open(&p);
        let kinds = item_kinds(&mut r);
        assert_eq!(kinds.len(), 3, "{name}: {kinds:?}");
        assert_eq!(kinds[0], "page <urn:x:1>", "{name}");
        assert!(kinds[1].starts_with("bad_record"), "{name}: {kinds:?}");
        assert_eq!(kinds[2], "page <urn:x:3>", "{name}");
    }
}

#[test]
fn record_boundaries() {
    for sound in [
        &b""[..],
        b"\r",
        b"\r\n",
        b"\r\n\r",
        b"\r\n\r\n",
        b"\r\n\r\njunk",
        b"\n\n",
        b"\n\njunk",
        b"\r\nWARC/1.0",
        b"\nWAR",
        b"WARC/1.1\r\n",
        b"WA",
    ] {
        assert!(
            is_record_boundary(sound),
            "{:?}",
            String::from_utf8_lossy(sound)
        );
    }
    for misframed in [
        &b"x"[..],
        b"\nContent-Type: text/html",
        b"\r\nContent-Length: 5",
        b"\r\nWARX",
        b"</p>\r\n\r\n",
        b"warc/1.0",
    ] {
        assert!(
            !is_record_boundary(misframed),
            "{:?}",
            String::from_utf8_lossy(misframed)
        );
    }
}

/// Found by `make stress`: in a plain file, a record whose Content-Length runs past the end
/// of the file (2^63) swallowed the records after it, and a header line over the reader's
/// limit ended the file; both now resync on the next `WARC/1.` line (the file stays
/// partial: it is damaged), with the records' true offsets.
#[test]
fn plain_files_resync_after_a_lying_length_or_a_huge_header() {
    let dir = tempfile::tempdir().unwrap();
    let good = response(2, "200 OK", "text/html", "<p>after</p>");
    let lying = String::from_utf8(response(1, "200 OK", "text/html", "<p>x</p>"))
        .unwrap()
        .replace("Content-Length: 52", "Content-Length: 9223372036854775808");
    assert!(lying.contains("9223372036854775808"), "{lying}");
    let long_header = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:x:1>\r\nX-Long: {}\r\n\
         Content-Length: 8\r\n\r\n<p>x</p>\r\n\r\n",
        "a".repeat(MAX_HEADER_LEN + 10)
    );
    for (name, first) in [("lying", lying), ("long", long_header)] {
        let bytes = [first.as_bytes(), &good].concat();
        let p = write_tmp(dir.path(), &format!("{name}.warc"), &bytes);
        let mut r = open(&p);
        let pages: Vec<(String, u64)> = r
            .by_ref()
            .filter_map(|i| match i {
                ReadItem::Page(p) => Some((p.record_id, p.offset)),
                ReadItem::Skipped(_) => None,
            })
            .collect();
        assert_eq!(
            pages,
            [("<urn:x:2>".to_string(), first.len() as u64)],
            "{name}"
        );
        assert!(matches!(r.status(), FileStatus::Partial { .. }), "{name}");
    }
}

/// Found by `make stress`: fastwarc's gzip reader took an empty gzip member for the end of
/// the file, so a leading one lost the whole file ("no WARC record found") and one between
/// records silently lost every record after it.
#[test]
fn empty_gzip_members_lose_no_record() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let member = |bytes: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    };
    let rec = |n| member(&response(n, "200 OK", "text/html", "<p>a page</p>"));
    let empty = member(b"");
    let layouts: [(&str, Vec<Vec<u8>>); 3] = [
        ("leading", vec![empty.clone(), rec(1), rec(2)]),
        (
            "between",
            vec![rec(1), empty.clone(), empty.clone(), rec(2)],
        ),
        ("trailing", vec![rec(1), rec(2), empty.clone()]),
    ];
    for (name, members) in layouts {
        let p = write_tmp(dir.path(), &format!("{name}.warc.gz"), &members.concat());
        let mut r = open(&p);
        let ids: Vec<String> = r
            .by_ref()
            .map(|i| match i {
                ReadItem::Page(p) => p.record_id,
                ReadItem::Skipped(s) => format!("skipped {}", s.reason.as_str()),
            })
            .collect();
        assert_eq!(ids, ["<urn:x:1>", "<urn:x:2>"], "{name}");
        assert_eq!(r.status(), FileStatus::Complete, "{name}");
    }
}

/// Found by comparing outputs when gzip members began to be decoded whole (warcio's
/// `example-bad-non-chunked.warc.gz`, all records in one member): fastwarc's gzip reader
/// gave the records of a file's first member the compressed bytes consumed so far as their
/// offset (2113, the file's size), not a place to seek to. Every record of a member now has
/// that member's start, in the first member as in later ones.
#[test]
fn records_sharing_a_gzip_member_have_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let page = |n| response(n, "200 OK", "text/html", "<p>a page</p>");
    let first = outward_testkit::gzip(&[page(1), page(2)].concat());
    let second = outward_testkit::gzip(&[page(3), page(4)].concat());
    let p = write_tmp(
        dir.path(),
        "shared.warc.gz",
        &[first.clone(), second].concat(),
    );
    let r = open(&p);
    let offsets: Vec<(String, u64)> = r
        .map(|i| match i {
            ReadItem::Page(p) => (p.record_id, p.offset),
            ReadItem::Skipped(s) => panic!("skipped {s:?}"),
        })
        .collect();
    let at = first.len() as u64;
    assert_eq!(
        offsets,
        [
            ("<urn:x:1>".to_string(), 0),
            ("<urn:x:2>".to_string(), 0),
            ("<urn:x:3>".to_string(), at),
            ("<urn:x:4>".to_string(), at),
        ]
    );
}

/// Each item read as `page <id>` or `<skip reason> <id>`.
fn item_kinds(r: &mut WarcRecords) -> Vec<String> {
    r.by_ref()
        .map(|i| match i {
            ReadItem::Page(p) => format!("page {}", p.record_id),
            ReadItem::Skipped(s) => format!("{} {:?}", s.reason.as_str(), s.record_id),
        })
        .collect()
}

/// Found by the `warc_gzip` fuzz target (CI, 2026-11-23): a skipped record (here a PDF)
/// whose Content-Length is too long read the next page's head and half its body as its own
/// block; being a skip, its framing was never checked, quirks mode then skipped to the end
/// of the file, and two good pages were lost without a trace (the gzip form, one member
/// per record, kept them). Now the skip is a bad record and a plain file goes on at the
/// next `WARC/1.` line after it.
#[test]
fn a_skipped_record_with_a_long_content_length_does_not_swallow_the_pages_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = String::from_utf8(response(1, "200 OK", "application/pdf", "%PDF-1.4"))
        .unwrap()
        .replace("Content-Length: 58", "Content-Length: 260");
    assert!(pdf.contains("Content-Length: 260"), "{pdf}");
    let body = "<p>the second page, long enough to hold the first record's overrun</p>".repeat(4);
    let records = [
        pdf.into_bytes(),
        response(2, "200 OK", "text/html", &body),
        response(3, "200 OK", "text/html", "<p>third</p>"),
    ];
    let p = write_tmp(dir.path(), "a.warc", &records.concat());
    let mut r = open(&p);
    let kinds = item_kinds(&mut r);
    assert_eq!(
        kinds,
        [
            "bad_record Some(\"<urn:x:1>\")",
            "page <urn:x:2>",
            "page <urn:x:3>"
        ]
    );
    assert_eq!(r.status(), FileStatus::Complete);
}

/// Found by the `warc_gzip` fuzz target: a Content-Length two bytes short (and no trailer)
/// is a bad record in a plain file, but was a page when each record is its own gzip
/// member (only the two stray bytes were left in the member's buffer, too few to judge).
#[test]
fn content_length_off_is_a_bad_record_in_gzip_members_too() {
    let dir = tempfile::tempdir().unwrap();
    let good = response(1, "200 OK", "text/html", "<p>a</p>");
    let text = String::from_utf8(response(2, "200 OK", "text/html", "<p>b</p>")).unwrap();
    // Two bytes short, and the record's CR/LF trailer missing: the two stray bytes end
    // the record (and, gzipped, its member).
    let off = text
        .replace("Content-Length: 52", "Content-Length: 50")
        .trim_end_matches("\r\n")
        .to_string();
    assert_ne!(off, text, "{text}");
    let records = [good.clone(), off.into_bytes(), good];
    let plain: Vec<u8> = records.concat();
    let gz: Vec<u8> = records
        .iter()
        .flat_map(|r| outward_testkit::gzip(r))
        .collect();
    for (name, bytes) in [("a.warc", plain), ("a.warc.gz", gz)] {
        let p = write_tmp(dir.path(), name, &bytes);
        let mut r = open(&p);
        let kinds = item_kinds(&mut r);
        assert_eq!(kinds[0], "page <urn:x:1>", "{name}: {kinds:?}");
        assert_eq!(
            kinds[1], "bad_record Some(\"<urn:x:2>\")",
            "{name}: {kinds:?}"
        );
        // The stray bytes run into the next record's `WARC/1.0`, which then does not start
        // a line: the record after them is still read (it was lost in both forms).
        assert_eq!(kinds.len(), 3, "{name}: {kinds:?}");
        assert_eq!(kinds[2], "page <urn:x:1>", "{name}: {kinds:?}");
    }
}

/// The member resync after a misframed record jumps only out of a member holding that
/// record alone: in a member of several records, the records after the bad one are read
/// on (fastwarc finds the next `WARC/1.0` line).
#[test]
fn a_member_of_several_records_is_not_left_after_a_misframed_one() {
    let dir = tempfile::tempdir().unwrap();
    let gz = |parts: &[Vec<u8>]| outward_testkit::gzip(&parts.concat());
    let short = String::from_utf8(response(2, "200 OK", "text/html", "<p>b is here</p>"))
        .unwrap()
        .replace("Content-Length: 60", "Content-Length: 50");
    assert!(short.contains("Content-Length: 50"), "{short}");
    let one = |id| response(id, "200 OK", "text/html", "<p>a</p>");
    let first = gz(&[one(1), short.into_bytes(), one(3)]);
    let bytes = [first.clone(), gz(&[one(4)])].concat();
    let p = write_tmp(dir.path(), "many.warc.gz", &bytes);
    assert!(!member_holds_one_record(&LocalFile::new(&p), 0));
    assert!(member_holds_one_record(
        &LocalFile::new(&p),
        first.len() as u64
    ));
    let mut r = open(&p);
    let kinds = item_kinds(&mut r);
    assert_eq!(
        kinds,
        [
            "page <urn:x:1>",
            "bad_record Some(\"<urn:x:2>\")",
            "page <urn:x:3>",
            "page <urn:x:4>"
        ],
    );
}

#[test]
fn classifies_and_copies() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = response(1, "200 OK", "text/html", "<p>a</p>");
    bytes.extend(response(2, "301 Moved", "text/html", "<p>b</p>"));
    bytes.extend(response(3, "200 OK", "application/pdf", "%PDF"));
    bytes.extend(response(4, "200 OK", "text/html", ""));
    let p = write_tmp(dir.path(), "a.warc", &bytes);
    let mut r = open(&p);
    let items: Vec<ReadItem> = r.by_ref().collect();
    assert_eq!(r.status(), FileStatus::Complete);
    assert_eq!(items.len(), 4);
    match &items[0] {
        ReadItem::Page(pg) => {
            assert_eq!(pg.body, b"<p>a</p>");
            assert_eq!(pg.record_id, "<urn:x:1>");
            assert_eq!(pg.offset, 0);
            assert_eq!(pg.content_type.as_deref(), Some("text/html"));
        }
        other => panic!("{other:?}"),
    }
    let reasons: Vec<SkipReason> = items[1..]
        .iter()
        .map(|i| match i {
            ReadItem::Skipped(s) => s.reason,
            ReadItem::Page(_) => panic!("page"),
        })
        .collect();
    assert_eq!(
        reasons,
        [SkipReason::Status, SkipReason::NotHtml, SkipReason::Empty]
    );
    // Plain-file offsets are byte offsets of the `WARC/` line.
    let second = response(1, "200 OK", "text/html", "<p>a</p>").len() as u64;
    match &items[1] {
        ReadItem::Skipped(s) => assert_eq!(s.offset, second),
        other => panic!("{other:?}"),
    }
}

#[test]
fn garbage_file_is_empty_and_complete() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_tmp(
        dir.path(),
        "junk.warc",
        b"this is not a warc file\n\x00\x01\x02",
    );
    let mut r = open(&p);
    assert_eq!(r.by_ref().count(), 0);
    assert_eq!(r.status(), FileStatus::Complete);
    // Not gzip despite the name: one bad record, reported as Partial at offset 0.
    let p = write_tmp(
        dir.path(),
        "junk.warc.gz",
        b"this is not gzip at all, sorry",
    );
    let mut r = open(&p);
    let items: Vec<ReadItem> = r.by_ref().collect();
    assert!(
        matches!(
            &items[..],
            [ReadItem::Skipped(Skip {
                reason: SkipReason::BadRecord,
                offset: 0,
                ..
            })]
        ),
        "{items:?}"
    );
    assert!(
        matches!(r.status(), FileStatus::Partial { offset: 0, .. }),
        "{:?}",
        r.status()
    );
}

/// Found trying #39's mistakes: a `.warc.gz` cut after its last record's deflate data, inside
/// the member's trailer (or anywhere that leaves the records before it whole), read as
/// complete: fastwarc's gzip reader takes the input's end for the stream's. A failed
/// download looked like a finished one. Now the file is partial at that member, its records
/// all kept.
#[test]
fn a_gzip_file_cut_inside_a_members_trailer_is_partial() {
    let dir = tempfile::tempdir().unwrap();
    let records: Vec<Vec<u8>> = (0..3)
        .map(|i| response(i, "200 OK", "text/html", &format!("<p>page {i}</p>")))
        .collect();
    let members: Vec<Vec<u8>> = records.iter().map(|r| outward_testkit::gzip(r)).collect();
    let last = (members[0].len() + members[1].len()) as u64;
    let whole = members.concat();
    for cut in [1, 4, 8] {
        let p = write_tmp(dir.path(), "cut.warc.gz", &whole[..whole.len() - cut]);
        let mut r = open(&p);
        let pages = r
            .by_ref()
            .filter(|i| matches!(i, ReadItem::Page(_)))
            .count();
        assert_eq!(pages, 3, "cut {cut}");
        match r.status() {
            FileStatus::Partial { offset, error } => {
                assert_eq!(offset, last, "cut {cut}");
                assert!(error.contains("cut short"), "{error}");
            }
            FileStatus::Complete => panic!("cut {cut}: complete"),
        }
    }
    // The whole file is complete.
    let p = write_tmp(dir.path(), "whole.warc.gz", &whole);
    let mut r = open(&p);
    assert_eq!(r.by_ref().count(), 3);
    assert_eq!(r.status(), FileStatus::Complete);
}
