//! Site store files: the bytes of `outward_core::site::store`, zstd-compressed, written under
//! a temporary name and renamed when complete (a killed `sites build` leaves the old store
//! whole). One file holds any number of hosts; `outward sites merge` adds stores built from
//! disjoint shards of a crawl into one.
//!
//! Invariants: reading never panics on a damaged file (an error naming the path); the same
//! builder always gives the same file bytes (zstd level and store layout are fixed).

use outward_core::SiteMemoryBuilder;
use outward_core::site::store;
use outward_output::atomic::AtomicFile;
use std::io::{self, Read, Write};
use std::path::Path;

/// zstd level of store files (stores are written once per build and read once per run).
const STORE_ZSTD_LEVEL: i32 = 9;
/// A store file decompressing to more than this is refused (bounded memory).
const MAX_STORE_BYTES: u64 = 16 << 30;

/// Reads the store at `path`.
pub fn read_store(path: &Path) -> io::Result<SiteMemoryBuilder> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    zstd::stream::read::Decoder::new(file)?
        .take(MAX_STORE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            io::Error::new(io::ErrorKind::InvalidData, format!("not a site store: {e}"))
        })?;
    if bytes.len() as u64 > MAX_STORE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "site store larger than 16 GiB once decompressed",
        ));
    }
    store::from_bytes(&bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Writes `builder` to `path` atomically; returns the file's size.
pub fn write_store(path: &Path, builder: &SiteMemoryBuilder) -> io::Result<u64> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "store path names no file"))?
        .to_string_lossy()
        .into_owned();
    let bytes = store::to_bytes(builder);
    let compressed = zstd::stream::encode_all(&bytes[..], STORE_ZSTD_LEVEL)?;
    let mut file = AtomicFile::create(dir, &name)?;
    file.write_all(&compressed)?;
    Ok(file.finish()?.bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use outward_core::site::PagePrints;

    #[test]
    fn write_then_read_and_damage_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let mut b = SiteMemoryBuilder::default();
        for p in 0..4 {
            b.add(PagePrints {
                host: "a.example".into(),
                url: format!("https://a.example/{p}"),
                page: p,
                elements: vec![1, 2, 10 + p],
                leaves: Default::default(),
                layout: Default::default(),
            });
        }
        let path = dir.path().join("sites.store");
        let size = write_store(&path, &b).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
        assert_eq!(read_store(&path).unwrap(), b);
        // Same builder, same bytes.
        let again = dir.path().join("again.store");
        write_store(&again, &b).unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&again).unwrap()
        );
        // No temporary file left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        let raw = std::fs::read(&path).unwrap();
        std::fs::write(&path, &raw[..raw.len() / 2]).unwrap();
        assert!(read_store(&path).is_err());
        std::fs::write(&path, b"not zstd at all").unwrap();
        assert!(read_store(&path).is_err());
    }
}
