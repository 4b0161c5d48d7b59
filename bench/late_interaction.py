#!/usr/bin/env python3
"""Late interaction (MaxSim over E5 token states) as an added relevance feature, held out.

    knowhub-bench experiences --features exp_late.jsonl --late
    /tmp/fit/bin/python bench/late_interaction.py exp_late.jsonl [para.jsonl]

`--late` writes, per query, the content tokens' IDF over the hub's records, and per candidate
each content token's best cosine to any token of the record's search text (`li_full`) and of its
task alone (`li_task`). This script turns those into candidate features (mean, minimum, IDF
weighted, per word), adds each to the experience regimes of bench/fit_calibration.py, and
reports the same two-fold held-out figures (experience queries split by topic group): AUROC of
the top hit answerable vs near-domain, and at the default-threshold rule what share of
near-domain questions get an answer and of answerable ones keep a relevant record in the top 5,
by language. The paraphrase rows (optional) only take part in choosing the threshold: the
question-shaped regimes are left as they are.
"""
import hashlib
import sys

import numpy as np

import fit_calibration as fc


def words(pieces, vals):
    """Mean per word: a piece starting with '▁' (or a Han character) starts a word."""
    out, cur = [], []
    for p, v in zip(pieces, vals):
        starts = p.startswith("\u2581") or any("\u4e00" <= ch <= "\u9fff" for ch in p)
        if starts and cur:
            out.append(cur)
            cur = []
        cur.append(v)
    if cur:
        out.append(cur)
    return [float(np.mean(w)) for w in out]


def derived(q, c, key):
    v = c.get(key)
    if not v:
        return {}
    v = np.array(v)
    idf = np.array(q["li_idf"]) if q.get("li_idf") else np.ones_like(v)
    w = idf / idf.sum() if idf.sum() > 0 else np.full(len(v), 1 / len(v))
    hi = v[idf >= np.median(idf)] if len(v) else v
    wv = words(q["li_piece"], v)
    wi = words(q["li_piece"], idf)
    whi = [a for a, b in zip(wv, wi) if b >= np.median(wi)]
    s = np.sort(v)
    return {
        "mean": float(v.mean()),
        "min": float(v.min()),
        "idfmean": float(w @ v),
        "min_hi": float(hi.min()),
        "min2": float(s[: min(2, len(s))].mean()),
        "wmin": float(min(wv)),
        "wmin_hi": float(min(whi)) if whi else float(min(wv)),
        # Soft minimum: IDF-weighted shortfall below 1, as a coverage deficit.
        "deficit": float(w @ (1 - v)),
    }


def with_feature(name):
    """Patch fit_calibration to add `name` ('full.min', or several joined by '+') to the
    experience regimes, as features late0, late1, ..."""
    parts = [p.split(".") for p in name.split("+")]
    keys = [f"late{i}" for i in range(len(parts))]

    def x(q, c, r):
        v = {"primary": c.get("cos_e5") or 0.0, "english": c.get("cos_m") or 0.0, "coverage": c["cov"]}
        for k, (field, agg) in zip(keys, parts):
            d = derived(q, c, "li_" + field) if r[0] == "experience" and r[1] != "text" else {}
            v[k] = d.get(agg, 0.0)
        return [v[f] for f in fc.features(r)]

    # Deficit lowers relevance; the others raise it.
    fc.FEATURES = {
        "experience": {"primary": True, "english": True, "coverage": True, **{k: None for k in keys}},
        "question": {"primary": True, "english": True, "coverage": True},
    }
    for k, (field, agg) in zip(keys, parts):
        fc.FEATURES["experience"][k] = agg != "deficit"
    fc.x = x

    def features(r):
        f = dict(FEATURES_FN(r))
        if r[1] == "text":
            for k in keys:
                f.pop(k, None)
        return f

    fc.features = features


def baseline():
    fc.FEATURES = {
        "experience": {"primary": True, "english": True, "coverage": True},
        "question": {"primary": True, "english": True, "coverage": True},
    }


def held_out(rows):
    half = lambda q: int(hashlib.md5((q["hub"] + q.get("qset", "") + (q.get("group") or q["qid"])).encode()).hexdigest(), 16) % 2
    held = [None] * len(rows)
    for h in (0, 1):
        models = fc.fit([q for q in rows if half(q) != h])
        for i, q in enumerate(rows):
            if half(q) == h:
                held[i] = [fc.prob(models, q, c) for c in q["cands"]]
    return held


def figures(rows, rel, t):
    top = [max(r[: fc.DEPTH], default=0.0) for r in rel]
    found = lambda i: any(p >= t and c["label"] for p, c in zip(rel[i][: fc.DEPTH], rows[i]["cands"][: fc.DEPTH]))
    out = {}
    for lang in ("en", "zh", "mixed", None):
        sel = [i for i, q in enumerate(rows) if q["hub"] == "experiences" and lang in (None, q.get("lang"))]
        ans = [i for i in sel if fc.kind(rows[i]) == "answerable"]
        near = [i for i in sel if fc.kind(rows[i]) == "near_domain"]
        off = [i for i in sel if fc.kind(rows[i]) == "offtopic"]
        out[lang or "all"] = (
            fc.auroc([top[i] for i in ans], [top[i] for i in near]),
            np.mean([top[i] >= t for i in near]),
            np.mean([found(i) for i in ans]),
            np.mean([top[i] >= t for i in off]) if off else float("nan"),
        )
    return out


def line(name, rows, rel, t):
    f = figures(rows, rel, t)
    cells = " | ".join(f"{a:.3f} / {n:.1%} / {k:.1%}" for a, n, k, _ in f.values())
    return f"| {name} | {t} | {cells} | {f['all'][3]:.1%} |"


def main():
    paths = [a for a in sys.argv[1:] if not a.startswith("--only=")]
    names = [n for a in sys.argv[1:] if a.startswith("--only=") for n in a[7:].split(",")]
    rows = []
    for path in paths:
        for l in open(path):
            q = fc.json.loads(l)
            q.setdefault("hub", "experiences")
            rows.append(q)
    feats = names or [f"{k}.{a}" for k in ("full", "task") for a in ("mean", "min", "idfmean", "min_hi", "min2", "wmin", "wmin_hi", "deficit")]
    print("| feature | threshold | en: AUROC / near answered / answerable top 5 | zh | mixed | all | off-topic answered |")
    print("|---|---|---|---|---|---|---|")
    baseline()
    rel = held_out(rows)
    t = fc.default_threshold(rows, rel)
    print(line("none (today)", rows, rel, t))
    base_t = t
    for name in feats:
        with_feature(name)
        rel = held_out(rows)
        t = fc.default_threshold(rows, rel)
        print(line(name, rows, rel, t), flush=True)
        if t != base_t:
            print(line(name + " @today's", rows, rel, base_t), flush=True)
        fc.features = FEATURES_FN
    if names:
        curve(rows, names)


def curve(rows, names, thresholds=(0.015, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3)):
    """Near-domain answered against answerable kept, all languages, at fixed thresholds."""
    print("\n| feature | " + " | ".join(f"t={t}: near answered / answerable top 5" for t in thresholds) + " |")
    print("|---" * (len(thresholds) + 1) + "|")
    for name in ["none (today)"] + names:
        if name.startswith("none"):
            baseline()
        else:
            with_feature(name)
        rel = held_out(rows)
        cells = []
        for t in thresholds:
            _, n, k, _ = figures(rows, rel, t)["all"]
            cells.append(f"{n:.1%} / {k:.1%}")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
        fc.features = FEATURES_FN


FEATURES_FN = fc.features

if __name__ == "__main__":
    main()

