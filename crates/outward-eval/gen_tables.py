import os, re, sys, unicodedata
# ../shared/eval beside the repository root (this file is crates/outward-eval/gen_tables.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/eval"))
import score
word = re.compile(r"[^\W_]")
def ranges(pred):
    out=[]; start=None
    for cp in range(0x110000):
        ok = pred(cp)
        if ok and start is None: start=cp
        if not ok and start is not None: out.append((start,cp-1)); start=None
    if start is not None: out.append((start,0x10FFFF))
    return out
def is_word(cp):
    if 0xD800 <= cp <= 0xDFFF: return False
    return word.match(chr(cp)) is not None
def unassigned(cp):
    if 0xD800 <= cp <= 0xDFFF: return False
    return unicodedata.category(chr(cp)) == "Cn"
w = ranges(is_word); u = ranges(unassigned)
# Final-sigma classes, probed through str.lower() itself: Python skips case-ignorable chars
# around U+03A3 and then asks whether the next one is cased.
def sigma_probe(cp, tail):
    if 0xD800 <= cp <= 0xDFFF: return None
    return ("\u0391\u03a3" + chr(cp) + tail).lower()[1] == "\u03c3"
def ignorable(cp):  # skipped: "ΑΣcΑ" keeps σ though "ΑΣc" would not
    return bool(sigma_probe(cp, "\u0391")) and not sigma_probe(cp, "")
def cased(cp):  # not ignorable and cased: "ΑΣc" keeps σ
    return bool(sigma_probe(cp, ""))
ign = ranges(ignorable); cas = ranges(cased)
def emit(name, rs, doc):
    s = f"/// {doc}\npub(super) const {name}: &[(u32, u32)] = &[\n"
    line = "   "
    for a,b in rs:
        item = f" (0x{a:X}, 0x{b:X}),"
        if len(line)+len(item) > 99:
            s += line + "\n"; line = "   "
        line += item
    s += line + "\n];\n"
    return s
print("//! Character tables generated from Python %s `unicodedata` (Unicode %s), the runtime\n//! `score.py` runs on, by `python3 src/eval/gen_tables.py > src/eval/tables.rs`. Never edit by\n//! hand; `tests/eval_scorer.rs` checks them against python3 code point by code point.\n" % (sys.version.split()[0], unicodedata.unidata_version))
print("/// Unicode version of the tables.\npub(super) const UNICODE_VERSION: &str = \"%s\";\n" % unicodedata.unidata_version)
print(emit("WORD", w, "Code points matching Python `re` `[^\\W_]` (str.isalnum()), inclusive ranges, sorted."))
print(emit("CASE_IGNORABLE", ign, "Code points Python's `str.lower()` skips when deciding final sigma (Case_Ignorable)."))
print(emit("CASED", cas, "Code points that are cased and not case-ignorable for Python's final-sigma rule."))
print(emit("UNASSIGNED", u, "Code points of general category Cn in Python's Unicode version (surrogates excluded)."))
