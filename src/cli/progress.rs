//! What the command shows while it works: a ticker of the pipeline's live counters (an
//! indicatif bar on a terminal, a plain line every five seconds otherwise), and this
//! process's CPU seconds (for per-core throughput in summaries).
//!
//! Invariants: the ticker never writes to stdout (summaries and documents go there); it
//! stops and clears its bar when dropped.

use outward::Progress;
use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Shows live counters: an indicatif bar on a terminal, a plain line every few seconds otherwise.
pub struct Ticker {
    /// Dropping the sender wakes and ends the ticker at once.
    stop: Option<crossbeam_channel::Sender<()>>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Ticker {
    pub fn start(progress: std::sync::Arc<Progress>, inputs: u64) -> Ticker {
        let (stop, stopped) = crossbeam_channel::bounded::<()>(0);
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            let bar = std::io::stderr().is_terminal().then(|| {
                let bar = indicatif::ProgressBar::new(inputs);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{spinner} [{elapsed_precise}] inputs {pos}/{len} {msg}",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                bar
            });
            let mut last_plain = Instant::now();
            while let Err(crossbeam_channel::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(Duration::from_millis(200))
            {
                let line = progress_line(&progress, start.elapsed());
                match &bar {
                    Some(bar) => {
                        bar.set_position(progress.inputs_done.load(Ordering::Relaxed));
                        bar.set_message(line);
                    }
                    None if last_plain.elapsed() >= Duration::from_secs(5) => {
                        eprintln!(
                            "progress: inputs {}/{inputs} {line}",
                            progress.inputs_done.load(Ordering::Relaxed)
                        );
                        last_plain = Instant::now();
                    }
                    None => {}
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        Ticker {
            stop: Some(stop),
            handle: Some(handle),
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

pub fn progress_line(p: &Progress, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let records = p.records.load(Ordering::Relaxed);
    let mb = p.payload_bytes.load(Ordering::Relaxed) as f64 / 1e6;
    format!(
        "records {records} ({:.0}/s) payload {mb:.1} MB ({:.1} MB/s) written {} skipped {}",
        records as f64 / secs,
        mb / secs,
        p.written.load(Ordering::Relaxed),
        p.skipped.load(Ordering::Relaxed)
    )
}

/// User + system CPU seconds of this process so far, every thread's (ended ones too), to
/// the microsecond: a run of a few pages still gets its per-core speed.
#[cfg(unix)]
pub fn cpu_seconds() -> Option<f64> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes one `rusage` through the pointer it is given, and nothing
    // else; `usage` is a live, aligned, writable `rusage` for the whole call, and
    // RUSAGE_SELF is a `who` every Unix accepts.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
    if rc != 0 {
        return None;
    }
    // SAFETY: `rusage` is plain integers, so the zeroed value is already a valid one, and
    // getrusage returned 0: it filled it.
    let usage = unsafe { usage.assume_init() };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

/// Elsewhere: no CPU time (the summary leaves its CPU line out).
#[cfg(not(unix))]
pub fn cpu_seconds() -> Option<f64> {
    None
}

#[cfg(test)]
mod tests {
    /// CPU time counts the work of threads that have ended, to well under the 10 ms ticks
    /// of /proc (a fixed amount of work, so a busy machine changes nothing but wall time).
    #[test]
    fn cpu_seconds_counts_ended_threads() {
        let before = super::cpu_seconds().expect("getrusage");
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    let mut x = 0u64;
                    for _ in 0..20_000_000u64 {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                });
            }
        });
        let spent = super::cpu_seconds().unwrap() - before;
        // 40M dependent multiply-adds: at least 10 ms on any machine.
        assert!(spent >= 0.01, "{spent}");
    }
}
