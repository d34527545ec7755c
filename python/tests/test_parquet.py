"""`outward run --output-format parquet` read by the four readers corpus builders use — pyarrow,
DuckDB (`read_parquet`), Hugging Face `datasets` (`load_dataset("parquet", ...)`) and
DataTrove's `ParquetReader` — on every document of every dev set, against the Dolma shard of
the same input: the same documents, in the same order, with the same id and text (pyarrow and
DataTrove: every metadata field too). With `--signals`, so the nested struct is read as well.
The files may be at most 10% larger than the Dolma shards in all (the per-file numbers are
printed; small inputs pay Parquet's per-column costs)."""

import json

import pytest

from conftest import run_cli, shard_lines, shared_data

pq = pytest.importorskip("pyarrow.parquet")


def without_nulls(value):
    """A Parquet row has a null where the Dolma line leaves a field out."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    return value


@pytest.fixture(scope="module")
def dev_runs(outward_bin, tmp_path_factory):
    """The dev sets in both formats, with signals: (parquet dir, {stem: dolma documents})."""
    warcs = sorted(shared_data("data/dev").glob("*.warc.gz"))
    assert warcs
    out = tmp_path_factory.mktemp("formats")
    for fmt in ("dolma", "parquet"):
        cli = run_cli(
            outward_bin, "run", "--signals", "--output-format", fmt, "-o", str(out / fmt), *map(str, warcs)
        )
        assert cli.returncode == 0, cli.stderr
    stems = [w.name.split(".")[0] for w in warcs]
    expected = {s: shard_lines(out / "dolma" / f"{s}.jsonl.zst") for s in stems}
    assert sum(map(len, expected.values())) > 4000
    return out, expected


def test_pyarrow_reads_every_field_of_every_document(dev_runs):
    out, expected = dev_runs
    for stem, docs in expected.items():
        rows = pq.read_table(out / "parquet" / f"{stem}.parquet").to_pylist()
        assert len(rows) == len(docs), stem
        for row, doc in zip(rows, docs):
            assert without_nulls(row) == without_nulls(doc), (stem, doc["id"])


def test_duckdb_reads_ids_texts_and_nested_fields(dev_runs):
    duckdb = pytest.importorskip("duckdb")
    out, expected = dev_runs
    con = duckdb.connect()
    for stem, docs in expected.items():
        path = str(out / "parquet" / f"{stem}.parquet")
        # DuckDB keeps a file's row order (preserve_insertion_order, on by default).
        rows = con.execute(
            "SELECT id, text, metadata.language, metadata.signals.gopher_quality.words "
            "FROM read_parquet(?)",
            [path],
        ).fetchall()
        want = [
            (d["id"], d["text"], d["metadata"].get("language"), d["metadata"]["signals"]["gopher_quality"]["words"])
            for d in docs
        ]
        assert rows == want, stem
    # A corpus builder's query over all files at once: documents per language.
    by_language = dict(
        con.execute(
            "SELECT metadata.language, count(*) FROM read_parquet(?) GROUP BY ALL",
            [str(out / "parquet" / "*.parquet")],
        ).fetchall()
    )
    want = {}
    for docs in expected.values():
        for d in docs:
            lang = d["metadata"].get("language")
            want[lang] = want.get(lang, 0) + 1
    assert by_language == want


def test_hugging_face_datasets_loads_every_document(dev_runs, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    out, expected = dev_runs
    files = {stem: str(out / "parquet" / f"{stem}.parquet") for stem in expected}
    loaded = datasets.load_dataset("parquet", data_files=files, cache_dir=str(tmp_path / "hf"))
    for stem, docs in expected.items():
        split = loaded[stem]
        assert split["id"] == [d["id"] for d in docs], stem
        assert split["text"] == [d["text"] for d in docs], stem


def test_datatrove_parquet_reader_makes_the_documents_its_jsonl_reader_makes(dev_runs, tmp_path):
    pytest.importorskip("datatrove")
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import JsonlReader, ParquetReader
    from datatrove.pipeline.writers import JsonlWriter

    out, expected = dev_runs

    def read(reader, name):
        target = tmp_path / name
        pipeline = [reader, JsonlWriter(str(target / "docs"), compression=None)]
        LocalPipelineExecutor(pipeline=pipeline, tasks=1, logging_dir=str(target / "logs")).run()
        docs = []
        for path in sorted((target / "docs").glob("*.jsonl")):
            docs.extend(json.loads(line) for line in path.read_text("utf-8").splitlines())
        return docs

    from_parquet = read(ParquetReader(str(out / "parquet"), glob_pattern="*.parquet"), "parquet")
    from_jsonl = read(JsonlReader(str(out / "dolma"), glob_pattern="*.jsonl.zst"), "jsonl")
    assert len(from_parquet) == sum(map(len, expected.values()))
    assert [d["id"] for d in from_parquet] == [d["id"] for d in from_jsonl]
    for a, b in zip(from_parquet, from_jsonl):
        assert a["text"] == b["text"], a["id"]
        # Beside the file each came from (the reader's own `file_path`), the same metadata.
        assert a["metadata"].pop("file_path").endswith(".parquet")
        assert b["metadata"].pop("file_path").endswith(".jsonl.zst")
        assert without_nulls(a["metadata"]) == without_nulls(b["metadata"]), a["id"]


def test_the_files_are_at_most_a_tenth_larger_than_the_dolma_shards(dev_runs):
    out, expected = dev_runs
    total = {"dolma": 0, "parquet": 0}
    for stem in expected:
        dolma = (out / "dolma" / f"{stem}.jsonl.zst").stat().st_size
        parquet = (out / "parquet" / f"{stem}.parquet").stat().st_size
        total["dolma"] += dolma
        total["parquet"] += parquet
        print(f"{stem}: parquet {parquet} bytes, dolma {dolma}: {parquet / dolma:.3f}")
    assert total["parquet"] <= 1.10 * total["dolma"], total
