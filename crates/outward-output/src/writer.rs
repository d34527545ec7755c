//! Writer stage: the only code that touches output files.
//!
//! Owns: shard files (`DIR/<stem>.jsonl.zst`, independent zstd frames of about
//! `frame_docs` documents, written under a temporary name, fsynced, renamed when complete),
//! and the manifest (`DIR/manifest.jsonl`: a line per finished input, appended and fsynced as
//! each input finishes, compacted and sorted at the end of a run) with the resume decision.
//!
//! Invariants: a shard name only ever appears for a complete, fsynced file; a temp file that is
//! dropped unfinished is removed; a manifest line is only appended after its shard was renamed,
//! so a run killed at any point loses nothing and duplicates nothing when started again.

use outward_warc::counts::Counts;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Name of the manifest inside the output directory.
pub const MANIFEST: &str = "manifest.jsonl";

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

/// Output shard file name of an input.
pub fn output_name(input: &Path) -> String {
    format!("{}.jsonl.zst", output_stem(input))
}

/// Passes bytes through to a file while hashing and counting them.
struct HashingFile {
    inner: BufWriter<File>,
    hasher: Sha256,
    bytes: u64,
}

impl Write for HashingFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What a finished shard is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardInfo {
    pub path: PathBuf,
    pub sha256: String,
    pub bytes: u64,
    pub documents: u64,
}

/// Writes one shard: JSON lines into zstd frames of `frame_docs` documents.
pub struct ShardWriter {
    tmp_path: PathBuf,
    final_path: PathBuf,
    level: i32,
    frame_docs: u64,
    docs_in_frame: u64,
    documents: u64,
    /// `Some` while a frame is open.
    encoder: Option<zstd::stream::Encoder<'static, HashingFile>>,
    /// The file between frames.
    idle: Option<HashingFile>,
    finished: bool,
}

impl ShardWriter {
    pub fn create(dir: &Path, file_name: &str, level: i32, frame_docs: u64) -> io::Result<Self> {
        let final_path = dir.join(file_name);
        let tmp_path = dir.join(format!(".{file_name}.tmp-{}", std::process::id()));
        let file = File::create(&tmp_path)?;
        Ok(ShardWriter {
            tmp_path,
            final_path,
            level,
            frame_docs: frame_docs.max(1),
            docs_in_frame: 0,
            documents: 0,
            encoder: None,
            idle: Some(HashingFile {
                inner: BufWriter::with_capacity(1 << 20, file),
                hasher: Sha256::new(),
                bytes: 0,
            }),
            finished: false,
        })
    }

    /// Appends one complete JSON line (ending in `\n`).
    pub fn write_line(&mut self, line: &[u8]) -> io::Result<()> {
        if self.encoder.is_none() {
            let file = self
                .idle
                .take()
                .ok_or_else(|| io::Error::other("shard writer already failed"))?;
            self.encoder = Some(zstd::stream::Encoder::new(file, self.level)?);
        }
        let encoder = self.encoder.as_mut().expect("frame open");
        encoder.write_all(line)?;
        self.docs_in_frame += 1;
        self.documents += 1;
        if self.docs_in_frame >= self.frame_docs {
            self.close_frame()?;
        }
        Ok(())
    }

    fn close_frame(&mut self) -> io::Result<()> {
        if let Some(encoder) = self.encoder.take() {
            self.idle = Some(encoder.finish()?);
            self.docs_in_frame = 0;
        }
        Ok(())
    }

    /// Closes the last frame, fsyncs, renames to the final name. A shard with no documents
    /// holds one empty frame, so every zstd reader accepts it.
    pub fn finish(mut self) -> io::Result<ShardInfo> {
        if self.documents == 0 && self.encoder.is_none() {
            let file = self
                .idle
                .take()
                .ok_or_else(|| io::Error::other("shard writer already failed"))?;
            self.encoder = Some(zstd::stream::Encoder::new(file, self.level)?);
        }
        self.close_frame()?;
        let mut file = self
            .idle
            .take()
            .ok_or_else(|| io::Error::other("shard writer already failed"))?;
        file.flush()?;
        let HashingFile {
            inner,
            hasher,
            bytes,
        } = file;
        let handle = inner.into_inner().map_err(|e| e.into_error())?;
        handle.sync_all()?;
        drop(handle);
        fs::rename(&self.tmp_path, &self.final_path)?;
        sync_dir(self.final_path.parent().unwrap_or(Path::new(".")));
        self.finished = true;
        Ok(ShardInfo {
            path: self.final_path.clone(),
            sha256: hex(&hasher.finalize()),
            bytes,
            documents: self.documents,
        })
    }
}

impl Drop for ShardWriter {
    fn drop(&mut self) {
        if !self.finished {
            let _ = fs::remove_file(&self.tmp_path);
        }
    }
}

fn sync_dir(dir: &Path) {
    // Best effort: makes the rename durable on filesystems that need it.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Removes temporary files (`.<shard>.tmp-<pid>`, `manifest.jsonl.tmp-<pid>`) that a killed
/// run left in `dir`. A file whose writer process is still alive (a concurrent job sharing
/// the directory) is left alone; liveness is read from `/proc`, so where there is no `/proc`
/// nothing is removed. Returns how many files were removed.
pub fn remove_stale_temp_files(dir: &Path) -> usize {
    if !Path::new("/proc/self").exists() {
        return 0;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_ours = (name.starts_with('.') && name.contains(".jsonl.zst.tmp-"))
            || name.starts_with(&format!("{MANIFEST}.tmp-"));
        let Some(pid) = is_ours
            .then(|| name.rsplit_once(".tmp-").map(|(_, pid)| pid))
            .flatten()
        else {
            continue;
        };
        let alive = pid
            .parse::<u32>()
            .is_ok_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
        if !alive && fs::remove_file(entry.path()).is_ok() {
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

/// Identity of an input file: a rerun treats it as the same input while all three match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputIdentity {
    pub path: String,
    pub size: u64,
    pub mtime_ns: i128,
}

impl InputIdentity {
    pub fn of(path: &Path) -> io::Result<InputIdentity> {
        let meta = fs::metadata(path)?;
        let canonical = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos() as i128)
            .unwrap_or(0);
        Ok(InputIdentity {
            path: canonical.to_string_lossy().into_owned(),
            size: meta.len(),
            mtime_ns,
        })
    }
}

/// One manifest line: the record of a finished input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestEntry {
    pub input: String,
    pub identity: InputIdentity,
    pub output: String,
    pub output_sha256: String,
    pub output_bytes: u64,
    pub counts: Counts,
    /// "complete" or "partial".
    pub status: String,
    pub error: Option<String>,
    pub error_offset: Option<u64>,
    pub tool_version: String,
    pub config_hash: String,
}

impl ManifestEntry {
    pub fn is_complete(&self) -> bool {
        self.status == "complete"
    }
}

/// The manifest of an output directory.
///
/// Several processes may share one output directory (a Slurm array of `--shard` jobs): every
/// change of the file happens under an exclusive lock on `DIR/.manifest.lock` (a file that is
/// never replaced, unlike the manifest itself), and compaction re-reads the file under that
/// lock, so no process drops another's lines.
pub struct Manifest {
    path: PathBuf,
    lock_path: PathBuf,
    /// Latest entry per canonical input path.
    entries: BTreeMap<String, ManifestEntry>,
}

/// Latest entry per input in manifest text; unreadable lines (a torn last line after a
/// crash) are ignored.
fn parse_manifest(text: &str) -> BTreeMap<String, ManifestEntry> {
    let mut entries = BTreeMap::new();
    for line in text.lines() {
        if let Ok(entry) = serde_json::from_str::<ManifestEntry>(line) {
            entries.insert(entry.identity.path.clone(), entry);
        }
    }
    entries
}

impl Manifest {
    /// Reads `dir/manifest.jsonl` (absent is empty).
    pub fn open(dir: &Path) -> io::Result<Manifest> {
        let manifest = Manifest {
            path: dir.join(MANIFEST),
            lock_path: dir.join(".manifest.lock"),
            entries: BTreeMap::new(),
        };
        let entries = manifest.locked(|| match fs::read_to_string(&manifest.path) {
            Ok(text) => Ok(parse_manifest(&text)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(BTreeMap::new()),
            Err(e) => Err(e),
        })?;
        Ok(Manifest {
            entries,
            ..manifest
        })
    }

    /// Runs `f` holding the directory's manifest lock (released when the handle closes).
    fn locked<T>(&self, f: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.lock_path)?;
        lock.lock()?;
        let result = f();
        drop(lock);
        result
    }

    /// The entry that lets a rerun skip this input: same identity and config, complete, and
    /// its output still there with the recorded checksum.
    pub fn reusable(
        &self,
        dir: &Path,
        identity: &InputIdentity,
        config_hash: &str,
    ) -> Option<&ManifestEntry> {
        let entry = self.entries.get(&identity.path)?;
        if &entry.identity != identity || entry.config_hash != config_hash || !entry.is_complete() {
            return None;
        }
        let out = dir.join(&entry.output);
        let meta = fs::metadata(&out).ok()?;
        if meta.len() != entry.output_bytes {
            return None;
        }
        (sha256_file(&out).ok()? == entry.output_sha256).then_some(entry)
    }

    /// Appends and fsyncs one line (a torn write leaves at most one unparseable last line).
    pub fn append(&mut self, entry: ManifestEntry) -> io::Result<()> {
        let mut line = serde_json::to_vec(&entry).map_err(io::Error::other)?;
        line.push(b'\n');
        self.locked(|| {
            // A partial line left by a crash would glue onto this one: start on a fresh line.
            if !ends_with_newline(&self.path) {
                line.insert(0, b'\n');
            }
            let mut file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)?;
            file.write_all(&line)?;
            file.sync_data()
        })?;
        self.entries.insert(entry.identity.path.clone(), entry);
        Ok(())
    }

    /// Rewrites the manifest with the latest entry per input, sorted by input path,
    /// atomically, keeping the lines other processes appended meanwhile.
    pub fn compact(&mut self) -> io::Result<()> {
        let entries = self.locked(|| {
            let entries = match fs::read_to_string(&self.path) {
                Ok(text) => parse_manifest(&text),
                Err(e) if e.kind() == io::ErrorKind::NotFound => BTreeMap::new(),
                Err(e) => return Err(e),
            };
            let tmp = self
                .path
                .with_extension(format!("jsonl.tmp-{}", std::process::id()));
            let mut out = BufWriter::new(File::create(&tmp)?);
            for entry in entries.values() {
                serde_json::to_writer(&mut out, entry).map_err(io::Error::other)?;
                out.write_all(b"\n")?;
            }
            let file = out.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            fs::rename(&tmp, &self.path)?;
            sync_dir(self.path.parent().unwrap_or(Path::new(".")));
            Ok(entries)
        })?;
        self.entries = entries;
        Ok(())
    }

    pub fn entries(&self) -> impl Iterator<Item = &ManifestEntry> {
        self.entries.values()
    }
}

fn ends_with_newline(path: &Path) -> bool {
    use std::io::{Seek, SeekFrom};
    let Ok(mut f) = File::open(path) else {
        return true;
    };
    if f.seek(SeekFrom::End(-1)).is_err() {
        return true;
    }
    let mut b = [0u8; 1];
    f.read_exact(&mut b).is_ok() && b[0] == b'\n'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        assert_eq!(output_stem(Path::new("/a/CC-MAIN-1.warc.gz")), "CC-MAIN-1");
        assert_eq!(output_stem(Path::new("x.warc.zst")), "x");
        assert_eq!(output_stem(Path::new("x.warc")), "x");
        assert_eq!(output_name(Path::new("dir/y.warc.gz")), "y.jsonl.zst");
    }

    #[test]
    fn shard_frames_roundtrip_and_rename() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = ShardWriter::create(dir.path(), "s.jsonl.zst", 3, 2).unwrap();
        for i in 0..5 {
            w.write_line(format!("{{\"n\":{i}}}\n").as_bytes()).unwrap();
        }
        // Only the temp name exists before finish.
        assert!(!dir.path().join("s.jsonl.zst").exists());
        let info = w.finish().unwrap();
        assert_eq!(info.documents, 5);
        let bytes = fs::read(&info.path).unwrap();
        assert_eq!(bytes.len() as u64, info.bytes);
        assert_eq!(sha256_file(&info.path).unwrap(), info.sha256);
        // 5 docs at 2 per frame = 3 frames: count zstd magic numbers.
        let frames = bytes
            .windows(4)
            .filter(|w| *w == [0x28, 0xb5, 0x2f, 0xfd])
            .count();
        assert_eq!(frames, 3);
        let text = zstd::stream::decode_all(&bytes[..]).unwrap();
        assert_eq!(String::from_utf8(text).unwrap().lines().count(), 5);
        // No temp files left.
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn empty_shard_is_one_empty_frame() {
        let dir = tempfile::tempdir().unwrap();
        let info = ShardWriter::create(dir.path(), "e.jsonl.zst", 3, 10)
            .unwrap()
            .finish()
            .unwrap();
        assert_eq!(info.documents, 0);
        let bytes = fs::read(&info.path).unwrap();
        assert!(!bytes.is_empty());
        assert!(zstd::stream::decode_all(&bytes[..]).unwrap().is_empty());
    }

    #[test]
    fn stale_temp_files_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // A pid above the kernel's maximum (4194304) is never alive.
        let dead = dir.path().join(".a.jsonl.zst.tmp-999999999");
        let dead_manifest = dir.path().join("manifest.jsonl.tmp-999999999");
        let live = dir
            .path()
            .join(format!(".b.jsonl.zst.tmp-{}", std::process::id()));
        let shard = dir.path().join("a.jsonl.zst");
        for p in [&dead, &dead_manifest, &live, &shard] {
            fs::write(p, b"x").unwrap();
        }
        assert_eq!(remove_stale_temp_files(dir.path()), 2);
        assert!(!dead.exists() && !dead_manifest.exists());
        assert!(live.exists(), "a live job's temp file stays");
        assert!(shard.exists());
    }

    #[test]
    fn dropped_writer_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = ShardWriter::create(dir.path(), "s.jsonl.zst", 3, 2).unwrap();
        w.write_line(b"{}\n").unwrap();
        drop(w);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn manifest_reuse_rules() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.warc");
        fs::write(&input, b"data").unwrap();
        let identity = InputIdentity::of(&input).unwrap();
        let mut w = ShardWriter::create(dir.path(), "in.jsonl.zst", 3, 10).unwrap();
        w.write_line(b"{}\n").unwrap();
        let info = w.finish().unwrap();
        let entry = ManifestEntry {
            input: "in.warc".into(),
            identity: identity.clone(),
            output: "in.jsonl.zst".into(),
            output_sha256: info.sha256.clone(),
            output_bytes: info.bytes,
            counts: Counts::default(),
            status: "complete".into(),
            error: None,
            error_offset: None,
            tool_version: "t".into(),
            config_hash: "c1".into(),
        };
        let mut m = Manifest::open(dir.path()).unwrap();
        m.append(entry.clone()).unwrap();
        drop(m);
        // A torn line after a crash is ignored.
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.path().join(MANIFEST))
            .unwrap();
        f.write_all(b"{\"input\":\"tor").unwrap();
        drop(f);
        let mut m = Manifest::open(dir.path()).unwrap();
        assert!(m.reusable(dir.path(), &identity, "c1").is_some());
        assert!(
            m.reusable(dir.path(), &identity, "c2").is_none(),
            "config change reprocesses"
        );
        // Corrupted output is not reusable.
        fs::write(
            &info.path,
            b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        )
        .unwrap();
        assert!(m.reusable(dir.path(), &identity, "c1").is_none());
        // Appending after a torn line still yields parseable lines; compaction keeps one.
        m.append(entry.clone()).unwrap();
        m.compact().unwrap();
        let text = fs::read_to_string(dir.path().join(MANIFEST)).unwrap();
        assert_eq!(text.lines().count(), 1);
        assert!(serde_json::from_str::<ManifestEntry>(text.lines().next().unwrap()).is_ok());
    }

    #[test]
    fn compaction_keeps_lines_of_another_process() {
        let dir = tempfile::tempdir().unwrap();
        let entry = |path: &str| ManifestEntry {
            input: path.into(),
            identity: InputIdentity {
                path: path.into(),
                size: 1,
                mtime_ns: 1,
            },
            output: format!("{path}.jsonl.zst"),
            output_sha256: String::new(),
            output_bytes: 0,
            counts: Counts::default(),
            status: "complete".into(),
            error: None,
            error_offset: None,
            tool_version: "t".into(),
            config_hash: "c".into(),
        };
        // Two jobs open the same directory, each appends its own input.
        let mut a = Manifest::open(dir.path()).unwrap();
        let mut b = Manifest::open(dir.path()).unwrap();
        a.append(entry("/in/a")).unwrap();
        b.append(entry("/in/b")).unwrap();
        // Job a compacts knowing only its own entry: b's line must survive.
        a.compact().unwrap();
        b.compact().unwrap();
        let text = fs::read_to_string(dir.path().join(MANIFEST)).unwrap();
        let inputs: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<ManifestEntry>(l).unwrap().input)
            .collect();
        assert_eq!(inputs, ["/in/a", "/in/b"]);
        assert_eq!(a.entries().count(), 2);
    }
}
