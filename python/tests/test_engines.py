"""outward on real distributed engines, local mode: Spark (pyspark: `rdd.pipe` over paths to
the CLI, and `mapPartitions` with the Python API) and Ray (`ray.data` and tasks). Each must
give the documents (ids and text) of `outward run` on the same inputs. The engines come from
python/tests/requirements-engines.txt (`make python-test` installs them when it can); a test
skips with its reason where an engine or Java is missing."""

import shutil
import sys

import pytest

import outward
from conftest import TESTDATA, run_cli, shard_lines, shared_data


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Two WARCs of distinct names: the sample and a dev set when ../shared is present (else a
    copy of the sample under another name)."""
    folder = tmp_path_factory.mktemp("inputs")
    first = folder / "sample.warc.gz"
    shutil.copy(TESTDATA / "sample.warc.gz", first)
    dev = shared_data("data/dev/readability.warc.gz", skip=False)
    second = folder / ("readability.warc.gz" if dev else "copy.warc.gz")
    shutil.copy(dev or first, second)
    return [first, second]


@pytest.fixture(scope="module")
def expected(inputs, outward_bin, tmp_path_factory):
    """`outward run` on the inputs: {stem: (shard bytes, [(id, text)])}."""
    out = tmp_path_factory.mktemp("run")
    cli = run_cli(outward_bin, "run", "-o", str(out), *map(str, inputs))
    assert cli.returncode == 0, cli.stderr
    result = {}
    for path in inputs:
        stem = path.name.split(".")[0]
        shard = out / f"{stem}.jsonl.zst"
        result[stem] = (shard.read_bytes(), [(d["id"], d["text"]) for d in shard_lines(shard)])
    return result


def all_docs(expected):
    return sorted(doc for _, docs in expected.values() for doc in docs)


# --- Spark -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark", reason="pyspark is not installed (python/tests/requirements-engines.txt)")
    if shutil.which("java") is None:
        pytest.skip("Java is missing: Spark needs a JVM (e.g. apt install openjdk-17-jre-headless)")
    from pyspark.sql import SparkSession

    # The workers run this venv's Python (it has outward), not the first python3 on PATH.
    monkeypatch_env = pytest.MonkeyPatch()
    monkeypatch_env.setenv("PYSPARK_PYTHON", sys.executable)
    monkeypatch_env.setenv("PYSPARK_DRIVER_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("outward-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.pyspark.python", sys.executable)
        .config("spark.pyspark.driver.python", sys.executable)
        .getOrCreate()
    )
    yield session.sparkContext
    session.stop()
    monkeypatch_env.undo()


def test_spark_pipe_over_paths_writes_outward_runs_shards(spark, inputs, expected, outward_bin, tmp_path):
    out = tmp_path / "corpus"
    paths = spark.parallelize([str(p) for p in inputs], len(inputs))
    # Each partition runs one outward process reading its paths on stdin; they share the
    # output directory (the manifest is locked per change).
    lines = paths.pipe(f"{outward_bin} run --threads 1 --output {out} -").collect()
    assert any("outward run:" in line for line in lines), lines
    for stem, (shard, _) in expected.items():
        assert (out / f"{stem}.jsonl.zst").read_bytes() == shard, stem
    assert len((out / "manifest.jsonl").read_text().splitlines()) == len(inputs)


def test_spark_map_partitions_with_the_python_api(spark, inputs, expected):
    paths = spark.parallelize([str(p) for p in inputs], len(inputs))
    # What a worker runs refers to nothing of this test module (workers cannot import it):
    # one input's documents, one thread each (Spark gives the parallelism).
    docs = paths.mapPartitions(
        lambda part: ((d["id"], d["text"]) for path in part for d in outward.iter_warc(path, threads=1))
    ).collect()
    assert sorted(docs) == all_docs(expected)


# --- Ray -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_local(tmp_path_factory):
    ray = pytest.importorskip("ray", reason="ray is not installed (python/tests/requirements-engines.txt)")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _temp_dir=str(tmp_path_factory.mktemp("ray")),
    )
    yield ray
    ray.shutdown()


def test_ray_data_flat_map_gives_outward_runs_documents(ray_local, inputs, expected):
    import ray.data

    dataset = ray.data.from_items([{"path": str(p)} for p in inputs])
    rows = dataset.flat_map(
        lambda row: [{"id": d["id"], "text": d["text"]} for d in outward.iter_warc(row["path"], threads=1)]
    ).take_all()
    assert sorted((r["id"], r["text"]) for r in rows) == all_docs(expected)


def test_ray_tasks_with_process_warc_write_outward_runs_shards(ray_local, inputs, expected, tmp_path):
    @ray_local.remote
    def process(path, output_dir):
        import outward

        return outward.process_warc(path, output_dir, threads=1)

    out = tmp_path / "corpus"
    summaries = ray_local.get([process.remote(str(p), str(out)) for p in inputs])
    assert [s["status"] for s in summaries] == ["complete"] * len(inputs)
    for stem, (shard, _) in expected.items():
        assert (out / f"{stem}.jsonl.zst").read_bytes() == shard, stem
