//! The committed fixtures are exactly what the test kit builds: `testdata/sample.warc.gz`
//! from `testdata/pages/`, and `testdata/broken/`. With `OUTWARD_BLESS=1` the tests rewrite
//! the files instead of comparing.

use crate::common::testdata;
use outward_testkit::{self as testkit, SAMPLE_PAGES};
use std::io::Read;

#[test]
fn sample_warc_is_reproducible() {
    let (bytes, records) = testkit::sample_warc(&testdata().join("pages")).unwrap();
    assert!(bytes.len() <= 300 << 10, "sample is {} bytes", bytes.len());
    // warcinfo + a request and a response per page (one resource without request) + png
    // request/response + revisit request/revisit + metadata.
    let responses = SAMPLE_PAGES
        .iter()
        .filter(|p| p.kind == testkit::SampleKind::Response)
        .count();
    let resources = SAMPLE_PAGES.len() - responses;
    assert_eq!(records.len(), 1 + 2 * responses + resources + 2 + 2 + 1);
    let types: Vec<&str> = records.iter().map(|r| r.warc_type.as_str()).collect();
    for t in [
        "warcinfo", "request", "response", "resource", "revisit", "metadata",
    ] {
        assert!(types.contains(&t), "no {t} record");
    }
    // Same input, same bytes.
    let (again, _) = testkit::sample_warc(&testdata().join("pages")).unwrap();
    assert_eq!(bytes, again);
    testkit::bless_or_compare(&testdata().join("sample.warc.gz"), &bytes);
}

#[test]
fn sample_pages_are_encoded_as_declared() {
    // The GBK page has no declaration anywhere; the windows-1252 page is not valid UTF-8.
    let (bytes, records) = testkit::sample_warc(&testdata().join("pages")).unwrap();
    let mut all = Vec::new();
    flate2::read::MultiGzDecoder::new(&bytes[..])
        .read_to_end(&mut all)
        .unwrap();
    let gbk_phrase = testkit::encode_as("今年春茶的采摘比往年提前了十天", "gbk");
    assert!(all.windows(gbk_phrase.len()).any(|w| w == gbk_phrase));
    let cp1252 = testkit::encode_as("crème fraîche", "windows-1252");
    assert!(std::str::from_utf8(&cp1252).is_err());
    assert!(all.windows(cp1252.len()).any(|w| w == cp1252));
    let gbk_page = std::fs::read_to_string(testdata().join("pages/zh_gbk_nodecl.html")).unwrap();
    assert!(!gbk_page.to_ascii_lowercase().contains("charset"));
    // One response per page stored as a response, plus the PNG.
    let page_responses = SAMPLE_PAGES
        .iter()
        .filter(|p| p.kind == testkit::SampleKind::Response)
        .count();
    assert_eq!(
        records.iter().filter(|r| r.warc_type == "response").count(),
        page_responses + 1
    );
}

#[test]
fn broken_fixtures_are_reproducible() {
    let (truncated, records) = testkit::broken_truncated();
    // Cut inside the 10th page's member: the 9 pages before it are whole.
    assert!(truncated.len() as u64 > records[9].end);
    assert!((truncated.len() as u64) < records[10].end);
    let (corrupt, records2) = testkit::broken_corrupt_member();
    assert_eq!(corrupt.len() as u64, records2.last().unwrap().end);
    // The damaged member no longer decodes; the one before it still does.
    let member = |r: &testkit::RecordInfo| &corrupt[r.start as usize..r.end as usize];
    let mut sink = Vec::new();
    assert!(
        flate2::read::GzDecoder::new(member(&records2[6]))
            .read_to_end(&mut sink)
            .is_err()
    );
    sink.clear();
    assert!(
        flate2::read::GzDecoder::new(member(&records2[5]))
            .read_to_end(&mut sink)
            .is_ok()
    );
    testkit::bless_or_compare(&testdata().join("broken/truncated.warc.gz"), &truncated);
    testkit::bless_or_compare(&testdata().join("broken/corrupt_member.warc.gz"), &corrupt);
}
