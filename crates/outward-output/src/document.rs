//! The one output document type and its one serialisation: a Dolma-style JSONL line that
//! Dolma and DataTrove's `JsonlReader` read without adapters.
//!
//! Invariants: field order is fixed (serde derive order), no wall-clock fields, so the same
//! input always gives the same bytes; `text` is never empty in written documents (the pipeline
//! counts empty extractions instead of writing them); a metadata key whose value is unknown is
//! absent (never `null` or `""`), except the long-standing `url`, `title`, `content_type` and
//! `payload_digest`, which stay `null` when unknown.

use outward_core::{Extraction, Format, PageMeta};
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
    /// `<title>` without its site name, else `og:title`, else the first `<h1>`.
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_published: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_url: Option<String>,
    /// `<html lang>` as the page declares it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html_lang: Option<String>,
    /// Language identified from `text` (ISO 639-1), and how sure (0..1, 3 decimals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language_score: Option<f64>,
    /// Absent for input that is not a WARC or ARC file (`outward extract`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warc_file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warc_offset: Option<u64>,
    /// HTTP status of the response (absent for `resource` records and non-WARC input).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    /// HTTP `Last-Modified` header as sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
    pub content_type: Option<String>,
    pub charset: String,
    pub charset_source: String,
    pub payload_digest: Option<String>,
    pub extractor: String,
    /// With site memory (`--site-memory`, `--sites`): pages of the host the memory knows (0:
    /// too few, the page was judged alone) and the template blocks or texts the method took
    /// out of this page. Absent without site memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_pages: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template_removed: Option<u32>,
    /// The site rule that chose the text (`cluster` with site memory: its cluster's rule,
    /// `#id`, `tag.class` or a tag path). Absent when no site rule applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_rule: Option<String>,
    /// Characters (Unicode scalar values) of `text`.
    pub text_chars: u64,
    pub nodes_parsed: u64,
    pub nodes_total: u64,
    /// Bytes of the decoded page, and those of them the extraction's full reading touched
    /// (`outward_core::Page::bytes_read`: today all of them, for every method).
    pub page_bytes: u64,
    pub bytes_parsed: u64,
    /// The work budget that ran out while this page was extracted (`max_comparisons`): the
    /// text is what the method had when it stopped. Absent when none did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degraded: Option<&'static str>,
    /// The F1 the method expects of this page's text, 0..1, to three decimals
    /// (`reverse-stage`; calibrated leave-one-dataset-out): drop or re-extract the pages it
    /// doubts. Absent for methods that do not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extraction_confidence: Option<f64>,
    /// With `--signals`: what the Gopher, C4 and FineWeb quality filters decide on, measured on
    /// `text`, and the rule of each that would drop it (`outward_filters::Signals`). The last
    /// field of `metadata`, written after the derived ones by `Document::write_json_to`
    /// (`Signals::write_json`); absent without signals.
    #[serde(skip)]
    pub signals: Option<outward_filters::Signals>,
}

/// Where a document came from (everything but the extraction itself).
#[derive(Debug, Clone, Default)]
pub struct Provenance {
    pub url: Option<String>,
    pub created: Option<String>,
    /// `None` for input that is not a WARC or ARC file.
    pub warc_file: Option<String>,
    pub warc_offset: Option<u64>,
    pub http_status: Option<u16>,
    pub last_modified: Option<String>,
    pub content_type: Option<String>,
    pub payload_digest: Option<String>,
    pub charset: &'static str,
    pub charset_source: &'static str,
    /// Pages of the host site memory knows, when the run has site memory.
    pub site_pages: Option<u32>,
}

impl Document {
    /// The one way to make a document from an extraction: its blocks rendered in `format`,
    /// the page's own metadata, and the language of the text.
    pub fn build(
        id: String,
        provenance: Provenance,
        extraction: Extraction,
        page: PageMeta,
        format: Format,
        extractor: &str,
    ) -> Document {
        let text = match format {
            Format::Text => extraction.blocks.into_text(),
            _ => extraction.render(format),
        };
        let language = outward_lang::identify(&text);
        let Provenance {
            url,
            created,
            warc_file,
            warc_offset,
            http_status,
            last_modified,
            content_type,
            payload_digest,
            charset,
            charset_source,
            site_pages,
        } = provenance;
        Document {
            id,
            source: SOURCE,
            created,
            metadata: Metadata {
                url,
                title: page.title,
                description: page.description,
                author: page.author,
                date_published: page.date_published,
                site_name: page.site_name,
                canonical_url: page.canonical_url,
                html_lang: page.html_lang,
                language: language.map(|l| l.code.to_string()),
                language_score: language.map(|l| (l.score * 1000.0).round() / 1000.0),
                warc_file,
                warc_offset,
                http_status,
                last_modified,
                content_type,
                charset: charset.to_string(),
                charset_source: charset_source.to_string(),
                payload_digest,
                extractor: extractor.to_string(),
                site_pages,
                template_removed: site_pages.map(|_| extraction.stats.template_removed),
                site_rule: extraction.site_rule,
                text_chars: text.chars().count() as u64,
                nodes_parsed: extraction.stats.nodes_parsed,
                nodes_total: extraction.stats.nodes_total,
                page_bytes: extraction.stats.page_bytes,
                bytes_parsed: extraction.stats.bytes_parsed,
                degraded: extraction.stats.degraded.then_some("max_comparisons"),
                extraction_confidence: extraction
                    .stats
                    .confidence
                    .map(|c| (f64::from(c) * 1000.0).round() / 1000.0),
                signals: None,
            },
            text,
        }
    }

    /// Writes the document as one JSON line (with `\n`) to `out`, streaming.
    pub fn write_json_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        match &self.metadata.signals {
            None => serde_json::to_writer(&mut *out, self)?,
            Some(signals) => {
                // The closing `}}` is held back, and written after the signals.
                let mut held = HeldClose::new(&mut *out);
                serde_json::to_writer(&mut held, self)?;
                held.close_with(signals)?;
            }
        }
        out.write_all(b"\n")
    }

    /// Appends the document as one JSON line (with `\n`) to `out`.
    pub fn write_json_line(&self, out: &mut Vec<u8>) {
        // Serialising plain strings and integers into a Vec cannot fail.
        serde_json::to_writer(&mut *out, self).expect("serialising a Document cannot fail");
        if let Some(signals) = &self.metadata.signals {
            out.truncate(out.len() - CLOSE.len());
            write_signals_and_close(out, signals);
        }
        out.push(b'\n');
    }
}

/// The end of a document's JSON as serde writes it: `metadata` (its last field, an object) and
/// the document closed.
const CLOSE: &[u8; 2] = b"}}";

/// `metadata.signals` (the last field of `metadata`, after the derived ones, of which there
/// are always some) and the close.
fn write_signals_and_close(out: &mut Vec<u8>, signals: &outward_filters::Signals) {
    out.extend_from_slice(b",\"signals\":");
    signals.write_json(out);
    out.extend_from_slice(CLOSE);
}

/// A writer that passes on all but the last two bytes written to it (the document's close,
/// `CLOSE`), so that the signals are written before them.
struct HeldClose<W> {
    inner: W,
    /// The last bytes written, `held_len` of them (at most two).
    held: [u8; 2],
    held_len: usize,
}

impl<W: std::io::Write> HeldClose<W> {
    fn new(inner: W) -> Self {
        HeldClose {
            inner,
            held: [0; 2],
            held_len: 0,
        }
    }

    /// Writes the signals and the close in place of the bytes held back.
    fn close_with(mut self, signals: &outward_filters::Signals) -> std::io::Result<()> {
        debug_assert_eq!(
            &self.held, CLOSE,
            "a document's JSON ends with its metadata"
        );
        let mut tail = Vec::with_capacity(1024);
        write_signals_and_close(&mut tail, signals);
        self.inner.write_all(&tail)
    }
}

impl<W: std::io::Write> std::io::Write for HeldClose<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // The bytes held and `buf`, one after the other: all but their last two go on.
        let total = self.held_len + buf.len();
        let pass = total.saturating_sub(CLOSE.len());
        let from_held = pass.min(self.held_len);
        self.inner.write_all(&self.held[..from_held])?;
        self.inner.write_all(&buf[..pass - from_held])?;
        let mut kept = [0; 2];
        let kept_len = total - pass;
        for (k, slot) in kept.iter_mut().take(kept_len).enumerate() {
            let at = pass + k;
            *slot = if at < self.held_len {
                self.held[at]
            } else {
                buf[at - self.held_len]
            };
        }
        (self.held, self.held_len) = (kept, kept_len);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
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
                description: None,
                author: None,
                date_published: None,
                site_name: None,
                canonical_url: None,
                html_lang: None,
                language: Some("en".into()),
                language_score: Some(0.5),
                warc_file: Some("in.warc.gz".into()),
                warc_offset: Some(1000 * n as u64),
                http_status: Some(200),
                last_modified: None,
                content_type: Some("text/html; charset=utf-8".into()),
                charset: "UTF-8".into(),
                charset_source: "utf8_valid".into(),
                payload_digest: None,
                extractor: "reverse".into(),
                site_pages: None,
                template_removed: None,
                site_rule: None,
                text_chars: text.chars().count() as u64,
                nodes_parsed: 3,
                nodes_total: 9,
                page_bytes: 120,
                bytes_parsed: 120,
                degraded: None,
                extraction_confidence: None,
                signals: None,
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
                description: None,
                author: Some("A. Writer".into()),
                date_published: None,
                site_name: None,
                canonical_url: None,
                html_lang: None,
                language: None,
                language_score: None,
                warc_file: Some("a.warc.gz".into()),
                warc_offset: Some(42),
                http_status: Some(200),
                last_modified: None,
                content_type: Some("text/html".into()),
                charset: "UTF-8".into(),
                charset_source: "utf8_valid".into(),
                payload_digest: None,
                extractor: "reverse".into(),
                site_pages: None,
                template_removed: None,
                site_rule: None,
                text_chars: 20,
                nodes_parsed: 3,
                nodes_total: 9,
                page_bytes: 120,
                bytes_parsed: 120,
                degraded: None,
                extraction_confidence: None,
                signals: None,
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
        assert_eq!(v["metadata"]["author"], "A. Writer");
        assert_eq!(v["metadata"]["warc_offset"], 42);
        // Unknown new keys are absent, not null.
        for key in ["description", "language", "language_score", "last_modified"] {
            assert!(v["metadata"].get(key).is_none(), "{key} in {line}");
        }
    }

    #[test]
    fn non_warc_input_has_no_warc_keys_and_gets_page_metadata() {
        let html = "<html lang=de><head><title>Die Brücke - Stadtblatt</title>\
            <meta name=description content='Neubau'></head><body><p>x</p></body></html>";
        let mut blocks = outward_core::Blocks::default();
        blocks.push(
            outward_core::BlockKind::Paragraph,
            "Der Gemeinderat hat am Dienstag beschlossen, die alte Brücke neu zu bauen.",
        );
        let extraction = outward_core::Extraction {
            blocks,
            ..Default::default()
        };
        let meta = PageMeta::read(html, None, || None);
        let doc = Document::build(
            "page.html".into(),
            Provenance::default(),
            extraction,
            meta,
            Format::Text,
            "reverse",
        );
        let mut out = Vec::new();
        doc.write_json_line(&mut out);
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let m = &v["metadata"];
        assert!(
            m.get("warc_file").is_none() && m.get("warc_offset").is_none(),
            "{m}"
        );
        assert!(m.get("http_status").is_none());
        assert_eq!(m["title"], "Die Brücke");
        assert_eq!(m["description"], "Neubau");
        assert_eq!(m["html_lang"], "de");
        assert_eq!(m["language"], "de");
        let score = m["language_score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score));
    }

    /// A writer that takes at most `chunk` bytes per call, as a slow pipe would.
    struct Trickle {
        out: Vec<u8>,
        chunk: usize,
    }

    impl std::io::Write for Trickle {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.chunk);
            self.out.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn signals_are_the_last_metadata_key_streamed_or_not() {
        let mut doc = sample_document(7);
        doc.metadata.extraction_confidence = Some(0.25);
        doc.text = "The council met on Tuesday.\nIt voted to rebuild the old bridge, \
            and the work starts in May.\n\u{2022} one\n\u{2022} two"
            .into();
        doc.metadata.signals = Some(outward_filters::Signals::measure(
            &doc.text,
            &outward_filters::Config::default(),
        ));
        let mut line = Vec::new();
        doc.write_json_line(&mut line);
        let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
        // Written after the last derived field, as the metadata's last key.
        let text = String::from_utf8(line.clone()).unwrap();
        let at = text.find(r#","signals":{"#).unwrap();
        assert!(
            text[..at].ends_with(r#""extraction_confidence":0.25"#),
            "{text}"
        );
        assert_eq!(text[at..].matches('"').count() % 2, 0);
        assert!(!text[at..].contains(r#""extraction_confidence""#));
        let signals = &v["metadata"]["signals"];
        assert_eq!(
            signals["gopher_quality"]["non_symbol_words"], 22,
            "{signals}"
        );
        assert_eq!(signals["would_drop"]["gopher-quality"], "gopher_short_doc");
        assert!(line.ends_with(b"}}\n"));
        // The streaming writer gives the same bytes, whatever sizes its writes come in.
        for chunk in [1, 2, 3, 7, 4096] {
            let mut trickle = Trickle {
                out: Vec::new(),
                chunk,
            };
            doc.write_json_to(&mut trickle).unwrap();
            assert_eq!(
                String::from_utf8(trickle.out).unwrap(),
                String::from_utf8(line.clone()).unwrap(),
                "chunk {chunk}"
            );
        }
        // Without signals the two agree too, and there is no signals key.
        doc.metadata.signals = None;
        let mut plain = Vec::new();
        doc.write_json_line(&mut plain);
        let mut streamed = Vec::new();
        doc.write_json_to(&mut streamed).unwrap();
        assert_eq!(plain, streamed);
        assert!(!String::from_utf8(plain).unwrap().contains("signals"));
    }
}
