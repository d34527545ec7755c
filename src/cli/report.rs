//! `outward report OUTDIR [-o FILE]`: the output directory of a run drawn on one
//! self-contained HTML page (`outward_report`), written atomically. Exit code 2 when the
//! directory is not a run's (no manifest) or its manifest holds nothing; 0 otherwise, also
//! when shards are missing or damaged (the page says which, and stderr too).

use super::args::ReportArgs;
use std::io::Write;
use std::process::ExitCode;

pub fn report(args: ReportArgs) -> ExitCode {
    let (page, gathered) = match outward_report::report(&args.dir) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let target = args
        .output
        .clone()
        .unwrap_or_else(|| args.dir.join("report.html"));
    let written = write_atomically(&target, page.as_bytes());
    if let Err(e) = written {
        eprintln!("error: cannot write {}: {e}", target.display());
        return ExitCode::from(2);
    }
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
    ExitCode::SUCCESS
}

/// Writes `bytes` to a temporary name beside `target`, then renames it into place.
fn write_atomically(target: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| std::io::Error::other("not a file name"))?;
    let mut file = outward_output::atomic::AtomicFile::create(dir, &name.to_string_lossy())?;
    file.write_all(bytes)?;
    file.finish().map(|_| ())
}
