"""outward.process_warc and outward.iter_warc: `outward run` from Python, same documents."""

import gc
import shutil

import pytest

import outward
from conftest import TESTDATA, run_cli, shard_lines, shared_data, without_top_level

SAMPLE = TESTDATA / "sample.warc.gz"
TRUNCATED = TESTDATA / "broken" / "truncated.warc.gz"


def test_process_warc_writes_the_bytes_of_outward_run(outward_bin, tmp_path):
    cli_dir, py_dir = tmp_path / "cli", tmp_path / "py"
    cli = run_cli(outward_bin, "run", "--threads", "2", "-o", str(cli_dir), str(SAMPLE))
    assert cli.returncode == 0, cli.stderr
    summary = outward.process_warc(SAMPLE, py_dir, threads=1)
    assert summary["status"] == "complete"
    assert summary["output"] == str(py_dir / "sample.jsonl.zst")
    assert (py_dir / "sample.jsonl.zst").read_bytes() == (cli_dir / "sample.jsonl.zst").read_bytes()
    assert summary["counts"]["written"] == len(shard_lines(py_dir / "sample.jsonl.zst")) > 0
    assert summary["manifest"]["config_hash"] in (cli_dir / "manifest.jsonl").read_text()
    assert 0 < summary["nodes_fraction_median"] <= 1
    assert summary["bytes_fraction_median"] == summary["bytes_fraction_p90"] == 1.0
    # Resume: the manifest entry matches, so the input is not read again, unless forced.
    assert outward.process_warc(SAMPLE, py_dir)["status"] == "unchanged"
    assert outward.process_warc(SAMPLE, py_dir, force=True)["status"] == "complete"
    # Another method is another configuration: processed again, and said so.
    other = outward.process_warc(SAMPLE, py_dir, method="fulltext")
    assert other["status"] == "complete"
    assert other["settings_changed"] == ["--method fulltext (was reverse-stage)"]
    assert any("settings changed: --method fulltext" in w for w in other["warnings"])
    assert other["manifest"]["settings"]["--method"] == "fulltext"
    assert outward.process_warc(SAMPLE, py_dir, method="fulltext")["settings_changed"] is None


def test_quality_filters_and_signals_write_the_bytes_of_outward_run(outward_bin, tmp_path):
    cli_dir, py_dir = tmp_path / "cli", tmp_path / "py"
    flags = ["--filter", "gopher-quality,c4-quality", "--signals"]
    cli = run_cli(outward_bin, "run", *flags, "-o", str(cli_dir), str(SAMPLE))
    assert cli.returncode == 0, cli.stderr
    summary = outward.process_warc(
        SAMPLE, py_dir, filter=["gopher-quality", "c4-quality"], signals=True
    )
    assert (py_dir / "sample.jsonl.zst").read_bytes() == (cli_dir / "sample.jsonl.zst").read_bytes()
    assert summary["manifest"]["settings"]["--filter"] == "gopher-quality,c4-quality"
    docs = shard_lines(py_dir / "sample.jsonl.zst")
    assert all("would_drop" in d["metadata"]["signals"] for d in docs)
    # Every kept document passes both filters: its signals say no rule of theirs drops it.
    assert all(not d["metadata"]["signals"]["would_drop"].get("gopher-quality") for d in docs)
    with pytest.raises(ValueError, match="unknown filter"):
        outward.process_warc(SAMPLE, tmp_path / "bad", filter="gopher")
    config = tmp_path / "thresholds.json"
    config.write_text('{"fineweb-quality": {"line_punct": 0.1}}')
    with pytest.raises(ValueError, match="line_punct"):
        outward.process_warc(SAMPLE, tmp_path / "bad", filter_config=config)


def test_process_warc_tells_an_empty_input_and_fails_it_when_asked(tmp_path):
    empty = tmp_path / "empty.warc.gz"
    empty.write_bytes(b"")
    summary = outward.process_warc(empty, tmp_path / "out")
    assert summary["status"] == "empty"
    assert summary["counts"]["records"] == 0
    with pytest.raises(OSError, match="empty: not a single record"):
        outward.process_warc(empty, tmp_path / "out2", fail_empty=True)
    with pytest.raises(TypeError, match="fail_empty"):
        outward.process_warc(empty, tmp_path / "out3", fail_empty="yes")
    # A WARC with records is not empty, fail_empty or not.
    assert outward.process_warc(SAMPLE, tmp_path / "out4", fail_empty=True)["status"] == "complete"


def test_process_warc_options_are_checked_and_passed(tmp_path):
    with pytest.raises(TypeError, match="unexpected keyword argument 'thread'"):
        outward.process_warc(SAMPLE, tmp_path, thread=1)
    with pytest.raises(ValueError, match="zstd_level"):
        outward.process_warc(SAMPLE, tmp_path, zstd_level=40)
    with pytest.raises(ValueError, match="unknown method"):
        outward.process_warc(SAMPLE, tmp_path, method="nope")
    with pytest.raises(TypeError, match="option threads"):
        outward.process_warc(SAMPLE, tmp_path, threads="two")
    with pytest.raises(ValueError, match='unknown language code "xx"'):
        outward.process_warc(SAMPLE, tmp_path, lang="en,xx")
    summary = outward.process_warc(SAMPLE, tmp_path, min_chars=10**9, lang=["eng"])
    assert summary["counts"]["written"] == 0
    assert summary["counts"]["skipped"].get("too_short", 0) > 0
    # Work budgets, as outward run takes them (the sample's 12 pages under fulltext).
    summary = outward.process_warc(
        SAMPLE, tmp_path / "budget", method="fulltext", max_work=2000, max_comparisons=10
    )
    assert summary["counts"]["skipped"]["over_budget"] == 4
    assert summary["counts"]["written"] == 8


def test_process_warc_names_a_missing_input_and_keeps_a_truncated_ones_records(tmp_path):
    with pytest.raises(OSError, match="missing.warc.gz"):
        outward.process_warc(tmp_path / "missing.warc.gz", tmp_path / "out")
    summary = outward.process_warc(TRUNCATED, tmp_path / "out")
    assert summary["status"] == "partial"
    assert summary["counts"]["written"] > 0
    assert any("truncated" in w for w in summary["warnings"]), summary["warnings"]


def test_iter_warc_yields_the_documents_of_outward_run_in_order(outward_bin, tmp_path):
    cli = run_cli(outward_bin, "run", "-o", str(tmp_path), str(SAMPLE))
    assert cli.returncode == 0, cli.stderr
    expected = shard_lines(tmp_path / "sample.jsonl.zst")
    docs = outward.iter_warc(SAMPLE, threads=2)
    got = [without_top_level(d) for d in docs]
    assert got == expected
    assert docs.summary["status"] == "complete"
    assert docs.summary["counts"]["written"] == len(expected)


def test_iter_warc_can_be_let_go_and_reports_bad_inputs(tmp_path):
    first = next(iter(outward.iter_warc(SAMPLE)))
    assert first["text"]
    gc.collect()  # the pipeline's thread stops once its iterator is gone
    with pytest.raises(OSError, match="missing.warc"):
        outward.iter_warc(tmp_path / "missing.warc.gz")
    docs = outward.iter_warc(TRUNCATED)
    assert len(list(docs)) > 0
    assert docs.summary["status"] == "partial"
    not_warc = tmp_path / "page.warc"
    shutil.copy(TESTDATA / "pages" / "en_news.html", not_warc)
    docs = outward.iter_warc(not_warc)
    assert list(docs) == []
    assert docs.summary["status"] == "partial"


def test_iter_warc_on_a_dev_set_matches_outward_run(outward_bin, tmp_path):
    warc = shared_data("data/dev/cleaneval.warc.gz")
    cli = run_cli(outward_bin, "run", "-o", str(tmp_path), str(warc))
    assert cli.returncode == 0, cli.stderr
    expected = shard_lines(tmp_path / (warc.name.split(".")[0] + ".jsonl.zst"))
    got = [(d["id"], d["text"]) for d in outward.iter_warc(warc)]
    assert got == [(d["id"], d["text"]) for d in expected]
    assert len(got) > 500



def test_urls_are_read_like_files(http_dir, tmp_path):
    root, base, _ = http_dir
    shutil.copy(SAMPLE, root / "sample.warc.gz")
    url = f"{base}/sample.warc.gz"
    local = outward.process_warc(SAMPLE, tmp_path / "local", threads=1)
    remote = outward.process_warc(url, tmp_path / "remote", threads=1)
    assert remote["status"] == "complete", remote
    assert remote["manifest"]["input"] == url
    assert (tmp_path / "remote" / "sample.jsonl.zst").read_bytes() == (
        tmp_path / "local" / "sample.jsonl.zst"
    ).read_bytes()
    assert outward.process_warc(url, tmp_path / "remote")["status"] == "unchanged"
    docs = [(d["id"], d["text"]) for d in outward.iter_warc(url, threads=1)]
    assert docs == [(d["id"], d["text"]) for d in outward.iter_warc(SAMPLE, threads=1)]
    assert local["counts"] == remote["counts"]
    with pytest.raises(OSError, match="HTTP 404"):
        outward.process_warc(f"{base}/missing.warc.gz", tmp_path / "remote", retries=0)


def test_site_memory_under_a_small_budget_writes_the_bytes_of_outward_run(outward_bin, tmp_path):
    warc = shared_data("data/dev/dragnet.warc.gz")
    cli_dir, py_dir = tmp_path / "cli", tmp_path / "py"
    cli = run_cli(outward_bin, "run", "--site-memory", "-o", str(cli_dir), str(warc))
    assert cli.returncode == 0, cli.stderr
    # 1 MiB is less than dragnet's site memory: the first read spills and merges its runs.
    summary = outward.process_warc(warc, py_dir, site_memory=True, site_memory_mib=1)
    assert summary["status"] == "complete"
    name = "dragnet.jsonl.zst"
    assert (py_dir / name).read_bytes() == (cli_dir / name).read_bytes()
    assert summary["manifest"]["config_hash"] in (cli_dir / "manifest.jsonl").read_text()
    assert sorted(p.name for p in py_dir.iterdir()) == [".manifest.lock", name, "manifest.jsonl", "timings.jsonl"]
    with pytest.raises(ValueError, match="site_memory_mib"):
        outward.process_warc(warc, tmp_path / "zero", site_memory=True, site_memory_mib=0)
