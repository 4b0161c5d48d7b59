"""Shared helpers for the Python benches: a throwaway `knowhub serve` on 127.0.0.1 in a temp data
dir, API keys, keep-alive HTTP calls, and varied experience-shaped records.

Stdlib only. The server is stopped (and its data dir removed) by `Hub.stop()`, which the benches
call in a `finally`, so nothing outlives a run.
"""
import http.client
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDS = os.path.join(HERE, 'data', 'experiences', 'records.jsonl')

# Config that lifts every write budget, so a load of many submits from one key is neither
# throttled (429) nor held for review as a burst.
NO_LIMITS = """
[limits]
writes_per_minute = 0
record_burst = 0
records_per_hour = 0
"""


class Hub:
    def __init__(self, binary, embedder='none', extra_config='', keep=None):
        self.binary = binary
        self.dir = keep or tempfile.mkdtemp(prefix='kh-bench-')
        self.data = os.path.join(self.dir, 'data')
        self.config = os.path.join(self.dir, 'knowhub.toml')
        with open(self.config, 'w') as f:
            f.write('auth = true\n[embedder]\nkind = "%s"\n' % embedder)
            f.write(NO_LIMITS)
            f.write(extra_config)
        self.proc = None
        self.port = None
        self.log = None

    def cli(self, *args):
        out = subprocess.run([self.binary, '--config', self.config, '--data-dir', self.data] + list(args),
                             check=True, capture_output=True, text=True)
        return out.stdout

    def key(self, role, name):
        return self.cli('keys', 'create', '--role', role, '--name', name).strip().splitlines()[-1].strip()

    def start(self):
        self.log = open(os.path.join(self.dir, 'server.log'), 'w')
        self.proc = subprocess.Popen(
            [self.binary, 'serve', '--config', self.config, '--data-dir', self.data, '--bind', '127.0.0.1:0'],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        deadline = time.time() + 120
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                if self.proc.poll() is not None:
                    raise RuntimeError('server exited: see ' + self.log.name)
                continue
            m = re.search(r'127\.0\.0\.1:(\d+)', line)
            if m and int(m.group(1)) != 0:
                self.port = int(m.group(1))
                break
        if not self.port:
            raise RuntimeError('server printed no address')
        while time.time() < deadline:
            try:
                st, _ = Conn(self.port).call('GET', '/healthz')
                if st == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError('server not healthy')

    def stop(self, remove=True):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log:
            self.log.close()
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)


class Conn:
    """One keep-alive connection; reconnects once on a dropped socket."""

    def __init__(self, port, key=None, timeout=90):
        self.port, self.key, self.timeout = port, key, timeout
        self.c = None

    def call(self, method, path, body=None):
        headers = {'Content-Type': 'application/json'}
        if self.key:
            headers['Authorization'] = 'Bearer ' + self.key
        data = json.dumps(body).encode() if body is not None else None
        for attempt in (0, 1):
            if self.c is None:
                self.c = http.client.HTTPConnection('127.0.0.1', self.port, timeout=self.timeout)
            try:
                self.c.request(method, path, body=data, headers=headers)
                r = self.c.getresponse()
                raw = r.read()
                return r.status, (json.loads(raw) if raw else None)
            except (http.client.HTTPException, ConnectionError):
                self.c.close()
                self.c = None
                if attempt:
                    raise


HOSTS = ['web-%02d' % i for i in range(40)]
ENVS = ['staging', 'prod', 'ci', 'dev laptop', 'k8s cluster eu-1', 'k8s cluster us-2']


def records(n, seed=36):
    """`n` distinct submit bodies built from the experience dev set: each base record's task,
    resource, result and outcome, with a run-specific detail (host, environment, duration, run
    number) in task and result so no two are the same experience, and score jittered within the
    outcome's range."""
    with open(RECORDS) as f:
        base = [json.loads(line) for line in f]
    rng = random.Random(seed)
    out = []
    for i in range(n):
        b = base[rng.randrange(len(base))]
        failure = b['outcome'] == 'failure'
        score = rng.choice([1, 2]) if failure else rng.choice([3, 4, 5])
        host, env = rng.choice(HOSTS), rng.choice(ENVS)
        rec = {
            'task': '%s (run %d on %s, %s)' % (b['task'], i, host, env),
            'resource': b['resource'],
            'result': '%s Took %d s on %s; build %d.' % (b['result'], rng.randint(2, 900), host, rng.randint(1000, 99999)),
            'score': score,
            'outcome': b['outcome'],
            'agent_id': 'bench-%d' % (i % 8),
        }
        if b.get('resource_version'):
            rec['resource_version'] = b['resource_version']
        out.append(rec)
    return out


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))] if v else float('nan')
