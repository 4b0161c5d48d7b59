#!/usr/bin/env python3
"""Trains and evaluates the learned injection screen (crates/knowhub-ai/src/screen.rs).

    pip install numpy
    cargo build --release -p knowhub-ai --example injection_vectors
    python3 bench/injection_eval.py [--shared ../shared] [--write-weights] [--report PATH]

Data: testdata/injection/cases.jsonl (families of injections and benign look-alikes), and real
work text from shared/data (BEIR dev corpora, agent trajectories) plus bench/data/dedup_pairs.jsonl
(experience records): a part of it trains, the rest measures false positives. Every text goes
through the Rust example `injection_vectors` once (the same pieces, decoded views, rules and E5
vectors as the server); vectors are cached in target/injection-cache/.

Generalisation is measured by family: leave-one-family-out (the classifier never saw the family
it is tested on), and group hold-outs (every language but English, every encoding, every
structural carrier). The threshold is picked on the real training text only (the 99.8th
percentile of its scores), in every fold the same way.
"""
import argparse
import gzip
import hashlib
import json
import os
import random
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, "target", "injection-cache", "vectors.jsonl")
EXAMPLE = os.path.join(ROOT, "target", "release", "examples", "injection_vectors")
WEIGHTS = os.path.join(ROOT, "crates", "knowhub-ai", "src", "injection_screen.json")
# Share of real training text allowed above the threshold (the target on held-out real text is 0.5%).
REAL_QUANTILE = 0.998


def key(text, field):
    return hashlib.sha256(f"{field == 'content'}\0{text}".encode()).hexdigest()[:24]


def embed_all(items):
    """items: [(text, field)] -> {key: {"rules", "pieces": [{"text", "rules", "vec"}]}} (cached)."""
    cache = {}
    if os.path.exists(CACHE):
        for l in open(CACHE, encoding="utf-8"):
            try:
                d = json.loads(l)
            except ValueError:
                continue  # a line cut short by an interrupted run
            cache[d["id"]] = d
    todo = {}
    for text, field in items:
        k = key(text, field)
        if k not in cache:
            todo[k] = {"id": k, "text": text, "field": field}
    if todo:
        print(f"embedding {len(todo)} new texts ...", file=sys.stderr)
        t0 = time.time()
        os.makedirs(os.path.dirname(CACHE), exist_ok=True)
        inp = CACHE + ".todo"
        with open(inp, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(v, ensure_ascii=False) + "\n" for v in todo.values())
        # Straight into the cache, line by line: an interrupted run keeps what it embedded.
        with open(inp, "rb") as src, open(CACHE, "ab") as dst:
            subprocess.run([EXAMPLE], stdin=src, stdout=dst, check=True)
        cache = {}
        for l in open(CACHE, encoding="utf-8"):
            d = json.loads(l)
            cache[d["id"]] = d
        print(f"  {time.time() - t0:.0f} s", file=sys.stderr)
    return cache


def real_sources(shared, rng, n):
    """Real work text, n per source (a record field each: one question, function, message);
    the experience records of bench/data/dedup_pairs.jsonl whole."""
    src = {}
    for name in ["zh_atec", "zh_lcqmc"]:
        p = os.path.join(shared, f"data/retrieval/{name}/corpus.jsonl")
        rows = [json.loads(l)["text"] for l in open(p, encoding="utf-8")]
        src[name] = [(t, "task") for t in rng.sample(rows, min(n, len(rows)))]
    p = os.path.join(shared, "data/retrieval/en_cosqa/beir/corpus.jsonl")
    rows = [json.loads(l)["text"][:1200] for l in open(p, encoding="utf-8")]
    src["en_cosqa"] = [(t, "content") for t in rng.sample(rows, min(n, len(rows)))]
    traj = os.path.join(shared, "data/trajectories/mini_swe_agent")
    msgs = [(json.loads(l)["task_statement"], "content") for l in open(os.path.join(traj, "index.jsonl"))]
    for f in sorted(os.listdir(traj)):
        if f.endswith(".traj.json.gz"):
            for m in json.load(gzip.open(os.path.join(traj, f), "rt", encoding="utf-8")).get("messages", []):
                c = m.get("content")
                if m.get("role") in ("assistant", "tool") and isinstance(c, str) and len(c.strip()) > 20:
                    msgs.append((c[:1200], "content"))
    src["mini_swe_agent"] = rng.sample(msgs, min(n, len(msgs)))
    cc = os.path.join(shared, "data/trajectories/claude_code")
    msgs = []
    for f in sorted(os.listdir(cc)):
        if f.endswith(".jsonl.gz"):
            for l in gzip.open(os.path.join(cc, f), "rt", encoding="utf-8"):
                d = json.loads(l)
                content = d.get("message", {}).get("content") if isinstance(d.get("message"), dict) else None
                for b in content if isinstance(content, list) else []:
                    if not isinstance(b, dict):
                        continue
                    t = b.get("text") if b.get("type") == "text" else b.get("content") if b.get("type") == "tool_result" else None
                    if isinstance(t, list):
                        t = " ".join(x.get("text", "") for x in t if isinstance(x, dict))
                    if isinstance(t, str) and len(t.strip()) > 20:
                        msgs.append((t[:1200], "content"))
    src["claude_code"] = rng.sample(msgs, min(n, len(msgs)))
    exp = []
    for l in open(os.path.join(ROOT, "bench/data/dedup_pairs.jsonl"), encoding="utf-8"):
        d = json.loads(l)
        for side in ("a", "b"):
            for fld in ("task", "resource", "result"):
                exp.append((d[side][fld], fld))
    src["experiences"] = exp
    # The experience dev set (bench/data/experiences): what the hub stores, measured only.
    dev = []
    for l in open(os.path.join(ROOT, "bench/data/experiences/records.jsonl"), encoding="utf-8"):
        d = json.loads(l)
        dev += [(d[f], f) for f in ("task", "resource", "result") if d.get(f)]
        if d.get("resource_version"):
            dev.append((d["resource_version"], "resource_version"))
    src["experience_set"] = dev
    return src


# ---- models -------------------------------------------------------------------------------

def sigmoid(z):
    return 1 / (1 + np.exp(-np.clip(z, -40, 40)))


def train(X, y, w, hidden=0, epochs=400, lr=0.05, l2=1e-3, seed=0):
    """Weighted logistic regression (hidden=0) or one ReLU layer, full-batch Adam."""
    rs = np.random.RandomState(seed)
    d = X.shape[1]
    P = {"w2": np.zeros(d if hidden == 0 else hidden), "b2": np.zeros(1)}
    if hidden:
        P["w1"] = rs.randn(hidden, d) * np.sqrt(2 / d)
        P["b1"] = np.zeros(hidden)
        P["w2"] = rs.randn(hidden) * np.sqrt(1 / hidden)
    m = {k: np.zeros_like(v) for k, v in P.items()}
    v2 = {k: np.zeros_like(v) for k, v in P.items()}
    w = w / w.sum()
    for t in range(1, epochs + 1):
        if hidden:
            H = np.maximum(X @ P["w1"].T + P["b1"], 0)
            p = sigmoid(H @ P["w2"] + P["b2"])
        else:
            p = sigmoid(X @ P["w2"] + P["b2"])
        g = (p - y) * w
        G = {"b2": np.array([g.sum()])}
        if hidden:
            G["w2"] = H.T @ g + l2 * P["w2"]
            gH = np.outer(g, P["w2"]) * (H > 0)
            G["w1"] = gH.T @ X + l2 * P["w1"]
            G["b1"] = gH.sum(0)
        else:
            G["w2"] = X.T @ g + l2 * P["w2"]
        for k in P:
            m[k] = 0.9 * m[k] + 0.1 * G[k]
            v2[k] = 0.999 * v2[k] + 0.001 * G[k] ** 2
            P[k] -= lr * (m[k] / (1 - 0.9**t)) / (np.sqrt(v2[k] / (1 - 0.999**t)) + 1e-8)
    return P


def predict(P, X):
    if "w1" in P:
        return sigmoid(np.maximum(X @ P["w1"].T + P["b1"], 0) @ P["w2"] + P["b2"])
    return sigmoid(X @ P["w2"] + P["b2"])


# ---- data assembly ------------------------------------------------------------------------

class Unit:
    """One screened text: its label, family, the rules' verdicts and its pieces' vectors."""

    def __init__(self, label, family, field, d):
        self.label, self.family, self.field = label, family, field
        self.rules_raw = bool(d["rules"]) and field != "resource_version"  # submit never screened it
        self.rules_views = any(p["rules"] for p in d["pieces"][1:]) if d["pieces"] else False
        self.vecs = np.array([p["vec"] for p in d["pieces"]], dtype=np.float32).reshape(-1, 384)


def training_rows(units):
    """Pieces as rows. An injection's raw encoded text is not a positive (only its decoding is)."""
    X, y, w = [], [], []
    for u in units:
        if len(u.vecs) == 0:
            continue
        if u.label == "injection":
            enc = u.family.startswith("encoding_")
            rows = u.vecs[1:] if enc and len(u.vecs) > 1 else u.vecs[:1] if enc else u.vecs
            for r in rows:
                X.append(r), y.append(1.0), w.append(1.0)
        else:
            for r in u.vecs:
                X.append(r), y.append(0.0), w.append(1.0)
    return np.array(X), np.array(y), np.array(w)


def unit_scores(P, units):
    return np.array([predict(P, u.vecs).max() if len(u.vecs) else 0.0 for u in units])


def fit(units, real_train, hidden):
    X, y, w = training_rows(units + real_train)
    pos = y.sum()
    w = np.where(y == 1, (len(y) - pos) / max(pos, 1), 1.0)  # balance the classes
    P = train(X, y, w, hidden=hidden, lr=0.01 if hidden else 0.05)
    thr = float(np.quantile(unit_scores(P, real_train), REAL_QUANTILE))
    return P, max(thr, 0.5)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default="../shared")
    ap.add_argument("--real", type=int, default=1200, help="texts per real source")
    ap.add_argument("--hidden", type=int, default=0, help="0: logistic regression; else MLP width")
    ap.add_argument("--compare", action="store_true", help="also cross-validate an MLP")
    ap.add_argument("--write-weights", action="store_true")
    ap.add_argument("--report", default=None)
    a = ap.parse_args()
    rng = random.Random(34)

    cases = [json.loads(l) for l in open(os.path.join(ROOT, "testdata/injection/cases.jsonl"), encoding="utf-8")]
    held = [json.loads(l) for l in open(os.path.join(ROOT, "testdata/injection/heldout.jsonl"), encoding="utf-8")]
    real = real_sources(a.shared, rng, a.real)
    corpus_texts = {c["text"] for c in cases}
    items = [(c["text"], c["field"]) for c in cases + held]
    for v in real.values():
        items += [t for t in v if t[0] not in corpus_texts]
    cache = embed_all(items)

    def unit(label, fam, text, field):
        return Unit(label, fam, field, cache[key(text, field)])

    U = [unit(c["label"], c["family"], c["text"], c["field"]) for c in cases]
    H = [unit(c["label"], "heldout", c["text"], c["field"]) for c in held]
    real_train, real_test = [], {}
    for name, texts in real.items():
        us = [unit("benign", "real_" + name, t, f) for t, f in texts if t not in corpus_texts]
        # A quarter of each source trains (half of the experience records: they are what the
        # hub stores, short fields included); the rest measures only. Experience records come
        # in pairs of six fields, so the cut keeps each pair on one side.
        cut = len(us) // 2 // 6 * 6 if name == "experiences" else 0 if name == "experience_set" else len(us) // 4
        real_train += us[:cut]
        real_test[name] = us[cut:]

    out = []
    p = out.append
    families = sorted({u.family for u in U})
    inj_f = [f for f in families if any(u.family == f and u.label == "injection" for u in U)]
    p(f"Corpus: {len(U)} cases ({sum(u.label == 'injection' for u in U)} injections) in {len(families)} families; "
      f"real text: {len(real_train)} to train, {sum(len(v) for v in real_test.values())} to measure.\n")

    def cv(hidden, groups):
        """scores per unit of U with each group of families held out of training."""
        s = np.zeros(len(U))
        flagged = np.zeros(len(U), dtype=bool)
        thrs = []
        for g in groups:
            tr = [u for u in U if u.family not in g]
            P, thr = fit(tr, real_train, hidden)
            thrs.append(thr)
            for i, u in enumerate(U):
                if u.family in g:
                    s[i] = unit_scores(P, [u])[0]
                    flagged[i] = s[i] >= thr
        return s, flagged, thrs

    def rules(u):
        return u.rules_raw

    def rules_dec(u):
        return u.rules_raw or u.rules_views

    def table(title, flagged_clf):
        p(f"\n### {title}\n")
        p("| family | kind | n | rules | rules + decoded | rules + decoded + classifier |")
        p("|---|---|---:|---:|---:|---:|")
        tot = {}
        for f in families:
            idx = [i for i, u in enumerate(U) if u.family == f]
            kind = U[idx[0]].label
            r = sum(rules(U[i]) for i in idx)
            rd = sum(rules_dec(U[i]) for i in idx)
            rc = sum(rules_dec(U[i]) or flagged_clf[i] for i in idx)
            p(f"| {f} | {kind} | {len(idx)} | {r} | {rd} | {rc} |")
            t = tot.setdefault(kind, [0, 0, 0, 0])
            for j, x in enumerate([len(idx), r, rd, rc]):
                t[j] += x
        ni, nb = tot["injection"][0], tot["benign"][0]
        p("")
        p("| | rules | rules + decoded | rules + decoded + classifier |")
        p("|---|---:|---:|---:|")
        p("| recall (injections caught) | " + " | ".join(f"{tot['injection'][j] / ni:.1%}" for j in (1, 2, 3)) + " |")
        p("| false positives (corpus look-alikes) | " + " | ".join(f"{tot['benign'][j] / nb:.1%}" for j in (1, 2, 3)) + " |")
        p("| precision | " + " | ".join(
            f"{tot['injection'][j] / max(tot['injection'][j] + tot['benign'][j], 1):.1%}" for j in (1, 2, 3)) + " |")
        return tot

    t0 = time.time()
    lofo = [[f] for f in families]
    s, fl, thrs = cv(a.hidden, lofo)
    p(f"Model: {'logistic regression' if a.hidden == 0 else f'MLP, {a.hidden} hidden'} on the E5 passage vector; "
      f"per-fold thresholds {min(thrs):.3f}..{max(thrs):.3f}.")
    table("Leave one family out (each family scored by a model that never saw it)", fl)
    groups = {
        "every non-English language (lang_*)": [f for f in families if f.startswith("lang_")],
        "every encoding (encoding_*)": [f for f in families if f.startswith("encoding_")],
        "every structural carrier": ["tool_call_json", "tool_call_xml", "yaml_front_matter", "html_comment",
                                     "code_block_system", "field_resource", "field_version"],
        "every social family (social_admin, future_agents, persona)": ["social_admin", "future_agents", "persona"],
    }
    p("\n### Group hold-outs (all families of a group left out at once)\n")
    p("| held out | injections | rules + decoded | + classifier |")
    p("|---|---:|---:|---:|")
    for name, g in groups.items():
        _, flg, _ = cv(a.hidden, [g])
        idx = [i for i, u in enumerate(U) if u.family in g and u.label == "injection"]
        rd = sum(rules_dec(U[i]) for i in idx)
        rc = sum(rules_dec(U[i]) or flg[i] for i in idx)
        p(f"| {name} | {len(idx)} | {rd / len(idx):.1%} | {rc / len(idx):.1%} |")
    if a.compare:
        # Ten folds of whole families (a full leave-one-out of the MLP is slow here).
        fams = families[:]
        random.Random(7).shuffle(fams)
        folds = [fams[i::10] for i in range(10)]
        inj = [i for i, u in enumerate(U) if u.label == "injection"]
        ben = [i for i, u in enumerate(U) if u.label == "benign"]
        p("\n### Logistic regression vs MLP, ten folds of whole families, classifier alone\n")
        p("| model | recall | false positives (corpus) | real-text FP (shipped fit) |")
        p("|---|---:|---:|---:|")
        for name, h in [("logistic regression", 0), ("MLP, 32 hidden", 32)]:
            _, f_, _ = cv(h, folds)
            P_, t_ = fit(U, real_train, h)
            rt = [u for us in real_test.values() for u in us]
            fp = float((unit_scores(P_, rt) >= t_).mean())
            p(f"| {name} | {f_[inj].mean():.1%} | {f_[ben].mean():.1%} | {fp:.2%} |")

    # The shipped model: every family, the real training text.
    P, thr = fit(U, real_train, a.hidden)
    p(f"\n### Shipped model (trained on every family), threshold {thr:.3f}\n")
    p("False positives on real text it never trained on (a text is one record field; "
      "flagged = rules + decoded + classifier; rules = the rules alone):\n")
    p("| source | texts | rules | classifier | all together |")
    p("|---|---:|---:|---:|---:|")
    allr = alln = 0
    for name, us in real_test.items():
        sc = unit_scores(P, us)
        r = sum(rules(u) for u in us)
        c = int((sc >= thr).sum())
        both = sum(rules_dec(u) or s_ >= thr for u, s_ in zip(us, sc))
        allr += both
        alln += len(us)
        p(f"| {name} | {len(us)} | {r} ({r / len(us):.2%}) | {c} ({c / len(us):.2%}) | {both} ({both / len(us):.2%}) |")
    p(f"| **all** | {alln} | | | {allr} ({allr / alln:.2%}) |")
    hs = unit_scores(P, H)
    p("\nHeld-out cases (testdata/injection/heldout.jsonl, never trained on; the Rust test uses them):\n")
    p("| label | n | rules | rules + decoded + classifier |")
    p("|---|---:|---:|---:|")
    for lab in ("injection", "benign"):
        idx = [i for i, u in enumerate(H) if u.label == lab]
        p(f"| {lab} | {len(idx)} | {sum(rules(H[i]) for i in idx)} | "
          f"{sum(rules_dec(H[i]) or hs[i] >= thr for i in idx)} |")
    worst = sorted(((sc, u) for us in real_test.values() for u, sc in zip(us, unit_scores(P, us))), key=lambda x: -x[0])[:0]
    del worst
    p(f"\n(evaluation took {time.time() - t0:.0f} s)")
    text = "\n".join(out)
    print(text)
    if a.report:
        with open(a.report, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if a.write_weights:
        w = {"model": "multilingual-e5-small passage vector, unit length", "dim": 384, "hidden": a.hidden,
             "w2": [round(float(x), 6) for x in P["w2"]], "b2": round(float(P["b2"][0]), 6),
             "threshold": round(thr, 4)}
        if a.hidden:
            w["w1"] = [round(float(x), 6) for x in P["w1"].ravel()]
            w["b1"] = [round(float(x), 6) for x in P["b1"]]
        with open(WEIGHTS, "w") as f:
            json.dump(w, f)
        print(f"wrote {WEIGHTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
