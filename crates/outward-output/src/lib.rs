//! outward-output: the output side of outward. `document` is the one output document and its
//! Dolma JSON line; `format` the output formats behind one trait (`dolma` zstd JSONL, `wet`
//! Common Crawl WET); `atomic` the temp-then-rename files every output goes through;
//! `manifest` the per-directory record of finished inputs and the resume decision; `timings`
//! the log beside it of how long each input took; `lock` the named locks that keep one writer
//! per shard and per site store.
//!
//! Invariants: the only crate that writes files; an output name only ever appears for a
//! complete, fsynced file; a manifest line only for an output already in place.

pub mod atomic;
pub mod document;
pub mod format;
pub mod lock;
pub mod manifest;
pub mod timings;

use std::path::Path;

/// Output file stem of an input: its file name without `.warc`, `.warc.gz`, `.warc.zst`,
/// `.warc.lz4`, `.arc`, `.arc.gz` (`.warc*` tried first: `x.warc` is `x`, not `x.w`), else
/// without a last `.gz`/`.zst`. `x.arc` and `x.warc.gz` share the stem `x`, so the pipeline's
/// same-stem check refuses them together.
pub fn output_stem(input: &Path) -> String {
    let name = input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for suffix in [
        ".warc.gz",
        ".warc.zst",
        ".warc.lz4",
        ".warc",
        ".arc.gz",
        ".arc.zst",
        ".arc",
        ".gz",
        ".zst",
    ] {
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
        assert_eq!(output_stem(Path::new("dir/example.arc.gz")), "example");
        assert_eq!(output_stem(Path::new("example.arc")), "example");
        assert_eq!(output_stem(Path::new("example.arc.zst")), "example");
        // `.warc` names never lose just their `.arc` tail.
        assert_eq!(output_stem(Path::new("a.warc")), "a");
        assert_eq!(output_stem(Path::new("a.warc.gz")), "a");
        // A bare suffix keeps its name.
        assert_eq!(output_stem(Path::new(".arc")), ".arc");
    }
}
