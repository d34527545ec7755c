//! `dolma`: `<stem>.jsonl.zst`, one JSON document per line (`Document::write_json_line`) in
//! independent zstd frames of `frame_docs` documents, so readers can split a shard at frame
//! boundaries.
//!
//! Invariants: a shard with no documents holds one empty frame (every zstd reader accepts it;
//! a zero-byte file is not valid zstd).

use super::{OutputFormat, OutputOptions, ShardInfo, ShardWrite};
use crate::atomic::AtomicFile;
use crate::document::Document;
use std::io::{self, Write};
use std::path::Path;

/// The Dolma JSONL format.
pub struct Dolma {
    level: i32,
    frame_docs: u64,
}

impl Dolma {
    pub fn new(options: &OutputOptions) -> Dolma {
        Dolma {
            level: options.zstd_level,
            frame_docs: options.frame_docs.max(1),
        }
    }
}

impl OutputFormat for Dolma {
    fn name(&self) -> &'static str {
        "dolma"
    }

    fn options_key(&self) -> String {
        format!("zstd={}; frame_docs={}", self.level, self.frame_docs)
    }

    fn file_name(&self, stem: &str) -> String {
        format!("{stem}.jsonl.zst")
    }

    fn create(&self, dir: &Path, stem: &str) -> io::Result<Box<dyn ShardWrite>> {
        Ok(Box::new(DolmaShard {
            level: self.level,
            frame_docs: self.frame_docs,
            docs_in_frame: 0,
            documents: 0,
            encoder: None,
            idle: Some(AtomicFile::create(dir, &self.file_name(stem))?),
            line: Vec::with_capacity(1 << 16),
        }))
    }
}

/// One shard being written.
struct DolmaShard {
    level: i32,
    frame_docs: u64,
    docs_in_frame: u64,
    documents: u64,
    /// `Some` while a frame is open.
    encoder: Option<zstd::stream::Encoder<'static, AtomicFile>>,
    /// The file between frames.
    idle: Option<AtomicFile>,
    line: Vec<u8>,
}

impl DolmaShard {
    fn open_frame(&mut self) -> io::Result<&mut zstd::stream::Encoder<'static, AtomicFile>> {
        if self.encoder.is_none() {
            let file = self
                .idle
                .take()
                .ok_or_else(|| io::Error::other("shard writer already failed"))?;
            self.encoder = Some(zstd::stream::Encoder::new(file, self.level)?);
        }
        Ok(self.encoder.as_mut().expect("frame open"))
    }

    fn close_frame(&mut self) -> io::Result<()> {
        if let Some(encoder) = self.encoder.take() {
            self.idle = Some(encoder.finish()?);
            self.docs_in_frame = 0;
        }
        Ok(())
    }
}

/// Documents whose text is longer than this are serialised straight into the compressor.
const STREAM_ABOVE: usize = 1 << 20;

impl ShardWrite for DolmaShard {
    fn write(&mut self, doc: &Document) -> io::Result<()> {
        if doc.text.len() > STREAM_ABOVE {
            // A big document goes straight into the compressor: no second copy of it in a
            // line buffer (and none kept for the rest of the shard).
            let mut out = io::BufWriter::with_capacity(1 << 16, self.open_frame()?);
            doc.write_json_to(&mut out)?;
            out.flush()?;
        } else {
            let mut line = std::mem::take(&mut self.line);
            line.clear();
            doc.write_json_line(&mut line);
            let written = self.open_frame()?.write_all(&line);
            self.line = line;
            written?;
        }
        self.docs_in_frame += 1;
        self.documents += 1;
        if self.docs_in_frame >= self.frame_docs {
            self.close_frame()?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> io::Result<ShardInfo> {
        if self.documents == 0 {
            self.open_frame()?;
        }
        self.close_frame()?;
        let file = self
            .idle
            .take()
            .ok_or_else(|| io::Error::other("shard writer already failed"))?;
        Ok(ShardInfo {
            file: file.finish()?,
            documents: self.documents,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::tests::sample_document;
    use std::fs;

    fn shard(frame_docs: u64, docs: usize) -> (tempfile::TempDir, ShardInfo) {
        let dir = tempfile::tempdir().unwrap();
        let format = Dolma::new(&OutputOptions {
            zstd_level: 3,
            frame_docs,
            signals: false,
        });
        let mut w = format.create(dir.path(), "s").unwrap();
        for i in 0..docs {
            w.write(&sample_document(i)).unwrap();
        }
        assert!(!dir.path().join("s.jsonl.zst").exists());
        let info = w.finish().unwrap();
        (dir, info)
    }

    #[test]
    fn frames_roundtrip_and_rename() {
        let (dir, info) = shard(2, 5);
        assert_eq!(info.documents, 5);
        assert_eq!(info.file.path, dir.path().join("s.jsonl.zst"));
        let bytes = fs::read(&info.file.path).unwrap();
        assert_eq!(bytes.len() as u64, info.file.bytes);
        // 5 docs at 2 per frame = 3 frames: count zstd magic numbers.
        let frames = bytes
            .windows(4)
            .filter(|w| *w == [0x28, 0xb5, 0x2f, 0xfd])
            .count();
        assert_eq!(frames, 3);
        let text = String::from_utf8(zstd::stream::decode_all(&bytes[..]).unwrap()).unwrap();
        let ids: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].to_string())
            .collect();
        assert_eq!(ids.len(), 5);
        assert!(ids[4].contains("doc-4"), "{ids:?}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// A document over `STREAM_ABOVE` is streamed into the compressor: the same bytes as the
    /// line path, between small documents.
    #[test]
    fn a_big_document_is_streamed_to_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let mut big = sample_document(1);
        big.text = "a \"quoted\" line\n".repeat(STREAM_ABOVE / 8);
        assert!(big.text.len() > STREAM_ABOVE);
        let docs = [sample_document(0), big, sample_document(2)];
        let mut w = Dolma::new(&OutputOptions::default())
            .create(dir.path(), "s")
            .unwrap();
        let mut expected = Vec::new();
        for d in &docs {
            w.write(d).unwrap();
            d.write_json_line(&mut expected);
        }
        let info = w.finish().unwrap();
        let bytes = fs::read(&info.file.path).unwrap();
        assert!(zstd::stream::decode_all(&bytes[..]).unwrap() == expected);
    }

    #[test]
    fn empty_shard_is_one_empty_frame() {
        let (_dir, info) = shard(10, 0);
        assert_eq!(info.documents, 0);
        let bytes = fs::read(&info.file.path).unwrap();
        assert!(!bytes.is_empty());
        assert!(zstd::stream::decode_all(&bytes[..]).unwrap().is_empty());
    }

    #[test]
    fn dropped_shard_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = Dolma::new(&OutputOptions::default())
            .create(dir.path(), "s")
            .unwrap();
        w.write(&sample_document(0)).unwrap();
        drop(w);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
