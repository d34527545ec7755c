"""Compares outward-filters' words with spaCy's on the texts of Dolma shards.

    python gen/compare_words.py WORDS_BINARY SHARD.jsonl.zst...

Prints the share of documents whose words are identical and the first differences."""

import json
import subprocess
import sys

import zstandard
from datatrove.utils.text import split_into_words

binary, shards = sys.argv[1], sys.argv[2:]
texts = []
for shard in shards:
    with open(shard, "rb") as f:
        data = zstandard.ZstdDecompressor().stream_reader(f).read()
    texts += [json.loads(line)["text"] for line in data.splitlines() if line.strip()]
ours = subprocess.run([binary], input="\n".join(json.dumps(t) for t in texts) + "\n", capture_output=True, text=True, check=True).stdout.splitlines()
same = 0
shown = 0
for text, mine in zip(texts, ours):
    mine = json.loads(mine)
    theirs = split_into_words(text)
    if mine == theirs:
        same += 1
        continue
    if shown < 15:
        shown += 1
        i = next((k for k, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
        print(f"differ at word {i}: ours {mine[max(0, i - 3):i + 4]} spaCy {theirs[max(0, i - 3):i + 4]}")
print(f"{same}/{len(texts)} documents with spaCy's words")
