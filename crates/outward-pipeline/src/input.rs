//! Inputs of a run. The list: command-line paths, directories ([`INPUT_SUFFIXES`]), `-`
//! (stdin) and list files, with a base URL for relative lines, sorted and deduplicated
//! ([`resolve_inputs`]), and DataTrove's shard rule ([`select_shard`]). One input: a local
//! file or a remote object (`http(s)://`, `s3://`); input lists hold both as `PathBuf`s,
//! told apart by [`outward_remote::is_remote`]. Opening an input gives the source the
//! reader streams, the identity its manifest line keeps (path, size, mtime; for a remote
//! object: URL, size, `Last-Modified`, `ETag`), and, after the read, whether it changed
//! meanwhile ([`OpenedInput::changed_while_read`]).
//!
//! Invariants: the resolved list is sorted and free of duplicates, so a shard is the same
//! set of inputs in every process; two inputs that would write the same shard name are
//! refused before anything is read.

use crate::config::SetupError;
use outward_output::manifest::InputIdentity;
use outward_output::output_stem;
use outward_remote::{RemoteObject, RemoteOptions};
use outward_warc::source::{ByteSource, LocalFile};
use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

/// Whether `input` names a remote object.
pub fn is_remote(input: &Path) -> bool {
    input.to_str().is_some_and(outward_remote::is_remote)
}

/// An input ready to read.
pub struct OpenedInput {
    pub source: Arc<dyn ByteSource>,
    pub identity: InputIdentity,
    watch: Watch,
}

/// What tells, after the read, that the input changed.
enum Watch {
    /// The file a local path named when the read began (when the platform says).
    Local(Option<FileInode>),
    Remote(RemoteObject),
}

/// Opens `input`: a local file's metadata, or a remote object's `HEAD`.
pub fn open_input(input: &Path, remote: &RemoteOptions) -> io::Result<OpenedInput> {
    if is_remote(input) {
        let name = input.to_string_lossy();
        let object = RemoteObject::open(&name, remote.clone())?;
        let info = object.info();
        let identity = InputIdentity {
            path: name.into_owned(),
            size: info.len,
            mtime_ns: info.last_modified_ns(),
            etag: info.etag.clone(),
        };
        return Ok(OpenedInput {
            source: Arc::new(object.clone()),
            identity,
            watch: Watch::Remote(object),
        });
    }
    let identity = InputIdentity::of(input)?;
    Ok(OpenedInput {
        source: LocalFile::shared(input),
        identity,
        watch: Watch::Local(FileInode::of(input)),
    })
}

/// The source of `input` alone (no identity), for passes that only read it.
pub fn input_source(input: &Path, remote: &RemoteOptions) -> io::Result<Arc<dyn ByteSource>> {
    if is_remote(input) {
        RemoteObject::shared(&input.to_string_lossy(), remote.clone())
    } else {
        Ok(LocalFile::shared(input))
    }
}

impl OpenedInput {
    /// For a remote input, the failed requests and broken connections retried so far.
    pub fn retried(&self) -> Option<u64> {
        match &self.watch {
            Watch::Remote(object) => Some(object.retried()),
            Watch::Local(_) => None,
        }
    }

    /// How `input` changed since it was opened, or `None` when it is the same file (or
    /// object) with the same size and modification time (and ETag).
    pub fn changed_while_read(&self, input: &Path) -> Option<String> {
        let what = match &self.watch {
            Watch::Local(inode) => {
                let after = match InputIdentity::of(input) {
                    Ok(after) => after,
                    Err(e) => return Some(format!("the input went away while it was read ({e})")),
                };
                if inode.is_some() && FileInode::of(input).as_ref() != inode.as_ref() {
                    "was replaced by another file".to_string()
                } else {
                    self.differs(after.size, after.mtime_ns, None)?
                }
            }
            Watch::Remote(object) => {
                let now = match object.info_now() {
                    Ok(now) => now,
                    Err(e) => {
                        return Some(format!("the input went away while it was read ({e})"));
                    }
                };
                self.differs(now.len, now.last_modified_ns(), now.etag.as_deref())?
            }
        };
        Some(format!(
            "the input {what} while it was read: its output may mix the versions, the next run reads it again"
        ))
    }

    fn differs(&self, size: u64, mtime_ns: i128, etag: Option<&str>) -> Option<String> {
        let before = &self.identity;
        if size != before.size {
            Some(format!("changed size ({} -> {size} bytes)", before.size))
        } else if mtime_ns != before.mtime_ns || etag != before.etag.as_deref() && etag.is_some() {
            Some("was modified".to_string())
        } else {
            None
        }
    }
}

/// Which file a path named (device and inode), to tell a file replaced under its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileInode(u64, u64);

impl FileInode {
    #[cfg(unix)]
    fn of(path: &Path) -> Option<FileInode> {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path)
            .ok()
            .map(|m| FileInode(m.dev(), m.ino()))
    }

    #[cfg(not(unix))]
    fn of(_: &Path) -> Option<FileInode> {
        None
    }
}

/// File names a directory input contributes: WARC in every compression the reader reads, and
/// ARC (v1), plain or gzipped.
pub const INPUT_SUFFIXES: [&str; 6] = [
    ".warc",
    ".warc.gz",
    ".warc.zst",
    ".warc.lz4",
    ".arc",
    ".arc.gz",
];

/// Expands command-line inputs: files and URLs (`http(s)://`, `s3://`) as given, directories
/// to the files below them (every level) named with one of [`INPUT_SUFFIXES`], `-` to the entries listed on
/// `stdin`, and every entry of each list file (`--input-list`, gzipped or not; see
/// `outward_warc::read_path_list`). With `base_url`, a listed entry that is neither a URL nor
/// an absolute path is appended to it (a Common Crawl `warc.paths.gz` line +
/// `https://data.commoncrawl.org/`). The result is sorted and deduplicated, so `--shard`
/// selection is stable.
pub fn resolve_inputs(
    args: &[PathBuf],
    lists: &[PathBuf],
    base_url: Option<&str>,
    stdin: &mut dyn io::BufRead,
) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut listed = Vec::new();
    for list in lists {
        let entries = outward_warc::open_path_list(list)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", list.display())))?;
        listed.extend(entries);
    }
    for arg in args {
        if arg.as_os_str() == "-" {
            listed.extend(outward_warc::read_path_list(&mut *stdin)?);
        } else if is_remote(arg) {
            out.push(arg.clone());
        } else if arg.is_dir() {
            out.extend(files_below(arg, |name| {
                INPUT_SUFFIXES.iter().any(|s| name.ends_with(s))
            })?);
        } else {
            out.push(arg.clone());
        }
    }
    for entry in listed {
        let relative = !outward_remote::is_remote(&entry) && !Path::new(&entry).is_absolute();
        match base_url {
            Some(base) if relative => out.push(PathBuf::from(format!(
                "{}/{}",
                base.trim_end_matches('/'),
                entry.trim_start_matches('/')
            ))),
            _ => out.push(PathBuf::from(entry)),
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The files below `dir`, at every level, whose names `keep` accepts, sorted. A directory
/// reached twice (through a symbolic link) is read once, so a link cycle ends.
pub fn files_below(dir: &Path, keep: impl Fn(&str) -> bool) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        if !seen.insert(dir.canonicalize().unwrap_or_else(|_| dir.clone())) {
            continue;
        }
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        for entry in entries {
            let path = entry
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?
                .path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.is_file()
                && path
                    .file_name()
                    .is_some_and(|name| keep(&name.to_string_lossy()))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The pages `outward extract` reads: files as given (`-` is stdin), and in a directory
/// every `.html`, `.htm` and `.xhtml` file below it, sorted. A directory without any is an
/// error (a mistaken path, not an empty corpus).
pub fn html_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut pages = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            pages.push(input.clone());
            continue;
        }
        let found = files_below(input, |name| {
            name.rsplit_once('.').is_some_and(|(_, ext)| {
                matches!(ext.to_ascii_lowercase().as_str(), "html" | "htm" | "xhtml")
            })
        })
        .map_err(|e| e.to_string())?;
        if found.is_empty() {
            return Err(format!(
                "{}: no .html, .htm or .xhtml file in it",
                input.display()
            ));
        }
        pages.extend(found);
    }
    Ok(pages)
}

/// DataTrove's rule: shard `index` of `count` keeps `inputs[index::count]`.
///
/// The whole list is checked for inputs that would write the same shard name first: two
/// such inputs in different shards would each pass the per-run check, overwrite each other's
/// output and fight over one manifest entry forever.
pub fn select_shard(
    inputs: Vec<PathBuf>,
    index: usize,
    count: usize,
) -> Result<Vec<PathBuf>, SetupError> {
    check_distinct_stems(&inputs)?;
    Ok(inputs
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % count.max(1) == index)
        .map(|(_, p)| p)
        .collect())
}

/// Refuses an input list in which two inputs would write the same shard name.
pub fn check_distinct_stems(inputs: &[PathBuf]) -> Result<(), SetupError> {
    let mut seen: BTreeMap<String, &PathBuf> = BTreeMap::new();
    for input in inputs {
        let stem = output_stem(input);
        if let Some(first) = seen.insert(stem.clone(), input) {
            return Err(SetupError::DuplicateStem {
                stem,
                first: first.clone(),
                second: input.clone(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_selection_is_datatrove_rule() {
        let inputs: Vec<PathBuf> = (0..7).map(|i| PathBuf::from(format!("f{i}"))).collect();
        let got = select_shard(inputs, 1, 3).unwrap();
        assert_eq!(got, vec![PathBuf::from("f1"), PathBuf::from("f4")]);
    }

    /// Regression: `example.warc` and `example.warc.gz` land in different shards of 2, so a
    /// check of each shard's own list passed and both wrote `example.jsonl.zst`.
    #[test]
    fn shard_selection_refuses_same_stem_in_other_shards() {
        let inputs = vec![
            PathBuf::from("d/example.warc"),
            PathBuf::from("d/example.warc.gz"),
        ];
        for index in 0..2 {
            match select_shard(inputs.clone(), index, 2) {
                Err(SetupError::DuplicateStem { stem, .. }) => assert_eq!(stem, "example"),
                other => panic!("shard {index}/2: expected a duplicate stem, got {other:?}"),
            }
        }
    }

    #[test]
    fn resolve_reads_stdin_and_dirs_sorted() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.warc.gz", "a.warc", "c.txt", "d.warc.zst"] {
            std::fs::write(dir.path().join(name), b"").unwrap();
        }
        let mut stdin = io::Cursor::new(b"/x/z.warc.gz\n\n/x/y.warc.gz\n".to_vec());
        let got = resolve_inputs(
            &[dir.path().to_path_buf(), PathBuf::from("-")],
            &[],
            None,
            &mut stdin,
        )
        .unwrap();
        let names: Vec<String> = got
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        // Sorted by full path: the temp dir (/tmp/...) sorts before /x/.
        assert_eq!(
            names,
            [
                "a.warc",
                "b.warc.gz",
                "d.warc.zst",
                "y.warc.gz",
                "z.warc.gz"
            ]
        );
    }

    /// Common Crawl's `warc.paths.gz` lines are relative: `--base-url` makes them URLs; URLs
    /// and absolute paths are kept as they are, on the command line and in lists.
    #[test]
    fn list_entries_join_the_base_url() {
        let mut stdin = io::Cursor::new(
            b"crawl-data/CC-MAIN-2024-10/a.warc.gz\n/local/b.warc.gz\ns3://cc/c.warc.gz\n".to_vec(),
        );
        let args = [
            PathBuf::from("-"),
            PathBuf::from("https://data.commoncrawl.org/d.warc.gz"),
        ];
        let got = resolve_inputs(
            &args,
            &[],
            Some("https://data.commoncrawl.org/"),
            &mut stdin,
        )
        .unwrap();
        assert_eq!(
            got,
            [
                "/local/b.warc.gz",
                "https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/a.warc.gz",
                "https://data.commoncrawl.org/d.warc.gz",
                "s3://cc/c.warc.gz",
            ]
            .map(PathBuf::from)
        );
        assert!(crate::input::is_remote(&got[1]) && !crate::input::is_remote(&got[0]));
        let mut stdin = io::Cursor::new(b"crawl-data/a.warc.gz\n".to_vec());
        let got = resolve_inputs(&[PathBuf::from("-")], &[], None, &mut stdin).unwrap();
        assert_eq!(got, [PathBuf::from("crawl-data/a.warc.gz")]);
    }
}
