import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { KnowHubError, type SubmitBody, type SubmitResponse } from "../src/client.js";
import { SubmitQueue } from "../src/queue.js";
import { sleep, tmpDir } from "./helpers.js";

const body = (task: string): SubmitBody => ({ task, resource: "r", result: "x", score: 3, timestamp: "2026-11-21T07:30:00Z" });
const ok = (id = "srv-1"): SubmitResponse => ({ id, status: "approved", httpStatus: 201 });
const logger = () => {
  const lines: string[] = [];
  return { lines, info: (m: string) => lines.push(`info ${m}`), warn: (m: string) => lines.push(`warn ${m}`) };
};

test("enqueue writes one durable JSON file per item; list returns them oldest first", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  const a = await q.enqueue(body("a"), "down");
  await sleep(2);
  const b = await q.enqueue(body("b"));
  const items = await q.list();
  assert.deepEqual(items.map((i) => i.body.task), ["a", "b"]);
  assert.equal(items[0]!.lastError, "down");
  assert.equal(items[0]!.attempts, 0);
  assert.ok(fs.existsSync(path.join(q.dir, `${a.id}.json`)));
  assert.ok(fs.existsSync(path.join(q.dir, `${b.id}.json`)));
  assert.equal(q.pendingCountSync(), 2);
  assert.equal(fs.readdirSync(q.dir).filter((n) => n.endsWith(".tmp")).length, 0);
});

test("replay delivers in order and deletes each file only after the server answered", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("a"));
  await sleep(2);
  await q.enqueue(body("b"));
  const seen: string[] = [];
  const log = logger();
  const r = await q.replay(async (b) => {
    seen.push(b.task);
    assert.equal(q.pendingCountSync(), seen.length === 1 ? 2 : 1, "file still there while sending");
    return ok(`id-${b.task}`);
  }, log);
  assert.deepEqual(seen, ["a", "b"]);
  assert.deepEqual(r.sent.map((s) => s.id), ["id-a", "id-b"]);
  assert.equal(r.remaining, 0);
  assert.equal(q.pendingCountSync(), 0);
  assert.equal(log.lines.filter((l) => l.includes("delivered")).length, 2);
  assert.ok(!fs.existsSync(path.join(q.dir, "replay.lock")), "lock released");
});

test("replay reports duplicates absorbed by the server", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("a"));
  const r = await q.replay(async () => ({ id: "x", duplicate_of: "x", confirmations: 2, httpStatus: 200 }));
  assert.equal(r.sent[0]!.duplicate, true);
});

test("a retryable failure stops the replay, keeps the items and counts the attempt", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("a"));
  await sleep(2);
  await q.enqueue(body("b"));
  const r = await q.replay(async () => {
    throw new KnowHubError("unreachable", "connection refused");
  });
  assert.equal(r.sent.length, 0);
  assert.equal(r.remaining, 2);
  assert.match(r.stoppedBy ?? "", /connection refused/);
  const items = await q.list();
  assert.equal(items.length, 2);
  assert.equal(items[0]!.attempts, 1);
  assert.equal(items[0]!.lastError, "connection refused");
  assert.equal(items[1]!.attempts, 0, "stopped at the first item");
});

test("a 5xx midway keeps the rest for later", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  for (const t of ["a", "b", "c"]) {
    await q.enqueue(body(t));
    await sleep(2);
  }
  let n = 0;
  const r = await q.replay(async (b) => {
    if (++n === 2) throw new KnowHubError("http", "HTTP 503", { status: 503 });
    return ok(b.task);
  });
  assert.equal(r.sent.length, 1);
  assert.equal(r.remaining, 2);
  assert.deepEqual((await q.list()).map((i) => i.body.task), ["b", "c"]);
});

test("an item the server rejects as invalid is moved to failed/, never deleted", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("bad"));
  await sleep(2);
  await q.enqueue(body("good"));
  const log = logger();
  const r = await q.replay(async (b) => {
    if (b.task === "bad") throw new KnowHubError("http", "HTTP 400 invalid_field", { status: 400 });
    return ok("g");
  }, log);
  assert.equal(r.failed.length, 1);
  assert.equal(r.sent.length, 1);
  assert.equal(q.pendingCountSync(), 0);
  const failed = fs.readdirSync(q.failedDir);
  assert.equal(failed.length, 1);
  assert.equal(JSON.parse(fs.readFileSync(path.join(q.failedDir, failed[0]!), "utf8")).body.task, "bad");
  assert.ok(log.lines.some((l) => l.startsWith("warn") && l.includes("moved to")));
});

test("401/403 keep the item queued (fix the key, it goes out later)", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("a"));
  const r = await q.replay(async () => {
    throw new KnowHubError("http", "HTTP 401 unauthorized", { status: 401 });
  });
  assert.equal(r.remaining, 1);
  assert.equal(q.pendingCountSync(), 1);
});

test("a corrupt queue file is moved to failed/ instead of blocking the queue", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("a"));
  fs.writeFileSync(path.join(q.dir, "00000000000000-bad.json"), "{not json");
  const items = await q.list();
  assert.deepEqual(items.map((i) => i.body.task), ["a"]);
  assert.deepEqual(fs.readdirSync(q.failedDir), ["00000000000000-bad.json"]);
});

test("an empty or missing queue replays nothing", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "does-not-exist", "queue"));
  assert.deepEqual(await q.list(), []);
  let called = false;
  const r = await q.replay(async () => {
    called = true;
    return ok();
  });
  assert.equal(called, false);
  assert.equal(r.remaining, 0);
});

test("concurrent replay calls in one process share a single run", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("a"));
  let calls = 0;
  const submit = async () => {
    calls++;
    await sleep(30);
    return ok();
  };
  const [r1, r2] = await Promise.all([q.replay(submit), q.replay(submit)]);
  assert.equal(calls, 1);
  assert.equal(r1, r2);
});

test("another process holding the lock makes replay skip; a stale lock is taken over", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("a"));
  const lock = path.join(q.dir, "replay.lock");
  fs.writeFileSync(lock, "{}");
  const busy = await q.replay(async () => ok());
  assert.equal(busy.busy, true);
  assert.equal(busy.remaining, 1);
  const old = new Date(Date.now() - 10 * 60 * 1000);
  fs.utimesSync(lock, old, old);
  const r = await q.replay(async () => ok());
  assert.equal(r.sent.length, 1);
  assert.equal(q.pendingCountSync(), 0);
});

/** Polls `cond` every 10 ms until it holds or `ms` pass (timers on a loaded CI machine are late). */
async function until(cond: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await sleep(10);
  return cond();
}

test("scheduleReplay retries on a timer until the queue is empty", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("a"));
  const lock = path.join(q.dir, "replay.lock");
  let up = false;
  let attempts = 0;
  const submit = async () => {
    attempts += 1;
    if (!up) throw new KnowHubError("unreachable", "down");
    return ok();
  };
  q.scheduleReplay(submit, undefined, 20);
  assert.ok(await until(() => attempts >= 1), "the timer replayed");
  q.cancelScheduled();
  // The replay that ran while the server was down has finished and did not re-arm.
  assert.ok(await until(() => !fs.existsSync(lock)), "replay released its lock");
  assert.equal(q.pendingCountSync(), 1, "still queued while the server is down");
  up = true;
  q.scheduleReplay(submit, undefined, 20);
  q.scheduleReplay(submit, undefined, 20); // idempotent while scheduled
  assert.ok(await until(() => q.pendingCountSync() === 0), "delivered once the server is back");
  q.cancelScheduled();
});

test("cancelScheduled during a replay stops the retries it would schedule", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  await q.enqueue(body("a"));
  let attempts = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const submit = async (): Promise<SubmitResponse> => {
    attempts += 1;
    await gate;
    throw new KnowHubError("unreachable", "down");
  };
  q.scheduleReplay(submit, undefined, 1);
  assert.ok(await until(() => attempts === 1), "the timer replayed");
  q.cancelScheduled(); // while the replay waits on the server
  release();
  assert.ok(await until(() => !fs.existsSync(path.join(q.dir, "replay.lock"))));
  // Had it re-armed, a new timer would exist: scheduling now would be a no-op and this
  // replay (1 ms) would not run.
  q.scheduleReplay(async () => ok(), undefined, 1);
  assert.ok(await until(() => q.pendingCountSync() === 0), "a fresh schedule runs: nothing re-armed");
  q.cancelScheduled();
});

test("queue files are private to the user (0600)", async () => {
  const q = new SubmitQueue(path.join(tmpDir(), "queue"));
  const item = await q.enqueue(body("a"));
  const mode = fs.statSync(path.join(q.dir, `${item.id}.json`)).mode & 0o777;
  assert.equal(mode, 0o600);
});
