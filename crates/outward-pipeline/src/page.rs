//! One HTML page (bytes as fetched, or text) into its document: what `outward extract` and
//! the Python package's `extract` do, outside any WARC file.
//!
//! Invariants: bytes are decoded by the same charset routine as WARC records without HTTP
//! headers (BOM, valid UTF-8, `<meta charset>`, then detection); the document is built by
//! [`Document::build`], so its fields and metadata are those of a document of `outward run`
//! (without the record's provenance). A page never panics out of here: bytes that are not
//! text are refused with [`NotHtml`], and an extractor that panics gives an empty document.

use outward_core::text::page_title::h1_text;
use outward_core::{Extraction, Extractor, Format, Page, PageMeta, SiteContext};
use outward_output::document::{Document, Provenance};
use outward_warc::decode::{self, CharsetSource};

/// Bytes that decode to mostly control characters: not HTML or text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotHtml {
    /// The charset they were decoded as, and how it was found.
    pub charset: &'static str,
    pub charset_source: CharsetSource,
}

impl std::fmt::Display for NotHtml {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "not HTML or text (binary bytes; decoded as {} it is mostly control characters)",
            self.charset
        )
    }
}

impl std::error::Error for NotHtml {}

impl NotHtml {
    /// The empty document of the refused bytes (no text, no page metadata), with the charset
    /// they were decoded as: what a caller that never fails (Python) returns for them.
    pub fn empty_document(
        &self,
        id: String,
        url: Option<&str>,
        extractor: &dyn Extractor,
        format: Format,
    ) -> Document {
        let page = (Extraction::default(), PageMeta::default());
        build(
            page,
            self.charset,
            self.charset_source,
            id,
            url,
            extractor,
            format,
        )
    }
}

/// True when decoded text is not text: among its first 8,192 characters, more than one in
/// twenty is a control character (other than tab, CR, LF, form feed) or U+FFFD.
fn looks_binary(text: &str) -> bool {
    let (mut seen, mut bad) = (0usize, 0usize);
    for c in text.chars().take(8192) {
        seen += 1;
        let control = c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c');
        bad += usize::from(control || c == '\u{fffd}');
    }
    bad * 20 > seen
}

/// Decodes `bytes` (charset by BOM, UTF-8 validity, `<meta>`, detection) and extracts it.
/// `id` becomes the document's id; `url` gives the methods the page's host.
pub fn extract_bytes(
    bytes: &[u8],
    id: String,
    url: Option<&str>,
    extractor: &dyn Extractor,
    format: Format,
) -> Result<Document, NotHtml> {
    let decoded = decode::decode_charset(bytes, None);
    if looks_binary(&decoded.html) {
        return Err(NotHtml {
            charset: decoded.charset,
            charset_source: decoded.charset_source,
        });
    }
    Ok(extract_decoded(
        &decoded.html,
        decoded.charset,
        decoded.charset_source,
        id,
        url,
        extractor,
        format,
    ))
}

/// Extracts text that is already decoded (a Python `str`): its charset is reported as
/// UTF-8 with source `given`. Text is never refused: binary-looking text extracts to what
/// it holds.
pub fn extract_text(
    html: &str,
    id: String,
    url: Option<&str>,
    extractor: &dyn Extractor,
    format: Format,
) -> Document {
    extract_decoded(
        html,
        "UTF-8",
        CharsetSource::Given,
        id,
        url,
        extractor,
        format,
    )
}

/// Extracts decoded text whose charset the caller found.
fn extract_decoded(
    html: &str,
    charset: &'static str,
    charset_source: CharsetSource,
    id: String,
    url: Option<&str>,
    extractor: &dyn Extractor,
    format: Format,
) -> Document {
    let extracted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let page = Page::new(html, url);
        let extraction = extractor.extract(&page, SiteContext::none());
        let meta = PageMeta::read(html, url, || h1_text(page.visible()));
        (extraction, meta)
    }));
    let page = extracted.unwrap_or_else(|_| (Extraction::default(), PageMeta::default()));
    build(page, charset, charset_source, id, url, extractor, format)
}

/// The document of a page's extraction and metadata, with what is known of its bytes.
fn build(
    (extraction, meta): (Extraction, PageMeta),
    charset: &'static str,
    charset_source: CharsetSource,
    id: String,
    url: Option<&str>,
    extractor: &dyn Extractor,
    format: Format,
) -> Document {
    let provenance = Provenance {
        charset,
        charset_source: charset_source.as_str(),
        url: url.map(str::to_string),
        ..Provenance::default()
    };
    Document::build(id, provenance, extraction, meta, format, extractor.name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use outward_core::methods;

    fn reverse() -> Box<dyn Extractor> {
        methods::build("reverse", &Default::default()).unwrap()
    }

    const ARTICLE: &str = "<html><head><title>Rain in Lyon</title></head><body>\
        <nav><a href=/>Home</a> <a href=/news>News</a></nav><article><h1>Rain in Lyon</h1>\
        <p>It rained all week in Lyon, and the river rose above the quays for the first time \
        since the spring of 1983, say the people who keep its records.</p>\
        <p>The city closed two bridges on Thursday; they open again when the water falls.</p>\
        </article><footer>© Lyon Daily</footer></body></html>";

    #[test]
    fn bytes_in_a_legacy_charset_are_decoded_by_their_meta() {
        let page = ARTICLE
            .replace("<head>", "<head><meta charset=\"windows-1252\">")
            .replace("all week", "toute la semaine, à");
        let bytes = encoding_rs::WINDOWS_1252.encode(&page).0.into_owned();
        let doc = extract_bytes(&bytes, "p1".into(), None, &*reverse(), Format::Text).unwrap();
        assert!(
            doc.text.contains("It rained toute la semaine, à in Lyon"),
            "{}",
            doc.text
        );
        assert_eq!(doc.metadata.charset, "windows-1252");
        assert!(!doc.text.contains("Home"));
        assert_eq!(doc.metadata.title.as_deref(), Some("Rain in Lyon"));
    }

    #[test]
    fn binary_bytes_are_refused_and_text_is_not() {
        let bytes: Vec<u8> = (0..4000u32).map(|i| (i * 7 % 32) as u8).collect();
        let err = extract_bytes(&bytes, "b".into(), None, &*reverse(), Format::Text).unwrap_err();
        assert!(err.to_string().contains("not HTML"), "{err}");
        // The refusal says how the charset was found (here: the UTF-16 byte order mark).
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(bytes.iter().flat_map(|&b| [b, 0]))
            .collect();
        let err = extract_bytes(&utf16, "b".into(), None, &*reverse(), Format::Text).unwrap_err();
        assert_eq!(
            (err.charset, err.charset_source),
            ("UTF-16LE", CharsetSource::Bom)
        );
        let doc = extract_text(
            ARTICLE,
            "t".into(),
            Some("https://lyon.example/rain"),
            &*reverse(),
            Format::Text,
        );
        assert!(doc.text.contains("two bridges"));
        assert_eq!(
            doc.metadata.url.as_deref(),
            Some("https://lyon.example/rain")
        );
        assert_eq!(doc.metadata.charset_source, "given");
    }
}
