#!/usr/bin/env python3
"""Measures the injection screen as it ships on a case file it never saw (default
testdata/injection/blind/blind.jsonl): the rules (`guard::screen` on the text and its decoded
views, as at submit) and the learned classifier with the shipped weights and threshold
(crates/knowhub-ai/src/injection_screen.json), a text flagged when any piece scores at or above it.

    cargo build --release -p knowhub-ai --example injection_vectors   # or pass --example
    python3 bench/injection_blind_eval.py [--cases FILE] [--example PATH] [--ts DIR] [--report FILE]

Pieces, decoded views, rule verdicts and E5 vectors come from the Rust example, as in
bench/injection_eval.py. Nothing is trained here. With --ts DIR (a directory holding the
plugin's security.ts compiled to JavaScript) the TypeScript `screenText` is run on every raw text
and its categories compared with the Rust rules' on the same text.
"""
import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from injection_eval import FETCH_RUN  # noqa: E402


def pct(k, n):
    return f"{k}/{n} ({100.0 * k / n:.1f}%)" if n else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default=os.path.join(ROOT, "testdata", "injection", "blind", "blind.jsonl"))
    ap.add_argument("--example", default=os.path.join(ROOT, "target", "release", "examples", "injection_vectors"))
    ap.add_argument("--weights", default=os.path.join(ROOT, "crates", "knowhub-ai", "src", "injection_screen.json"))
    ap.add_argument("--ts", default=None)
    ap.add_argument("--report", default=None)
    ap.add_argument("--misses", default=None, help="write every wrong verdict here (jsonl)")
    ap.add_argument("--no-version-shape", action="store_true", help="leave out the version field's shape check")
    a = ap.parse_args()

    cases = [json.loads(l) for l in open(a.cases, encoding="utf-8") if l.strip()]
    inp = "".join(json.dumps({"id": c["id"], "text": c["text"], "field": c["field"]}, ensure_ascii=False) + "\n"
                  for c in cases)
    out = subprocess.run([a.example], input=inp.encode(), capture_output=True, check=True).stdout.decode()
    vec = {d["id"]: d for d in map(json.loads, out.splitlines())}
    W = json.load(open(a.weights))
    w2, b2, thr = np.array(W["w2"]), W["b2"], W["threshold"]
    hidden = W.get("hidden", 0)
    w1 = np.array(W["w1"]).reshape(hidden, W["dim"]) if hidden else None
    b1 = np.array(W["b1"]) if hidden else None

    def clf_score(v):
        """The shipped model's probability for one piece's vector (as screen.rs computes it)."""
        h = np.maximum(w1 @ v + b1, 0.0) if hidden else v
        return 1 / (1 + np.exp(-(h @ w2 + b2)))
    fr_thr = min(W.get("fetch_run_threshold", thr), thr)

    ts = {}
    if a.ts:
        js = ("import {screenText} from './security.js'; import {readFileSync} from 'node:fs';"
              "const out = {}; for (const l of readFileSync(0, 'utf8').split('\\n')) { if (!l) continue;"
              " const c = JSON.parse(l); out[c.id] = screenText(c.text); } console.log(JSON.stringify(out));")
        ts = json.loads(subprocess.run(["node", "--input-type=module", "-e", js], cwd=a.ts, input=inp.encode(),
                                       capture_output=True, check=True).stdout)

    rows = []
    for c in cases:
        d = vec[c["id"]]
        pieces = d["pieces"]
        # The version shape check holds a `resource_version` that is more than a version, as a
        # rule would (--no-version-shape measures the screen without it).
        raw = bool(d["rules"]) or (bool(d.get("unusual_version")) and not a.no_version_shape)
        views = any(p["rules"] for p in pieces[1:])
        score = max((clf_score(np.array(p["vec"])) for p in pieces), default=0.0)
        r = dict(c, rules_raw=raw, rules=raw or views, score=float(score), clf=bool(score >= thr),
                 rust_cats=sorted(set(d["rules"])), pieces=len(pieces))
        r["all"] = r["rules"] or r["clf"]
        # A fetch-and-run command (`curl ... | sh`) as the only finding, left to the classifier.
        cats = set(d["rules"]) | {c for p in pieces[1:] for c in p["rules"]}
        r["fetch_run_only"] = cats == {"dangerous_command"} and any(x.search(c["text"]) for x in FETCH_RUN)
        r["rules_hold"] = r["rules"] and not r["fetch_run_only"]
        r["all_fr"] = r["rules_hold"] or r["clf"] or (r["fetch_run_only"] and score >= fr_thr)
        if a.ts:
            r["ts_cats"] = sorted(set(ts[c["id"]]))
        rows.append(r)

    inj = [r for r in rows if r["label"] == "injection"]
    ben = [r for r in rows if r["label"] == "benign"]
    out = []
    p = out.append
    p(f"cases: {len(rows)} ({len(inj)} injections, {len(ben)} benign look-alikes); classifier threshold {thr}, "
      f"for a lone fetch-and-run command {fr_thr}")
    p("")
    p("| | n | rules on raw text | rules + decoded views | classifier alone | rules + classifier | rules + classifier, fetch-and-run to the classifier |")
    p("|---|---:|---:|---:|---:|---:|---:|")
    for name, rs in (("injections caught (recall)", inj), ("look-alikes flagged (false positives)", ben)):
        p(f"| {name} | {len(rs)} | " + " | ".join(pct(sum(r[k] for r in rs), len(rs))
                                               for k in ("rules_raw", "rules", "clf", "all", "all_fr")) + " |")
    for k, what in (("all", "rules + classifier"), ("all_fr", "fetch-and-run to the classifier")):
        tp, fp = sum(r[k] for r in inj), sum(r[k] for r in ben)
        p(f"\nPrecision ({what}): {pct(tp, tp + fp)}.")
    fr = [r for r in rows if r["fetch_run_only"]]
    p(f"\nA fetch-and-run command is the rules' only finding in {len(fr)} cases: "
      f"{sum(r['label'] == 'injection' for r in fr)} injections, of which {sum(r['all_fr'] for r in fr if r['label'] == 'injection')} "
      f"score at or above the fetch-and-run bar; {sum(r['label'] == 'benign' for r in fr)} look-alikes, of which "
      f"{sum(r['all_fr'] for r in fr if r['label'] == 'benign')} do.")

    def table(title, key, subset):
        g = defaultdict(list)
        for r in subset:
            g[key(r)].append(r)
        p(f"\n### {title}\n")
        p("| group | n | rules | rules + classifier |")
        p("|---|---:|---:|---:|")
        for k in sorted(g, key=lambda k: (-len(g[k]), k)):
            rs = g[k]
            p(f"| {k} | {len(rs)} | {sum(r['rules'] for r in rs)} | {pct(sum(r['all'] for r in rs), len(rs))} |")

    def carrier_group(r):
        c = r["carrier"]
        if c.startswith("encoded") or r["encoding"] != "none":
            return "encoded (see encoding table)"
        return c

    table("Injections by language", lambda r: r["lang"], inj)
    table("Injections by carrier (where the payload sits)", carrier_group, inj)
    table("Injections by encoding", lambda r: r["encoding"], inj)
    table("Injections by goal", lambda r: r["goal"], inj)
    table("Social engineering vs not (injections)", lambda r: "social engineering" if r["social"] else "other", inj)
    table("Social engineering by kind", lambda r: r["family"], [r for r in inj if r["social"]])
    table("Look-alikes by language", lambda r: r["lang"], ben)
    table("Look-alikes by kind", lambda r: r["carrier"] if r["lang"] == "en" or r["carrier"] in ("social", "encoded") else "other-language " + r["carrier"], ben)

    p("\n### Missed injections (shipped screen)\n")
    for r in sorted((r for r in inj if not r["all"]), key=lambda r: r["score"]):
        p(f"- {r['id']} [{r['lang']}, {r['carrier']}, {r['encoding']}, {r['goal']}] score {r['score']:.3f}: "
          + json.dumps(r["text"][:110], ensure_ascii=False))
    p("\n### Flagged look-alikes (shipped screen)\n")
    for r in sorted((r for r in ben if r["all"]), key=lambda r: -r["score"]):
        why = ",".join(r["rust_cats"]) or "unusual_version" if r["rules"] else f"classifier {r['score']:.3f}"
        p(f"- {r['id']} [{r['lang']}, {r['carrier']}] {why}: " + json.dumps(r["text"][:110], ensure_ascii=False))

    if a.ts:
        same = sum(r["ts_cats"] == r["rust_cats"] for r in rows)
        flag_same = sum(bool(r["ts_cats"]) == bool(r["rust_cats"]) for r in rows)
        p(f"\n### Rust rules vs TypeScript screenText on the raw text\n")
        p(f"- same flagged/not verdict: {flag_same}/{len(rows)}; same category set: {same}/{len(rows)}")
        p(f"- TypeScript flags {sum(bool(r['ts_cats']) for r in inj)}/{len(inj)} injections and "
          f"{sum(bool(r['ts_cats']) for r in ben)}/{len(ben)} look-alikes; Rust (raw text only) "
          f"{sum(bool(r['rust_cats']) for r in inj)}/{len(inj)} and {sum(bool(r['rust_cats']) for r in ben)}/{len(ben)}")
        for r in rows:
            if r["ts_cats"] != r["rust_cats"]:
                p(f"- differ {r['id']}: rust {r['rust_cats']} ts {r['ts_cats']}")

    text = "\n".join(out)
    print(text)
    if a.report:
        with open(a.report, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if a.misses:
        with open(a.misses, "w", encoding="utf-8") as f:
            for r in rows:
                if r["all"] != (r["label"] == "injection"):
                    f.write(json.dumps({k: r[k] for k in ("id", "label", "lang", "carrier", "encoding", "score",
                                                         "rust_cats", "text")}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
