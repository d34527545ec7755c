//! HTML character references: named (the ~150 that occur in real pages) and numeric
//! (`&#123;`, `&#x1F;`). Decoding happens only when text is emitted, never while parsing.
//!
//! Invariants: unknown or malformed references are kept verbatim; numeric references to
//! invalid code points (surrogates, > U+10FFFF, 0) become U+FFFD, as browsers do; the
//! Windows-1252 range 0x80-0x9F is remapped as browsers do.

/// Named references, sorted by name for binary search.
static NAMED: &[(&str, &str)] = &[
    ("AElig", "Æ"),
    ("Aacute", "Á"),
    ("Agrave", "À"),
    ("Aring", "Å"),
    ("Atilde", "Ã"),
    ("Auml", "Ä"),
    ("Ccedil", "Ç"),
    ("Eacute", "É"),
    ("Egrave", "È"),
    ("Iacute", "Í"),
    ("Ntilde", "Ñ"),
    ("Oacute", "Ó"),
    ("Oslash", "Ø"),
    ("Ouml", "Ö"),
    ("Uacute", "Ú"),
    ("Uuml", "Ü"),
    ("aacute", "á"),
    ("acirc", "â"),
    ("acute", "´"),
    ("aelig", "æ"),
    ("agrave", "à"),
    ("alpha", "α"),
    ("amp", "&"),
    ("apos", "'"),
    ("aring", "å"),
    ("atilde", "ã"),
    ("auml", "ä"),
    ("bdquo", "„"),
    ("beta", "β"),
    ("brvbar", "¦"),
    ("bull", "•"),
    ("ccedil", "ç"),
    ("cedil", "¸"),
    ("cent", "¢"),
    ("copy", "©"),
    ("curren", "¤"),
    ("dagger", "†"),
    ("darr", "↓"),
    ("deg", "°"),
    ("delta", "δ"),
    ("divide", "÷"),
    ("eacute", "é"),
    ("ecirc", "ê"),
    ("egrave", "è"),
    ("emsp", "\u{2003}"),
    ("ensp", "\u{2002}"),
    ("epsilon", "ε"),
    ("euml", "ë"),
    ("euro", "€"),
    ("frac12", "½"),
    ("frac14", "¼"),
    ("frac34", "¾"),
    ("gamma", "γ"),
    ("ge", "≥"),
    ("gt", ">"),
    ("harr", "↔"),
    ("hellip", "…"),
    ("iacute", "í"),
    ("icirc", "î"),
    ("iexcl", "¡"),
    ("igrave", "ì"),
    ("infin", "∞"),
    ("iquest", "¿"),
    ("iuml", "ï"),
    ("lambda", "λ"),
    ("laquo", "«"),
    ("larr", "←"),
    ("ldquo", "“"),
    ("le", "≤"),
    ("lsaquo", "‹"),
    ("lsquo", "‘"),
    ("lt", "<"),
    ("macr", "¯"),
    ("mdash", "—"),
    ("micro", "µ"),
    ("middot", "·"),
    ("minus", "−"),
    ("mu", "μ"),
    ("nbsp", "\u{a0}"),
    ("ndash", "–"),
    ("ne", "≠"),
    ("not", "¬"),
    ("ntilde", "ñ"),
    ("oacute", "ó"),
    ("ocirc", "ô"),
    ("ograve", "ò"),
    ("omega", "ω"),
    ("ordf", "ª"),
    ("ordm", "º"),
    ("oslash", "ø"),
    ("otilde", "õ"),
    ("ouml", "ö"),
    ("para", "¶"),
    ("permil", "‰"),
    ("pi", "π"),
    ("plusmn", "±"),
    ("pound", "£"),
    ("prime", "′"),
    ("quot", "\""),
    ("raquo", "»"),
    ("rarr", "→"),
    ("rdquo", "”"),
    ("reg", "®"),
    ("rsaquo", "›"),
    ("rsquo", "’"),
    ("sbquo", "‚"),
    ("sect", "§"),
    ("shy", "\u{ad}"),
    ("sigma", "σ"),
    ("sup1", "¹"),
    ("sup2", "²"),
    ("sup3", "³"),
    ("szlig", "ß"),
    ("theta", "θ"),
    ("thinsp", "\u{2009}"),
    ("times", "×"),
    ("trade", "™"),
    ("uacute", "ú"),
    ("uarr", "↑"),
    ("ucirc", "û"),
    ("ugrave", "ù"),
    ("uml", "¨"),
    ("uuml", "ü"),
    ("yacute", "ý"),
    ("yen", "¥"),
    ("yuml", "ÿ"),
    ("zwj", "\u{200d}"),
    ("zwnj", "\u{200c}"),
];

/// Windows-1252 meanings of numeric references 0x80-0x9F (HTML's remapping table).
static CP1252: [u32; 32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
];

fn lookup_named(name: &str) -> Option<&'static str> {
    NAMED
        .binary_search_by(|(n, _)| n.cmp(&name))
        .ok()
        .map(|i| NAMED[i].1)
}

fn numeric_char(code: u32) -> char {
    let code = if (0x80..0xA0).contains(&code) {
        CP1252[(code - 0x80) as usize]
    } else {
        code
    };
    if code == 0 {
        return '\u{FFFD}';
    }
    char::from_u32(code).unwrap_or('\u{FFFD}')
}

/// Decode one reference starting at `s[0] == '&'`: the decoded text and the bytes consumed,
/// or `None` when it is not a reference we know.
fn decode_one(s: &str) -> Option<(DecodedRef, usize)> {
    let bytes = s.as_bytes();
    if bytes.get(1) == Some(&b'#') {
        let (hex, digits_at) = match bytes.get(2) {
            Some(b'x') | Some(b'X') => (true, 3),
            _ => (false, 2),
        };
        let mut end = digits_at;
        let mut code: u32 = 0;
        while end < bytes.len() {
            let d = match (hex, bytes[end]) {
                (_, c @ b'0'..=b'9') => (c - b'0') as u32,
                (true, c @ b'a'..=b'f') => (c - b'a' + 10) as u32,
                (true, c @ b'A'..=b'F') => (c - b'A' + 10) as u32,
                _ => break,
            };
            code = code
                .saturating_mul(if hex { 16 } else { 10 })
                .saturating_add(d);
            end += 1;
        }
        if end == digits_at {
            return None;
        }
        if bytes.get(end) == Some(&b';') {
            end += 1;
        }
        return Some((DecodedRef::Char(numeric_char(code)), end));
    }
    let mut end = 1;
    while end < bytes.len() && end <= 10 && bytes[end].is_ascii_alphanumeric() {
        end += 1;
    }
    if end == 1 {
        return None;
    }
    let decoded = lookup_named(&s[1..end])?;
    if bytes.get(end) == Some(&b';') {
        end += 1;
    }
    Some((DecodedRef::Str(decoded), end))
}

enum DecodedRef {
    Char(char),
    Str(&'static str),
}

/// Append `s` to `out` with character references decoded.
pub fn append_decoded(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(at) = memchr::memchr(b'&', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match decode_one(rest) {
            Some((decoded, consumed)) => {
                match decoded {
                    DecodedRef::Char(c) => out.push(c),
                    DecodedRef::Str(t) => out.push_str(t),
                }
                rest = &rest[consumed..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// `s` with character references decoded.
pub fn decode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    append_decoded(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted() {
        for pair in NAMED.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} !< {}", pair[0].0, pair[1].0);
        }
    }

    #[test]
    fn named_and_numeric() {
        assert_eq!(decode("a &amp; b &lt;c&gt; &nbsp;"), "a & b <c> \u{a0}");
        assert_eq!(decode("&#65;&#x42;&#X43;&#x4e2d;"), "ABC中");
        assert_eq!(decode("&#150;&#0;&#xD800;"), "–\u{FFFD}\u{FFFD}");
        assert_eq!(decode("&mdash;&hellip;&rsquo;&eacute;"), "—…’é");
    }

    #[test]
    fn malformed_kept() {
        assert_eq!(
            decode("AT&T &unknown; & &#; &#xZ"),
            "AT&T &unknown; & &#; &#xZ"
        );
        assert_eq!(decode("&amp"), "&");
        assert_eq!(decode("&#99999999999;"), "\u{FFFD}");
    }
}
