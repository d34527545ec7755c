//! One input through the stages: a reader thread copies records out of the file and hands
//! its pages to the shared worker pool in batches (one job and one message per batch:
//! wake-ups are system calls); workers run the per-page work ([`crate::worker`]) and send
//! results on an unbounded channel (a worker never blocks); this thread reorders them by
//! sequence number and feeds a [`DocSink`] in input order, counting every record.
//!
//! Invariants: every record read lands in exactly one `Counts` bucket; output order is input
//! order whatever the thread count; at most the run's [`Budget`] is held between reader and
//! sink; a sink that fails stops the reading, and the records already read still arrive.

use crate::budget::Budget;
use crate::config::RunConfig;
use crate::events::{
    Event, Progress, RecordDegraded, RecordSkipped, Reporter, SkipsNotReported, WorkFractions,
};
use crate::sites::SpillingBuilder;
use crate::worker::{PageOutcome, process_page_learning};
use outward_base::counts::{Counts, SkipReason};
use outward_core::site::SampleNeeds;
use outward_core::{Extractor, SiteContexts};
use outward_output::document::Document;
use outward_output::format::ShardWrite;
use outward_warc::reader::{FileStatus, RawPage, ReadItem, ReaderOptions, Skip, WarcReader};
use outward_warc::source::ByteSource;
use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Receives an input's documents in input order.
pub trait DocSink {
    fn accept(&mut self, doc: Document) -> io::Result<()>;
}

/// Writes documents into an input's output file.
impl DocSink for Box<dyn ShardWrite> {
    fn accept(&mut self, doc: Document) -> io::Result<()> {
        self.write(&doc)
    }
}

/// A document's id (its WARC-Record-ID), text, and what `outward eval --worst` shows of it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractedText {
    pub id: String,
    pub text: String,
    pub url: Option<String>,
    pub nodes_parsed: u64,
    pub nodes_total: u64,
    /// `metadata.extraction_confidence`.
    pub confidence: Option<f64>,
}

/// Collects the documents' ids and texts (for `outward eval`).
#[derive(Default)]
pub struct TextCollector {
    pub texts: Vec<ExtractedText>,
}

impl DocSink for TextCollector {
    fn accept(&mut self, doc: Document) -> io::Result<()> {
        self.texts.push(ExtractedText {
            id: doc.id,
            text: doc.text,
            url: doc.metadata.url,
            nodes_parsed: doc.metadata.nodes_parsed,
            nodes_total: doc.metadata.nodes_total,
            confidence: doc.metadata.extraction_confidence,
        });
        Ok(())
    }
}

/// The result of streaming one input through the stages.
#[derive(Debug, Clone)]
pub struct StreamResult {
    pub counts: Counts,
    pub status: FileStatus,
    pub fractions: WorkFractions,
}

/// How many per-record problems are logged per input before the rest are only counted.
pub(crate) const LOG_LIMIT: u64 = 10;

/// What [`fan_out`] hands its caller: results of the per-page work, skips of the reader,
/// in any order; then the end of the input.
pub(crate) enum Fanned<T> {
    Page {
        seq: u64,
        out: T,
        payload_bytes: u64,
    },
    Skipped {
        seq: u64,
        skip: Skip,
    },
    End {
        records: u64,
        status: FileStatus,
    },
}

/// Pages a batch holds at most: one job on the pool and one message back per batch, not per
/// page (each costs wake-ups, system calls, when a thread sleeps).
const BATCH_PAGES: usize = 16;
/// Payload bytes after which a batch is sent whatever its page count: a few big pages are
/// work enough for one job, and the other workers should get theirs.
const BATCH_BYTES: u64 = 1 << 20;

/// Pages read and not yet handed to the pool, with their sequence numbers and payload bytes.
#[derive(Default)]
struct PageBatch {
    pages: Vec<(u64, RawPage, u64)>,
    bytes: u64,
}

impl PageBatch {
    /// Adds a page; `true` when the batch is full and should be sent.
    fn push(&mut self, seq: u64, page: RawPage, bytes: u64) -> bool {
        self.pages.push((seq, page, bytes));
        self.bytes += bytes;
        self.pages.len() >= BATCH_PAGES || self.bytes >= BATCH_BYTES
    }

    fn take(&mut self) -> Vec<(u64, RawPage, u64)> {
        self.bytes = 0;
        std::mem::take(&mut self.pages)
    }
}

/// One input through the shared pool: a reader thread copies records out of the file and
/// spawns `work` for its pages on the pool, in batches; `on` runs on this thread for every
/// result, in completion order, then once with `End` (after all results). `on` must release
/// each page's payload bytes from the budget. Errors only when the file cannot be opened; a
/// reader that dies without finishing ends the input as partial. Once `stop` is set (by `on`),
/// no more records are read; those already read still arrive.
pub(crate) fn fan_out<T: Send>(
    source: &Arc<dyn ByteSource>,
    stages: &Stages,
    work: &(dyn Fn(RawPage) -> T + Sync),
    stop: &AtomicBool,
    mut on: impl FnMut(Fanned<T>),
) -> io::Result<()> {
    let Stages {
        config,
        pool,
        budget,
        progress,
        ..
    } = *stages;
    let reader_options = ReaderOptions {
        max_record_bytes: config.max_record_bytes,
    };
    enum Msg<T> {
        Item(Fanned<T>),
        Batch(Vec<Fanned<T>>),
        OpenFailed(io::Error),
    }
    let (tx, rx) = crossbeam_channel::unbounded::<Msg<T>>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            // fastwarc's records are !Send: the reader lives and dies on this thread.
            let mut reader = match WarcReader::open_source(Arc::clone(source), reader_options) {
                Ok(r) => r,
                Err(e) => {
                    let _ = tx.send(Msg::OpenFailed(e));
                    return;
                }
            };
            let mut seq = 0u64;
            // Pages go to the pool in batches (see `BATCH_PAGES`), each page holding its
            // share of the budget; a batch is sent before the reader waits for budget, so the
            // pages it holds can be written and free what they hold.
            let mut batch = PageBatch::default();
            // Jobs borrow `work`; the scope waits for all of them.
            pool.in_place_scope(|jobs| {
                let send = |batch: &mut PageBatch| {
                    let pages = batch.take();
                    if pages.is_empty() {
                        return;
                    }
                    let tx = tx.clone();
                    jobs.spawn(move |_| {
                        let out = pages
                            .into_iter()
                            .map(|(seq, page, payload_bytes)| Fanned::Page {
                                seq,
                                out: work(page),
                                payload_bytes,
                            })
                            .collect();
                        // The receiver waits for every job of its input: this send only
                        // fails if it is gone, and then the result is moot.
                        let _ = tx.send(Msg::Batch(out));
                    });
                };
                let acquire = |batch: &mut PageBatch, bytes: u64| {
                    if !budget.try_acquire(bytes) {
                        send(batch);
                        budget.acquire(bytes);
                    }
                };
                for item in reader.by_ref() {
                    if stop.load(Ordering::Relaxed) || config.stop.is_set() {
                        break;
                    }
                    progress.records.fetch_add(1, Ordering::Relaxed);
                    match item {
                        ReadItem::Page(page) => {
                            let bytes = page.body.len() as u64;
                            progress.payload_bytes.fetch_add(bytes, Ordering::Relaxed);
                            acquire(&mut batch, bytes);
                            // A batch is sent early when another reader waits for budget:
                            // this reader may wait long for its next record (a stalled
                            // remote input), and its pages must not hold the budget then.
                            if batch.push(seq, page, bytes) || budget.contended() {
                                send(&mut batch);
                            }
                        }
                        ReadItem::Skipped(skip) => {
                            acquire(&mut batch, 0);
                            let _ = tx.send(Msg::Item(Fanned::Skipped { seq, skip }));
                        }
                    }
                    seq += 1;
                }
                send(&mut batch);
            });
            let _ = tx.send(Msg::Item(Fanned::End {
                records: seq,
                status: reader.status(),
            }));
        });
        let mut received = 0u64;
        let mut end: Option<(u64, FileStatus)> = None;
        loop {
            if let Some((records, _)) = &end
                && received >= *records
            {
                let (records, status) = end.take().expect("checked above");
                on(Fanned::End { records, status });
                return Ok(());
            }
            match rx.recv() {
                Ok(Msg::Item(Fanned::End { records, status })) => end = Some((records, status)),
                Ok(Msg::Item(item)) => {
                    received += 1;
                    on(item);
                }
                Ok(Msg::Batch(items)) => {
                    for item in items {
                        received += 1;
                        on(item);
                    }
                }
                Ok(Msg::OpenFailed(e)) => return Err(e),
                // The reader thread ended without End: it panicked; keep what we have.
                Err(_) => {
                    on(Fanned::End {
                        records: received,
                        status: FileStatus::Partial {
                            offset: 0,
                            error: "reader thread failed".into(),
                        },
                    });
                    return Ok(());
                }
            }
        }
    })
}

/// Streams one input: reader thread → rayon pool → this thread, in order, into `sink`; with
/// `learned` (and [`Stages::learn_for_store`]), each page's prints go into it too.
pub(crate) fn stream_input(
    path: &Path,
    source: &Arc<dyn ByteSource>,
    stages: &Stages,
    sink: &mut dyn DocSink,
    mut learned: Option<&mut SpillingBuilder>,
) -> io::Result<StreamResult> {
    let Stages {
        config,
        extractor,
        site,
        learn_for_store,
        budget,
        progress,
        reporter,
        ..
    } = *stages;
    let warc_file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let decode_options = config.decode_options();
    let format = config.text_format;
    /// A record's result, by its sequence number in the input.
    struct Processed {
        outcome: PageOutcome,
        payload_bytes: u64,
        html_bytes: u64,
    }
    let mut counts = Counts::default();
    let mut fractions = WorkFractions::default();
    let mut sink_error: Option<io::Error> = None;
    let mut logged = 0u64;
    let mut pending: BTreeMap<u64, Processed> = BTreeMap::new();
    let mut next = 0u64;
    let mut status = FileStatus::Complete;
    let filters = &config.filters;
    let work = |page: RawPage| {
        process_page_learning(
            page,
            &warc_file,
            extractor,
            site,
            &decode_options,
            format,
            filters,
            learn_for_store,
        )
    };
    // A sink that fails (a full disk, a Python iterator let go) stops the reading.
    let stop = AtomicBool::new(false);
    fan_out(source, stages, &work, &stop, |item| {
        match item {
            Fanned::Page {
                seq,
                out: (outcome, html_bytes, prints),
                payload_bytes,
            } => {
                // Order-free: what the store learns does not depend on completion order.
                if let (Some(learned), Some(prints)) = (learned.as_deref_mut(), prints) {
                    learned.add(prints);
                }
                pending.insert(
                    seq,
                    Processed {
                        outcome,
                        payload_bytes,
                        html_bytes,
                    },
                );
            }
            Fanned::Skipped { seq, skip } => {
                pending.insert(
                    seq,
                    Processed {
                        outcome: PageOutcome::Skip(skip),
                        payload_bytes: 0,
                        html_bytes: 0,
                    },
                );
            }
            Fanned::End { status: s, .. } => status = s,
        }
        while let Some(Processed {
            outcome,
            payload_bytes,
            html_bytes,
        }) = pending.remove(&next)
        {
            counts.records += 1;
            counts.html_bytes += html_bytes;
            match outcome {
                PageOutcome::Doc(doc) => {
                    counts.html += 1;
                    fractions.add(
                        (doc.metadata.nodes_parsed, doc.metadata.nodes_total),
                        (doc.metadata.bytes_parsed, doc.metadata.page_bytes),
                    );
                    let degraded = doc.metadata.degraded;
                    let text_chars = doc.metadata.text_chars;
                    let (offset, record_id) = match degraded {
                        Some(_) => (doc.metadata.warc_offset, doc.id.clone()),
                        None => (None, String::new()),
                    };
                    if sink_error.is_none() {
                        match sink.accept(*doc) {
                            Ok(()) => {
                                counts.written += 1;
                                counts.text_chars += text_chars;
                                progress.written.fetch_add(1, Ordering::Relaxed);
                                if let Some(budget) = degraded {
                                    counts.degraded += 1;
                                    logged += 1;
                                    if logged <= LOG_LIMIT {
                                        reporter.report(&Event::RecordDegraded(RecordDegraded {
                                            warc_file: &warc_file,
                                            offset: offset.unwrap_or(0),
                                            record_id: &record_id,
                                            budget,
                                        }));
                                    }
                                }
                            }
                            Err(e) => {
                                sink_error = Some(e);
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
                PageOutcome::Skip(skip) => {
                    if html_bytes > 0 {
                        counts.html += 1;
                    }
                    counts.skip(skip.reason);
                    progress.skipped.fetch_add(1, Ordering::Relaxed);
                    if is_worth_logging(skip.reason) {
                        logged += 1;
                        if logged <= LOG_LIMIT {
                            reporter.report(&Event::RecordSkipped(RecordSkipped {
                                warc_file: &warc_file,
                                offset: skip.offset,
                                record_id: skip.record_id.as_deref(),
                                reason: skip.reason,
                                detail: &skip.detail,
                            }));
                        }
                    }
                }
            }
            budget.release(payload_bytes);
            next += 1;
        }
    })?;
    if logged > LOG_LIMIT {
        reporter.report(&Event::SkipsNotReported(SkipsNotReported {
            warc_file: &warc_file,
            count: logged - LOG_LIMIT,
        }));
    }
    // A non-empty file in which no WARC record was found at all is not a WARC file.
    if status == FileStatus::Complete
        && counts.records == 0
        && std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
    {
        status = FileStatus::Partial {
            offset: 0,
            error: "no WARC record found".into(),
        };
    }
    if let Some(e) = sink_error {
        return Err(e);
    }
    Ok(StreamResult {
        counts,
        status,
        fractions,
    })
}

fn is_worth_logging(reason: SkipReason) -> bool {
    matches!(
        reason,
        SkipReason::BadRecord
            | SkipReason::DecodeError
            | SkipReason::TooBig
            | SkipReason::ExtractFailed
            | SkipReason::OverBudget
    )
}

/// The stages an input streams through, and who hears about it.
#[derive(Clone, Copy)]
pub(crate) struct Stages<'a> {
    pub(crate) config: &'a RunConfig,
    pub(crate) extractor: &'a dyn Extractor,
    /// What repeats across each host's pages, when the run learned it.
    pub(crate) site: Option<&'a dyn SiteContexts>,
    /// `--sites-update`: each page's prints are taken for the store, carrying this of the
    /// sample pages (what the store keeps).
    pub(crate) learn_for_store: Option<SampleNeeds>,
    pub(crate) pool: &'a rayon::ThreadPool,
    pub(crate) budget: &'a Budget,
    pub(crate) progress: &'a Progress,
    pub(crate) reporter: &'a dyn Reporter,
}

impl<'a> Stages<'a> {
    /// The stages of a run without site memory (set `site` and `learn_for_store` after).
    pub(crate) fn new(
        config: &'a RunConfig,
        extractor: &'a dyn Extractor,
        pool: &'a rayon::ThreadPool,
        budget: &'a Budget,
        progress: &'a Progress,
        reporter: &'a dyn Reporter,
    ) -> Self {
        Stages {
            config,
            extractor,
            site: None,
            learn_for_store: None,
            pool,
            budget,
            progress,
            reporter,
        }
    }
}
