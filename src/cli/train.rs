//! `outward train`: a learned method's model from WARC files and their ground truth, written
//! atomically. Exit code 2 for a usage error or unreadable truth, 1 when reading or training
//! fails.

use super::args::TrainArgs;
use super::eval::{labelled_inputs, truth_for};
use outward_learn::model::Samples;
use std::process::ExitCode;
use std::time::Instant;

pub fn train(args: TrainArgs) -> ExitCode {
    let start = Instant::now();
    let truths = match truth_for(&args.inputs, &args.truth) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(empty) = Samples::empty(&args.method) else {
        eprintln!("error: {} is not trainable", args.method);
        return ExitCode::from(2);
    };
    let mut threads = outward::config::all_cores();
    if let Some(t) = args.threads.filter(|&t| t > 0) {
        threads = t;
    }
    let pool = match outward::worker_pool(threads) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let inputs = match labelled_inputs(&args.inputs, &truths) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let mut read = 0.0;
    let trained = outward::learn::train(
        &inputs,
        &empty,
        &pool,
        &outward_core::ExtractOptions::default(),
        |name, pages, s| {
            eprintln!("{name}: {pages} pages, {} labelled {}", s.len(), s.unit());
            read = start.elapsed().as_secs_f64();
        },
    );
    let (model, line) = match trained {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: training {}: {e}", args.method);
            return ExitCode::from(1);
        }
    };
    let bytes = match outward::learn::write_model(&model, &args.output) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", args.output.display());
            return ExitCode::from(1);
        }
    };
    println!(
        "outward train {}: {line}\n  -> {} ({bytes} bytes, digest {:016x}); {read:.1} s reading, {:.1} s training",
        args.method,
        args.output.display(),
        model.digest(),
        start.elapsed().as_secs_f64() - read
    );
    ExitCode::SUCCESS
}
