//! Output formats behind one trait: how an input's documents become one output file. Found
//! by name in [`FORMATS`] (`--output-format NAME`): `dolma` (zstd JSONL shards, the default;
//! Dolma and DataTrove read them as they are), `wet` (Common Crawl's WET: a gzipped WARC of
//! `conversion` records, read by warcio and DataTrove's `WarcReader`) and `parquet` (the Dolma
//! line's fields as columns; pyarrow, DuckDB, Hugging Face `datasets`, DataTrove's
//! `ParquetReader`; behind the `parquet` feature, on by default).
//!
//! Invariants: every format writes through [`crate::atomic::AtomicFile`] (a final name only
//! for a complete file); the bytes depend only on the documents and the format's options
//! (no wall-clock time, no randomness); an input with no documents still gets a valid file.

pub mod dolma;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod wet;

use crate::atomic::FileInfo;
use crate::document::Document;
use std::io;
use std::path::Path;

/// Settings of the output formats.
#[derive(Debug, Clone)]
pub struct OutputOptions {
    /// zstd level of `dolma` shards.
    pub zstd_level: i32,
    /// Documents per zstd frame of `dolma` shards.
    pub frame_docs: u64,
    /// Documents carry `metadata.signals` (`--signals`): `parquet`'s schema has their struct
    /// (without, it has no such columns).
    pub signals: bool,
}

impl Default for OutputOptions {
    fn default() -> Self {
        OutputOptions {
            zstd_level: 3,
            frame_docs: 1000,
            signals: false,
        }
    }
}

/// An output format.
pub trait OutputFormat: Send + Sync {
    /// Its name in [`FORMATS`].
    fn name(&self) -> &'static str;
    /// The settings it reads, as a stable string for a run's config hash.
    fn options_key(&self) -> String;
    /// The output file name for an input whose stem is `stem`.
    fn file_name(&self, stem: &str) -> String;
    /// Starts the output of one input as `dir/file_name(stem)`.
    fn create(&self, dir: &Path, stem: &str) -> io::Result<Box<dyn ShardWrite>>;
}

/// The output file of one input, open for documents in input order.
pub trait ShardWrite {
    fn write(&mut self, doc: &Document) -> io::Result<()>;
    /// Completes the file and renames it into place.
    fn finish(self: Box<Self>) -> io::Result<ShardInfo>;
}

/// What a finished output file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardInfo {
    pub file: FileInfo,
    pub documents: u64,
}

/// An output format as the registry knows it.
pub struct FormatInfo {
    /// `--output-format NAME`.
    pub name: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    build: fn(&OutputOptions) -> Box<dyn OutputFormat>,
}

impl FormatInfo {
    pub fn build(&self, options: &OutputOptions) -> Box<dyn OutputFormat> {
        (self.build)(options)
    }
}

/// Every output format, the default first.
pub static FORMATS: &[FormatInfo] = &[
    FormatInfo {
        name: "dolma",
        summary: "<stem>.jsonl.zst: Dolma JSON lines in zstd frames (DataTrove, Dolma, HF datasets)",
        build: |o| Box::new(dolma::Dolma::new(o)),
    },
    FormatInfo {
        name: "wet",
        summary: "<stem>.warc.wet.gz: Common Crawl WET, one gzipped conversion record per document",
        build: |_| Box::new(wet::Wet),
    },
    #[cfg(feature = "parquet")]
    FormatInfo {
        name: "parquet",
        summary: "<stem>.parquet: the Dolma line's fields as typed columns, metadata a struct (pyarrow, DuckDB, HF datasets, DataTrove)",
        build: |o| Box::new(parquet::Parquet::new(o)),
    },
];

/// The format called `name`.
pub fn build(name: &str, options: &OutputOptions) -> Result<Box<dyn OutputFormat>, UnknownFormat> {
    FORMATS
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.build(options))
        .ok_or_else(|| UnknownFormat(name.to_string()))
}

/// An output format name the registry does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl std::fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = FORMATS.iter().map(|f| f.name).collect();
        write!(
            f,
            "unknown output format {:?} (formats: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownFormat {}
