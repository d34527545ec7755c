//! Tokenizers over a cleaned buffer (see `clean`): one explicit state machine per direction.
//! A cleaned buffer has `<`/`>` only as tag delimiters, so a token is either a tag
//! (`<`…`>`) or the text between two tags.
//!
//! Invariants: tokens tile the buffer exactly (on a cleaned buffer, forward and reverse
//! produce the same tokens in opposite orders); total on any bytes (a stray `<` or `>` in a
//! buffer that is not cleaned degrades to text, never a panic).

pub mod forward;
pub mod reverse;

use crate::html::tags::Tag;
use crate::html::tree::{F_BOILER, F_GOOD, F_HREF};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Text,
    StartTag,
    EndTag,
}

/// One token: its kind and byte range `[start, end)` in the buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: u32,
    pub end: u32,
}

/// A parsed tag token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TagInfo {
    pub tag: Tag,
    pub name_start: u32,
    pub name_len: u16,
    pub flags: u8,
}

/// Classify the bytes `buf[start..end]` that lie between `<` and `>` (inclusive).
pub(crate) fn tag_kind(buf: &[u8], start: usize) -> TokenKind {
    if buf.get(start + 1) == Some(&b'/') {
        TokenKind::EndTag
    } else {
        TokenKind::StartTag
    }
}

/// Whether the tag starting at `buf[lt] == '<'` of a cleaned buffer is a void element's start
/// tag: of those the cleaner keeps only `br` and `hr` (names are canonical: lowercase, then a
/// space or `>`). Cheaper than [`parse_tag`] where nothing else of the tag is needed.
pub fn is_void_start(buf: &[u8], lt: usize) -> bool {
    matches!(
        buf.get(lt + 1..lt + 4),
        Some([b'b' | b'h', b'r', b' ' | b'>'])
    )
}

/// Parse a tag token of a cleaned buffer: `<name flags…>` or `</name>`.
pub fn parse_tag(buf: &[u8], tok: Token) -> TagInfo {
    let s = tok.start as usize;
    let e = (tok.end as usize).min(buf.len());
    let mut i = s + 1;
    if tok.kind == TokenKind::EndTag {
        i += 1;
    }
    let name_start = i.min(e);
    let mut j = name_start;
    while j < e && !matches!(buf[j], b' ' | b'>' | b'/' | b'\t' | b'\n' | b'\r') {
        j += 1;
    }
    let name = &buf[name_start..j];
    let tag = if name.len() <= 16 && name.iter().all(|b| !b.is_ascii_uppercase()) {
        Tag::from_name(name)
    } else if name.len() <= 16 {
        Tag::from_name(&name.to_ascii_lowercase())
    } else {
        Tag::Other
    };
    let mut flags = 0;
    // Flags are single letters right after the name: ` h`, ` b`, ` g`.
    let mut k = j;
    while k + 1 < e && buf[k] == b' ' {
        let f = buf[k + 1];
        let single = k + 2 >= e || matches!(buf[k + 2], b' ' | b'>');
        if !single {
            break;
        }
        flags |= match f {
            b'h' => F_HREF,
            b'b' => F_BOILER,
            b'g' => F_GOOD,
            _ => 0,
        };
        k += 2;
    }
    TagInfo {
        tag,
        name_start: name_start as u32,
        name_len: (j - name_start).min(u16::MAX as usize) as u16,
        flags,
    }
}

/// The value of ` key="…"` (`key` given with its leading space, `=` and quote) in a
/// canonical start tag (the cleaner writes values quote-free); `None` when absent or empty.
pub fn attribute<'b>(tag: &'b [u8], key: &[u8]) -> Option<&'b [u8]> {
    let at = memchr::memmem::find(tag, key)? + key.len();
    let len = tag[at..].iter().position(|&b| b == b'"')?;
    Some(&tag[at..at + len]).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_and_flags_of_canonical_tags() {
        assert_eq!(
            attribute(b"<p h id=\"a=b\" class=\"c\">", b" class=\""),
            Some(&b"c"[..])
        );
        assert_eq!(attribute(b"<p class=\"c\">", b" id=\""), None);
        let flags = |tag: &[u8]| {
            parse_tag(
                tag,
                Token {
                    kind: TokenKind::StartTag,
                    start: 0,
                    end: tag.len() as u32,
                },
            )
            .flags
        };
        assert!(flags(b"<div b g id=\"x\">") & F_BOILER != 0 && flags(b"<a h>") & F_HREF != 0);
        assert!(flags(b"<div id=\"b\">") & F_BOILER == 0 && flags(b"<b>") & F_BOILER == 0);
    }

    #[test]
    fn parses_canonical_tags() {
        let buf = b"<a h b id=\"x\">t</a>";
        let t = parse_tag(
            buf,
            Token {
                kind: TokenKind::StartTag,
                start: 0,
                end: 14,
            },
        );
        assert_eq!(t.tag, Tag::A);
        assert_eq!(t.flags, F_HREF | F_BOILER);
        let e = parse_tag(
            buf,
            Token {
                kind: TokenKind::EndTag,
                start: 15,
                end: 19,
            },
        );
        assert_eq!(e.tag, Tag::A);
        assert_eq!(e.name_len, 1);
    }

    /// On cleaned pages, the cheap void test agrees with parsing the tag.
    #[test]
    fn void_start_tags_of_cleaned_buffers() {
        let html = b"<div><br><BR class=x><hr id=y><img src=a><input><b>x</b><brx>y</brx>\
                     <wbr><link href=z><p>z<br/><hr/><area><col><br-><Hr></div>";
        let buf = crate::html::clean::clean(html, Default::default()).buf;
        let mut voids = 0;
        for tok in forward::ForwardTokenizer::new(&buf, 0) {
            if tok.kind == TokenKind::StartTag {
                let parsed = parse_tag(&buf, tok).tag.is_void();
                assert_eq!(
                    is_void_start(&buf, tok.start as usize),
                    parsed,
                    "{:?}",
                    &buf[tok.start as usize..]
                );
                voids += usize::from(parsed);
            }
        }
        assert_eq!(voids, 6, "{}", String::from_utf8_lossy(&buf));
    }

    /// The tokenizers as first written (two scans per token), the reference for the
    /// single-scan ones on any bytes.
    fn reference_forward(buf: &[u8], start: usize) -> Option<Token> {
        use memchr::memchr;
        if start >= buf.len() {
            return None;
        }
        let (end, kind) = if buf[start] == b'<' {
            let end = memchr(b'>', &buf[start + 1..]).map_or(buf.len(), |at| start + at + 2);
            match memchr(b'<', &buf[start + 1..end]) {
                Some(inner) => (start + 1 + inner, TokenKind::Text),
                None if buf[end - 1] == b'>' => (end, tag_kind(buf, start)),
                None => (end, TokenKind::Text),
            }
        } else {
            (
                memchr(b'<', &buf[start..]).map_or(buf.len(), |at| start + at),
                TokenKind::Text,
            )
        };
        Some(Token {
            kind,
            start: start as u32,
            end: end as u32,
        })
    }

    fn reference_reverse(buf: &[u8], end: usize) -> Option<Token> {
        use memchr::{memrchr, memrchr2};
        if end == 0 {
            return None;
        }
        if buf[end - 1] == b'>'
            && let Some(lt) = memrchr2(b'<', b'>', &buf[..end - 1])
            && buf[lt] == b'<'
        {
            return Some(Token {
                kind: tag_kind(buf, lt),
                start: lt as u32,
                end: end as u32,
            });
        }
        let start = match memrchr(b'>', &buf[..end]) {
            Some(gt) if gt + 1 < end || buf[end - 1] != b'>' => gt + 1,
            _ => 0,
        };
        let start = memrchr(b'<', &buf[start..end]).map_or(start, |lt| start + lt);
        Some(Token {
            kind: TokenKind::Text,
            start: start as u32,
            end: end as u32,
        })
    }

    /// Every string of up to 7 bytes over `<`, `>`, `/`, `a`, from every position.
    #[test]
    fn single_scan_tokenizers_match_the_reference_on_any_bytes() {
        let alphabet = *b"<>/a";
        for len in 0..=7u32 {
            for code in 0..4usize.pow(len) {
                let buf: Vec<u8> = (0..len)
                    .map(|k| alphabet[code / 4usize.pow(k) % 4])
                    .collect();
                for pos in 0..=buf.len() {
                    let mut fwd = forward::ForwardTokenizer::new(&buf, pos);
                    assert_eq!(fwd.next(), reference_forward(&buf, pos), "{buf:?} at {pos}");
                    let mut rev = reverse::ReverseTokenizer::new(&buf, pos);
                    assert_eq!(rev.next(), reference_reverse(&buf, pos), "{buf:?} at {pos}");
                }
            }
        }
    }
}
