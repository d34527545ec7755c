//! outward-output: the output side of outward. `document` is the one output document and its
//! Dolma JSON line; `format` the output formats behind one trait (`dolma` zstd JSONL, `wet`
//! Common Crawl WET); `atomic` the temp-then-rename files every output goes through;
//! `manifest` the per-directory record of finished inputs and the resume decision.
//!
//! Invariants: the only crate that writes files; an output name only ever appears for a
//! complete, fsynced file; a manifest line only for an output already in place.

pub mod atomic;
pub mod document;
pub mod format;
pub mod manifest;

use std::path::Path;

/// Output file stem of an input: its file name without `.warc`, `.warc.gz`, `.warc.zst`.
pub fn output_stem(input: &Path) -> String {
    let name = input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for suffix in [".warc.gz", ".warc.zst", ".warc.lz4", ".warc", ".gz", ".zst"] {
        if let Some(stem) = name.strip_suffix(suffix)
            && !stem.is_empty()
        {
            return stem.to_string();
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        assert_eq!(output_stem(Path::new("/a/CC-MAIN-1.warc.gz")), "CC-MAIN-1");
        assert_eq!(output_stem(Path::new("x.warc.zst")), "x");
        assert_eq!(output_stem(Path::new("x.warc")), "x");
        assert_eq!(output_stem(Path::new("dir/y.warc.lz4")), "y");
    }
}
