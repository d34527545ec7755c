//! The nightly flow under fire (#42): `outward run` over many inputs of mixed formats (the
//! dev sets' pages dealt out into `.warc.gz`, `.warc` and `.warc.zst` files when
//! `../shared` is there; each night writing Dolma, Parquet or WET),
//! `sites build` and `sites merge`, and the nightly `run --sites STORE --sites-update`, hit
//! at seeded random moments by SIGKILL, by a second process on the same output directory or
//! store, and by a disk that fills; after every fault the directory holds nothing silently
//! complete, and after a rerun it and the store converge to exactly the bytes of one clean
//! run. A SIGTERM stops a run cleanly: exit 143, what it did said, no temporary file or lock
//! left.
//!
//! Remote inputs come over HTTP and S3 (path-style: moto's server when `make test`'s venv
//! has it, behind the test server as a proxy) through a local server that answers 503, cuts
//! connections and stalls (longer than `--read-timeout`) every so often, and replaces one
//! object while a run reads it (once a night: that run's line for it is partial or failed,
//! and the next run reads the new object).
//!
//! The short form ([`soak_short`], part of `make check`: ≥ 20 kills, a few collisions and
//! disk-full events, seconds) and the full one (`make soak`: [`soak_full`], `#[ignore]`d,
//! ≥ 200 kills, ≥ 20 collisions and ≥ 20 disk-full events) are the same harness with other
//! counts. `SOAK_SEED` replays a seed; the tally and the seed are printed.

use crate::common::{TinyDisk, files_in, manifest_lines, outward, shared_data};
use outward_testkit::http_server::{FaultCounts, Faults, TestServer};
use outward_testkit::{self as testkit, Compression, SynthOptions};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// How much of each fault a soak injects.
struct Plan {
    inputs: usize,
    /// With the dev sets: one response record in this many goes into the inputs.
    dev_every: u64,
    kills: usize,
    /// SIGTERMs: clean stops.
    terms: usize,
    /// Inputs served over HTTP by a flapping server, and as many over S3 from it.
    remote: usize,
    collisions: usize,
    disk_fills: usize,
    /// Disk-full events under `sites build` (a tmpfs).
    store_fills: usize,
    store_kills: usize,
    /// Kills (SIGKILL, SIGTERM, or one of two runs at once) of `run --sites-update`.
    update_kills: usize,
}

/// What a soak did, for its report.
#[derive(Debug, Default)]
struct Tally {
    kills: usize,
    terms: usize,
    /// Requests of remote inputs answered 503, cut short, stalled, or of an object replaced
    /// in the middle of the read.
    remote_faults: usize,
    /// The same by kind.
    remote: FaultCounts,
    collisions: usize,
    disk_fills: usize,
    store_fills: usize,
    store_kills: usize,
    update_kills: usize,
    /// Nights (an empty directory run until a run finished) by output format.
    nights: BTreeMap<&'static str, usize>,
    runs: usize,
    documents: usize,
}

/// xorshift64*: the seeded choices of a soak.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// A duration up to `max`.
    fn upto(&mut self, max: Duration) -> Duration {
        max.mul_f64(self.below(10_001) as f64 / 10_000.0)
    }
}

fn seed() -> u64 {
    std::env::var("SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0042)
}

/// The inputs: `n` crawl files in `.warc.gz` (a gzip member per record), `.warc` and
/// `.warc.zst` (a frame per record), plus the shared ARC sample when `../shared` is there.
/// With the dev sets there, the files are their response records, one in `dev_every`
/// (seeded), dealt out in turn; without, synthetic crawl files of seeded sizes.
fn write_inputs(dir: &Path, n: usize, dev_every: u64, rng: &mut Rng) {
    std::fs::create_dir_all(dir).unwrap();
    let compression_of =
        |i: usize| [Compression::Gzip, Compression::None, Compression::Zstd][i % 3];
    if let Some(sets) = crate::common::dev_warcs() {
        let mut files: Vec<Vec<u8>> = vec![Vec::new(); n];
        let mut dealt = 0;
        for set in sets {
            let mut raw = Vec::new();
            std::io::Read::read_to_end(
                &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(set).unwrap()),
                &mut raw,
            )
            .unwrap();
            for record in warc_records(&raw) {
                let head = &record[..record.len().min(1024)];
                if memchr::memmem::find(head, b"WARC-Type: response").is_none() {
                    continue;
                }
                if rng.below(dev_every) != 0 {
                    continue;
                }
                let i = dealt % n;
                dealt += 1;
                match compression_of(i) {
                    Compression::None => files[i].extend_from_slice(record),
                    Compression::Gzip => files[i].extend_from_slice(&testkit::gzip(record)),
                    Compression::Zstd => files[i].extend_from_slice(&testkit::zstd_frame(record)),
                }
            }
        }
        for (i, bytes) in files.iter().enumerate() {
            let name = format!("part-{i:03}{}", compression_of(i).extension());
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    } else {
        for i in 0..n {
            let options = SynthOptions {
                pages: 4 + rng.below(20) as usize,
                min_bytes: 2 << 10,
                max_bytes: 24 << 10,
                compression: compression_of(i),
                ..SynthOptions::default()
            };
            let synth = testkit::synthetic_warc(1000 + i as u64, &options);
            let name = format!("part-{i:03}{}", compression_of(i).extension());
            std::fs::write(dir.join(name), &synth.bytes).unwrap();
        }
    }
    if let Some(arc) = shared_data("samples/real/webrecorder+pywb/example.arc.gz") {
        std::fs::copy(arc, dir.join("example.arc.gz")).unwrap();
    }
}

/// The records (head, block and the CRLF CRLF after it) of an uncompressed WARC stream.
fn warc_records(raw: &[u8]) -> Vec<&[u8]> {
    let mut records = Vec::new();
    let mut pos = 0;
    while let Some(start) = memchr::memmem::find(&raw[pos..], b"WARC/1.").map(|i| pos + i) {
        let Some(head_end) =
            memchr::memmem::find(&raw[start..], b"\r\n\r\n").map(|i| start + i + 4)
        else {
            break;
        };
        let head = String::from_utf8_lossy(&raw[start..head_end]);
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse().unwrap_or(0))
            })
            .unwrap_or(0);
        let end = (head_end + length + 4).min(raw.len());
        records.push(&raw[start..end]);
        pos = end;
    }
    records
}

/// `outward ARGS`, its output to nowhere (a soak spawns hundreds).
fn spawn(args: &[&std::ffi::OsStr]) -> Child {
    let mut command = outward();
    SOAK_ENV.with_borrow(|env| {
        command.envs(env.iter().map(|(k, v)| (k, v)));
    });
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

thread_local! {
    /// The environment of the soak running on this thread (each test has its own thread):
    /// the S3 endpoint of its server and dummy credentials.
    static SOAK_ENV: std::cell::RefCell<Vec<(String, String)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Waits for `child`; its exit code, and what it printed (stdout, then stderr).
fn finish(child: Child) -> (Option<i32>, String) {
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// The inputs a run's summary says it processed (`N processed`).
fn processed(printed: &str) -> usize {
    printed
        .split_once(" processed,")
        .and_then(|(before, _)| before.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no summary in {printed}"))
}

/// The manifest lines of `out` as they are now. A line torn by a kill or a full disk is
/// skipped, as every reader of the manifest does.
fn readable_manifest_lines(out: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(out.join("manifest.jsonl")).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .collect()
}

/// Inputs of `out` that a run still has to write: those without a complete manifest line.
fn pending(out: &Path, inputs: &Inputs) -> usize {
    let done: std::collections::BTreeSet<String> = readable_manifest_lines(out)
        .into_iter()
        .filter(|l| l["status"] == "complete")
        .map(|l| l["output"].as_str().unwrap().to_string())
        .collect();
    inputs.count() - done.len()
}

/// True when `child` ended within `after`; false when it still runs then.
fn ended_within(child: &mut Child, after: Duration) -> bool {
    let deadline = Instant::now() + after;
    loop {
        if child.try_wait().unwrap().is_some() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// How a run that was to get a SIGTERM ended ([`terminate_after`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Termed {
    /// It ended by itself before the signal came.
    Ended,
    /// The signal found it running and it stopped cleanly: exit 143, the stop said, nothing
    /// half-written (no temporary file, no lock) in the output.
    Stopped,
    /// The signal came before it set its handler (its first milliseconds): the default
    /// action killed it as SIGKILL would, before it cleared what an earlier kill left (a
    /// stale lock, a shard not written), so the directory is a killed run's.
    Killed,
}

/// SIGTERMs `child` after `after` unless it ended before, and waits for it.
fn terminate_after(child: Child, after: Duration, out: &Path, when: &str) -> Termed {
    let Some(child) = running_after(child, after, when) else {
        return Termed::Ended;
    };
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let (code, printed) = finish(child);
    if code.is_none() {
        return Termed::Killed;
    }
    // It ended before the signal came (cleanly, or on the object replaced mid-read).
    if !printed.contains("stopped by SIGTERM") && ended_well(code, &printed, true) {
        return Termed::Ended;
    }
    assert_eq!(code, Some(143), "{when}: SIGTERM: {printed}");
    assert!(
        printed.contains("stopped by SIGTERM: "),
        "{when}: {printed}"
    );
    let left: Vec<String> = files_in(out)
        .into_iter()
        .filter(|f| f.contains(".tmp-") || (f.ends_with(".lock") && f != ".manifest.lock"))
        .collect();
    assert!(left.is_empty(), "{when}: SIGTERM left {left:?}");
    Termed::Stopped
}

/// `child` if it still runs after `after`; else `None`, once it is checked to have ended
/// well (exit 0, or the object it read replaced under it): a failed run (a lock it could
/// not take, an input it could not read) would otherwise pass as "not killed" and show only
/// as what it left behind.
fn running_after(mut child: Child, after: Duration, when: &str) -> Option<Child> {
    if !ended_within(&mut child, after) {
        return Some(child);
    }
    let (code, printed) = finish(child);
    assert!(
        ended_well(code, &printed, true),
        "{when}: a run that ended before its signal: {printed}"
    );
    None
}

/// SIGKILLs `child` after `after` unless it ended before ([`running_after`]); true when it
/// was killed running.
fn kill_after(child: Child, after: Duration, when: &str) -> bool {
    let Some(mut child) = running_after(child, after, when) else {
        return false;
    };
    let _ = child.kill();
    let _ = child.wait();
    true
}

/// The inputs of a soak: a directory of files, and URLs of a local server that drops
/// connections and answers 503 every so often.
struct Inputs {
    dir: std::path::PathBuf,
    urls: Vec<String>,
    /// The output format runs write (one of [`FORMATS`]), chosen each night.
    format: std::cell::Cell<&'static str>,
}

/// The writers a night may use.
const FORMATS: [&str; 3] = ["dolma", "parquet", "wet"];

/// Whether `name` is a shard of one of [`FORMATS`].
fn is_shard(name: &str) -> bool {
    [".jsonl.zst", ".parquet", ".warc.wet.gz"]
        .iter()
        .any(|suffix| name.ends_with(suffix))
}

impl Inputs {
    fn count(&self) -> usize {
        files_in(&self.dir).len() + self.urls.len()
    }
}

fn run_args<'a>(out: &'a Path, inputs: &'a Inputs) -> Vec<&'a std::ffi::OsStr> {
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "run".as_ref(),
        "--threads".as_ref(),
        "2".as_ref(),
        // The flapping server is local: retry at once (0.5 s would make minutes of a soak).
        "--retry-wait".as_ref(),
        "0.01".as_ref(),
        // Its stalls last 2 s: waiting 0.3 s for a byte ends them.
        "--read-timeout".as_ref(),
        "0.3".as_ref(),
        "--output-format".as_ref(),
        inputs.format.get().as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
        inputs.dir.as_os_str(),
    ];
    args.extend(inputs.urls.iter().map(|u| std::ffi::OsStr::new(u.as_str())));
    args
}

/// The files of a clean run's directory that must come out byte for byte: every file but
/// the timings log (a log of the runs) and the manifest's lock.
fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_in(dir)
        .into_iter()
        .filter(|f| f != "timings.jsonl" && f != ".manifest.lock")
        .map(|f| {
            let bytes = std::fs::read(dir.join(&f)).unwrap();
            (f, bytes)
        })
        .collect()
}

/// What must hold after any fault, before a rerun: every manifest line that says `complete`
/// names an output byte-identical to the clean run's and is the clean run's line (nothing
/// silently complete); every shard under its final name is the clean run's (a shard is
/// renamed into place only when whole), but the shard of the object replaced mid-read, which
/// holds what was read of the old object until the manifest names it complete.
fn check_partial_state(out: &Path, clean: &BTreeMap<String, Vec<u8>>, when: &str) {
    let clean_lines: BTreeMap<String, Value> = clean["manifest.jsonl"]
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v: Value = serde_json::from_slice(l).unwrap();
            (v["output"].as_str().unwrap().to_string(), v)
        })
        .collect();
    let mut latest_complete = BTreeMap::new();
    for line in readable_manifest_lines(out) {
        let output = line["output"].as_str().unwrap_or("");
        latest_complete.insert(output.to_string(), line["status"] == "complete");
        if line["status"] == "complete" {
            assert_eq!(
                Some(&line),
                clean_lines.get(output),
                "{when}: a complete line differs from the clean run's"
            );
            assert!(
                std::fs::read(out.join(output)).ok().as_ref() == clean.get(output),
                "{when}: {output} named complete but not the clean run's bytes"
            );
        }
    }
    for name in files_in(out) {
        let replaced_read =
            name.starts_with("replaced.") && !latest_complete.get(&name).copied().unwrap_or(false);
        if is_shard(&name) && !replaced_read {
            assert!(
                Some(&std::fs::read(out.join(&name)).unwrap()) == clean.get(&name),
                "{when}: {name} under its final name differs from the clean run's"
            );
        }
    }
}

/// After a clean finish: the clean run's bytes, no temporary file, no lock left.
fn check_converged(out: &Path, clean: &BTreeMap<String, Vec<u8>>, when: &str) {
    let got = outputs(out);
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&got),
        names(clean),
        "{when}: the files of the directory"
    );
    for (name, bytes) in clean {
        assert!(
            &got[name] == bytes,
            "{when}: {name} differs from the clean run's"
        );
    }
}

/// Runs `args` to its end and asserts it succeeded.
fn complete(args: &[&std::ffi::OsStr], when: &str) {
    let (code, err) = finish(spawn(args));
    assert_eq!(code, Some(0), "{when}: {err}");
}

/// Whether a run ended as it should: exit 0, or, when an object was replaced while it ran
/// (`replaced`), exit 1 or 3 naming the change (that input partial or failed).
fn ended_well(code: Option<i32>, printed: &str, replaced: bool) -> bool {
    code == Some(0)
        || (replaced
            && matches!(code, Some(1) | Some(3))
            && printed.contains("the object changed while it was read"))
}

/// [`complete`], but a run that met the object replaced mid-read is run once more (which
/// reads the new object).
fn complete_replacing(args: &[&std::ffi::OsStr], when: &str, server: &TestServer) {
    let replaced = server.replaced();
    let (code, printed) = finish(spawn(args));
    assert!(
        ended_well(code, &printed, server.replaced() > replaced),
        "{when}: {printed}"
    );
    if code != Some(0) {
        complete(args, when);
    }
}

fn soak(plan: &Plan) -> Tally {
    let seed = seed();
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut tally = Tally::default();
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let dir = t.join("in");
    write_inputs(&dir, plan.inputs, plan.dev_every, &mut rng);
    // Remote inputs, from a server that fails now and then: the reader retries and resumes
    // by byte range, so a run gives the same bytes.
    let faults = Faults {
        unavailable_every: 13,
        drop_every: 7,
        drop_after: 3000,
        stall_every: 17,
        stall_for: Duration::from_secs(2),
        ..Faults::default()
    };
    // S3 is moto's server (with `make test`'s venv), behind the flapping one: its answers
    // get the same faults. Without moto, the flapping server answers for S3 itself
    // (path-style; it ignores the signature).
    let moto = crate::common::start_moto()
        .map_err(|why| eprintln!("soak: S3 from the test server, not moto: {why}"))
        .ok();
    let server = match &moto {
        Some(moto) => TestServer::proxy(faults, moto.address()),
        None => TestServer::start(faults),
    };
    // Small crawl files, put on the server at `path`.
    let crawl = |seed: u64| {
        let options = SynthOptions {
            pages: 6,
            min_bytes: 2 << 10,
            max_bytes: 24 << 10,
            ..SynthOptions::default()
        };
        testkit::synthetic_warc(seed, &options).bytes
    };
    let put = |path: &str, seed: u64| {
        server.put(path, crawl(seed));
    };
    let mut urls = Vec::new();
    let mut s3_objects = Vec::new();
    for i in 0..plan.remote {
        let path = format!("/crawl/remote-{i:02}.warc.gz");
        put(&path, 500 + i as u64);
        urls.push(server.url(&path));
        let key = format!("segments/s3-{i:02}.warc.gz");
        match &moto {
            Some(_) => s3_objects.push(("soak", key.clone(), crawl(700 + i as u64))),
            None => put(&format!("/soak/{key}"), 700 + i as u64),
        }
        urls.push(format!("s3://soak/{key}"));
    }
    if let Some(moto) = &moto {
        let objects: Vec<(&str, &str, Vec<u8>)> = s3_objects
            .iter()
            .map(|(bucket, key, bytes)| (*bucket, key.as_str(), bytes.clone()))
            .collect();
        moto.put(&objects).expect("the S3 objects put into moto");
    }
    // One object is overwritten while a run reads it (armed again each night): that run's
    // line for it is partial, and the next run reads the new object. The clean runs read the
    // new one.
    let replaced_path = "/crawl/replaced.warc.gz";
    let arm_replacement = || server.put_replaced_mid_read(replaced_path, crawl(600), crawl(601));
    server.put(replaced_path, crawl(601));
    urls.push(server.url(replaced_path));
    SOAK_ENV.with_borrow_mut(|env| {
        *env = [
            ("AWS_ENDPOINT_URL", server.base()),
            ("AWS_ACCESS_KEY_ID", "soak".to_string()),
            ("AWS_SECRET_ACCESS_KEY", "soak".to_string()),
            ("AWS_REGION", "us-east-1".to_string()),
        ]
        .map(|(k, v)| (k.to_string(), v))
        .to_vec();
    });
    let inputs = Inputs {
        dir,
        urls,
        format: std::cell::Cell::new(FORMATS[0]),
    };

    // The clean run of each format, three times: they must agree, and the shortest says how
    // long a run takes (kills land anywhere in it; a run that met a long retry wait would
    // send most kills after the end).
    let mut run_time = Duration::MAX;
    let mut cleans = BTreeMap::new();
    for format in FORMATS {
        inputs.format.set(format);
        let clean_dir = t.join(format!("clean-{format}"));
        for again in 0..3 {
            let dir = t.join(format!("clean-{format}-{again}"));
            let started = Instant::now();
            complete(&run_args(&dir, &inputs), "a clean run");
            run_time = run_time.min(started.elapsed());
            if again == 0 {
                std::fs::rename(&dir, &clean_dir).unwrap();
            } else {
                check_converged(&dir, &outputs(&clean_dir), "another clean run");
            }
        }
        if format == FORMATS[0] {
            tally.documents = manifest_lines(&clean_dir)
                .iter()
                .map(|l| l["counts"]["written"].as_u64().unwrap() as usize)
                .sum();
        }
        cleans.insert(format, outputs(&clean_dir));
    }
    // Each night writes a format of its own.
    let night = |rng: &mut Rng, tally: &mut Tally| {
        let format = FORMATS[rng.below(FORMATS.len() as u64) as usize];
        inputs.format.set(format);
        *tally.nights.entry(format).or_default() += 1;
        cleans[format].clone()
    };
    let mut clean = night(&mut rng, &mut tally);

    // SIGKILL at random moments, now and then two runs at once (one of them killed, or
    // both left to finish), each followed by the invariant; then a rerun to the end.
    let out = t.join("out");
    std::fs::create_dir_all(&out).unwrap();
    arm_replacement();
    let mut collisions_left = plan.collisions;
    while tally.kills < plan.kills || collisions_left > 0 || tally.terms < plan.terms {
        let when = format!(
            "seed {seed}: after {} kills, {} collisions",
            tally.kills, tally.collisions
        );
        let args = run_args(&out, &inputs);
        if collisions_left > 0 && (tally.kills >= plan.kills || rng.below(5) == 0) {
            collisions_left -= 1;
            tally.collisions += 1;
            let todo = pending(&out, &inputs);
            let replaced = server.replaced();
            let first = spawn(&args);
            std::thread::sleep(rng.upto(run_time / 2));
            let second = spawn(&args);
            if rng.below(2) == 0 {
                tally.kills += usize::from(kill_after(first, rng.upto(run_time), &when));
                let (code, err) = finish(second);
                assert!(
                    ended_well(code, &err, server.replaced() > replaced),
                    "{when}: the second of two runs: {err}"
                );
            } else {
                // Never two writers of one output: between them, the two runs write each
                // input that was not done exactly once (the second waits for the first's
                // lock, then finds its line).
                let mut written = 0;
                for child in [first, second] {
                    let (code, printed) = finish(child);
                    assert!(
                        ended_well(code, &printed, server.replaced() > replaced),
                        "{when}: two runs at once: {printed}"
                    );
                    written += processed(&printed);
                }
                // An object replaced under the first is read again by the second.
                let again = server.replaced() - replaced;
                assert!(
                    written == todo || written == todo + again,
                    "{when}: inputs written by two runs at once: {written} of {todo}"
                );
                check_converged(&out, &clean, &format!("{when}: two runs at once"));
            }
        } else {
            // One run in four is forced: every shard written again beside the one in place.
            let mut args = args.clone();
            if rng.below(4) == 0 {
                args.push("--force".as_ref());
            }
            let after = rng.upto(run_time * 6 / 5);
            let replaced = server.replaced();
            let killed = if tally.terms < plan.terms && rng.below(4) == 0 {
                let ended = terminate_after(spawn(&args), after, &out, &when);
                tally.terms += usize::from(ended == Termed::Stopped);
                tally.kills += usize::from(ended == Termed::Killed);
                ended != Termed::Ended
            } else {
                let killed = kill_after(spawn(&args), after, &when);
                tally.kills += usize::from(killed);
                killed
            };
            if !killed {
                if server.replaced() > replaced {
                    // It read the object being replaced: its line says so; a rerun reads
                    // the new one.
                    complete_replacing(&args, &when, &server);
                }
                check_converged(&out, &clean, &format!("{when}: a run not killed"));
                // Done: the next night starts from an empty directory, so kills find work.
                std::fs::remove_dir_all(&out).unwrap();
                arm_replacement();
                clean = night(&mut rng, &mut tally);
            }
        }
        tally.runs += 1;
        if out.exists() {
            check_partial_state(&out, &clean, &when);
        }
        // Now and then a rerun to the end in between: it converges from wherever it was.
        if rng.below(4) == 0 {
            // In this night's format: the run above may have ended the one before.
            complete_replacing(&run_args(&out, &inputs), &when, &server);
            check_converged(&out, &clean, &format!("{when}: rerun"));
        }
    }
    complete_replacing(&run_args(&out, &inputs), "the last rerun", &server);
    check_converged(&out, &clean, &format!("seed {seed}: the end of the kills"));
    assert!(
        server.replaced() > 0,
        "seed {seed}: no object replaced mid-read"
    );
    server.put(replaced_path, crawl(601));
    // The rest writes the default format.
    inputs.format.set(FORMATS[0]);
    let clean = cleans[FORMATS[0]].clone();

    // A disk that fills mid-shard: the output on a tmpfs with room for part of what a run
    // writes, and a forced rerun (every shard written again beside the one in place); then
    // room, and a rerun.
    if plan.disk_fills > 0 {
        let disk_dir = t.join("disk");
        if let Some(disk) = TinyDisk::mount(&disk_dir, "64m") {
            let out = disk_dir.join("out");
            std::fs::create_dir_all(&out).unwrap();
            let largest = clean.values().map(Vec::len).max().unwrap_or(0);
            complete(&run_args(&out, &inputs), "the run on the tmpfs");
            let mut attempts = 0;
            while tally.disk_fills < plan.disk_fills {
                one_more_try(&mut attempts, plan.disk_fills, seed, "under shards");
                let when = format!("seed {seed}: disk fill {}", tally.disk_fills);
                // What the files take on the disk (whole pages), and a seeded part of a run.
                let used = blocks_used(&out);
                // A forced run replaces shard after shard: a shard's room is what it needs.
                let room = rng.below(largest as u64 * 2);
                let size_kib = (used + room).div_ceil(1024) + 16;
                assert!(
                    disk.resize(&format!("{size_kib}k")),
                    "{when}: {size_kib} KiB"
                );
                let mut args = run_args(&out, &inputs);
                args.push("--force".as_ref());
                let (code, err) = finish(spawn(&args));
                if code != Some(0) {
                    tally.disk_fills += 1;
                    assert!(
                        matches!(code, Some(1) | Some(3)),
                        "{when}: a full disk is a failed input, not {code:?}: {err}"
                    );
                }
                check_partial_state(&out, &clean, &when);
                assert!(disk.resize("64m"));
                complete(&run_args(&out, &inputs), &when);
                check_converged(&out, &clean, &format!("{when}: room again"));
            }
            // Mid-store: `sites build` onto the tmpfs with room for part of the store. The
            // store under its name is absent or whole; with room, a rerun makes the clean
            // bytes.
            let clean_store = t.join("disk-clean.store");
            let build = |store: &Path| -> Vec<std::ffi::OsString> {
                vec![
                    "sites".into(),
                    "build".into(),
                    "-o".into(),
                    store.into(),
                    inputs.dir.clone().into(),
                ]
            };
            complete(&os_strs(&build(&clean_store)), "the clean store");
            let clean_store_bytes = std::fs::read(&clean_store).unwrap();
            let stores = disk_dir.join("stores");
            std::fs::create_dir_all(&stores).unwrap();
            let store = stores.join("site.store");
            let build_store = build(&store);
            let build_store = os_strs(&build_store);
            let mut attempts = 0;
            while tally.store_fills < plan.store_fills {
                one_more_try(&mut attempts, plan.store_fills, seed, "under a store");
                let when = format!("seed {seed}: store disk fill {}", tally.store_fills);
                let _ = std::fs::remove_file(&store);
                let room = rng.below(clean_store_bytes.len() as u64);
                let size_kib = (blocks_used(&out) + room).div_ceil(1024) + 16;
                assert!(disk.resize(&format!("{size_kib}k")), "{when}");
                let (code, err) = finish(spawn(&build_store));
                if code != Some(0) {
                    tally.store_fills += 1;
                    assert_eq!(code, Some(1), "{when}: {err}");
                }
                if let Ok(now) = std::fs::read(&store) {
                    assert!(
                        now == clean_store_bytes,
                        "{when}: a store is whole or absent"
                    );
                }
                let left: Vec<String> = files_in(&stores)
                    .into_iter()
                    .filter(|f| f != "site.store")
                    .collect();
                assert!(left.is_empty(), "{when}: {left:?} left beside the store");
                assert!(disk.resize("64m"));
                complete(&build_store, &when);
                assert!(
                    std::fs::read(&store).unwrap() == clean_store_bytes,
                    "{when}: room again"
                );
            }
        } else {
            eprintln!("soak: no disk-full events: cannot mount a tmpfs here");
        }
    }

    // The site store's map and reduce: `sites build` and `sites merge` killed at random
    // moments leave the store as it was or whole; reruns make the clean bytes.
    if plan.store_kills > 0 {
        let clean_store = t.join("clean.store");
        let started = Instant::now();
        complete(
            &[
                "sites".as_ref(),
                "build".as_ref(),
                "-o".as_ref(),
                clean_store.as_os_str(),
                inputs.dir.as_os_str(),
            ],
            "the clean store",
        );
        let build_time = started.elapsed();
        let clean_store_bytes = std::fs::read(&clean_store).unwrap();
        let clean_merged = t.join("clean-merged.store");
        complete(
            &[
                "sites".as_ref(),
                "merge".as_ref(),
                "-o".as_ref(),
                clean_merged.as_os_str(),
                clean_store.as_os_str(),
                clean_store.as_os_str(),
            ],
            "the clean merge",
        );
        let clean_merged_bytes = std::fs::read(&clean_merged).unwrap();
        let store = t.join("stores").join("nightly.store");
        let merged = t.join("stores").join("merged.store");
        std::fs::create_dir_all(store.parent().unwrap()).unwrap();
        let build: Vec<&std::ffi::OsStr> = vec![
            "sites".as_ref(),
            "build".as_ref(),
            "-o".as_ref(),
            store.as_os_str(),
            inputs.dir.as_os_str(),
        ];
        let merge: Vec<&std::ffi::OsStr> = vec![
            "sites".as_ref(),
            "merge".as_ref(),
            "-o".as_ref(),
            merged.as_os_str(),
            clean_store.as_os_str(),
            clean_store.as_os_str(),
        ];
        let jobs = [
            (&build, &store, &clean_store_bytes),
            (&merge, &merged, &clean_merged_bytes),
        ];
        while tally.store_kills < plan.store_kills {
            let when = format!("seed {seed}: store kill {}", tally.store_kills);
            let (args, target, bytes) = jobs[rng.below(2) as usize];
            tally.store_kills +=
                usize::from(kill_after(spawn(args), rng.upto(build_time * 6 / 5), &when));
            if let Ok(now) = std::fs::read(target) {
                assert!(
                    &now == bytes,
                    "{when}: a store under its final name is whole"
                );
            }
            if rng.below(3) == 0 {
                complete(args, &when);
                assert!(&std::fs::read(target).unwrap() == bytes, "{when}: rerun");
            }
        }
        for (args, target, bytes) in jobs {
            complete(args, "the last store rerun");
            assert!(&std::fs::read(target).unwrap() == bytes);
        }
        let left: Vec<String> = files_in(store.parent().unwrap())
            .into_iter()
            .filter(|f| f.starts_with('.'))
            .collect();
        // A killed writer's temporary files are swept by the next writer of that directory;
        // after the clean finishes, none is left (nor a lock).
        assert!(
            left.iter().all(|f| !f.ends_with(".lock")),
            "seed {seed}: {left:?}"
        );
    }
    if plan.update_kills > 0 {
        update_soak(plan, t, &inputs, &mut rng, &mut tally, seed);
    }
    tally.remote_faults = server.faulted();
    tally.remote = server.fault_counts();
    assert!(
        moto.is_none() || tally.remote.upstream > 0,
        "seed {seed}: no fault on a request to moto"
    );
    eprintln!("soak: seed {seed}: {tally:?}");
    tally
}

/// Counts one more try at filling the disk (the room a try leaves may be enough), and fails
/// the soak when ten tries per fill wanted have not made the fills.
fn one_more_try(attempts: &mut usize, wanted: usize, seed: u64, under: &str) {
    *attempts += 1;
    assert!(
        *attempts < 10 * wanted,
        "seed {seed}: the disk never filled {under}"
    );
}

/// What the files of `dir` take on its disk (whole pages).
fn blocks_used(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    files_in(dir)
        .iter()
        .map(|f| std::fs::metadata(dir.join(f)).map_or(0, |m| m.blocks() * 512))
        .sum()
}

fn os_strs(args: &[std::ffi::OsString]) -> Vec<&std::ffi::OsStr> {
    args.iter().map(|a| a.as_os_str()).collect()
}

/// The nightly update, `run --sites STORE --sites-update`, hit at random moments by SIGKILL,
/// SIGTERM or a second run at once: the store is yesterday's bytes or the clean update's,
/// never a mix, and a rerun brings the directory and the store to the bytes of one clean run
/// (each input's pages in the store once); one more run then changes nothing.
fn update_soak(
    plan: &Plan,
    t: &Path,
    inputs: &Inputs,
    rng: &mut Rng,
    tally: &mut Tally,
    seed: u64,
) {
    // Yesterday's store: the pages of other crawl files.
    let yesterday = t.join("yesterday");
    std::fs::create_dir_all(&yesterday).unwrap();
    for i in 0..3u64 {
        let options = SynthOptions {
            pages: 12,
            min_bytes: 2 << 10,
            max_bytes: 24 << 10,
            ..SynthOptions::default()
        };
        let synth = testkit::synthetic_warc(900 + i, &options);
        std::fs::write(yesterday.join(format!("day-{i}.warc.gz")), &synth.bytes).unwrap();
    }
    let base = t.join("yesterday.store");
    complete(
        &[
            "sites".as_ref(),
            "build".as_ref(),
            "-o".as_ref(),
            base.as_os_str(),
            yesterday.as_os_str(),
        ],
        "yesterday's store",
    );
    let base_bytes = std::fs::read(&base).unwrap();
    let store = t.join("nightly").join("site.store");
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    let update_args = |out: &'_ Path| {
        let mut args: Vec<std::ffi::OsString> = run_args(out, inputs)
            .into_iter()
            .map(|a| a.to_os_string())
            .collect();
        args.extend([
            "--sites".into(),
            store.clone().into(),
            "--sites-update".into(),
        ]);
        args
    };

    // The clean update, on the same store path (the directory's record names it).
    std::fs::write(&store, &base_bytes).unwrap();
    let clean_out = t.join("nightly-clean");
    let started = Instant::now();
    complete(&os_strs(&update_args(&clean_out)), "the clean update");
    let update_time = started.elapsed();
    let clean = outputs(&clean_out);
    let clean_store = std::fs::read(&store).unwrap();
    assert!(clean_store != base_bytes, "the clean update adds pages");

    let out = t.join("nightly").join("out");
    let reset = || {
        let _ = std::fs::remove_dir_all(&out);
        std::fs::write(&store, &base_bytes).unwrap();
    };
    reset();
    let args = update_args(&out);
    let args = os_strs(&args);
    let mut trial = 0;
    while tally.update_kills < plan.update_kills {
        let when = format!("seed {seed}: update kill {}", tally.update_kills);
        let after = rng.upto(update_time * 6 / 5);
        let faulted = match rng.below(6) {
            0 => {
                // Two at once, the first killed: the second waits, then finishes both.
                let first = spawn(&args);
                std::thread::sleep(rng.upto(update_time / 2));
                let second = spawn(&args);
                let killed = kill_after(first, after, &when);
                let (code, err) = finish(second);
                assert_eq!(code, Some(0), "{when}: the second of two runs: {err}");
                killed
            }
            1 => terminate_after(spawn(&args), after, &out, &when) != Termed::Ended,
            _ => kill_after(spawn(&args), after, &when),
        };
        tally.update_kills += usize::from(faulted);
        tally.runs += 1;
        let now = std::fs::read(&store).unwrap();
        assert!(
            now == base_bytes || now == clean_store,
            "{when}: the store is yesterday's or the clean update's"
        );
        if out.exists() {
            check_partial_state(&out, &clean, &when);
        }
        if !faulted || rng.below(3) == 0 {
            trial += 1;
            let when = format!("{when}: trial {trial}");
            complete(&args, &when);
            check_converged(&out, &clean, &when);
            assert!(
                std::fs::read(&store).unwrap() == clean_store,
                "{when}: the store"
            );
            complete(&args, &when);
            check_converged(&out, &clean, &format!("{when}: once more"));
            assert!(
                std::fs::read(&store).unwrap() == clean_store,
                "{when}: the store, once more"
            );
            reset();
        }
    }
    complete(&args, "the last update");
    check_converged(
        &out,
        &clean,
        &format!("seed {seed}: the end of the update kills"),
    );
    assert!(
        std::fs::read(&store).unwrap() == clean_store,
        "seed {seed}: the store"
    );
}

/// Whether the soak met every kind of remote fault.
fn every_remote_fault(counts: &FaultCounts) -> bool {
    counts.unavailable > 0 && counts.dropped > 0 && counts.stalled > 0 && counts.replaced > 0
}

/// A process that SIGTERM kills before it sets a handler (the default action) counts as
/// killed, not as a run that ended by itself: seed 1592590402 took such a run's directory
/// (an earlier kill's stale lock and a shard not yet written) for a finished run's and failed
/// the convergence check. One that ends before the signal has ended.
#[test]
fn a_sigterm_before_the_handler_is_a_kill() {
    let out = tempfile::tempdir().unwrap();
    let process = |program: &str, args: &[&str]| {
        std::process::Command::new(program)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let no_handler = process("sleep", &["30"]);
    assert_eq!(
        terminate_after(no_handler, Duration::ZERO, out.path(), "sleep"),
        Termed::Killed
    );
    let quick = process("true", &[]);
    assert_eq!(
        terminate_after(quick, Duration::from_secs(20), out.path(), "true"),
        Termed::Ended
    );
}

/// `make check`'s soak: ≥ 20 kills, collisions and disk-full events, in seconds.
#[test]
fn soak_short() {
    let tally = soak(&Plan {
        inputs: 14,
        dev_every: 60,
        kills: 24,
        terms: 4,
        remote: 2,
        collisions: 4,
        disk_fills: 3,
        store_fills: 2,
        store_kills: 4,
        update_kills: 6,
    });
    assert!(
        tally.kills >= 20
            && tally.collisions >= 4
            && tally.terms >= 4
            && tally.update_kills >= 6
            && every_remote_fault(&tally.remote),
        "{tally:?}"
    );
}

/// `make soak`: the full counts of #42.
#[test]
#[ignore = "minutes: run by make soak"]
fn soak_full() {
    let tally = soak(&Plan {
        inputs: 44,
        dev_every: 12,
        kills: 200,
        terms: 30,
        remote: 6,
        collisions: 24,
        disk_fills: 24,
        store_fills: 10,
        store_kills: 40,
        update_kills: 40,
    });
    assert!(
        tally.kills >= 200
            && tally.collisions >= 20
            && tally.disk_fills >= 20
            && tally.update_kills >= 40
            && every_remote_fault(&tally.remote),
        "{tally:?}"
    );
}

/// Two runs on one output directory: the second waits for the input's output lock, says
/// which lock and who holds it, and then finds the input done instead of writing it again.
#[test]
fn a_second_run_on_one_output_waits_and_names_the_lock_holder() {
    use outward_output::lock::acquire;
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let input = crate::common::sample();
    let lock = out.join(".sample.output.lock");
    // This test holds the lock as a first run would while it writes sample.jsonl.zst.
    let held = acquire(&lock, "outward run", &mut |_| panic!("free")).unwrap();
    let second = spawn(&[
        "run".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
        input.as_os_str(),
    ]);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !out.join("sample.jsonl.zst").exists(),
        "nothing written while another holds the lock"
    );
    // The first run finishes: its shard and line in place (made here by a run into another
    // directory, copied with its manifest line), then the lock let go.
    let other = tmp.path().join("other");
    complete(
        &[
            "run".as_ref(),
            "-o".as_ref(),
            other.as_os_str(),
            input.as_os_str(),
        ],
        "the first run",
    );
    std::fs::copy(other.join("sample.jsonl.zst"), out.join("sample.jsonl.zst")).unwrap();
    std::fs::copy(other.join("manifest.jsonl"), out.join("manifest.jsonl")).unwrap();
    drop(held);
    let (code, printed) = finish(second);
    assert_eq!(code, Some(0), "{printed}");
    assert!(
        printed.contains(&format!(
            "waiting for {}, held by outward run (pid {} on ",
            lock.display(),
            std::process::id()
        )),
        "{printed}"
    );
    assert_eq!(processed(&printed), 0, "it found the input done: {printed}");
    assert!(printed.contains("1 unchanged"), "{printed}");
    assert!(!lock.exists());
}

/// A run that waited for an input's lock reads the input as it is after the wait: before,
/// it took the input's identity before waiting, so a file replaced meanwhile (the soak's
/// object replaced under a first run) read as changed while read, and failed or came out
/// partial in both runs.
#[test]
fn a_run_that_waited_for_the_lock_reads_the_input_as_it_is_after_the_wait() {
    use outward_output::lock::acquire;
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let input = tmp.path().join("x.warc.gz");
    std::fs::copy(crate::common::sample(), &input).unwrap();
    let held = acquire(&out.join(".x.output.lock"), "outward run", &mut |_| {
        panic!("free")
    })
    .unwrap();
    let waiting = spawn(&[
        "run".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
        input.as_os_str(),
    ]);
    std::thread::sleep(Duration::from_millis(500));
    // Replaced while the run waits.
    let options = SynthOptions {
        pages: 8,
        compression: Compression::Gzip,
        ..SynthOptions::default()
    };
    let new = testkit::synthetic_warc(77, &options).bytes;
    std::fs::write(&input, &new).unwrap();
    drop(held);
    let (code, printed) = finish(waiting);
    assert_eq!(code, Some(0), "{printed}");
    let lines = manifest_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["status"], "complete", "{printed}");
    assert_eq!(lines[0]["identity"]["size"], new.len() as u64);
    // The shard is the new file's.
    let fresh = tmp.path().join("fresh");
    complete(
        &[
            "run".as_ref(),
            "-o".as_ref(),
            fresh.as_os_str(),
            input.as_os_str(),
        ],
        "a run over the new file",
    );
    assert!(
        std::fs::read(out.join("x.jsonl.zst")).unwrap()
            == std::fs::read(fresh.join("x.jsonl.zst")).unwrap()
    );
}
