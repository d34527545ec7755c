#!/usr/bin/env python3
"""Regenerates the reader fixtures in this directory (deterministic output).

mixed.warc      10 records, one of each outcome (see tests/reader_samples.rs)
mixed.warc.gz   the same, one gzip member per record
truncated.warc.gz  mixed.warc.gz with its last member cut in half
"""
import gzip, io, os

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = b"<!DOCTYPE html><html><head><title>t</title></head><body><p>" + "Grüße aus Köln ".encode() * 20 + b"</p></body></html>"


def gz(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
        f.write(data)
    return buf.getvalue()


def chunked(data, size=50):
    out = b""
    for i in range(0, len(data), size):
        c = data[i:i + size]
        out += b"%x;ext=1\r\n" % len(c) + c + b"\r\n"
    return out + b"0\r\n\r\n"


def http(status, headers, body):
    head = b"HTTP/1.1 " + status + b"\r\n" + b"".join(k + b": " + v + b"\r\n" for k, v in headers) + b"\r\n"
    return head + body


def record(n, wtype, block, ctype=b"application/http; msgtype=response", uri=b"http://example.org/", extra=b""):
    h = (b"WARC/1.1\r\nWARC-Type: " + wtype + b"\r\n"
         + b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\n" % n
         + b"WARC-Date: 2024-05-01T12:00:%02dZ\r\n" % n
         + b"WARC-Target-URI: " + uri + b"\r\n"
         + (b"Content-Type: " + ctype + b"\r\n" if ctype else b"")
         + b"WARC-Payload-Digest: sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%02d\r\n" % n
         + extra
         + b"Content-Length: %d\r\n\r\n" % len(block))
    return h + block + b"\r\n\r\n"


recs = [
    record(1, b"warcinfo", b"software: make_fixtures.py\r\n", ctype=b"application/warc-fields", uri=b""),
    record(2, b"request", b"GET / HTTP/1.1\r\nHost: example.org\r\n\r\n", ctype=b"application/http; msgtype=request"),
    record(3, b"response", http(b"200 OK", [(b"Content-Type", b"text/html; charset=iso-8859-1"),
                                             (b"Transfer-Encoding", b"chunked"),
                                             (b"Content-Encoding", b"gzip")], chunked(gz(PAGE))),
           uri=b"http://example.org/chunked-gzip"),
    record(4, b"response", http(b"404 Not Found", [(b"Content-Type", b"text/html")], b"<html>gone</html>"),
           uri=b"http://example.org/404"),
    record(5, b"resource", PAGE, ctype=b"text/html", uri=b"file:///resource.html"),
    record(6, b"revisit", http(b"200 OK", [(b"Content-Type", b"text/html")], b""), uri=b"http://example.org/again"),
    record(7, b"response", http(b"200 OK", [(b"Content-Type", b"image/png")], b"\x89PNG\r\n\x1a\n\x00\x00\x00\x00"),
           uri=b"http://example.org/img.png"),
    record(8, b"response", http(b"200 OK", [(b"Server", b"x")], b"<html><body><p>no type</p></body></html>"),
           uri=b"http://example.org/no-type"),
    record(9, b"response", http(b"200 OK", [(b"Content-Type", b"text/html")], b""), uri=b"http://example.org/empty"),
    record(10, b"response", http(b"200 OK", [(b"Content-Type", b"application/xhtml+xml")], PAGE),
           uri=b"http://example.org/last"),
]

with open(os.path.join(HERE, "mixed.warc"), "wb") as f:
    f.write(b"".join(recs))
members = [gz(r) for r in recs]
with open(os.path.join(HERE, "mixed.warc.gz"), "wb") as f:
    f.write(b"".join(members))
with open(os.path.join(HERE, "truncated.warc.gz"), "wb") as f:
    f.write(b"".join(members[:-1]) + members[-1][: len(members[-1]) // 2])
