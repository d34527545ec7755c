"""How much a better choice of one element could gain: the single-element oracle (issue #37).

    python python/bench/root_oracle.py OUT_DIR [--dev ../shared/data/dev] [--json FILE]

OUT_DIR holds the shards of ``outward run --output OUT_DIR <dev WARCs>`` (any method). For
every page of the 8 bag-scored dev sets, the page is parsed with lxml (``script``, ``style``,
``noscript``, ``template`` and the head left out) and every element's text is scored against
the truth as ``../shared/eval/score.py`` scores (bag of tokens; each page's 12 best elements
by a fast estimate, then scored exactly). The oracle is the best single element's F1: what a
method that picks one subtree, perfectly, would score. Printed per set: the method's mean F1,
the mean of max(method, oracle), the same for the best element near the method's own (below),
and the pages where the oracle is better by more than 0.2, split by how the oracle's element
relates to the method's output:

- too wide: the output holds most (> 80 %) of the oracle element's tokens, and more;
- too narrow: the oracle element holds most of the output;
- wrong region: the output holds under 20 % of the oracle element;
- overlap: the rest.

Near the method's own element: the element whose text is most like the method's output (a
proxy for its root), its 3 nearest ancestors, and its children and grandchildren that hold at
least 10 % of its text. The best of those against the truth bounds what a learned choice of
the root's level could gain.

Needs ``lxml`` and ``zstandard``. An upper bound, not a target: the oracle reads the truth.
"""

import argparse
import collections
import gzip
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../benches"))
from soak_long import records  # noqa: E402  (the WARC record splitter of the benches)

SETS = ["cleaneval", "cleanportaleval", "cwced_zh", "dragnet", "htmltotext", "magic_html",
        "readability", "wcxb"]
LEFT_OUT = {"script", "style", "noscript", "template", "head", "title"}
CANDIDATES = 12
GAP = 0.2


def responses(path):
    """(record id, HTTP body) of every response record of a .warc.gz, split into records
    by `benches/soak_long.py`'s `records`."""
    data = gzip.open(path).read()
    for header, start, end in records(data):
        head = header.decode("latin1")
        if "WARC-Type: response" not in head:
            continue
        record_id = re.search(r"WARC-Record-ID: (\S+)", head).group(1)
        block = data[start:end]
        yield record_id, block[block.find(b"\r\n\r\n") + 4:]


def f1(inter, predicted, truth):
    p = inter / predicted if predicted else 0.0
    r = inter / truth if truth else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def best_by_estimate(tokens, spans, target_tokens):
    """The span most like `target_tokens` by bag-of-tokens F1: each span's F1 estimated with
    set membership (an upper bound of the clipped count), the best `CANDIDATES` scored
    exactly; returns (F1, (start, end)), or (0, None)."""
    target = collections.Counter(target_tokens)
    hits = [0]
    for token in tokens:
        hits.append(hits[-1] + (token in target))
    estimates = sorted(
        ((f1(min(hits[b] - hits[a], len(target_tokens)), b - a, len(target_tokens)), a, b)
         for a, b, _ in spans if b > a),
        reverse=True,
    )
    best = (0.0, None)
    for estimate, a, b in estimates[:CANDIDATES]:
        if estimate <= best[0]:
            break
        score = exact_f1(tokens, (a, b), target)
        if score > best[0]:
            best = (score, (a, b))
    return best


def exact_f1(tokens, span, truth):
    a, b = span
    bag = collections.Counter(tokens[a:b])
    return f1(sum((bag & truth).values()), b - a, sum(truth.values()))


def near(element, span_of):
    """The spans near `element`: its own, its 3 nearest ancestors', and its children's and
    grandchildren's that hold at least 10 % of its tokens."""
    a, b = span_of[element]
    floor = max(1.0, 0.1 * (b - a))
    found = [span_of[element]]
    parent = element.getparent()
    while parent is not None and len(found) < 4:
        if parent in span_of:
            found.append(span_of[parent])
        parent = parent.getparent()
    for child in element:
        for e in [child, *child]:
            if e in span_of and span_of[e][1] - span_of[e][0] >= floor:
                found.append(span_of[e])
    return found


def oracle(html, truth_tokens, output_tokens, tokenize):
    """The best single element's F1 and how it relates to the output: (F1, contains, held,
    near), contains = share of the element's tokens the output holds, held = share of the
    output's tokens the element holds, near = the best F1 of an element near the one most
    like the output (see the module docs)."""
    import lxml.html

    try:
        root = lxml.html.fromstring(html.decode("utf-8", "replace"))
    except Exception:
        return None
    tokens, spans = [], []
    sys.setrecursionlimit(100000)

    def walk(element):
        if not isinstance(element.tag, str) or element.tag in LEFT_OUT:
            return
        start = len(tokens)
        tokens.extend(tokenize(element.text or ""))
        for child in element:
            walk(child)
            tokens.extend(tokenize(child.tail or ""))
        spans.append((start, len(tokens), element))

    try:
        walk(root)
    except RecursionError:
        pass
    truth = collections.Counter(truth_tokens)
    output = collections.Counter(output_tokens)
    score, span = best_by_estimate(tokens, spans, truth_tokens)
    if span is None:
        return None
    a, b = span
    shared = sum((collections.Counter(tokens[a:b]) & output).values())
    near_best = score if not output_tokens else 0.0
    _, own = best_by_estimate(tokens, spans, output_tokens) if output_tokens else (0, None)
    if own is not None:
        span_of = {element: (start, end) for start, end, element in spans}
        element = next(e for start, end, e in spans if (start, end) == own)
        near_best = max(exact_f1(tokens, s, truth) for s in near(element, span_of) if s[1] > s[0])
    return score, shared / (b - a), shared / max(1, len(output_tokens)), near_best


def relation(contains, held):
    if contains > 0.8:
        return "too wide"
    if held > 0.8:
        return "too narrow"
    if contains < 0.2:
        return "wrong region"
    return "overlap"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--dev", default=os.path.join(os.path.dirname(__file__), "../../../shared/data/dev"))
    parser.add_argument("--json", help="write every page's row here")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.dev, "../../eval"))
    import score
    import zstandard

    rows = []
    for name in SETS:
        truths = {}
        for line in open(os.path.join(args.dev, f"{name}.truth.jsonl"), encoding="utf-8"):
            d = json.loads(line)
            truths[d["warc_record_id"]] = d.get("truth") or ""
        outputs = {}
        with open(os.path.join(args.out_dir, f"{name}.jsonl.zst"), "rb") as f:
            for line in io.TextIOWrapper(zstandard.ZstdDecompressor().stream_reader(f), encoding="utf-8"):
                d = json.loads(line)
                outputs[d["id"]] = d["text"]
        for record_id, html in responses(os.path.join(args.dev, f"{name}.warc.gz")):
            if record_id not in truths:
                continue
            truth, output = truths[record_id], outputs.get(record_id, "")
            ours = score.prf(output, truth)[2]
            truth_tokens = score.tokenize(truth)
            best = None
            if truth_tokens and html.strip():
                best = oracle(html, truth_tokens, score.tokenize(output), score.tokenize)
            best = best or (ours, -1.0, -1.0, ours)
            rows.append({"set": name, "id": record_id, "f1": ours, "oracle": best[0],
                         "contains": best[1], "held": best[2], "near": best[3]})
    if args.json:
        json.dump(rows, open(args.json, "w"))
    by_set = collections.defaultdict(list)
    for row in rows:
        by_set[row["set"]].append(row)
    means, bounds, nears = [], [], []
    print(f"{'set':16} {'pages':>5} {'F1':>7} {'max(F1, oracle)':>15} {'max(F1, near)':>13} {'oracle > F1 + 0.2':>18}  by relation (pages, F1 points)")
    for name in SETS:
        pages = by_set[name]
        mean = sum(r["f1"] for r in pages) / len(pages)
        bound = sum(max(r["f1"], r["oracle"]) for r in pages) / len(pages)
        near_bound = sum(max(r["f1"], r["near"]) for r in pages) / len(pages)
        means.append(mean)
        bounds.append(bound)
        nears.append(near_bound)
        gaps = [r for r in pages if r["oracle"] - r["f1"] > GAP]
        kinds = collections.defaultdict(lambda: [0, 0.0])
        for r in gaps:
            kind = kinds[relation(r["contains"], r["held"])]
            kind[0] += 1
            kind[1] += r["oracle"] - r["f1"]
        detail = ", ".join(f"{k} {n} ({p:.1f})" for k, (n, p) in sorted(kinds.items()))
        print(f"{name:16} {len(pages):5} {mean:7.4f} {bound:15.4f} {near_bound:13.4f} {len(gaps):18}  {detail}")

    def macro(values):
        return sum(values) / len(values)

    print(f"{'macro':16} {'':5} {macro(means):7.4f} {macro(bounds):15.4f} {macro(nears):13.4f}")


if __name__ == "__main__":
    main()
