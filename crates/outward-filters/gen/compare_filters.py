"""Runs DataTrove's four quality filters over the documents of Dolma shards and compares each
decision (keep, or the rule that drops) with outward's `metadata.signals.would_drop`.

    python compare_filters.py [--signals-binary BIN] [--min-agreement 0.995] SHARD.jsonl.zst...

With --signals-binary, the signals are computed by that program from each document's text (the
`signals` example) instead of read from the shard. Prints per filter the agreement and every
difference; exits 1 when a filter agrees on fewer than --min-agreement of the documents."""

import argparse
import copy
import json
import subprocess
import sys

import zstandard
from datatrove.data import Document
from datatrove.pipeline.filters import (
    C4QualityFilter,
    FineWebQualityFilter,
    GopherQualityFilter,
    GopherRepetitionFilter,
)

parser = argparse.ArgumentParser()
parser.add_argument("--signals-binary")
parser.add_argument("--min-agreement", type=float, default=0.995)
parser.add_argument("shards", nargs="+")
args = parser.parse_args()

docs = []
for shard in args.shards:
    with open(shard, "rb") as f:
        data = zstandard.ZstdDecompressor().stream_reader(f).read()
    docs += [json.loads(line) for line in data.splitlines() if line.strip()]
if args.signals_binary:
    out = subprocess.run(
        [args.signals_binary],
        input="\n".join(json.dumps(d["text"]) for d in docs) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for d, line in zip(docs, out):
        d["metadata"]["signals"] = json.loads(line)

filters = {
    "gopher-quality": GopherQualityFilter(),
    "gopher-repetition": GopherRepetitionFilter(),
    "c4-quality": C4QualityFilter(),
    "fineweb-quality": FineWebQualityFilter(),
}
failed = False
for name, f in filters.items():
    same, differences = 0, []
    for d in docs:
        doc = Document(text=d["text"], id=d["id"], metadata={})
        verdict = f.filter(copy.copy(doc))
        theirs = None if verdict is True else (verdict[1] if isinstance(verdict, tuple) else "dropped")
        ours = d["metadata"]["signals"]["would_drop"].get(name)
        if ours == theirs:
            same += 1
        else:
            differences.append((d["id"], d["metadata"].get("url"), ours, theirs))
    share = same / len(docs)
    print(f"{name}: {same}/{len(docs)} documents decided alike ({share:.2%})")
    for id_, url, ours, theirs in differences:
        print(f"  {id_} {url}: outward {ours}, DataTrove {theirs}")
    failed |= share < args.min_agreement
sys.exit(1 if failed else 0)
