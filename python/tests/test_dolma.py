"""Dolma's toolkit reads outward's shards as they are: `dolma tag` (1.2.1, installed as
python/tests/requirements-dolma.txt says, in a venv of its own: OUTWARD_DOLMA names its
`dolma` command) tags every document of every dev set, in shard order, and the character
length it measures is the document's text's."""

import os
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli, shard_lines, shared_data


@pytest.fixture(scope="module")
def dolma():
    path = os.environ.get("OUTWARD_DOLMA")
    if not path:
        if os.environ.get("OUTWARD_REQUIRE_DEV") == "1":
            pytest.fail("OUTWARD_DOLMA is not set: make python-test installs Dolma and sets it")
        pytest.skip("OUTWARD_DOLMA is not set")
    return Path(path)


def test_dolma_tag_tags_every_document(dolma, outward_bin, tmp_path):
    warcs = sorted(shared_data("data/dev").glob("*.warc.gz"))
    # Dolma's layout: <prefix>/documents/*.jsonl.zst; attributes go to <prefix>/attributes/<experiment>/.
    documents = tmp_path / "corpus" / "documents"
    cli = run_cli(outward_bin, "run", "-o", str(documents), *map(str, warcs))
    assert cli.returncode == 0, cli.stderr
    tag = subprocess.run(
        [
            str(dolma), "tag",
            "--documents", str(documents / "*.jsonl.zst"),
            "--experiment", "outward",
            "--taggers", "char_length_v1", "whitespace_tokenizer_v1",
            "--processes", "2",
        ],
        capture_output=True, text=True, timeout=900, check=False,
    )
    assert tag.returncode == 0, tag.stderr[-4000:]
    tagged = 0
    for warc in warcs:
        stem = warc.name.split(".")[0]
        docs = shard_lines(documents / f"{stem}.jsonl.zst")
        attributes = shard_lines(tmp_path / "corpus" / "attributes" / "outward" / f"{stem}.jsonl.zst")
        assert [a["id"] for a in attributes] == [d["id"] for d in docs], stem
        for a, d in zip(attributes, docs):
            [[start, end, length]] = a["attributes"]["outward__char_length_v1__length"]
            assert (start, end, length) == (0, len(d["text"]), len(d["text"])), d["id"]
            assert a["attributes"]["outward__whitespace_tokenizer_v1__length"][0][2] > 0, d["id"]
        tagged += len(docs)
    assert tagged > 4000
