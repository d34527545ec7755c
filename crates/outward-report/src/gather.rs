//! What a report draws, gathered from an output directory: its manifest (every input's
//! status and counts), its timings log (how long each input took, when the run logged it)
//! and the documents of its shards (Dolma `.jsonl.zst`, WET `.warc.wet.gz` or `.parquet`),
//! read once, in manifest order.
//!
//! Invariants: read-only (the manifest's lock is not taken, nothing is written); a missing
//! or damaged shard is recorded as a [`Problem`] with what could be read of it, never a
//! panic; the random sample of documents depends only on the documents (a seeded reservoir).

use outward_base::counts::Counts;
use outward_filters::{SignalKind, Signals};
use outward_output::manifest::{MANIFEST, ManifestEntry, parse_manifest};
use outward_output::timings::{InputTiming, TIMINGS, current_timings, parse_timings};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// Documents shown whole (their first characters) on the page.
pub const SAMPLE_DOCS: usize = 20;
/// Characters of each sampled document shown.
pub const SAMPLE_CHARS: usize = 300;

/// Everything a report shows.
#[derive(Debug, Default)]
pub struct Gathered {
    pub dir: PathBuf,
    /// Manifest lines, sorted by input path.
    pub inputs: Vec<ManifestEntry>,
    /// Counts of every input, added.
    pub totals: Counts,
    /// The timing of each input's output as it is now, in the order the inputs were started
    /// (inputs reused from a run that logged no timing have none).
    pub timings: Vec<InputTiming>,
    /// Documents read from the shards.
    pub documents: u64,
    /// Documents per language code (`none` when none was identified), with the sum of their
    /// `language_score`.
    pub languages: BTreeMap<String, (u64, f64)>,
    /// Per language code, documents per tenth of their `language_score` (0..=9; 1.0 is in 9).
    pub language_scores: BTreeMap<String, [u64; 10]>,
    /// Documents per power-of-two bucket of their text's characters (bucket `k`: `2^k ..
    /// 2^(k+1) - 1`).
    pub text_chars: BTreeMap<u32, u64>,
    /// Documents per tenth of `nodes_parsed / nodes_total` (0..=9; 1.0 is in 9).
    pub nodes_fraction: [u64; 10],
    /// Documents that report node counts (WET output does not).
    pub with_nodes: u64,
    /// Per host: documents, characters of text and bytes of text (UTF-8).
    pub hosts: BTreeMap<String, (u64, u64, u64)>,
    /// Documents from which site memory took template blocks, and how many in all.
    pub template_pages: u64,
    pub template_removed: u64,
    /// Documents written with `--signals`.
    pub with_signals: u64,
    /// Of those, documents no quality filter would drop.
    pub passing_all_filters: u64,
    /// Of those, documents each filter would drop, by (filter, rule).
    pub would_drop: BTreeMap<(String, String), u64>,
    /// Per number of the signals (`outward_filters::Signals::FIELDS`, by index; rules have
    /// none): documents per [`signal_bucket`].
    pub signal_histograms: BTreeMap<usize, BTreeMap<u32, u64>>,
    /// A seeded sample of documents: URL, title, language, the start of the text.
    pub sample: Vec<SampleDoc>,
    /// What could not be read.
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone)]
pub struct SampleDoc {
    pub url: String,
    pub title: String,
    pub language: String,
    pub text: String,
}

/// Something of the directory that could not be read as the manifest says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub input: String,
    pub what: String,
}

/// Why no report could be made at all.
#[derive(Debug)]
pub enum GatherError {
    /// No `manifest.jsonl` (or not a directory): not an output directory of `outward run`.
    NotARun(PathBuf),
    /// The manifest holds no readable line.
    EmptyManifest(PathBuf),
}

impl std::fmt::Display for GatherError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GatherError::NotARun(dir) => write!(
                f,
                "{} has no {MANIFEST}: not an output directory of `outward run`",
                dir.display()
            ),
            GatherError::EmptyManifest(dir) => write!(
                f,
                "{} holds no readable line: nothing to report",
                dir.join(MANIFEST).display()
            ),
        }
    }
}

impl std::error::Error for GatherError {}

/// Reads `dir`'s manifest and the shards it names.
pub fn gather(dir: &Path) -> Result<Gathered, GatherError> {
    let text = std::fs::read_to_string(dir.join(MANIFEST))
        .map_err(|_| GatherError::NotARun(dir.to_path_buf()))?;
    let inputs: Vec<ManifestEntry> = parse_manifest(&text).into_values().collect();
    if inputs.is_empty() {
        return Err(GatherError::EmptyManifest(dir.to_path_buf()));
    }
    let mut g = Gathered {
        dir: dir.to_path_buf(),
        ..Gathered::default()
    };
    let mut sampler = Reservoir::new(0x6f75_7477_6172_6421);
    for entry in &inputs {
        g.totals.add(&entry.counts);
        if entry.output.is_empty() {
            let why = entry.error.as_deref().unwrap_or("no output");
            g.problems.push(Problem {
                input: entry.input.clone(),
                what: format!("{}: {why}", entry.status),
            });
            continue;
        }
        let path = dir.join(&entry.output);
        let before = g.documents;
        let read = read_shard(&path, &mut |doc| g.add(doc, &mut sampler));
        let read_docs = g.documents - before;
        match read {
            Err(e) => g.problems.push(Problem {
                input: entry.input.clone(),
                what: format!("{}: {e} (read {read_docs} documents of it)", entry.output),
            }),
            Ok(()) if read_docs != entry.counts.written => g.problems.push(Problem {
                input: entry.input.clone(),
                what: format!(
                    "{}: {read_docs} documents, the manifest says {}",
                    entry.output, entry.counts.written
                ),
            }),
            Ok(()) => {}
        }
    }
    g.sample = sampler.finish();
    let logged = std::fs::read_to_string(dir.join(TIMINGS)).unwrap_or_default();
    g.timings = current_timings(parse_timings(&logged), &inputs)
        .into_values()
        .collect();
    g.timings
        .sort_by(|a, b| a.started.total_cmp(&b.started).then(a.input.cmp(&b.input)));
    g.inputs = inputs;
    Ok(g)
}

impl Gathered {
    fn add(&mut self, doc: Value, sampler: &mut Reservoir) {
        self.documents += 1;
        let meta = &doc["metadata"];
        let text = doc["text"].as_str().unwrap_or("");
        let chars = meta["text_chars"]
            .as_u64()
            .unwrap_or_else(|| text.chars().count() as u64);
        let language = meta["language"].as_str().unwrap_or("none").to_string();
        let score = meta["language_score"].as_f64().unwrap_or(0.0);
        let slot = self.languages.entry(language.clone()).or_default();
        slot.0 += 1;
        slot.1 += score;
        self.language_scores.entry(language.clone()).or_default()[tenth(score)] += 1;
        *self.text_chars.entry(doubling_bucket(chars)).or_default() += 1;
        if let (Some(parsed), Some(total)) =
            (meta["nodes_parsed"].as_u64(), meta["nodes_total"].as_u64())
            && total > 0
        {
            let tenth = (parsed.min(total) * 10 / total).min(9) as usize;
            self.nodes_fraction[tenth] += 1;
            self.with_nodes += 1;
        }
        let url = meta["url"].as_str().unwrap_or("");
        let host = outward_core::host_of(url).unwrap_or_else(|| "(no URL)".to_string());
        let slot = self.hosts.entry(host).or_default();
        slot.0 += 1;
        slot.1 += chars;
        slot.2 += text.len() as u64;
        if let Some(drops) = meta["signals"]["would_drop"].as_object() {
            for (i, field) in Signals::FIELDS.iter().enumerate() {
                let value = &meta["signals"][field.group][field.name];
                let bucket = match field.kind {
                    SignalKind::Count => {
                        value.as_u64().map(|n| signal_bucket(field.kind, n as f64))
                    }
                    SignalKind::Ratio => value.as_f64().map(|x| signal_bucket(field.kind, x)),
                    SignalKind::Rule => None,
                };
                if let Some(bucket) = bucket {
                    let histogram = self.signal_histograms.entry(i).or_default();
                    *histogram.entry(bucket).or_default() += 1;
                }
            }
            self.with_signals += 1;
            self.passing_all_filters += u64::from(drops.is_empty());
            for (filter, rule) in drops {
                let rule = rule.as_str().unwrap_or("").to_string();
                *self.would_drop.entry((filter.clone(), rule)).or_default() += 1;
            }
        }
        if let Some(n) = meta["template_removed"].as_u64() {
            self.template_pages += u64::from(n > 0);
            self.template_removed += n;
        }
        sampler.offer(|| SampleDoc {
            url: url.to_string(),
            title: meta["title"].as_str().unwrap_or("").to_string(),
            language,
            text: text.chars().take(SAMPLE_CHARS).collect(),
        });
    }
}

/// The bucket of buckets doubling that holds `n`: `k` for `2^k ..= 2^(k+1) - 1`, and 0 for 0.
pub fn doubling_bucket(n: u64) -> u32 {
    n.max(1).ilog2()
}

/// What [`doubling_bucket`] `k` holds from 1 up: `2^k – 2^(k+1) - 1`.
pub fn doubling_label(k: u32) -> String {
    format!("{} – {}", 1u64 << k, (1u64 << (k + 1)) - 1)
}

/// The tenth (0..=9) of a share from 0 to 1 that holds it; 1.0 (and above) is in 9, below
/// 0 in 0.
pub fn tenth(share: f64) -> usize {
    ((share.max(0.0) * 10.0) as usize).min(9)
}

/// What [`tenth`] `i` holds: `0.3 – 0.4`; the last is `0.9 – 1.0`.
pub fn tenth_label(i: usize) -> String {
    match i {
        0..9 => format!("0.{i} – 0.{}", i + 1),
        _ => "0.9 – 1.0".to_string(),
    }
}

/// The histogram bucket of a signal's value. A count: its power of two (`k`: `2^k .. 2^(k+1) -
/// 1`, and 0 in bucket 0 with 1). A ratio: its tenth (0..=9, 1.0 in 9) when at most 1, else
/// `10 + ` its whole part (a mean word length), the whole part capped at 50.
pub fn signal_bucket(kind: SignalKind, value: f64) -> u32 {
    match kind {
        SignalKind::Count => doubling_bucket(value as u64),
        _ if value <= 1.0 => tenth(value) as u32,
        _ => 10 + (value as u32).min(50),
    }
}

/// What [`signal_bucket`] `bucket` holds, for a label.
pub fn signal_bucket_label(kind: SignalKind, bucket: u32) -> String {
    match kind {
        SignalKind::Count if bucket == 0 => "0 – 1".to_string(),
        SignalKind::Count => doubling_label(bucket),
        _ if bucket <= 9 => tenth_label(bucket as usize),
        _ => format!("{} – {}", bucket - 10, bucket - 9),
    }
}

/// Calls `each` with every document of a shard, in order; a damaged shard ends with the
/// error after the documents before the damage.
fn read_shard(path: &Path, each: &mut dyn FnMut(Value)) -> std::io::Result<()> {
    let file = std::fs::File::open(path)?;
    let name = path.to_string_lossy();
    if name.ends_with(".warc.wet.gz") {
        read_wet(file, each)
    } else if name.ends_with(".parquet") {
        outward_output::format::parquet::read_documents(path, each)
    } else {
        read_jsonl(zstd::stream::read::Decoder::new(file)?, each)
    }
}

fn read_jsonl(reader: impl Read, each: &mut dyn FnMut(Value)) -> std::io::Result<()> {
    for line in BufReader::new(reader).lines() {
        let line = line?;
        if line.is_empty() {
            continue;
        }
        let doc: Value = serde_json::from_str(&line)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        each(doc);
    }
    Ok(())
}

/// WET output: each `conversion` record a document (its URL, language and text; WET holds no
/// title or node counts).
fn read_wet(file: std::fs::File, each: &mut dyn FnMut(Value)) -> std::io::Result<()> {
    let mut reader = BufReader::new(flate2::read::MultiGzDecoder::new(file));
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with("WARC/") {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("not a WARC record: {:?}", line.trim_end()),
            ));
        }
        let mut headers: BTreeMap<String, String> = BTreeMap::new();
        loop {
            line.clear();
            if reader.read_line(&mut line)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_string());
            }
        }
        let length: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::InvalidData, "no Content-Length")
            })?;
        let mut body = vec![0u8; length];
        reader.read_exact(&mut body)?;
        if headers.get("warc-type").map(String::as_str) == Some("conversion") {
            let language = headers
                .get("warc-identified-content-language")
                .map(|l| l.split(',').next().unwrap_or("").to_string());
            each(serde_json::json!({
                "text": String::from_utf8_lossy(&body),
                "metadata": {
                    "url": headers.get("warc-target-uri"),
                    "language": language,
                },
            }));
        }
    }
}

/// A seeded reservoir of [`SAMPLE_DOCS`] documents: the same documents in the same order
/// give the same sample.
struct Reservoir {
    state: u64,
    seen: u64,
    kept: Vec<SampleDoc>,
}

impl Reservoir {
    fn new(seed: u64) -> Reservoir {
        Reservoir {
            state: seed,
            seen: 0,
            kept: Vec::new(),
        }
    }

    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Offers the next document (made only when it is kept).
    fn offer(&mut self, doc: impl FnOnce() -> SampleDoc) {
        self.seen += 1;
        if self.kept.len() < SAMPLE_DOCS {
            self.kept.push(doc());
            return;
        }
        let slot = self.next() % self.seen;
        if (slot as usize) < SAMPLE_DOCS {
            self.kept[slot as usize] = doc();
        }
    }

    fn finish(self) -> Vec<SampleDoc> {
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_the_same_for_the_same_documents() {
        let run = || {
            let mut r = Reservoir::new(7);
            for i in 0..1000 {
                r.offer(|| SampleDoc {
                    url: i.to_string(),
                    title: String::new(),
                    language: String::new(),
                    text: String::new(),
                });
            }
            r.finish().into_iter().map(|d| d.url).collect::<Vec<_>>()
        };
        let first = run();
        assert_eq!(first.len(), SAMPLE_DOCS);
        assert_eq!(first, run());
        // Not just the first twenty.
        assert!(
            first.iter().any(|u| u.parse::<u32>().unwrap() >= 100),
            "{first:?}"
        );
    }
}
