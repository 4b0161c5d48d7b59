#!/usr/bin/env python3
"""Webhook delivery across a receiver outage, and submit latency while it lasts.

Starts a receiver (http.server on 127.0.0.1) and a fresh hub (auth on, write budgets off,
embedder `none` unless --embedder) with one `[[webhooks]]` entry pointing at it (every event,
a secret). Submits at a steady RATE per second for 3 x PHASE seconds (open loop: each submit has
its slot, a few client threads); during the middle PHASE the receiver is down (--down refuse:
its port closed, open connections cut; 500: it answers 500; hang: it accepts and never answers; none: a control run, never down). Afterwards it waits
until the receiver holds the feed's last event (or --drain seconds pass) and checks, against
the whole feed as a reviewer key reads it:

- every event delivered, none missing, each seq received once (repeats of one
  X-KnowHub-Delivery counted), X-KnowHub-Delivery equal to the body's seq;
- in order: the seq of each newly received event is above every earlier one;
- every signature valid: X-KnowHub-Signature == "sha256=" + hex HMAC-SHA256(secret,
  "<X-KnowHub-Timestamp>.<body>");

and prints submit latency p50/p99 before, during and after the outage, the time from the
receiver's return to its first delivery and to catching up, and the hub's webhook metrics.

usage (repo root): bench/webhook_outage.py BINARY [--rate 20] [--phase 60] [--down refuse|500|hang]
                   [--drain 240] [--embedder none]
"""
import argparse
import hashlib
import hmac
import http.client
import http.server
import json
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from khserve import Conn, Hub, pct, records  # noqa: E402

SECRET = 'bench-webhook-secret-0123456789'


class Receiver:
    def __init__(self, mode):
        self.mode = mode
        self.got = []  # (arrival time, delivery header, body seq, kind, sig ok, ts age s)
        self.refused_or_failed = 0
        self.down = False
        self.lock = threading.Lock()
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        self.port = s.getsockname()[1]
        s.close()
        self.srv = None
        self.conns = set()
        self.up()

    def handler(self):
        rcv = self

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def log_message(self, *a):
                pass

            def setup(self):
                super().setup()
                with rcv.lock:
                    rcv.conns.add(self.connection)

            def finish(self):
                with rcv.lock:
                    rcv.conns.discard(self.connection)
                super().finish()

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
                if rcv.down:
                    with rcv.lock:
                        rcv.refused_or_failed += 1
                    if rcv.mode == 'refuse':
                        self.close_connection = True
                        return  # a connection that slipped through: dropped unanswered
                    if rcv.mode == 'hang':
                        while rcv.down:
                            time.sleep(0.2)
                        self.close_connection = True
                        return  # no answer at all
                    self.send_response(500)
                    self.send_header('Content-Length', '0')
                    self.end_headers()
                    return
                ts = self.headers.get('X-KnowHub-Timestamp', '')
                sig = self.headers.get('X-KnowHub-Signature', '')
                want = 'sha256=' + hmac.new(SECRET.encode(), ts.encode() + b'.' + body, hashlib.sha256).hexdigest()
                doc = json.loads(body)
                with rcv.lock:
                    rcv.got.append((time.time(), self.headers.get('X-KnowHub-Delivery'), doc.get('seq'),
                                    self.headers.get('X-KnowHub-Event'), hmac.compare_digest(sig, want),
                                    time.time() - int(ts or 0), doc.get('experience_id')))
                self.send_response(200)
                self.send_header('Content-Length', '0')
                self.end_headers()

        return H

    def up(self):
        self.down = False
        http.server.ThreadingHTTPServer.allow_reuse_address = True
        self.srv = http.server.ThreadingHTTPServer(('127.0.0.1', self.port), self.handler())
        self.srv.daemon_threads = True
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()

    def go_down(self):
        if self.mode == 'none':
            return
        self.down = True
        if self.mode == 'refuse':
            self.srv.shutdown()
            self.srv.server_close()
            self.srv = None
            with self.lock:  # kept-alive connections too: the port is dead, not just the listener
                for c in list(self.conns):
                    try:
                        c.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

    def come_back(self):
        if self.srv is None:
            self.up()
        else:
            self.down = False

    def stop(self):
        self.down = False
        if self.srv:
            self.srv.shutdown()
            self.srv.server_close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary')
    ap.add_argument('--rate', type=float, default=20)
    ap.add_argument('--phase', type=float, default=60)
    ap.add_argument('--down', choices=['refuse', '500', 'hang', 'none'], default='refuse')
    ap.add_argument('--drain', type=float, default=240)
    ap.add_argument('--clients', type=int, default=4)
    ap.add_argument('--embedder', default='none')
    a = ap.parse_args()

    rcv = Receiver(a.down)
    hook = ('\n[[webhooks]]\nname = "bench"\nurl = "http://127.0.0.1:%d/hook"\nsecret = "%s"\n'
            % (rcv.port, SECRET))
    hub = Hub(a.binary, embedder=a.embedder, extra_config=hook)
    try:
        agent, reviewer = hub.key('agent', 'writer'), hub.key('reviewer', 'reader')
        hub.start()
        print('hub on 127.0.0.1:%d, receiver on 127.0.0.1:%d (down mode %s), %.0f submits/s for 3 x %.0f s'
              % (hub.port, rcv.port, a.down, a.rate, a.phase), flush=True)
        n = int(a.rate * a.phase * 3)
        recs = records(n, seed=4242)
        lat = {'before': [], 'during': [], 'after': []}
        late = [0]
        done = {}  # record id -> (time its submit was answered, phase)
        bad = []
        nxt = [0]
        lock = threading.Lock()
        t0 = time.time() + 1

        def phase_of(t):
            return 'before' if t < a.phase else ('during' if t < 2 * a.phase else 'after')

        def worker():
            c = Conn(hub.port, agent)
            while True:
                with lock:
                    i = nxt[0]
                    nxt[0] += 1
                if i >= n:
                    return
                slot = t0 + i / a.rate
                wait = slot - time.time()
                if wait > 0:
                    time.sleep(wait)
                elif wait < -0.05:
                    with lock:
                        late[0] += 1
                s = time.perf_counter()
                st, body = c.call('POST', '/api/submit', recs[i])
                d = time.perf_counter() - s
                if st not in (200, 201):
                    bad.append((st, body))
                else:
                    done[body['id']] = (time.time(), phase_of(slot - t0))
                lat[phase_of(slot - t0)].append(d)

        threads = [threading.Thread(target=worker) for _ in range(a.clients)]
        for t in threads:
            t.start()
        time.sleep(max(0, t0 + a.phase - time.time()))
        rcv.go_down()
        down_at = time.time()
        print('receiver %s at t=%.1f s' % ('stays up (control)' if a.down == 'none' else 'down',
                                            down_at - t0), flush=True)
        time.sleep(max(0, t0 + 2 * a.phase - time.time()))
        got_before_back = len(rcv.got)
        rcv.come_back()
        back_at = time.time()
        if a.down != 'none':
            print('receiver back at t=%.1f s (down %.1f s)' % (back_at - t0, back_at - down_at), flush=True)
        for t in threads:
            t.join()
        print('submits done at t=%.1f s; %d submits, %d non-2xx, %d started over 50 ms late'
              % (time.time() - t0, n, len(bad), late[0]), flush=True)

        # The whole feed, as a reviewer reads it: what the hook should have received.
        rc = Conn(hub.port, reviewer)
        feed, since = [], None
        while True:
            st, body = rc.call('GET', '/api/changes?limit=1000' + ('&since=' + since if since else ''))
            assert st == 200, body
            feed += [ch['seq'] for ch in body['changes']]
            since = body['cursor']
            if not body['more']:
                break
        last = feed[-1]
        deadline = time.time() + a.drain
        while time.time() < deadline:
            with rcv.lock:
                if rcv.got and max(g[2] for g in rcv.got) >= last:
                    break
            time.sleep(0.5)
        time.sleep(3)  # any late repeat
        with rcv.lock:
            got = list(rcv.got)

        seqs = [g[2] for g in got]
        uniq = set(seqs)
        missing = sorted(set(feed) - uniq)
        extra = sorted(uniq - set(feed))
        dup = len(seqs) - len(uniq)
        hdr_mismatch = sum(1 for g in got if str(g[2]) != g[1])
        disorder, hi = 0, 0
        seen = set()
        for s in seqs:
            if s in seen:
                continue
            seen.add(s)
            if s < hi:
                disorder += 1
            hi = max(hi, s)
        sig_bad = sum(1 for g in got if not g[4])
        after_back = [g[0] for g in got[got_before_back:]]
        print('feed: %d events (seq %d..%d); received %d deliveries, %d distinct seqs' %
              (len(feed), feed[0], last, len(got), len(uniq)))
        print('missing %d%s, not in feed %d, duplicates %d, out of order %d, delivery header != seq %d, '
              'bad signatures %d, max timestamp age %.1f s'
              % (len(missing), (' (first %s)' % missing[:10]) if missing else '', len(extra), dup, disorder,
                 hdr_mismatch, sig_bad, max(g[5] for g in got)))
        print('attempts refused/failed while down (seen by the receiver): %d' % rcv.refused_or_failed)
        if after_back and a.down != 'none':
            backlog = [g[0] for g in got if g[6] in done and done[g[6]][0] < back_at]
            print('receiver back -> first delivery %.1f s; -> every event written before it came back delivered %.1f s'
                  % (after_back[0] - back_at, max(backlog) - back_at))
        first = {}
        for g in got:
            first.setdefault(g[6], g[0])
        for ph in ('before', 'during', 'after'):
            lag = [first[i] - t for i, (t, p) in done.items() if p == ph and i in first]
            print('delivery lag (submit answered -> received) %-6s: p50 %.1f ms p99 %.1f ms max %.1f s'
                  % (ph, pct(lag, .5) * 1000, pct(lag, .99) * 1000, max(lag)))
        for ph in ('before', 'during', 'after'):
            v = lat[ph]
            print('submit latency %-6s: n=%d p50 %.1f ms p99 %.1f ms' % (ph, len(v), pct(v, .5) * 1000,
                                                                         pct(v, .99) * 1000))
        hc = http.client.HTTPConnection('127.0.0.1', hub.port, timeout=10)
        hc.request('GET', '/metrics', headers={'Authorization': 'Bearer ' + reviewer})
        m = hc.getresponse().read().decode()
        print('\n'.join(line for line in m.splitlines() if line.startswith('knowhub_webhook')))
    finally:
        hub.stop()
        rcv.stop()


if __name__ == '__main__':
    main()
