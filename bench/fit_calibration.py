#!/usr/bin/env python3
"""Fits KnowHub's relevance calibration (docs/ranking.md §5) on both kinds of data together:
the question-paraphrase sets and the experience dev set.

    DATA=../shared/data/retrieval
    knowhub-bench features $DATA/en_cosqa/beir $DATA/zh_atec $DATA/zh_lcqmc --cache-dir DIR --depth 10 --out para.jsonl
    knowhub-bench experiences --features exp.jsonl
    python3 -m venv /tmp/fit && /tmp/fit/bin/pip install numpy scipy
    /tmp/fit/bin/python bench/fit_calibration.py para.jsonl exp.jsonl

One logistic model per regime: the record's shape (an experience, which has a result, or
question-shaped text with a task only, as the paraphrase sets are loaded) times the vectors that
scored it (an English query scored by both local models; any other hit with a vector; a hit
without one). A short question's cosine to an experience (task + resource + result) runs on
another scale than to a one-line paraphrase, so each shape is fitted on its own data. Signals
mean the same in every query, hub and `top_k`: each model's cosine and the share of the query's
tokens the record holds, weights kept non-negative (more similar never means less relevant).
Rows: the top 5 candidates (fusion order) of every query, answerable, near-domain and off-topic
alike, labelled by the judgements; each hub weighs the same in total.

Prints, from two-fold cross-validation (fit on one half, predict the other; experience queries
split by topic group, so a group's queries are never seen in fitting): the reliability and
expected calibration error on the experience set, AUROC of the top hit (answerable against
near-domain, and against off-topic, per set and language), and what each threshold keeps and
lets through; then the default threshold (the highest on a 0.005 grid at which every set keeps
97.5% of the relevant hits its top 5 holds) and the constants fitted on all the data, for
crates/knowhub-core/src/calibrate.rs.
"""
import hashlib
import json
import math
import sys

import numpy as np
from scipy.optimize import minimize

DEPTH, KEEP = 5, 0.975
MODELS = ("english", "multilingual", "text")
SHAPES = ("experience", "question")
REGIMES = [(s, m) for s in SHAPES for m in MODELS]
NAMES = {"english": "ENGLISH", "multilingual": "MULTILINGUAL", "text": "TEXT_ONLY"}
# Per shape: feature name -> constrained to be >= 0 (similarities) or free (the script gap,
# which sets the scale the cosines run on rather than saying how similar); and the L2 penalty.
# Question-shaped text has no script gap: the paraphrase sets hold no cross-lingual answer, only
# cross-lingual off-topic queries, so a fitted weight there would learn "another language is
# off-topic" and bury a real cross-lingual answer.
FEATURES = {
    "experience": {"primary": True, "english": True, "coverage": True, "script_gap": False},
    "question": {"primary": True, "english": True, "coverage": True},
}
L2 = {"experience": 1e-3, "question": 1e-6}


def shape(c):
    return "experience" if c.get("experience") else "question"


def model(c):
    if c.get("cos_m") is not None:
        return "english"
    return "multilingual" if c.get("cos_e5") is not None else "text"


def regime(c):
    return (shape(c), model(c))


def features(r):
    s, m = r
    drop = {"multilingual": {"english"}, "text": {"primary", "english", "script_gap"}, "english": set()}[m]
    return {f: nonneg for f, nonneg in FEATURES[s].items() if f not in drop}


def x(q, c, r):
    v = {
        "primary": c.get("cos_e5") or 0.0,
        "english": c.get("cos_m") or 0.0,
        "coverage": c["cov"],
        "script_gap": c.get("gap") or 0.0,
    }
    return [v[f] for f in features(r)]


def kind(q):
    return q.get("kind") or ("answerable" if q["answerable"] else "offtopic")


def fit(qs):
    """Constants per regime, on the raw features: {regime: (bias, weights)}."""
    per_hub = {}
    for q in qs:
        per_hub[q["hub"]] = per_hub.get(q["hub"], 0) + 1
    models = {}
    for r in REGIMES:
        X, y, w = [], [], []
        for q in qs:
            for c in q["cands"][:DEPTH]:
                # A text regime is fitted on every candidate of its shape (the vector ignored).
                if regime(c) == r or (r[1] == "text" and shape(c) == r[0]):
                    X.append(x(q, c, r))
                    y.append(1.0 if c["label"] else 0.0)
                    w.append(1.0 / per_hub[q["hub"]])
        if not X:
            continue
        X, y, w = np.array(X), np.array(y), np.array(w)
        w /= w.mean()
        mu, sd = X.mean(0), X.std(0) + 1e-9
        Z = (X - mu) / sd

        def loss(p):
            pz = 1 / (1 + np.exp(-(p[0] + Z @ p[1:])))
            g = (pz - y) * w
            l2 = L2[r[0]]
            val = -(w * (y * np.log(pz + 1e-12) + (1 - y) * np.log(1 - pz + 1e-12))).mean() + l2 * (p[1:] @ p[1:])
            return val, np.concatenate([[g.mean()], Z.T @ g / len(y) + 2 * l2 * p[1:]])

        bounds = [(None, None)] + [(0, None) if nonneg else (None, None) for nonneg in features(r).values()]
        p = minimize(loss, np.zeros(Z.shape[1] + 1), jac=True, method="L-BFGS-B", bounds=bounds).x
        weights = p[1:] / sd
        models[r] = (p[0] - weights @ mu, weights)
    return models


def prob(models, q, c):
    bias, w = models[regime(c)]
    return 1 / (1 + math.exp(-(bias + w @ np.array(x(q, c, regime(c))))))


def auroc(pos, neg):
    if not pos or not neg:
        return float("nan")
    pos, neg = np.sort(pos), np.array(neg)
    wins = sum(np.searchsorted(pos, n, side="right") for n in neg)
    ties = sum(np.searchsorted(pos, n, side="right") - np.searchsorted(pos, n, side="left") for n in neg)
    return 1 - (wins - 0.5 * ties) / (len(pos) * len(neg))


def ece(points):
    bins = [[0, 0.0, 0] for _ in range(10)]
    for r, ok in points:
        b = bins[min(int(r * 10), 9)]
        b[0], b[1], b[2] = b[0] + 1, b[1] + r, b[2] + ok
    n = max(1, len(points))
    return sum(c / n * abs(s / c - g / c) for c, s, g in bins if c), bins


def report(rows, rel):
    """`rel[i]`: the relevance of each candidate of rows[i]."""
    top = [max(r[:DEPTH], default=0.0) for r in rel]

    def found(i, t):
        return any(p >= t and c["label"] for p, c in zip(rel[i][:DEPTH], rows[i]["cands"][:DEPTH]))

    exp = [i for i, q in enumerate(rows) if q["hub"] == "experiences"]
    if exp:
        e, bins = ece([(p, c["label"]) for i in exp for p, c in zip(rel[i][:DEPTH], rows[i]["cands"][:DEPTH])])
        print(f"experience set, every hit of the top 5: ECE {e:.3f}")
        print("| relevance | hits | mean relevance | share relevant |\n|---|---|---|---|")
        for b, (c, s, g) in enumerate(bins):
            if c:
                print(f"| {b / 10:.1f}-{(b + 1) / 10:.1f} | {c} | {s / c:.3f} | {g / c:.3f} |")
        for lang in ("en", "zh", "mixed", None):
            sel = [i for i in exp if lang in (None, rows[i].get("lang"))]
            pos = [top[i] for i in sel if kind(rows[i]) == "answerable"]
            near = [top[i] for i in sel if kind(rows[i]) == "near_domain"]
            off = [top[i] for i in sel if kind(rows[i]) == "offtopic"]
            print(f"  {lang or 'all'}: AUROC answerable vs near-domain {auroc(pos, near):.3f}, vs off-topic {auroc(pos, off):.3f}")
        right = []
        for i in exp:
            if kind(rows[i]) == "answerable" and rel[i]:
                j = int(np.argmax(rel[i][:DEPTH]))
                if rows[i]["cands"][j]["label"]:
                    right.append(rel[i][j])
        print(f"  correct top answers: median relevance {np.median(right):.3f}, {np.mean([r >= 0.5 for r in right]):.1%} read >= 0.5")
    for h in sorted({q["hub"] for q in rows} - {"experiences"}):
        sel = [i for i, q in enumerate(rows) if q["hub"] == h]
        pos = [top[i] for i in sel if rows[i]["answerable"]]
        neg = [top[i] for i in sel if not rows[i]["answerable"]]
        e, bins = ece([(p, c["label"]) for i in sel for p, c in zip(rel[i][:DEPTH], rows[i]["cands"][:DEPTH])])
        cells = " ".join(f"{b / 10:.1f}:{c}/{g / c:.2f}" for b, (c, s, g) in enumerate(bins) if c)
        print(f"  {h}: AUROC answerable vs off-topic {auroc(pos, neg):.4f}; every hit of the top 5: ECE {e:.3f}")
        print(f"    reliability (bin: hits/share relevant): {cells}")
    hubs = sorted({q["hub"] for q in rows})
    print("| threshold | " + " | ".join(f"{h}: answer kept / off-topic answered" for h in hubs) + " | experiences: near-domain answered |")
    print("|---" * (len(hubs) + 2) + "|")
    for t in (0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2):
        cells = []
        for h in hubs:
            sel = [i for i, q in enumerate(rows) if q["hub"] == h]
            ans = [i for i in sel if kind(rows[i]) == "answerable"]
            off = [i for i in sel if kind(rows[i]) == "offtopic"]
            cells.append(f"{np.mean([found(i, t) for i in ans]):.3f} / {np.mean([top[i] >= t for i in off]):.3f}")
        near = [top[i] >= t for i, q in enumerate(rows) if kind(q) == "near_domain"]
        print(f"| {t} | " + " | ".join(cells) + f" | {np.mean(near) if near else float('nan'):.3f} |")


def default_threshold(rows, rel):
    """The highest threshold (0.005 grid) at which every set keeps KEEP of the relevant hits its
    top 5 holds: silence that costs almost no answers; relevance tells the agent the rest."""
    best = 0.0
    for k in range(1, 200):
        t = k * 0.005
        ok = True
        for h in {q["hub"] for q in rows}:
            sel = [i for i, q in enumerate(rows) if q["hub"] == h and kind(q) == "answerable"]
            have = sum(c["label"] for i in sel for c in rows[i]["cands"][:DEPTH])
            kept = sum(c["label"] and p >= t for i in sel for p, c in zip(rel[i][:DEPTH], rows[i]["cands"][:DEPTH]))
            ok &= have == 0 or kept / have >= KEEP
        if not ok:
            break
        best = t
    return round(best, 3)


def main():
    rows = []
    for path in sys.argv[1:] or ["features.jsonl"]:
        for line in open(path):
            q = json.loads(line)
            q.setdefault("hub", "experiences")
            rows.append(q)
    # Experience queries are held out by topic group (a whole group's records and queries at
    # once), the paraphrase sets by query.
    half = lambda q: int(hashlib.md5((q["hub"] + q.get("qset", "") + (q.get("group") or q["qid"])).encode()).hexdigest(), 16) % 2
    held = [None] * len(rows)
    for h in (0, 1):
        models = fit([q for q in rows if half(q) != h])
        for i, q in enumerate(rows):
            if half(q) == h:
                held[i] = [prob(models, q, c) for c in q["cands"]]
    print("## Held out (two folds: experience topic groups, paraphrase queries)\n")
    report(rows, held)
    print(f"\ndefault min_relevance (held out): {default_threshold(rows, held)}")
    models = fit(rows)
    print("\n## Constants (fitted on all the data)\n")
    for r in REGIMES:
        if r not in models:
            continue
        bias, w = models[r]
        named = dict(zip(features(r), w))
        fields = ", ".join(f"{f}: {named.get(f, 0.0):.4f}" for f in ("primary", "english", "coverage", "script_gap"))
        print(f"pub const {r[0].upper()}_{NAMES[r[1]]}: Logistic = Logistic {{ bias: {bias:.4f}, {fields} }};")
    every = [[prob(models, q, c) for c in q["cands"]] for q in rows]
    print(f"default min_relevance (all data): {default_threshold(rows, every)}")


if __name__ == "__main__":
    main()
