//! A run: every input into the output directory ([`run`]), with the manifest that makes
//! reruns incremental; and the same stages without output files, for `outward eval` and
//! Python's `iter_warc` ([`extract_documents`], [`extract_texts`]).
//!
//! Invariants: inputs are independent (one failing never stops the others); an output is
//! written under a temporary name, fsynced and renamed before its manifest line is
//! appended, so a run killed at any moment loses and duplicates nothing; output bytes
//! depend only on the inputs and the config, never on `threads` (the timings log beside the
//! manifest is a log of this run, not an output).

use crate::budget::Budget;
use crate::config::{
    RunConfig, Settings, SetupError, SiteSource, TOOL_VERSION, settings_changes, settings_hash,
};
use crate::events::{
    Event, InputPartial, InputRetried, ManifestNotCompacted, Progress, Reporter, SettingsChanged,
    SiteStoreUpdated, StaleOutputRemoved, WaitingForLock, WorkFractions,
};
use crate::input::{check_distinct_stems, input_source, open_input};
use crate::site_memory::site_memory;
use crate::sites::SpillingBuilder;
use crate::store_update::StoreUpdate;
use crate::stream::{DocSink, ExtractedText, Stages, StreamResult, TextCollector, stream_input};
use outward_core::site::SampleNeeds;
use outward_output::atomic::remove_stale_temp_files;
use outward_output::format::{FORMATS, OutputFormat, OutputOptions};
use outward_output::lock::{acquire, remove_stale_locks};
use outward_output::manifest::{InputIdentity, MANIFEST, Manifest, ManifestEntry};
use outward_output::output_stem;
use outward_output::timings::{InputTiming, millis};
use outward_warc::reader::{FileKind, FileStatus, sniff_source};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How the lock file of an input's output ends (`.STEM.output.lock`; never `.manifest.lock`,
/// whatever the stem).
const OUTPUT_LOCK: &str = ".output.lock";

/// What an input without a single record is called wherever it is reported (`status: empty`).
pub const EMPTY_INPUT: &str =
    "empty: not a single record (a 0-byte file or a failed download looks like this)";

/// What happened to one input in a run.
#[derive(Debug, Clone)]
pub struct InputReport {
    pub input: PathBuf,
    pub outcome: InputOutcome,
}

#[derive(Debug, Clone)]
pub enum InputOutcome {
    /// Processed in this run.
    Done {
        entry: ManifestEntry,
        fractions: WorkFractions,
        /// Done before with other settings: what changed (`--lang en (was any)`), and so
        /// why its output was rewritten. `None` for an input read the first time, changed
        /// since, forced, or not complete before.
        rewritten: Option<Vec<String>>,
    },
    /// Skipped: the manifest entry still matches.
    Reused(ManifestEntry),
    /// Could not be processed at all (open or write failure).
    Failed(String),
    /// The run was asked to stop ([`crate::StopSignal`]) before this input was done:
    /// `started` when its reading had begun (what was written of it is gone); no manifest
    /// line, so the next run reads it.
    Stopped { started: bool },
}

impl InputReport {
    /// True when this input's output is complete.
    pub fn is_complete(&self) -> bool {
        self.entry().is_some_and(ManifestEntry::is_complete)
    }

    /// True when this input was read to its end and held no record (a 0-byte file, a failed
    /// download): `status: empty` in the manifest.
    pub fn is_empty_input(&self) -> bool {
        self.entry().is_some_and(ManifestEntry::is_empty_input)
    }

    /// True when this input could not be read at all.
    pub fn is_failed(&self) -> bool {
        matches!(self.outcome, InputOutcome::Failed(_))
    }

    /// Its manifest line, when it has output.
    pub fn entry(&self) -> Option<&ManifestEntry> {
        match &self.outcome {
            InputOutcome::Done { entry, .. } | InputOutcome::Reused(entry) => Some(entry),
            InputOutcome::Failed(_) | InputOutcome::Stopped { .. } => None,
        }
    }
}

/// Runs every input into `config.output`. Inputs are independent: one failing never stops
/// the others. Returns one report per input, in input order.
pub fn run(
    inputs: &[PathBuf],
    config: &RunConfig,
    progress: &Progress,
    reporter: &dyn Reporter,
) -> Result<Vec<InputReport>, SetupError> {
    std::fs::create_dir_all(&config.output).map_err(|e| {
        // "File exists (os error 17)" says less than what is wrong.
        let e = if config.output.exists() && !config.output.is_dir() {
            io::Error::new(e.kind(), "exists and is not a directory")
        } else {
            e
        };
        SetupError::OutputDir(config.output.clone(), e)
    })?;
    remove_stale_temp_files(&config.output);
    crate::sites::remove_stale_spill_dirs(&config.output);
    remove_stale_locks(&config.output, OUTPUT_LOCK);
    check_distinct_stems(inputs)?;
    let manifest = Mutex::new(
        Manifest::open(&config.output)
            .map_err(|e| SetupError::Manifest(config.output.join(MANIFEST), e))?,
    );
    let pool = config.worker_pool()?;
    let extractor = config.extractor().map_err(SetupError::Method)?;
    let budget = Budget::new(config.effective_window(), config.effective_inflight_bytes());
    let mut stages = Stages::new(config, &*extractor, &pool, &budget, progress, reporter);
    let memory = site_memory(inputs, &stages, &config.output)?;
    stages.site = memory.as_ref().map(|m| m.contexts());
    // The pages a run adds to a store carry what the store keeps.
    let kept = memory.as_ref().map_or(SampleNeeds::ALL, |m| m.kept);
    let store_update = match &config.sites {
        SiteSource::Store(path) if config.sites_update => Some(
            StoreUpdate::open(&config.output, path, reporter)
                .map_err(|e| SetupError::SiteStore(path.clone(), e))?,
        ),
        _ => None,
    };
    if store_update.is_some() {
        stages.learn_for_store = Some(kept);
    }
    let settings = config.settings(memory.as_ref().map(|m| m.digest));
    // Several inputs at once keep many workers fed (one reader gunzips ~300 MB/s).
    let readers = (config.threads / 3).clamp(1, inputs.len().max(1));
    let shared = RunShared {
        stages,
        config_hash: settings_hash(&settings),
        settings,
        output_format: config.output_format().map_err(SetupError::OutputFormat)?,
        manifest,
        inputs_at_once: readers,
        store_update,
    };
    let next_input = AtomicUsize::new(0);
    let reports: Mutex<Vec<Option<InputReport>>> = Mutex::new(vec![None; inputs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..readers {
            scope.spawn(|| {
                loop {
                    let i = next_input.fetch_add(1, Ordering::Relaxed);
                    let Some(input) = inputs.get(i) else { break };
                    let outcome = if config.stop.is_set() {
                        InputOutcome::Stopped { started: false }
                    } else {
                        run_input(input, &shared)
                    };
                    progress.inputs_done.fetch_add(1, Ordering::Relaxed);
                    reports.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(InputReport {
                        input: input.clone(),
                        outcome,
                    });
                }
            });
        }
    });
    let mut manifest = shared
        .manifest
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    if let Err(error) = manifest.compact() {
        reporter.report(&Event::ManifestNotCompacted(ManifestNotCompacted {
            error: &error,
        }));
    }
    if let Some(memory) = &memory {
        memory.report_failures(reporter);
    }
    if let (Some(mut update), SiteSource::Store(path)) = (shared.store_update, &config.sites) {
        let (pages, result) = if config.stop.is_set() {
            // Unfinished inputs would be read again with another store than the others.
            let stopped = "the run was stopped; the next run that finishes adds its pages";
            (0, Err(io::Error::other(stopped)))
        } else {
            let stems: Vec<String> = reports
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .flatten()
                .filter(|r| r.entry().is_some_and(|e| !e.is_failed()))
                .map(|r| output_stem(&r.input))
                .collect();
            match update.land(&stems, &shared.config_hash, reporter) {
                Ok(landed) => (landed.pages, Ok(landed.bytes)),
                Err(e) => (0, Err(e)),
            }
        };
        reporter.report(&Event::SiteStoreUpdated(SiteStoreUpdated {
            store: path,
            pages,
            result: &result,
        }));
    }
    Ok(reports
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect())
}

/// What every input of a run shares.
struct RunShared<'a> {
    stages: Stages<'a>,
    settings: Settings,
    config_hash: String,
    output_format: Box<dyn OutputFormat>,
    manifest: Mutex<Manifest>,
    /// Inputs read at once (each by its own reader thread, sharing the workers).
    inputs_at_once: usize,
    /// `--sites-update`: where each input's pages wait, what was landed.
    store_update: Option<StoreUpdate>,
}

/// [`read_input`], and for an input that could not be read at all a manifest line saying
/// so (`status: failed`, no output), so the manifest accounts for every input given; a rerun
/// tries it again. Its identity is the file's when it could be taken, else its path.
fn run_input(input: &Path, shared: &RunShared) -> InputOutcome {
    let (outcome, identity) = read_input(input, shared);
    if let InputOutcome::Failed(error) = &outcome {
        let identity = identity.unwrap_or_else(|| InputIdentity {
            path: std::fs::canonicalize(input)
                .unwrap_or_else(|_| input.to_path_buf())
                .to_string_lossy()
                .into_owned(),
            size: 0,
            mtime_ns: 0,
            etag: None,
        });
        let mut entry = ManifestEntry::failed(&input.to_string_lossy(), identity, error.clone());
        entry.tool_version = TOOL_VERSION.to_string();
        entry.config_hash = shared.config_hash.clone();
        entry.settings = shared.settings.clone();
        // A manifest that cannot be written was the failure itself: nothing more to do.
        let _ = shared
            .manifest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .append(entry);
    }
    outcome
}

/// Reads one input into its shard and appends its manifest line; also returns the input's
/// identity when it could be taken.
fn read_input(input: &Path, shared: &RunShared) -> (InputOutcome, Option<InputIdentity>) {
    let RunShared {
        stages,
        config_hash,
        manifest,
        ..
    } = shared;
    let config = stages.config;
    let stem = output_stem(input);
    let output = shared.output_format.file_name(&stem);
    // One writer per output at a time: a second run sharing the directory waits here, then
    // finds the input done (the same settings) or writes it after the first. Reused inputs
    // take it too, so the one reuse check below sees what another process finished. The
    // input is opened (its identity taken) only then: one replaced while this run waited is
    // the new one.
    let lock = config.output.join(format!(".{stem}{OUTPUT_LOCK}"));
    let _writing = match acquire(&lock, "outward run", &mut |holder| {
        stages
            .reporter
            .report(&Event::WaitingForLock(WaitingForLock {
                what: input,
                lock: &lock,
                holder,
            }))
    }) {
        Ok(held) => held,
        Err(e) => {
            let error = format!("cannot lock {}: {e}", lock.display());
            return (InputOutcome::Failed(error), None);
        }
    };
    let started = std::time::SystemTime::now();
    let clock = std::time::Instant::now();
    let opened = match open_input(input, &config.remote) {
        Ok(opened) => opened,
        Err(e) => {
            return (
                InputOutcome::Failed(format!("cannot read input: {e}")),
                None,
            );
        }
    };
    let identity = opened.identity.clone();
    let failed = |e: String| (InputOutcome::Failed(e), Some(identity.clone()));
    let previous = {
        let mut m = manifest.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = m.refresh() {
            return failed(format!("cannot read manifest: {e}"));
        }
        if !config.force
            && let Some(entry) = reusable(&m, &identity, &stem, shared)
        {
            let entry = entry.clone();
            drop(m);
            remove_stale_outputs(input, &stem, &entry.output, shared);
            return (InputOutcome::Reused(entry), Some(identity));
        }
        m.latest(&identity.path).cloned()
    };
    // A file that is neither WARC nor ARC (or one of WET or WAT records: no page to extract)
    // gets no output; its manifest line says it failed (`run_input`), so a rerun tries it
    // again. ARC files are read like WARC files (the reader dispatches on the same sniff).
    match sniff_source(opened.source.as_ref()) {
        Ok(FileKind::Warc | FileKind::Arc | FileKind::Empty | FileKind::Undecoded) => {}
        Ok(kind @ (FileKind::Other { .. } | FileKind::Derived(_))) => {
            return failed(kind.to_string());
        }
        Err(e) => return failed(format!("cannot read input: {e}")),
    }
    // Done before from the same bytes, with other settings: say what changed, and that its
    // output is rewritten (and replaced, in another format).
    let rewritten = previous
        .filter(|p| p.identity == identity && p.config_hash != *config_hash && !p.is_failed())
        .map(|p| {
            let mut changes = if p.settings.is_empty() {
                vec!["its manifest line predates recorded settings".to_string()]
            } else {
                settings_changes(&p.settings, &shared.settings)
            };
            if changes.is_empty() {
                changes.push("site memory".to_string());
            }
            stages
                .reporter
                .report(&Event::SettingsChanged(SettingsChanged {
                    input,
                    changes: &changes,
                    output: &output,
                    replaces: (p.output != output).then_some(p.output.as_str()),
                }));
            changes
        });
    let mut sink = match shared.output_format.create(&config.output, &stem) {
        Ok(w) => w,
        Err(e) => return failed(format!("cannot create output: {e}")),
    };
    // With `--sites-update`: this input's pages, written beside its output before its
    // manifest line (`store_update`). Each reader's share of the memory.
    let mut learned = stages.learn_for_store.map(|kept| {
        SpillingBuilder::new(
            config.site_memory_bytes / shared.inputs_at_once.max(1),
            &config.output,
            kept,
        )
    });
    let result = stream_input(input, &opened.source, stages, &mut sink, learned.as_mut());
    if config.stop.is_set() {
        // Dropped unfinished: the temporary file goes with the sink.
        drop(sink);
        return (InputOutcome::Stopped { started: true }, Some(identity));
    }
    let result = match result {
        Ok(r) => r,
        Err(e) => return failed(e.to_string()),
    };
    if let Some(retried) = opened.retried().filter(|&n| n > 0) {
        stages
            .reporter
            .report(&Event::InputRetried(InputRetried { input, retried }));
    }
    let info = match sink.finish() {
        Ok(info) => info,
        Err(e) => return failed(format!("cannot finish output: {e}")),
    };
    if let (Some(update), Some(learned)) = (&shared.store_update, learned.as_mut())
        && let Err(e) = update.write_pending(&stem, learned)
    {
        return failed(format!(
            "cannot write {}: {e}",
            update.pending_path(&stem).display()
        ));
    }
    // A file written, truncated or replaced while it was read gives an output that may mix
    // its versions: it is partial, and its identity (taken before the read) no longer matches
    // the file, so the next run reads it again.
    let mut result = result;
    if let Some(change) = opened.changed_while_read(input) {
        result.status = match result.status {
            FileStatus::Complete => FileStatus::Partial {
                offset: identity.size,
                error: change,
            },
            FileStatus::Partial { offset, error } => FileStatus::Partial {
                offset,
                error: format!("{error}; {change}"),
            },
        };
    }
    // Read to its end without a single record: a 0-byte file, a failed download.
    let status = match result.status {
        FileStatus::Complete if result.counts.records == 0 => "empty",
        _ => result.status.name(),
    };
    let (error, error_offset) = match &result.status {
        FileStatus::Complete => (None, None),
        FileStatus::Partial { offset, error } => (Some(error.clone()), Some(*offset)),
    };
    if let Some(err) = &error {
        shared
            .stages
            .reporter
            .report(&Event::InputPartial(InputPartial {
                input,
                offset: error_offset.unwrap_or(0),
                error: err,
            }));
    }
    let entry = ManifestEntry {
        input: input.to_string_lossy().into_owned(),
        identity: identity.clone(),
        output,
        output_sha256: info.file.sha256,
        output_bytes: info.file.bytes,
        counts: result.counts,
        status: status.to_string(),
        error,
        error_offset,
        tool_version: TOOL_VERSION.to_string(),
        config_hash: config_hash.to_string(),
        settings: shared.settings.clone(),
    };
    let timing = InputTiming {
        input: entry.input.clone(),
        output: entry.output.clone(),
        output_sha256: entry.output_sha256.clone(),
        started: millis(
            started
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64()),
        ),
        seconds: millis(clock.elapsed().as_secs_f64()),
        input_bytes: identity.size,
        html_bytes: entry.counts.html_bytes,
        records: entry.counts.records,
        written: entry.counts.written,
        threads: config.threads,
        inputs_at_once: shared.inputs_at_once,
    };
    if let Err(e) = manifest
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .append_timed(entry.clone(), Some(&timing))
    {
        return failed(format!("cannot write manifest: {e}"));
    }
    remove_stale_outputs(input, &stem, &entry.output, shared);
    (
        InputOutcome::Done {
            entry,
            fractions: result.fractions,
            rewritten,
        },
        Some(identity),
    )
}

/// The manifest entry that lets this run skip `input`: one of its own settings, or, with
/// `--sites-update`, one whose pages the store holds already (`landed`, although the store
/// changed since) or whose pages still wait for the landing (an output of this run's
/// settings whose pages are neither pending nor landed is read again, to learn them).
fn reusable<'m>(
    manifest: &'m Manifest,
    identity: &InputIdentity,
    stem: &str,
    shared: &RunShared,
) -> Option<&'m ManifestEntry> {
    let dir = &shared.stages.config.output;
    let Some(update) = &shared.store_update else {
        return manifest.reusable(dir, identity, &shared.config_hash);
    };
    // Pending first: a landing records itself before it removes a pending file, so the
    // record read after a pending file was missed names its landing.
    update
        .is_pending(stem)
        .then(|| manifest.reusable(dir, identity, &shared.config_hash))
        .flatten()
        .or_else(|| {
            update
                .landed()
                .iter()
                .find_map(|hash| manifest.reusable(dir, identity, hash))
        })
}

/// Removes the outputs of `input` in other formats (`x.jsonl.zst` beside `x.warc.wet.gz`)
/// that no manifest line names, once `output` and its line are in place: a glob over the
/// directory then reads each input once. Done also when an input is reused, so a run killed
/// between the new line and the removal leaves nothing behind for long.
fn remove_stale_outputs(input: &Path, stem: &str, output: &str, shared: &RunShared) {
    let dir = &shared.stages.config.output;
    for format in FORMATS {
        let name = format.build(&OutputOptions::default()).file_name(stem);
        if name == output || !dir.join(&name).exists() {
            continue;
        }
        let m = shared.manifest.lock().unwrap_or_else(|e| e.into_inner());
        if m.names_output(&name) {
            continue;
        }
        let result = std::fs::remove_file(dir.join(&name));
        drop(m);
        shared
            .stages
            .reporter
            .report(&Event::StaleOutputRemoved(StaleOutputRemoved {
                input,
                removed: &name,
                output,
                result: &result,
            }));
    }
}

/// Extracts every document of one input into memory, in input order, with the same stages
/// as `run` (for `outward eval`). With `config.site_memory`, the memory is learned from
/// this input alone.
pub fn extract_texts(
    input: &Path,
    config: &RunConfig,
    pool: &rayon::ThreadPool,
    progress: &Progress,
    reporter: &dyn Reporter,
) -> io::Result<(Vec<ExtractedText>, StreamResult)> {
    let mut sink = TextCollector::default();
    let result = extract_documents(input, config, pool, progress, reporter, &mut sink)?;
    Ok((sink.texts, result))
}

/// Streams every document of one input into `sink`, in input order, with the same stages as
/// `run` but no output files or manifest (for `outward eval` and Python's `iter_warc`). With
/// `config.site_memory`, the memory is learned from this input alone. An error of the sink
/// stops the input and is returned.
pub fn extract_documents(
    input: &Path,
    config: &RunConfig,
    pool: &rayon::ThreadPool,
    progress: &Progress,
    reporter: &dyn Reporter,
    sink: &mut dyn DocSink,
) -> io::Result<StreamResult> {
    let extractor = config
        .extractor()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let budget = Budget::new(config.effective_window(), config.effective_inflight_bytes());
    let mut stages = Stages::new(config, &*extractor, pool, &budget, progress, reporter);
    // Pass 1 is not progress: its records would be counted twice.
    let quiet = Progress::default();
    let memory = site_memory(
        std::slice::from_ref(&input.to_path_buf()),
        &Stages {
            progress: &quiet,
            ..stages
        },
        &std::env::temp_dir(),
    )
    .map_err(io::Error::other)?;
    stages.site = memory.as_ref().map(|m| m.contexts());
    let source = input_source(input, &config.remote)?;
    stream_input(input, &source, &stages, sink, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::LOG_LIMIT;

    /// Keeps every event as `kind: message`.
    #[derive(Default)]
    struct Collect(Mutex<Vec<String>>);

    impl Reporter for Collect {
        fn report(&self, event: &Event) {
            let kind = match event {
                Event::RecordSkipped(_) => "skipped",
                Event::RecordDegraded(_) => "degraded",
                Event::SkipsNotReported(_) => "not reported",
                Event::InputPartial(_) => "partial",
                Event::InputRetried(_) => "retried",
                Event::ManifestNotCompacted(_) => "manifest",
                Event::SiteMemoryLearned(_) => "site memory",
                Event::SiteStoreUpdated(_) => "site store",
                Event::SiteLookupsFailed(_) => "site lookups",
                Event::SettingsChanged(_) => "settings",
                Event::StaleOutputRemoved(_) => "removed",
                Event::WaitingForLock(_) => "waiting",
            };
            self.0.lock().unwrap().push(format!("{kind}: {event}"));
        }
    }

    #[test]
    fn events_reach_the_reporter_rate_limited() {
        let dir = tempfile::tempdir().unwrap();
        // Twelve records over the size cap: ten reported one by one, two only counted.
        let big = outward_testkit::big_records_warc(7, &[6000; 12]);
        let big_path = dir.path().join("big.warc");
        std::fs::write(&big_path, &big.bytes).unwrap();
        // A file cut inside its 10th record: partial, the first nine pages kept.
        let (cut, _) = outward_testkit::broken_truncated();
        let cut_path = dir.path().join("cut.warc.gz");
        std::fs::write(&cut_path, &cut).unwrap();
        let mut config = RunConfig::new(dir.path().join("out"));
        config.max_record_bytes = 5000;
        config.threads = 2;
        let reporter = Collect::default();
        let reports = run(
            &[big_path, cut_path],
            &config,
            &Progress::default(),
            &reporter,
        )
        .unwrap();
        assert_eq!(reports.len(), 2);
        let events = reporter.0.into_inner().unwrap();
        let skipped: Vec<&String> = events
            .iter()
            .filter(|e| e.starts_with("skipped: big.warc@"))
            .collect();
        assert_eq!(skipped.len(), LOG_LIMIT as usize, "{events:#?}");
        assert!(
            skipped.iter().all(|e| e.contains(" too_big: ")),
            "{skipped:?}"
        );
        let first_id = &big.records.iter().find(|r| r.expect_doc).unwrap().id;
        assert!(skipped[0].contains(first_id.as_str()), "{}", skipped[0]);
        assert!(
            events.contains(&"not reported: big.warc: 2 more bad records not logged".to_string()),
            "{events:#?}"
        );
        assert!(
            events
                .iter()
                .any(|e| e.starts_with("partial: ") && e.contains("cut.warc.gz: partial at byte")),
            "{events:#?}"
        );
    }

    /// Pages reach the pool in batches and the reader waits for budget only after sending
    /// its batch: a window of one record, a byte budget smaller than any page, or the
    /// default, with one worker or two, give the same shard and the same counts (a batch
    /// held while its reader waits would hang the one-record window).
    /// A run asked to stop before it starts starts no input: each is reported not started,
    /// and nothing is written for it (no shard, no manifest line, no lock).
    #[test]
    fn a_stopped_run_starts_no_input() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("synth.warc.gz");
        std::fs::write(&input, outward_testkit::synthetic_warc_gz(11, 5)).unwrap();
        let out = dir.path().join("out");
        let config = RunConfig::new(out.clone());
        config.stop.stop(15);
        assert_eq!(config.stop.reason(), Some(15));
        let reports = run(
            std::slice::from_ref(&input),
            &config,
            &Progress::default(),
            &Collect::default(),
        )
        .unwrap();
        assert!(matches!(
            reports[0].outcome,
            InputOutcome::Stopped { started: false }
        ));
        let mut left: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert!(
            left.iter()
                .all(|f| f == ".manifest.lock" || f == "manifest.jsonl"),
            "{left:?}"
        );
        let manifest = std::fs::read_to_string(out.join(MANIFEST)).unwrap_or_default();
        assert!(manifest.is_empty(), "{manifest}");
    }

    #[test]
    fn any_budget_and_thread_count_give_the_same_shard() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [
            dir.path().join("synth.warc.gz"),
            dir.path().join("other.warc.gz"),
        ];
        std::fs::write(&inputs[0], outward_testkit::synthetic_warc_gz(11, 60)).unwrap();
        std::fs::write(&inputs[1], outward_testkit::synthetic_warc_gz(12, 40)).unwrap();
        let mut shards = Vec::new();
        // Six threads: two readers share the budget.
        for (window, inflight_bytes, threads) in [
            (0, 128 << 20, 1),
            (1, 128 << 20, 2),
            (3, 1, 1),
            (5, 64 << 10, 2),
            (1, 128 << 20, 6),
            (2, 1, 6),
            (0, 128 << 20, 2),
        ] {
            let out = dir
                .path()
                .join(format!("out-{window}-{inflight_bytes}-{threads}"));
            let mut config = RunConfig::new(out.clone());
            config.window = window;
            config.inflight_bytes = inflight_bytes;
            config.threads = threads;
            let reports = run(&inputs, &config, &Progress::default(), &Collect::default()).unwrap();
            let mut got = Vec::new();
            for (report, stem) in reports.iter().zip(["synth", "other"]) {
                let InputOutcome::Done { entry, .. } = &report.outcome else {
                    panic!("not processed: {:?}", report.outcome);
                };
                got.push(std::fs::read(out.join(format!("{stem}.jsonl.zst"))).unwrap());
                got.push(format!("{:?}", entry.counts).into_bytes());
            }
            shards.push(got);
        }
        assert!(shards[0][0].len() > 1000 && shards[0][2].len() > 1000);
        for got in &shards[1..] {
            assert!(got == &shards[0]);
        }
    }
}
