#!/usr/bin/env python3
"""Fits KnowHub's relevance calibration (docs/ranking.md §5) from `knowhub-bench features` output.

    knowhub-bench features ../shared/data/retrieval/en_cosqa ../shared/data/retrieval/zh_atec \
        ../shared/data/retrieval/zh_lcqmc --cache-dir DIR --out features.jsonl
    python3 -m venv /tmp/fit && /tmp/fit/bin/pip install numpy scipy
    /tmp/fit/bin/python bench/fit_calibration.py features.jsonl

One logistic model per regime (an English query scored by both local models; any other hit with
a vector; a hit without one), over absolute signals only: each model's cosine and the share of
the query's tokens the record holds. Weights are kept non-negative (more similar never means less
relevant). Training rows: the top 5 candidates (in fusion order) of every query, answerable and
off-topic alike, labelled by the sets' judgements. Prints the constants for
crates/knowhub-core/src/calibrate.rs and, for the two halves of the queries (fit on one, check on
the other), the AUROC of the top hit's relevance and the off-topic/answerable shares per threshold.
"""
import hashlib
import json
import math
import sys

import numpy as np
from scipy.optimize import minimize

FEATURES = {"english": ["cos_e5", "cos_m", "cov"], "multilingual": ["cos_e5", "cov"], "text": ["cov"]}
DEPTH, L2 = 5, 1e-6


def regime(c):
    if c["cos_m"] is not None:
        return "english"
    return "multilingual" if c["cos_e5"] is not None else "text"


def x(c, r):
    return [c[f] or 0.0 for f in FEATURES[r]]


def fit(rows):
    models = {}
    for r in FEATURES:
        X, y = [], []
        for q in rows:
            # The text regime is fitted on every candidate's coverage alone.
            for c in q["cands"][:DEPTH]:
                if r == "text" or regime(c) == r:
                    X.append(x(c, r))
                    y.append(1.0 if c["label"] else 0.0)
        X, y = np.array(X), np.array(y)

        def loss(p):
            z = p[0] + X @ p[1:]
            pz = 1 / (1 + np.exp(-z))
            eps = 1e-12
            g = pz - y
            val = -(y * np.log(pz + eps) + (1 - y) * np.log(1 - pz + eps)).mean() + L2 * (p[1:] @ p[1:])
            return val, np.concatenate([[g.mean()], X.T @ g / len(y) + 2 * L2 * p[1:]])

        bounds = [(None, None)] + [(0, None)] * X.shape[1]
        models[r] = minimize(loss, np.zeros(X.shape[1] + 1), jac=True, method="L-BFGS-B", bounds=bounds).x
    return models


def prob(models, c):
    r = regime(c)
    p = models[r]
    return 1 / (1 + math.exp(-(p[0] + np.dot(p[1:], x(c, r)))))


def auroc(pos, neg):
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def check(models, rows, label):
    for hub in sorted({q["hub"] for q in rows}):
        qs = [q for q in rows if q["hub"] == hub]
        top = {id(q): max([prob(models, c) for c in q["cands"][:DEPTH]] or [0.0]) for q in qs}
        pos = [top[id(q)] for q in qs if q["answerable"]]
        neg = [top[id(q)] for q in qs if not q["answerable"]]
        rel = [max(prob(models, c) for c in q["cands"][:DEPTH] if c["label"])
               for q in qs if q["answerable"] and any(c["label"] for c in q["cands"][:DEPTH])]
        line = f"{label} {hub}: AUROC {auroc(pos, neg):.4f}"
        for t in (0.003, 0.004, 0.005, 0.01, 0.02):
            off = sum(n >= t for n in neg) / len(neg)
            keep = sum(r >= t for r in rel) / len(rel)
            line += f" | t={t}: off-topic {off:.3f}, kept {keep:.3f}"
        print(line)


def main():
    rows = [json.loads(l) for l in open(sys.argv[1] if len(sys.argv) > 1 else "features.jsonl")]
    half = lambda q: int(hashlib.md5(q["qid"].encode()).hexdigest(), 16) % 2
    for h in (0, 1):
        check(fit([q for q in rows if half(q) == h]), [q for q in rows if half(q) != h], f"fit on half {h}, check on the other:")
    models = fit(rows)
    names = {"english": "LOCAL_ENGLISH", "multilingual": "LOCAL_MULTILINGUAL", "text": "TEXT_ONLY"}
    for r, p in models.items():
        w = dict(zip(FEATURES[r], p[1:]))
        print(f"{names[r]}: bias {p[0]:.4f}, primary {w.get('cos_e5', 0):.4f}, english {w.get('cos_m', 0):.4f}, "
              f"coverage {w.get('cov', 0):.4f}")
    check(models, rows, "all data:")


if __name__ == "__main__":
    main()
