//! outward-remote: inputs that are not on a local disk. `http://` and `https://` URLs, and
//! `s3://bucket/key` objects, become [`outward_warc::source::ByteSource`]s that the reader
//! streams like a file: nothing is downloaded to disk first.
//!
//! - One `HEAD` learns the object's size, `ETag` and `Last-Modified` ([`RemoteObject::info`]):
//!   they are the input's identity in the manifest, so an unchanged object is not read twice.
//! - Reading is a `GET` of the byte range from the wanted offset to the end. A connection that
//!   fails or ends early is resumed by range from the last byte received, with backoff, up to
//!   [`RemoteOptions::retries`] failures in a row (a byte received resets the count): the
//!   reader sees the same bytes as from a file. 408, 429 and 5xx answers are retried too.
//! - Every range after the first carries `If-Match` (strong ETag) or `If-Unmodified-Since`,
//!   and every answer's ETag and total size are checked: an object replaced while it is read
//!   is an error, never a mix of two versions.
//! - A server that ignores ranges (200 to a range request) still works: the bytes before the
//!   offset are read and dropped.
//! - S3: the request is signed with SigV4 as a presigned URL (`rusty-s3`) from
//!   `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`; without them it is
//!   sent unsigned (public buckets). Region from `AWS_REGION` or `AWS_DEFAULT_REGION`
//!   (default `us-east-1`); endpoint from `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`
//!   (path-style, for MinIO, moto and other S3-compatible servers), else AWS's virtual-hosted
//!   `https://BUCKET.s3.REGION.amazonaws.com` ([`S3Settings::from_env`]). Instance-profile
//!   credentials are not read.
//!
//! HTTP is `ureq` (blocking, rustls; no content decoding, so a `.warc.gz` is never
//! decompressed on the way). Invariant: no thread is spawned; every wait is bounded by the
//! timeouts of [`RemoteOptions`].

use outward_warc::source::{ByteSource, SourceStream};
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Whether `name` names a remote input this crate reads.
pub fn is_remote(name: &str) -> bool {
    ["http://", "https://", "s3://"].iter().any(|scheme| {
        name.len() > scheme.len() && name[..scheme.len()].eq_ignore_ascii_case(scheme)
    })
}

/// Failed requests or broken connections in a row before a read fails, by default.
pub const DEFAULT_RETRIES: u32 = 8;

/// How hard to try.
#[derive(Debug, Clone)]
pub struct RemoteOptions {
    /// Failed requests or broken connections in a row before the read fails.
    pub retries: u32,
    /// Wait before the first retry; doubled each time, at most [`RemoteOptions::max_backoff`].
    pub backoff: Duration,
    pub max_backoff: Duration,
    /// Connecting (DNS and TCP/TLS).
    pub connect_timeout: Duration,
    /// Longest wait for any one read from the network (headers or body).
    pub read_timeout: Duration,
    /// Where `s3://` URLs go, and as whom.
    pub s3: S3Settings,
}

/// S3 endpoint, region and credentials ([`S3Settings::from_env`] reads the usual AWS
/// variables).
#[derive(Debug, Clone, Default)]
pub struct S3Settings {
    /// An S3-compatible server (path-style requests); `None`: AWS, virtual-hosted style.
    pub endpoint: Option<String>,
    pub region: String,
    /// Access key id, secret key, session token; `None`: unsigned requests.
    pub credentials: Option<(String, String, Option<String>)>,
}

impl S3Settings {
    /// `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`, `AWS_REGION` / `AWS_DEFAULT_REGION`
    /// (default `us-east-1`), `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+
    /// `AWS_SESSION_TOKEN`).
    pub fn from_env() -> S3Settings {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        S3Settings {
            endpoint: env("AWS_ENDPOINT_URL_S3").or_else(|| env("AWS_ENDPOINT_URL")),
            region: env("AWS_REGION")
                .or_else(|| env("AWS_DEFAULT_REGION"))
                .unwrap_or_else(|| "us-east-1".to_string()),
            credentials: match (env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY")) {
                (Some(key), Some(secret)) => Some((key, secret, env("AWS_SESSION_TOKEN"))),
                _ => None,
            },
        }
    }
}

impl Default for RemoteOptions {
    fn default() -> Self {
        RemoteOptions {
            retries: DEFAULT_RETRIES,
            backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(30),
            read_timeout: Duration::from_secs(60),
            s3: S3Settings::from_env(),
        }
    }
}

/// What a `HEAD` said about an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectInfo {
    pub len: u64,
    pub etag: Option<String>,
    /// `Last-Modified` as sent.
    pub last_modified: Option<String>,
}

impl ObjectInfo {
    /// `Last-Modified` in nanoseconds since the Unix epoch (0 when absent or unreadable).
    pub fn last_modified_ns(&self) -> i128 {
        self.last_modified
            .as_deref()
            .and_then(|s| jiff::fmt::rfc2822::parse(s).ok())
            .map_or(0, |t| t.timestamp().as_nanosecond())
    }
}

/// Where requests go.
#[derive(Debug)]
enum Target {
    Http(String),
    S3 {
        bucket: Box<rusty_s3::Bucket>,
        key: String,
        credentials: Option<rusty_s3::Credentials>,
    },
}

impl Target {
    fn parse(name: &str, s3: &S3Settings) -> io::Result<Target> {
        let lower = name.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Ok(Target::Http(name.to_string()));
        }
        let rest = name
            .get("s3://".len()..)
            .filter(|_| lower.starts_with("s3://"))
            .ok_or_else(|| invalid(format!("{name}: not an http(s) or s3 URL")))?;
        let (bucket, key) = rest
            .split_once('/')
            .filter(|(b, k)| !b.is_empty() && !k.is_empty())
            .ok_or_else(|| invalid(format!("{name}: an S3 URL is s3://BUCKET/KEY")))?;
        let region = s3.region.clone();
        let (endpoint, style) = match &s3.endpoint {
            Some(custom) => (custom.clone(), rusty_s3::UrlStyle::Path),
            None => (
                format!("https://s3.{region}.amazonaws.com"),
                rusty_s3::UrlStyle::VirtualHost,
            ),
        };
        let endpoint = endpoint
            .parse()
            .map_err(|e| invalid(format!("S3 endpoint {endpoint}: {e}")))?;
        let bucket = rusty_s3::Bucket::new(endpoint, style, bucket.to_string(), region)
            .map_err(|e| invalid(format!("{name}: {e}")))?;
        let bucket = Box::new(bucket);
        let credentials = s3
            .credentials
            .as_ref()
            .map(|(key, secret, token)| match token {
                Some(token) => rusty_s3::Credentials::new_with_token(key, secret, token),
                None => rusty_s3::Credentials::new(key, secret),
            });
        Ok(Target::S3 {
            bucket,
            key: key.to_string(),
            credentials,
        })
    }

    /// The URL of one request (an S3 one is signed for an hour).
    fn url(&self, head: bool) -> String {
        use rusty_s3::S3Action;
        match self {
            Target::Http(url) => url.clone(),
            Target::S3 {
                bucket,
                key,
                credentials,
            } => {
                let expires = Duration::from_secs(3600);
                if head {
                    bucket
                        .head_object(credentials.as_ref(), key)
                        .sign(expires)
                        .to_string()
                } else {
                    bucket
                        .get_object(credentials.as_ref(), key)
                        .sign(expires)
                        .to_string()
                }
            }
        }
    }
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// A remote object: read by range, resumed on failure.
#[derive(Debug, Clone)]
pub struct RemoteObject {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    name: String,
    target: Target,
    agent: ureq::Agent,
    info: ObjectInfo,
    options: RemoteOptions,
    /// Failed requests and broken connections that were retried, over every stream.
    retried: AtomicU64,
}

/// A failed attempt: worth another try, or not.
enum Failure {
    Transient(io::Error),
    Fatal(io::Error),
}

impl RemoteObject {
    /// Opens `name` (`http(s)://…` or `s3://bucket/key`): one `HEAD` (retried like reads).
    pub fn open(name: &str, options: RemoteOptions) -> io::Result<RemoteObject> {
        let target = Target::parse(name, &options.s3)?;
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(options.connect_timeout))
            .timeout_per_read(Some(options.read_timeout))
            .timeout_recv_response(Some(options.read_timeout))
            .user_agent(concat!("outward/", env!("CARGO_PKG_VERSION")))
            .build();
        let mut inner = Inner {
            name: name.to_string(),
            target,
            agent: config.into(),
            info: ObjectInfo {
                len: 0,
                etag: None,
                last_modified: None,
            },
            options,
            retried: AtomicU64::new(0),
        };
        inner.info = inner.with_retries(|i| i.head())?;
        Ok(RemoteObject {
            inner: Arc::new(inner),
        })
    }

    /// Shared, as the reader takes it.
    pub fn shared(name: &str, options: RemoteOptions) -> io::Result<Arc<dyn ByteSource>> {
        Ok(Arc::new(RemoteObject::open(name, options)?))
    }

    /// What the `HEAD` at open time said.
    pub fn info(&self) -> &ObjectInfo {
        &self.inner.info
    }

    /// Failed requests and broken connections retried so far (each one resumed, or asked
    /// again, after its wait).
    pub fn retried(&self) -> u64 {
        self.inner.retried.load(Ordering::Relaxed)
    }

    /// A fresh `HEAD`: what the object is now (to tell whether it changed while it was read).
    pub fn info_now(&self) -> io::Result<ObjectInfo> {
        self.inner.with_retries(|i| i.head())
    }
}

impl ByteSource for RemoteObject {
    fn name(&self) -> &str {
        &self.inner.name
    }

    fn len(&self) -> io::Result<u64> {
        Ok(self.inner.info.len)
    }

    fn open_at(&self, offset: u64) -> io::Result<Box<dyn SourceStream>> {
        Ok(Box::new(RangeStream {
            object: Arc::clone(&self.inner),
            pos: offset,
            body: None,
            failures: 0,
        }))
    }
}

impl Inner {
    fn with_retries<T>(
        &self,
        mut attempt: impl FnMut(&Inner) -> Result<T, Failure>,
    ) -> io::Result<T> {
        let mut failures = 0;
        loop {
            match attempt(self) {
                Ok(v) => return Ok(v),
                Err(Failure::Fatal(e)) => return Err(e),
                Err(Failure::Transient(e)) => {
                    failures += 1;
                    self.after_failure(failures, e)?;
                }
            }
        }
    }

    /// Waits before retry number `failures`, or gives up with `e` when they are used up.
    fn after_failure(&self, failures: u32, e: io::Error) -> io::Result<()> {
        if failures > self.options.retries {
            return Err(io::Error::new(
                e.kind(),
                format!(
                    "{}: {e} (after {} retries)",
                    self.name, self.options.retries
                ),
            ));
        }
        self.retried.fetch_add(1, Ordering::Relaxed);
        let wait = self
            .options
            .backoff
            .saturating_mul(1 << (failures - 1).min(16))
            .min(self.options.max_backoff);
        std::thread::sleep(wait);
        Ok(())
    }

    /// What the object is: a `HEAD`, or, where `HEAD` is refused (a URL presigned for `GET`
    /// only: 403; 405, 501) or gives no size, a `GET` of its first byte.
    fn head(&self) -> Result<ObjectInfo, Failure> {
        let response = self
            .agent
            .head(&self.target.url(true))
            .header("Accept-Encoding", "identity")
            .call()
            .map_err(transport)?;
        match response.status().as_u16() {
            200 => match content_length(&response) {
                Some(len) => Ok(object_info(&response, len)),
                None => self.first_byte(),
            },
            403 | 405 | 501 => self.first_byte(),
            status => Err(status_failure(&self.name, status)),
        }
    }

    /// [`Inner::head`] by `GET bytes=0-0`: the size from `Content-Range` (or, from a server
    /// without ranges, `Content-Length`; the body is not read).
    fn first_byte(&self) -> Result<ObjectInfo, Failure> {
        let response = self
            .agent
            .get(&self.target.url(false))
            .header("Accept-Encoding", "identity")
            .header("Range", "bytes=0-0")
            .call()
            .map_err(transport)?;
        let len = match response.status().as_u16() {
            206 => header_text(&response, "content-range")
                .as_deref()
                .and_then(parse_content_range)
                .and_then(|(_, total)| total),
            200 => content_length(&response),
            // An empty object has no byte 0.
            416 => Some(0),
            status => return Err(status_failure(&self.name, status)),
        };
        let len = len.ok_or_else(|| {
            Failure::Fatal(io::Error::other(format!(
                "{}: the server did not say its size",
                self.name
            )))
        })?;
        Ok(object_info(&response, len))
    }

    /// A `GET` of the bytes from `offset` on, checked against what `HEAD` said.
    fn get_from(&self, offset: u64) -> Result<Box<dyn Read + Send>, Failure> {
        let mut request = self
            .agent
            .get(&self.target.url(false))
            .header("Accept-Encoding", "identity");
        if offset > 0 {
            request = request.header("Range", &format!("bytes={offset}-"));
        }
        match (&self.info.etag, &self.info.last_modified) {
            (Some(etag), _) if !etag.starts_with("W/") => {
                request = request.header("If-Match", etag);
            }
            (_, Some(date)) => request = request.header("If-Unmodified-Since", date),
            _ => {}
        }
        let response = request.call().map_err(transport)?;
        let status = response.status().as_u16();
        let header = |name: &str| header_text(&response, name);
        if let (Some(now), Some(then)) = (header("etag"), &self.info.etag)
            && (status == 200 || status == 206)
            && &now != then
        {
            return Err(self.changed());
        }
        match status {
            206 => {
                let range = header("content-range").unwrap_or_default();
                let (start, total) = parse_content_range(&range).ok_or_else(|| {
                    Failure::Fatal(io::Error::other(format!(
                        "{}: bad Content-Range {range:?}",
                        self.name
                    )))
                })?;
                if total.is_some_and(|t| t != self.info.len) {
                    return Err(self.changed());
                }
                if start != offset {
                    return Err(Failure::Fatal(io::Error::other(format!(
                        "{}: asked for bytes from {offset}, got from {start}",
                        self.name
                    ))));
                }
                Ok(Box::new(response.into_body().into_reader()))
            }
            200 => {
                // The whole object (a server without ranges): drop what comes before `offset`.
                let mut body = response.into_body().into_reader();
                let skipped = io::copy(&mut (&mut body).take(offset), &mut io::sink())
                    .map_err(Failure::Transient)?;
                if skipped < offset {
                    return Err(Failure::Transient(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("{}: ended at byte {skipped} of {offset}", self.name),
                    )));
                }
                Ok(Box::new(body))
            }
            416 if offset >= self.info.len => Ok(Box::new(io::empty())),
            412 => Err(self.changed()),
            _ => Err(status_failure(&self.name, status)),
        }
    }

    fn changed(&self) -> Failure {
        Failure::Fatal(io::Error::other(format!(
            "{}: the object changed while it was read",
            self.name
        )))
    }
}

/// A response header's value as text (`None` when absent or not visible ASCII).
fn header_text<B>(response: &ureq::http::Response<B>, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// `Content-Length` as a number.
fn content_length<B>(response: &ureq::http::Response<B>) -> Option<u64> {
    header_text(response, "content-length").and_then(|v| v.trim().parse().ok())
}

/// What a response says of its object, whose size is `len`.
fn object_info<B>(response: &ureq::http::Response<B>, len: u64) -> ObjectInfo {
    ObjectInfo {
        len,
        etag: header_text(response, "etag"),
        last_modified: header_text(response, "last-modified"),
    }
}

/// A failed request: transient (worth retrying) unless the host name does not exist (a
/// resolver that cannot be reached, "Temporary failure in name resolution", is transient).
fn transport(e: ureq::Error) -> Failure {
    match e {
        ureq::Error::Io(e) if e.to_string().contains("Name or service not known") => {
            Failure::Fatal(e)
        }
        ureq::Error::HostNotFound => Failure::Fatal(io::Error::other("host not found")),
        ureq::Error::Io(e) => Failure::Transient(e),
        ureq::Error::Timeout(t) => Failure::Transient(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("timed out ({t})"),
        )),
        ureq::Error::ConnectionFailed => Failure::Transient(io::Error::other(e.to_string())),
        other => Failure::Fatal(io::Error::other(other.to_string())),
    }
}

fn status_failure(name: &str, status: u16) -> Failure {
    let e = io::Error::other(format!("{name}: HTTP {status}"));
    if status == 408 || status == 429 || status >= 500 {
        Failure::Transient(e)
    } else {
        Failure::Fatal(e)
    }
}

/// `bytes START-END/TOTAL` → (START, TOTAL; `None` for `*`).
fn parse_content_range(value: &str) -> Option<(u64, Option<u64>)> {
    let spec = value.trim().strip_prefix("bytes ")?;
    let (span, total) = spec.split_once('/')?;
    let (start, _end) = span.split_once('-')?;
    let total = match total.trim() {
        "*" => None,
        t => Some(t.parse().ok()?),
    };
    Some((start.trim().parse().ok()?, total))
}

/// The bytes of a remote object from some offset, resumed by range when a connection fails.
struct RangeStream {
    object: Arc<Inner>,
    pos: u64,
    body: Option<Box<dyn Read + Send>>,
    /// Failures since the last byte received.
    failures: u32,
}

impl RangeStream {
    /// Counts a failure and waits, or returns the error when the retries are used up.
    fn failed(&mut self, e: io::Error) -> io::Result<()> {
        self.body = None;
        self.failures += 1;
        self.object.after_failure(self.failures, e)
    }
}

impl Read for RangeStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let len = self.object.info.len;
        loop {
            if self.pos >= len || buf.is_empty() {
                return Ok(0);
            }
            let body = match &mut self.body {
                Some(body) => body,
                None => match self.object.get_from(self.pos) {
                    Ok(body) => self.body.insert(body),
                    Err(Failure::Fatal(e)) => return Err(e),
                    Err(Failure::Transient(e)) => {
                        self.failed(e)?;
                        continue;
                    }
                },
            };
            let room = buf
                .len()
                .min((len - self.pos).min(usize::MAX as u64) as usize);
            match body.read(&mut buf[..room]) {
                Ok(0) => {
                    let e = io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("connection closed at byte {} of {len}", self.pos),
                    );
                    self.failed(e)?;
                }
                Ok(n) => {
                    self.pos += n as u64;
                    self.failures = 0;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => self.failed(e)?,
            }
        }
    }
}

impl Seek for RangeStream {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let len = self.object.info.len;
        let target = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        }
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        if target != self.pos {
            self.body = None;
            self.pos = target;
        }
        Ok(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_remote(
            "https://data.commoncrawl.org/crawl-data/x.warc.gz"
        ));
        assert!(is_remote("HTTP://a/b"));
        assert!(is_remote("s3://commoncrawl/crawl-data/x.warc.gz"));
        assert!(!is_remote("s3://"));
        assert!(!is_remote("/data/http://x"));
        assert!(!is_remote("x.warc.gz"));
        let s3 = S3Settings::default();
        assert!(Target::parse("s3://bucket", &s3).is_err());
        assert!(Target::parse("s3:///key", &s3).is_err());
        assert!(Target::parse("ftp://x/y", &s3).is_err());
        assert!(Target::parse("s3://bucket/a/b.warc.gz", &s3).is_ok());
    }

    #[test]
    fn content_ranges() {
        assert_eq!(
            parse_content_range("bytes 10-99/100"),
            Some((10, Some(100)))
        );
        assert_eq!(parse_content_range("bytes 0-0/*"), Some((0, None)));
        assert_eq!(parse_content_range("bytes */100"), None);
        assert_eq!(parse_content_range("items 1-2/3"), None);
    }

    #[test]
    fn last_modified_is_read() {
        let info = ObjectInfo {
            len: 1,
            etag: None,
            last_modified: Some("Wed, 25 Nov 2026 08:00:00 GMT".into()),
        };
        assert_eq!(info.last_modified_ns(), 1_795_593_600_000_000_000);
        let none = ObjectInfo {
            last_modified: Some("yesterday".into()),
            ..info
        };
        assert_eq!(none.last_modified_ns(), 0);
    }
}
