//! Atomic output files: every output file is written under a temporary name beside its
//! final one (`.NAME.tmp-PID`), hashed (SHA-256) and counted as it is written, fsynced, and
//! renamed to its final name only when complete. Also: sweeping the temporary files of runs
//! that were killed, and the SHA-256 helpers of the manifest and config hash.
//!
//! Invariants: a final name only ever appears for a complete, fsynced file; an `AtomicFile`
//! dropped unfinished removes its temporary file; the sweep never touches a file whose
//! writer process is alive.

use sha2::{Digest, Sha256};
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// What a finished file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    pub path: PathBuf,
    pub sha256: String,
    pub bytes: u64,
}

/// A file written under a temporary name and renamed into place by [`AtomicFile::finish`].
pub struct AtomicFile {
    tmp_path: PathBuf,
    final_path: PathBuf,
    /// `None` once finished.
    inner: Option<BufWriter<File>>,
    hasher: Sha256,
    bytes: u64,
}

/// The temporary name of `name` while this process writes it.
pub fn temp_name(name: &str) -> String {
    format!(".{name}.tmp-{}", std::process::id())
}

impl AtomicFile {
    /// Starts `dir/name` (under its temporary name).
    pub fn create(dir: &Path, name: &str) -> io::Result<AtomicFile> {
        let final_path = dir.join(name);
        let tmp_path = dir.join(temp_name(name));
        let file = File::create(&tmp_path)?;
        Ok(AtomicFile {
            tmp_path,
            final_path,
            inner: Some(BufWriter::with_capacity(1 << 20, file)),
            hasher: Sha256::new(),
            bytes: 0,
        })
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Flushes, fsyncs, renames to the final name and makes the rename durable.
    pub fn finish(mut self) -> io::Result<FileInfo> {
        let inner = self
            .inner
            .take()
            .ok_or_else(|| io::Error::other("file already finished"))?;
        // Any failure here (a full disk shows first in the last flush) removes the temporary
        // file: `inner` is already taken, so `Drop` would not.
        let done = inner
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|file| file.sync_all())
            .and_then(|()| fs::rename(&self.tmp_path, &self.final_path));
        if let Err(e) = done {
            let _ = fs::remove_file(&self.tmp_path);
            return Err(e);
        }
        sync_dir(self.final_path.parent().unwrap_or(Path::new(".")));
        Ok(FileInfo {
            path: self.final_path.clone(),
            sha256: hex(&std::mem::take(&mut self.hasher).finalize()),
            bytes: self.bytes,
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let inner = self
            .inner
            .as_mut()
            .ok_or_else(|| io::Error::other("file already finished"))?;
        let n = inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.inner.as_mut() {
            Some(inner) => inner.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.inner.take().is_some() {
            let _ = fs::remove_file(&self.tmp_path);
        }
    }
}

/// Best effort: makes a rename in `dir` durable on filesystems that need it.
pub fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Removes the temporary files (`.NAME.tmp-PID`, and the `manifest.jsonl.tmp-PID` of older
/// versions) that a killed run left in `dir`. A file whose writer process is still alive (a
/// concurrent job sharing the directory) is left alone; liveness is read from `/proc`, so
/// where there is no `/proc` nothing is removed. Returns how many files were removed.
pub fn remove_stale_temp_files(dir: &Path) -> usize {
    remove_left_by_dead_processes(
        dir,
        |name| {
            let is_ours = name.starts_with('.') || name.starts_with("manifest.jsonl.tmp-");
            is_ours
                .then(|| name.rsplit_once(".tmp-").map(|(_, pid)| pid))
                .flatten()
                .and_then(|pid| pid.parse().ok())
        },
        |path| fs::remove_file(path),
    )
}

/// Removes with `remove` each entry of `dir` whose name `writer_of` reads a process id from,
/// when that process is no longer alive (read from `/proc`: where there is none, nothing is
/// removed). Returns how many entries were removed.
pub fn remove_left_by_dead_processes(
    dir: &Path,
    writer_of: impl Fn(&str) -> Option<u32>,
    remove: impl Fn(&Path) -> io::Result<()>,
) -> usize {
    if !Path::new("/proc/self").exists() {
        return 0;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let Some(pid) = writer_of(&entry.file_name().to_string_lossy()) else {
            continue;
        };
        let alive = Path::new(&format!("/proc/{pid}")).exists();
        if !alive && remove(&entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// SHA-256 of a file's bytes, hex.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// SHA-256 of a string, hex (config hashes).
pub fn sha256_hex(data: &str) -> String {
    hex(&Sha256::digest(data.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_temp_name_exists_until_finish() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = AtomicFile::create(dir.path(), "out.bin").unwrap();
        f.write_all(b"hello").unwrap();
        assert!(!dir.path().join("out.bin").exists());
        assert!(dir.path().join(temp_name("out.bin")).exists());
        let info = f.finish().unwrap();
        assert_eq!(fs::read(&info.path).unwrap(), b"hello");
        assert_eq!(
            (info.bytes, sha256_file(&info.path).unwrap()),
            (5, info.sha256)
        );
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn dropped_file_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = AtomicFile::create(dir.path(), "out.bin").unwrap();
        f.write_all(b"partial").unwrap();
        drop(f);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn stale_temp_files_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // A pid above the kernel's maximum (4194304) is never alive.
        let dead = dir.path().join(".a.jsonl.zst.tmp-999999999");
        let dead_wet = dir.path().join(".a.warc.wet.gz.tmp-999999999");
        let dead_manifest = dir.path().join("manifest.jsonl.tmp-999999999");
        let live = dir.path().join(temp_name("b.jsonl.zst"));
        let shard = dir.path().join("a.jsonl.zst");
        let lock = dir.path().join(".manifest.lock");
        for p in [&dead, &dead_wet, &dead_manifest, &live, &shard, &lock] {
            fs::write(p, b"x").unwrap();
        }
        assert_eq!(remove_stale_temp_files(dir.path()), 3);
        assert!(!dead.exists() && !dead_wet.exists() && !dead_manifest.exists());
        assert!(live.exists(), "a live job's temp file stays");
        assert!(shard.exists() && lock.exists());
    }
}
