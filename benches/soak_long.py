#!/usr/bin/env python3
"""The long run of #42: one `outward run --threads 2` over >= 5 GB of WARC, made of the dev
sets repeated with rewritten record ids (`make soak-long`).

Reports peak RSS and throughput at every tenth of the input (read off /proc while the run
goes: VmHWM, VmRSS and the bytes the process has read), and checks that the result is the
sum of its parts: the documents of the big input are, copy by copy, the documents of one run
over the dev sets (same text, URL, title and language; ids rewritten as the input's).

Usage: benches/soak_long.py [--gb 10] [--work DIR] [--outward target/release/outward]
The default 10 GB is 14 copies of the dev sets, so the first tenth already holds every page
once (with 5 GB it holds 0.7 copies, and the largest pages, which come last, are not yet
read there).
Exits 1 when the result is not the sum of its parts or peak RSS over the last 90% of the
input is more than 10% above its value at 10%.
"""

import argparse
import io
import json
import os
import pathlib
import subprocess
import sys
import time
import uuid

import zstandard  # tests/requirements.txt: `make soak-long` runs this in target/pyenv

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEV = ROOT.parent / "shared" / "data" / "dev"
ID_FIELDS = (b"WARC-Record-ID", b"WARC-Concurrent-To", b"WARC-Refers-To", b"WARC-Warcinfo-ID")


def records(raw):
    """(header bytes, body start, body end) of each record of an uncompressed WARC stream."""
    pos = 0
    while True:
        start = raw.find(b"WARC/", pos)
        if start < 0:
            return
        end = raw.find(b"\r\n\r\n", start)
        header = raw[start:end + 4]
        length = 0
        for line in header.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        yield header, end + 4, end + 4 + length
        pos = end + 4 + length


def new_id(old, copy):
    return b"<urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"{old!r}/{copy}")).encode() + b">"


def rewrite(header, copy):
    lines = []
    for line in header.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name in ID_FIELDS:
            line = name + b": " + new_id(value.strip(), copy)
        lines.append(line)
    return b"\r\n".join(lines)


def make_input(path, gb):
    """Writes the dev sets, copy after copy, until `gb` GB; returns the sets and the copies."""
    sets = sorted(DEV.glob("*.warc.gz"))
    parsed = []
    for p in sets:
        # gzip -dc: Python's gzip.decompress is slow over one member per record (a minute).
        raw = subprocess.run(["gzip", "-dc", str(p)], check=True, capture_output=True).stdout
        view = memoryview(raw)
        parsed.extend((header, view[start:end]) for header, start, end in records(raw))
    per_copy = sum(len(h) + len(b) + 4 for h, b in parsed)
    copies = -(-int(gb * 1e9) // per_copy)
    with open(path, "wb", buffering=1 << 24) as out:
        for copy in range(copies):
            for header, body in parsed:
                out.write(rewrite(header, copy))
                out.write(body)
                out.write(b"\r\n\r\n")
    return sets, copies


def proc_field(pid, name, field):
    try:
        for line in open(f"/proc/{pid}/{name}"):
            if line.startswith(field):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def watched_run(outward, out, warc, size):
    """Runs outward over `warc`; returns (rows: one per tenth read, wall seconds, its summary,
    the last peak RSS read, KiB). (Not wait4's ru_maxrss: it counts the forked Python before
    the exec.)"""
    proc = subprocess.Popen(
        [outward, "run", "--threads", "2", "--force", "-o", out, warc],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start = time.time()
    rows, next_tenth, last, peak = [], 1, (start, 0), 0
    while True:
        done, status = os.waitpid(proc.pid, os.WNOHANG)
        if done:
            break
        read = proc_field(proc.pid, "io", "rchar:")
        hwm = proc_field(proc.pid, "status", "VmHWM:")
        peak = max(peak, hwm or 0)
        rss = proc_field(proc.pid, "status", "VmRSS:")
        now = time.time()
        while read is not None and hwm is not None and next_tenth <= 10 \
                and read >= next_tenth * size / 10:
            mb_s = (read - last[1]) / 1e6 / max(now - last[0], 1e-9)
            rows.append((next_tenth * 10, hwm, rss, mb_s, now - start))
            last = (now, read)
            next_tenth += 1
        time.sleep(0.05)
    wall = time.time() - start
    stdout, stderr = proc.stdout.read(), proc.stderr.read()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"outward run failed ({status}):\n{stdout}\n{stderr}")
    return rows, wall, stdout, peak


def documents(path):
    with open(path, "rb") as f:
        text = zstandard.ZstdDecompressor().stream_reader(f).read().decode()
    return [json.loads(line) for line in text.splitlines()]


def key(doc):
    m = doc["metadata"]
    return (doc["text"], m.get("url"), m.get("title"), m.get("language"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gb", type=float, default=10.0)
    ap.add_argument("--work", default="/tmp/outward-soak-long")
    ap.add_argument("--outward", default=str(ROOT / "target/release/outward"))
    args = ap.parse_args()
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    warc = work / "long.warc"
    t = time.time()
    sets, copies = make_input(warc, args.gb)
    size = warc.stat().st_size
    print(f"input: {warc}: {size / 1e9:.2f} GB, the {len(sets)} dev sets x {copies} "
          f"(made in {time.time() - t:.0f} s)")

    rows, wall, summary, maxrss = watched_run(args.outward, str(work / "out"), str(warc), size)
    print(f"run: {wall:.0f} s wall")
    print(summary.strip())
    print("read  VmHWM MB  VmRSS MB  MB/s (since the last tenth)")
    for pct, hwm, rss, mb_s, _ in rows:
        print(f"{pct:3d}%  {hwm / 1024:8.1f}  {rss / 1024:8.1f}  {mb_s:8.1f}")

    # The parts: one run over the dev sets as they are.
    parts = work / "parts"
    subprocess.run([args.outward, "run", "--threads", "2", "--force", "-o", str(parts),
                    *map(str, sets)], check=True, capture_output=True)
    part_docs = [key(d) for s in sets
                 for d in documents(parts / (s.name.removesuffix(".warc.gz") + ".jsonl.zst"))]
    big = [key(d) for d in documents(work / "out" / "long.jsonl.zst")]
    same = big == part_docs * copies
    print(f"documents: {len(big)} in the long run, {len(part_docs)} x {copies} = "
          f"{len(part_docs) * copies} in the parts: {'the same' if same else 'DIFFERENT'}")

    at_10 = rows[0][1] if rows else 0
    peak_after = max([r[1] for r in rows[1:]] + [maxrss])
    flat = peak_after <= at_10 * 1.10
    print(f"peak RSS: {at_10 / 1024:.1f} MB at 10%, {peak_after / 1024:.1f} MB over the rest: "
          f"{'within' if flat else 'NOT within'} 10%")
    rss = [r[2] for r in rows]
    if rss:
        print(f"RSS at each tenth: {min(rss) / 1024:.1f} to {max(rss) / 1024:.1f} MB "
              f"(at 10%: {rss[0] / 1024:.1f}, at the last tenth: {rss[-1] / 1024:.1f})")
    warc.unlink()
    sys.exit(0 if same and flat else 1)


if __name__ == "__main__":
    main()
