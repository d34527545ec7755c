"""Writes ../src/words/tables.rs: the facts of spaCy's English tokenizer and of DataTrove's text
constants that outward-filters needs to split words, lines and sentences as DataTrove's
quality filters do (DataTrove loads `spacy.blank("en")` plus a sentencizer for English).

Run it where spaCy and DataTrove are installed (`make filters-tables`); the output is
committed, so nothing else needs them. It fails on a spaCy pattern of a shape the Rust side
does not know, so a new spaCy that changes its rules is seen, not silently mistranslated.

spaCy is MIT-licensed (Explosion AI); DataTrove is Apache-2.0 (Hugging Face). Only their data
(exception lists, character classes) is carried over; the algorithm is written in Rust.
"""

import re
import sys
import unicodedata

import spacy
from spacy.lang.en import English
from spacy.pipeline import Sentencizer
from datatrove.utils import text as dt_text

OUT = sys.argv[1] if len(sys.argv) > 1 else "src/words/tables.rs"
MAX = 0x110000
CODEPOINTS = [chr(c) for c in range(MAX) if not 0xD800 <= c <= 0xDFFF]


def ranges(pred):
    out, start, prev = [], None, None
    for ch in CODEPOINTS:
        c = ord(ch)
        if pred(ch):
            if start is None:
                start = c
            elif c != prev + 1:
                out.append((start, prev))
                start = c
            prev = c
        elif start is not None:
            out.append((start, prev))
            start = None
    if start is not None:
        out.append((start, prev))
    return out


def class_ranges(cls):
    rx = re.compile("[" + cls + "]")
    return ranges(lambda ch: rx.fullmatch(ch) is not None)


def lookbehind_ranges(pattern):
    """Characters c for which `pattern` (a one-character lookbehind then a literal) matches
    right after c."""
    rx = re.compile(pattern)
    m = re.fullmatch(r"\(\?<=\[(.*)\]\)(.+)", pattern, re.S)
    tail = m.group(2).replace("\\", "")
    return ranges(lambda ch: (hit := rx.search(ch + tail)) is not None and hit.start() == 1)


def rust_str(s):
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else "\\u{%x}" % ord(c) for c in s) + '"'


def rust_ranges(name, rs, doc):
    lines = [f"/// {doc}", f"pub(crate) const {name}: &[(u32, u32)] = &["]
    row = []
    for a, b in rs:
        row.append(f"(0x{a:x}, 0x{b:x})")
        if len(row) == 6:
            lines.append("    " + ", ".join(row) + ",")
            row = []
    if row:
        lines.append("    " + ", ".join(row) + ",")
    lines.append("];")
    return "\n".join(lines)


D = English.Defaults
from spacy.lang import char_classes as cc

# A regex alternative that is a plain string: escaped characters or ones with no meaning.
LITERAL = re.compile(r"(?:\\[^\w]|[^()\[\]|?*+^$.\\])+")
icons = cc.LIST_ICONS
assert len(icons) == 1 and icons[0].startswith("[") and icons[0].endswith("]"), icons


def affix(piece, side):
    """One alternative of spaCy's prefix or suffix list as a Rust `Affix`."""
    if piece == icons[0]:
        return "Affix::Symbol"
    if piece == r"\.\.+":
        return "Affix::Dots"
    if side == "prefix" and piece == r"\+(?![0-9])":
        return "Affix::PlusNotBeforeDigit"
    m = re.fullmatch(r"\(\?<=\[0-9\]\)(.*)", piece)
    if m:
        body = m.group(1)
        if body.startswith("(?:"):
            alts = body[3:-1].split("|")
        else:
            alts = [body]
        for a in alts:
            assert LITERAL.fullmatch(a), a
        lits = [re.sub(r"\\(.)", r"\1", a) for a in alts]
        return "Affix::AfterDigit(&[" + ", ".join(rust_str(a) for a in lits) + "])"
    if piece == r"(?<=°[FfCcKk])\.":
        return "Affix::DotAfterDegreeUnit"
    if re.fullmatch(r"\(\?<=\[.*\]\[.*\]\)\\\.", piece, re.S):
        assert piece == "(?<=[" + cc.ALPHA_UPPER + "][" + cc.ALPHA_UPPER + "])\\.", piece[:80]
        return "Affix::DotAfterTwoUpper"
    if piece.startswith("(?<=[") and piece.endswith(r"])\."):
        SUFFIX_DOT_AFTER.extend(lookbehind_ranges(piece))
        return "Affix::DotAfterClass"
    assert LITERAL.fullmatch(piece), piece
    lit = re.sub(r"\\(.)", r"\1", piece)
    return f"Affix::Literal({rust_str(lit)})"


SUFFIX_DOT_AFTER = []
prefixes = [affix(p, "prefix") for p in D.prefixes if p.strip()]
suffixes = [affix(p, "suffix") for p in D.suffixes if p.strip()]

infixes = [p for p in D.infixes if p.strip()]
expected_infixes = [
    r"\.\.+",
    "…",
    icons[0],
    r"(?<=[0-9])[+\-\*^](?=[0-9-])",
    r"(?<=[{a}{q}])\.(?=[{A}{q}])".format(a=cc.ALPHA_LOWER, A=cc.ALPHA_UPPER, q=cc.CONCAT_QUOTES),
    r"(?<=[{a}]),(?=[{a}])".format(a=cc.ALPHA),
    r"(?<=[{a}0-9])(?:{h})(?=[{a}])".format(a=cc.ALPHA, h=cc.HYPHENS),
    r"(?<=[{a}0-9])[:<>=/](?=[{a}])".format(a=cc.ALPHA),
]
assert infixes == expected_infixes, "spaCy's English infixes changed: update words/spacy.rs"
assert cc.HYPHENS == "-|–|—|--|---|——|~", cc.HYPHENS

nlp = spacy.blank("en")
rules = nlp.tokenizer.rules
specials = sorted((k, [t[65] for t in v]) for k, v in rules.items())
for k, v in specials:
    assert "".join(v) == k, (k, v)

url = D.url_match.__self__.pattern

out = [
    "//! Generated by `gen/spacy_en.py` from spaCy "
    + spacy.__version__
    + " (MIT, Explosion AI) and DataTrove (Apache-2.0): do not edit.",
    "//! The character classes and exception lists of spaCy's English tokenizer and",
    "//! sentencizer, and DataTrove's punctuation sets, as the Rust side of words/ reads them.",
    "",
    "use super::spacy::Affix;",
    "",
    "/// spaCy's prefix alternatives, in the order its regex tries them.",
    "pub(crate) const PREFIXES: &[Affix] = &[",
    *("    " + p + "," for p in prefixes),
    "];",
    "",
    "/// spaCy's suffix alternatives, in the order of its list.",
    "pub(crate) const SUFFIXES: &[Affix] = &[",
    *("    " + s + "," for s in suffixes),
    "];",
    "",
    "/// spaCy's English tokenizer exceptions: a chunk (or the rest of one) equal to a key becomes",
    "/// these tokens. Sorted by key (bytes).",
    "pub(crate) const SPECIALS: &[(&str, &[&str])] = &[",
]
specials.sort(key=lambda kv: kv[0].encode())
for k, v in specials:
    out.append(f"    ({rust_str(k)}, &[" + ", ".join(rust_str(t) for t in v) + "]),")
out += ["];", ""]
out.append(f"/// The longest exception, in bytes.\npub(crate) const SPECIAL_MAX_BYTES: usize = {max(len(k.encode()) for k, _ in specials)};\n")
out.append(f"/// spaCy's URL pattern (Python syntax; translated in spacy.rs).\n#[allow(dead_code)]\npub(crate) const URL_PATTERN_PY: &str = {rust_str(url)};\n")

out.append(rust_ranges("SYMBOL", class_ranges(icons[0][1:-1]), "spaCy's icon class (`LIST_ICONS`): a prefix, suffix and infix of its own."))
out.append(rust_ranges("ALPHA", class_ranges(cc.ALPHA), "spaCy's `ALPHA`."))
out.append(rust_ranges("ALPHA_LOWER", class_ranges(cc.ALPHA_LOWER), "spaCy's `ALPHA_LOWER`."))
out.append(rust_ranges("ALPHA_UPPER", class_ranges(cc.ALPHA_UPPER), "spaCy's `ALPHA_UPPER`."))
out.append(rust_ranges("QUOTES", class_ranges(cc.CONCAT_QUOTES), "spaCy's `CONCAT_QUOTES`."))
out.append(rust_ranges("SUFFIX_DOT_AFTER", SUFFIX_DOT_AFTER, "The characters after which a final `.` is a suffix (digits, lower case, `%`, punctuation, quotes)."))
out.append(rust_ranges("PY_ALPHA", ranges(str.isalpha), "Python's `str.isalpha` (letters: categories Lu, Ll, Lt, Lm, Lo)."))
out.append(rust_ranges("PY_SPACE", ranges(str.isspace), "Python's `str.isspace`."))
out.append(rust_ranges("PY_DECIMAL", ranges(lambda c: re.fullmatch(r"\d", c) is not None), "Python's `\\\\d` (Unicode decimal digits)."))
out.append(rust_ranges("PUNCT_CATEGORY", ranges(lambda c: unicodedata.category(c).startswith("P")), "Unicode general category P* (spaCy's `is_punct`)."))
out.append(rust_ranges("SENTENCE_END", ranges(lambda c: c in set(Sentencizer.default_punct_chars)), "The sentencizer's default `punct_chars`."))
for k in Sentencizer.default_punct_chars:
    assert len(k) == 1
out.append(rust_ranges("DATATROVE_PUNCTUATION", ranges(lambda c: c in dt_text.PUNCTUATION_SET), "DataTrove's `PUNCTUATION_SET` (a word of these alone is a symbol)."))
for k in dt_text.TERMINAL_PUNCTUATION:
    assert len(k) == 1
out.append(rust_ranges("TERMINAL_PUNCTUATION", ranges(lambda c: c in dt_text.TERMINAL_PUNCTUATION), "DataTrove's `TERMINAL_PUNCTUATION`."))
out.append(rust_ranges("PY_LINE_BREAK", ranges(lambda c: len(("a" + c + "b").splitlines()) == 2), "Python's `str.splitlines` line boundaries."))

with open(OUT, "w") as f:
    f.write("\n".join(out) + "\n")
print(f"wrote {OUT}: {len(prefixes)} prefixes, {len(suffixes)} suffixes, {len(specials)} exceptions")
