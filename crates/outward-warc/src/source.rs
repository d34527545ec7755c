//! Where an input's bytes come from. The reader asks a [`ByteSource`] for a stream that starts
//! at an offset: at 0 to read the file, and again at later offsets after damage (the resyncs
//! look for the next record or gzip member, then read on from there). A local file seeks; a
//! remote object (`outward-remote`) asks for a byte range. The reader never learns which. An
//! input's `extension` is read from its name (a path or a URL), as the decompressor is picked.
//!
//! Invariants: a source names its bytes as they are at the time they are read, every stream it
//! opens reads the same bytes at the same offsets (a remote source refuses an object that
//! changed between requests), and [`ByteSource::len`] is the total size in bytes.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A stream of a source's bytes that can also move: `Seek` to another offset (a remote stream
/// opens a new range there; fastwarc asks its position through `Seek`).
pub trait SourceStream: Read + Seek + Send + 'static {}
impl<T: Read + Seek + Send + 'static> SourceStream for T {}

/// Bytes that can be read from any offset, again and again.
pub trait ByteSource: Send + Sync + fmt::Debug {
    /// The input as the user named it (a path or a URL): used in messages.
    fn name(&self) -> &str;

    /// Total size in bytes.
    fn len(&self) -> io::Result<u64>;

    /// Whether the source holds no bytes.
    fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// A stream of the bytes from `offset` on (at or past the end: an empty stream).
    fn open_at(&self, offset: u64) -> io::Result<Box<dyn SourceStream>>;
}

/// A file on a local file system.
#[derive(Debug, Clone)]
pub struct LocalFile {
    path: PathBuf,
    name: String,
}

impl LocalFile {
    /// The file at `path`; it is opened when read (a missing file errs then).
    pub fn new(path: &Path) -> LocalFile {
        LocalFile {
            path: path.to_path_buf(),
            name: path.to_string_lossy().into_owned(),
        }
    }

    /// Shared, as the reader takes it.
    pub fn shared(path: &Path) -> Arc<dyn ByteSource> {
        Arc::new(LocalFile::new(path))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl ByteSource for LocalFile {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> io::Result<u64> {
        Ok(std::fs::metadata(&self.path)?.len())
    }

    fn open_at(&self, offset: u64) -> io::Result<Box<dyn SourceStream>> {
        let mut file = File::open(&self.path)?;
        if offset > 0 {
            file.seek(SeekFrom::Start(offset))?;
        }
        Ok(Box::new(file))
    }
}

/// Bytes held in memory (tests, and callers that already hold a whole archive).
#[derive(Clone)]
pub struct InMemory {
    name: String,
    bytes: Arc<[u8]>,
}

impl InMemory {
    pub fn new(name: &str, bytes: impl Into<Arc<[u8]>>) -> InMemory {
        InMemory {
            name: name.to_string(),
            bytes: bytes.into(),
        }
    }
}

impl fmt::Debug for InMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InMemory")
            .field("name", &self.name)
            .field("len", &self.bytes.len())
            .finish()
    }
}

impl ByteSource for InMemory {
    fn name(&self) -> &str {
        &self.name
    }

    fn len(&self) -> io::Result<u64> {
        Ok(self.bytes.len() as u64)
    }

    fn open_at(&self, offset: u64) -> io::Result<Box<dyn SourceStream>> {
        let mut cursor = io::Cursor::new(SharedBytes(Arc::clone(&self.bytes)));
        cursor.set_position(offset);
        Ok(Box::new(cursor))
    }
}

struct SharedBytes(Arc<[u8]>);

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// Reads into `buf` until it is full or the stream ends: the bytes read (`None` on an error).
pub(crate) fn read_full(stream: &mut dyn Read, buf: &mut [u8]) -> Option<usize> {
    let mut n = 0;
    while n < buf.len() {
        match stream.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(n)
}

/// The extension of an input's name (a path, or a URL without its query).
pub(crate) fn extension(name: &str) -> Option<&str> {
    let name = name.split(['?', '#']).next().unwrap_or(name);
    let file = name.rsplit('/').next().unwrap_or(name);
    file.rsplit_once('.').map(|(_, ext)| ext)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_reads_the_same_bytes_from_any_offset() {
        let bytes: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.warc");
        std::fs::write(&path, &bytes).unwrap();
        let sources: [Arc<dyn ByteSource>; 2] = [
            LocalFile::shared(&path),
            Arc::new(InMemory::new("x.warc", bytes.clone())),
        ];
        for source in sources {
            assert_eq!(source.len().unwrap(), 5000, "{source:?}");
            for offset in [0u64, 1, 4095, 4999, 5000, 7000] {
                let mut got = Vec::new();
                source
                    .open_at(offset)
                    .unwrap()
                    .read_to_end(&mut got)
                    .unwrap();
                let want = &bytes[(offset as usize).min(bytes.len())..];
                assert_eq!(got, want, "{source:?} at {offset}");
            }
            // A stream moves: fastwarc seeks it.
            let mut s = source.open_at(10).unwrap();
            assert_eq!(s.stream_position().unwrap(), 10);
            s.seek(SeekFrom::Start(3000)).unwrap();
            let mut b = [0u8; 4];
            s.read_exact(&mut b).unwrap();
            assert_eq!(b, bytes[3000..3004]);
        }
    }

    #[test]
    fn a_missing_file_errs_when_read() {
        let source = LocalFile::new(Path::new("/nonexistent/outward/x.warc"));
        assert!(source.len().is_err());
        assert!(source.open_at(0).is_err());
    }
}
