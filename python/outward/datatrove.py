"""outward as a DataTrove extractor: ``OutwardExtractor``, a drop-in for DataTrove's
``Trafilatura`` step in a FineWeb-style pipeline (``WarcReader → OutwardExtractor →
JsonlWriter``).

Install: ``pip install "./python[datatrove]"`` (DataTrove with what its ``WarcReader`` and
``JsonlWriter`` import: warcio, faust-cchardet, python-magic, orjson).

Unlike DataTrove's base extractor, which sends every document to a child process so that a
slow extraction can be timed out, outward extracts in the pipeline's own process: its
extraction is linear in the page's size and never hangs, and a page that is not text gives
empty text. ``sandbox=True`` extracts in DataTrove's child process with its ``timeout``, as
its other extractors do.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any, Optional

from datatrove.data import DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor, ExtractorSandbox
from datatrove.utils.logging import logger
from datatrove.utils.typeshelper import StatHints

from . import Extractor

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
    "extractor",
)


class OutwardExtractor(BaseExtractor):
    """outward's main-text extraction as a DataTrove pipeline step.

    Args:
        method: an outward method (``outward.methods()``; default ``reverse``).
        format: ``text`` (one line per block) or ``markdown``.
        timeout: seconds per document, used only with ``sandbox=True`` (DataTrove's
            convention; outward itself needs no timeout).
        metadata: add outward's metadata (title, language, dates, author, nodes parsed, …)
            to each document's metadata, as the Dolma output has it.
        sandbox: extract in DataTrove's child process (as its other extractors do).
        **options: outward method options (``similarity``, ``model``).
    """

    name = "🡸 outward"
    _requires_dependencies = []

    def __init__(
        self,
        method: str = "reverse",
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
                    meta = out["metadata"]
                    for key in METADATA:
                        value = meta.get(key)
                        if value is not None:
                            doc.metadata.setdefault(key, value)
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc
