"""End to end, outward's CLI beside Resiliparse, interleaved: CPU-seconds per run.

    python python/bench/e2e.py ../shared/data/dev/dragnet.warc.gz [--runs 5] [--outward PATH]
        [--threads 1]

Each round runs, one after the other, ``outward run --threads N`` (reader, HTTP and charset
decoding, extraction, language, zstd JSONL shards) and a Resiliparse 2 pipeline in a child
Python process (FastWARC reading the same file, ``detect_encoding`` + ``bytes_to_str``,
``extract_plain_text(main_content=True)``, one JSON line per page written to a file). CPU
seconds are the children's user + system time (``resource.getrusage``), so other load on a
shared machine matters less than wall time; the medians of ``--runs`` rounds and their ratio
are printed. Resiliparse must be importable by this Python (``pip install resiliparse``).
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

RESILIPARSE = r"""
import json, sys
from fastwarc.warc import ArchiveIterator, WarcRecordType
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding

pages = 0
with open(sys.argv[1], "rb") as f, open(sys.argv[2], "w") as out:
    for record in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
        body = record.reader.read()
        text = extract_plain_text(bytes_to_str(body, detect_encoding(body)), main_content=True)
        out.write(json.dumps({"id": record.record_id, "text": text}) + "\n")
        pages += 1
print(pages, file=sys.stderr)
"""


def child_cpu(cmd):
    """Run `cmd` to completion; its CPU seconds (user + system) and wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warc")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--outward", default=shutil.which("outward") or "target/release/outward")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="outward-e2e-")
    script = os.path.join(tmp, "resiliparse_run.py")
    with open(script, "w") as f:
        f.write(RESILIPARSE)
    runs = {"outward": [], "resiliparse": []}
    for k in range(args.runs):
        out_dir = os.path.join(tmp, "out")
        shutil.rmtree(out_dir, ignore_errors=True)
        cmd = [args.outward, "run", "--threads", str(args.threads), "--output", out_dir, args.warc]
        runs["outward"].append(child_cpu(cmd))
        cmd = [sys.executable, script, args.warc, os.path.join(tmp, "resiliparse.jsonl")]
        runs["resiliparse"].append(child_cpu(cmd))
        print(
            f"round {k + 1}: outward {runs['outward'][-1][0]:.3f} CPU-s "
            f"({runs['outward'][-1][1]:.3f} s wall), resiliparse {runs['resiliparse'][-1][0]:.3f} "
            f"CPU-s ({runs['resiliparse'][-1][1]:.3f} s wall)",
            flush=True,
        )
    med = {name: statistics.median(c for c, _ in r) for name, r in runs.items()}
    print(
        f"median CPU-s: outward {med['outward']:.3f}, resiliparse {med['resiliparse']:.3f}; "
        f"ratio {med['resiliparse'] / med['outward']:.2f}x"
    )
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
