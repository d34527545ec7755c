//! The learned methods from WARC files and their truth: the labelled samples of a file's
//! pages ([`load_samples`]), a model trained on several files ([`train`]), written
//! atomically ([`write_model`]), and leave-one-dataset-out ([`lodo`]): each bag-scored set
//! scored by a model trained on the others, through the same stages as `outward eval`.
//!
//! Invariants: samples are gathered in file order whatever the pool's size, so the same
//! inputs give the same model bytes; a model file appears only complete and fsynced.

use crate::config::RunConfig;
use crate::events::{Progress, Reporter};
use crate::run::extract_texts;
use outward_core::methods::models::Model;
use outward_core::{ExtractOptions, Page};
use outward_eval::{DatasetReport, TruthSet};
use outward_learn::TruthBag;
use outward_learn::model::Samples;
use outward_output::atomic::AtomicFile;
use outward_warc::decode::{self, DecodeOptions};
use outward_warc::reader::{FileStatus, RawPage, ReadItem, ReaderOptions, WarcReader};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Pages labelled per job on the pool.
const SAMPLE_BATCH: usize = 64;

/// The labelled samples (of `empty`'s kind) of the pages of `input` that `truth` scores by
/// bag of tokens, joined on WARC-Record-ID, in file order, with `options` (`reverse-stage`'s
/// candidates are those `reverse` with its guards leaves; the confidence's pages are
/// extracted with its stage model); and how many pages gave them.
pub fn load_samples(
    input: &Path,
    truth: &TruthSet,
    pool: &rayon::ThreadPool,
    empty: &Samples,
    options: &ExtractOptions,
) -> Result<(Samples, usize), String> {
    let by_id: HashMap<&str, &str> = truth
        .records
        .iter()
        .filter(|r| !r.is_snippets())
        .map(|r| (r.warc_record_id.as_str(), r.truth.as_str()))
        .collect();
    let reader = WarcReader::open(input, ReaderOptions::default())
        .map_err(|e| format!("{}: {e}", input.display()))?;
    let decoding = DecodeOptions::default();
    let label = |page: &RawPage| {
        let truth = by_id.get(page.record_id.as_str())?;
        let decoded = decode::decode_body(
            &page.http_headers,
            page.content_type.as_deref(),
            &page.body,
            &decoding,
        )
        .ok()?;
        let analysed = Page::new(&decoded.html, page.target_uri.as_deref());
        Some(empty.of_page(&analysed, &TruthBag::new(truth), options))
    };
    let (mut samples, mut pages) = (empty.clone(), 0usize);
    let mut batch = Vec::new();
    let mut flush = |batch: &mut Vec<RawPage>| {
        let done: Vec<Option<Samples>> = pool.install(|| batch.par_iter().map(label).collect());
        for page in done.into_iter().flatten() {
            pages += 1;
            samples.extend(&page);
        }
        batch.clear();
    };
    for item in reader {
        if let ReadItem::Page(page) = item
            && by_id.contains_key(page.record_id.as_str())
        {
            batch.push(page);
            if batch.len() == SAMPLE_BATCH {
                flush(&mut batch);
            }
        }
    }
    flush(&mut batch);
    Ok((samples, pages))
}

/// One input of training or of leave-one-dataset-out, with its truth.
pub struct LabelledInput {
    pub input: PathBuf,
    pub truth: TruthSet,
}

/// The model of `empty`'s kind trained on every input's samples; `on_input` hears each
/// input's name, pages and samples as they are read. Returns the model and a line saying
/// how it was trained.
pub fn train(
    inputs: &[LabelledInput],
    empty: &Samples,
    pool: &rayon::ThreadPool,
    options: &ExtractOptions,
    mut on_input: impl FnMut(&str, usize, &Samples),
) -> Result<(Model, String), String> {
    let mut samples = empty.clone();
    for labelled in inputs {
        let (s, pages) = load_samples(&labelled.input, &labelled.truth, pool, empty, options)?;
        on_input(&labelled.truth.name, pages, &s);
        samples.extend(&s);
    }
    outward_learn::model::train(&samples)
}

/// Writes `model` to `path` atomically (a temporary file, fsynced, renamed): a killed
/// `train` never leaves half a model where a run would read it.
pub fn write_model(model: &Model, path: &Path) -> std::io::Result<u64> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("the model path names no file"))?
        .to_string_lossy();
    let mut file = AtomicFile::create(dir, &name)?;
    file.write_all(&model.to_bytes())?;
    Ok(file.finish()?.bytes)
}

/// What leave-one-dataset-out gave.
pub struct Lodo {
    /// One report per bag-scored input, in input order.
    pub reports: Vec<DatasetReport>,
    /// Every input read to its end.
    pub complete: bool,
    /// The inputs that could not be read, with why (they have no report).
    pub failed: Vec<(PathBuf, String)>,
    /// `reverse-stage`: every held-out page's confidence (from a confidence model fitted on
    /// the other sets' pages as that set's stage model extracts them), recall and F1, in
    /// report order; empty for the other kinds.
    pub confidence: Vec<PageConfidence>,
}

/// One held-out page's confidence and scores (leave one dataset out).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageConfidence {
    pub confidence: f64,
    pub recall: f64,
    pub f1: f64,
}

/// Leave one dataset out: for each bag-scored input of `inputs` (snippet-scored ones are
/// left out, `on_left_out` hears their names), a model of `empty`'s kind trained on the
/// others scores it through `config`'s stages (`config.extract` gets the model);
/// `on_held_out` hears each set's name, seconds and training line.
#[allow(clippy::too_many_arguments)]
pub fn lodo(
    inputs: &[LabelledInput],
    empty: &Samples,
    config: &RunConfig,
    pool: &rayon::ThreadPool,
    reporter: &dyn Reporter,
    mut on_left_out: impl FnMut(&str),
    mut on_held_out: impl FnMut(&str, f64, &str),
) -> Result<Lodo, String> {
    // Every bag-scored set's samples, read once.
    let mut sets = Vec::new();
    for labelled in inputs {
        if labelled.truth.records.iter().all(|r| r.is_snippets()) {
            on_left_out(&labelled.truth.name);
            continue;
        }
        let (samples, _) = load_samples(
            &labelled.input,
            &labelled.truth,
            pool,
            empty,
            &config.extract,
        )?;
        sets.push((labelled, samples));
    }
    if sets.len() < 2 {
        return Err("--lodo needs at least two bag-scored inputs".into());
    }
    let progress = Progress::default();
    let (mut reports, mut complete, mut failed) = (Vec::new(), true, Vec::new());
    let mut confidence = Vec::new();
    for (held, (labelled, _)) in sets.iter().enumerate() {
        let start = Instant::now();
        let mut others = empty.clone();
        for (_, (_, s)) in sets.iter().enumerate().filter(|(i, _)| *i != held) {
            others.extend(s);
        }
        let (model, line) = outward_learn::model::train(&others)
            .map_err(|e| format!("training without {}: {e}", labelled.truth.name))?;
        let mut config = config.clone();
        model.apply(&mut config.extract);
        let mut line = line;
        if matches!(empty, Samples::Stage(_)) {
            // The confidence, fitted on the other sets' pages as this stage extracts them.
            let no_pages = Samples::Confidence(Vec::new());
            let mut pages = no_pages.clone();
            for (_, (other, _)) in sets.iter().enumerate().filter(|(i, _)| *i != held) {
                let (s, _) =
                    load_samples(&other.input, &other.truth, pool, &no_pages, &config.extract)?;
                pages.extend(&s);
            }
            let (fitted, fit_line) = outward_learn::model::train(&pages).map_err(|e| {
                format!(
                    "fitting the confidence without {}: {e}",
                    labelled.truth.name
                )
            })?;
            fitted.apply(&mut config.extract);
            line = format!("{line}; confidence: {fit_line}");
        }
        let texts = match extract_texts(&labelled.input, &config, pool, &progress, reporter) {
            Ok((texts, result)) => {
                complete &= result.status == FileStatus::Complete;
                texts
            }
            Err(e) => {
                complete = false;
                failed.push((labelled.input.clone(), e.to_string()));
                continue;
            }
        };
        let confidence_of: HashMap<String, f64> = texts
            .iter()
            .filter_map(|t| Some((t.id.clone(), t.confidence?)))
            .collect();
        let predictions: HashMap<String, String> =
            texts.into_iter().map(|t| (t.id, t.text)).collect();
        on_held_out(&labelled.truth.name, start.elapsed().as_secs_f64(), &line);
        let report = outward_eval::score(&labelled.truth, &predictions);
        if !confidence_of.is_empty() {
            for doc in report.docs.iter().filter(|d| !d.truth_empty) {
                let (_, recall, f1) = doc.prf();
                confidence.push(PageConfidence {
                    confidence: confidence_of
                        .get(&doc.warc_record_id)
                        .copied()
                        .unwrap_or(0.0),
                    recall,
                    f1,
                });
            }
        }
        reports.push(report);
    }
    Ok(Lodo {
        reports,
        complete,
        failed,
        confidence,
    })
}

/// What leave-one-dataset-out says of the confidence.
pub struct ConfidenceSummary {
    pub pages: usize,
    /// Spearman's ρ between the confidence and the page's F1.
    pub spearman: f64,
    /// Pages missed (recall under one half).
    pub misses: usize,
    /// The share of them among the 5 % (10 %) least confident pages.
    pub misses_in_5: f64,
    pub misses_in_10: f64,
}

/// The summary of every held-out page's confidence; `None` without pages.
pub fn confidence_summary(pages: &[PageConfidence]) -> Option<ConfidenceSummary> {
    use outward_learn::confidence::{MISS_RECALL, least_confident_miss_share, rank_correlation};
    if pages.is_empty() {
        return None;
    }
    let conf: Vec<f64> = pages.iter().map(|p| p.confidence).collect();
    let f1: Vec<f64> = pages.iter().map(|p| p.f1).collect();
    let by_recall: Vec<(f64, f64)> = pages.iter().map(|p| (p.confidence, p.recall)).collect();
    Some(ConfidenceSummary {
        pages: pages.len(),
        spearman: rank_correlation(&conf, &f1),
        misses: pages.iter().filter(|p| p.recall < MISS_RECALL).count(),
        misses_in_5: least_confident_miss_share(&by_recall, 0.05).unwrap_or(0.0),
        misses_in_10: least_confident_miss_share(&by_recall, 0.10).unwrap_or(0.0),
    })
}
