//! `run --sites STORE --sites-update`: what a run's pages add to the store, kept so that a
//! run killed or stopped at any moment, and run again, leaves the store with each input's
//! pages exactly once (the bytes of one run that was never interrupted).
//!
//! Each input's pages are written beside its output, `DIR/STEM.sites-pending` (a store of
//! that input's pages alone), before its manifest line: an input the manifest calls done has
//! its pages either pending or in the store. When every input of a run has its manifest line,
//! the run *lands* them: under the store's lock it merges the store and the pending files
//! into a new store, then renames it over the old one and removes the pending files. What
//! was landed is recorded in `DIR/sites-update.state` (text, one `key value` per line, written
//! atomically):
//!
//! ```text
//! store /abs/path/of/the/store
//! landed CONFIG_HASH            settings whose outputs in DIR have their pages in the store
//! landing FOOTER CONFIG_HASH    a landing under way: the new store's footer (hex) …
//! pending STEM.sites-pending    … and the pending files it merges
//! ```
//!
//! Invariants:
//! - a pending file is removed only once the store holds its pages (the store's footer is the
//!   one its landing recorded), and its pages enter the store once: a landing that a kill left
//!   in doubt is settled by the next writer of the directory's record, under the store's lock,
//!   by comparing footers;
//! - a rerun reuses the outputs of `landed` settings although the store changed since (their
//!   pages are in it; reading them again would add them twice), and the outputs of the
//!   current settings only when their pages are still pending;
//! - the store changes only at a landing, after every input of the run is done, so every
//!   input of a run is extracted with the same store.
//!
//! One corner is not settled: a kill between the landing's record and its rename, followed by
//! another directory's landing into the same store before this directory runs again, leaves
//! the store's footer matching neither; the pending files are then merged again (each page of
//! a host of at most 32 pages still counts once; see `sites`).

use crate::events::Reporter;
use crate::sites::{
    EVERY_HOST, RecordSource, SpillingBuilder, StoreReader, lock_store, merge_into,
};
use outward_output::atomic::AtomicFile;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The suffix of an input's pending pages: `DIR/STEM.sites-pending`.
pub const PENDING_SUFFIX: &str = ".sites-pending";
/// The directory's record of its landings.
pub const STATE_FILE: &str = "sites-update.state";

/// What `DIR/sites-update.state` says.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct State {
    /// The store the record is about (as given, made absolute).
    store: String,
    /// Settings (config hashes) whose outputs have their pages in the store.
    landed: Vec<String>,
    landing: Option<Landing>,
}

/// A landing under way.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Landing {
    /// The new store's footer, hex: the store holds the pending pages iff it ends so.
    footer: String,
    config_hash: String,
    /// Pending files (names in the directory) it merges.
    pending: Vec<String>,
}

impl State {
    fn parse(text: &str) -> io::Result<State> {
        let bad = |line: &str| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{STATE_FILE}: cannot read line {line:?}"),
            )
        };
        let mut state = State::default();
        for line in text.lines().filter(|l| !l.is_empty()) {
            let (key, value) = line.split_once(' ').ok_or_else(|| bad(line))?;
            match key {
                "store" => state.store = value.to_string(),
                "landed" => state.landed.push(value.to_string()),
                "landing" => {
                    let (footer, config_hash) = value.split_once(' ').ok_or_else(|| bad(line))?;
                    state.landing = Some(Landing {
                        footer: footer.to_string(),
                        config_hash: config_hash.to_string(),
                        pending: Vec::new(),
                    });
                }
                "pending" => state
                    .landing
                    .as_mut()
                    .ok_or_else(|| bad(line))?
                    .pending
                    .push(value.to_string()),
                _ => return Err(bad(line)),
            }
        }
        Ok(state)
    }

    fn render(&self) -> String {
        let mut out = format!("store {}\n", self.store);
        for hash in &self.landed {
            out += &format!("landed {hash}\n");
        }
        if let Some(landing) = &self.landing {
            out += &format!("landing {} {}\n", landing.footer, landing.config_hash);
            for name in &landing.pending {
                out += &format!("pending {name}\n");
            }
        }
        out
    }
}

/// What a landing added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Landed {
    /// Distinct pages of the pending files merged (per file).
    pub pages: u64,
    /// The store's size after it.
    pub bytes: u64,
}

/// The record of one output directory's updates of one store.
pub struct StoreUpdate {
    dir: PathBuf,
    store: PathBuf,
    state: State,
}

impl StoreUpdate {
    /// Opens `dir`'s record for `store`, settling a landing a killed run left in doubt (under
    /// the store's lock). A record about another store reads as empty and is replaced at the
    /// first landing.
    pub fn open(dir: &Path, store: &Path, reporter: &dyn Reporter) -> io::Result<StoreUpdate> {
        let store = std::path::absolute(store)?;
        let mut update = StoreUpdate {
            dir: dir.to_path_buf(),
            store,
            state: State::default(),
        };
        update.reload()?;
        if update.state.landing.is_some() {
            let _writing = lock_store(&update.store, "outward run --sites-update", reporter)?;
            update.reload()?;
            update.settle()?;
        }
        Ok(update)
    }

    /// Settings whose outputs have their pages in the store already, as the record says now
    /// (another run sharing the directory may have landed since this one opened it); with
    /// those of a landing under way, which removes a pending file only once it has landed.
    pub fn landed(&self) -> Vec<String> {
        let state = read_state(&self.dir, &self.store).unwrap_or_else(|_| self.state.clone());
        let mut landed = state.landed;
        landed.extend(state.landing.map(|l| l.config_hash));
        landed
    }

    /// Where the pages of the input of `stem` wait for the landing.
    pub fn pending_path(&self, stem: &str) -> PathBuf {
        self.dir.join(format!("{stem}{PENDING_SUFFIX}"))
    }

    /// Whether the pages of the input of `stem` wait for a landing.
    pub fn is_pending(&self, stem: &str) -> bool {
        self.pending_path(stem).is_file()
    }

    /// Writes what `learned` gathered of the input of `stem` as its pending pages
    /// (atomically; before its manifest line).
    pub fn write_pending(&self, stem: &str, learned: &mut SpillingBuilder) -> io::Result<()> {
        learned
            .write(&self.pending_path(stem), &[], EVERY_HOST)
            .map(|_| ())
    }

    /// Lands the pending pages of the inputs of `stems` (those that have any) into the store,
    /// their outputs made with `config_hash`. Under the store's lock: the store another job
    /// may have written since the run started is the one merged into.
    pub fn land(
        &mut self,
        stems: &[String],
        config_hash: &str,
        reporter: &dyn Reporter,
    ) -> io::Result<Landed> {
        let _writing = lock_store(&self.store, "outward run --sites-update", reporter)?;
        // Another run sharing the directory may have landed some of them meanwhile.
        self.reload()?;
        self.settle()?;
        let pending: Vec<String> = stems
            .iter()
            .filter(|stem| self.is_pending(stem))
            .map(|stem| format!("{stem}{PENDING_SUFFIX}"))
            .collect();
        let store = StoreReader::open(&self.store)?;
        if pending.is_empty() {
            return Ok(Landed {
                pages: 0,
                bytes: std::fs::metadata(&self.store)?.len(),
            });
        }
        let readers = pending
            .iter()
            .map(|name| StoreReader::open(&self.dir.join(name)))
            .collect::<io::Result<Vec<_>>>()?;
        let pages = readers.iter().map(|r| r.footer().pages).sum();
        let sources: Vec<RecordSource> = std::iter::once(&store)
            .chain(&readers)
            .map(StoreReader::source)
            .collect();
        let landing_path = self.landing_path();
        let summary = merge_into(sources, &landing_path, EVERY_HOST)?;
        drop(readers);
        self.state.landing = Some(Landing {
            footer: footer_hex(&landing_path)?,
            config_hash: config_hash.to_string(),
            pending,
        });
        self.save()?;
        std::fs::rename(&landing_path, &self.store)?;
        outward_output::atomic::sync_dir(crate::sites::store_dir(&self.store));
        self.settle()?;
        Ok(Landed {
            pages,
            bytes: summary.bytes,
        })
    }

    /// Where a landing writes the new store before renaming it over the old one.
    fn landing_path(&self) -> PathBuf {
        let name = self
            .store
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        crate::sites::store_dir(&self.store).join(format!(".{name}.landing"))
    }

    /// Reads the record again (another run sharing the directory may have written it); a
    /// record about another store reads as empty.
    fn reload(&mut self) -> io::Result<()> {
        self.state = read_state(&self.dir, &self.store)?;
        Ok(())
    }

    /// Settles a landing under way (the store's lock held): landed when the store ends with
    /// its footer (its pending files go, its settings join `landed`), else not (they stay).
    fn settle(&mut self) -> io::Result<()> {
        let Some(landing) = self.state.landing.take() else {
            return Ok(());
        };
        if footer_hex(&self.store)? == landing.footer {
            for name in &landing.pending {
                match std::fs::remove_file(self.dir.join(name)) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                    _ => {}
                }
            }
            if !self.state.landed.contains(&landing.config_hash) {
                self.state.landed.push(landing.config_hash);
            }
        }
        match std::fs::remove_file(self.landing_path()) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        self.save()
    }

    fn save(&self) -> io::Result<()> {
        let mut file = AtomicFile::create(&self.dir, STATE_FILE)?;
        file.write_all(self.state.render().as_bytes())?;
        file.finish().map(|_| ())
    }
}

/// The record in `dir` about `store`; a record about another store reads as empty.
fn read_state(dir: &Path, store: &Path) -> io::Result<State> {
    let store = store.to_string_lossy().into_owned();
    let state = match std::fs::read_to_string(dir.join(STATE_FILE)) {
        Ok(text) => State::parse(&text)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => State::default(),
        Err(e) => return Err(e),
    };
    Ok(if state.store == store {
        state
    } else {
        State {
            store,
            ..State::default()
        }
    })
}

/// The footer of the store at `path`, hex.
fn footer_hex(path: &Path) -> io::Result<String> {
    let footer = StoreReader::open(path)?.footer().to_bytes();
    Ok(outward_output::atomic::hex(&footer))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Silent;
    use crate::sites::tests::{builder_of, page};
    use crate::sites::write_store;
    use outward_core::site::{PagePrints, SampleNeeds};

    /// Yesterday's pages (the store), and today's two inputs' (`a` and `b`): hosts shared
    /// between them and hosts of their own, 40 pages for one (past the 32 kept as samples).
    fn days() -> [Vec<PagePrints>; 3] {
        let yesterday = (0..3).map(|p| page("x.example", p)).collect();
        let a = (3..6)
            .map(|p| page("x.example", p))
            .chain((0..40).map(|p| page("big.example", p)))
            .collect();
        let b = (0..4).map(|p| page("y.example", p)).collect();
        [yesterday, a, b]
    }

    /// A directory with yesterday's store and today's two inputs pending; and the bytes of
    /// the store that holds all three days.
    fn setup(dir: &Path) -> (PathBuf, StoreUpdate, Vec<u8>) {
        let [yesterday, a, b] = days();
        let store = dir.join("stores").join("site.store");
        std::fs::create_dir_all(store.parent().unwrap()).unwrap();
        write_store(
            &store,
            &builder_of(&yesterday),
            SampleNeeds::ALL,
            EVERY_HOST,
        )
        .unwrap();
        let all = dir.join("all.store");
        let mut every = builder_of(&yesterday);
        every.merge(builder_of(&a));
        every.merge(builder_of(&b));
        write_store(&all, &every, SampleNeeds::ALL, EVERY_HOST).unwrap();
        let out = dir.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let update = StoreUpdate::open(&out, &store, &Silent).unwrap();
        for (stem, pages) in [("a", a), ("b", b)] {
            let mut learned = SpillingBuilder::new(1 << 20, &out, SampleNeeds::ALL);
            for p in pages {
                learned.add(p);
            }
            update.write_pending(stem, &mut learned).unwrap();
        }
        (store, update, std::fs::read(all).unwrap())
    }

    fn stems() -> Vec<String> {
        vec!["a".to_string(), "b".to_string()]
    }

    #[test]
    fn a_landing_merges_the_pending_pages_once_and_records_the_settings() {
        let tmp = tempfile::tempdir().unwrap();
        let (store, mut update, all) = setup(tmp.path());
        assert!(update.is_pending("a") && update.is_pending("b"));
        let landed = update.land(&stems(), "cfg1", &Silent).unwrap();
        assert_eq!(landed.pages, 3 + 40 + 4);
        assert!(
            std::fs::read(&store).unwrap() == all,
            "the store of all three days"
        );
        assert!(!update.is_pending("a") && !update.is_pending("b"));
        assert_eq!(update.landed(), ["cfg1"]);
        // Landing again adds nothing; the record survives a reopen.
        assert_eq!(update.land(&stems(), "cfg1", &Silent).unwrap().pages, 0);
        assert!(std::fs::read(&store).unwrap() == all);
        let out = tmp.path().join("out");
        assert_eq!(
            StoreUpdate::open(&out, &store, &Silent).unwrap().landed(),
            ["cfg1"]
        );
        let names: Vec<String> = std::fs::read_dir(store.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["site.store"], "no landing file, no lock left");
    }

    /// Killed after the rename, before the pending files were removed: the next run finds
    /// the store ending with the landing's footer, so it removes them instead of adding
    /// their pages again.
    #[test]
    fn a_landing_killed_after_its_rename_is_not_merged_again() {
        let tmp = tempfile::tempdir().unwrap();
        let (store, mut update, all) = setup(tmp.path());
        let out = tmp.path().join("out");
        let kept: Vec<(PathBuf, Vec<u8>)> = ["a", "b"]
            .map(|s| update.pending_path(s))
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                (p, bytes)
            })
            .collect();
        update.land(&stems(), "cfg1", &Silent).unwrap();
        // The state as the kill left it: pending files there, the landing recorded.
        for (path, bytes) in &kept {
            std::fs::write(path, bytes).unwrap();
        }
        update.state.landed.clear();
        update.state.landing = Some(Landing {
            footer: footer_hex(&store).unwrap(),
            config_hash: "cfg1".into(),
            pending: vec!["a.sites-pending".into(), "b.sites-pending".into()],
        });
        update.save().unwrap();
        let mut rerun = StoreUpdate::open(&out, &store, &Silent).unwrap();
        assert_eq!(rerun.landed(), ["cfg1"]);
        assert!(!rerun.is_pending("a") && !rerun.is_pending("b"));
        assert_eq!(rerun.land(&stems(), "cfg1", &Silent).unwrap().pages, 0);
        assert!(std::fs::read(&store).unwrap() == all, "each page once");
    }

    /// Killed after the landing was recorded, before the rename: the store is yesterday's,
    /// so the next run keeps the pending files and lands them, once.
    #[test]
    fn a_landing_killed_before_its_rename_is_landed_by_the_next_run() {
        let tmp = tempfile::tempdir().unwrap();
        let (store, mut update, all) = setup(tmp.path());
        let out = tmp.path().join("out");
        let yesterday = std::fs::read(&store).unwrap();
        update.land(&stems(), "cfg1", &Silent).unwrap();
        let landed_footer = footer_hex(&store).unwrap();
        // Back to before the rename: yesterday's store, the new one under the landing name,
        // the pending files, the landing recorded.
        std::fs::rename(&store, update.landing_path()).unwrap();
        std::fs::write(&store, &yesterday).unwrap();
        let (_, again, _) = setup(&tmp.path().join("again"));
        for stem in ["a", "b"] {
            std::fs::copy(again.pending_path(stem), update.pending_path(stem)).unwrap();
        }
        update.state.landed.clear();
        update.state.landing = Some(Landing {
            footer: landed_footer,
            config_hash: "cfg1".into(),
            pending: vec!["a.sites-pending".into(), "b.sites-pending".into()],
        });
        update.save().unwrap();
        let mut rerun = StoreUpdate::open(&out, &store, &Silent).unwrap();
        assert!(rerun.landed().is_empty(), "not landed");
        assert!(rerun.is_pending("a") && rerun.is_pending("b"));
        assert!(
            !rerun.landing_path().exists(),
            "the unfinished landing is gone"
        );
        assert_eq!(rerun.land(&stems(), "cfg1", &Silent).unwrap().pages, 47);
        assert!(std::fs::read(&store).unwrap() == all, "each page once");
    }

    #[test]
    fn the_record_reads_back_and_refuses_what_it_does_not_know() {
        let state = State {
            store: "/data/site.store".into(),
            landed: vec!["abc".into(), "def".into()],
            landing: Some(Landing {
                footer: "00ff".into(),
                config_hash: "abc".into(),
                pending: vec!["a.sites-pending".into()],
            }),
        };
        assert_eq!(State::parse(&state.render()).unwrap(), state);
        for bad in [
            "landed",
            "pending a.sites-pending",
            "landing 00ff",
            "what x",
        ] {
            assert!(State::parse(bad).is_err(), "{bad}");
        }
    }
}
