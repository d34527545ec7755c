//! [`HttpResponse`]: an HTTP/1.1 response as a WARC `response` record stores it (status line,
//! headers in order, the body as stored), with its body stored in one of the
//! [`BodyCoding`]s.

use crate::codings::{brotli, chunked, deflate, gzip};

/// How an HTTP body is stored in the WARC record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyCoding {
    Identity,
    Gzip,
    /// zlib-wrapped deflate.
    Deflate,
    Br,
    /// `Transfer-Encoding: chunked` only.
    Chunked,
    /// `Transfer-Encoding: chunked` over `Content-Encoding: gzip` (Heritrix/wget style).
    ChunkedGzip,
}

/// An HTTP/1.1 response: status line, headers in order, body as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    pub reason: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        404 => "Not Found",
        500 => "Internal Server Error",
        _ => "Unknown",
    }
}

impl HttpResponse {
    /// A response whose body is `body` stored with `coding`; sets `Content-Type` (when given),
    /// the coding headers and `Content-Length` (except for chunked bodies).
    pub fn new(
        status: u16,
        content_type: Option<&str>,
        body: &[u8],
        coding: BodyCoding,
    ) -> HttpResponse {
        let mut headers = vec![
            (
                "Date".to_string(),
                "Sat, 18 May 2024 05:13:42 GMT".to_string(),
            ),
            ("Server".to_string(), "nginx/1.24.0".to_string()),
        ];
        if let Some(ct) = content_type {
            headers.push(("Content-Type".into(), ct.into()));
        }
        let stored = match coding {
            BodyCoding::Identity => body.to_vec(),
            BodyCoding::Gzip => gzip(body),
            BodyCoding::Deflate => deflate(body),
            BodyCoding::Br => brotli(body),
            BodyCoding::Chunked => chunked(body, 1000),
            BodyCoding::ChunkedGzip => chunked(&gzip(body), 700),
        };
        match coding {
            BodyCoding::Gzip | BodyCoding::ChunkedGzip => {
                headers.push(("Content-Encoding".into(), "gzip".into()))
            }
            BodyCoding::Deflate => headers.push(("Content-Encoding".into(), "deflate".into())),
            BodyCoding::Br => headers.push(("Content-Encoding".into(), "br".into())),
            BodyCoding::Identity | BodyCoding::Chunked => {}
        }
        match coding {
            BodyCoding::Chunked | BodyCoding::ChunkedGzip => {
                headers.push(("Transfer-Encoding".into(), "chunked".into()))
            }
            _ => headers.push(("Content-Length".into(), stored.len().to_string())),
        }
        HttpResponse {
            status,
            reason: reason_phrase(status).to_string(),
            headers,
            body: stored,
        }
    }

    /// `200 OK`, `text/html; charset=utf-8`, identity coding.
    pub fn html(body: &str) -> HttpResponse {
        HttpResponse::new(
            200,
            Some("text/html; charset=utf-8"),
            body.as_bytes(),
            BodyCoding::Identity,
        )
    }

    /// Adds a header (after the ones already there).
    pub fn header(mut self, name: &str, value: &str) -> HttpResponse {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// The status line and headers, ending with the blank line.
    pub fn head_bytes(&self) -> Vec<u8> {
        let mut out = format!("HTTP/1.1 {} {}\r\n", self.status, self.reason).into_bytes();
        for (k, v) in &self.headers {
            out.extend_from_slice(k.as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(v.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"\r\n");
        out
    }

    /// Head and body: the block of a WARC `response` record.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.head_bytes();
        out.extend_from_slice(&self.body);
        out
    }
}
