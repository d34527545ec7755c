//! outward-warc: the input side of outward. `reader` turns WARC files (plain, gzip, zstd)
//! into records of HTML pages, `decode` turns a record's HTTP body into UTF-8 text (transfer
//! and content encodings, charset), `counts` names what happened to every record that did not
//! become a document.
//!
//! Invariants: knows nothing of HTML extraction or of output files; bad input is a value
//! (a skip reason, a partial file status), never a panic.

pub mod counts;
pub mod decode;
pub mod reader;

use decode::DecodeOptions;
use reader::{ReadItem, ReaderOptions, WarcReader};
use std::io;
use std::path::Path;

/// Decoded HTML of the HTML pages of `input`, in file order, until `max_bytes` of HTML.
pub fn load_html_pages(input: &Path, max_bytes: u64) -> io::Result<Vec<String>> {
    let reader = WarcReader::open(input, ReaderOptions::default())?;
    let options = DecodeOptions::default();
    let mut pages = Vec::new();
    let mut total = 0u64;
    for item in reader {
        if let ReadItem::Page(page) = item
            && let Ok(decoded) = decode::decode_body(
                &page.http_headers,
                page.content_type.as_deref(),
                &page.body,
                &options,
            )
        {
            total += decoded.html.len() as u64;
            pages.push(decoded.html);
            if total >= max_bytes {
                break;
            }
        }
    }
    Ok(pages)
}
