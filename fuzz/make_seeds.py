#!/usr/bin/env python3
"""Seed corpora of the fuzz targets, made at `make fuzz` time into fuzz/gen-seeds/<target>/
(git-ignored) from testdata/, ../shared/samples when present (read, never copied into the
repo) and fuzz/seeds/<target>/ (tiny hand-written seeds). Deterministic; files over
MAX_SEED bytes are cut (readers) or skipped."""

import gzip
import hashlib
import shutil
import struct
import subprocess
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
SHARED = ROOT.parent / "shared" / "samples"
OUT = FUZZ / "gen-seeds"
MAX_SEED = 64 << 10

TARGETS = [
    "warc_plain", "warc_gzip", "gzip_members", "warc_zstd", "arc_reader", "decode_body", "decode_charset",
    "clean", "tokenize", "partial_parse", "extract", "render", "site_store", "eval_tokenize",
    "unseen_markup", "skim",
]


def put(target, data, name=None):
    data = bytes(data)
    if len(data) > MAX_SEED:
        return
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    name = name or hashlib.sha1(data).hexdigest()[:16]
    (d / name).write_bytes(data)


def files(base, *patterns):
    if not base.exists():
        return []
    out = []
    for p in patterns:
        out.extend(sorted(base.rglob(p)))
    return out


def gunzip(data):
    try:
        return gzip.decompress(data)
    except Exception:
        return None


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    for t in TARGETS:
        (OUT / t).mkdir(parents=True)
        hand = FUZZ / "seeds" / t
        if hand.exists():
            for f in sorted(hand.iterdir()):
                put(t, f.read_bytes(), "hand-" + f.name)

    # Archives: raw for the reader targets, decompressed WARC text for the compressing modes.
    archives = files(ROOT / "testdata", "*.warc", "*.warc.gz") + files(
        SHARED, "*.warc", "*.warc.gz", "*.arc", "*.arc.gz"
    )
    zstd = shutil.which("zstd")
    for f in archives:
        raw = f.read_bytes()
        if len(raw) > 4 * MAX_SEED:
            continue
        plain = gunzip(raw) if raw[:2] == b"\x1f\x8b" else raw
        is_arc = f.name.endswith((".arc", ".arc.gz"))
        put("arc_reader" if is_arc else "warc_plain", raw[:MAX_SEED])
        if is_arc:
            if plain:
                put("arc_reader", plain[:MAX_SEED])
            continue
        put("warc_gzip", raw[:MAX_SEED])
        if raw[:2] == b"\x1f\x8b":
            put("gzip_members", raw[:MAX_SEED])
        if plain:
            put("gzip_members", plain[:MAX_SEED])
            put("warc_gzip", plain[:MAX_SEED])
            put("warc_zstd", plain[:MAX_SEED])
            if zstd:
                z = subprocess.run([zstd, "-q", "-c", "-1"], input=plain[:MAX_SEED],
                                   capture_output=True, check=True).stdout
                put("warc_zstd", z)
                put("warc_zstd", z[: len(z) // 2])  # a truncated frame

    # Pages: the HTML targets, the charset routine and the body decoder.
    pages = files(ROOT / "testdata", "*.html")
    for f in pages:
        html = f.read_bytes()
        for t in ("clean", "extract", "skim"):
            put(t, html)
        put("tokenize", b"\x00\x00" + html)
        put("partial_parse", b"\x07\x00" + html)
        put("decode_charset", html)
        for label in (b"utf-8", b"windows-1252", b"gbk", b"shift_jis", b"utf-16le"):
            put("decode_charset", label + b"\x00" + html[:4096])
        head = b"Content-Type: text/html; charset=utf-8\n"
        put("decode_body", b"\x00" + head + b"\n" + html)
        # Generate mode (0x80): gzip 1, deflate 2, br 4, zstd 8, chunked 0x10, raw deflate 0x20.
        for flags in (0x81, 0x82, 0xA2, 0x84, 0x88, 0x90, 0x95, 0x9F):
            put("decode_body", bytes([flags]) + head + b"\n" + html[:8192])
        # A stored body that is chunked and gzipped, as a crawler would keep it.
        gz = gzip.compress(html, mtime=0)
        body = b"%x\r\n" % len(gz) + gz + b"\r\n0\r\n\r\n"
        put("decode_body", b"\x00" + head + b"Transfer-Encoding: chunked\n"
            b"Content-Encoding: gzip\n\n" + body)
        text = html.decode("utf-8", "replace")
        put("eval_tokenize", (text[:2000] + "\uffff" + text[1000:3000]).encode("utf-8", "replace")
            .replace("\uffff".encode(), b"\xff"))

    # Unseen markup: choice bytes (one per choice); a few fixed patterns cover every context.
    for k in range(16):
        put("unseen_markup", bytes((k * 37 + i * 11) % 256 for i in range(512)))

    # Scorer: the golden texts.
    for f in files(ROOT / "testdata" / "golden", "*.jsonl"):
        lines = f.read_bytes().splitlines()
        for a, b in zip(lines[:8], lines[1:9]):
            put("eval_tokenize", a[:3000] + b"\xff" + b[:3000])

    # Render: blocks of each kind from page lines.
    put("render", b"\x00Title\xff\x01A paragraph of text.\xff\x02item one\xff\x02item two\xff"
        b"\x43cell\xff\x03cell 2\xff\x04code  line\xff\x05quoted\xff\x0cSub head")

    # Site store: host records, each alone and the two packed as a block (layout of
    # crates/outward-core/src/site/store.rs).
    def record(name, pages, prints, samples):
        n = name.encode()
        out = struct.pack("<I", len(n)) + n + struct.pack("<III", 0, len(pages), len(prints))
        out += b"".join(struct.pack("<Q", p) for p in pages)
        out += b"".join(struct.pack("<QI", h, c) for h, c in prints)
        out += struct.pack("<I", len(samples))
        for page, url, els, leaves, signature, rules in samples:
            u = url.encode()
            out += struct.pack("<QI", page, len(u)) + u + struct.pack("<I", len(els))
            out += b"".join(struct.pack("<Q", e) for e in els)
            out += struct.pack("<I", len(leaves))
            for tag, text in leaves:
                for part in (tag.encode(), text.encode()):
                    out += struct.pack("<I", len(part)) + part
            out += struct.pack("<I", len(signature))
            out += b"".join(struct.pack("<I", x) for x in signature)
            out += struct.pack("<I", len(rules))
            for rule, score in rules:
                r = rule.encode()
                out += struct.pack("<I", len(r)) + r + struct.pack("<I", score)
        return out

    hosts = [
        record("example.com", [1, 2, 3], [(10, 2), (11, 3)],
               [(1, "http://example.com/a", [10, 11], [("a", "Home"), ("p", "Posted by the desk")],
                 [3, 1, 4, 1, 5], [("div.story", 900000), ("#nav", 0)]),
                (2, "http://example.com/b", [11], [], [], [])]),
        record("other.org", [7], [(5, 1)], []),
    ]
    for r in hosts:
        put("site_store", r)
    put("site_store", b"".join(struct.pack("<Q", len(r)) + r for r in hosts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
