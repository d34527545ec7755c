//! spaCy's `URL_PATTERN` (the tokenizer keeps a chunk that matches it whole), matched by hand:
//! [`is_url`]. No automaton is built: the regex crate's cost about 8M instructions to build,
//! once per process (1.3 % of the signals of a run over dragnet's 1,381 pages), and each
//! thread kept up to 1 MB of its lazy DFA's states.
//!
//! The pattern, with `.` for its `\S` (a chunk holds no white space), is
//!
//! ```text
//! ^(?:[\w+\-.]{2,}://)?(?:.+(?::.*)?@)?(?:IP|(?:LABEL\.)+[ALPHA_LOWER]{2,63})(?::\d{2,5})?(?:[/?#].*)?$
//! ```
//!
//! and every part of it but the user and the path is decided by one place in the string:
//! - the scheme's class holds no `:`, so a scheme ends at the first character outside it;
//! - the host's characters (labels, dots, digits, lower-case letters) are none of `:/?#`,
//!   and after the host comes a port (`:`), a path (`/?#`) or the end: the host runs from
//!   where it starts to the first of `:/?#` after it;
//! - its labels and top-level domain hold no dot, and an address's numbers are digits: the
//!   dots cut the host into its parts, and an address's last number starts with an ASCII
//!   digit where a name's last part is of the lower-case class (which holds the Arabic
//!   digits, but no ASCII one), so a host is one or the other.
//!
//! What is left to try is where the host starts: after the scheme or not, after an `@` of
//! the user or not. They are tried in the pattern's order (a scheme first; the user's greedy
//! `.+` first to the last `@`), and the first that matches is the regex's match, which says
//! whether its `ip` group took part (the private addresses' lookaheads of spaCy's pattern
//! are a check of that group: [`is_private_ip`]).
//!
//! Invariant: [`url_match`] is the regex crate's answer for the pattern as written, `ip` group
//! included (`the_url_matcher_matches_as_the_regex` holds it to the regex), with `\d` read as
//! Python's `re` reads it (its decimal digits, `python::is_decimal`: the regex crate's but
//! for digits Unicode 16 added past U+FFFF, which the Python the tables come from does not
//! know), and `\w` as the regex crate reads it.

use std::ops::Range;

use super::{python, tables};
use outward_base::ranges::in_ranges;

/// Whether spaCy's tokenizer keeps `s` (a chunk or part of one: no white space) whole as a
/// URL: the pattern matches, and not through a private address.
pub(super) fn is_url(s: &str) -> bool {
    if !has_host_dot(s) {
        return false;
    }
    match url_match(s) {
        Some(ip) => !ip.is_some_and(|ip| is_private_ip(&s[ip])),
        None => false,
    }
}

/// Whether `s` has a dot the URL pattern needs: a host name's last dot comes after a
/// character of a label (`[A-Za-z0-9\u00a1-\uffff]`) and before a lower-case letter of
/// its top-level class (`ALPHA_LOWER`); an address's dots come after a digit and before a
/// decimal digit. Without one, the pattern cannot match.
fn has_host_dot(s: &str) -> bool {
    let mut before = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '.'
            && before.is_some_and(is_label_end)
            && chars
                .peek()
                .is_some_and(|&after| is_lower(after) || python::is_decimal(after))
        {
            return true;
        }
        before = Some(c);
    }
    false
}

/// Whether the URL pattern matches `s`, and where its `ip` group is when the match takes
/// the address's branch.
///
/// Linear in `s`: a host holds no `@`, so the host after an `@` ends before the next `@`;
/// the hosts tried for one scheme lie apart, and each is read once (a chunk of a million
/// `@` is refused as fast as any other).
fn url_match(s: &str) -> Option<Option<Range<usize>>> {
    // The scheme, when there is one, is tried first; then none.
    let schemes = scheme_end(s).into_iter().chain([0]);
    for from in schemes {
        // The user's `.+` is at least one character, then its `@`: the host after the last
        // `@` is tried first, then each one before it, then the host with no user.
        let mut next_at = s.len();
        for at in memchr::memrchr_iter(b'@', &s.as_bytes()[from..]).map(|at| from + at) {
            if at > from
                && let Some(ip) = host_match(s, at + 1, next_at)
            {
                return Some(ip);
            }
            next_at = at;
        }
        if let Some(ip) = host_match(s, from, next_at) {
            return Some(ip);
        }
    }
    None
}

/// Where the scheme's `://` ends, when `s` starts with two or more characters of
/// `[\w+\-.]` and then `://`.
fn scheme_end(s: &str) -> Option<usize> {
    let (end, c) = s.char_indices().find(|&(_, c)| !is_scheme_char(c))?;
    let count = s[..end].chars().count();
    (c == ':' && count >= 2 && s[end..].starts_with("://")).then_some(end + 3)
}

/// The host from `start`, then a port and a path or the end: `Some` when they match, with
/// the address's range when the host is an address. The host ends at the first of `:/?#`
/// before `next_at` (the next `@`, or the end of `s`), or at the end of `s`: past an `@` it
/// cannot go.
fn host_match(s: &str, start: usize, next_at: usize) -> Option<Option<Range<usize>>> {
    let end = match s[start..next_at].find([':', '/', '?', '#']) {
        Some(at) => start + at,
        None if next_at == s.len() => next_at,
        None => return None,
    };
    if !port_then_path(&s[end..]) {
        return None;
    }
    let host = &s[start..end];
    if is_address(host) {
        return Some(Some(start..end));
    }
    is_host_name(host).then_some(None)
}

/// Whether what follows a host is `(?::\d{2,5})?(?:[/?#].*)?$`.
fn port_then_path(rest: &str) -> bool {
    let Some(port) = rest.strip_prefix(':') else {
        return rest.is_empty() || rest.starts_with(['/', '?', '#']);
    };
    // The digits run to the first character that is no digit: that must end the string or
    // start the path (a digit cannot).
    let mut digits = 0;
    for c in port.chars() {
        if !python::is_decimal(c) {
            return (2..=5).contains(&digits) && matches!(c, '/' | '?' | '#');
        }
        digits += 1;
        if digits > 5 {
            return false;
        }
    }
    digits >= 2
}

/// Whether `host` is the pattern's address: four numbers joined by dots, the first
/// `[1-9]\d?|1\d\d|2[01]\d|22[0-3]`, the two inner ones `1?\d{1,2}|2[0-4]\d|25[0-5]`, the
/// last `[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]`.
fn is_address(host: &str) -> bool {
    let mut parts = host.split('.');
    let mut next = || -> Option<[Option<char>; 3]> {
        let part = parts.next()?;
        let mut chars = part.chars();
        let three = [chars.next(), chars.next(), chars.next()];
        // No number is longer than three characters, nor empty.
        (chars.next().is_none() && three[0].is_some()).then_some(three)
    };
    let (Some(first), Some(second), Some(third), Some(last)) = (next(), next(), next(), next())
    else {
        return false;
    };
    let [second, third] = [second, third].map(|[a, b, c]| match c {
        // `1?\d{1,2}` of one or two characters.
        None => is_digit(a) && (b.is_none() || is_digit(b)),
        Some(_) => three_digit_number([a, b, c], '4', '5', '5'),
    });
    let [first, last] = [(first, '1', '2', '3'), (last, '4', '5', '4')].map(
        |([a, b, c], tens, top_tens, top_units)| match c {
            // `[1-9]\d?`
            None => a.is_some_and(|a| ('1'..='9').contains(&a)) && (b.is_none() || is_digit(b)),
            Some(_) => three_digit_number([a, b, c], tens, top_tens, top_units),
        },
    );
    parts.next().is_none() && first && second && third && last
}

/// A number of three characters `1\d\d|2[0-T]\d|2U[0-V]` (T `tens`, U `top_tens`, V
/// `top_units`).
fn three_digit_number(
    [a, b, c]: [Option<char>; 3],
    tens: char,
    top_tens: char,
    top_units: char,
) -> bool {
    let in_range = |x: Option<char>, to: char| x.is_some_and(|x| ('0'..=to).contains(&x));
    (a == Some('1') && is_digit(b) && is_digit(c))
        || (a == Some('2') && in_range(b, tens) && is_digit(c))
        || (a == Some('2') && b == Some(top_tens) && in_range(c, top_units))
}

/// A decimal digit as Python's `str.isdecimal` (and its `re`'s `\d`) reads it.
fn is_digit(c: Option<char>) -> bool {
    c.is_some_and(python::is_decimal)
}

/// Whether `host` is `(?:LABEL\.)+[ALPHA_LOWER]{2,63}`, a label being
/// `(?:[A-Za-z0-9\x{a1}-\x{ffff}][A-Za-z0-9\x{a1}-\x{ffff}_-]{0,62})?[A-Za-z0-9\x{a1}-\x{ffff}]`:
/// one to 64 characters, the first and last of the first class, the others of either.
fn is_host_name(host: &str) -> bool {
    let Some((labels, top)) = host.rsplit_once('.') else {
        return false;
    };
    let top_chars = top.chars().count();
    (2..=63).contains(&top_chars)
        && top.chars().all(is_lower)
        && labels.split('.').all(|label| {
            let mut count = 0;
            let inner = label.chars().all(|c| {
                count += 1;
                is_label_end(c) || c == '_' || c == '-'
            });
            inner
                && (1..=64).contains(&count)
                && label.chars().next().is_some_and(is_label_end)
                && label.chars().next_back().is_some_and(is_label_end)
        })
}

/// A character of `[A-Za-z0-9\x{a1}-\x{ffff}]`: one that may start or end a label.
fn is_label_end(c: char) -> bool {
    c.is_ascii_alphanumeric() || ('\u{a1}'..='\u{ffff}').contains(&c)
}

/// A character of spaCy's `ALPHA_LOWER` (a top-level domain's).
fn is_lower(c: char) -> bool {
    in_ranges(tables::ALPHA_LOWER, c as u32)
}

/// A character of the scheme's class `[\w+\-.]`, `\w` as the regex crate reads it.
fn is_scheme_char(c: char) -> bool {
    matches!(c, '+' | '-' | '.')
        || regex_syntax::try_is_word_character(c).expect("the Unicode word class is built in")
}

/// Whether the address matched is one spaCy's lookaheads exclude: `10` or `127` first,
/// `169.254` or `192.168` first, or `172.` then `1[6-9]`, `2\d` or `3[01]` (`\d` a decimal
/// digit of any script, as Python's `re` reads it).
fn is_private_ip(ip: &str) -> bool {
    let mut parts = ip.split('.');
    match (parts.next(), parts.next()) {
        (Some("10" | "127"), _) | (Some("169"), Some("254")) | (Some("192"), Some("168")) => true,
        (Some("172"), Some(second)) => {
            let mut chars = second.chars();
            match (chars.next(), chars.next(), chars.next()) {
                (Some('1'), Some('6'..='9'), None) | (Some('3'), Some('0' | '1'), None) => true,
                (Some('2'), Some(digit), None) => python::is_decimal(digit),
                _ => false,
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// spaCy's URL_PATTERN in the regex crate's syntax, the private-address lookaheads
    /// replaced by the `ip` group (checked after the match: `is_private_ip`).
    fn url_pattern() -> String {
        let mut lower = String::new();
        for &(lo, hi) in tables::ALPHA_LOWER {
            lower.push_str(&format!("\\x{{{lo:x}}}-\\x{{{hi:x}}}"));
        }
        format!(
            r"^(?:(?:[\w\+\-\.]{{2,}})://)?(?:\S+(?::\S*)?@)?(?:(?P<ip>(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{{1,2}}|2[0-4]\d|25[0-5])){{2}}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4])))|(?:(?:[A-Za-z0-9\x{{a1}}-\x{{ffff}}][A-Za-z0-9\x{{a1}}-\x{{ffff}}_-]{{0,62}})?[A-Za-z0-9\x{{a1}}-\x{{ffff}}]\.)+(?:[{lower}]{{2,63}}))(?::\d{{2,5}})?(?:[/?#]\S*)?$"
        )
    }

    /// `has_host_dot` turns away only what the URL pattern rejects: every string of up to 5
    /// characters from an alphabet of labels, dots, digits, separators, a capital and
    /// non-ASCII letters.
    #[test]
    fn no_host_dot_no_url() {
        let alphabet = [
            'a', 'A', '1', '.', '/', ':', '@', '\u{e9}', '\u{4e2d}', '\u{663}',
        ];
        let mut strings = vec![String::new()];
        let (mut urls, mut turned_away) = (0, 0);
        for _ in 0..5 {
            strings = strings
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            for s in &strings {
                let matches = url_match(s).is_some();
                urls += usize::from(matches);
                if !has_host_dot(s) {
                    turned_away += 1;
                    assert!(!matches, "{s}");
                }
            }
        }
        assert!(urls > 300 && turned_away > 50_000, "{urls} {turned_away}");
    }

    /// The URL matcher reads `\S` as any character: no character a chunk can hold (none that
    /// Python calls white space) is white space to the regex crate.
    #[test]
    fn no_chunk_character_is_white_space_to_the_regex() {
        let white = regex::Regex::new(r"^\s$").unwrap();
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            if !python::is_space(c) {
                assert!(
                    !white.is_match(c.encode_utf8(&mut [0; 4])),
                    "{:x}",
                    c as u32
                );
            }
        }
    }

    /// The URL matcher decides as the regex crate does with the pattern as written (`\S`),
    /// its `ip` group included, on URLs, addresses, near misses and long parts.
    #[test]
    fn the_url_matcher_matches_as_the_regex() {
        let regex = regex::Regex::new(&url_pattern()).unwrap();
        let long = format!("https://example.com/{}", "a-b".repeat(4000));
        let cases = [
            "www.example.com/a-b",
            "http://x.y/z?a=b",
            "https://user:pw@host.example.org:8080/p#f",
            "10.0.0.1",
            "192.168.1.20:80/x",
            "8.8.8.8",
            "172.20.1.1",
            "a.b",
            "co-op.uk",
            "example.COM",
            "\u{4f8b}\u{5b50}.\u{4e2d}\u{56fd}",
            "ftp.-x.com",
            "x.y-z",
            "a@b.cd",
            long.as_str(),
        ];
        // Labels and top-level domains at and past their bounds, and long runs elsewhere (the
        // exact automaton's strings), beside short strings of URL characters (the open one's).
        let x = |n: usize| "x".repeat(n);
        let at_bounds = [
            format!("{}.com", x(64)),
            format!("{}.com", x(65)),
            format!("a.{}", x(63)),
            format!("a.{}", x(64)),
            format!("a.b.{}.{}", x(64), x(63)),
            format!("{}.{}.com", x(10), x(80)),
            format!("example.com/{}", x(70)),
            format!("{}@b.com", x(70)),
            format!("{}.{}", "\u{e9}".repeat(64), x(2)),
            format!("http://{}-{}.org", x(40), x(30)),
            format!("http://{}.org/a", x(70)),
            format!("a@b@{}.org", x(70)),
            format!("a.com/{}@{}.org", x(3), x(70)),
            format!("a.com:{}.org", x(70)),
            format!("{}:/{}.org", x(3), x(70)),
        ];
        // Hosts of random labels and endings, some with a stray character: URLs and near
        // misses.
        let mut next = crate::draws(0x9e37_79b9_7f4a_7c15);
        let label_chars = ['a', 'b', 'x', '1', '0', '-', '_', 'A', '\u{e9}', '\u{4e2d}'];
        let starts = ["", "", "http://", "u@", "a:b@", "1.", "10.", "192.168."];
        let tlds = [
            "com",
            "c",
            "co1",
            "\u{e9}\u{e9}",
            "\u{4e2d}",
            "ab",
            "0",
            "COM",
        ];
        let ends = ["", "", ":80", ":8", "/p", "?q=1", "#f", "/", ":"];
        let stray = ['.', '@', ':', '/', '-', '1', '\u{1ee00}'];
        let short: Vec<String> = (0..20_000)
            .map(|_| {
                let mut url = starts[next(starts.len())].to_string();
                for _ in 0..1 + next(3) {
                    for _ in 0..1 + next(4) {
                        url.push(label_chars[next(label_chars.len())]);
                    }
                    url.push('.');
                }
                url.push_str(tlds[next(tlds.len())]);
                url.push_str(ends[next(ends.len())]);
                if next(4) == 0 {
                    let at = url
                        .char_indices()
                        .nth(next(url.chars().count()))
                        .map_or(0, |(i, _)| i);
                    url.insert(at, stray[next(stray.len())]);
                }
                url
            })
            .collect();
        let mut matched = 0;
        for s in cases
            .into_iter()
            .chain(at_bounds.iter().map(String::as_str))
            .chain(short.iter().map(String::as_str))
        {
            let by_regex = regex
                .captures(s)
                .map(|caps| caps.name("ip").map(|ip| ip.range()));
            matched += usize::from(by_regex.is_some());
            assert_eq!(url_match(s), by_regex, "{s}");
        }
        assert!(matched > 1_000 && matched < 19_000, "{matched}");
    }

    /// Strings drawn from the pieces URLs are made of and the characters whose class is in
    /// doubt (Unicode digits, a combining mark, astral letters, `½`): the matcher and the
    /// regex agree on each, `ip` group included.
    #[test]
    fn drawn_strings_match_as_the_regex() {
        let regex = regex::Regex::new(&url_pattern()).unwrap();
        let pieces = [
            "http",
            "://",
            ":/",
            "a",
            "b",
            "Z",
            "1",
            "2",
            "5",
            "0",
            "25",
            "255",
            "22",
            "3",
            "9",
            "10",
            "192",
            "168",
            "172",
            "127",
            ".",
            ".",
            ".",
            "@",
            "@",
            ":",
            "/",
            "?",
            "#",
            "-",
            "_",
            "+",
            "com",
            "org",
            "ab",
            "x.y",
            "\u{e9}",
            "\u{4e2d}",
            "\u{663}",
            "\u{300}",
            "\u{bd}",
            "\u{1d41a}",
            "\u{10000}",
            "\u{ff1a}",
            "\u{1ee00}",
        ];
        // And addresses: numbers at and past each bound, three to five of them, a scheme or a
        // user before, a port or a path after.
        let numbers = [
            "0",
            "1",
            "9",
            "10",
            "25",
            "99",
            "100",
            "127",
            "168",
            "172",
            "192",
            "199",
            "200",
            "219",
            "220",
            "223",
            "224",
            "249",
            "250",
            "254",
            "255",
            "256",
            "01",
            "\u{663}",
            "1\u{663}",
            "2\u{663}\u{663}",
            "25\u{663}",
        ];
        let befores = ["", "", "http://", "u@", "a@b@", "x:y@"];
        let afters = [
            "",
            "",
            ":80",
            ":8",
            ":123456",
            "/p",
            "#f",
            "?q",
            "/a@b.com",
            ":8\u{663}",
        ];
        let mut next = crate::draws(0x2545_f491_4f6c_dd1d);
        let (mut matched, mut addresses) = (0, 0);
        for _ in 0..200_000 {
            let mut s = String::new();
            if next(2) == 0 {
                for _ in 0..1 + next(12) {
                    s.push_str(pieces[next(pieces.len())]);
                }
            } else {
                s.push_str(befores[next(befores.len())]);
                for i in 0..3 + next(3) {
                    if i > 0 {
                        s.push('.');
                    }
                    s.push_str(numbers[next(numbers.len())]);
                }
                s.push_str(afters[next(afters.len())]);
            }
            let by_regex = regex
                .captures(&s)
                .map(|caps| caps.name("ip").map(|ip| ip.range()));
            matched += usize::from(by_regex.is_some());
            addresses += usize::from(by_regex.as_ref().is_some_and(Option::is_some));
            assert_eq!(url_match(&s), by_regex, "{s}");
        }
        assert!(
            matched > 5_000 && addresses > 5_000,
            "{matched} {addresses}"
        );
    }

    /// A chunk of a million `@` (and one of a million users each followed by a host that
    /// is none) is decided in one pass: were each `@`'s host read to the end, this test
    /// would read 5·10^11 bytes.
    #[test]
    fn many_users_are_read_once() {
        let ats = format!("{}x.com", "@".repeat(1_000_000));
        assert_eq!(url_match(&ats), Some(None));
        let users = format!("{}x", "a.b@".repeat(250_000));
        assert_eq!(url_match(&users), None);
        let ports = format!("{}/x", "a.com:1@".repeat(125_000));
        assert_eq!(url_match(&ports), None);
        assert!(!is_url(&ats[..1_000_000]));
    }

    /// spaCy keeps an address whole unless its lookaheads call it private, and those read
    /// `\d` as a digit of any script: an address whose numbers hold other digits is private
    /// or not as in Python. (Before the matcher was written by hand, the `ip` group was read
    /// only where three dots stood between ASCII digits, so "127.0.\u{663}.1" was kept whole;
    /// "10.0.0.\u{663}" is no address at all: a last number starts with an ASCII digit.)
    #[test]
    fn addresses_with_other_digits_are_private_as_in_python() {
        for (s, url) in [
            ("8.8.8.8", true),
            ("10.0.0.1", false),
            ("10.0.0.\u{663}", false),
            ("127.0.\u{663}.1", false),
            ("172.16.0.1", false),
            ("172.2\u{663}.0.1", false),
            ("172.32.0.1", true),
            ("172.1\u{666}.0.1", true),
            ("192.168.1.1", false),
            ("192.169.1.1", true),
            ("1\u{663}.0.0.1", true),
        ] {
            assert_eq!(is_url(s), url, "{s}");
        }
    }

    /// The matcher's `\d` (Python's decimal digits) is the regex crate's but for the digits
    /// of Unicode 16 past U+FFFF, and no ASCII digit (which starts an address's last number)
    /// is of the top-level domain's class (whose Arabic range holds digits of its own): a
    /// host is an address or a name, not both.
    #[test]
    fn digits_are_pythons_and_start_no_top_level_domain() {
        let digit = regex::Regex::new(r"^\d$").unwrap();
        let (mut digits, mut newer) = (0, 0);
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            let by_regex = digit.is_match(c.encode_utf8(&mut [0; 4]));
            if python::is_decimal(c) != by_regex {
                // Only digits newer than the tables' Unicode, none in the first plane.
                assert!(by_regex && c as u32 > 0xffff, "{:x}", c as u32);
                newer += 1;
            }
            digits += usize::from(python::is_decimal(c));
        }
        assert!(digits > 600 && newer <= 100, "{digits} {newer}");
        assert!(('0'..='9').all(|c| !is_lower(c)));
        assert!(is_lower('\u{6f4}') && python::is_decimal('\u{6f4}'));
    }

    /// Addresses and ports with digits of other scripts, each before a path that holds an
    /// infix (where the tokenizer asks whether the chunk is a URL), split as spaCy 3.8.18
    /// splits them (its output, pasted). Before the matcher was written by hand,
    /// "127.0.\u{663}.1/a-b" and "172.2\u{663}.0.1/a-b" were kept whole.
    #[test]
    fn addresses_split_as_spacy_splits() {
        let cases: &[(&str, &[&str])] = &[
            ("8.8.8.8/a-b", &["8.8.8.8/a-b"]),
            ("10.0.0.1/a-b", &["10.0.0.1", "/", "a", "-", "b"]),
            ("10.0.0.\u{663}/a-b", &["10.0.0.\u{663}/a", "-", "b"]),
            (
                "127.0.\u{663}.1/a-b",
                &["127.0.\u{663}.1", "/", "a", "-", "b"],
            ),
            ("172.16.0.1/a-b", &["172.16.0.1", "/", "a", "-", "b"]),
            (
                "172.2\u{663}.0.1/a-b",
                &["172.2\u{663}.0.1", "/", "a", "-", "b"],
            ),
            ("172.32.0.1/a-b", &["172.32.0.1/a-b"]),
            ("172.1\u{666}.0.1/a-b", &["172.1\u{666}.0.1/a-b"]),
            ("192.168.1.1/a-b", &["192.168.1.1", "/", "a", "-", "b"]),
            ("192.169.1.1/a-b", &["192.169.1.1/a-b"]),
            ("1\u{663}.0.0.1/a-b", &["1\u{663}.0.0.1/a-b"]),
            ("x.y:8\u{10d40}/a-b", &["x.y:8\u{10d40}/a", "-", "b"]),
            ("x.y:8\u{663}/a-b", &["x.y:8\u{663}/a", "-", "b"]),
            (
                "x.y:\u{10d40}\u{10d40}/a-b",
                &["x.y:\u{10d40}\u{10d40}/a", "-", "b"],
            ),
            ("1.2.3.\u{6f4}\u{6f4}/a-b", &["1.2.3.\u{6f4}\u{6f4}/a-b"]),
            ("u@10.0.0.\u{663}/a-b", &["u@10.0.0.\u{663}/a", "-", "b"]),
            ("ab://10.0.0.1/a-b", &["ab://10.0.0.1", "/", "a", "-", "b"]),
        ];
        for &(chunk, tokens) in cases {
            assert_eq!(crate::words::spacy::words(chunk), tokens, "{chunk}");
        }
    }
}
