//! `outward extract`: HTML pages (files, directories of them, or stdin) into text, one page
//! as plain text, several (or `--json`) as one JSON document per line in input order.
//! Exit code 1 when a page could not be read or is not HTML (the others are written).

use super::args::ExtractArgs;
use outward_core::methods;
use outward_output::document::Document;
use rayon::prelude::*;
use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

pub fn extract(args: ExtractArgs) -> ExitCode {
    let options = match args.method.options() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let extractor = match methods::build(&args.method.method, &options) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let pages = match outward::input::html_files(&args.inputs) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let one = args.inputs.len() == 1 && pages.len() == 1 && !args.inputs[0].is_dir();
    if !one && args.url.is_some() {
        eprintln!("error: --url names one page: give one input with it");
        return ExitCode::from(2);
    }
    let mut out = std::io::stdout().lock();
    if one && !args.json {
        return match extract_page(&pages[0], &args, &*extractor) {
            Ok(doc) => {
                let _ = writeln!(out, "{}", doc.text);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        };
    }
    // Several pages (or --json): one document per line, in input order; a page that cannot
    // be read or is not HTML is named on stderr and counted, the others are written.
    let pool = match outward::worker_pool(outward::config::all_cores()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = 0usize;
    for chunk in pages.chunks(256) {
        let lines: Vec<Result<Vec<u8>, String>> = pool.install(|| {
            chunk
                .par_iter()
                .map(|path| {
                    let mut line = Vec::new();
                    extract_page(path, &args, &*extractor)?.write_json_line(&mut line);
                    Ok(line)
                })
                .collect()
        });
        for line in lines {
            match line {
                Ok(line) => {
                    if out.write_all(&line).is_err() {
                        return ExitCode::from(1);
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    failed += 1;
                }
            }
        }
    }
    if pages.len() > 1 {
        eprintln!(
            "extract: {} pages, {} written, {failed} failed",
            pages.len(),
            pages.len() - failed
        );
    }
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Reads, decodes and extracts one page (`-`: stdin) into its document; refuses bytes that
/// are not HTML or text.
fn extract_page(
    path: &Path,
    args: &ExtractArgs,
    extractor: &dyn outward_core::Extractor,
) -> Result<Document, String> {
    let mut bytes = Vec::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|b| bytes = b)
    };
    read.map_err(|e| format!("{}: {e}", path.display()))?;
    refuse_archive(path, &bytes)?;
    let id = path.to_string_lossy().into_owned();
    outward::worker::extract_bytes(&bytes, id, args.url.as_deref(), extractor, args.format)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A WARC, ARC, WET or WAT file given to `extract` (a plain WARC is text, and would extract
/// to its headers): refused with the command that reads it.
fn refuse_archive(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use outward_warc::reader::{FileKind, sniff_source};
    let head = &bytes[..bytes.len().min(64 << 10)];
    let kind =
        sniff_source(&outward_warc::source::InMemory::new("page", head)).unwrap_or(FileKind::Empty);
    match kind {
        FileKind::Warc | FileKind::Arc => Err(format!(
            "{}: {kind}; extract reads HTML pages: `outward run -o DIR {}` extracts the pages \
             of WARC and ARC files into shards",
            path.display(),
            path.display()
        )),
        FileKind::Derived(_) => Err(format!("{}: {kind}", path.display())),
        FileKind::Empty | FileKind::Undecoded | FileKind::Other { .. } => Ok(()),
    }
}
