//! `outward._outward`: the Python module's native half, a thin front end over
//! `outward_pipeline` like the CLI is (the Python half, `python/outward/`, turns its JSON
//! into dicts and gives the public API).
//!
//! Invariants: every document crosses as the JSON line `outward run` would write for it
//! (`Document::write_json_line`), so Python's dicts and the shards never differ; extraction and
//! runs release the GIL; bad HTML never raises (it gives a document with empty text), while
//! a bad option raises `ValueError`/`TypeError` and an input that cannot be read raises
//! `OSError` naming its path. Nothing here prints: the pipeline's warnings are returned.

use crossbeam_channel::{Receiver, Sender};
use outward_base::counts::Counts;
use outward_core::{ExtractOptions, Format, methods};
use outward_output::document::Document;
use outward_pipeline::worker;
use outward_pipeline::{
    self as pipeline, DocSink, Event, InputOutcome, Progress, Reporter, RunConfig, SiteSource,
    WorkFractions,
};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One method, its options and text format, built once and used for many pages.
#[pyclass(frozen, module = "outward._outward")]
struct Extractor {
    inner: Box<dyn outward_core::Extractor>,
    format: Format,
}

#[pymethods]
impl Extractor {
    #[new]
    #[pyo3(signature = (method = "reverse-stage", format = "text", similarity = 0.8, model = None, favor = "balanced"))]
    fn new(
        method: &str,
        format: &str,
        similarity: f64,
        model: Option<PathBuf>,
        favor: &str,
    ) -> PyResult<Self> {
        let mut options = extract_options(method, similarity, model.as_ref())?;
        options.favor = pipeline::favor_option(method, favor).map_err(value_error)?;
        let inner = methods::build(method, &options).map_err(value_error)?;
        Ok(Extractor {
            inner,
            format: text_format(format)?,
        })
    }

    /// The method's name.
    #[getter]
    fn method(&self) -> &'static str {
        self.inner.name()
    }

    /// The document of one page (bytes as fetched, or `str`) as a JSON object. Bytes are
    /// decoded as `outward extract` decodes a file; bytes that are not text give an empty
    /// document whose `metadata.skipped` says why.
    #[pyo3(signature = (html, url = None, id = None))]
    fn extract_json(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<String>,
        id: Option<String>,
    ) -> PyResult<String> {
        let id = id.unwrap_or_default();
        let url = url.as_deref();
        let (extractor, format) = (&*self.inner, self.format);
        let doc = if let Ok(bytes) = html.cast::<PyBytes>() {
            let bytes = bytes.as_bytes();
            py.detach(
                || match worker::extract_bytes(bytes, id.clone(), url, extractor, format) {
                    Ok(doc) => (doc, None),
                    Err(not_html) => {
                        let empty = not_html.empty_document(id, url, extractor, format);
                        (empty, Some(not_html.to_string()))
                    }
                },
            )
        } else if let Ok(text) = html.cast::<PyString>() {
            // Borrowed where the limited API allows (Python 3.10+), copied before.
            let text = text.to_cow()?;
            py.detach(|| {
                (
                    worker::extract_text(&text, id, url, extractor, format),
                    None,
                )
            })
        } else {
            return Err(PyTypeError::new_err(format!(
                "html must be bytes or str, not {}",
                html.get_type().name()?
            )));
        };
        Ok(json_with_skip(&doc.0, doc.1.as_deref()))
    }
}

/// The document's JSON line without its newline, with `metadata.skipped` when given.
fn json_with_skip(doc: &Document, skipped: Option<&str>) -> String {
    let mut line = Vec::new();
    doc.write_json_line(&mut line);
    while line.last() == Some(&b'\n') {
        line.pop();
    }
    let line = String::from_utf8(line).expect("serde_json writes UTF-8");
    match skipped {
        None => line,
        Some(why) => {
            let mut value: serde_json::Value =
                serde_json::from_str(&line).expect("a document line is JSON");
            if let Some(meta) = value.get_mut("metadata").and_then(|m| m.as_object_mut()) {
                meta.insert("skipped".into(), why.into());
            }
            value.to_string()
        }
    }
}

/// The method options of `method`, with its model file read.
fn extract_options(
    method: &str,
    similarity: f64,
    model: Option<&PathBuf>,
) -> PyResult<ExtractOptions> {
    if !(0.0..=1.0).contains(&similarity) {
        return Err(PyValueError::new_err(format!(
            "similarity must be between 0 and 1, not {similarity}"
        )));
    }
    pipeline::method_options(method, similarity, model.map(PathBuf::as_path)).map_err(value_error)
}

fn text_format(name: &str) -> PyResult<Format> {
    Format::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown format {name:?}: text (one line per block) or markdown"
        ))
    })
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The options `process_warc` and `iter_warc` take, as `outward run`'s flags name them.
const RUN_OPTIONS: &[&str] = &[
    "retries",
    "method",
    "format",
    "output_format",
    "threads",
    "zstd_level",
    "max_record_bytes",
    "max_nodes",
    "max_depth",
    "max_work",
    "max_comparisons",
    "min_chars",
    "lang",
    "filter",
    "filter_config",
    "signals",
    "force",
    "similarity",
    "model",
    "favor",
    "site_memory",
    "sites",
    "sites_update",
    "site_min_pages",
    "site_memory_mib",
];

/// A run's settings from keyword options (unknown names are a `TypeError`, as Python's own
/// keyword arguments are; bad values a `ValueError`).
fn run_config(
    function: &str,
    output: PathBuf,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<RunConfig> {
    let mut config = RunConfig::new(output);
    let Some(options) = options else {
        config.extract = extract_options(&config.method, 0.8, None)?;
        return Ok(config);
    };
    for key in options.keys() {
        let key: String = key.extract()?;
        if !RUN_OPTIONS.contains(&key.as_str()) {
            return Err(PyTypeError::new_err(format!(
                "{function}() got an unexpected keyword argument '{key}' (options: {})",
                RUN_OPTIONS.join(", ")
            )));
        }
    }
    fn get<'py, T: FromPyObjectOwned<'py>>(
        options: &Bound<'py, PyDict>,
        key: &str,
    ) -> PyResult<Option<T>> {
        match options.get_item(key)? {
            Some(v) if !v.is_none() => v.extract::<T>().map(Some).map_err(|e| {
                let e: PyErr = e.into();
                PyTypeError::new_err(format!("option {key}: {e}"))
            }),
            _ => Ok(None),
        }
    }
    if let Some(method) = get::<String>(options, "method")? {
        methods::find(&method)
            .ok_or_else(|| value_error(methods::UnknownMethod(method.clone())))?;
        config.method = method;
    }
    let similarity = get::<f64>(options, "similarity")?.unwrap_or(0.8);
    let model = get::<PathBuf>(options, "model")?;
    config.extract = extract_options(&config.method, similarity, model.as_ref())?;
    if let Some(n) = get::<u64>(options, "max_comparisons")? {
        config.extract.max_comparisons = n.max(1);
    }
    if let Some(favor) = get::<String>(options, "favor")? {
        config.extract.favor =
            pipeline::favor_option(&config.method, &favor).map_err(value_error)?;
    }
    if let Some(format) = get::<String>(options, "format")? {
        config.text_format = text_format(&format)?;
    }
    if let Some(name) = get::<String>(options, "output_format")? {
        config.output_format = name;
        config.output_format().map_err(value_error)?;
    }
    if let Some(threads) = get::<usize>(options, "threads")?.filter(|&t| t > 0) {
        config.threads = threads;
    }
    if let Some(level) = get::<i32>(options, "zstd_level")? {
        if !(1..=22).contains(&level) {
            return Err(PyValueError::new_err(format!(
                "zstd_level must be 1 to 22, not {level}"
            )));
        }
        config.output_options.zstd_level = level;
    }
    if let Some(bytes) = get::<u64>(options, "max_record_bytes")? {
        config.max_record_bytes = bytes;
    }
    if let Some(n) = get::<u64>(options, "max_nodes")? {
        config.filters.max_nodes = n;
    }
    if let Some(n) = get::<u32>(options, "max_depth")? {
        config.filters.max_depth = n;
    }
    if let Some(n) = get::<u64>(options, "max_work")? {
        config.filters.max_work = n;
    }
    if let Some(n) = get::<u64>(options, "min_chars")? {
        config.filters.min_chars = n;
    }
    if let Some(lang) = options.get_item("lang")?.filter(|v| !v.is_none()) {
        let codes: Vec<String> = match lang.extract::<String>() {
            Ok(joined) => joined.split(',').map(str::to_string).collect(),
            Err(_) => lang.extract().map_err(|_| {
                PyTypeError::new_err("option lang: a comma-separated str or a list of str")
            })?,
        };
        config
            .filters
            .set_languages(&codes)
            .map_err(|e| PyValueError::new_err(format!("option lang: {e}")))?;
    }
    if let Some(list) = options.get_item("filter")?.filter(|v| !v.is_none()) {
        let joined: String = match list.extract::<String>() {
            Ok(joined) => joined,
            Err(_) => list
                .extract::<Vec<String>>()
                .map_err(|_| {
                    PyTypeError::new_err("option filter: a comma-separated str or a list of str")
                })?
                .join(","),
        };
        config.filters.quality = outward_filters::Filter::parse_list(&joined)
            .map_err(|e| PyValueError::new_err(format!("option filter: {e}")))?;
    }
    if let Some(path) = get::<PathBuf>(options, "filter_config")? {
        let json = std::fs::read_to_string(&path).map_err(|e| {
            PyValueError::new_err(format!("option filter_config: {}: {e}", path.display()))
        })?;
        config.filters.quality_config = outward_filters::Config::from_json(&json).map_err(|e| {
            PyValueError::new_err(format!("option filter_config: {}: {e}", path.display()))
        })?;
    }
    config.filters.signals = get::<bool>(options, "signals")?.unwrap_or(false);
    config.force = get::<bool>(options, "force")?.unwrap_or(false);
    if let Some(n) = get::<u32>(options, "retries")? {
        config.remote.retries = n;
    }
    let site_memory = get::<bool>(options, "site_memory")?.unwrap_or(false);
    config.sites = match (get::<PathBuf>(options, "sites")?, site_memory) {
        (Some(_), true) => {
            return Err(PyValueError::new_err(
                "site_memory and sites exclude each other: sites is a store of site memory",
            ));
        }
        (Some(store), false) => SiteSource::Store(store),
        (None, true) => SiteSource::Inputs,
        (None, false) => SiteSource::None,
    };
    config.sites_update = get::<bool>(options, "sites_update")?.unwrap_or(false);
    if config.sites_update && !matches!(config.sites, SiteSource::Store(_)) {
        return Err(PyValueError::new_err("sites_update needs sites (a store)"));
    }
    if let Some(n) = get::<u32>(options, "site_min_pages")? {
        if n < 2 {
            return Err(PyValueError::new_err("site_min_pages must be at least 2"));
        }
        config.site_min_pages = n;
    }
    if let Some(mib) = get::<u64>(options, "site_memory_mib")? {
        if mib == 0 {
            return Err(PyValueError::new_err("site_memory_mib must be at least 1"));
        }
        config.site_memory_bytes = outward_pipeline::sites::mib_bytes(mib);
    }
    Ok(config)
}

/// Keeps the pipeline's warnings (skipped records, partial inputs) for the caller.
#[derive(Default)]
struct Collected(Mutex<Vec<String>>);

impl Reporter for Collected {
    fn report(&self, event: &Event) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(event.to_string());
    }
}

impl Collected {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// `outward run` on one WARC (or ARC) file into `output_dir`: the same shard bytes and
/// manifest line. Returns the run summary as JSON (see `outward.process_warc`).
#[pyfunction]
#[pyo3(signature = (path, output_dir, **options))]
fn process_warc_json(
    py: Python<'_>,
    path: PathBuf,
    output_dir: PathBuf,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    // `fail_empty` says what an empty input means to the caller, not how it is run.
    let options = options.map(|o| o.copy()).transpose()?;
    let fail_empty = match &options {
        Some(o) => {
            let value = o.get_item("fail_empty")?;
            o.del_item("fail_empty").ok();
            match value.filter(|v| !v.is_none()) {
                Some(v) => v
                    .extract::<bool>()
                    .map_err(|_| PyTypeError::new_err("option fail_empty: a bool"))?,
                None => false,
            }
        }
        None => false,
    };
    let config = run_config("process_warc", output_dir.clone(), options.as_ref())?;
    let collected = Collected::default();
    let inputs = [path.clone()];
    let reports = py
        .detach(|| pipeline::run(&inputs, &config, &Progress::default(), &collected))
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
    let report = reports.into_iter().next().expect("one report per input");
    if fail_empty && report.is_empty_input() {
        return Err(PyOSError::new_err(format!(
            "{}: {}",
            path.display(),
            pipeline::EMPTY_INPUT
        )));
    }
    let (status, entry, fractions, rewritten) = match report.outcome {
        InputOutcome::Done {
            entry,
            fractions,
            rewritten,
        } => (entry.status.clone(), entry, Some(fractions), rewritten),
        InputOutcome::Reused(entry) => ("unchanged".to_string(), entry, None, None),
        InputOutcome::Failed(e) => {
            return Err(PyOSError::new_err(format!("{}: {e}", path.display())));
        }
        // Python sets no stop signal: a KeyboardInterrupt reaches it after the call.
        InputOutcome::Stopped { .. } => {
            return Err(PyOSError::new_err(format!("{}: stopped", path.display())));
        }
    };
    let mut summary = input_summary(
        &path,
        &status,
        &entry.counts,
        fractions.as_ref(),
        collected.take(),
    );
    summary["output"] = output_dir.join(&entry.output).to_string_lossy().into();
    summary["manifest"] = serde_json::json!(entry);
    summary["settings_changed"] = serde_json::json!(rewritten);
    Ok(summary.to_string())
}

/// What `process_warc` and `iter_warc` both say of one input: its status, counts, node
/// fractions (none for an input not read again) and the pipeline's warnings.
fn input_summary(
    input: &Path,
    status: &str,
    counts: &Counts,
    fractions: Option<&WorkFractions>,
    warnings: Vec<String>,
) -> serde_json::Value {
    let quantile = |q| fractions.and_then(|f| f.nodes.quantile(q));
    let bytes_quantile = |q| fractions.and_then(|f| f.bytes.quantile(q));
    serde_json::json!({
        "input": input.to_string_lossy(),
        "status": status,
        "counts": counts,
        "nodes_fraction_median": quantile(0.5),
        "nodes_fraction_p90": quantile(0.9),
        "bytes_fraction_median": bytes_quantile(0.5),
        "bytes_fraction_p90": bytes_quantile(0.9),
        "warnings": warnings,
    })
}

/// What the pipeline's thread sends to the iterator: a document's JSON, or the end.
enum Item {
    Doc(String),
    End(Result<String, String>),
}

/// Sends each document's JSON line; fails once the iterator is gone, which stops the input.
struct ChannelSink(Sender<Item>);

impl DocSink for ChannelSink {
    fn accept(&mut self, doc: Document) -> io::Result<()> {
        self.0
            .send(Item::Doc(json_with_skip(&doc, None)))
            .map_err(|_| io::Error::other("the Python iterator was let go"))
    }
}

/// The documents of one input, in input order, as JSON; after the last, `summary` holds the
/// counts and status (see `outward.iter_warc`).
#[pyclass(module = "outward._outward")]
struct DocumentIter {
    items: Receiver<Item>,
    path: PathBuf,
    summary: Option<String>,
    finished: bool,
}

#[pymethods]
impl DocumentIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        if self.finished {
            return Ok(None);
        }
        let items = &self.items;
        let item = py.detach(|| items.recv());
        match item {
            Ok(Item::Doc(line)) => Ok(Some(line)),
            Ok(Item::End(Ok(summary))) => {
                self.finished = true;
                self.summary = Some(summary);
                Ok(None)
            }
            Ok(Item::End(Err(e))) => {
                self.finished = true;
                Err(PyOSError::new_err(format!("{}: {e}", self.path.display())))
            }
            Err(_) => {
                self.finished = true;
                Err(PyOSError::new_err(format!(
                    "{}: the pipeline thread ended without finishing",
                    self.path.display()
                )))
            }
        }
    }

    /// The input's counts and status as JSON once every document was read, else None.
    #[getter]
    fn summary_json(&self) -> Option<String> {
        self.summary.clone()
    }
}

/// Starts the pipeline on `path` on its own threads; documents arrive through the iterator
/// (at most 64 waiting, so a slow consumer holds the reading back).
#[pyfunction]
#[pyo3(signature = (path, **options))]
fn iter_warc_json(path: PathBuf, options: Option<&Bound<'_, PyDict>>) -> PyResult<DocumentIter> {
    let config = run_config("iter_warc", PathBuf::new(), options)?;
    if !outward_pipeline::input::is_remote(&path) && !path.exists() {
        return Err(PyOSError::new_err(format!(
            "{}: No such file or directory",
            path.display()
        )));
    }
    let pool = config.worker_pool().map_err(value_error)?;
    let (tx, rx) = crossbeam_channel::bounded(64);
    let input = path.clone();
    std::thread::Builder::new()
        .name("outward-iter-warc".into())
        .spawn(move || {
            let collected = Collected::default();
            let mut sink = ChannelSink(tx.clone());
            let result = pipeline::extract_documents(
                &input,
                &config,
                &pool,
                &Progress::default(),
                &collected,
                &mut sink,
            );
            let end = result
                .map(|r| {
                    let warnings = collected.take();
                    input_summary(
                        &input,
                        r.status.name(),
                        &r.counts,
                        Some(&r.fractions),
                        warnings,
                    )
                    .to_string()
                })
                .map_err(|e| e.to_string());
            let _ = tx.send(Item::End(end));
        })
        .map_err(|e| PyOSError::new_err(format!("cannot start the pipeline thread: {e}")))?;
    Ok(DocumentIter {
        items: rx,
        path,
        summary: None,
        finished: false,
    })
}

/// Every method: (name, one-line summary), the default first.
#[pyfunction]
fn methods_list() -> Vec<(&'static str, &'static str)> {
    methods::REGISTRY
        .iter()
        .map(|m| (m.name, m.summary))
        .collect()
}

#[pymodule]
fn _outward(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", pipeline::TOOL_VERSION)?;
    m.add_class::<Extractor>()?;
    m.add_class::<DocumentIter>()?;
    m.add_function(wrap_pyfunction!(process_warc_json, m)?)?;
    m.add_function(wrap_pyfunction!(iter_warc_json, m)?)?;
    m.add_function(wrap_pyfunction!(methods_list, m)?)?;
    Ok(())
}
