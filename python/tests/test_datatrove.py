"""outward.datatrove.OutwardExtractor in a real DataTrove pipeline (LocalPipelineExecutor:
WarcReader → OutwardExtractor → JsonlWriter), against `outward run` on the same WARC.

DataTrove's WarcReader decodes each record itself (UTF-8, else cchardet) and hands the
extractor a str, so a page in another charset may read differently than outward decodes it
from the bytes (with the HTTP header and `<meta>`); on pages that are UTF-8 to both, the text
must be outward's, byte for byte."""

import json

import pytest

from conftest import TESTDATA, run_cli, shard_lines, shared_data

datatrove = pytest.importorskip("datatrove", reason="datatrove is not installed (pip install './python[datatrove]')")
pytest.importorskip("magic", reason="python-magic or the system's libmagic is missing (WarcReader needs it)")

from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import WarcReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

from outward.datatrove import OutwardExtractor, OutwardWarcReader  # noqa: E402

UTF8_BOTH = {"utf8_valid", "default", "http_header", "meta"}


def run_datatrove(warc, out, **extractor_options):
    pipeline = [
        WarcReader(str(warc.parent), glob_pattern=warc.name),
        OutwardExtractor(**extractor_options),
        JsonlWriter(str(out / "docs"), compression=None),
    ]
    return run_pipeline(pipeline, out)


def run_pipeline(pipeline, out):
    LocalPipelineExecutor(pipeline=pipeline, tasks=1, logging_dir=str(out / "logs")).run()
    docs = {}
    for path in sorted((out / "docs").glob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            doc = json.loads(line)
            docs[doc["id"]] = doc
    return docs


def compare_with_outward_run(outward_bin, warc, tmp_path, **extractor_options):
    cli = run_cli(outward_bin, "run", "-o", str(tmp_path / "run"), str(warc))
    assert cli.returncode == 0, cli.stderr
    stem = warc.name.split(".")[0]
    expected = {d["id"]: d for d in shard_lines(tmp_path / "run" / f"{stem}.jsonl.zst")}
    docs = run_datatrove(warc, tmp_path / "dt", **extractor_options)
    assert docs, "the pipeline wrote no document"
    # WarcReader keeps error pages (HTTP 404, 500) that outward run skips as `status`.
    manifest = json.loads((tmp_path / "run" / "manifest.jsonl").read_text().splitlines()[-1])
    status_skips = manifest["counts"]["skipped"].get("status", 0)
    assert len(set(docs) - set(expected)) <= status_skips
    docs = {i: d for i, d in docs.items() if i in expected}
    comparable = [
        i
        for i in docs
        if expected[i]["metadata"]["charset"] == "UTF-8"
        and expected[i]["metadata"]["charset_source"] in UTF8_BOTH
    ]
    assert comparable
    for i in comparable:
        assert docs[i]["text"] == expected[i]["text"], i
        meta, want = docs[i]["metadata"], expected[i]["metadata"]
        for key in ("title", "language", "nodes_parsed", "nodes_total", "extractor"):
            assert meta.get(key) == want.get(key), (i, key)
    return docs, expected, comparable


def test_the_pipeline_gives_outward_runs_documents_on_the_sample(outward_bin, tmp_path):
    docs, expected, comparable = compare_with_outward_run(outward_bin, TESTDATA / "sample.warc.gz", tmp_path)
    assert len(comparable) >= 5


def test_the_sandboxed_step_extracts_the_same(outward_bin, tmp_path):
    docs, _, comparable = compare_with_outward_run(
        outward_bin, TESTDATA / "sample.warc.gz", tmp_path, sandbox=True, timeout=30
    )
    assert len(comparable) >= 5


def test_bad_options_fail_when_the_pipeline_is_written():
    with pytest.raises(ValueError, match="unknown method"):
        OutwardExtractor(method="nope")


DEV = "data/dev/cleaneval.warc.gz"


def test_the_pipeline_on_a_dev_set(outward_bin, tmp_path):
    docs, expected, comparable = compare_with_outward_run(outward_bin, shared_data(DEV), tmp_path)
    # WarcReader keeps 642 of the 739 pages here (it drops what it cannot decode); the
    # others differ only where cchardet reads a legacy charset differently.
    assert len(docs) > 600
    same = sum(docs[i]["text"] == expected[i]["text"] for i in docs)
    assert same / len(docs) > 0.85, (same, len(docs))


@pytest.mark.parametrize("warc", [TESTDATA / "sample.warc.gz", DEV], ids=["sample", "dev"])
def test_the_outward_reader_gives_exactly_outward_runs_documents(warc, outward_bin, tmp_path):
    if warc == DEV:
        warc = shared_data(DEV)
    cli = run_cli(outward_bin, "run", "-o", str(tmp_path / "run"), str(warc))
    assert cli.returncode == 0, cli.stderr
    stem = warc.name.split(".")[0]
    expected = shard_lines(tmp_path / "run" / f"{stem}.jsonl.zst")
    reader = OutwardWarcReader(str(warc.parent), glob_pattern=warc.name, threads=2)
    docs = run_pipeline([reader, JsonlWriter(str(tmp_path / "dt" / "docs"), compression=None)], tmp_path / "dt")
    assert [(i, d["text"]) for i, d in docs.items()] == [(d["id"], d["text"]) for d in expected]
    first = expected[0]
    meta = docs[first["id"]]["metadata"]
    assert meta["url"] == first["metadata"]["url"]
    assert meta["language"] == first["metadata"]["language"]
    assert meta["date"] == first["created"]


def test_the_outward_reader_filters_as_datatrove_filters(tmp_path):
    """`filter=` drops in the reader what DataTrove's quality filters would drop after it,
    and `signals=True` puts the numbers they decide on into each document's metadata."""
    pytest.importorskip("spacy", reason="DataTrove's filters split English words with spaCy")
    from datatrove.data import Document
    from datatrove.pipeline.filters import GopherQualityFilter

    plain = OutwardWarcReader(str(TESTDATA), glob_pattern="sample.warc.gz")
    every = run_pipeline([plain, JsonlWriter(str(tmp_path / "all" / "docs"), compression=None)], tmp_path / "all")
    kept_by_datatrove = [i for i, d in every.items() if GopherQualityFilter().filter(Document(text=d["text"], id=i)) is True]
    reader = OutwardWarcReader(str(TESTDATA), glob_pattern="sample.warc.gz", filter="gopher-quality", signals=True)
    docs = run_pipeline([reader, JsonlWriter(str(tmp_path / "dt" / "docs"), compression=None)], tmp_path / "dt")
    assert list(docs) == kept_by_datatrove
    assert all("gopher-quality" not in d["metadata"]["signals"]["would_drop"] for d in docs.values())


def test_the_outward_reader_streams_an_http_data_folder(http_dir, tmp_path):
    """An HTTP(S) or S3 data folder is read by outward by byte range, not copied through
    fsspec first (stream=False copies): the same documents either way."""
    pytest.importorskip("aiohttp", reason="fsspec's HTTP file system needs aiohttp")
    import shutil

    root, base, requests = http_dir
    shutil.copy(TESTDATA / "sample.warc.gz", root / "sample.warc.gz")
    paths = tmp_path / "paths.txt"
    paths.write_text("sample.warc.gz\n")
    local = OutwardWarcReader(str(TESTDATA), glob_pattern="sample.warc.gz")
    want = run_pipeline([local, JsonlWriter(str(tmp_path / "local" / "docs"), compression=None)], tmp_path / "local")
    for stream in (True, False):
        requests.clear()
        reader = OutwardWarcReader(base, paths_file=str(paths), stream=stream)
        out = tmp_path / f"stream-{stream}"
        docs = run_pipeline([reader, JsonlWriter(str(out / "docs"), compression=None)], out)
        assert [(i, d["text"]) for i, d in docs.items()] == [(i, d["text"]) for i, d in want.items()]
        by_outward = [p for p, agent in requests if agent.startswith("outward/")]
        assert bool(by_outward) == stream, requests


def test_the_outward_reader_checks_its_options():
    with pytest.raises(ValueError, match="unknown method"):
        OutwardWarcReader("/tmp", method="nope")


def test_datatrove_reads_our_wet_output(outward_bin, tmp_path):
    """`--output-format wet` (with Common Crawl's language and payload-digest headers) reads
    with DataTrove's own WarcReader: each conversion record is a document with its text."""
    run = tmp_path / "run"
    for fmt in ("dolma", "wet"):
        cli = run_cli(outward_bin, "run", "--output-format", fmt, "-o", str(run / fmt), str(TESTDATA / "sample.warc.gz"))
        assert cli.returncode == 0, cli.stderr
    expected = shard_lines(run / "dolma" / "sample.jsonl.zst")
    wet = run / "wet" / "sample.warc.wet.gz"
    docs = run_pipeline(
        [WarcReader(str(wet.parent), glob_pattern=wet.name), JsonlWriter(str(tmp_path / "dt" / "docs"), compression=None)],
        tmp_path / "dt",
    )
    assert sorted(d["text"] for d in docs.values()) == sorted(d["text"] for d in expected)
    urls = {d["metadata"]["url"] for d in docs.values()}
    assert urls == {d["metadata"]["url"] for d in expected}
