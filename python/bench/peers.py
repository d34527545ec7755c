"""Extraction speed from Python, outward beside its peers in one process, one thread.

    python python/bench/peers.py ../shared/data/dev/dragnet.warc.gz [--limit N] [--datatrove]

Reads the HTML responses of a WARC (warcio), decodes them once to str (UTF-8, replacing
bad bytes) and times, on the same pages in turn: ``outward.extract`` (bytes, and str),
``trafilatura.extract`` (defaults) and ``resiliparse.extract.html2text.extract_plain_text
(main_content=True)`` (its own HTMLTree parse included). Reports pages/s and MB/s of HTML
per CPU second (process time), so other load on the machine matters less. A peer that is
not installed is left out with a note.

With ``--datatrove``, also times DataTrove pipelines (one task, into JsonlWriter): WarcReader
with ``OutwardExtractor`` and with DataTrove's ``Trafilatura``, and ``OutwardWarcReader``
alone, in docs/s of wall time.
"""

import argparse
import os
import sys
import tempfile
import time


def pages_of(path, limit):
    from warcio.archiveiterator import ArchiveIterator

    pages = []
    with open(path, "rb") as f:
        for record in ArchiveIterator(f):
            if record.rec_type != "response":
                continue
            ctype = record.http_headers.get_header("Content-Type") if record.http_headers else ""
            if ctype and "html" not in ctype.lower():
                continue
            body = record.content_stream().read()
            if body:
                pages.append(body)
            if limit and len(pages) >= limit:
                break
    return pages


def timed(name, fn, inputs, total_bytes):
    fn(inputs[0])  # warm up (imports, caches)
    start = time.process_time()
    chars = 0
    for page in inputs:
        out = fn(page)
        chars += len(out or "")
    cpu = time.process_time() - start
    print(
        f"{name:44s} {len(inputs) / cpu:9.1f} pages/s  {total_bytes / 1e6 / cpu:7.2f} MB/s"
        f"  {cpu:7.2f} CPU s  {chars / len(inputs):8.0f} chars/page",
        flush=True,
    )
    return len(inputs) / cpu


def bench_extract(path, limit):
    raw = pages_of(path, limit)
    text = [p.decode("utf-8", errors="replace") for p in raw]
    total = sum(len(p) for p in raw)
    print(f"{path}: {len(raw)} pages, {total / 1e6:.1f} MB of HTML; one thread, CPU time")
    import outward

    rates = {}
    extractor = outward.Extractor()
    rates["outward"] = timed("outward.extract (bytes)", lambda p: extractor.extract(p)["text"], raw, total)
    timed("outward.extract (str)", lambda p: extractor.extract(p)["text"], text, total)
    try:
        import trafilatura

        rates["trafilatura"] = timed("trafilatura.extract", lambda p: trafilatura.extract(p), text, total)
    except ImportError:
        print("trafilatura: not installed")
    try:
        from resiliparse.extract.html2text import extract_plain_text

        rates["resiliparse"] = timed(
            "resiliparse extract_plain_text(main_content)",
            lambda p: extract_plain_text(p, main_content=True),
            text,
            total,
        )
    except ImportError:
        print("resiliparse: not installed")
    for peer in ("trafilatura", "resiliparse"):
        if peer in rates:
            print(f"outward / {peer}: {rates['outward'] / rates[peer]:.1f}x pages per CPU second")


def bench_datatrove(path):
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.extractors import Trafilatura
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter

    from outward.datatrove import OutwardExtractor, OutwardWarcReader

    folder, name = os.path.split(os.path.abspath(path))
    variants = (
        ("WarcReader → OutwardExtractor", lambda: [WarcReader(folder, glob_pattern=name), OutwardExtractor()]),
        ("WarcReader → Trafilatura", lambda: [WarcReader(folder, glob_pattern=name), Trafilatura(timeout=10)]),
        ("OutwardWarcReader (threads=1)", lambda: [OutwardWarcReader(folder, glob_pattern=name)]),
    )
    for label, steps in variants:
        with tempfile.TemporaryDirectory() as out:
            pipeline = steps() + [JsonlWriter(out + "/docs", compression=None)]
            start = time.perf_counter()
            LocalPipelineExecutor(pipeline=pipeline, tasks=1, logging_dir=out + "/logs").run()
            wall = time.perf_counter() - start
            docs = sum(1 for f in os.listdir(out + "/docs") for _ in open(os.path.join(out, "docs", f)))
            print(f"DataTrove {label} → JsonlWriter, one task: {docs} docs in {wall:.2f} s wall = {docs / wall:.1f} docs/s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warc")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--datatrove", action="store_true")
    args = parser.parse_args()
    bench_extract(args.warc, args.limit)
    if args.datatrove:
        import logging

        logging.disable(logging.WARNING)
        bench_datatrove(args.warc)


if __name__ == "__main__":
    sys.exit(main())
