#!/usr/bin/env python3
"""Two hubs on 127.0.0.1 syncing both ways under load, with kills.

Each hub pulls the other continuously (`[sync]` in its config). The script submits N records to
each hub from several threads; meanwhile it kills either process (SIGKILL) and restarts it. When
all submits are in, it deletes one record on each side, waits for the hubs to agree, stops them
and compares their exports: the same ids with the same fields, none lost, none duplicated, each
record's `provenance.hub` naming the hub it was written on (empty there).

    python3 bench/sync_load.py --bin target/release/knowhub --records 2000

Standard library only. Servers listen on 127.0.0.1 and stop on their own.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hub:
    def __init__(self, name: str, binary: str, root: str) -> None:
        self.name, self.binary = name, binary
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = dict(os.environ, KNOWHUB_DATA_DIR=os.path.join(self.dir, "data"), KNOWHUB_EMBEDDER="none",
                        KNOWHUB_AUTH="true", KNOWHUB_CONFIG=os.path.join(self.dir, "knowhub.toml"))
        for k in [k for k in self.env if k.startswith("KNOWHUB_") and k not in
                  ("KNOWHUB_DATA_DIR", "KNOWHUB_EMBEDDER", "KNOWHUB_AUTH", "KNOWHUB_CONFIG")]:
            del self.env[k]
        open(self.env["KNOWHUB_CONFIG"], "w").close()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = open(os.path.join(self.dir, "serve.log"), "ab")

    def key(self, name: str, role: str) -> str:
        out = subprocess.run([self.binary, "keys", "create", "--role", role, "--name", name], env=self.env,
                             check=True, capture_output=True, text=True).stdout
        return out.strip().splitlines()[-1].strip()

    def configure(self, peer_url: str, peer_key: str) -> None:
        with open(self.env["KNOWHUB_CONFIG"], "w") as f:
            f.write("[limits]\nwrites_per_minute = 0\nrecord_burst = 0\nrecords_per_hour = 0\n\n"
                    f"[sync]\nfrom = \"{peer_url}\"\nkey = \"{peer_key}\"\n")

    def start(self) -> None:
        self.proc = subprocess.Popen([self.binary, "serve", "--bind", f"127.0.0.1:{self.port}"], env=self.env,
                                     stdout=self.log, stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"{self.name} did not start; see {self.dir}/serve.log")

    def kill(self) -> None:
        if self.proc:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def export(self) -> list[dict]:
        out = subprocess.run([self.binary, "export"], env=self.env, check=True, capture_output=True, text=True).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]


def call(url: str, key: str, method: str, path: str, body: dict | None = None, timeout: float = 10) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url + path, data=data, method=method,
                                 headers={"authorization": f"Bearer {key}", "content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def records(side: str, n: int) -> list[dict]:
    tools = ["kubectl rollout undo", "helm upgrade --atomic", "pnpm install --frozen-lockfile", "terraform plan",
             "docker buildx bake", "pgbouncer transaction pooling", "cargo build --release", "git bisect run"]
    return [{"task": f"{side} job {i}: keep the {tools[i % len(tools)].split()[0]} step green on branch b{i}",
             "resource": tools[i % len(tools)],
             "result": f"worked after pinning the version (run {side}-{i})" if i % 4 else
                       f"failed: the cache was stale in run {side}-{i}",
             "score": 4 if i % 4 else 2, "outcome": "success" if i % 4 else "failure"} for i in range(n)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="target/release/knowhub")
    ap.add_argument("--records", type=int, default=2000, help="submits on each side")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--kills", type=int, default=2, help="kills of each process during the run")
    ap.add_argument("--settle", type=float, default=180, help="seconds to wait for the hubs to agree")
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="knowhub-sync-load-")
    a, b = Hub("a", args.bin, root), Hub("b", args.bin, root)
    keys = {}
    for h in (a, b):
        keys[h.name] = {"agent": h.key("bot", "agent"), "peer": h.key("peer", "reviewer"), "admin": h.key("root", "admin")}
    a.configure(b.url, keys["b"]["peer"])
    b.configure(a.url, keys["a"]["peer"])
    a.start()
    b.start()
    try:
        return run(args, a, b, keys)
    finally:
        a.stop()
        b.stop()
        shutil.rmtree(root, ignore_errors=True)


def run(args: argparse.Namespace, a: Hub, b: Hub, keys: dict) -> int:
    hubs = {"a": a, "b": b}
    written: dict[str, dict[str, dict]] = {"a": {}, "b": {}}
    latencies: list[float] = []
    lock = threading.Lock()
    retries = [0]

    def submit_all(side: str, part: list[dict]) -> None:
        h = hubs[side]
        for rec in part:
            while True:
                t = time.perf_counter()
                try:
                    s, v = call(h.url, keys[side]["agent"], "POST", "/api/submit", rec)
                except OSError:
                    s, v = 0, {}
                if s in (200, 201, 202):
                    with lock:
                        latencies.append(time.perf_counter() - t)
                        written[side][v["id"]] = rec
                    break
                with lock:
                    retries[0] += 1
                time.sleep(0.2)  # the hub is restarting

    threads = []
    for side in ("a", "b"):
        recs = records(side, args.records)
        per = (len(recs) + args.threads - 1) // args.threads
        for i in range(args.threads):
            threads.append(threading.Thread(target=submit_all, args=(side, recs[i * per:(i + 1) * per])))
    start = time.time()
    for t in threads:
        t.start()

    kills = 0
    total = 2 * args.records
    plan = [(side, (k + 1) / (args.kills * 2 + 1)) for k in range(args.kills * 2)
            for side in ["a" if k % 2 == 0 else "b"]]
    for side, at in plan:
        while sum(len(w) for w in written.values()) < at * total and any(t.is_alive() for t in threads):
            time.sleep(0.05)
        hubs[side].kill()
        kills += 1
        time.sleep(1.0)
        hubs[side].start()
    for t in threads:
        t.join()
    load_s = time.time() - start

    # One deletion on each side, of a record written on the other (it came by sync).
    deadline = time.time() + args.settle
    deleted = []
    for side, other in (("a", "b"), ("b", "a")):
        victim = next(iter(written[other]))
        while time.time() < deadline:
            s, _ = call(hubs[side].url, keys[side]["admin"], "DELETE", f"/api/experiences/{victim}")
            if s in (200, 204):
                break
            time.sleep(0.5)  # not arrived yet
        deleted.append(victim)

    expect = total - len(deleted)
    agreed_at = None
    while time.time() < deadline:
        counts = [call(h.url, keys[n]["admin"], "GET", "/healthz")[1].get("records") for n, h in hubs.items()]
        if counts == [expect, expect]:
            agreed_at = time.time()
            break
        time.sleep(0.5)
    time.sleep(2)  # a last pull of the other's final events
    a.stop()
    b.stop()
    ea, eb = a.export(), b.export()

    def fields(r: dict) -> tuple:
        return (r["task"], r["resource"], r["result"], r["score"], r["outcome"], r["status"])

    ids_a, ids_b = {r["id"]: r for r in ea}, {r["id"]: r for r in eb}
    problems = []
    if set(ids_a) != set(ids_b):
        problems.append(f"ids differ: {len(set(ids_a) - set(ids_b))} only on a, {len(set(ids_b) - set(ids_a))} only on b")
    for i in set(ids_a) & set(ids_b):
        if fields(ids_a[i]) != fields(ids_b[i]):
            problems.append(f"{i} differs")
    for side, recs in (("a", ids_a), ("b", ids_b)):
        texts = [fields(r)[:3] for r in recs.values()]
        if len(texts) != len(set(texts)):
            problems.append(f"{side}: {len(texts) - len(set(texts))} duplicated records")
        if len(recs) != expect:
            problems.append(f"{side}: {len(recs)} records, expected {expect}")
    for side, other, mine in (("a", "b", ids_a), ("b", "a", ids_b)):
        theirs = ids_b if side == "a" else ids_a
        for rid in written[side]:
            if rid in deleted:
                continue
            if rid not in mine:
                problems.append(f"{rid} written on {side} is lost there")
                continue
            if mine[rid].get("provenance", {}).get("hub"):
                problems.append(f"{rid} written on {side} names another origin there")
            if rid in theirs and not theirs[rid].get("provenance", {}).get("hub"):
                problems.append(f"{rid} written on {side} has no origin on {other}")
    for d in deleted:
        if d in ids_a or d in ids_b:
            problems.append(f"deleted {d} is still there")
    lat = sorted(latencies)
    print(json.dumps({
        "records_per_side": args.records, "kills": kills, "submit_retries_while_down": retries[0],
        "load_seconds": round(load_s, 1),
        "agreed_seconds_after_load": round(agreed_at - start - load_s, 1) if agreed_at else None,
        "submit_p50_ms": round(statistics.median(lat) * 1000, 1),
        "submit_p99_ms": round(lat[int(len(lat) * 0.99) - 1] * 1000, 1),
        "records_a": len(ids_a), "records_b": len(ids_b), "expected": expect, "deleted": deleted,
        "problems": problems[:20], "problem_count": len(problems),
    }, indent=2))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
