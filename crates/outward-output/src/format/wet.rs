//! `wet`: `<stem>.warc.wet.gz`, Common Crawl's WET layout. A `warcinfo` record, then one
//! `conversion` record per document, each record its own gzip member:
//!
//! ```text
//! WARC/1.0
//! WARC-Type: conversion
//! WARC-Target-URI: <the page's URL>
//! WARC-Date: <the response's WARC-Date>
//! WARC-Record-ID: <urn:uuid:…>          derived from the response's id
//! WARC-Refers-To: <the response's WARC-Record-ID>
//! WARC-Block-Digest: sha1:<base32 of the text's SHA-1>
//! WARC-Payload-Digest: sha1:<the same>    as Common Crawl's WET records have it
//! WARC-Identified-Content-Language: <ISO 639-3, `eng`>  when the text's language is known
//! WARC-Identified-Payload-Type: text/plain
//! Content-Type: text/plain
//! Content-Length: <bytes of text>
//!
//! <text>
//! ```
//!
//! Invariants: no wall-clock time and no randomness: record ids are name-based UUIDs (version
//! 8, from SHA-256 of the response id), and the warcinfo record carries the first document's
//! WARC-Date (the Unix epoch when there is none), so the same documents give the same bytes.
//! An input with no documents gets a file holding only the warcinfo record.

use super::{OutputFormat, ShardInfo, ShardWrite};
use crate::atomic::AtomicFile;
use crate::document::Document;
use flate2::Compression;
use flate2::write::GzEncoder;
use outward_base::base32;
use sha1::Sha1;
use sha2::{Digest, Sha256};
use std::io::{self, Write};
use std::path::Path;

/// The WET format (it reads no option).
pub struct Wet;

/// WARC-Date of the warcinfo record of a file with no document.
const NO_DATE: &str = "1970-01-01T00:00:00Z";

impl OutputFormat for Wet {
    fn name(&self) -> &'static str {
        "wet"
    }

    fn options_key(&self) -> String {
        String::new()
    }

    fn file_name(&self, stem: &str) -> String {
        format!("{stem}.warc.wet.gz")
    }

    fn create(&self, dir: &Path, stem: &str) -> io::Result<Box<dyn ShardWrite>> {
        let file_name = self.file_name(stem);
        Ok(Box::new(WetShard {
            file: Some(AtomicFile::create(dir, &file_name)?),
            file_name,
            documents: 0,
            record: Vec::with_capacity(1 << 16),
        }))
    }
}

struct WetShard {
    /// `None` after a failed write.
    file: Option<AtomicFile>,
    file_name: String,
    documents: u64,
    record: Vec<u8>,
}

impl WetShard {
    /// Appends `self.record` as one gzip member.
    fn write_member(&mut self) -> io::Result<()> {
        let file = self
            .file
            .take()
            .ok_or_else(|| io::Error::other("WET writer already failed"))?;
        let mut gz = GzEncoder::new(file, Compression::default());
        gz.write_all(&self.record)?;
        self.file = Some(gz.finish()?);
        Ok(())
    }

    fn write_warcinfo(&mut self, date: &str, first_id: &str) -> io::Result<()> {
        let fields = format!(
            "software: outward/{}\r\nformat: WARC File Format 1.0\r\n\
             description: main text of the HTML pages of the source WARC, one conversion \
             record per page\r\n",
            env!("CARGO_PKG_VERSION")
        );
        let id = name_uuid("warcinfo", &format!("{}\n{first_id}", self.file_name));
        self.record.clear();
        let head = format!(
            "WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Date: {date}\r\nWARC-Filename: {}\r\n\
             WARC-Record-ID: {id}\r\nContent-Type: application/warc-fields\r\n\
             Content-Length: {}\r\n\r\n",
            self.file_name,
            fields.len()
        );
        self.record.extend_from_slice(head.as_bytes());
        self.record.extend_from_slice(fields.as_bytes());
        self.record.extend_from_slice(b"\r\n\r\n");
        self.write_member()
    }
}

impl ShardWrite for WetShard {
    fn write(&mut self, doc: &Document) -> io::Result<()> {
        let date = doc.created.as_deref().unwrap_or(NO_DATE);
        if self.documents == 0 {
            self.write_warcinfo(date, &doc.id)?;
        }
        let text = doc.text.as_bytes();
        self.record.clear();
        self.record
            .extend_from_slice(b"WARC/1.0\r\nWARC-Type: conversion\r\n");
        if let Some(url) = &doc.metadata.url {
            header(&mut self.record, "WARC-Target-URI", url);
        }
        header(&mut self.record, "WARC-Date", date);
        header(
            &mut self.record,
            "WARC-Record-ID",
            &name_uuid("conversion", &doc.id),
        );
        header(&mut self.record, "WARC-Refers-To", &doc.id);
        // A conversion record's payload is its block (no HTTP headers): Common Crawl's WET
        // records give both digests, equal.
        let digest = format!("sha1:{}", base32::encode(&Sha1::digest(text)));
        header(&mut self.record, "WARC-Block-Digest", &digest);
        header(&mut self.record, "WARC-Payload-Digest", &digest);
        if let Some(language) = doc.metadata.language.as_deref() {
            let code = outward_lang::iso_639_3(language).unwrap_or(language);
            header(&mut self.record, "WARC-Identified-Content-Language", code);
        }
        // DataTrove's WarcReader takes a conversion record only with this payload type (or
        // what libmagic guesses without it).
        header(
            &mut self.record,
            "WARC-Identified-Payload-Type",
            "text/plain",
        );
        header(&mut self.record, "Content-Type", "text/plain");
        header(&mut self.record, "Content-Length", &text.len().to_string());
        self.record.extend_from_slice(b"\r\n");
        self.record.extend_from_slice(text);
        self.record.extend_from_slice(b"\r\n\r\n");
        self.write_member()?;
        self.documents += 1;
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> io::Result<ShardInfo> {
        if self.documents == 0 {
            self.write_warcinfo(NO_DATE, "")?;
        }
        let file = self
            .file
            .take()
            .ok_or_else(|| io::Error::other("WET writer already failed"))?;
        Ok(ShardInfo {
            file: file.finish()?,
            documents: self.documents,
        })
    }
}

/// Appends `name: value\r\n`, with line breaks in `value` (never in a valid URL or id)
/// replaced by spaces so they cannot end the header block.
fn header(out: &mut Vec<u8>, name: &str, value: &str) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b": ");
    for b in value.bytes() {
        out.push(if b == b'\r' || b == b'\n' { b' ' } else { b });
    }
    out.extend_from_slice(b"\r\n");
}

/// A name-based UUID (RFC 9562 version 8: SHA-256 of `kind` and `name`), as a WARC record id.
fn name_uuid(kind: &str, name: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"outward-wet\0");
    hasher.update(kind.as_bytes());
    hasher.update(b"\0");
    hasher.update(name.as_bytes());
    let digest = hasher.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest[..16]);
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::tests::sample_document;
    use std::io::Read;

    #[test]
    fn uuids_are_stable_and_well_formed() {
        let a = name_uuid("conversion", "<urn:uuid:1>");
        assert_eq!(a, name_uuid("conversion", "<urn:uuid:1>"));
        assert_ne!(a, name_uuid("conversion", "<urn:uuid:2>"));
        assert_eq!(a.len(), "<urn:uuid:>".len() + 36);
        assert_eq!(&a[24..25], "8", "version 8: {a}");
        assert!(matches!(&a[29..30], "8" | "9" | "a" | "b"), "variant: {a}");
    }

    fn members(bytes: &[u8]) -> Vec<String> {
        // Each record is one gzip member: decode them one by one.
        let mut out = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let mut dec = flate2::bufread::GzDecoder::new(rest);
            let mut s = String::new();
            dec.read_to_string(&mut s).unwrap();
            rest = dec.into_inner();
            out.push(s);
        }
        out
    }

    #[test]
    fn records_are_warc_conversions_of_the_documents() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = Wet.create(dir.path(), "in").unwrap();
        let mut docs: Vec<Document> = (0..3).map(sample_document).collect();
        docs[1].metadata.language = None;
        docs[2].metadata.language = Some("zh".into());
        for d in &docs {
            w.write(d).unwrap();
        }
        let info = w.finish().unwrap();
        assert_eq!(info.documents, 3);
        assert_eq!(info.file.path, dir.path().join("in.warc.wet.gz"));
        let records = members(&std::fs::read(&info.file.path).unwrap());
        assert_eq!(records.len(), 4);
        assert!(records[0].starts_with("WARC/1.0\r\nWARC-Type: warcinfo\r\n"));
        assert!(records[0].contains("WARC-Date: 2024-05-18T05:13:00Z\r\n"));
        assert!(records[0].contains("WARC-Filename: in.warc.wet.gz\r\n"));
        for (record, doc) in records[1..].iter().zip(&docs) {
            let (head, body) = record.split_once("\r\n\r\n").unwrap();
            assert_eq!(body, format!("{}\r\n\r\n", doc.text));
            let lines: Vec<&str> = head.lines().collect();
            assert_eq!(lines[0], "WARC/1.0");
            assert_eq!(lines[1], "WARC-Type: conversion");
            let url = doc.metadata.url.as_deref().unwrap();
            assert!(lines.contains(&format!("WARC-Target-URI: {url}").as_str()));
            let refers = format!("WARC-Refers-To: {}", doc.id);
            assert!(lines.contains(&refers.as_str()));
            let length = format!("Content-Length: {}", doc.text.len());
            assert!(lines.contains(&length.as_str()), "{head}");
            let digest = format!(
                "WARC-Block-Digest: sha1:{}",
                base32::encode(&Sha1::digest(doc.text.as_bytes()))
            );
            assert!(lines.contains(&digest.as_str()));
            let payload = digest.replace("Block", "Payload");
            assert!(lines.contains(&payload.as_str()), "{head}");
            let language = doc.metadata.language.as_deref().map(|l| {
                format!(
                    "WARC-Identified-Content-Language: {}",
                    outward_lang::iso_639_3(l).unwrap()
                )
            });
            assert_eq!(
                language.is_some(),
                head.contains("WARC-Identified-Content-Language: "),
                "{head}"
            );
            if let Some(language) = language {
                assert!(lines.contains(&language.as_str()), "{head}");
            }
        }
    }

    #[test]
    fn empty_input_gives_only_the_warcinfo() {
        let dir = tempfile::tempdir().unwrap();
        let info = Wet.create(dir.path(), "e").unwrap().finish().unwrap();
        let records = members(&std::fs::read(&info.file.path).unwrap());
        assert_eq!(records.len(), 1);
        assert!(records[0].contains("WARC-Date: 1970-01-01T00:00:00Z"));
    }
}
