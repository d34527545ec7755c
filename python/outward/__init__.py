"""outward: turn web pages and web-crawl archives (WARC, ARC) into clean main text, fast.

The extraction and the pipeline are outward's Rust crates (the module ``outward._outward``);
this package gives them a Python API. Every document is the one ``outward run`` writes for
the same record (the Dolma JSON: ``id``, ``text``, ``source``, ``created``, ``metadata``),
with ``title``, ``nodes_parsed``, ``nodes_total``, ``charset`` and ``language`` repeated at
the top level for convenience. Extraction releases the GIL: threads extract in parallel.

    >>> import outward
    >>> doc = outward.extract(b"<html><body><article><p>...</p></article></body></html>")
    >>> doc["text"], doc["nodes_parsed"], doc["nodes_total"]

- :func:`extract` — one page (``bytes`` as fetched, or ``str``).
- :class:`Extractor` — the same, with its method built once (what ``extract`` caches).
- :func:`process_warc` — ``outward run`` on one file: shards and manifest, same bytes.
- :func:`iter_warc` — the documents of one file as dicts, to filter in Python.
- :func:`methods` — the extraction methods, the default first.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from . import _outward

__version__: str = _outward.__version__
__all__ = ["Extractor", "extract", "process_warc", "iter_warc", "methods", "DocumentIterator"]

#: Metadata fields repeated at the top level of every document dict.
TOP_LEVEL = ("title", "nodes_parsed", "nodes_total", "charset", "language")


def _document(line: str) -> Dict[str, Any]:
    doc = json.loads(line)
    meta = doc.get("metadata", {})
    for key in TOP_LEVEL:
        doc.setdefault(key, meta.get(key))
    return doc


class Extractor:
    """One extraction method with its options, built once for many pages.

    ``method``: a name of :func:`methods` (default ``reverse-stage``); ``format``: ``text`` (one
    line per block, the corpus format) or ``markdown``; ``similarity``: the tree-similarity
    threshold of ``paper``; ``model``: a model file written by ``outward train`` for
    ``svm``, ``template``, ``linenet`` or ``reverse-stage`` instead of the shipped one;
    ``favor``: ``balanced`` (default), ``precision`` or ``recall`` (``reverse-stage`` only,
    as trafilatura's ``favor_precision``/``favor_recall``). Every document of
    ``reverse-stage`` says in ``metadata["extraction_confidence"]`` the F1 it expects of
    its text. Bad options raise ``ValueError``.
    """

    __slots__ = ("_native",)

    def __init__(
        self,
        method: str = "reverse-stage",
        format: str = "text",
        similarity: float = 0.8,
        model: Optional[Union[str, os.PathLike]] = None,
        favor: str = "balanced",
    ) -> None:
        self._native = _outward.Extractor(
            method, format, similarity, None if model is None else os.fspath(model), favor
        )

    @property
    def method(self) -> str:
        return self._native.method

    def extract(
        self, html: Union[bytes, str], url: Optional[str] = None, id: Optional[str] = None
    ) -> Dict[str, Any]:
        """The document of one page. ``bytes`` are decoded as outward decodes a record
        (BOM, UTF-8, ``<meta charset>``, detection); ``url`` gives the methods the page's
        host. Bad HTML never raises: bytes that are not text give empty ``text`` and say
        why in ``metadata["skipped"]``."""
        return _document(self._native.extract_json(html, url, id))


@lru_cache(maxsize=16)
def _cached(
    method: str, format: str, similarity: float, model: Optional[str], favor: str
) -> Extractor:
    return Extractor(method, format, similarity, model, favor)


def extract(
    html: Union[bytes, str],
    url: Optional[str] = None,
    method: str = "reverse-stage",
    format: str = "text",
    similarity: float = 0.8,
    model: Optional[Union[str, os.PathLike]] = None,
    favor: str = "balanced",
) -> Dict[str, Any]:
    """The document of one page: ``text``, ``title``, ``nodes_parsed``, ``nodes_total``,
    ``charset``, ``language`` and the full ``metadata`` (see :meth:`Extractor.extract`).
    The method is built once per set of options and reused."""
    extractor = _cached(
        method, format, similarity, None if model is None else os.fspath(model), favor
    )
    return extractor.extract(html, url)


def process_warc(
    path: Union[str, os.PathLike], output_dir: Union[str, os.PathLike], **options: Any
) -> Dict[str, Any]:
    """``outward run`` on one WARC or ARC file (gzip, zstd or plain) into ``output_dir``:
    the same shard bytes and manifest line as the CLI, and the same resume (an input whose
    manifest entry matches is ``"unchanged"`` unless ``force=True``). ``path`` may be a URL
    (``http(s)://``, ``s3://bucket/key``): streamed by byte range, resumed when a connection
    fails (``retries``, default 8), as the CLI does.

    Options are ``outward run``'s flags: ``method``, ``format``, ``output_format``,
    ``threads`` (0: every core), ``zstd_level``, ``max_record_bytes``, ``max_nodes``,
    ``max_depth``, ``max_work``, ``max_comparisons``, ``min_chars``, ``lang`` (``"en,de"`` or a list), ``filter``
    (``"gopher-quality,c4-quality"`` or a list: DataTrove's quality filters, as ``--filter``),
    ``filter_config`` (a JSON file of their thresholds), ``signals`` (``metadata["signals"]``),
    ``force``, ``retries``,
    ``similarity``, ``model``, ``favor``, ``site_memory``, ``sites``, ``sites_update``,
    ``site_min_pages``, ``site_memory_mib`` (what site memory may hold, as ``--site-memory-mib``),
    ``fail_empty`` (an input without a single record raises ``OSError``, as
    ``--fail-empty`` makes it a failure).

    Returns ``input``, ``status`` (``complete``, ``partial``, ``empty`` (not a single record:
    a 0-byte file, a failed download) or ``unchanged``), ``output`` (the shard's path),
    ``counts``, ``nodes_fraction_median``/``_p90`` and ``bytes_fraction_median``/``_p90``
    (nodes built of the page's nodes, bytes read of its bytes), ``manifest`` (the manifest entry, with
    the ``settings`` that decided it), ``settings_changed`` (when the input was done before
    with other settings: what changed, e.g. ``"--lang en (was any)"``; else ``None``) and
    ``warnings`` (skipped records, with their ids; a rewrite, and the removal of an output in
    another format). A file that cannot be read raises ``OSError`` naming it; a truncated
    file is ``partial``, its good records written.
    """
    line = _outward.process_warc_json(os.fspath(path), os.fspath(output_dir), **options)
    return json.loads(line)


class DocumentIterator:
    """The documents of one input in input order (see :func:`iter_warc`). Once exhausted,
    :attr:`summary` holds the input's ``status``, ``counts`` and ``warnings``. Letting go of
    the iterator early stops the reading."""

    __slots__ = ("_native", "summary")

    def __init__(self, native: Any) -> None:
        self._native = native
        self.summary: Optional[Dict[str, Any]] = None

    def __iter__(self) -> "DocumentIterator":
        return self

    def __next__(self) -> Dict[str, Any]:
        line = next(self._native, None)
        if line is None:
            summary = self._native.summary_json
            if summary is not None and self.summary is None:
                self.summary = json.loads(summary)
            raise StopIteration
        return _document(line)


def iter_warc(path: Union[str, os.PathLike], **options: Any) -> DocumentIterator:
    """The documents of one WARC or ARC file as dicts, in input order, extracted on
    outward's threads (``threads=1`` for one core per task) while Python consumes them. The
    options are :func:`process_warc`'s (those about output files are accepted and unused).
    A missing file raises ``OSError``; records that are not pages, or give no text, are
    skipped and counted in the summary."""
    return DocumentIterator(_outward.iter_warc_json(os.fspath(path), **options))


def methods() -> List[Tuple[str, str]]:
    """Every extraction method as ``(name, summary)``, the default first."""
    return list(_outward.methods_list())
