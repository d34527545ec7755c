import re, sys, unicodedata
sys.path.insert(0, "/work/shared/eval")
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
print(emit("UNASSIGNED", u, "Code points of general category Cn in Python's Unicode version (surrogates excluded)."))
