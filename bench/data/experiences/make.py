#!/usr/bin/env python3
"""Assembles the experience dev set from the hand-written clusters in src/*.py.

Each cluster holds experience records (R), answerable queries (Q) naming the records that answer
them, near-domain queries (N: the cluster's technologies, another problem) and the technology
tags used to judge near-domain queries against every record. Off-topic questions live in
src/offtopic.py. Writes records.jsonl, queries.jsonl and near_domain_judged.jsonl next to this file.

    python3 bench/data/experiences/make.py          # write the files
    python3 bench/data/experiences/make.py --check  # also print each near-domain query's candidates
"""
import importlib.util
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent


class R:
    """An experience record. `outcome` is "s" (success) or "f" (failure)."""

    def __init__(self, slug, resource, task, result, score, outcome="s", ver=None, src=None):
        self.slug, self.resource, self.task, self.result = slug, resource, task.strip(), result.strip()
        self.score, self.outcome, self.ver, self.src = score, outcome, ver, src


class Q:
    """An answerable query: its style and the slugs of the records that answer it."""

    def __init__(self, style, text, *rel):
        self.style, self.text, self.rel = style, text.strip(), list(rel)


class N:
    """A near-domain query: same technologies as some records, a problem none of them answers.
    `tags` adds technologies beyond the cluster's own."""

    def __init__(self, text, style="paraphrase", tags=()):
        self.text, self.style, self.tags = text.strip(), style, list(tags)


class Cluster:
    def __init__(self, name, tags, records, queries, near):
        self.name, self.tags, self.records, self.queries, self.near = name, tags, records, queries, near


def is_han(c):
    o = ord(c)
    return 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF


def lang(*texts):
    """en: no Han; zh: Han with few Latin letters; mixed: Chinese prose carrying English text."""
    s = " ".join(texts)
    han = sum(1 for c in s if is_han(c))
    latin = sum(1 for c in s if c.isascii() and c.isalpha())
    if han == 0:
        return "en"
    # Han characters carry about a word each; Latin letters about a fifth of one.
    return "mixed" if latin / 5 > 0.6 * han else "zh"


def load_module(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    mod.R, mod.Q, mod.N, mod.Cluster = R, Q, N, Cluster
    sys.modules[path.stem] = mod
    spec.loader.exec_module(mod)
    return mod


def words(s):
    return set(re.findall(r"[a-z][a-z0-9_.+-]*", s.lower()))


def main():
    check = "--check" in sys.argv
    clusters, offtopic = [], []
    for p in sorted((HERE / "src").glob("*.py")):
        m = load_module(p)
        clusters.extend(getattr(m, "CLUSTERS", []))
        offtopic.extend(getattr(m, "OFFTOPIC", []))
    recs, by_slug = [], {}
    for c in clusters:
        for r in c.records:
            assert r.slug not in by_slug, f"duplicate slug {r.slug}"
            assert r.outcome in ("s", "f") and 1 <= r.score <= 5, r.slug
            by_slug[r.slug] = (r, c)
            recs.append((r, c))
    out_recs = []
    for r, c in recs:
        d = {"id": r.slug, "task": r.task, "resource": r.resource}
        if r.ver:
            d["resource_version"] = r.ver
        d.update(result=r.result, score=r.score, outcome="success" if r.outcome == "s" else "failure",
                 lang=lang(r.task, r.result), group=c.name)
        if r.src:
            d["source"] = r.src
        out_recs.append(d)
    queries, judged, n = [], [], 0
    seen = set()

    def add(q):
        key = q["text"].lower()
        assert key not in seen, f"duplicate query {q['text']!r}"
        seen.add(key)
        queries.append(q)

    for c in clusters:
        for q in c.queries:
            for s in q.rel:
                assert s in by_slug, f"{c.name}: unknown record {s}"
            n += 1
            fail = all(by_slug[s][0].outcome == "f" for s in q.rel)
            # Cross-lingual: a Chinese question whose answers are all English records, or the reverse.
            zh_q = lang(q.text) != "en"
            cross = all((lang(by_slug[s][0].task, by_slug[s][0].result) != "en") != zh_q for s in q.rel)
            style = q.style
            if style == "cross_lingual" and not cross:
                style = "paraphrase"
            elif cross and style == "paraphrase":
                style = "cross_lingual"
            add({"id": f"q{n:04d}", "text": q.text, "lang": lang(q.text), "kind": "answerable", "style": style,
                 "cross_lingual": cross, "relevant": q.rel, "failure_lesson": fail, "group": c.name})
        for q in c.near:
            n += 1
            tags = set(c.tags) | set(q.tags)
            qw = words(q.text)
            # Candidates: every record of a cluster sharing a technology, and every record whose
            # resource names a word of the query.
            cands = [r.slug for r, rc in recs
                     if set(rc.tags) & tags or (words(r.resource) & qw - {"the", "a", "to", "in"})]
            qid = f"q{n:04d}"
            add({"id": qid, "text": q.text, "lang": lang(q.text), "kind": "near_domain", "style": q.style,
                 "relevant": [], "group": c.name, "technologies": sorted(tags)})
            judged.append({"query": qid, "text": q.text, "technologies": sorted(tags),
                           "checked": cands, "verdict": "none answers"})
            if check:
                print(f"\n## {qid} {q.text}")
                for s in cands:
                    r = by_slug[s][0]
                    print(f"   {s}: {r.task[:110]}")
    for style, text in offtopic:
        n += 1
        add({"id": f"q{n:04d}", "text": text, "lang": lang(text), "kind": "offtopic", "style": style, "relevant": []})
    with open(HERE / "records.jsonl", "w") as f:
        for d in out_recs:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(HERE / "queries.jsonl", "w") as f:
        for d in queries:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(HERE / "near_domain_judged.jsonl", "w") as f:
        for d in judged:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    # Counts for the README.
    from collections import Counter
    print("records", len(out_recs), dict(Counter(d["lang"] for d in out_recs)),
          dict(Counter(d["outcome"] for d in out_recs)), "from trajectories", sum(1 for d in out_recs if "source" in d),
          file=sys.stderr)
    print("queries", len(queries), dict(Counter((d["kind"], d["lang"]) for d in queries)), file=sys.stderr)
    print("cross-lingual", sum(1 for d in queries if d.get("cross_lingual")),
          dict(Counter(d["lang"] for d in queries if d.get("cross_lingual"))), file=sys.stderr)
    print("styles", dict(Counter(d["style"] for d in queries if d["kind"] == "answerable")),
          "failure lessons", sum(1 for d in queries if d.get("failure_lesson")), file=sys.stderr)
    unused = set(by_slug) - {s for d in queries for s in d["relevant"]}
    print("records no query points at", len(unused), file=sys.stderr)


if __name__ == "__main__":
    main()
