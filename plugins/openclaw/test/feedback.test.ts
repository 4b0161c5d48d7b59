import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { LIMITS, ToolInputError } from "../src/tools.js";
import { useFakeServer, closedPort, createFakeHost, json, textOf, tmpDir, type FakeServer } from "./helpers.js";

let srv: FakeServer;
useFakeServer((s) => (srv = s));

const ID = "0192f0c4-0000-7000-8000-000000000001";

function host(over: Record<string, unknown> = {}) {
  return createFakeHost({ apiUrl: srv.url, submittedBy: "ops@example.com", timeoutMs: 1000, ...over });
}

/** Answers POST /api/feedback like the server: 201 with the counts after this vote. */
function acceptFeedback(counts = { helped: 1, failed: 0, irrelevant: 0 }, disputed = false) {
  const bodies: any[] = [];
  srv.routes.set("POST /api/feedback", (r, res) => {
    bodies.push(r.body);
    const b = r.body as any;
    json(res, 201, { id: b.id, outcome: b.outcome, voter: b.agent_id ?? "anonymous", feedback: counts, disputed });
  });
  return bodies;
}

test("kb_feedback posts id, outcome, note and the OpenClaw agent id, and says it was recorded", async () => {
  const bodies = acceptFeedback({ helped: 3, failed: 1, irrelevant: 0 });
  const r = await host().run("kb_feedback", { id: ` ${ID} `, outcome: "helped", note: "worked on pgbouncer 1.22" }, { agentId: "agent-7", sessionKey: "agent:agent-7:main" });
  const req = srv.requests[0]!;
  assert.equal(req.method, "POST");
  assert.equal(req.path, "/api/feedback");
  assert.deepEqual(bodies[0], { id: ID, outcome: "helped", note: "worked on pgbouncer 1.22", agent_id: "agent-7" });
  const t = textOf(r);
  assert.match(t, new RegExp(`^Feedback recorded for experience ${ID}: helped\\. Votes now: helped: 3, failed: 1, irrelevant: 0\\.`));
  assert.match(t, /replaces any earlier one/);
  assert.ok(!/disputed/.test(t));
  assert.deepEqual(r.details, { id: ID, outcome: "helped", voter: "agent-7", feedback: { helped: 3, failed: 1, irrelevant: 0 }, disputed: false });
});

test("kb_feedback: failed and irrelevant outcomes, no note, no agent id when the host gives none", async () => {
  const bodies = acceptFeedback({ helped: 0, failed: 1, irrelevant: 1 });
  const h = host();
  const f = await h.run("kb_feedback", { id: ID, outcome: "failed" });
  assert.match(textOf(f), /: failed\. Votes now: helped: 0, failed: 1, irrelevant: 1\./);
  const i = await h.run("kb_feedback", { id: ID, outcome: "irrelevant", note: "  " }, {});
  assert.match(textOf(i), /: irrelevant\. Votes now/);
  assert.deepEqual(bodies[0], { id: ID, outcome: "failed", agent_id: "main" });
  assert.deepEqual(bodies[1], { id: ID, outcome: "irrelevant" }, "blank note and missing agent id are not sent");
});

test("kb_feedback says when the experience is now disputed", async () => {
  acceptFeedback({ helped: 0, failed: 3, irrelevant: 0 }, true);
  const r = await host().run("kb_feedback", { id: ID, outcome: "failed", note: "timeouts came back" });
  assert.match(textOf(r), /This experience is now disputed: several agents report that it failed/);
  assert.equal((r.details as any).disputed, true);
});

test("kb_feedback validation errors name the argument and send nothing", async () => {
  const h = host();
  const cases: [unknown, RegExp][] = [
    [{ outcome: "helped" }, /^kb_feedback: id is required/],
    [{ id: "  ", outcome: "helped" }, /^kb_feedback: id is required/],
    [{ id: 42, outcome: "helped" }, /^kb_feedback: id is required/],
    [{ id: "../../etc/passwd", outcome: "helped" }, /^kb_feedback: id must look like an id from kb_search/],
    [{ id: "a".repeat(LIMITS.experienceId + 1), outcome: "helped" }, /^kb_feedback: id is too long/],
    [{ id: ID }, /^kb_feedback: outcome is required \(one of helped, failed, irrelevant\)/],
    [{ id: ID, outcome: "worked" }, /^kb_feedback: outcome must be one of helped, failed, irrelevant \(got "worked"\)/],
    [{ id: ID, outcome: "success" }, /^kb_feedback: outcome must be one of helped, failed, irrelevant/],
    [{ id: ID, outcome: "helped", note: 5 }, /^kb_feedback: note must be a string/],
    [{ id: ID, outcome: "helped", note: "n".repeat(2001) }, /^kb_feedback: note is too long \(2001 characters, max 2000\)/],
    [null, /^kb_feedback: id is required/],
  ];
  for (const [params, re] of cases) {
    await assert.rejects(h.run("kb_feedback", params), (e: unknown) => {
      assert.ok(e instanceof ToolInputError, String(e));
      assert.match((e as Error).message, re);
      return true;
    });
  }
  assert.equal(srv.requests.length, 0);
});

test("kb_feedback redacts the note in strict mode, not in relaxed mode", async () => {
  const bodies = acceptFeedback();
  const note = "failed for alice@example.com on 10.1.2.3 with key sk-abcdefghijklmnopqrstuvwxyz012345 in /home/alice/app";
  await host().run("kb_feedback", { id: ID, outcome: "failed", note });
  assert.equal(bodies[0].note, "failed for [EMAIL] on [IP] with key [API_KEY] in /home/[REDACTED]/app");
  await host({ privacyMode: "relaxed" }).run("kb_feedback", { id: ID, outcome: "failed", note });
  assert.equal(bodies[1].note, note);
});

test("kb_feedback: 404 says there is no such experience", async () => {
  srv.routes.set("POST /api/feedback", (_r, res) => json(res, 404, { error: { code: "not_found", message: `experience ${ID} not found` } }));
  await assert.rejects(host().run("kb_feedback", { id: ID, outcome: "helped" }), (e: unknown) => {
    assert.equal((e as Error).message, `kb_feedback: KnowHub has no experience with id ${ID}. Use an id exactly as kb_search showed it.`);
    return true;
  });
});

test("kb_feedback: 409 says the experience is not approved", async () => {
  srv.routes.set("POST /api/feedback", (_r, res) =>
    json(res, 409, { error: { code: "conflict", message: `experience ${ID} is pending: only approved experiences take feedback` } }),
  );
  await assert.rejects(host().run("kb_feedback", { id: ID, outcome: "failed" }), /kb_feedback: experience .* is not approved \(it is pending review or was rejected\), so it takes no feedback/);
});

test("kb_feedback: a server 400 names the argument", async () => {
  srv.routes.set("POST /api/feedback", (_r, res) =>
    json(res, 400, { error: { code: "invalid_field", field: "note", message: "note: is 2001 characters; the limit is 2000" } }),
  );
  await assert.rejects(host().run("kb_feedback", { id: ID, outcome: "failed", note: "x" }), /KnowHub rejected the feedback: .*note: is 2001 characters.* \(argument: note\)/);
});

test("kb_feedback with the server down fails fast and tells the model to carry on", async () => {
  const port = await closedPort();
  const h = createFakeHost({ apiUrl: `http://127.0.0.1:${port}`, timeoutMs: 1000 });
  await assert.rejects(h.run("kb_feedback", { id: ID, outcome: "helped" }), /kb_feedback: .*unreachable.*The feedback was not recorded; continue with your task\./);
});

test("kb_feedback sends the apiKey and, after a success, replays queued submits", async () => {
  acceptFeedback();
  const submits: any[] = [];
  srv.routes.set("POST /api/submit", (r, res) => {
    submits.push(r.body);
    json(res, 201, { id: "q-1", status: "approved" });
  });
  const base = tmpDir();
  const agentDir = path.join(base, "agents", "main", "agent");
  const h = createFakeHost({ apiUrl: srv.url, apiKey: "kh_9", timeoutMs: 1000 }, { baseDir: base });
  await h.rt.queueFor({ agentDir }).enqueue({ task: "queued earlier", resource: "r", result: "x" });
  await h.run("kb_feedback", { id: ID, outcome: "helped" }, { agentId: "main", agentDir });
  assert.equal(srv.requests[0]!.headers.authorization, "Bearer kh_9");
  await h.rt.settleBackground(2000);
  assert.deepEqual(submits.map((b) => b.task), ["queued earlier"]);
});
