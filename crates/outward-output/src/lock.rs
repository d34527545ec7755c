//! Named exclusive locks between processes: one writer at a time of one shard (`DIR/.STEM.lock`
//! while an input's output is made) or one site store (`.STORE.lock` beside it while it is
//! read, merged and replaced). The lock is the OS's advisory lock on the lock file; the file
//! holds its holder (process id, host, since when, what it does) so that a process that has
//! to wait can say whom it waits for.
//!
//! Invariants: at most one [`HeldLock`] of one path exists at a time across processes (the
//! file is unlinked by its holder before it lets go, and a process that locked a file since
//! unlinked tries again, so two processes never hold locks on two files of one name); a
//! process killed while holding lets go with its death (the OS drops the lock) and leaves at
//! most an empty or stale file, which the next holder takes over.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Whoever holds (or last held) a lock, as written in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
    pub host: String,
    /// Seconds since the Unix epoch when it took the lock.
    pub since: u64,
    /// What it does under the lock (`outward run`, `sites merge`).
    pub what: String,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (pid {} on {}, since {})",
            self.what,
            self.pid,
            self.host,
            utc(self.since)
        )
    }
}

/// A lock this process holds; released (its file unlinked, then unlocked) when dropped.
#[derive(Debug)]
pub struct HeldLock {
    path: PathBuf,
    file: Option<File>,
}

impl HeldLock {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for HeldLock {
    fn drop(&mut self) {
        // Unlink first: a process that opens the name from now on gets a new file; one that
        // opened this file and waits finds it unlinked once it gets the lock, and tries again.
        let _ = fs::remove_file(&self.path);
        drop(self.file.take());
    }
}

/// The lock file of `name` in `dir`: `dir/.NAME.lock`.
pub fn lock_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.lock"))
}

/// Takes the lock of `path` for `what`. When another process holds it, `waiting` is told the
/// holder (`None` when its file does not say: it took the lock a moment ago) once, and this
/// call waits until the lock is free.
pub fn acquire(
    path: &Path,
    what: &str,
    waiting: &mut dyn FnMut(Option<&Holder>),
) -> io::Result<HeldLock> {
    let mut told = false;
    loop {
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                if !told {
                    told = true;
                    waiting(read_holder(&mut file).as_ref());
                }
                // A signal caught while waiting (a SIGTERM the run handles) ends the wait
                // with EINTR: wait again (the stop is the caller's to act on).
                loop {
                    match file.lock() {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        other => break other?,
                    }
                }
            }
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
        // The holder before us unlinked the file it locked; the name may be a newer file now.
        if !same_file(&file, path) {
            continue;
        }
        let holder = Holder {
            pid: std::process::id(),
            host: host_name(),
            since: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            what: what.to_string(),
        };
        // Held from here: a failure to write the holder (a full disk) lets go as a holder
        // does, the file unlinked, instead of leaving it behind.
        let held = HeldLock {
            path: path.to_path_buf(),
            file: Some(file),
        };
        if let Some(mut file) = held.file.as_ref() {
            file.set_len(0)?;
            file.write_all(
                format!(
                    "{} {} {} {}\n",
                    holder.pid, holder.host, holder.since, holder.what
                )
                .as_bytes(),
            )?;
        }
        return Ok(held);
    }
}

/// Removes the lock files in `dir` whose name ends with `suffix` (`.output.lock`) and that
/// nobody holds: those a killed process left. A held one is left alone (it is tried, never
/// waited for). Returns how many were removed.
pub fn remove_stale_locks(dir: &Path, suffix: &str) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with('.') && name.ends_with(suffix)) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = OpenOptions::new().read(true).write(true).open(&path) else {
            continue;
        };
        // Held and still the file of that name: nobody holds it; unlink it before letting go
        // (what a holder does), so a process that opened it meanwhile tries again.
        if file.try_lock().is_ok() && same_file(&file, &path) && fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The holder a lock file names (`PID HOST SINCE WHAT…`), if it names one.
fn read_holder(file: &mut File) -> Option<Holder> {
    let mut text = String::new();
    file.read_to_string(&mut text).ok()?;
    let mut parts = text.trim_end().splitn(4, ' ');
    Some(Holder {
        pid: parts.next()?.parse().ok()?,
        host: parts.next()?.to_string(),
        since: parts.next()?.parse().ok()?,
        what: parts.next().unwrap_or("").to_string(),
    })
}

/// True when `path` is still the file `file` has open.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

/// This machine's name (Linux's `/proc`, else `$HOSTNAME`), or `unknown`; no spaces.
fn host_name() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    let name: String = name.trim().replace(' ', "_");
    if name.is_empty() {
        "unknown".to_string()
    } else {
        name
    }
}

/// `2026-11-28 15:21:12 UTC` of seconds since the Unix epoch.
fn utc(secs: u64) -> String {
    i64::try_from(secs)
        .ok()
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .map_or_else(
            || format!("{secs} s after 1970"),
            |t| t.strftime("%Y-%m-%d %H:%M:%S UTC").to_string(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn a_second_taker_waits_and_is_told_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let path = lock_path(dir.path(), "x");
        let first = acquire(&path, "outward run", &mut |_| panic!("free")).unwrap();
        let (told, heard) = mpsc::channel();
        let (got, taken) = mpsc::channel();
        let waiter = {
            let path = path.clone();
            std::thread::spawn(move || {
                let lock = acquire(&path, "sites merge", &mut |h| {
                    told.send(h.cloned()).unwrap();
                })
                .unwrap();
                got.send(()).unwrap();
                drop(lock);
            })
        };
        let holder = heard.recv().unwrap().expect("the holder is named");
        assert_eq!(holder.pid, std::process::id());
        assert_eq!(holder.what, "outward run");
        assert!(holder.to_string().contains("outward run (pid "), "{holder}");
        // Still waiting while the first holds it.
        assert!(taken.recv_timeout(Duration::from_millis(200)).is_err());
        drop(first);
        taken.recv_timeout(Duration::from_secs(10)).unwrap();
        waiter.join().unwrap();
        // Released: no file left behind.
        assert!(!path.exists());
    }

    /// Many takers at once: never two holders, whatever the unlink and relock order.
    #[test]
    fn never_two_holders() {
        let dir = tempfile::tempdir().unwrap();
        let path = lock_path(dir.path(), "store");
        let inside = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (path, inside) = (path.clone(), inside.clone());
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        let lock = acquire(&path, "t", &mut |_| {}).unwrap();
                        let n = inside.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        assert_eq!(n, 0, "two holders at once");
                        std::thread::yield_now();
                        inside.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                        drop(lock);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }

    #[test]
    fn stale_locks_go_held_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let held = acquire(&lock_path(dir.path(), "a.output"), "t", &mut |_| {}).unwrap();
        // Left by a killed process: a file nobody holds.
        std::fs::write(lock_path(dir.path(), "b.output"), "1 h 0 outward run\n").unwrap();
        std::fs::write(lock_path(dir.path(), "store"), "").unwrap();
        assert_eq!(remove_stale_locks(dir.path(), ".output.lock"), 1);
        assert!(held.path().exists());
        assert!(!lock_path(dir.path(), "b.output").exists());
        assert!(
            lock_path(dir.path(), "store").exists(),
            "another kind of lock"
        );
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc(1_795_879_627), "2026-11-28 15:27:07 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00:00 UTC");
    }
}
