"""outward in DataTrove: ``OutwardExtractor``, a drop-in for DataTrove's ``Trafilatura`` step in
a FineWeb-style pipeline (``WarcReader → OutwardExtractor → JsonlWriter``), and
``OutwardWarcReader``, which reads and extracts in one step and gives exactly the documents of
``outward run`` (``OutwardWarcReader → JsonlWriter``).

Install: ``pip install "./python[datatrove]"`` (DataTrove with what its ``WarcReader`` and
``JsonlWriter`` import: warcio, faust-cchardet, python-magic, orjson).

Unlike DataTrove's base extractor, which sends every document to a child process so that a
slow extraction can be timed out, outward extracts in the pipeline's own process: its
extraction is linear in the page's size and never hangs, and a page that is not text gives
empty text. ``sandbox=True`` extracts in DataTrove's child process with its ``timeout``, as
its other extractors do.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager, nullcontext
from typing import Any, Iterator, Optional

from datatrove.data import DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor, ExtractorSandbox
from datatrove.pipeline.readers.base import BaseDiskReader
from datatrove.utils.logging import logger
from datatrove.utils.typeshelper import StatHints

from . import Extractor, iter_warc

#: outward's metadata copied into each DataTrove document's metadata (when not None).
METADATA = (
    "title",
    "description",
    "author",
    "date_published",
    "site_name",
    "canonical_url",
    "html_lang",
    "language",
    "language_score",
    "charset",
    "nodes_parsed",
    "nodes_total",
    "page_bytes",
    "bytes_parsed",
    "extractor",
    "signals",
)


def outward_metadata(doc: dict) -> dict:
    """The fields of :data:`METADATA` an outward document has (not None), to join a
    DataTrove document's metadata, where its own fields win."""
    meta = doc["metadata"]
    return {key: meta[key] for key in METADATA if meta.get(key) is not None}


class OutwardExtractor(BaseExtractor):
    """outward's main-text extraction as a DataTrove pipeline step.

    Args:
        method: an outward method (``outward.methods()``; default ``reverse-stage``).
        format: ``text`` (one line per block) or ``markdown``.
        timeout: seconds per document, used only with ``sandbox=True`` (DataTrove's
            convention; outward itself needs no timeout).
        metadata: add outward's metadata (title, language, dates, author, nodes parsed, …)
            to each document's metadata, as the Dolma output has it.
        sandbox: extract in DataTrove's child process (as its other extractors do).
        **options: outward method options (``similarity``, ``model``, ``favor``:
            ``precision`` for FineWeb-style builders who would rather lose a paragraph
            than keep a menu).
    """

    name = "🡸 outward"
    _requires_dependencies = []

    def __init__(
        self,
        method: str = "reverse-stage",
        format: str = "text",
        timeout: float = 1,
        metadata: bool = True,
        sandbox: bool = False,
        **options: Any,
    ):
        super().__init__(timeout)
        self.method = method
        self.format = format
        self.metadata = metadata
        self.sandbox = sandbox
        self.options = options
        # Built here so that bad options fail when the pipeline is written, not on a worker.
        self._extractor: Optional[Extractor] = Extractor(method, format, **options)

    def __getstate__(self):
        # The native extractor does not pickle: executors ship the step, workers rebuild it.
        state = self.__dict__.copy()
        state["_extractor"] = None
        return state

    def _outward(self) -> Extractor:
        if self._extractor is None:
            self._extractor = Extractor(self.method, self.format, **self.options)
        return self._extractor

    def _document(self, html: str, url: Optional[str]) -> dict:
        return self._outward().extract(html, url=url)

    def extract(self, text: str) -> str:
        """The main text of one page (DataTrove's extractor interface)."""
        return self._document(text, None)["text"]

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        sandbox = ExtractorSandbox(self.timeout, warmup_text=("", None)) if self.sandbox else None
        with sandbox if sandbox is not None else nullcontext():
            for doc in data:
                self.stat_update(StatHints.total)
                url = doc.metadata.get("url")
                with self.track_time():
                    try:
                        if sandbox is None:
                            out = self._document(doc.text, url)
                        else:
                            out = sandbox.process_document((doc.text, url), self._document)
                    except TimeoutError:
                        self.stat_update("timeout")
                        logger.warning("outward: extraction timed out in the sandbox; record skipped")
                        continue
                    except EOFError:
                        self.stat_update("broken_process")
                        logger.warning("outward: the sandbox process died; record skipped")
                        continue
                doc.text = out["text"]
                self.stat_update("extracted")
                if not doc.text:
                    self.stat_update(StatHints.dropped)
                    continue
                if self.metadata:
                    for key, value in outward_metadata(out).items():
                        doc.metadata.setdefault(key, value)
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc


class OutwardWarcReader(BaseDiskReader):
    """Reads WARC and ARC files (gzip, zstd or plain) with outward's pipeline and yields their
    extracted documents: the documents of ``outward run`` (records decoded from their bytes
    with the HTTP header and ``<meta>``; HTTP errors, non-HTML and empty pages skipped),
    without a separate extractor step.

    Takes ``WarcReader``'s arguments (``data_folder``, ``paths_file``, ``glob_pattern``,
    ``limit``, ``skip``, …), plus ``threads`` (outward's threads per task; default 1, the
    executor's tasks give the parallelism), ``metadata`` (add outward's metadata, as
    :class:`OutwardExtractor` does) and outward's run options (``method``, ``format``,
    ``min_chars``, ``lang``, ``filter`` (DataTrove's Gopher, C4 and FineWeb quality filters,
    decided natively: no filter steps needed after this reader), ``signals``, ``max_nodes``,
    ``max_depth``, ``max_work``, ``max_record_bytes``, ...). A file
    in an S3 or HTTP(S) data folder is streamed by byte range (``stream=True``, S3 credentials
    from the ``AWS_*`` environment); with ``stream=False``, or on other file systems, it is
    copied to a temporary file first.
    """

    name = "🡸 outward WARC"
    _requires_dependencies = []

    def __init__(
        self,
        data_folder,
        paths_file=None,
        limit: int = -1,
        skip: int = 0,
        file_progress: bool = False,
        doc_progress: bool = False,
        adapter=None,
        text_key: str = "text",
        id_key: str = "id",
        default_metadata: Optional[dict] = None,
        recursive: bool = True,
        glob_pattern: Optional[str] = None,
        shuffle_files: bool = False,
        threads: int = 1,
        metadata: bool = True,
        stream: bool = True,
        **options: Any,
    ):
        super().__init__(
            data_folder,
            paths_file,
            limit,
            skip,
            file_progress,
            doc_progress,
            adapter,
            text_key,
            id_key,
            default_metadata,
            recursive,
            glob_pattern,
            shuffle_files,
        )
        self.threads = threads
        self.metadata = metadata
        self.stream = stream
        self.options = options
        # Bad options fail when the pipeline is written, not on a worker.
        Extractor(
            options.get("method", "reverse-stage"),
            options.get("format", "text"),
            options.get("similarity", 0.8),
            options.get("model"),
            options.get("favor", "balanced"),
        )

    @contextmanager
    def _local(self, filepath: str) -> Iterator[str]:
        """A path or URL outward reads ``filepath`` from: the local path; the URL of an S3 or
        HTTP(S) data folder, streamed by byte range (S3 credentials from the ``AWS_*``
        environment, not from fsspec's options); else a temporary copy."""
        from fsspec.implementations.local import LocalFileSystem

        fs = self.data_folder.fs
        if isinstance(fs, LocalFileSystem):
            yield self.data_folder.resolve_paths(filepath)
            return
        protocols = {fs.protocol} if isinstance(fs.protocol, str) else set(fs.protocol)
        if self.stream and protocols & {"s3", "s3a", "http", "https"}:
            url = fs.unstrip_protocol(self.data_folder.resolve_paths(filepath))
            yield "s3://" + url[len("s3a://"):] if url.startswith("s3a://") else url
            return
        suffix = "".join(part for part in os.path.basename(filepath).partition(".")[1:])
        with tempfile.NamedTemporaryFile(suffix=suffix) as local:
            with self.data_folder.open(filepath, "rb") as remote:
                shutil.copyfileobj(remote, local, 1 << 20)
            local.flush()
            yield local.name

    def read_file(self, filepath: str):
        with self._local(filepath) as path:
            for i, doc in enumerate(iter_warc(path, threads=self.threads, **self.options)):
                with self.track_time():
                    meta = doc["metadata"]
                    data = {"text": doc["text"], "id": doc["id"], "url": meta.get("url"), "date": doc.get("created")}
                    if self.metadata:
                        for key, value in outward_metadata(doc).items():
                            data.setdefault(key, value)
                    document = self.get_document_from_dict(data, filepath, i)
                if document:
                    yield document
