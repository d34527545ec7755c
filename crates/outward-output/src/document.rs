//! The one output document type and its one serialisation: a Dolma-style JSONL line that
//! Dolma and DataTrove's `JsonlReader` read without adapters.
//!
//! Invariants: field order is fixed (serde derive order), no wall-clock fields, so the same
//! input always gives the same bytes; `text` is never empty in written documents (the pipeline
//! counts empty extractions instead of writing them).

use outward_core::{Extraction, Format};
use serde::Serialize;

/// Constant `source` field of every document.
pub const SOURCE: &str = "outward";

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Document {
    /// WARC-Record-ID, e.g. `<urn:uuid:...>`.
    pub id: String,
    pub text: String,
    pub source: &'static str,
    /// WARC-Date of the record.
    pub created: Option<String>,
    pub metadata: Metadata,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metadata {
    pub url: Option<String>,
    pub title: Option<String>,
    pub warc_file: String,
    pub warc_offset: u64,
    pub content_type: Option<String>,
    pub charset: String,
    pub charset_source: String,
    pub payload_digest: Option<String>,
    pub extractor: String,
    /// Characters (Unicode scalar values) of `text`.
    pub text_chars: u64,
    pub nodes_parsed: u64,
    pub nodes_total: u64,
}

/// Where a document came from (everything but the extraction itself).
#[derive(Debug, Clone, Default)]
pub struct Provenance {
    pub url: Option<String>,
    pub created: Option<String>,
    pub warc_file: String,
    pub warc_offset: u64,
    pub content_type: Option<String>,
    pub payload_digest: Option<String>,
    pub charset: &'static str,
    pub charset_source: &'static str,
}

impl Document {
    /// The one way to make a document from an extraction: its blocks rendered in `format`.
    pub fn build(
        id: String,
        provenance: Provenance,
        extraction: Extraction,
        format: Format,
        extractor: &str,
    ) -> Document {
        let text = match format {
            Format::Text => extraction.blocks.into_text(),
            _ => extraction.render(format),
        };
        let Provenance {
            url,
            created,
            warc_file,
            warc_offset,
            content_type,
            payload_digest,
            charset,
            charset_source,
        } = provenance;
        Document {
            id,
            source: SOURCE,
            created,
            metadata: Metadata {
                url,
                title: extraction.title,
                warc_file,
                warc_offset,
                content_type,
                charset: charset.to_string(),
                charset_source: charset_source.to_string(),
                payload_digest,
                extractor: extractor.to_string(),
                text_chars: text.chars().count() as u64,
                nodes_parsed: extraction.stats.nodes_parsed,
                nodes_total: extraction.stats.nodes_total,
            },
            text,
        }
    }

    /// Appends the document as one JSON line (with `\n`) to `out`.
    pub fn write_json_line(&self, out: &mut Vec<u8>) {
        // Serialising plain strings and integers into a Vec cannot fail.
        serde_json::to_writer(&mut *out, self).expect("serialising a Document cannot fail");
        out.push(b'\n');
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A document as a WARC response would give it, numbered `n`.
    pub(crate) fn sample_document(n: usize) -> Document {
        let text = format!("Document {n} of the sample.\nIts second line, with ümlauts & <marks>.");
        Document {
            id: format!("<urn:uuid:doc-{n}>"),
            source: SOURCE,
            created: Some(format!("2024-05-18T05:13:{:02}Z", n % 60)),
            metadata: Metadata {
                url: Some(format!("https://example.com/page/{n}")),
                title: Some(format!("Page {n}")),
                warc_file: "in.warc.gz".into(),
                warc_offset: 1000 * n as u64,
                content_type: Some("text/html; charset=utf-8".into()),
                charset: "UTF-8".into(),
                charset_source: "utf8_valid".into(),
                payload_digest: None,
                extractor: "reverse".into(),
                text_chars: text.chars().count() as u64,
                nodes_parsed: 3,
                nodes_total: 9,
            },
            text,
        }
    }

    #[test]
    fn json_line_has_dolma_fields_in_order() {
        let doc = Document {
            id: "<urn:uuid:1>".into(),
            text: "Hello \"world\"\nline 2".into(),
            source: SOURCE,
            created: Some("2024-05-18T05:13:42Z".into()),
            metadata: Metadata {
                url: Some("https://example.com/".into()),
                title: Some("T".into()),
                warc_file: "a.warc.gz".into(),
                warc_offset: 42,
                content_type: Some("text/html".into()),
                charset: "UTF-8".into(),
                charset_source: "utf8_valid".into(),
                payload_digest: None,
                extractor: "reverse".into(),
                text_chars: 20,
                nodes_parsed: 3,
                nodes_total: 9,
            },
        };
        let mut out = Vec::new();
        doc.write_json_line(&mut out);
        let line = String::from_utf8(out).unwrap();
        assert!(line.ends_with("}\n"));
        assert!(line.starts_with(r#"{"id":"<urn:uuid:1>","text":"Hello \"world\"\nline 2","source":"outward","created":"2024-05-18T05:13:42Z","metadata":{"url":"https://example.com/""#));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["metadata"]["nodes_total"], 9);
        assert_eq!(v["metadata"]["payload_digest"], serde_json::Value::Null);
    }
}
