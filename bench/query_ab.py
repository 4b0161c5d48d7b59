#!/usr/bin/env python3
"""Query embedding, one build against another, in one run.

Keeps one `embed_stdin` example of each build running (`cargo build --release -p knowhub-embed
--example embed_stdin` in each checkout) and sends each query to both, one call of each in turn in
random order, so machine drift hits both alike. Two timings per call: the embed call alone, as
the process measures it (`--time`: what a query embedding costs), and the whole call from writing
the line to reading the vector (adds the pipe, tokenising twice and printing 384 floats: about the
same fixed cost on both sides, so it narrows the ratio). One core each (`RAYON_NUM_THREADS=1`)
unless THREADS is set.

Queries: bench_embed's English (and, for E5, Chinese) query, ROUNDS calls each; the first 100
CoSQA (and ATEC) queries, ROUNDS / 50 calls each.

usage (from the repo root): bench/query_ab.py OLD_EMBED_STDIN NEW_EMBED_STDIN [--minilm] ROUNDS
"""
import json
import os
import random
import subprocess
import sys
import time

old, new = sys.argv[1], sys.argv[2]
minilm = '--minilm' in sys.argv
rounds = int(sys.argv[-1])
env = dict(os.environ, RAYON_NUM_THREADS=os.environ.get('THREADS', '1'))
env.pop('KNOWHUB_EMBED_F32', None)
data = os.environ.get('KNOWHUB_DATA', '../shared/data') + '/retrieval/'


def start(binary):
    args = [binary, '--time'] + (['--minilm'] if minilm else [])
    return subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, bufsize=1)


def call(p, q):
    t = time.perf_counter()
    p.stdin.write('q\t' + q + '\n')
    p.stdin.flush()
    ids, vec = p.stdout.readline(), p.stdout.readline()
    whole = (time.perf_counter() - t) * 1000
    us = p.stdout.readline()
    assert ids.startswith('ids') and vec.startswith('vec') and us.startswith('us '), (ids[:50], vec[:50], us)
    return float(us[3:]) / 1000, whole


def queries(path, n):
    with open(data + path) as f:
        return [json.loads(line)['text'] for _, line in zip(range(n), f)]


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))]


sets = {
    'bench_embed English query': ["how do I fix a Postgres connection timeout in my Rust service?"],
    'CoSQA queries (en)': queries('en_cosqa/beir/queries.jsonl', 100),
}
if not minilm:
    sets['bench_embed Chinese query'] = ["数据库连接池满了以后请求一直超时，应该怎么排查和调整连接数"]
    sets['ATEC queries (zh)'] = queries('zh_atec/queries.jsonl', 100)

procs = {'old': start(old), 'new': start(new)}
for p in procs.values():
    for _ in range(5):
        call(p, "warm up query text")
rng = random.Random(7)
for name, qs in sets.items():
    lat = {'old': [], 'new': []}
    whole = {'old': [], 'new': []}
    for _ in range(rounds if len(qs) == 1 else max(1, rounds // 50)):
        for q in qs:
            order = ['old', 'new']
            rng.shuffle(order)
            for k in order:
                e, w = call(procs[k], q)
                lat[k].append(e)
                whole[k].append(w)
    for what, d in (('embed', lat), ('whole call', whole)):
        o50, o99, n50, n99 = pct(d['old'], .5), pct(d['old'], .99), pct(d['new'], .5), pct(d['new'], .99)
        print(f"{'minilm' if minilm else 'e5'} {name}, {what}: n={len(d['old'])} old p50 {o50:.2f} p99 {o99:.2f} ms"
              f" | new p50 {n50:.2f} p99 {n99:.2f} ms | x{o50 / n50:.2f} / x{o99 / n99:.2f}", flush=True)
for p in procs.values():
    p.stdin.close()
    p.wait()
