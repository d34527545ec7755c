//! One WARC record → one item: [`classify`] reads the current record (type, Content-Length,
//! HTTP head, body) into a page or a skip, and says how it was framed ([`Framing`]) so that the
//! iterator (`warc/mod.rs`) knows whether the file is damaged there and where to go on.
//!
//! Invariants: the record is consumed to its end whatever it becomes; only a page's body is
//! copied; a block that does not end at a record boundary is a `BadRecord`, never a page.

use crate::record::{
    MAX_HEADER_LEN, NOT_HTTP, RawPage, ReadItem, ReaderOptions, Skip, http_response_head,
    page_check,
};
use fastwarc::warc::record::{AutoDecode, WarcRecord};
use outward_base::counts::SkipReason;
use std::borrow::Cow;
use std::io::BufRead;

fn warc_header(rec: &WarcRecord, name: &str) -> Option<String> {
    rec.headers().get(name).map(Cow::into_owned)
}

fn skip(rec: &WarcRecord, reason: SkipReason, detail: &str) -> ReadItem {
    ReadItem::Skipped(Skip {
        reason,
        record_id: warc_header(rec, "WARC-Record-ID"),
        offset: rec.stream_pos(),
        detail: detail.to_string(),
    })
}

/// Reads the rest of the record body (into `body` when given, else discards) and checks it
/// against the announced length. Returns bytes read, or an error text when the record is cut
/// short or the stream fails.
fn drain(rec: &mut WarcRecord, mut body: Option<&mut Vec<u8>>) -> Result<u64, String> {
    let expected = rec.content_length();
    let Some(reader) = rec.reader_mut() else {
        return Err("no reader".to_string());
    };
    // Chunks are copied out of the reader's buffer as they come: `read_to_end` would first
    // zero the whole body's capacity.
    let mut n = 0u64;
    let got: Result<u64, std::io::Error> = loop {
        let chunk = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => break Err(e),
        };
        if chunk.is_empty() {
            break Ok(n);
        }
        if let Some(buf) = body.as_deref_mut() {
            buf.extend_from_slice(chunk);
        }
        let len = chunk.len();
        reader.consume(len);
        n += len as u64;
    };
    match got {
        Ok(n) if n == expected => Ok(n),
        Ok(n) => Err(format!("truncated record: {n} of {expected} bytes")),
        Err(e) => Err(format!("read error: {e}")),
    }
}

/// After its block, a well-formed record is followed by its trailer of two line breaks (CR LF
/// CR LF, or LF LF in LF-only files), by EOF, or directly by the next `WARC/` line. Peeks
/// (without consuming) at the next bytes; `false` when something else follows, i.e.
/// Content-Length was wrong (too short: the body continues; too long: we ate into the next
/// record's head, possibly up to just before one of its line breaks, so a single line break
/// followed by anything but `WARC/` is not a trailer). Junk after a proper trailer is left to
/// fastwarc's quirks-mode resync and does not taint the record. Leaves the reader limited to
/// zero bytes so fastwarc's own `consume()` is a no-op.
fn followed_by_record_boundary(rec: &mut WarcRecord) -> bool {
    let Some(reader) = rec.reader_mut() else {
        return true;
    };
    reader.reset_limit();
    let ok = match reader.fill_buf() {
        Ok(buf) => is_record_boundary(buf),
        Err(_) => true,
    };
    reader.set_limit(0);
    ok
}

/// Whether `next` (the bytes buffered after a record's block, possibly few: a gzip member's end)
/// can begin a record boundary: up to two line breaks (CR LF or LF), then, unless there were
/// two, nothing buffered or `WARC/` (as far as the buffered bytes go).
pub(super) fn is_record_boundary(next: &[u8]) -> bool {
    let mut rest = next;
    for _ in 0..2 {
        rest = match rest {
            // A CR that ends what is buffered: the rest is not here to judge.
            [b'\r'] => return true,
            [b'\r', b'\n', tail @ ..] | [b'\n', tail @ ..] => tail,
            // Fewer than two line breaks: the next record must begin right here.
            _ => {
                let n = rest.len().min(5);
                return rest[..n] == b"WARC/"[..n];
            }
        };
    }
    true
}

/// What a record's framing says about the file around it.
#[derive(Debug, PartialEq)]
pub(super) enum Framing {
    /// The record ends where its Content-Length says, at a record boundary.
    Sound,
    /// The file is damaged here (cut short / unreadable): it becomes `Partial`.
    Cut(String),
    /// The record's block does not end at a record boundary: its Content-Length is off, and
    /// when too long the records after it were read as its block.
    Misframed,
}

const MISFRAMED: &str = "Content-Length does not end at a record boundary";

/// Turns the current record into one item, and says how it was framed.
pub(super) fn classify(rec: &mut WarcRecord, options: &ReaderOptions) -> (ReadItem, Framing) {
    use fastwarc::warc::record::WarcRecordType as T;
    let rtype = rec.record_type();
    let is_response = rtype == T::Response;
    if !is_response && rtype != T::Resource {
        let reason = if rtype == T::Revisit {
            SkipReason::Revisit
        } else {
            SkipReason::OtherType
        };
        return finish_skip(rec, reason, rtype.as_str());
    }
    if !rec.headers().contains_key("Content-Length") {
        // At EOF this is a header block cut short by a truncated file, not just a bad record.
        let at_eof = rec.reader_mut().is_some_and(|r| {
            r.reset_limit();
            let eof = r.fill_buf().map(|b| b.is_empty()).unwrap_or(true);
            r.set_limit(0);
            eof
        });
        if at_eof {
            let e = "WARC header cut short at end of file".to_string();
            return (skip(rec, SkipReason::BadRecord, &e), Framing::Cut(e));
        }
        return finish_skip(rec, SkipReason::BadRecord, "missing Content-Length");
    }

    let (content_type, http_headers) = if is_response {
        if !rec.is_http() {
            // A response without `application/http`: parse HTTP only if it looks like it.
            let looks_http = rec
                .reader_mut()
                .and_then(|r| r.fill_buf().ok())
                .is_some_and(|b| b.starts_with(b"HTTP/"));
            if !looks_http {
                return finish_skip(rec, SkipReason::NotHtml, NOT_HTTP);
            }
            rec.set_is_http(true);
        }
        if let Err(e) = rec.parse_http_with_opts(AutoDecode::None, MAX_HEADER_LEN, true) {
            return finish_skip(rec, SkipReason::BadRecord, &format!("bad HTTP head: {e}"));
        }
        let Some(h) = rec.http_headers() else {
            return finish_skip(rec, SkipReason::BadRecord, "no HTTP head");
        };
        match http_response_head(h) {
            Ok(head) => head,
            Err((reason, detail)) => return finish_skip(rec, reason, detail),
        }
    } else {
        (warc_header(rec, "Content-Type"), Vec::new())
    };
    let len = rec.content_length();
    let content_type = match page_check(content_type, len, options) {
        Ok(content_type) => content_type,
        Err((reason, detail)) => return finish_skip(rec, reason, detail),
    };
    let mut body = Vec::with_capacity(len as usize);
    if let Err(e) = drain(rec, Some(&mut body)) {
        let item = skip(rec, SkipReason::BadRecord, &e);
        return (item, Framing::Cut(e));
    }
    if !followed_by_record_boundary(rec) {
        return (
            skip(rec, SkipReason::BadRecord, MISFRAMED),
            Framing::Misframed,
        );
    }
    let page = RawPage {
        record_id: warc_header(rec, "WARC-Record-ID").unwrap_or_default(),
        target_uri: warc_header(rec, "WARC-Target-URI"),
        date: warc_header(rec, "WARC-Date"),
        offset: rec.stream_pos(),
        payload_digest: warc_header(rec, "WARC-Payload-Digest"),
        content_type,
        http_status: is_response.then_some(200),
        http_headers,
        body,
    };
    (ReadItem::Page(page), Framing::Sound)
}

/// Consumes the record's remaining bytes and returns the skip; a short read turns the skip
/// into `BadRecord` and flags the file, and so does a block that does not end at a record
/// boundary (a skipped record's lying Content-Length can swallow the pages after it).
fn finish_skip(rec: &mut WarcRecord, reason: SkipReason, detail: &str) -> (ReadItem, Framing) {
    match drain(rec, None) {
        Ok(_) if followed_by_record_boundary(rec) => (skip(rec, reason, detail), Framing::Sound),
        Ok(_) => (
            skip(
                rec,
                SkipReason::BadRecord,
                &format!("{MISFRAMED} ({detail})"),
            ),
            Framing::Misframed,
        ),
        Err(e) => (skip(rec, SkipReason::BadRecord, &e), Framing::Cut(e)),
    }
}
