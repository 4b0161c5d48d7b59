#!/usr/bin/env python3
"""Trains and evaluates the learned injection screen (crates/knowhub-ai/src/screen.rs).

    pip install numpy
    cargo build --release -p knowhub-ai --example injection_vectors
    python3 bench/injection_eval.py [--shared ../shared] [--write-weights] [--report PATH]

Data: testdata/injection/cases.jsonl (families of injections and benign look-alikes), the sets
written apart from it (TRAIN_SETS: six sets of injections and look-alikes, without marked
payloads, so a long one is taught by its likeliest piece; each set is held out whole in
cross-validation, which measures how the screen carries over to another author), and real
work text from shared/data (BEIR dev corpora, agent trajectories) plus bench/data/dedup_pairs.jsonl
(experience records), split by session or document: half of each source's sessions train, the
other half (and the experience dev set) measure false positives. Every text goes
through the Rust example `injection_vectors` once (the same pieces, decoded views, rules and E5
vectors as the server); vectors are cached in target/injection-cache/.

Generalisation is measured by family: leave-one-family-out (the classifier never saw the family
it is tested on), and group hold-outs (every language but English, every encoding, every
structural carrier). The threshold is picked on the real training text only (the --quantile
percentile of its scores), in every fold the same way. Recipes (RECIPES) are trained and
measured side by side on the same split: the one the screen first shipped with, the current one
("after", whose model --write-weights writes), and "after_cal", which takes the threshold on real
training sessions held back from the fit.
"""
import argparse
import gzip
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, "target", "injection-cache", "vectors.jsonl")
EXAMPLE = os.environ.get("INJECTION_VECTORS", os.path.join(ROOT, "target", "release", "examples", "injection_vectors"))
WEIGHTS = os.path.join(ROOT, "crates", "knowhub-ai", "src", "injection_screen.json")
# Sets written apart from the corpus (and from each other) that the shipped model trains on; each
# is one fold in cross-validation. testdata/injection/blind7 is not among them: it measures.
TRAIN_SETS = ("testdata/injection/blind/blind.jsonl", "testdata/injection/blind2/blind2.jsonl",
              "testdata/injection/blind3/blind3.jsonl", "testdata/injection/blind4/blind4.jsonl",
              "testdata/injection/blind5/blind5.jsonl", "testdata/injection/blind6/blind6.jsonl")
# Share of real training text allowed above the threshold (the target on held-out real text is 0.5%):
# the shipped weights take the 99.5th percentile of each source's distinct texts (the first ones, and
# the "before" recipe, the 99.8th: --quantile 0.998).
REAL_QUANTILE = 0.995


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
    """Real work text: name -> [(text, field, group)], a text being one record field (a question,
    a function, a message) and its group the document or session it comes from, so that a
    session is either trained on or measured, never both. n documents per retrieval corpus;
    every message of the trajectories; the experience records of bench/data/dedup_pairs.jsonl
    whole (a pair is a group); the experience dev set, measured only."""
    src = {}
    for name in ["zh_atec", "zh_lcqmc"]:
        p = os.path.join(shared, f"data/retrieval/{name}/corpus.jsonl")
        rows = [json.loads(l)["text"] for l in open(p, encoding="utf-8")]
        src[name] = [(t, "task", f"doc{i}") for i, t in enumerate(rng.sample(rows, min(n, len(rows))))]
    p = os.path.join(shared, "data/retrieval/en_cosqa/beir/corpus.jsonl")
    rows = [json.loads(l)["text"][:1200] for l in open(p, encoding="utf-8")]
    src["en_cosqa"] = [(t, "content", f"doc{i}") for i, t in enumerate(rng.sample(rows, min(n, len(rows))))]
    traj = os.path.join(shared, "data/trajectories/mini_swe_agent")
    msgs = [(json.loads(l)["task_statement"], "content", json.loads(l)["instance_id"] + ".traj.json.gz")
            for l in open(os.path.join(traj, "index.jsonl"))]
    for f in sorted(os.listdir(traj)):
        if f.endswith(".traj.json.gz"):
            for m in json.load(gzip.open(os.path.join(traj, f), "rt", encoding="utf-8")).get("messages", []):
                c = m.get("content")
                if m.get("role") in ("assistant", "tool") and isinstance(c, str) and len(c.strip()) > 20:
                    msgs.append((c[:1200], "content", f))
    src["mini_swe_agent"] = msgs
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
                        msgs.append((t[:1200], "content", f))
    src["claude_code"] = msgs
    exp = []
    for i, l in enumerate(open(os.path.join(ROOT, "bench/data/dedup_pairs.jsonl"), encoding="utf-8")):
        d = json.loads(l)
        for side in ("a", "b"):
            for fld in ("task", "resource", "result"):
                exp.append((d[side][fld], fld, f"pair{i}"))
    src["experiences"] = exp
    # The experience dev set (bench/data/experiences): what the hub stores, measured only.
    dev = []
    for l in open(os.path.join(ROOT, "bench/data/experiences/records.jsonl"), encoding="utf-8"):
        d = json.loads(l)
        dev += [(d[f], f, "dev") for f in ("task", "resource", "result") if d.get(f)]
        if d.get("resource_version"):
            dev.append((d["resource_version"], "resource_version", "dev"))
    src["experience_set"] = dev
    return src


LONG_SOURCES = ("en_cosqa", "mini_swe_agent")


def split_groups(name, groups):
    """The groups (sessions, documents, pairs) of a source that train; the rest measure. Groups
    sorted by size go alternately to measuring and training, so both sides get about half of a
    source's text even when sessions differ in length; the experience dev set is measured only."""
    if name == "experience_set":
        return set()
    size = {}
    for g in groups:
        size[g] = size.get(g, 0) + 1
    order = sorted(size, key=lambda g: (-size[g], hashlib.sha256(g.encode()).hexdigest()))
    return set(order[1::2])


# ---- models -------------------------------------------------------------------------------

def sigmoid(z):
    return 1 / (1 + np.exp(-np.clip(z, -40, 40)))


def train(X, y, w, hidden=0, epochs=400, lr=0.05, l2=1e-3, seed=0):
    """Weighted logistic regression (hidden=0) or one ReLU layer, full-batch Adam."""
    rs = np.random.RandomState(seed)
    X, y, w = X.astype(np.float32), y.astype(np.float32), w.astype(np.float32)
    d = X.shape[1]
    P = {"w2": np.zeros(d if hidden == 0 else hidden, dtype=np.float32), "b2": np.zeros(1, dtype=np.float32)}
    if hidden:
        P["w1"] = (rs.randn(hidden, d) * np.sqrt(2 / d)).astype(np.float32)
        P["b1"] = np.zeros(hidden, dtype=np.float32)
        P["w2"] = (rs.randn(hidden) * np.sqrt(1 / hidden)).astype(np.float32)
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

    def __init__(self, label, family, field, d, source=None, payload=None):
        self.label, self.family, self.field, self.source = label, family, field, source
        self.texts = [p["text"] for p in d["pieces"]]
        self.payload = payload
        # Set by `load` for the extra training sets (no marked payload), and by `fit`.
        self.mil, self.pos, self.fold, self.group = False, None, family, ""
        cats = set(d["rules"]) | {c for p in d["pieces"][1:] for c in p["rules"]}
        self.fetch_run_only = cats == {"dangerous_command"} and any(r.search(self.texts[0] if self.texts else "")
                                                                    for r in FETCH_RUN)
        self.rules_raw = bool(d["rules"]) and field != "resource_version"  # submit never screened it
        self.rules_views = any(p["rules"] for p in d["pieces"][1:]) if d["pieces"] else False
        self.vecs = np.array([p["vec"] for p in d["pieces"]], dtype=np.float32).reshape(-1, 384)


# How a model is trained and its threshold picked. "before" is the recipe the screen first shipped
# with: a corpus without the agent-work look-alikes, 150 real texts per source, an L2 penalty of
# 1e-3, one threshold at the 99.8th percentile of all real training text. "after" adds the
# agent-work look-alikes, trains on all of the real training text (a few thousand texts: with
# the old penalty more real text cost recall) with a penalty of 1e-4 (3e-5 scored a little
# better on the measured real text but flagged a held-out look-alike), and takes the highest of
# the per-source 99.8th percentiles, so that no source sits above the target while the larger
# ones pull a pooled percentile down.
RECIPES = {
    "before": {"extra_families": False, "real_per_source": 150, "l2": 1e-3, "per_source": False},
    "after": {"extra_families": True, "real_per_source": None, "l2": 1e-4, "per_source": True},
    # "after" with the threshold taken on a quarter of the real training sessions held back from
    # the fit: for a model that can fit its training text closely (an MLP).
    "after_cal": {"extra_families": True, "real_per_source": None, "l2": 1e-4, "per_source": True,
                  "calibrate_apart": True},
}
# Corpus families the "before" recipe did not have.
NEW_FAMILIES = {"benign_agent_work"}

# The fetch-and-run patterns of guard.rs (`curl ... | sh`, `sh -c "$(curl ...)"`, `iwr ... | iex`).
FETCH_RUN = [re.compile(p, re.I) for p in [
    r"\b(curl|wget|fetch)\b[^|\n;]{0,300}\|\s*(sudo\s+(-\S+\s+)*)?(ba|z|da|k|fi)?sh\b",
    r"\b(ba|z|da|k)?sh\s+(-c\s+)?[\"']?\$\(\s*(curl|wget)\b",
    r"\b(ba|z|da|k)?sh\s+<\(\s*(curl|wget)\b",
    r"\b(iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget)\b[^|\n]{0,300}\|\s*(iex|invoke-expression)\b",
]]
HUB_FAMILIES = ("hub_", "trigger_", "social_notice", "goal_", "embed_")
HUB_BENIGN = ("benign_install_curl", "benign_rating_talk", "benign_security_quote", "benign_runbook_env",
              "benign_agents_md", "benign_embed_")
# Families reported together (the first group that matches a family takes it).
FAMILY_GROUPS = [
    ("sets written apart (--train-sets), each held out whole", lambda f: f.startswith("blind")),
    ("look-alikes of the sets written apart", lambda f: f.startswith("benign_blind")),
    ("hub manipulation (records, ratings)", lambda f: f in ("hub_records", "hub_rate")),
    ("conditional triggers, notices", lambda f: f in ("trigger_conditional", "social_notice")),
    ("exfiltration, safety-off (many languages)", lambda f: f in ("goal_env", "goal_safety")),
    ("payload buried in a longer text", lambda f: f.startswith("embed_")),
    ("first corpus: languages", lambda f: f.startswith("lang_")),
    ("first corpus: encodings", lambda f: f.startswith("encoding_")),
    ("first corpus: carriers", lambda f: f in ("tool_call_json", "tool_call_xml", "yaml_front_matter", "html_comment",
                                               "code_block_system", "field_resource", "field_version")),
    ("first corpus: English forms", lambda f: not f.startswith("benign_")),
    ("look-alikes: install, ratings, advisories, runbooks, AGENTS.md", lambda f: f in HUB_BENIGN[:5]),
    ("look-alikes buried in a longer text", lambda f: f.startswith("benign_embed_")),
    ("look-alikes: first corpus, other languages", lambda f: f.startswith("benign_lang_")),
    ("look-alikes: real text samples", lambda f: f.startswith("benign_real_")),
    ("look-alikes: first corpus, English and encodings", lambda f: f.startswith("benign_")),
]


def grams(t, n=4):
    t = " ".join(t.lower().split())
    return {t[i:i + n] for i in range(max(len(t) - n + 1, 1))}


def holds_payload(piece, payload):
    """True when most of a piece's text comes from the payload (the instruction inside a longer
    text), so a carrier's own lines (a log's other lines, a README's install section) are not
    taught as injections."""
    g = grams(piece)
    return len(g & grams(payload)) >= 0.6 * len(g)


def training_rows(units):
    """Pieces as rows. An injection's raw encoded text is not a positive (only its decoding is);
    of an injection buried in a longer text, only the pieces that hold the payload are (the
    others, the carrier's own lines, are negatives). An injection whose payload is not marked
    (the extra sets) gives only its piece `u.pos` (see `fit`), and no negatives: which of its
    other pieces carry part of the instruction is not known."""
    X, y, w = [], [], []
    for u in units:
        if len(u.vecs) == 0:
            continue
        if u.label == "injection" and u.mil:
            if u.pos is not None:
                X.append(u.vecs[u.pos]), y.append(1.0), w.append(1.0)
            continue
        if u.label == "injection":
            enc = u.family.startswith("encoding_")
            rows = u.vecs[1:] if enc and len(u.vecs) > 1 else u.vecs[:1] if enc else u.vecs
            if u.payload and not enc:
                # Only the pieces that hold the instruction; the carrier's other pieces are benign.
                held = [holds_payload(t, u.payload) for t in u.texts]
                rows = [v for v, h in zip(u.vecs, held) if h]
                for v, h in zip(u.vecs, held):
                    if not h:
                        X.append(v), y.append(0.0), w.append(1.0)
            for r in rows:
                X.append(r), y.append(1.0), w.append(1.0)
        else:
            for r in u.vecs:
                X.append(r), y.append(0.0), w.append(1.0)
    return np.array(X), np.array(y), np.array(w)


def unit_scores(P, units):
    return np.array([predict(P, u.vecs).max() if len(u.vecs) else 0.0 for u in units])


def threshold(P, real_train, per_source):
    """The REAL_QUANTILE percentile of the real training text's scores: of all of it, or the highest of
    each source's own (over its distinct texts)."""
    if not per_source:
        return max(float(np.quantile(unit_scores(P, real_train), REAL_QUANTILE)), 0.5)
    by, seen = {}, set()
    for u in real_train:
        # Distinct texts: a harness line repeated in every session (Claude Code's "STOP what you
        # are doing ...") is one text, not dozens, when the percentile is taken.
        k = (u.source, u.texts[0] if u.texts else "")
        if k not in seen:
            seen.add(k)
            by.setdefault(u.source, []).append(u)
    return max([0.5] + [float(np.quantile(unit_scores(P, us), REAL_QUANTILE)) for us in by.values()])


def fit_rows(units, hidden, recipe):
    X, y, w = training_rows(units)
    pos = y.sum()
    w = np.where(y == 1, (len(y) - pos) / max(pos, 1), 1.0)  # balance the classes
    return train(X, y, w, hidden=hidden, lr=0.01 if hidden else 0.05, l2=recipe["l2"])


def fit(units, real_train, hidden, recipe):
    """A model and its threshold. Injections without a marked payload are taught by their
    likeliest piece (multiple-instance learning): a first model trained without them picks, in
    each, the piece it scores highest, and that piece alone is the positive."""
    mil = [u for u in units if u.label == "injection" and u.mil]
    if mil:
        P0 = fit_rows([u for u in units if not (u.label == "injection" and u.mil)] + real_train, hidden, recipe)
        for u in mil:
            u.pos = int(np.argmax(predict(P0, u.vecs))) if len(u.vecs) else None
    if not recipe.get("calibrate_apart"):
        P = fit_rows(units + real_train, hidden, recipe)
        return P, threshold(P, real_train, recipe["per_source"])
    # The threshold from real text the model did not train on: a quarter of each source's
    # training sessions, by group, held back from the fit.
    cal = [u for u in real_train if int(hashlib.sha256(u.group.encode()).hexdigest(), 16) % 4 == 0]
    fitted = [u for u in real_train if int(hashlib.sha256(u.group.encode()).hexdigest(), 16) % 4 != 0]
    P = fit_rows(units + fitted, hidden, recipe)
    return P, threshold(P, cal, recipe["per_source"])


def extra_cases(paths):
    """Cases of further sets written apart from the corpus (testdata/injection/blind*/): each
    set's injections are the family `<set>` and its look-alikes `benign_<set>`, held out of
    training together (`Unit.fold`), so a cross-validated figure for a set is that of a model
    that never saw its author's texts."""
    out = []
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0]
        for l in open(os.path.join(ROOT, path), encoding="utf-8"):
            if l.strip():
                c = json.loads(l)
                fam = name if c["label"] == "injection" else f"benign_{name}"
                out.append(dict(c, family=fam, set=name))
    return out


def load(shared, n, cap=0, extra=()):
    """The corpus (with the `extra` sets), the held-out cases and the real text, embedded; the
    real text split by session or document into what trains and what measures."""
    rng = random.Random(34)
    cases = [json.loads(l) for l in open(os.path.join(ROOT, "testdata/injection/cases.jsonl"), encoding="utf-8")]
    cases += extra_cases(extra)
    held = [json.loads(l) for l in open(os.path.join(ROOT, "testdata/injection/heldout.jsonl"), encoding="utf-8")]
    real = real_sources(shared, rng, n)
    if cap:
        # A fixed sample of the two largest sources of long texts (its texts keep their sessions):
        # bounded embedding time, as a long text is scored in up to a dozen parts. Claude Code
        # stays whole: its few hundred training texts set the threshold. A smaller cap takes a
        # prefix of the same shuffle, so the cache serves it.
        for k in LONG_SOURCES:
            v = real[k][:]
            random.Random(k).shuffle(v)
            real[k] = v[:cap]
    items = [(c["text"], c["field"]) for c in cases + held]
    for v in real.values():
        items += [(t, f) for t, f, _ in v]
    cache = embed_all(items)

    def unit(label, fam, text, field, source=None, payload=None):
        return Unit(label, fam, field, cache[key(text, field)], source, payload)

    real_train, real_test, measured = {}, {}, set()
    for name, texts in real.items():
        train_groups = split_groups(name, [g for _, _, g in texts])
        real_train[name] = [unit("benign", "real_" + name, t, f, name) for t, f, g in texts if g in train_groups]
        for u, g in zip(real_train[name], [g for _, _, g in texts if g in train_groups]):
            u.group = f"{name}/{g}"
        real_test[name] = [unit("benign", "real_" + name, t, f, name) for t, f, g in texts if g not in train_groups]
        measured |= {t[:1200] for t, _, g in texts if g not in train_groups}
    U = [unit(c["label"], c["family"], c["text"], c["field"], payload=c.get("payload")) for c in cases]
    # Corpus cases sampled from the real sources (benign_real_*) that come from a measured
    # session or document train no model: they are scored in their own family's fold only.
    for u, c in zip(U, cases):
        u.trainable = c["text"][:1200] not in measured
        if "set" in c:
            u.mil, u.fold = True, c["set"]
    H = [unit(c["label"], "heldout", c["text"], c["field"]) for c in held]
    return U, H, real_train, real_test


def recipe_data(U, real_train, recipe, rng):
    """The corpus units and real training text a recipe trains on."""
    corpus = [u for u in U if u.trainable and (recipe["extra_families"] or u.family not in NEW_FAMILIES)]
    rt = []
    for name, us in real_train.items():
        k = recipe["real_per_source"]
        rt += us if k is None or name == "experiences" or len(us) <= k else rng.sample(us, k)
    return corpus, rt


def main():
    global REAL_QUANTILE
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default="../shared")
    ap.add_argument("--real", type=int, default=1200, help="documents per retrieval corpus")
    ap.add_argument("--hidden", type=int, default=0, help="0: logistic regression; else MLP width")
    ap.add_argument("--compare", action="store_true", help="also cross-validate an MLP")
    ap.add_argument("--write-weights", action="store_true", help="write the 'after' model")
    ap.add_argument("--report", default=None)
    ap.add_argument("--cap", type=int, default=0, help="at most this many texts per real source (0: all)")
    ap.add_argument("--recipes", default="before,after", help="which RECIPES to cross-validate")
    ap.add_argument("--baseline", default=None,
                    help="a weight file scored as it is (no refit) beside the recipes, e.g. the screen before")
    ap.add_argument("--no-groups", action="store_true", help="skip the group hold-outs")
    ap.add_argument("--folds", type=int, default=0,
                    help="families in this many folds of whole families instead of one family at a time")
    ap.add_argument("--quantile", type=float, default=REAL_QUANTILE, help="per-source percentile of real text")
    ap.add_argument("--train-sets", default=",".join(TRAIN_SETS),
                    help="comma-separated case files (relative to the repository) that join the corpus, "
                         "each held out as a whole in cross-validation ('' for none)")
    ap.add_argument("--weights-out", default=WEIGHTS, help="where --write-weights writes")
    a = ap.parse_args()

    REAL_QUANTILE = a.quantile
    U, H, real_train_all, real_test = load(a.shared, a.real, a.cap, [x for x in a.train_sets.split(",") if x])
    base = None
    if a.baseline:
        W = json.load(open(a.baseline))
        base = ({"w2": np.array(W["w2"]), "b2": np.array([W["b2"]])}, W["threshold"])
    out = []
    p = out.append
    families = sorted({u.family for u in U})
    folds = sorted({u.fold for u in U})
    t0 = time.time()
    p(f"Corpus: {len(U)} cases ({sum(u.label == 'injection' for u in U)} injections) in {len(families)} families "
      f"({sum(not u.trainable for u in U)} real-text cases from measured sessions train no model). Real text, "
      f"split by session or document: {sum(map(len, real_train_all.values()))} to train, "
      f"{sum(map(len, real_test.values()))} to measure:\n")
    p("| source | train (groups) | measure (groups) |")
    p("|---|---:|---:|")
    for name in real_test:
        p(f"| {name} | {len(real_train_all[name])} | {len(real_test[name])} |")

    def rules(u):
        return u.rules_raw

    def rules_dec(u):
        return u.rules_raw or u.rules_views

    def rules_hold(u):
        """The rules as submit holds with them when a fetch-and-run command alone is left to the
        classifier (the column marked *)."""
        return rules_dec(u) and not u.fetch_run_only

    def rule_for(r):
        return rules_hold if r.endswith("*") else rules_dec

    def cv(hidden, groups, recipe, corpus, rt):
        """scores per unit of U with each group of families held out of training."""
        flagged = np.zeros(len(U), dtype=bool)
        thrs = []
        for g in groups:
            P, thr = fit([u for u in corpus if u.fold not in g], rt, hidden, recipe)
            thrs.append(thr)
            for i, u in enumerate(U):
                if u.fold in g:
                    score[i] = unit_scores(P, [u])[0]
                    flagged[i] = score[i] >= thr
        return flagged, thrs

    score = np.zeros(len(U))

    names = [r for r in a.recipes.split(",") if r]
    data = {r: recipe_data(U, real_train_all, RECIPES[r], random.Random(34)) for r in names}
    lofo, thrs = {}, {}
    for r in names:
        if a.folds:
            fams = folds[:]
            random.Random(7).shuffle(fams)
            fold_groups = [fams[i::a.folds] for i in range(a.folds)]
        else:
            fold_groups = [[f] for f in folds]
        lofo[r], thrs[r] = cv(a.hidden, fold_groups, RECIPES[r], *data[r])
    lofo_score = score.copy()
    # The bar for a record whose only finding is a fetch-and-run command: just above the highest
    # leave-one-family-out score of the corpus's look-alikes with one (install notes), so that no
    # install note in the corpus is held; never above the general threshold.
    fr_units = [i for i, u in enumerate(U) if u.fetch_run_only and u.label == "benign"]
    fr_thr = round(float(max(lofo_score[i] for i in fr_units)) + 0.01, 4) if fr_units else 1.0
    p(f"\nModel: {'logistic regression' if a.hidden == 0 else f'MLP, {a.hidden} hidden'} on the E5 passage vector; "
      + "; ".join(f"{r}: {len(data[r][1])} real training texts, per-fold thresholds "
                  f"{min(thrs[r]):.3f}..{max(thrs[r]):.3f}" for r in names) + ".")

    p(f"\n### {'%d folds of whole families' % a.folds if a.folds else 'Leave one family out'} "
      f"(each family scored by a model that never saw it); real-text percentile {REAL_QUANTILE}\n")
    p("Flagged by rules + decoded + classifier, per recipe.\n")
    names_b = names + [f"{names[-1]}*"]
    lofo[f"{names[-1]}*"] = lofo[names[-1]] | np.array(
        [u.fetch_run_only and lofo_score[i] >= fr_thr for i, u in enumerate(U)])
    if base:
        names_b.append("baseline")
        lofo["baseline"] = unit_scores(base[0], U) >= base[1]
    p("| family | kind | n | rules | rules + decoded | " + " | ".join(names_b) + " |")
    p("|---|---|---:|---:|---:|" + "---:|" * len(names_b))
    tot = {}
    for f in families:
        idx = [i for i, u in enumerate(U) if u.family == f]
        kind = U[idx[0]].label
        row = [len(idx), sum(rules(U[i]) for i in idx), sum(rules_dec(U[i]) for i in idx)]
        row += [sum(rule_for(r)(U[i]) or lofo[r][i] for i in idx) for r in names_b]
        p(f"| {f} | {kind} | " + " | ".join(map(str, row)) + " |")
        t = tot.setdefault(kind, [0] * len(row))
        for j, x in enumerate(row):
            t[j] += x
    ni, nb = tot["injection"][0], tot["benign"][0]
    cols = range(1, 3 + len(names_b))
    p("")
    p("| | rules | rules + decoded | " + " | ".join(names_b) + " |")
    p("|---|---:|---:|" + "---:|" * len(names_b))
    p("| recall (injections caught) | " + " | ".join(f"{tot['injection'][j] / ni:.1%}" for j in cols) + " |")
    p("| false positives (corpus look-alikes) | " + " | ".join(f"{tot['benign'][j] / nb:.1%}" for j in cols) + " |")
    p("| precision | " + " | ".join(
        f"{tot['injection'][j] / max(tot['injection'][j] + tot['benign'][j], 1):.1%}" for j in cols) + " |")

    p("\n### By family group (each family scored by a model that never saw it, summed over the group)\n")
    p("| group | kind | n | rules | rules + decoded | " + " | ".join(names_b) + " |")
    p("|---|---|---:|---:|---:|" + "---:|" * len(names_b))
    def group_of(f):
        return next(g for g, pred in FAMILY_GROUPS + [("all", lambda _: True)] if pred(f))

    for gname, _ in FAMILY_GROUPS:
        for kind in ("injection", "benign"):
            idx = [i for i, u in enumerate(U) if u.label == kind and group_of(u.family) == gname]
            if not idx:
                continue
            row = [sum(rules(U[i]) for i in idx), sum(rules_dec(U[i]) for i in idx)]
            row += [sum(rule_for(r)(U[i]) or lofo[r][i] for i in idx) for r in names_b]
            p(f"| {gname} | {kind} | {len(idx)} | " + " | ".join(f"{x} ({x / len(idx):.0%})" for x in row) + " |")

    groups = {
        "every hub-manipulation goal (hub_records, hub_rate)": ["hub_records", "hub_rate"],
        "every trigger and notice (trigger_conditional, social_notice)": ["trigger_conditional", "social_notice"],
        "every buried payload (embed_*)": [f for f in families if f.startswith("embed_")],
        "every non-English language (lang_*)": [f for f in families if f.startswith("lang_")],
        "every encoding (encoding_*)": [f for f in families if f.startswith("encoding_")],
        "every structural carrier": ["tool_call_json", "tool_call_xml", "yaml_front_matter", "html_comment",
                                     "code_block_system", "field_resource", "field_version"],
        "every social family (social_admin, future_agents, persona)": ["social_admin", "future_agents", "persona"],
    }
    p("\n### Group hold-outs (all families of a group left out at once)\n")
    p("| held out | injections | rules + decoded | " + " | ".join(f"+ classifier ({r})" for r in names) + " |")
    p("|---|---:|---:|" + "---:|" * len(names))
    for gname, g in ({} if a.no_groups else groups).items():
        idx = [i for i, u in enumerate(U) if u.family in g and u.label == "injection"]
        cells = [f"{sum(rules_dec(U[i]) for i in idx) / len(idx):.1%}"]
        for r in names:
            flg, _ = cv(a.hidden, [g], RECIPES[r], *data[r])
            cells.append(f"{sum(rules_dec(U[i]) or flg[i] for i in idx) / len(idx):.1%}")
        p(f"| {gname} | {len(idx)} | " + " | ".join(cells) + " |")
    if a.compare:
        # Ten folds of whole families (a full leave-one-out of the MLP is slow here).
        r = "after"
        fams = folds[:]
        random.Random(7).shuffle(fams)
        ten = [fams[i::10] for i in range(10)]
        inj = [i for i, u in enumerate(U) if u.label == "injection"]
        ben = [i for i, u in enumerate(U) if u.label == "benign"]
        p(f"\n### Logistic regression vs MLP, ten folds of whole families, classifier alone ({r} recipe)\n")
        p("| model | recall | false positives (corpus) | real-text FP (shipped fit) |")
        p("|---|---:|---:|---:|")
        for mname, h in [("logistic regression", 0), ("MLP, 32 hidden", 32)]:
            f_, _ = cv(h, ten, RECIPES[r], *data[r])
            P_, t_ = fit(*data[r], h, RECIPES[r])
            rt = [u for us in real_test.values() for u in us]
            fp = float((unit_scores(P_, rt) >= t_).mean())
            p(f"| {mname} | {f_[inj].mean():.1%} | {f_[ben].mean():.1%} | {fp:.2%} |")

    # The shipped model: every family, the real training text.
    shipped = {r: fit(*data[r], a.hidden, RECIPES[r]) for r in names}
    p("\n### Trained on every family: false positives on real text it never trained on\n")
    p("Thresholds: " + ", ".join(f"{r} {shipped[r][1]:.3f}" for r in names) + ". A text is one record field, "
      "from a session or document no model trained on; flagged = rules + decoded + classifier.\n")
    shipped[f"{names[-1]}*"] = shipped[names[-1]]
    fr_ship = min(fr_thr, shipped[names[-1]][1])

    def held(r, u, s_, thr):
        """Held for review under column r: the rules (as r takes them) or the classifier, and in the
        * column a lone fetch-and-run command scored at or above its own bar."""
        return rule_for(r)(u) or s_ >= thr or (r.endswith("*") and u.fetch_run_only and s_ >= fr_ship)

    if base:
        shipped["baseline"] = base
    names = names_b
    p("| source | texts | rules | " + " | ".join(names) + " |")
    p("|---|---:|---:|" + "---:|" * len(names))
    allr = {r: 0 for r in names}
    alln = 0
    for name, us in real_test.items():
        r_ = sum(rules(u) for u in us)
        cells = []
        for r in names:
            P, thr = shipped[r]
            both = sum(held(r, u, s_, thr) for u, s_ in zip(us, unit_scores(P, us)))
            allr[r] += both
            cells.append(f"{both} ({both / len(us):.2%})")
        alln += len(us)
        p(f"| {name} | {len(us)} | {r_} ({r_ / len(us):.2%}) | " + " | ".join(cells) + " |")
    p(f"| **all** | {alln} | | " + " | ".join(f"{allr[r]} ({allr[r] / alln:.2%})" for r in names) + " |")
    p("\nHeld-out cases (testdata/injection/heldout.jsonl, never trained on; the Rust test uses them):\n")
    p("| label | n | rules | " + " | ".join(names) + " |")
    p("|---|---:|---:|" + "---:|" * len(names))
    hs = {r: unit_scores(shipped[r][0], H) for r in names}
    for lab in ("injection", "benign"):
        idx = [i for i, u in enumerate(H) if u.label == lab]
        p(f"| {lab} | {len(idx)} | {sum(rules(H[i]) for i in idx)} | " + " | ".join(
            str(sum(held(r, H[i], hs[r][i], shipped[r][1]) for i in idx)) for r in names) + " |")
    p(f"\nFetch-and-run bar (column *): {fr_ship:.3f}, from the leave-one-family-out scores of the corpus's "
      f"{len(fr_units)} look-alikes whose only finding is a fetch-and-run command; "
      f"{sum(1 for u in U if u.fetch_run_only and u.label == 'injection')} corpus injections have that as their only finding.")
    p(f"\n(evaluation took {time.time() - t0:.0f} s)")
    text = "\n".join(out)
    print(text)
    if a.report:
        with open(a.report, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if a.write_weights:
        P, thr = shipped[names[0] if "after" not in shipped else "after"]
        w = {"model": "multilingual-e5-small passage vector, unit length", "dim": 384, "hidden": a.hidden,
             "w2": [round(float(x), 6) for x in P["w2"]], "b2": round(float(P["b2"][0]), 6),
             "threshold": round(thr, 4), "fetch_run_threshold": round(fr_ship, 4)}
        if a.hidden:
            w["w1"] = [round(float(x), 6) for x in P["w1"].ravel()]
            w["b1"] = [round(float(x), 6) for x in P["b1"]]
        with open(a.weights_out, "w") as f:
            json.dump(w, f)
        print(f"wrote {a.weights_out}", file=sys.stderr)


if __name__ == "__main__":
    main()
