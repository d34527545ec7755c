#!/usr/bin/env python3
"""Instruction counts of extraction alone, per function (`make profile`).

Runs `outward bench` for one method and one round under valgrind's callgrind, collecting only
inside `time_extraction` (loading and decoding the WARC are left out), then prints the total,
instructions per byte of HTML, and the functions with the most instructions of their own.
Counts are repeatable on a shared machine where seconds are not: compare them before and after
a change. Line tables split an inlined function over the files its code came from; this sums
those parts back into the function that ran them.

Usage: benches/profile.py [--binary target/release/outward] [--method reverse]
                          [--top 30] [--keep FILE] WARC...
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

LINE = re.compile(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(.*)$")


def own_counts(callgrind_out):
    """{function: instructions of its own}, and the program total."""
    text = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--auto=no", "--threshold=100", callgrind_out],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    counts = collections.Counter()
    total = None
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        where = m.group(2)
        if "PROGRAM TOTALS" in where:
            total = n
            continue
        where = re.sub(r" \[[^\]]*\]$", "", where)
        function = where.split(":", 1)[1] if ":" in where else where
        counts[function] += n
    return counts, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warcs", nargs="+")
    ap.add_argument("--binary", default="target/release/outward")
    ap.add_argument("--method", default="reverse")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--keep", help="keep the callgrind output here")
    args = ap.parse_args()
    for tool in ("valgrind", "callgrind_annotate"):
        if subprocess.run(["which", tool], capture_output=True).returncode != 0:
            sys.exit(f"profile: {tool} is not installed (apt install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--toggle-collect=*time_extraction*",
                f"--callgrind-out-file={out}",
                args.binary,
                "bench",
                "--method",
                args.method,
                "--rounds",
                "1",
                *args.warcs,
            ],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            sys.exit(f"profile: valgrind failed:\n{run.stderr[-2000:]}")
        counts, total = own_counts(out)
    # `outward bench` prints "<pages> pages, <MB> MB of HTML; ..." first.
    m = re.search(r"(\d+) pages, ([\d.]+) MB of HTML", run.stdout)
    pages, mb = (int(m.group(1)), float(m.group(2))) if m else (0, 0.0)
    print(f"{args.method} on {' '.join(args.warcs)}: {pages} pages, {mb:.1f} MB of HTML")
    print(f"instructions: {total:,}" + (f" ({total / (mb * 1e6):.1f} per byte)" if mb else ""))
    for function, n in counts.most_common(args.top):
        print(f"{n / 1e6:10.1f}M {100 * n / total:5.1f}%  {function[:150]}")


if __name__ == "__main__":
    main()
