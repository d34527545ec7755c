//! The manifest of an output directory (`DIR/manifest.jsonl`): a line per finished input —
//! its identity, its output file with SHA-256 and size, counts, status, tool version, config
//! hash — appended and fsynced as each input finishes, compacted and sorted at the end of a
//! run; and the resume decision made from it.
//!
//! Invariants: a line is appended only after its output file was renamed into place, so a run
//! killed at any moment loses nothing and duplicates nothing when started again; every change
//! of the file happens under the directory's lock, so concurrent jobs keep each other's lines.

use crate::atomic::{AtomicFile, sha256_file};
use crate::timings::{InputTiming, TIMINGS, current_timings, parse_timings};
use outward_base::counts::Counts;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

/// Name of the manifest inside the output directory.
pub const MANIFEST: &str = "manifest.jsonl";

/// Identity of an input: a rerun treats it as the same input while all of it matches. A
/// remote object's `path` is its URL, `mtime_ns` its `Last-Modified`, and `etag` its `ETag`
/// (absent for files, so their lines are as before).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputIdentity {
    pub path: String,
    pub size: u64,
    pub mtime_ns: i128,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
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
            etag: None,
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
    /// "complete", "partial" (cut or damaged: its good records are written), "empty" (no
    /// record at all: a failed download looks like this) or "failed" (not read at all: no
    /// output; `error` says why).
    pub status: String,
    pub error: Option<String>,
    pub error_offset: Option<u64>,
    pub tool_version: String,
    pub config_hash: String,
    /// The settings that decided the output, by name (`--lang`: `en`), whose hash is
    /// `config_hash`: a rerun with other settings names what changed. Absent from lines
    /// written before it existed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub settings: BTreeMap<String, String>,
}

impl ManifestEntry {
    pub fn is_complete(&self) -> bool {
        self.status == "complete"
    }

    /// An input read to its end without records: its output is an empty shard.
    pub fn is_empty_input(&self) -> bool {
        self.status == "empty"
    }

    /// The line of an input that could not be read at all (missing, not a WARC, an output
    /// that could not be written): no output, `error` says why; a rerun tries it again.
    pub fn failed(input: &str, identity: InputIdentity, error: String) -> ManifestEntry {
        ManifestEntry {
            input: input.to_string(),
            identity,
            output: String::new(),
            output_sha256: String::new(),
            output_bytes: 0,
            counts: Counts::default(),
            status: "failed".into(),
            error: Some(error),
            error_offset: None,
            tool_version: String::new(),
            config_hash: String::new(),
            settings: BTreeMap::new(),
        }
    }

    /// True when this input could not be read at all (it has no output).
    pub fn is_failed(&self) -> bool {
        self.status == "failed"
    }
}

/// The manifest of an output directory.
///
/// Several processes may share one output directory (a Slurm array of `--shard` jobs): every
/// change of the file happens under an exclusive lock on `DIR/.manifest.lock` (a file that is
/// never replaced, unlike the manifest itself), each change first reads the lines others
/// appended since (only those: lines are appended to one file until compaction replaces it),
/// and compaction writes what it read under that lock, so no process drops another's lines.
pub struct Manifest {
    path: std::path::PathBuf,
    lock_path: std::path::PathBuf,
    /// Latest entry per canonical input path.
    entries: BTreeMap<String, ManifestEntry>,
    /// The file read so far: its identity and how many of its bytes (lines are only ever
    /// appended to one file; compaction puts a new file in place).
    seen: Option<(FileId, u64)>,
}

/// Latest entry per input (by canonical path) in manifest text; unreadable lines (a torn
/// last line after a crash) are ignored. For readers that must not take the lock (a report).
pub fn parse_manifest(text: &str) -> BTreeMap<String, ManifestEntry> {
    let mut entries = BTreeMap::new();
    add_lines(&mut entries, text);
    entries
}

fn add_lines(entries: &mut BTreeMap<String, ManifestEntry>, text: &str) {
    for line in text.lines() {
        if let Ok(entry) = serde_json::from_str::<ManifestEntry>(line) {
            entries.insert(entry.identity.path.clone(), entry);
        }
    }
}

impl Manifest {
    /// Reads `dir/manifest.jsonl` (absent is empty).
    pub fn open(dir: &Path) -> io::Result<Manifest> {
        let mut manifest = Manifest {
            path: dir.join(MANIFEST),
            lock_path: dir.join(".manifest.lock"),
            entries: BTreeMap::new(),
            seen: None,
        };
        manifest.refresh()?;
        Ok(manifest)
    }

    /// Reads what other processes sharing the directory added since this one last read it:
    /// the lines appended since (or the whole file, once compaction replaced it).
    pub fn refresh(&mut self) -> io::Result<()> {
        self.under_lock(Manifest::read_new)
    }

    /// Runs `f` holding the directory's manifest lock (released when the handle closes).
    fn under_lock<T>(&mut self, f: impl FnOnce(&mut Self) -> io::Result<T>) -> io::Result<T> {
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.lock_path)?;
        lock.lock()?;
        let result = f(self);
        drop(lock);
        result
    }

    /// [`Manifest::refresh`]'s reading; the caller holds the lock.
    fn read_new(&mut self) -> io::Result<()> {
        use std::io::{Seek, SeekFrom};
        let mut file = match File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                self.seen = None;
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        let id = file_id(&meta);
        let from = match self.seen {
            Some((seen, read)) if id.is_some_and(|id| id == seen) && meta.len() >= read => read,
            _ => {
                self.entries.clear();
                0
            }
        };
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(from))?;
        file.read_to_end(&mut bytes)?;
        add_lines(&mut self.entries, &String::from_utf8_lossy(&bytes));
        self.seen = id.map(|id| (id, from + bytes.len() as u64));
        Ok(())
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
        if &entry.identity != identity
            || entry.config_hash != config_hash
            || !(entry.is_complete() || entry.is_empty_input())
        {
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
        self.append_timed(entry, None)
    }

    /// [`Manifest::append`], then, under the same lock, `timing`'s line in the timings log
    /// ([`TIMINGS`]): a reader that sees the timing also sees the manifest line it measured.
    pub fn append_timed(
        &mut self,
        entry: ManifestEntry,
        timing: Option<&InputTiming>,
    ) -> io::Result<()> {
        let line = serde_json::to_vec(&entry).map_err(io::Error::other)?;
        let timing_line = timing
            .map(serde_json::to_vec)
            .transpose()
            .map_err(io::Error::other)?;
        self.under_lock(|m| {
            m.read_new()?;
            append_line(&m.path, line)?;
            m.entries.insert(entry.identity.path.clone(), entry);
            m.mark_read()?;
            // A log, not an output: a timing that cannot be written (a full disk) fails
            // nothing; the input's line is in place.
            if let Some(line) = timing_line {
                let _ = append_line(&m.timings_path(), line);
            }
            Ok(())
        })
    }

    /// After this process wrote the file under the lock: all of it is what `entries` holds
    /// (nobody else wrote meanwhile), so the next read starts at its end.
    fn mark_read(&mut self) -> io::Result<()> {
        let meta = fs::metadata(&self.path)?;
        self.seen = file_id(&meta).map(|id| (id, meta.len()));
        Ok(())
    }

    fn timings_path(&self) -> std::path::PathBuf {
        self.path.with_file_name(TIMINGS)
    }

    /// Rewrites the manifest with the latest entry per input, sorted by input path,
    /// atomically, keeping the lines other processes appended meanwhile; and the timings log
    /// with the latest timing of each output the manifest names, in the same order.
    pub fn compact(&mut self) -> io::Result<()> {
        self.under_lock(|m| {
            m.read_new()?;
            let dir = m.path.parent().unwrap_or(Path::new("."));
            let mut out = AtomicFile::create(dir, MANIFEST)?;
            for entry in m.entries.values() {
                serde_json::to_writer(&mut out, entry).map_err(io::Error::other)?;
                out.write_all(b"\n")?;
            }
            out.finish()?;
            compact_timings(dir, &m.timings_path(), m.entries.values())?;
            m.mark_read()
        })
    }

    /// The latest line of the input whose canonical path is `path`, whatever its state.
    pub fn latest(&self, path: &str) -> Option<&ManifestEntry> {
        self.entries.get(path)
    }

    /// True when some input's line names `file` as its output.
    pub fn names_output(&self, file: &str) -> bool {
        self.entries.values().any(|e| e.output == file)
    }

    pub fn entries(&self) -> impl Iterator<Item = &ManifestEntry> {
        self.entries.values()
    }
}

/// Appends `line` and a newline to `path` and fsyncs it. A partial line left by a crash
/// would glue onto this one: it starts on a fresh line then.
fn append_line(path: &Path, mut line: Vec<u8>) -> io::Result<()> {
    line.push(b'\n');
    if !ends_with_newline(path) {
        line.insert(0, b'\n');
    }
    let mut file = OpenOptions::new().create(true).append(true).open(path)?;
    file.write_all(&line)?;
    file.sync_data()
}

/// Rewrites the timings log (when there is one) with [`current_timings`] of `entries`, in
/// their order.
fn compact_timings<'a>(
    dir: &Path,
    path: &Path,
    entries: impl Iterator<Item = &'a ManifestEntry> + Clone,
) -> io::Result<()> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let mut current = current_timings(parse_timings(&text), entries.clone());
    let mut out = AtomicFile::create(dir, TIMINGS)?;
    for entry in entries {
        if let Some(timing) = current.remove(&entry.output) {
            serde_json::to_writer(&mut out, &timing).map_err(io::Error::other)?;
            out.write_all(b"\n")?;
        }
    }
    out.finish()?;
    Ok(())
}

/// What tells one file from another of the same name (device and inode); `None` where the
/// platform does not say, and the whole file is read each time.
type FileId = (u64, u64);

#[cfg(unix)]
fn file_id(meta: &fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(_meta: &fs::Metadata) -> Option<FileId> {
    None
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
    fn manifest_reuse_rules() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.warc");
        fs::write(&input, b"data").unwrap();
        let identity = InputIdentity::of(&input).unwrap();
        let mut w = AtomicFile::create(dir.path(), "in.jsonl.zst").unwrap();
        w.write_all(b"{}\n").unwrap();
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
            settings: BTreeMap::new(),
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

    /// A `complete` line of the input at `path` (its canonical path too) and its output.
    fn complete_line(path: &str, output: &str, sha256: &str) -> ManifestEntry {
        ManifestEntry {
            input: path.into(),
            identity: InputIdentity {
                path: path.into(),
                size: 1,
                mtime_ns: 1,
                etag: None,
            },
            output: output.into(),
            output_sha256: sha256.into(),
            output_bytes: 0,
            counts: Counts::default(),
            status: "complete".into(),
            error: None,
            error_offset: None,
            tool_version: "t".into(),
            config_hash: "c".into(),
            settings: BTreeMap::new(),
        }
    }

    #[test]
    fn compaction_keeps_lines_of_another_process() {
        let dir = tempfile::tempdir().unwrap();
        let entry = |path: &str| complete_line(path, &format!("{path}.jsonl.zst"), "");
        // Two jobs open the same directory, each appends its own input.
        let mut a = Manifest::open(dir.path()).unwrap();
        let mut b = Manifest::open(dir.path()).unwrap();
        a.append(entry("/in/a")).unwrap();
        b.append(entry("/in/b")).unwrap();
        // Each sees the other's line once it reads again (b read a's line when appending).
        assert!(b.latest("/in/a").is_some());
        assert!(a.latest("/in/b").is_none());
        a.refresh().unwrap();
        assert!(a.latest("/in/b").is_some());
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
        // After b's compaction replaced the file, a's next read takes the new file whole.
        b.append(entry("/in/c")).unwrap();
        a.refresh().unwrap();
        assert_eq!(a.entries().count(), 3);
    }

    /// Timings are compacted with the manifest: the latest line of each output whose SHA-256
    /// the manifest names, another process's lines kept, a replaced shard's line dropped.
    #[test]
    fn timings_follow_the_manifest_through_compaction() {
        let dir = tempfile::tempdir().unwrap();
        let entry =
            |path: &str, sha: &str| complete_line(path, &format!("{}.jsonl.zst", &path[4..]), sha);
        let timing = |e: &ManifestEntry, started: f64| InputTiming {
            input: e.input.clone(),
            output: e.output.clone(),
            output_sha256: e.output_sha256.clone(),
            started,
            seconds: 1.0,
            input_bytes: 1,
            html_bytes: 1,
            records: 0,
            written: 0,
            threads: 1,
            inputs_at_once: 1,
        };
        let mut a = Manifest::open(dir.path()).unwrap();
        let mut b = Manifest::open(dir.path()).unwrap();
        let (a1, a2, b1) = (
            entry("/in/a", "s1"),
            entry("/in/a", "s2"),
            entry("/in/b", "s3"),
        );
        a.append_timed(a1.clone(), Some(&timing(&a1, 1.0))).unwrap();
        b.append_timed(b1.clone(), Some(&timing(&b1, 2.0))).unwrap();
        // `a` written again (another shard): only its new timing is current.
        a.append_timed(a2.clone(), Some(&timing(&a2, 3.0))).unwrap();
        // A failed line has no timing.
        a.append(ManifestEntry::failed(
            "/in/c",
            InputIdentity {
                path: "/in/c".into(),
                size: 0,
                mtime_ns: 0,
                etag: None,
            },
            "gone".into(),
        ))
        .unwrap();
        a.compact().unwrap();
        let text = fs::read_to_string(dir.path().join(TIMINGS)).unwrap();
        assert_eq!(
            parse_timings(&text),
            [timing(&a2, 3.0), timing(&b1, 2.0)],
            "{text}"
        );
    }
}
