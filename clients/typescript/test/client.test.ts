// Every method of the client against a real `knowhub serve` (test/server.ts), and the mapping of
// the server's errors onto KnowHubError.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { KnowHubClient, KnowHubError, type Change, type SubmitBody } from "../src/index.js";
import { startHub, type Hub } from "./server.js";

let hub: Hub;
let admin: KnowHubClient;
let agent: KnowHubClient;
let reviewer: KnowHubClient;
let agentKeyName: string;

before(async () => {
  hub = await startHub();
  admin = new KnowHubClient({ url: hub.url, apiKey: hub.adminKey, timeoutMs: 10_000 });
  const a = await admin.createKey({ name: "ts-agent", role: "agent" });
  const r = await admin.createKey({ name: "ts-reviewer", role: "reviewer" });
  agentKeyName = a.name;
  agent = new KnowHubClient({ url: hub.url, apiKey: a.key, timeoutMs: 10_000 });
  reviewer = new KnowHubClient({ url: hub.url, apiKey: r.key, timeoutMs: 10_000 });
});

after(async () => {
  await hub?.stop();
});

/** Runs `fn` and returns the KnowHubError it must throw. */
async function failure(fn: () => Promise<unknown>): Promise<KnowHubError> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof KnowHubError, `expected a KnowHubError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected the call to fail");
}

let n = 0;
function experience(over: Partial<SubmitBody> = {}): SubmitBody {
  n++;
  return {
    task: `Speed up the nightly gadget build number ${n}`,
    resource: `gadgetctl build --cache-dir /var/cache/gadget-${n}`,
    result: `Build time went from 40 s to 8 s with the warm cache (${n})`,
    score: 4,
    ...over,
  };
}

test("health: counts for a key, only the status for a stranger", async () => {
  const h = await admin.health();
  assert.equal(h.status, "ok");
  assert.equal(h.backend, "sqlite");
  assert.equal(typeof h.records, "number");
  assert.equal(h.embedder, "none");
  const anon = await new KnowHubClient({ url: hub.url }).health();
  assert.deepEqual(anon, { status: "ok" });
});

test("submit: 201 for a new record, 200 naming it for a repeat; get, content and history read it back", async () => {
  const body = experience({ agent_id: "builder", outcome: "success", content: "## Steps\n1. warm the cache", content_type: "text/markdown", resource_version: "2.1" });
  const first = await agent.submit(body);
  assert.equal(first.httpStatus, 201);
  assert.equal(first.status, "approved");
  assert.equal(first.confirmations, 1);
  const again = await reviewer.submit(body);
  assert.equal(again.httpStatus, 200);
  assert.equal(again.duplicate_of, first.id);
  assert.equal(again.confirmations, 2);

  const rec = await agent.get(first.id);
  assert.equal(rec.id, first.id);
  assert.equal(rec.task, body.task);
  assert.equal(rec.resource_version, "2.1");
  assert.equal(rec.has_content, true);
  assert.equal(rec.agent_id, `${agentKeyName}/builder`);

  const c = await agent.content(first.id);
  assert.equal(c.experience_id, first.id);
  assert.equal(c.content, body.content);
  assert.equal(c.content_type, "text/markdown");

  const h = await reviewer.history(first.id);
  assert.equal(h.id, first.id);
  assert.deepEqual(
    h.events.map((e) => e.kind),
    ["submitted", "confirmed"],
  );
});

test("search: every filter reaches the server", async () => {
  const ok = await agent.submit(experience({ task: "Rotate the sprocket logs every night", resource: "logrotate sprocket.conf", result: "Disk stopped filling up", agent_id: "ops" }));
  const bad = await agent.submit(
    experience({ task: "Rotate the sprocket logs every hour", resource: "cron sprocket-rotate.sh", result: "The script raced the writer and lost lines", score: 1, outcome: "failure", agent_id: "ops" }),
  );
  const all = await agent.search({ q: "sprocket logs rotate", mode: "fts", min_relevance: 0, top_k: 10 });
  assert.equal(all.mode, "fts");
  const ids = all.results.map((r) => r.id);
  assert.ok(ids.includes(ok.id) && ids.includes(bad.id), JSON.stringify(ids));

  const successes = await agent.search({ q: "sprocket logs rotate", outcome: "success", min_relevance: 0, mode: "fts" });
  assert.deepEqual(successes.results.map((r) => r.id), [ok.id]);
  const failures = await agent.search({ q: "sprocket logs rotate", outcome: "failure", min_relevance: 0, scope: "org", agent_id: "ops" });
  assert.deepEqual(failures.results.map((r) => r.id), [bad.id]);
  assert.equal(failures.results[0]!.outcome, "failure");
  const one = await agent.search({ q: "sprocket logs rotate", top_k: 1, min_score: 5, min_relevance: 0 });
  assert.equal(one.results.length, 1);
  assert.equal(one.results[0]!.id, bad.id, "a failure lesson is returned whatever its rating; the success (4) is below min_score 5");
  const nobody = await agent.search({ q: "sprocket logs rotate", agent_id: "someone-else", min_relevance: 0 });
  assert.equal(nobody.count, 0);
  assert.deepEqual(nobody.results, []);

  const e = await failure(() => agent.search({ q: "sprocket", scope: "team/secret" }));
  assert.deepEqual([e.status, e.code, e.kind, e.retryable], [403, "forbidden", "http", true]);
  const q = await failure(() => agent.search({ q: "sprocket", top_k: 500 }));
  assert.deepEqual([q.status, q.code], [400, "invalid_query"]);
  assert.match(q.message, /GET \/api\/search failed: HTTP 400 invalid_query: .*top_k/);
});

test("feedback: a vote returns the counts; bad input is a 400 naming the field; an unknown id 404", async () => {
  const rec = await agent.submit(experience());
  const v = await agent.feedback({ id: rec.id, outcome: "helped", note: "worked here too" });
  assert.equal(v.id, rec.id);
  assert.equal(v.outcome, "helped");
  assert.equal(v.voter, agentKeyName);
  assert.equal(v.feedback.helped, 1);
  assert.equal(v.disputed, false);
  const e = await failure(() => agent.feedback({ id: rec.id, outcome: "great" as never }));
  assert.deepEqual([e.status, e.code, e.field, e.retryable], [400, "invalid_field", "outcome", false]);
  const missing = await failure(() => agent.feedback({ id: "0192f0c4-0000-7000-8000-000000000000", outcome: "failed" }));
  assert.deepEqual([missing.status, missing.code], [404, "not_found"]);
});

test("submit: validation errors carry code, field and the server's message", async () => {
  const e = await failure(() => agent.submit(experience({ score: 9 })));
  assert.equal(e.kind, "http");
  assert.equal(e.status, 400);
  assert.equal(e.code, "invalid_field");
  assert.equal(e.field, "score");
  assert.match(e.serverMessage ?? "", /score/);
  assert.match(e.message, /^KnowHub POST \/api\/submit failed: HTTP 400 invalid_field: score/);
});

test("resources: the list and one resource's page; an unknown one is 404", async () => {
  await agent.submit(experience({ resource: "pg_dump --format=custom", task: "Back up the widget database", result: "A 2 GB dump restored in 3 minutes" }));
  const list = await agent.resources({ q: "pg_dump", limit: 5 });
  assert.equal(list.count, 1);
  assert.equal(list.resources[0]!.resource, "pg_dump --format=custom");
  const page = await agent.resource("pg_dump --format=custom");
  assert.equal(page.records, 1);
  assert.equal(page.top.length, 1);
  const e = await failure(() => agent.resource("no-such-tool"));
  assert.equal(e.status, 404);
});

test("extraction: upload, the job's status, then review: pending, approve with edits, reject, revert", async () => {
  const messages = [
    { role: "user", content: "Make the client tests start their own hub" },
    { role: "assistant", content: "Started knowhub serve with --bind 127.0.0.1:0; it printed the address" },
  ];
  const queued = await agent.extract({ messages, session_key: "ts:session:1", agent_id: "extractor", source: "ts-client" });
  assert.ok(queued.job_id);
  assert.ok(queued.status === "queued" || queued.status === "running" || queued.status === "done", queued.status);
  let job = await agent.extractJob(queued.job_id!);
  for (let i = 0; i < 300 && job.status !== "done" && job.status !== "failed"; i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = await agent.extractJob(queued.job_id!);
  }
  assert.equal(job.status, "done", JSON.stringify(job));
  assert.equal(job.extracted_count, 1);
  assert.ok(hub.llmCalls() >= 1);
  const extracted = job.experiences[0]!;
  assert.equal(extracted.status, "pending");
  const nothing = await agent.extract({ messages, session_key: "ts:session:1" });
  assert.equal(nothing.status, "nothing_new");
  assert.equal(nothing.job_id ?? null, null);

  const queue = await reviewer.pending({ kind: "pending", limit: 100 });
  assert.ok(queue.items.some((i) => i.id === extracted.id), "the extracted record waits for review");
  const approved = await reviewer.approve(extracted.id, { score: 5, result: "Port 0 picks a free port; the address is printed on stdout" });
  assert.equal(approved.status, "approved");
  assert.equal(approved.score, 5);
  const again = await failure(() => reviewer.approve(extracted.id));
  assert.deepEqual([again.status, again.code], [409, "conflict"]);
  const hist = await reviewer.history(extracted.id);
  const edit = hist.events.find((e) => e.kind === "edited");
  assert.ok(edit, JSON.stringify(hist.events.map((e) => e.kind)));
  const reverted = await reviewer.revert(extracted.id, edit.seq);
  assert.equal(reverted.score, 4);

  // A second upload of a different session: rejected with a reason.
  const other = await agent.extract({ messages: [{ role: "user", content: "another session" }], session_key: "ts:session:2" }, { wait: 30 });
  assert.equal(other.status, "done");
  const rejected = await reviewer.reject(other.experiences[0]!.id, "not a lesson");
  assert.equal(rejected.status, "rejected");
  assert.equal(rejected.review?.note, "not a lesson");

  const forbidden = await failure(() => agent.pending());
  assert.deepEqual([forbidden.status, forbidden.code], [403, "forbidden"]);
});

test("review extras: view, merge, scope, dashboard, metrics", async () => {
  const rec = await agent.submit(experience());
  const view = await reviewer.view(rec.id);
  assert.equal(view.experience.id, rec.id);
  assert.ok(Array.isArray(view.history));
  const moved = await failure(() => reviewer.setScope(rec.id, "team/"));
  assert.deepEqual([moved.status, moved.field], [400, "scope"]);
  const same = await reviewer.setScope(rec.id, "org");
  assert.equal(same.scope, "org");
  const m = await failure(() => reviewer.merge(rec.id, rec.id));
  assert.equal(m.status, 400);
  const d = await reviewer.dashboard({ weeks: 2 });
  assert.equal(d.weeks.length, 2);
  assert.ok(d.totals.records >= 1);
  const metrics = await reviewer.metrics();
  assert.match(metrics, /knowhub_http_requests_total/);
});

test("quarantine: hold a key's records, list, release; lifting an unknown one is 404", async () => {
  const rec = await agent.submit(experience());
  const q = await admin.quarantine({ key: agentKeyName });
  assert.equal(q.kind, "key");
  assert.equal(q.value, agentKeyName);
  assert.ok(q.records >= 1);
  const hidden = await failure(() => agent.get(rec.id));
  assert.equal(hidden.status, 404);
  const list = await reviewer.quarantines();
  assert.ok(list.quarantines.some((x) => x.value === agentKeyName));
  const released = await admin.releaseQuarantine({ key: agentKeyName });
  assert.equal(released.action, "restore");
  assert.equal((await agent.get(rec.id)).id, rec.id);
  const none = await failure(() => admin.releaseQuarantine({ key: agentKeyName }));
  assert.equal(none.status, 404);
  const both = await failure(() => admin.quarantine({} as never));
  assert.deepEqual([both.status, both.field], [400, "key"]);
});

test("keys: create, list, revoke; a revoked key is 401; an agent may not manage keys", async () => {
  const k = await admin.createKey({ name: "ts-short-lived", role: "agent", read: "org" });
  assert.match(k.key, /^kh_/);
  assert.equal(k.role, "agent");
  const list = await admin.keys();
  const listed = list.keys.find((x) => x.name === "ts-short-lived");
  assert.ok(listed);
  assert.equal((listed as Record<string, unknown>).key, undefined, "the list never holds keys");
  const dup = await failure(() => admin.createKey({ name: "ts-short-lived", role: "agent" }));
  assert.equal(dup.status, 409);
  const revoked = await admin.revokeKey("ts-short-lived");
  assert.ok(revoked.revoked_at);
  const e = await failure(() => new KnowHubClient({ url: hub.url, apiKey: k.key }).search({ q: "x" }));
  assert.deepEqual([e.status, e.code, e.retryable], [401, "unauthorized", true]);
  const f = await failure(() => agent.keys());
  assert.deepEqual([f.status, f.code], [403, "forbidden"]);
});

test("delete: admin only; the record is gone and the feed says so", async () => {
  const rec = await agent.submit(experience());
  const denied = await failure(() => reviewer.delete(rec.id));
  assert.equal(denied.status, 403);
  assert.deepEqual(await admin.delete(rec.id), { deleted: rec.id });
  assert.equal((await failure(() => admin.get(rec.id))).status, 404);
  const seen: Change[] = [];
  for await (const page of admin.followChanges({ untilCaughtUp: true, limit: 50 })) seen.push(...page.changes);
  const last = seen.filter((c) => c.experience_id === rec.id).pop();
  assert.equal(last?.kind, "deleted");
  assert.equal(last?.experience ?? null, null);
});

test("changes: pages follow the cursor; a malformed cursor is 400 naming since", async () => {
  const first = await admin.changes({ limit: 2 });
  assert.equal(first.changes.length, 2);
  assert.equal(first.more, true);
  const second = await admin.changes({ since: first.cursor, limit: 2 });
  assert.ok(second.changes[0]!.seq > first.changes[1]!.seq);
  const seen: number[] = [];
  for await (const page of admin.followChanges({ untilCaughtUp: true, limit: 7 })) seen.push(...page.changes.map((c) => c.seq));
  assert.deepEqual(seen, [...seen].sort((a, b) => a - b));
  assert.equal(new Set(seen).size, seen.length, "no change twice");
  assert.deepEqual(seen.slice(0, 2), first.changes.map((c) => c.seq));
  const e = await failure(() => admin.changes({ since: "not-a-cursor" }));
  assert.deepEqual([e.status, e.field], [400, "since"]);
});

test("changes: following long-polls until a change comes, and ends when its signal aborts", async () => {
  const tail = await admin.changes({ limit: 1000 });
  let cursor = tail.cursor;
  for (let p = tail; p.more; ) {
    p = await admin.changes({ since: cursor, limit: 1000 });
    cursor = p.cursor;
  }
  const ac = new AbortController();
  const got: Change[] = [];
  const following = (async () => {
    for await (const page of admin.followChanges({ since: cursor, wait: 20, signal: ac.signal })) {
      got.push(...page.changes);
      ac.abort();
    }
  })();
  const rec = await agent.submit(experience());
  await following;
  assert.ok(got.some((c) => c.experience_id === rec.id && c.kind === "submitted"), JSON.stringify(got.map((c) => c.kind)));
});

test("errors: unreachable, timeout, abort, 401 without a key, 404 for an unknown route", async () => {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const down = await failure(() => new KnowHubClient({ url: `http://127.0.0.1:${port}` }).health());
  assert.equal(down.kind, "unreachable");
  assert.match(down.message, /connection refused/);
  assert.equal(down.retryable, true);

  // Long-poll with nothing new: the per-call timeout ends it first.
  const tail = await admin.changes({ limit: 1000 });
  let cursor = tail.cursor;
  for (let p = tail; p.more; ) {
    p = await admin.changes({ since: cursor, limit: 1000 });
    cursor = p.cursor;
  }
  const slow = await failure(() => admin.changes({ since: cursor, wait: 30 }, { timeoutMs: 300 }));
  assert.equal(slow.kind, "timeout");
  assert.match(slow.message, /did not answer within 300 ms/);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  const cancelled = await failure(() => admin.changes({ since: cursor, wait: 30 }, { signal: ac.signal }));
  assert.equal(cancelled.kind, "aborted");
  assert.equal(cancelled.retryable, false);

  const anon = await failure(() => new KnowHubClient({ url: hub.url }).search({ q: "x" }));
  assert.deepEqual([anon.status, anon.code], [401, "unauthorized"]);
  const route = await failure(() => admin.request("GET", "/api/no-such-route"));
  assert.deepEqual([route.status, route.code], [404, "not_found"]);
});

test("errors: a caller over its write budget gets 429 rate_limited with Retry-After", async () => {
  const limited = await startHub({ config: "[limits]\nwrites_per_minute = 2\n" });
  try {
    const c = new KnowHubClient({ url: limited.url, apiKey: limited.adminKey });
    await c.submit(experience());
    await c.submit(experience());
    const e = await failure(() => c.submit(experience()));
    assert.deepEqual([e.status, e.code, e.retryable], [429, "rate_limited", true]);
    assert.ok(e.retryAfter !== undefined && e.retryAfter > 0 && e.retryAfter <= 60, String(e.retryAfter));
  } finally {
    await limited.stop();
  }
});

test("sync: a second hub pulls this one's records, resumes, and names a refused key", async () => {
  const other = await startHub();
  try {
    const otherAdmin = new KnowHubClient({ url: other.url, apiKey: other.adminKey, timeoutMs: 30_000 });
    const sub = await agent.submit(experience());
    const report = await otherAdmin.sync({ from: hub.url, key: hub.adminKey });
    assert.ok(report.created >= 1, JSON.stringify(report));
    assert.ok(report.cursor.startsWith(`${report.peer}:`));
    const pulled = await otherAdmin.get(sub.id);
    assert.equal(pulled.provenance?.hub, report.peer);
    const again = await otherAdmin.sync({ from: hub.url, key: hub.adminKey });
    assert.equal(again.created, 0);
    const err = await failure(() => otherAdmin.sync({ from: hub.url, key: "kh_not_a_key" }));
    assert.equal(err.status, 400);
    assert.equal(err.field, "key");
  } finally {
    await other.stop();
  }
});

test("playbook: failures first, every line cites its records; an unknown resource is 404", async () => {
  const resource = `playctl-${Date.now()}`;
  await agent.submit(experience({ resource }));
  await agent.submit(experience({ resource }));
  await agent.submit(experience({ resource, result: "failed: the lockfile was stale", score: 2, outcome: "failure" }));
  const pb = await agent.playbook(resource, { budget: 400 });
  assert.equal(pb.lines[0]?.section, "failures");
  assert.ok(pb.text.includes("lockfile was stale"));
  assert.ok(pb.lines.every((l) => l.ids.length > 0));
  const err = await failure(() => agent.playbook(`${resource}-unknown`));
  assert.equal(err.status, 404);
  assert.equal(pb.kind, "distilled");
  assert.equal(pb.written, undefined, "agents are not told about drafts");
  // Nothing drafted yet; this hub's model answers extraction items, which are no playbook (502,
  // nothing stored); agents may not review.
  assert.equal((await failure(() => reviewer.writtenPlaybook(resource))).status, 404);
  const draft = await failure(() => reviewer.draftPlaybook(resource, { budget: 300 }));
  assert.equal(draft.status, 502);
  assert.equal(draft.code, "upstream");
  assert.equal((await failure(() => reviewer.writtenPlaybook(resource))).status, 404);
  assert.equal((await failure(() => agent.reviewPlaybook(resource, "approve"))).status, 403);
});
