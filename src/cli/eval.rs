//! `outward eval`: extraction scored against ground truth (the port of `score.py`: bag of
//! tokens, CJK one token per character), per dataset and as a macro, with the worst pages
//! (`--worst N`) and leave-one-dataset-out for learned methods (`--lodo`).

use super::args::EvalArgs;
use super::summary::StderrReporter;
use outward::learn::LabelledInput;
use outward::{ExtractedText, Progress, RunConfig};
use outward_core::methods::models::model_of;
use outward_eval as eval;
use outward_learn::model::Samples;
use outward_report::eval_page::{EvalPage, EvalSet, WorstPage};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn eval(args: EvalArgs) -> ExitCode {
    let truths = match truth_for(&args.inputs, &args.truth) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.lodo {
        return eval_lodo(&args, &truths);
    }
    let (config, pool) = match config_and_pool(&args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let progress = Progress::default();
    let mut reports = Vec::new();
    let mut worst: Vec<WorstPage> = Vec::new();
    let mut complete = true;
    for (input, truth_path) in args.inputs.iter().zip(&truths) {
        let truth = match eval::TruthSet::load(truth_path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let (texts, result) =
            match outward::extract_texts(input, &config, &pool, &progress, &StderrReporter) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {}: {e}", input.display());
                    complete = false;
                    continue;
                }
            };
        if result.status != outward_warc::reader::FileStatus::Complete {
            complete = false;
        }
        let predictions: HashMap<String, String> = texts
            .iter()
            .map(|t| (t.id.clone(), t.text.clone()))
            .collect();
        let report = eval::score(&truth, &predictions);
        if let Some(n) = worst_kept(&args)
            && !report.is_snippets()
        {
            collect_worst(&report, texts, n, &mut worst);
        }
        reports.push(report);
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let _ = writeln!(out, "{}", eval::render_json(&reports));
    } else {
        let _ = writeln!(out, "method {}", config.method);
        let _ = write!(out, "{}", eval::render_table(&reports));
    }
    if let Some(path) = &args.report {
        let title = config.method.clone();
        if let Err(code) = write_eval_report(path, title, &reports, worst.clone()) {
            return code;
        }
    }
    if let Some(n) = args.worst {
        worst.truncate(n);
        let _ = writeln!(
            out,
            "\nworst {} pages (F1, then recall):\n{:<16} {:>5} {:>5} {:>5} {:>11}  record / url / text",
            worst.len(),
            "dataset",
            "R",
            "P",
            "F1",
            "nodes"
        );
        for w in &worst {
            let _ = writeln!(
                out,
                "{:<16} {:>5.3} {:>5.3} {:>5.3} {:>5}/{:<5}  {}\n{:>48}  {}\n{:>48}  {}",
                w.dataset,
                w.r,
                w.p,
                w.f1,
                w.nodes_parsed,
                w.nodes_total,
                w.record_id,
                "",
                w.url.as_deref().unwrap_or("-"),
                "",
                w.text_start
            );
        }
    }
    if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Worst pages listed on a `--report` page when `--worst` does not say.
const REPORT_WORST: usize = 30;

/// How many worst pages to keep: `--worst N`, or [`REPORT_WORST`] for `--report`.
fn worst_kept(args: &EvalArgs) -> Option<usize> {
    match (args.worst, &args.report) {
        (Some(n), Some(_)) => Some(n.max(REPORT_WORST)),
        (Some(n), None) => Some(n),
        (None, Some(_)) => Some(REPORT_WORST),
        (None, None) => None,
    }
}

/// Writes the page of `--report` (errors reported: exit 2).
fn write_eval_report(
    path: &std::path::Path,
    title: String,
    reports: &[eval::DatasetReport],
    worst: Vec<WorstPage>,
) -> Result<(), ExitCode> {
    let sets = reports
        .iter()
        .map(|r| EvalSet {
            name: r.name.clone(),
            snippets: r.is_snippets(),
            p: r.summary.p,
            r: r.summary.r,
            f1: r.summary.f1,
            misses: r.summary.misses,
            scorable: r.summary.scorable,
            miss_rate: r.summary.miss_rate(),
        })
        .collect();
    let page = outward_report::eval_page::render_eval(&EvalPage { title, sets, worst });
    super::report::write_atomically(path, page.as_bytes()).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", path.display());
        ExitCode::from(2)
    })?;
    eprintln!("eval: report written to {}", path.display());
    Ok(())
}

/// Merges the `n` worst scored pages of `report` into `worst` (kept sorted, at most `n`).
fn collect_worst(
    report: &eval::DatasetReport,
    texts: Vec<ExtractedText>,
    n: usize,
    worst: &mut Vec<WorstPage>,
) {
    let mut by_id: HashMap<String, ExtractedText> =
        texts.into_iter().map(|t| (t.id.clone(), t)).collect();
    for doc in report.docs.iter().filter(|d| !d.truth_empty) {
        let (p, r, f1) = doc.prf();
        let extracted = by_id.remove(&doc.warc_record_id);
        let text: String = extracted
            .as_ref()
            .map(|t| {
                t.text
                    .chars()
                    .take(100)
                    .collect::<String>()
                    .replace('\n', " | ")
            })
            .unwrap_or_default();
        worst.push(WorstPage {
            dataset: report.name.clone(),
            record_id: doc.warc_record_id.clone(),
            url: extracted.as_ref().and_then(|t| t.url.clone()),
            p,
            r,
            f1,
            nodes_parsed: extracted.as_ref().map_or(0, |t| t.nodes_parsed),
            nodes_total: extracted.as_ref().map_or(0, |t| t.nodes_total),
            text_start: text,
        });
    }
    worst.sort_by(|a, b| a.f1.total_cmp(&b.f1).then(a.r.total_cmp(&b.r)));
    worst.truncate(n);
}

/// `eval --lodo`: each bag-scored input scored by a model trained on the other inputs.
fn eval_lodo(args: &EvalArgs, truths: &[PathBuf]) -> ExitCode {
    let method = args.method.method.as_str();
    let Some(trained) = model_of(method) else {
        eprintln!(
            "error: --lodo needs a method with a trained model (svm, template, linenet, reverse-stage), not {method}"
        );
        return ExitCode::from(2);
    };
    let Some(empty) = Samples::empty(trained) else {
        eprintln!("error: {trained} is not trainable");
        return ExitCode::from(2);
    };
    let (config, pool) = match config_and_pool(args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let inputs = match labelled_inputs(&args.inputs, truths) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let lodo = outward::learn::lodo(
        &inputs,
        &empty,
        &config,
        &pool,
        &StderrReporter,
        |name| eprintln!("lodo: {name} is snippet-scored: left out"),
        |name, seconds, line| eprintln!("lodo: {name} held out ({seconds:.1} s): {line}"),
    );
    let lodo = match lodo {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    for (input, e) in &lodo.failed {
        eprintln!("error: {}: {e}", input.display());
    }
    let reports = &lodo.reports;
    if let Some(path) = &args.report {
        let title = format!("{method}, leave one dataset out");
        if let Err(code) = write_eval_report(path, title, reports, Vec::new()) {
            return code;
        }
    }
    let mean = |f: fn(&eval::Summary) -> Option<f64>| {
        let v: Vec<f64> = reports.iter().filter_map(|r| f(&r.summary)).collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        // The same JSON as a plain eval's: each set as its held-out model scored it.
        let _ = writeln!(out, "{}", eval::render_json(reports));
    } else {
        let _ = writeln!(
            out,
            "method {method}, leave one dataset out (each set scored by a model trained on the others)"
        );
        let _ = write!(out, "{}", eval::render_table(reports));
        let _ = writeln!(
            out,
            "LODO macro over {} sets: P {:.4} R {:.4} F1 {:.4}",
            reports.len(),
            mean(|s| s.p),
            mean(|s| s.r),
            mean(|s| s.f1)
        );
        if let Some(c) = outward::learn::confidence_summary(&lodo.confidence) {
            let _ = writeln!(
                out,
                "LODO confidence over {} pages: Spearman with the page's F1 {:.4}; the 5% least confident hold {:.1}% of the {} pages missed (10%: {:.1}%)",
                c.pages,
                c.spearman,
                100.0 * c.misses_in_5,
                c.misses,
                100.0 * c.misses_in_10
            );
        }
    }
    if lodo.complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The run settings of `eval` and the pool its inputs are read with (errors reported).
fn config_and_pool(args: &EvalArgs) -> Result<(RunConfig, rayon::ThreadPool), ExitCode> {
    let config = args
        .method
        .config(&args.site, PathBuf::new(), args.threads)?;
    let pool = outward::worker_pool(config.threads).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })?;
    Ok((config, pool))
}

/// Each input with its truth set, loaded (an unreadable truth file: exit 2).
pub fn labelled_inputs(
    inputs: &[PathBuf],
    truths: &[PathBuf],
) -> Result<Vec<LabelledInput>, ExitCode> {
    inputs
        .iter()
        .zip(truths)
        .map(|(input, truth)| match eval::TruthSet::load(truth) {
            Ok(truth) => Ok(LabelledInput {
                input: input.clone(),
                truth,
            }),
            Err(e) => {
                eprintln!("error: {e}");
                Err(ExitCode::from(2))
            }
        })
        .collect()
}

/// The truth file paired with each input: `--truth` by position, else `<stem>.truth.jsonl`
/// beside the input.
pub fn truth_for(inputs: &[PathBuf], truths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    if !truths.is_empty() && truths.len() != inputs.len() {
        return Err(format!(
            "{} --truth files for {} inputs: give one per input or none",
            truths.len(),
            inputs.len()
        ));
    }
    inputs
        .iter()
        .enumerate()
        .map(|(i, input)| match truths.get(i) {
            Some(t) => Ok(t.clone()),
            None => {
                let stem = outward_output::output_stem(input);
                let t = input.with_file_name(format!("{stem}.truth.jsonl"));
                if t.exists() {
                    Ok(t)
                } else {
                    Err(format!(
                        "no --truth given and {} does not exist",
                        t.display()
                    ))
                }
            }
        })
        .collect()
}
