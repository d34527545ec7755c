//! [`WarcWriter`]: a small WARC/1.0 writer (warcinfo, request, response, revisit, resource,
//! metadata records; CRLF; `Content-Length`; deterministic `WARC-Record-ID`s derived from a
//! seed; fixed `WARC-Date`s), plain, gzip-per-record ([`Compression::Gzip`]) or
//! zstd-per-record ([`Compression::Zstd`]). It remembers where each record starts and ends
//! ([`RecordInfo`]) so tests can cut or corrupt a file at a known place.

use crate::codings::{gzip, payload_digest, zstd_frame};
use crate::http::HttpResponse;
use crate::rng::SplitMix64;

/// How each record of a WARC file is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// `.warc`
    None,
    /// `.warc.gz`: one gzip member per record.
    Gzip,
    /// `.warc.zst`: one zstd frame per record.
    Zstd,
}

impl Compression {
    /// File name extension including the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Compression::None => ".warc",
            Compression::Gzip => ".warc.gz",
            Compression::Zstd => ".warc.zst",
        }
    }
}

/// Where one record of a written file is, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordInfo {
    /// `<urn:uuid:...>`
    pub id: String,
    pub warc_type: String,
    pub target_uri: Option<String>,
    /// Byte range of the record in the (compressed) output.
    pub start: u64,
    pub end: u64,
    /// Set by the corpus generators when the record should become a document.
    pub expect_doc: bool,
}

/// Writes WARC/1.0 records into memory.
pub struct WarcWriter {
    compression: Compression,
    ids: SplitMix64,
    out: Vec<u8>,
    records: Vec<RecordInfo>,
}

/// First WARC-Date of every file; each record is 7 seconds later than the one before.
const BASE_DATE_SECS: u64 = 5 * 3600 + 13 * 60 + 42;

impl WarcWriter {
    pub fn new(compression: Compression, seed: u64) -> WarcWriter {
        WarcWriter {
            compression,
            ids: SplitMix64::new(seed ^ 0x5741_5243_4b49_5400),
            out: Vec::new(),
            records: Vec::new(),
        }
    }

    /// The record id the next record will get (the sequence is fixed by the seed).
    fn next_id(&mut self) -> String {
        let a = self.ids.next_u64();
        let b = self.ids.next_u64();
        // Version-4 UUID layout.
        format!(
            "<urn:uuid:{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}>",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            0x8000 | ((b >> 48) & 0x3fff),
            b & 0xffff_ffff_ffff
        )
    }

    /// WARC-Date of the record with index `n`.
    pub fn date_of(n: usize) -> String {
        let secs = BASE_DATE_SECS + n as u64 * 7;
        let day = 18 + secs / 86_400;
        let s = secs % 86_400;
        format!(
            "2024-05-{day:02}T{:02}:{:02}:{:02}Z",
            s / 3600,
            (s / 60) % 60,
            s % 60
        )
    }

    /// Records written so far.
    pub fn records(&self) -> &[RecordInfo] {
        &self.records
    }

    /// Marks the last record as one that should become a document.
    pub fn expect_doc(&mut self) {
        if let Some(r) = self.records.last_mut() {
            r.expect_doc = true;
        }
    }

    /// Writes one record: the WARC head (`WARC/1.0`, type, id, date, `extra` headers,
    /// Content-Type, Content-Length), the block and the CRLF CRLF trailer. Returns its id.
    pub fn record(
        &mut self,
        warc_type: &str,
        target_uri: Option<&str>,
        extra: &[(&str, &str)],
        content_type: Option<&str>,
        block: &[u8],
    ) -> String {
        let id = self.next_id();
        let mut rec = Vec::with_capacity(block.len() + 512);
        rec.extend_from_slice(b"WARC/1.0\r\n");
        let mut header = |k: &str, v: &str| {
            rec.extend_from_slice(k.as_bytes());
            rec.extend_from_slice(b": ");
            rec.extend_from_slice(v.as_bytes());
            rec.extend_from_slice(b"\r\n");
        };
        header("WARC-Type", warc_type);
        header("WARC-Record-ID", &id);
        header("WARC-Date", &Self::date_of(self.records.len()));
        if let Some(uri) = target_uri {
            header("WARC-Target-URI", uri);
        }
        for (k, v) in extra {
            header(k, v);
        }
        if let Some(ct) = content_type {
            header("Content-Type", ct);
        }
        header("Content-Length", &block.len().to_string());
        rec.extend_from_slice(b"\r\n");
        rec.extend_from_slice(block);
        rec.extend_from_slice(b"\r\n\r\n");
        let start = self.out.len() as u64;
        match self.compression {
            Compression::None => self.out.extend_from_slice(&rec),
            Compression::Gzip => self.out.extend_from_slice(&gzip(&rec)),
            Compression::Zstd => self.out.extend_from_slice(&zstd_frame(&rec)),
        }
        self.records.push(RecordInfo {
            id: id.clone(),
            warc_type: warc_type.to_string(),
            target_uri: target_uri.map(str::to_string),
            start,
            end: self.out.len() as u64,
            expect_doc: false,
        });
        id
    }

    /// A `warcinfo` record naming the file.
    pub fn warcinfo(&mut self, filename: &str) -> String {
        let fields = "software: outward-testkit\r\nformat: WARC File Format 1.0\r\n\
                      conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.0/\r\n\
                      isPartOf: outward-test\r\nrobots: checked via crawler-commons\r\n";
        self.record(
            "warcinfo",
            None,
            &[("WARC-Filename", filename)],
            Some("application/warc-fields"),
            fields.as_bytes(),
        )
    }

    /// A `request` record (a GET for `uri`).
    pub fn request(&mut self, uri: &str) -> String {
        let host = uri
            .split("://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or("example.com");
        let path = uri
            .split("://")
            .nth(1)
            .and_then(|r| r.find('/').map(|i| &r[i..]))
            .unwrap_or("/");
        let block = format!(
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: outward-testkit/1.0\r\n\
             Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8\r\n\
             Accept-Encoding: gzip, br\r\n\r\n"
        );
        self.record(
            "request",
            Some(uri),
            &[],
            Some("application/http; msgtype=request"),
            block.as_bytes(),
        )
    }

    /// A `response` record with an HTTP response block.
    pub fn response(&mut self, uri: &str, http: &HttpResponse) -> String {
        let digest = payload_digest(&http.body);
        self.record(
            "response",
            Some(uri),
            &[("WARC-Payload-Digest", &digest)],
            Some("application/http; msgtype=response"),
            &http.to_bytes(),
        )
    }

    /// A `resource` record (no HTTP head; wget stores files like this).
    pub fn resource(&mut self, uri: &str, content_type: &str, body: &[u8]) -> String {
        let digest = payload_digest(body);
        self.record(
            "resource",
            Some(uri),
            &[("WARC-Payload-Digest", &digest)],
            Some(content_type),
            body,
        )
    }

    /// A `revisit` record (identical-payload-digest profile) with the HTTP head only.
    pub fn revisit(
        &mut self,
        uri: &str,
        refers_to: &str,
        refers_to_date: &str,
        http: &HttpResponse,
    ) -> String {
        let digest = payload_digest(&http.body);
        self.record(
            "revisit",
            Some(uri),
            &[
                (
                    "WARC-Profile",
                    "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest",
                ),
                ("WARC-Refers-To", refers_to),
                ("WARC-Refers-To-Target-URI", uri),
                ("WARC-Refers-To-Date", refers_to_date),
                ("WARC-Payload-Digest", &digest),
            ],
            Some("application/http; msgtype=response"),
            &http.head_bytes(),
        )
    }

    /// A `metadata` record (Common Crawl writes one per capture).
    pub fn metadata(&mut self, uri: &str, concurrent_to: &str, fetch_ms: u64) -> String {
        let block = format!("fetchTimeMs: {fetch_ms}\r\ncharset-detected: UTF-8\r\n");
        self.record(
            "metadata",
            Some(uri),
            &[("WARC-Concurrent-To", concurrent_to)],
            Some("application/warc-fields"),
            block.as_bytes(),
        )
    }

    /// The file's bytes and its record table.
    pub fn finish(self) -> (Vec<u8>, Vec<RecordInfo>) {
        (self.out, self.records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_ids_and_dates_are_well_formed() {
        let mut w = WarcWriter::new(Compression::None, 7);
        let id = w.warcinfo("x.warc");
        assert_eq!(
            id.len(),
            "<urn:uuid:00000000-0000-0000-0000-000000000000>".len()
        );
        assert!(id.starts_with("<urn:uuid:") && id.ends_with('>'));
        assert_eq!(WarcWriter::date_of(0), "2024-05-18T05:13:42Z");
        assert_eq!(WarcWriter::date_of(3), "2024-05-18T05:14:03Z");
        let id2 = w.request("https://a.example/x");
        assert_ne!(id, id2);
        let (bytes, _) = w.finish();
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains("GET /x HTTP/1.1\r\nHost: a.example\r\n"));
    }
}
