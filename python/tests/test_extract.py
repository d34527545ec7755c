"""outward.extract and outward.Extractor: one page, as the CLI's `outward extract` does it."""

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

import outward
from conftest import TESTDATA, run_cli, without_top_level

PAGES = sorted((TESTDATA / "pages").glob("*.html"))


def test_the_sample_pages_give_the_documents_of_outward_extract(outward_bin):
    assert len(PAGES) >= 10
    for page in PAGES:
        cli = run_cli(outward_bin, "extract", "--json", str(page))
        assert cli.returncode == 0, cli.stderr
        expected = json.loads(cli.stdout)
        doc = outward.extract(page.read_bytes())
        doc = without_top_level(doc)
        doc["id"] = expected["id"]  # the CLI names the document by its path
        assert doc == expected, page.name


def test_bytes_are_decoded_by_their_charset_and_str_as_given():
    text = (TESTDATA / "pages" / "zh_big5_meta.html").read_text("utf-8")
    big5 = text.encode("big5")
    doc = outward.extract(big5)
    assert doc["charset"] == "Big5"
    assert doc["language"] == "zh"
    assert doc["text"]
    same = outward.extract(text)
    assert same["text"] == doc["text"]
    assert same["charset"] == "UTF-8"
    assert same["metadata"]["charset_source"] == "given"


def test_the_top_level_fields_repeat_the_metadata():
    page = (TESTDATA / "pages" / "en_news.html").read_bytes()
    doc = outward.extract(page, url="https://news.example/a")
    for key in ("title", "nodes_parsed", "nodes_total", "charset", "language"):
        assert doc[key] == doc["metadata"][key]
    assert 0 < doc["nodes_parsed"] <= doc["nodes_total"]
    # The page's bytes as decoded, every one of them read (today's one-pass cleaner).
    assert doc["metadata"]["page_bytes"] == len(page)
    assert doc["metadata"]["bytes_parsed"] == doc["metadata"]["page_bytes"]
    assert doc["metadata"]["url"] == "https://news.example/a"
    assert doc["title"]


def test_bad_html_never_raises():
    binary = bytes(range(32)) * 300
    doc = outward.extract(binary)
    assert doc["text"] == ""
    assert "not HTML" in doc["metadata"]["skipped"]
    utf16 = b"\xff\xfe" + bytes(x for c in binary for x in (c, 0))
    assert outward.extract(utf16)["metadata"]["charset_source"] == "bom"
    for html in (b"", "", "<", "<div>" * 100_000, b"\xff\xfe\x00<\x00p", "<p>\x00\ud7ff</p>"):
        assert isinstance(outward.extract(html)["text"], str)


def test_bad_arguments_raise_with_what_is_wrong():
    with pytest.raises(TypeError, match="bytes or str"):
        outward.extract(42)
    with pytest.raises(ValueError, match="unknown method"):
        outward.extract("<p>x</p>", method="nope")
    with pytest.raises(ValueError, match="unknown format"):
        outward.extract("<p>x</p>", format="pdf")
    with pytest.raises(ValueError, match="not by reverse"):
        outward.Extractor("reverse", model="some.model")
    with pytest.raises(ValueError, match="missing.model"):
        outward.Extractor("svm", model="missing.model")


def test_every_method_and_markdown():
    html = (TESTDATA / "pages" / "en_news.html").read_bytes()
    names = [name for name, _ in outward.methods()]
    assert names[0] == "reverse-stage" and "fulltext" in names
    for name in names:
        doc = outward.Extractor(name).extract(html)
        assert doc["metadata"]["extractor"] == name
        assert doc["text"], name
    markdown = outward.extract(html, format="markdown")["text"]
    assert markdown.startswith("# ") or "\n# " in markdown or "\n## " in markdown


def test_threads_extract_what_one_thread_does():
    pages = [p.read_bytes() for p in PAGES] * 4
    extractor = outward.Extractor()
    alone = [extractor.extract(p)["text"] for p in pages]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda p: extractor.extract(p)["text"], pages))
    assert together == alone
