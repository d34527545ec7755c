"""`outward run --signals` decides as DataTrove's own quality filters do (issue #40, item 3):
every document of every dev set (the default method's output) goes through DataTrove 0.10's
GopherQualityFilter, GopherRepetitionFilter, C4QualityFilter and FineWebQualityFilter (English
words by spaCy, as DataTrove loads them), and each decision, keep or the rule that drops,
must equal the rule outward's `metadata.signals.would_drop` names, on at least 99.5% of the
documents per filter. Differences are printed by document. Needs spaCy beside DataTrove
(`make python-test` installs it); skips without the dev data unless OUTWARD_REQUIRE_DEV=1."""

import copy
import multiprocessing
import os

import pytest

from conftest import run_cli, shard_lines, shared_data

FILTERS = ["gopher-quality", "gopher-repetition", "c4-quality", "fineweb-quality"]


def _datatrove_filters():
    from datatrove.pipeline.filters import (
        C4QualityFilter,
        FineWebQualityFilter,
        GopherQualityFilter,
        GopherRepetitionFilter,
    )

    return [GopherQualityFilter(), GopherRepetitionFilter(), C4QualityFilter(), FineWebQualityFilter()]


def _decide(texts):
    """DataTrove's decision of each filter on each text: None (kept) or its reason. One
    document through all four in turn, so DataTrove's own cache of the last texts' words
    serves the next filter."""
    from datatrove.data import Document

    filters = _datatrove_filters()
    out = []
    for i, text in enumerate(texts):
        row = []
        for f in filters:
            verdict = f.filter(copy.copy(Document(text=text, id=str(i))))
            row.append(None if verdict is True else (verdict[1] if isinstance(verdict, tuple) else "dropped"))
        out.append(row)
    return out


def test_every_dev_document_is_decided_as_datatrove_decides(outward_bin, tmp_path):
    pytest.importorskip("datatrove")
    pytest.importorskip("spacy")
    dev = shared_data("data/dev")
    inputs = sorted(str(p) for p in dev.glob("*.warc.gz"))
    out = tmp_path / "out"
    result = run_cli(outward_bin, "run", "--signals", "--output", str(out), *inputs)
    assert result.returncode == 0, result.stderr
    docs = [d for shard in sorted(out.glob("*.jsonl.zst")) for d in shard_lines(shard)]
    assert len(docs) > 4000, len(docs)
    texts = [d["text"] for d in docs]
    workers = max(1, min(2, os.cpu_count() or 1))
    chunks = [texts[i::workers] for i in range(workers)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        parts = pool.map(_decide, chunks)
    theirs = [None] * len(texts)
    for w, part in enumerate(parts):
        for j, row in enumerate(part):
            theirs[w + j * workers] = row
    failures = []
    for k, name in enumerate(FILTERS):
        differ = [
            (d["id"], d["metadata"]["url"], d["metadata"]["signals"]["would_drop"].get(name), row[k])
            for d, row in zip(docs, theirs)
            if d["metadata"]["signals"]["would_drop"].get(name) != row[k]
        ]
        agreement = 1 - len(differ) / len(docs)
        print(f"{name}: {len(docs) - len(differ)}/{len(docs)} decided alike ({agreement:.2%})")
        for id_, url, ours, dt in differ:
            print(f"  {id_} {url}: outward {ours}, DataTrove {dt}")
        if agreement < 0.995:
            failures.append(f"{name}: {agreement:.2%}")
    assert not failures, failures
