//! outward-warc: the input side of outward. `reader` turns WARC files (plain, gzip, zstd, lz4;
//! the private module `warc`) and ARC files (plain, gzip; the private module `arc`) into
//! records of HTML pages (`reader` dispatches; the two readers share `record` and `resync` and
//! never import each other), `decode` turns a record's HTTP body into UTF-8 text (transfer and
//! content encodings, charset). What happened to every record that did not become a document
//! is named by `outward_base::counts`.
//!
//! Invariants: knows nothing of HTML extraction or of output files; bad input is a value
//! (a skip reason, a partial file status), never a panic.

mod arc;
pub mod decode;
pub mod gzip;
pub mod reader;
mod record;
mod resync;
pub mod source;
mod warc;

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

/// The entries of a list of inputs, one path or URL a line (Common Crawl's `warc.paths`):
/// lines trimmed, blank lines and `#` comments skipped.
pub fn read_path_list(reader: impl io::BufRead) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    for line in reader.lines() {
        let line = line?;
        let entry = line.trim();
        if !entry.is_empty() && !entry.starts_with('#') {
            out.push(entry.to_string());
        }
    }
    Ok(out)
}

/// [`read_path_list`] of a file, gunzipped when it is gzip (`warc.paths.gz`).
pub fn open_path_list(path: &Path) -> io::Result<Vec<String>> {
    let mut file = io::BufReader::new(std::fs::File::open(path)?);
    let gzip = io::BufRead::fill_buf(&mut file)?.starts_with(record::GZIP_MAGIC);
    if gzip {
        read_path_list(io::BufReader::new(flate2::read::MultiGzDecoder::new(file)))
    } else {
        read_path_list(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn path_lists_plain_and_gzipped() {
        let text = "# crawl-data paths\n a/x.warc.gz \n\nb/y.warc.gz\r\n";
        let want = ["a/x.warc.gz", "b/y.warc.gz"];
        assert_eq!(read_path_list(text.as_bytes()).unwrap(), want);
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("warc.paths");
        std::fs::write(&plain, text).unwrap();
        assert_eq!(open_path_list(&plain).unwrap(), want);
        let gz = dir.path().join("warc.paths.gz");
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        std::fs::write(&gz, e.finish().unwrap()).unwrap();
        assert_eq!(open_path_list(&gz).unwrap(), want);
        assert!(open_path_list(&dir.path().join("missing")).is_err());
    }
}
