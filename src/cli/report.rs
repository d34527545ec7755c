//! `outward report OUTDIR [-o FILE]` (and `run --report`): the output directory of a run
//! drawn on one self-contained HTML page (`outward_report`), written atomically. Exit code 2
//! when the directory is not a run's (no manifest) or its manifest holds nothing, or the page
//! cannot be written; 0 otherwise, also when shards are missing or damaged (the page says
//! which, and stderr too).

use super::args::ReportArgs;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

pub fn report(args: ReportArgs) -> ExitCode {
    let target = args
        .output
        .clone()
        .unwrap_or_else(|| args.dir.join("report.html"));
    match write_report(&args.dir, &target) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Draws `dir` into `target`; names what could not be read (warnings) and the page written.
pub fn write_report(dir: &Path, target: &Path) -> Result<(), String> {
    let (page, gathered) = outward_report::report(dir).map_err(|e| e.to_string())?;
    write_atomically(target, page.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    for problem in &gathered.problems {
        eprintln!("warn: {}: {}", problem.input, problem.what);
    }
    println!(
        "outward report: {} ({} inputs, {} documents, {} bytes)",
        target.display(),
        gathered.inputs.len(),
        gathered.documents,
        page.len()
    );
    Ok(())
}

/// Writes `bytes` to a temporary name beside `target`, then renames it into place.
pub fn write_atomically(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| std::io::Error::other("not a file name"))?;
    let mut file = outward_output::atomic::AtomicFile::create(dir, &name.to_string_lossy())?;
    file.write_all(bytes)?;
    file.finish().map(|_| ())
}
