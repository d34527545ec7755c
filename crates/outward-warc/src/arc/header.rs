//! The ARC v1 header line (`URL IP-address Archive-date Content-type Archive-length`, split
//! from the right as warcio does) and what it says: the record's kind by URL scheme, its length,
//! whether it is plausible enough to resync on, and the Archive-date in ISO 8601.
//!
//! Invariants: pure functions of the line's bytes; any bytes parse (Latin-1 when not UTF-8) to
//! a header or `None`, never a panic.

/// The five fields of an ARC v1 header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ArcHeader {
    pub url: String,
    pub ip: String,
    pub date: String,
    pub content_type: String,
    pub length: String,
}

impl ArcHeader {
    /// Splits a header line (no line ending) from the right, as warcio does: the last four
    /// space-separated fields, the rest is the URL. `None` with fewer than five fields.
    pub(super) fn parse(line: &[u8]) -> Option<ArcHeader> {
        let text = match std::str::from_utf8(line) {
            Ok(s) => s.to_string(),
            // warcio falls back to ISO-8859-1.
            Err(_) => line.iter().map(|&b| char::from(b)).collect(),
        };
        let mut parts = text.trim_end().rsplitn(5, ' ');
        let length = parts.next()?.to_string();
        let content_type = parts.next()?.to_string();
        let date = parts.next()?.to_string();
        let ip = parts.next()?.to_string();
        let url = parts.next()?.to_string();
        if url.is_empty() {
            return None;
        }
        Some(ArcHeader {
            url,
            ip,
            date,
            content_type,
            length,
        })
    }

    /// Archive-length as a number (`None` for `-1`, `abc`, …).
    pub(super) fn length(&self) -> Option<u64> {
        if self.length.is_empty() || !self.length.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.length.parse().ok()
    }

    /// Strict enough to resync on after damage: a numeric length and date, a scheme in the URL.
    pub(super) fn plausible(&self) -> bool {
        self.length().is_some()
            && self.date.len() >= 8
            && self.date.bytes().all(|b| b.is_ascii_digit())
            && self.url.contains(':')
            && !self.url.bytes().any(|b| b.is_ascii_control())
    }

    pub(super) fn kind(&self) -> Kind {
        let url = self.url.as_bytes();
        let has = |scheme: &[u8]| {
            url.len() >= scheme.len() && url[..scheme.len()].eq_ignore_ascii_case(scheme)
        };
        if self.url.starts_with("filedesc://") {
            Kind::FileDesc
        } else if has(b"http:") || has(b"https:") {
            Kind::Http
        } else {
            Kind::Other
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// The `filedesc://` version block (warcio's `arc_header`).
    FileDesc,
    /// An HTTP(S) capture: the block is an HTTP response.
    Http,
    /// Any other scheme: the block is the content, typed by the ARC header.
    Other,
}

/// An ARC date (`YYYYMMDDhhmmss`; digits past 14 ignored) as ISO 8601 UTC.
pub(super) fn iso_date(date: &str) -> Option<String> {
    let d = date.as_bytes();
    if d.len() < 14 || !d.iter().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let num = |a: usize, b: usize| -> u32 {
        d[a..b]
            .iter()
            .fold(0u32, |n, &c| n * 10 + u32::from(c - b'0'))
    };
    let (y, mo, day, h, mi, s) = (
        num(0, 4),
        num(4, 6),
        num(6, 8),
        num(8, 10),
        num(10, 12),
        num(12, 14),
    );
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match mo {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > days || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    Some(format!("{y:04}-{mo:02}-{day:02}T{h:02}:{mi:02}:{s:02}Z"))
}
