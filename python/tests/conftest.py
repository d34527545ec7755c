"""Shared paths of the Python package's tests: the repository, its sample data, the CLI
binary (built by `cargo test --release`, which `make test` runs first; set OUTWARD_BIN to
use another) and `../shared` (`shared_data`: tests that need it skip cleanly when it is
absent, and fail instead where CI sets OUTWARD_REQUIRE_DEV=1, as the Rust tests do)."""

import json
import os
import subprocess
from pathlib import Path

import pytest
import zstandard

REPO = Path(__file__).resolve().parents[2]
TESTDATA = REPO / "testdata"
SHARED = Path(os.environ.get("OUTWARD_SHARED_DIR", REPO.parent / "shared"))


def shared_data(rel: str, *, skip: bool = True):
    """`rel` under ../shared (or $OUTWARD_SHARED_DIR) when it exists. When it does not: a
    failure where OUTWARD_REQUIRE_DEV=1 (CI), else the test skips (or, with skip=False, gets
    None and does without)."""
    path = SHARED / rel
    if path.exists():
        return path
    if os.environ.get("OUTWARD_REQUIRE_DEV") == "1":
        pytest.fail(f"{path} is absent, and OUTWARD_REQUIRE_DEV=1 requires the dev data")
    if skip:
        pytest.skip(f"{path} is absent")
    return None


@pytest.fixture(scope="session")
def outward_bin() -> Path:
    path = Path(os.environ.get("OUTWARD_BIN", REPO / "target" / "release" / "outward"))
    if not path.exists():
        pytest.fail(f"{path} is missing: run `cargo build --release` first (make test does)")
    return path


def run_cli(binary: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(binary), *args], capture_output=True, text=True, check=False, timeout=600
    )


def shard_lines(path: Path) -> list:
    """The documents of a zstd JSONL shard, as dicts."""
    raw = zstandard.ZstdDecompressor().stream_reader(path.open("rb")).read()
    return [json.loads(line) for line in raw.decode("utf-8").splitlines() if line]


def without_top_level(doc: dict) -> dict:
    """A document dict of the Python API without the convenience copies of metadata, i.e.
    the JSON line `outward run` writes."""
    import outward

    return {k: v for k, v in doc.items() if k not in outward.TOP_LEVEL}


@pytest.fixture
def http_dir(tmp_path):
    """A plain Python HTTP server (no ranges, no ETag: the weakest kind) over a directory:
    (root, base URL, the requests it got as (path, User-Agent))."""
    import functools
    import http.server
    import threading

    root = tmp_path / "served"
    root.mkdir()
    requests = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            requests.append((self.path, self.headers.get("User-Agent", "")))

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}", requests
    server.shutdown()
