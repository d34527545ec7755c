//! A small HTTP/1.1 file server on 127.0.0.1 for tests of remote inputs: serves fixed objects
//! by path, honours `Range: bytes=N-` / `bytes=N-M` (206 with `Content-Range`), `HEAD`,
//! `If-Match` (412), and can misbehave on purpose ([`Faults`]): drop the connection after some
//! body bytes, answer 503 first, after a while or every so often, ignore ranges, refuse `HEAD`. It also answers S3-style path requests
//! (`/bucket/key?X-Amz-...`): the query is ignored, so presigned URLs work against it.
//!
//! One thread per connection, one request per connection (`Connection: close`); every request
//! is logged ([`TestServer::requests`]) so tests can assert how a client resumed.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// How the server misbehaves.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// The first this many GETs of a body close the connection after `drop_after` body bytes.
    pub drops: usize,
    pub drop_after: usize,
    /// The first this many requests (any method) are answered 503.
    pub unavailable: usize,
    /// Answer every GET with the whole object (200), as servers without range support do.
    pub ignore_range: bool,
    /// After this many requests, answer every request 503 (a server that went down).
    pub down_after: Option<usize>,
    /// Answer `HEAD` 403, as a URL presigned for `GET` only does.
    pub refuse_head: bool,
    /// Every this many-th request (any method) is answered 503, for as long as the server
    /// runs (0: never): a flapping server.
    pub unavailable_every: usize,
    /// Every this many-th GET of a body closes the connection after `drop_after` body bytes
    /// (0: never).
    pub drop_every: usize,
    /// Every this many-th GET of a body (one not dropped) stalls for `stall_for` after
    /// `drop_after` body bytes, then sends the rest (0: never): a client's read timeout
    /// ends the wait.
    pub stall_every: usize,
    pub stall_for: std::time::Duration,
}

#[derive(Debug, Clone)]
struct Object {
    bytes: Arc<Vec<u8>>,
    etag: String,
    /// The object that replaces this one in the middle of its next GET.
    replaced_by: Option<Arc<Vec<u8>>>,
}

impl Object {
    fn new(bytes: Arc<Vec<u8>>) -> Object {
        Object {
            etag: format!("\"{}\"", crate::payload_digest(&bytes)),
            bytes,
            replaced_by: None,
        }
    }
}

#[derive(Default)]
struct State {
    objects: BTreeMap<String, Object>,
    faults: Faults,
    requests: Vec<String>,
    /// GET requests so far.
    gets: usize,
    /// Requests answered 503, cut short, stalled or replaced mid-read on purpose.
    faulted: usize,
    kinds: FaultCounts,
    /// `host:port` of a server that answers for the paths put nowhere here (see
    /// [`TestServer::proxy`]).
    upstream: Option<String>,
}

/// Faults served so far, by kind.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FaultCounts {
    /// Answered 503.
    pub unavailable: usize,
    /// Bodies cut short (the connection closed).
    pub dropped: usize,
    pub stalled: usize,
    /// Objects replaced in the middle of a GET.
    pub replaced: usize,
    /// Of all these, the faults of requests forwarded upstream ([`TestServer::proxy`]).
    pub upstream: usize,
}

/// A running server; it stops accepting when dropped (the listener thread exits on the next
/// connection or with the process).
pub struct TestServer {
    addr: std::net::SocketAddr,
    state: Arc<Mutex<State>>,
}

impl TestServer {
    /// Starts a server with no objects on a free port.
    pub fn start(faults: Faults) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("local addr");
        let state = Arc::new(Mutex::new(State {
            faults,
            ..State::default()
        }));
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let state = Arc::clone(&shared);
                std::thread::spawn(move || {
                    let _ = serve(conn, &state);
                });
            }
        });
        TestServer { addr, state }
    }

    /// A server that forwards every request for a path not put here to `upstream`
    /// (`host:port`, say moto's S3 server) and injects `faults` into its answers as into its
    /// own: a real server's behaviour, with the faults of a flapping network in front.
    pub fn proxy(faults: Faults, upstream: &str) -> TestServer {
        let server = TestServer::start(faults);
        server.lock().upstream = Some(upstream.to_string());
        server
    }

    /// Serves `bytes` at `path` (starting `/`), with an ETag derived from the bytes.
    pub fn put(&self, path: &str, bytes: Vec<u8>) {
        self.lock()
            .objects
            .insert(path.to_string(), Object::new(Arc::new(bytes)));
    }

    /// Serves `first` at `path` until the next GET of it, which sends `drop_after` bytes of
    /// it, then replaces it by `then` (another ETag) and closes the connection: an object
    /// overwritten while a client reads it.
    pub fn put_replaced_mid_read(&self, path: &str, first: Vec<u8>, then: Vec<u8>) {
        let mut object = Object::new(Arc::new(first));
        object.replaced_by = Some(Arc::new(then));
        self.lock().objects.insert(path.to_string(), object);
    }

    /// Objects replaced in the middle of a GET so far.
    pub fn replaced(&self) -> usize {
        self.lock().kinds.replaced
    }

    /// Faults served so far, by kind.
    pub fn fault_counts(&self) -> FaultCounts {
        self.lock().kinds
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Requests answered 503 or cut short on purpose so far.
    pub fn faulted(&self) -> usize {
        self.lock().faulted
    }

    /// Every request so far: `METHOD PATH range=VALUE` (range `-` when absent).
    pub fn requests(&self) -> Vec<String> {
        self.lock().requests.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn serve(conn: TcpStream, state: &Mutex<State>) -> std::io::Result<()> {
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("/").to_string();
    let mut headers = BTreeMap::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h == "\r\n" || h == "\n" {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let path = target.split('?').next().unwrap_or("/").to_string();
    let range = headers.get("range").cloned();
    let (object, faults, drop_now, unavailable, stall_now) = {
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        s.requests.push(format!(
            "{method} {path} range={}",
            range.as_deref().unwrap_or("-")
        ));
        let nth = s.requests.len();
        let unavailable = s.faults.unavailable > 0
            || s.faults.down_after.is_some_and(|n| nth > n)
            || (s.faults.unavailable_every > 0 && nth.is_multiple_of(s.faults.unavailable_every));
        if s.faults.unavailable > 0 {
            s.faults.unavailable -= 1;
        }
        if method == "GET" {
            s.gets += 1;
        }
        let gets = s.gets;
        let drop_now = !unavailable
            && method == "GET"
            && (s.faults.drops > 0
                || (s.faults.drop_every > 0 && gets.is_multiple_of(s.faults.drop_every)));
        if drop_now && s.faults.drops > 0 {
            s.faults.drops -= 1;
        }
        let get_served = !unavailable && method == "GET" && !drop_now;
        // An armed object is sent in part, then replaced.
        let object = s.objects.get(&path).cloned();
        let replace_now = match (get_served, &object) {
            (
                true,
                Some(Object {
                    replaced_by: Some(then),
                    ..
                }),
            ) => Some(Arc::clone(then)),
            _ => None,
        };
        if let Some(then) = &replace_now {
            s.objects
                .insert(path.clone(), Object::new(Arc::clone(then)));
            s.kinds.replaced += 1;
        }
        let stall_now = get_served
            && replace_now.is_none()
            && s.faults.stall_every > 0
            && gets.is_multiple_of(s.faults.stall_every);
        s.kinds.unavailable += usize::from(unavailable);
        s.kinds.dropped += usize::from(drop_now);
        s.kinds.stalled += usize::from(stall_now);
        let forwarded = object.is_none() && s.upstream.is_some();
        s.kinds.upstream += usize::from(forwarded && (unavailable || drop_now || stall_now));
        s.faulted += usize::from(unavailable || drop_now || stall_now || replace_now.is_some());
        (
            object,
            s.faults.clone(),
            drop_now || replace_now.is_some(),
            unavailable,
            stall_now,
        )
    };
    let mut out = conn;
    if faults.refuse_head && method == "HEAD" {
        return respond(&mut out, "403 Forbidden", &[], b"");
    }
    if unavailable {
        return respond(&mut out, "503 Service Unavailable", &[], b"");
    }
    let upstream = state
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .upstream
        .clone();
    let Some(object) = object else {
        let Some(upstream) = upstream else {
            return respond(&mut out, "404 Not Found", &[], b"");
        };
        let (status, answer_headers, body) = forward(&upstream, &method, &target, &headers)?;
        let head_only = method == "HEAD";
        let length = answer_headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(body.len());
        let passed: Vec<(&str, &str)> = answer_headers
            .iter()
            .filter(|(k, _)| {
                !["content-length", "connection", "transfer-encoding"]
                    .contains(&k.to_ascii_lowercase().as_str())
            })
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let faulted = Faulted {
            drop_now,
            stall_now,
            faults: &faults,
        };
        return send(
            &mut out,
            &status,
            &passed,
            length,
            (!head_only).then_some(&body[..]),
            &faulted,
        );
    };
    let len = object.bytes.len();
    if let Some(want) = headers.get("if-match")
        && want != "*"
        && *want != object.etag
    {
        return respond(&mut out, "412 Precondition Failed", &[], b"");
    }
    let span = match range.as_deref().and_then(parse_range) {
        Some(_) if faults.ignore_range => None,
        Some((start, _)) if start >= len => {
            let cr = format!("bytes */{len}");
            return respond(
                &mut out,
                "416 Range Not Satisfiable",
                &[("Content-Range", &cr)],
                b"",
            );
        }
        Some((start, end)) => Some((start, end.map_or(len - 1, |e| e.min(len - 1)))),
        None => None,
    };
    let (status, body, content_range) = match span {
        Some((start, end)) => (
            "206 Partial Content",
            &object.bytes[start..=end],
            Some(format!("bytes {start}-{end}/{len}")),
        ),
        None => ("200 OK", &object.bytes[..], None),
    };
    let mut extra: Vec<(&str, &str)> = vec![
        ("ETag", &object.etag),
        ("Last-Modified", "Wed, 25 Nov 2026 08:00:00 GMT"),
        ("Accept-Ranges", "bytes"),
    ];
    if let Some(cr) = &content_range {
        extra.push(("Content-Range", cr));
    }
    let head_only = method == "HEAD";
    let faulted = Faulted {
        drop_now,
        stall_now,
        faults: &faults,
    };
    send(
        &mut out,
        status,
        &extra,
        body.len(),
        (!head_only).then_some(body),
        &faulted,
    )
}

/// The faults a body is sent with.
struct Faulted<'a> {
    drop_now: bool,
    stall_now: bool,
    faults: &'a Faults,
}

/// Sends an answer of `content_length` bytes: its head, then `body` (none for a `HEAD`),
/// cut short or stalled after `drop_after` bytes as `faulted` says.
fn send(
    out: &mut TcpStream,
    status: &str,
    headers: &[(&str, &str)],
    content_length: usize,
    body: Option<&[u8]>,
    faulted: &Faulted,
) -> std::io::Result<()> {
    write_head(out, status, headers, content_length)?;
    if let Some(body) = body {
        let cut = faulted.faults.drop_after.min(body.len());
        if faulted.stall_now {
            out.write_all(&body[..cut])?;
            out.flush()?;
            std::thread::sleep(faulted.faults.stall_for);
            // The client may have given up waiting: then this fails, as it would.
            out.write_all(&body[cut..])?;
        } else if faulted.drop_now {
            out.write_all(&body[..cut])?;
        } else {
            out.write_all(body)?;
        }
    }
    out.flush()?;
    // Dropping the stream closes the connection: a drop is a short body.
    Ok(())
}

/// Sends the request to `upstream` (one connection, closed after the answer) and returns
/// its answer: the status (code and reason), the headers and the whole body.
#[allow(clippy::type_complexity)]
fn forward(
    upstream: &str,
    method: &str,
    target: &str,
    headers: &BTreeMap<String, String>,
) -> std::io::Result<(String, Vec<(String, String)>, Vec<u8>)> {
    let mut conn = TcpStream::connect(upstream)?;
    let mut request = format!("{method} {target} HTTP/1.1\r\n");
    for (k, v) in headers.iter().filter(|(k, _)| *k != "connection") {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("Connection: close\r\n\r\n");
    conn.write_all(request.as_bytes())?;
    let mut answer = Vec::new();
    std::io::Read::read_to_end(&mut conn, &mut answer)?;
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let head_end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of head from upstream"))?;
    let head = String::from_utf8_lossy(&answer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split_once(' '))
        .map(|(_, status)| status.to_string())
        .ok_or_else(|| bad("no status line from upstream"))?;
    let answer_headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    if answer_headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"))
    {
        return Err(bad("chunked answers are not proxied"));
    }
    Ok((status, answer_headers, answer[head_end + 4..].to_vec()))
}

fn parse_range(value: &str) -> Option<(usize, Option<usize>)> {
    let spec = value.strip_prefix("bytes=")?;
    let (a, b) = spec.split_once('-')?;
    let start = a.trim().parse().ok()?;
    let end = if b.trim().is_empty() {
        None
    } else {
        Some(b.trim().parse().ok()?)
    };
    Some((start, end))
}

fn write_head(
    out: &mut TcpStream,
    status: &str,
    headers: &[(&str, &str)],
    content_length: usize,
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {content_length}\r\n\r\n"));
    out.write_all(head.as_bytes())
}

fn respond(
    out: &mut TcpStream,
    status: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<()> {
    write_head(out, status, headers, body.len())?;
    out.write_all(body)?;
    out.flush()
}
