//! One input of a run: a local file or a remote object (`http(s)://`, `s3://`). Input lists
//! hold both as `PathBuf`s, told apart by [`outward_remote::is_remote`]. Opening an input gives
//! the source the reader streams, the identity its manifest line keeps (path, size, mtime;
//! for a remote object: URL, size, `Last-Modified`, `ETag`), and, after the read, whether it
//! changed meanwhile ([`OpenedInput::changed_while_read`]).

use outward_output::manifest::InputIdentity;
use outward_remote::{RemoteObject, RemoteOptions};
use outward_warc::source::{ByteSource, LocalFile};
use std::io;
use std::path::Path;
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
