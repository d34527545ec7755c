//! The one way the CLI tests run the `outward` binary and read what it wrote: [`outward`] and
//! [`run`] (the binary of this build, never the machine's S3 settings), [`run_into`] (`outward
//! run -o DIR`, asserting its exit code), [`shard_bytes`] and [`docs`] (a zstd JSONL shard, as
//! bytes or as documents), [`manifest`] and [`manifest_lines`] (`manifest.jsonl`),
//! [`shared_data`] and [`dev_warcs`] (the dev data of `../shared`: skipped with a note when
//! absent, a failure where CI sets `OUTWARD_REQUIRE_DEV=1`), and [`peak_rss_kib_of`] (a
//! child's peak memory).

use serde_json::Value;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::Duration;

pub use outward_testkit::{describe, shared_data};

/// The `outward` binary of this build.
pub const OUTWARD: &str = env!("CARGO_BIN_EXE_outward");

/// `testdata/` of the repository.
pub fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

/// The committed sample WARC (`testdata/sample.warc.gz`).
pub fn sample() -> PathBuf {
    testdata().join("sample.warc.gz")
}

/// The `outward` binary of this build, without the machine's own S3 endpoint settings (a
/// test that wants an endpoint sets it on the command).
pub fn outward() -> Command {
    let mut cmd = Command::new(OUTWARD);
    cmd.env_remove("AWS_ENDPOINT_URL")
        .env_remove("AWS_ENDPOINT_URL_S3");
    cmd
}

/// Runs `outward ARGS` to its end: its exit status, stdout and stderr.
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    outward().args(args).output().expect("starting outward")
}

/// [`run`] in the working directory `dir`.
pub fn run_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    outward()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("starting outward")
}

/// The exit code; a death by signal fails the test.
pub fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or_else(|| {
        panic!(
            "outward died from a signal: {:?}\nstderr:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `outward run -o DIR [extra...] INPUTS...`, asserting the exit code.
pub fn run_into(dir: &Path, extra: &[&str], inputs: &[&Path], expect_code: i32) -> Output {
    let mut args: Vec<&OsStr> = vec!["run".as_ref(), "-o".as_ref(), dir.as_os_str()];
    args.extend(extra.iter().map(OsStr::new));
    args.extend(inputs.iter().map(|p| p.as_os_str()));
    let out = run(&args);
    assert_eq!(code(&out), expect_code, "{args:?}\n{}", describe(&out));
    out
}

/// The decompressed bytes of a shard.
pub fn shard_bytes(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    zstd::stream::decode_all(&raw[..]).expect("shard is valid zstd")
}

/// The documents of a shard.
pub fn docs(path: &Path) -> Vec<Value> {
    String::from_utf8(shard_bytes(path))
        .expect("shard is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

/// The text of a document.
pub fn text(doc: &Value) -> &str {
    doc["text"].as_str().unwrap()
}

/// The lines of `dir/manifest.jsonl`, in order.
pub fn manifest_lines(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("manifest.jsonl"))
        .expect("manifest exists")
        .lines()
        .map(|l| serde_json::from_str(l).expect("manifest line is JSON"))
        .collect()
}

/// Manifest entries by output file name (one line each).
pub fn manifest(dir: &Path) -> BTreeMap<String, Value> {
    let mut map = BTreeMap::new();
    for v in manifest_lines(dir) {
        let out = v["output"].as_str().unwrap().to_string();
        assert!(map.insert(out.clone(), v).is_none(), "two lines for {out}");
    }
    map
}

/// The names in `dir`, sorted.
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The dev sets (`../shared/data/dev/*.warc.gz`, sorted), under the rule of [`shared_data`].
pub fn dev_warcs() -> Option<Vec<PathBuf>> {
    let dir = shared_data("data/dev")?;
    let mut warcs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".warc.gz"))
        .collect();
    warcs.sort();
    assert!(!warcs.is_empty(), "no dev sets in ../shared/data/dev");
    Some(warcs)
}

/// Runs `cmd` (its output thrown away) to its end, polling its peak RSS (VmHWM, KiB).
pub fn peak_rss_kib_of(cmd: &mut Command) -> (ExitStatus, u64) {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting outward");
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status_path)
            && let Some(kib) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status, peak);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A tmpfs mounted for one test, unmounted when dropped (also when the test panics).
pub struct TinyDisk(pub PathBuf);

impl TinyDisk {
    /// Mounts a tmpfs of `size` at `dir`; `None` where this machine does not let the test
    /// mount one (no privilege, no `mount`).
    pub fn mount(dir: &Path, size: &str) -> Option<TinyDisk> {
        std::fs::create_dir_all(dir).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| TinyDisk(dir.to_path_buf()))
    }
}

impl TinyDisk {
    /// Gives the disk `size` (smaller than what it holds fills it at once; larger frees room).
    pub fn resize(&self, size: &str) -> bool {
        Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for TinyDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// moto's S3 server, started for one test and killed with it.
pub struct Moto {
    child: std::process::Child,
    /// `http://127.0.0.1:PORT`.
    pub endpoint: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts moto's server on a free port with `OUTWARD_TEST_PYTHON` (`make test`'s venv, from
/// `tests/requirements.txt`), or says why not.
pub fn start_moto() -> Result<Moto, String> {
    let python = std::env::var("OUTWARD_TEST_PYTHON")
        .map_err(|_| "OUTWARD_TEST_PYTHON is not set (make test sets it)".to_string())?;
    let check = Command::new(&python)
        .args(["-c", "import moto.server, boto3"])
        .output()
        .map_err(|e| format!("{python}: {e}"))?;
    if !check.status.success() {
        return Err(format!("{python} has no moto[server]"));
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let child = Command::new(&python)
        .args([
            "-m",
            "moto.server",
            "-H",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let moto = Moto {
        child,
        endpoint: format!("http://127.0.0.1:{port}"),
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if std::time::Instant::now() > deadline {
            return Err("moto did not start within 60 s".into());
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    Ok(moto)
}

impl Moto {
    /// Puts each `(bucket, key, bytes)` into the server (boto3, with `OUTWARD_TEST_PYTHON`),
    /// creating the buckets.
    pub fn put(&self, objects: &[(&str, &str, Vec<u8>)]) -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let mut script = format!(
            "import boto3\n\
             s3 = boto3.client('s3', endpoint_url='{}', region_name='us-east-1',\n\
               aws_access_key_id='testing', aws_secret_access_key='testing')\n\
             made = set()\n",
            self.endpoint
        );
        for (i, (bucket, key, bytes)) in objects.iter().enumerate() {
            let file = dir.path().join(format!("object-{i}"));
            std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
            script += &format!(
                "if '{bucket}' not in made:\n    s3.create_bucket(Bucket='{bucket}')\n    made.add('{bucket}')\n\
                 s3.upload_file(r'{}', '{bucket}', '{key}')\n",
                file.display()
            );
        }
        let python = std::env::var("OUTWARD_TEST_PYTHON").map_err(|e| e.to_string())?;
        let out = Command::new(&python)
            .args(["-c", &script])
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }

    /// `127.0.0.1:PORT`.
    pub fn address(&self) -> &str {
        self.endpoint.trim_start_matches("http://")
    }
}
