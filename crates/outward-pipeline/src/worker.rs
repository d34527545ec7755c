//! One page into its document, for every caller: a WARC record in a run's worker
//! ([`process_page`]), an HTML file of `outward extract` or a Python `bytes`/`str`
//! ([`extract_bytes`], [`extract_text`]). All of them go through one function
//! (`extract_html`): the page analysed once, over-budget pages refused, the extraction with
//! the host's site memory, the site fingerprints when a store learns, the page's metadata,
//! a panicking extractor caught. A caller that skips pages without text (a run) does not
//! read their metadata; one that keeps them (`extract`) does.
//!
//! Invariants: bytes are decoded by the same charset routines as everywhere (a record's by
//! its HTTP headers, `<meta>` and detection; a file's by BOM, UTF-8 validity, `<meta>`,
//! detection); every document is built by [`Document::build`]; nothing here panics out
//! (bytes that are not text are refused with [`NotHtml`], a panicking extractor is a skip
//! or an empty document).

use crate::config::DocFilters;
use outward_base::counts::SkipReason;
use outward_core::site::{PagePrints, SampleNeeds, page_prints_with};
use outward_core::text::page_title::h1_text;
use outward_core::{Extraction, Extractor, Format, Page, PageMeta, SiteContext, SiteContexts};
use outward_output::document::{Document, Provenance};
use outward_warc::decode::{self, CharsetSource, DecodeOptions};
use outward_warc::reader::{RawPage, Skip};

/// What a page's analysis and extraction gave.
struct Extracted {
    extraction: Extraction,
    /// With site memory: the pages of the host it knows (0: the page was judged alone).
    site_pages: Option<u32>,
    meta: PageMeta,
    /// The page's site fingerprints, when a store learns from the run.
    prints: Option<PagePrints>,
}

/// Whether a caller keeps a page that gives no text (and so needs its metadata).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EmptyPages {
    /// A run: such a page is a counted skip, its metadata is never read.
    Skipped,
    /// `outward extract`, Python: such a page is an empty document with its metadata.
    Kept,
}

/// Why a page gave no extraction.
enum NotExtracted {
    /// Over a budget of `filters`: why.
    OverBudget(String),
    /// The extractor panicked.
    Panicked,
}

/// The one way a decoded page (`html`, fetched from `url`) is extracted: analysed once,
/// refused when over a size budget (before) or a work budget (after extraction) of
/// `filters`, extracted with the host's context of `site`, fingerprinted for `learn`, its
/// metadata read unless it gives no text and `empty` skips such pages.
fn extract_html(
    html: &str,
    url: Option<&str>,
    extractor: &dyn Extractor,
    site: Option<&dyn SiteContexts>,
    filters: &DocFilters,
    learn: Option<SampleNeeds>,
    empty: EmptyPages,
) -> Result<Extracted, NotExtracted> {
    let extracted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let analysed = Page::new(html, url);
        if let Some(why) = filters.over_budget(analysed.visible()) {
            return Err(why);
        }
        // With site memory, how many pages of the host it knows (0: judged alone).
        let (extraction, site_pages) = match site {
            Some(memory) => {
                let context = memory.context(analysed.host());
                let e = extractor.extract(&analysed, &context);
                (e, Some(context.host_pages()))
            }
            None => (extractor.extract(&analysed, SiteContext::none()), None),
        };
        if let Some(why) = filters.over_work(&extraction.stats) {
            return Err(why);
        }
        let prints = learn.and_then(|needs| page_prints_with(&analysed, needs));
        let meta = if extraction.blocks.is_empty() && empty == EmptyPages::Skipped {
            PageMeta::default()
        } else {
            PageMeta::read(analysed.html(), analysed.url(), || {
                h1_text(analysed.visible())
            })
        };
        Ok(Extracted {
            extraction,
            site_pages,
            meta,
            prints,
        })
    }));
    match extracted {
        Ok(Ok(x)) => Ok(x),
        Ok(Err(why)) => Err(NotExtracted::OverBudget(why)),
        Err(_) => Err(NotExtracted::Panicked),
    }
}

/// What one record became.
pub enum PageOutcome {
    Doc(Box<Document>),
    Skip(Skip),
}

/// Decodes and extracts one page: the pure per-record work of a worker.
pub fn process_page(
    page: RawPage,
    warc_file: &str,
    extractor: &dyn Extractor,
    site: Option<&dyn SiteContexts>,
    decode_options: &DecodeOptions,
    format: Format,
    filters: &DocFilters,
) -> (PageOutcome, u64) {
    let (outcome, html_bytes, _) = process_page_learning(
        page,
        warc_file,
        extractor,
        site,
        decode_options,
        format,
        filters,
        None,
    );
    (outcome, html_bytes)
}

/// [`process_page`], also giving the page's site fingerprints with what `learn` asks for (for
/// `--sites-update`; `None` for a page without a host or one that does not decode).
#[allow(clippy::too_many_arguments)]
pub fn process_page_learning(
    mut page: RawPage,
    warc_file: &str,
    extractor: &dyn Extractor,
    site: Option<&dyn SiteContexts>,
    decode_options: &DecodeOptions,
    format: Format,
    filters: &DocFilters,
    learn: Option<SampleNeeds>,
) -> (PageOutcome, u64, Option<PagePrints>) {
    let skip = |page: &RawPage, reason, detail: String| Skip {
        reason,
        record_id: Some(page.record_id.clone()),
        offset: page.offset,
        detail,
    };
    // The body moves into the decoder: a UTF-8 body that needs no decoding becomes the HTML
    // as it is. Memory: the stored body is not kept once decoded, nor the HTML once extracted
    // (a big page is held about three times at once — HTML, cleaned page, text — not five).
    let decoded = match decode::decode_body(
        &page.http_headers,
        page.content_type.as_deref(),
        std::mem::take(&mut page.body),
        decode_options,
    ) {
        Ok(d) => d,
        Err(e) => return (PageOutcome::Skip(skip(&page, e.reason, e.detail)), 0, None),
    };
    let html_bytes = decoded.html.len() as u64;
    let extracted = extract_html(
        &decoded.html,
        page.target_uri.as_deref(),
        extractor,
        site,
        filters,
        learn,
        EmptyPages::Skipped,
    );
    let charset = decoded.charset;
    let charset_source = decoded.charset_source;
    drop(decoded.html);
    let Extracted {
        extraction,
        site_pages,
        meta,
        prints,
    } = match extracted {
        Ok(x) => x,
        Err(NotExtracted::OverBudget(why)) => {
            return (
                PageOutcome::Skip(skip(&page, SkipReason::OverBudget, why)),
                html_bytes,
                None,
            );
        }
        Err(NotExtracted::Panicked) => {
            return (
                PageOutcome::Skip(skip(
                    &page,
                    SkipReason::ExtractFailed,
                    "extractor panicked".into(),
                )),
                html_bytes,
                None,
            );
        }
    };
    if extraction.blocks.is_empty() {
        return (
            PageOutcome::Skip(skip(&page, SkipReason::Empty, "no text extracted".into())),
            html_bytes,
            prints,
        );
    }
    let last_modified = page
        .http_headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("last-modified"))
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty());
    let RawPage {
        record_id,
        target_uri,
        date,
        offset,
        payload_digest,
        content_type,
        http_status,
        ..
    } = page;
    let provenance = Provenance {
        url: target_uri,
        created: date,
        warc_file: Some(warc_file.to_string()),
        warc_offset: Some(offset),
        http_status,
        last_modified,
        content_type,
        payload_digest,
        charset,
        charset_source: charset_source.as_str(),
        site_pages,
    };
    let mut doc = Document::build(
        record_id.clone(),
        provenance,
        extraction,
        meta,
        format,
        extractor.name(),
    );
    if let Some((reason, detail)) = filters.finish(&mut doc) {
        let skip = Skip {
            reason,
            record_id: Some(record_id),
            offset,
            detail,
        };
        return (PageOutcome::Skip(skip), html_bytes, prints);
    }
    (PageOutcome::Doc(Box::new(doc)), html_bytes, prints)
}

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
    // No budget, no site memory: a page alone, its metadata read even without text. A
    // panicking extractor gives the empty document.
    let page = match extract_html(
        html,
        url,
        extractor,
        None,
        &DocFilters::default(),
        None,
        EmptyPages::Kept,
    ) {
        Ok(x) => (x.extraction, x.meta),
        Err(_) => (Extraction::default(), PageMeta::default()),
    };
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
