#!/usr/bin/env python3
"""Change-feed throughput: events/s read by one client following `GET /api/changes`.

Loads a fresh hub (auth on, write budgets off, embedder `none` unless --embedder) with RECORDS
varied experience records through concurrent HTTP submits (the feed only records what the API
writes; `knowhub import` adds no events), then:

1. reads the whole feed from the start, limit=1000, one client, following `cursor` until
   `more` is false: PASSES full passes each with an agent key and a reviewer key, alternating;
   prints events, pages and events/s per pass and the median;
2. long-poll latency: a reader waits at the feed's end with wait=30, one submit is made, and the
   time from starting that submit to the reader holding its event is taken; LONGPOLL times.

usage (repo root): bench/feed_throughput.py BINARY [--records 100000] [--clients 16]
                   [--passes 3] [--longpoll 50] [--embedder none] [--keep DIR]
--keep DIR keeps the loaded hub in DIR (and reuses it, skipping the load, when it exists).
"""
import argparse
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from khserve import Conn, Hub, pct, records  # noqa: E402


def load(hub, key, recs, clients):
    """Submits `recs` from `clients` threads, one keep-alive connection each."""
    nxt = [0]
    lock = threading.Lock()
    bad = []
    lat = []

    def worker():
        c = Conn(hub.port, key)
        while True:
            with lock:
                i = nxt[0]
                nxt[0] += 1
            if i >= len(recs):
                return
            t = time.perf_counter()
            st, body = c.call('POST', '/api/submit', recs[i])
            lat.append(time.perf_counter() - t)
            if st not in (200, 201):
                bad.append((st, body))

    t0 = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    last = time.time()
    while any(t.is_alive() for t in threads):
        time.sleep(1)
        if time.time() - last > 30:
            last = time.time()
            print('  loaded %d/%d (%.0f/s)' % (min(nxt[0], len(recs)), len(recs),
                                                 nxt[0] / (time.perf_counter() - t0)), flush=True)
    for t in threads:
        t.join()
    dt = time.perf_counter() - t0
    print('load: %d submits from %d clients in %.1f s = %.0f/s; submit p50 %.1f ms p99 %.1f ms; non-2xx %d'
          % (len(recs), clients, dt, len(recs) / dt, pct(lat, .5) * 1000, pct(lat, .99) * 1000, len(bad)))
    if bad:
        print('  first non-2xx:', bad[0])


def full_pass(port, key):
    c = Conn(port, key)
    since, events, pages, kinds = None, 0, 0, {}
    last_seq = 0
    t0 = time.perf_counter()
    while True:
        path = '/api/changes?limit=1000' + ('&since=' + since if since else '')
        st, body = c.call('GET', path)
        assert st == 200, (st, body)
        pages += 1
        for ch in body['changes']:
            assert ch['seq'] > last_seq, ('feed out of order', last_seq, ch['seq'])
            last_seq = ch['seq']
            kinds[ch['kind']] = kinds.get(ch['kind'], 0) + 1
        events += len(body['changes'])
        since = body['cursor']
        if not body['more']:
            break
    return events, pages, time.perf_counter() - t0, kinds, since


def tip(port, key):
    return full_pass(port, key)[4]


def longpoll(port, reader_key, writer_key, rounds, recs):
    cursor = tip(port, reader_key)
    writer = Conn(port, writer_key)
    lats, submit_ms, after_submit = [], [], []
    for i in range(rounds):
        got = {}

        def read():
            st, body = Conn(port, reader_key).call('GET', '/api/changes?limit=1000&wait=30&since=' + cursor)
            got['t'] = time.perf_counter()
            got['body'] = (st, body)

        th = threading.Thread(target=read)
        th.start()
        time.sleep(0.3)  # the reader's request is parked at the server before the write
        t0 = time.perf_counter()
        st, body = writer.call('POST', '/api/submit', recs[i])
        t1 = time.perf_counter()
        assert st in (200, 201), (st, body)
        th.join(40)
        rst, rbody = got['body']
        assert rst == 200 and any(ch['experience_id'] == body['id'] for ch in rbody['changes']), rbody
        lats.append(got['t'] - t0)
        submit_ms.append(t1 - t0)
        after_submit.append(got['t'] - t1)
        cursor = rbody['cursor']
    return lats, submit_ms, after_submit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary')
    ap.add_argument('--records', type=int, default=100000)
    ap.add_argument('--clients', type=int, default=16)
    ap.add_argument('--passes', type=int, default=3)
    ap.add_argument('--longpoll', type=int, default=50)
    ap.add_argument('--embedder', default='none')
    ap.add_argument('--keep')
    a = ap.parse_args()

    reuse = a.keep and os.path.exists(os.path.join(a.keep, 'keys.txt'))
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    hub = Hub(a.binary, embedder=a.embedder, keep=a.keep)
    try:
        if reuse:
            with open(os.path.join(a.keep, 'keys.txt')) as f:
                agent, reviewer = f.read().split()
        else:
            agent, reviewer = hub.key('agent', 'loader'), hub.key('reviewer', 'reader')
            if a.keep:
                with open(os.path.join(a.keep, 'keys.txt'), 'w') as f:
                    f.write(agent + ' ' + reviewer)
        reader_agent = hub.key('agent', 'feed-agent-%d' % int(time.time()))
        hub.start()
        print('hub on 127.0.0.1:%d, data %s, embedder %s' % (hub.port, hub.data, a.embedder), flush=True)
        if not reuse:
            load(hub, agent, records(a.records), a.clients)

        res = {'agent': [], 'reviewer': []}
        for p in range(a.passes):
            for who, key in (('agent', reader_agent), ('reviewer', reviewer)):
                ev, pages, dt, kinds, _ = full_pass(hub.port, key)
                res[who].append((ev / dt, ev, pages, dt))
                print('pass %d %-8s: %d events, %d pages, %.2f s = %.0f events/s  %s'
                      % (p + 1, who, ev, pages, dt, ev / dt, kinds), flush=True)
        for who in res:
            med = statistics.median(r[0] for r in res[who])
            print('median %-8s: %.0f events/s (%d events per pass)' % (who, med, res[who][0][1]))

        extra = records(a.longpoll, seed=3636)
        for r in extra:
            r['task'] = 'long-poll ' + r['task']
        lats, sub, after = longpoll(hub.port, reviewer, agent, a.longpoll, extra)
        print('long-poll (reviewer reader, wait=30, %d rounds): submit start -> event received p50 %.1f ms '
              'p90 %.1f ms max %.1f ms; the submit itself p50 %.1f ms; submit answered -> event received p50 %.1f ms'
              % (len(lats), pct(lats, .5) * 1000, pct(lats, .9) * 1000, max(lats) * 1000,
                 pct(sub, .5) * 1000, pct(after, .5) * 1000))
    finally:
        hub.stop(remove=not a.keep)


if __name__ == '__main__':
    main()
