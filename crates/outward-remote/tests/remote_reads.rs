//! Remote inputs against a local HTTP server (never the internet): the reader gets the same
//! records from a URL as from the file, through dropped connections, 503s, servers without
//! ranges and S3 presigned requests; a changed object or a dead server is an error, not a mix.

use outward_remote::{RemoteObject, RemoteOptions, S3Settings};
use outward_testkit::http_server::{Faults, TestServer};
use outward_warc::reader::{FileStatus, ReadItem, ReaderOptions, WarcReader};
use outward_warc::source::{ByteSource, InMemory};
use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

fn quick() -> RemoteOptions {
    RemoteOptions {
        retries: 4,
        backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(20),
        connect_timeout: Duration::from_secs(5),
        read_timeout: Duration::from_secs(5),
        s3: S3Settings::default(),
    }
}

/// A server with `faults` serving `bytes` at `path`, and that object opened.
fn serve(path: &str, bytes: &[u8], faults: Faults) -> (TestServer, RemoteObject) {
    let server = TestServer::start(faults);
    server.put(path, bytes.to_vec());
    let remote = RemoteObject::open(&server.url(path), quick()).unwrap();
    (server, remote)
}

/// Every item of a reader over `source`, as text, and its final status.
fn items(source: Arc<dyn ByteSource>) -> (Vec<String>, FileStatus) {
    let mut reader = WarcReader::open_source(source, ReaderOptions::default()).unwrap();
    let items = reader
        .by_ref()
        .map(|item| match item {
            ReadItem::Page(p) => format!("page {} @{} {}", p.record_id, p.offset, p.body.len()),
            ReadItem::Skipped(s) => format!("{} @{}", s.reason.as_str(), s.offset),
        })
        .collect();
    (items, reader.status())
}

fn whole(source: &dyn ByteSource, offset: u64) -> Vec<u8> {
    let mut out = Vec::new();
    source
        .open_at(offset)
        .unwrap()
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn a_url_reads_like_the_file() {
    let bytes = outward_testkit::synthetic_warc_gz(7, 60);
    let (server, remote) = serve("/crawl/a.warc.gz", &bytes, Faults::default());
    assert_eq!(remote.info().len, bytes.len() as u64);
    assert!(remote.info().etag.is_some());
    assert!(remote.info().last_modified_ns() > 0);
    let local = items(Arc::new(InMemory::new("a.warc.gz", bytes.clone())));
    let (got, status) = items(Arc::new(remote.clone()));
    assert_eq!((got.clone(), status.clone()), local);
    assert!(got.iter().filter(|i| i.starts_with("page")).count() > 20);
    assert_eq!(status, FileStatus::Complete);
    // Streamed, not fetched whole per record: one HEAD for open, one for the sniff's range,
    // one GET for the records.
    let requests = server.requests();
    assert!(requests.len() <= 4, "{requests:?}");
    assert_eq!(whole(&remote, 1000), bytes[1000..]);
    assert!(whole(&remote, bytes.len() as u64 + 5).is_empty());
}

#[test]
fn dropped_connections_resume_by_range_and_give_the_same_bytes() {
    let bytes = outward_testkit::synthetic_warc_gz(11, 80);
    assert!(bytes.len() > 200_000, "{}", bytes.len());
    let (server, remote) = serve(
        "/a.warc.gz",
        &bytes,
        Faults {
            drops: 3,
            drop_after: 70_000,
            ..Faults::default()
        },
    );
    assert_eq!(whole(&remote, 0), bytes);
    let gets: Vec<String> = server
        .requests()
        .into_iter()
        .filter(|r| r.starts_with("GET"))
        .collect();
    assert_eq!(
        gets,
        [
            "GET /a.warc.gz range=-",
            "GET /a.warc.gz range=bytes=70000-",
            "GET /a.warc.gz range=bytes=140000-",
            "GET /a.warc.gz range=bytes=210000-",
        ]
    );
    // Through the reader: the same records as from memory.
    let (_server, remote) = serve(
        "/a.warc.gz",
        &bytes,
        Faults {
            drops: 5,
            drop_after: 50_000,
            ..Faults::default()
        },
    );
    assert_eq!(
        items(Arc::new(remote)),
        items(Arc::new(InMemory::new("a.warc.gz", bytes)))
    );
}

#[test]
fn unavailable_servers_are_retried_and_servers_without_ranges_still_work() {
    let bytes = outward_testkit::synthetic_warc_plain(3, 20);
    let (_server, remote) = serve(
        "/a.warc",
        &bytes,
        Faults {
            unavailable: 2,
            ignore_range: true,
            drops: 1,
            drop_after: 10_000,
            ..Faults::default()
        },
    );
    assert_eq!(whole(&remote, 0), bytes);
    assert_eq!(whole(&remote, 12_345), bytes[12_345..]);
}

#[test]
fn a_changed_object_or_a_dead_server_is_an_error() {
    let bytes = outward_testkit::synthetic_warc_gz(5, 40);
    let (server, remote) = serve(
        "/a.warc.gz",
        &bytes,
        Faults {
            drops: 1,
            drop_after: 30_000,
            ..Faults::default()
        },
    );
    let mut stream = remote.open_at(0).unwrap();
    let mut first = vec![0u8; 20_000];
    stream.read_exact(&mut first).unwrap();
    // Replaced while read: the resumed range must not splice the new version in.
    let mut other = bytes.clone();
    other[40_000] ^= 1;
    server.put("/a.warc.gz", other);
    let mut rest = Vec::new();
    let err = stream.read_to_end(&mut rest).unwrap_err();
    assert!(
        err.to_string().contains("changed while it was read"),
        "{err}"
    );
    assert!(remote.info_now().unwrap().etag != remote.info().etag);

    // Retries used up: the error names the input and the count; the reader cannot start.
    let (dead, remote) = serve(
        "/a.warc.gz",
        &bytes,
        Faults {
            drops: 1000,
            drop_after: 0,
            ..Faults::default()
        },
    );
    let err = remote
        .open_at(0)
        .unwrap()
        .read_to_end(&mut Vec::new())
        .unwrap_err();
    assert!(err.to_string().contains("after 4 retries"), "{err}");
    let err = WarcReader::open_source(Arc::new(remote), ReaderOptions::default()).err();
    assert!(err.is_some_and(|e| e.to_string().contains("after 4 retries")));

    // A server that goes down mid-file: the records before are kept, the input is partial.
    let (_failing, remote) = serve(
        "/a.warc.gz",
        &bytes,
        Faults {
            drops: 2,
            drop_after: 100_000,
            down_after: Some(3),
            ..Faults::default()
        },
    );
    let (got, status) = items(Arc::new(remote));
    let (all, _) = items(Arc::new(InMemory::new("a.warc.gz", bytes)));
    assert!(matches!(status, FileStatus::Partial { .. }), "{status:?}");
    let pages = |v: &[String]| v.iter().filter(|i| i.starts_with("page")).count();
    assert!(pages(&got) > 3 && pages(&got) < pages(&all), "{got:?}");
    assert_eq!(got[..pages(&got)], all[..pages(&got)]);

    let missing = RemoteObject::open(&dead.url("/nothing.warc.gz"), quick()).unwrap_err();
    assert!(missing.to_string().contains("HTTP 404"), "{missing}");
}

#[test]
fn damaged_files_resync_over_ranges_as_they_do_on_disk() {
    let (bytes, _) = outward_testkit::broken_corrupt_member();
    let (_server, remote) = serve("/broken.warc.gz", &bytes, Faults::default());
    let (got, status) = items(Arc::new(remote));
    let want = items(Arc::new(InMemory::new("broken.warc.gz", bytes)));
    assert_eq!((got.clone(), status.clone()), want);
    assert!(matches!(status, FileStatus::Partial { .. }));
    assert!(got.iter().any(|i| i.starts_with("bad_record")), "{got:?}");
}

/// A URL presigned for GET only refuses HEAD (403): the size and ETag come from a GET of the
/// first byte instead.
#[test]
fn a_server_that_refuses_head_is_sized_by_its_first_byte() {
    let bytes = outward_testkit::synthetic_warc_gz(13, 30);
    for ignore_range in [false, true] {
        let server = TestServer::start(Faults {
            refuse_head: true,
            ignore_range,
            ..Faults::default()
        });
        server.put("/signed.warc.gz", bytes.clone());
        server.put("/empty.warc.gz", Vec::new());
        let remote = RemoteObject::open(&server.url("/signed.warc.gz"), quick()).unwrap();
        assert_eq!(remote.info().len, bytes.len() as u64);
        assert!(remote.info().etag.is_some());
        assert_eq!(whole(&remote, 0), bytes);
        let requests = server.requests();
        assert_eq!(
            requests[1], "GET /signed.warc.gz range=bytes=0-0",
            "{requests:?}"
        );
        let empty = RemoteObject::open(&server.url("/empty.warc.gz"), quick()).unwrap();
        assert_eq!(empty.info().len, 0);
    }
}

#[test]
fn s3_urls_are_presigned_path_style_requests_to_the_endpoint() {
    let bytes = outward_testkit::synthetic_warc_gz(9, 10);
    let server = TestServer::start(Faults::default());
    server.put("/commoncrawl/crawl-data/x.warc.gz", bytes.clone());
    let options = RemoteOptions {
        s3: S3Settings {
            endpoint: Some(server.base()),
            region: "us-east-1".into(),
            credentials: Some(("AKIDEXAMPLE".into(), "secret".into(), None)),
        },
        ..quick()
    };
    let remote = RemoteObject::open("s3://commoncrawl/crawl-data/x.warc.gz", options).unwrap();
    assert_eq!(remote.name(), "s3://commoncrawl/crawl-data/x.warc.gz");
    assert_eq!(whole(&remote, 0), bytes);
    let requests = server.requests();
    assert_eq!(
        requests[..2],
        [
            "HEAD /commoncrawl/crawl-data/x.warc.gz range=-",
            "GET /commoncrawl/crawl-data/x.warc.gz range=-",
        ]
    );
}
