import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import {
  chunkMessages,
  convertMessage,
  ExtractionUploader,
  fingerprintMessages,
  MAX_TEXT_CHARS,
  OWN_RESULT_PLACEHOLDER,
  sanitiseMessage,
} from "../src/extraction.js";
import { KnowHubError, type ExtractBody } from "../src/client.js";
import { useFakeServer, createFakeHost, json, sleep, tmpDir, type FakeServer } from "./helpers.js";

let srv: FakeServer;
useFakeServer((s) => (srv = s));

// Messages shaped like OpenClaw 2026.9.6's agent_end event.messages.
const userMsg = (text: string, ts = 1) => ({ role: "user", content: [{ type: "text", text }], timestamp: ts });
const toolCallMsg = (name: string, args: unknown, ts = 2) => ({
  role: "assistant",
  content: [
    { type: "thinking", thinking: "secret chain of thought" },
    { type: "toolCall", id: `call_${name}`, name, arguments: args },
  ],
  provider: "mock",
  model: "m",
  usage: { input: 1 },
  stopReason: "toolUse",
  timestamp: ts,
});
const toolResultMsg = (name: string, text: string, ts = 3, isError = false) => ({
  role: "toolResult",
  toolCallId: `call_${name}`,
  toolName: name,
  content: [{ type: "text", text }],
  details: { big: "x" },
  isError,
  timestamp: ts,
});
const finalMsg = (text: string, ts = 4) => ({ role: "assistant", content: [{ type: "text", text }], stopReason: "stop", timestamp: ts });

test("convertMessage keeps text, tool names, arguments and results; drops thinking and metadata", () => {
  assert.deepEqual(convertMessage(userMsg("hello")), { role: "user", content: "hello", timestamp: new Date(1).toISOString() });
  assert.deepEqual(convertMessage(toolCallMsg("exec", { command: "ls -la" })), {
    role: "assistant",
    content: "",
    tool_calls: [{ name: "exec", arguments: { command: "ls -la" } }],
    timestamp: new Date(2).toISOString(),
  });
  assert.deepEqual(convertMessage(toolResultMsg("exec", "total 0", 3, true)), {
    role: "tool",
    tool_name: "exec",
    content: "total 0",
    is_error: true,
    timestamp: new Date(3).toISOString(),
  });
  assert.deepEqual(convertMessage(finalMsg("done")), { role: "assistant", content: "done", timestamp: new Date(4).toISOString() });
  const json = JSON.stringify(convertMessage(toolCallMsg("exec", {})));
  assert.ok(!json.includes("chain of thought"));
  assert.ok(!json.includes("usage"));
});

test("convertMessage handles string content, images, tool_use parts, and drops thinking-only messages", () => {
  assert.deepEqual(convertMessage({ role: "user", content: "plain" }), { role: "user", content: "plain" });
  assert.equal(convertMessage({ role: "user", content: [{ type: "image", data: "..." }, { type: "text", text: "see" }] })?.content, "[image]\nsee");
  assert.deepEqual(convertMessage({ role: "assistant", content: [{ type: "tool_use", name: "read", input: { path: "a" } }] })?.tool_calls, [{ name: "read", arguments: { path: "a" } }]);
  assert.equal(convertMessage({ role: "assistant", content: [{ type: "thinking", thinking: "hmm" }] }), undefined);
  assert.equal(convertMessage({ role: "assistant", content: [{ type: "redacted_thinking", data: "x" }] }), undefined);
  assert.equal(convertMessage(null), undefined);
  assert.equal(convertMessage({ content: "no role" }), undefined);
  assert.equal(convertMessage({ role: "custom", content: 42 }), undefined);
});

test("KnowHub's own search/content results are not sent back; kb_submit calls are kept", () => {
  assert.equal(convertMessage(toolResultMsg("kb_search", "<knowhub-experiences>..."))?.content, OWN_RESULT_PLACEHOLDER);
  assert.equal(convertMessage(toolResultMsg("kb_content", "details"))?.content, OWN_RESULT_PLACEHOLDER);
  assert.equal(convertMessage(toolResultMsg("kb_submit", "Experience submitted"))?.content, "Experience submitted");
  assert.deepEqual(convertMessage(toolCallMsg("kb_submit", { task: "t" }))?.tool_calls, [{ name: "kb_submit", arguments: { task: "t" } }]);
});

test("long texts and arguments are truncated", () => {
  const big = convertMessage(userMsg("a".repeat(MAX_TEXT_CHARS + 100)))!;
  assert.ok(big.content.length < MAX_TEXT_CHARS + 100);
  assert.match(big.content, /truncated 100 characters/);
  const args = convertMessage(toolCallMsg("write", { content: "b".repeat(MAX_TEXT_CHARS + 10) }))!;
  assert.equal(typeof args.tool_calls![0]!.arguments, "string");
});

test("sanitiseMessage redacts content and tool arguments in strict mode only", () => {
  const msg = convertMessage(toolCallMsg("exec", { command: "curl -H 'Authorization: Bearer abcdef123456789XYZ' 10.0.0.9", env: { KEY: "sk-abcdefghijklmnopqrstuvwxyz0123" } }))!;
  const strict = sanitiseMessage(msg, "strict");
  assert.deepEqual(strict.tool_calls![0]!.arguments, { command: "curl -H 'Authorization: Bearer [TOKEN]' [IP]", env: { KEY: "[API_KEY]" } });
  assert.equal(sanitiseMessage(msg, "relaxed"), msg);
  const u = sanitiseMessage(convertMessage(userMsg("I am alice@example.com, /Users/alice"))!, "strict");
  assert.equal(u.content, "I am [EMAIL], /Users/[REDACTED]");
});

test("sanitiseMessage redacts the role, the tool name and tool call names too", () => {
  const msg = {
    role: "tool bob@example.com",
    tool_name: "fetch sk-abcdefghijklmnopqrstuvwxyz0123",
    content: "ok",
    tool_calls: [{ name: "call 10.0.0.9", arguments: {} }],
  };
  const strict = sanitiseMessage(msg, "strict");
  assert.equal(strict.role, "tool [EMAIL]");
  assert.equal(strict.tool_name, "fetch [API_KEY]");
  assert.equal(strict.tool_calls![0]!.name, "call [IP]");
  const plain = sanitiseMessage({ role: "tool", tool_name: "exec", content: "ok" }, "strict");
  assert.deepEqual(plain, { role: "tool", tool_name: "exec", content: "ok" });
});

test("fingerprints are stable, differ per message and tell identical messages apart", () => {
  const msgs = [userMsg("a"), finalMsg("ok", 9), userMsg("b"), finalMsg("ok", 9)];
  const fp1 = fingerprintMessages(msgs);
  const fp2 = fingerprintMessages(msgs.slice());
  assert.deepEqual(fp1, fp2);
  assert.equal(new Set(fp1).size, 4);
  assert.notEqual(fp1[1], fp1[3]);
  assert.deepEqual(fingerprintMessages(msgs.slice(0, 2)), fp1.slice(0, 2), "prefix stable when history grows");
});

test("chunkMessages keeps each chunk under the byte budget", () => {
  const items = Array.from({ length: 10 }, (_, i) => ({ i, text: "x".repeat(100) }));
  const chunks = chunkMessages(items, 350);
  assert.ok(chunks.length > 1);
  assert.deepEqual(chunks.flat(), items);
  for (const c of chunks) assert.ok(Buffer.byteLength(JSON.stringify(c)) <= 400);
  assert.deepEqual(chunkMessages([], 10), []);
  assert.equal(chunkMessages([{ t: "y".repeat(1000) }], 10).length, 1, "an oversized item is its own chunk");
});

function uploader(over: Partial<ConstructorParameters<typeof ExtractionUploader>[0]> = {}) {
  const bodies: ExtractBody[] = [];
  const logs: string[] = [];
  const u = new ExtractionUploader({
    privacyMode: "strict",
    requireApproval: true,
    submittedBy: "ops@example.com",
    extract: async (b) => {
      bodies.push(b);
      return { extracted_count: 0 };
    },
    logger: { info: (m) => logs.push(`info ${m}`), warn: (m) => logs.push(`warn ${m}`) },
    ...over,
  });
  return { u, bodies, logs };
}

test("the uploader sends only messages not uploaded before, remembered on disk across instances", async () => {
  const stateDir = tmpDir();
  const ctx = { agentId: "main", sessionKey: "agent:main:main", sessionId: "s1", stateDir };
  const turn1 = [userMsg("first", 1), toolCallMsg("exec", { command: "ls" }, 2), toolResultMsg("exec", "a.txt", 3), finalMsg("done", 4)];
  const a = uploader();
  const r1 = await a.u.upload(ctx, turn1);
  assert.equal(r1.uploaded, 4);
  assert.equal(a.bodies.length, 1);
  const b1 = a.bodies[0]!;
  assert.equal(b1.agent_id, "main");
  assert.equal(b1.session_key, "agent:main:main");
  assert.equal(b1.session_id, "s1");
  assert.equal(b1.submitted_by, "ops@example.com");
  assert.equal(b1.require_approval, true);
  assert.equal(b1.privacy_mode, "strict");
  assert.equal(b1.source, "openclaw");
  assert.deepEqual(b1.messages.map((m: any) => m.role), ["user", "assistant", "tool", "assistant"]);
  assert.ok(fs.existsSync(path.join(stateDir, "extract-state.json")));

  // A new process (new uploader) with the whole history: only turn 2 goes out.
  const turn2 = [...turn1, userMsg("second", 5), finalMsg("done again", 6)];
  const b = uploader();
  const r2 = await b.u.upload(ctx, turn2);
  assert.equal(r2.uploaded, 2);
  assert.deepEqual(b.bodies[0]!.messages.map((m: any) => m.content), ["second", "done again"]);
  const r3 = await b.u.upload(ctx, turn2);
  assert.equal(r3.skipped, "nothing-new");
  assert.equal(b.bodies.length, 1);

  // Another session is independent.
  const r4 = await b.u.upload({ ...ctx, sessionKey: "agent:main:other" }, turn1);
  assert.equal(r4.uploaded, 4);
});

test("a failed upload marks nothing, so the messages are offered again next time", async () => {
  const stateDir = tmpDir();
  const ctx = { sessionKey: "k", stateDir };
  let fail = true;
  const bodies: ExtractBody[] = [];
  const logs: string[] = [];
  const u = new ExtractionUploader({
    privacyMode: "strict",
    requireApproval: true,
    extract: async (b) => {
      if (fail) throw new KnowHubError("unreachable", "connection refused");
      bodies.push(b);
      return {};
    },
    logger: { info: () => {}, warn: (m) => logs.push(m) },
  });
  const msgs = [userMsg("a"), finalMsg("b")];
  const r1 = await u.upload(ctx, msgs);
  assert.equal(r1.uploaded, 0);
  assert.match(r1.error ?? "", /connection refused/);
  assert.ok(logs.some((l) => l.includes("will retry")));
  fail = false;
  const r2 = await u.upload(ctx, msgs);
  assert.equal(r2.uploaded, 2);
});

test("a server without /api/extract (404) is reported once, and nothing is marked", async () => {
  const stateDir = tmpDir();
  const logs: string[] = [];
  const u = new ExtractionUploader({
    privacyMode: "strict",
    requireApproval: true,
    extract: async () => {
      throw new KnowHubError("http", "HTTP 404 not_found", { status: 404 });
    },
    logger: { info: () => {}, warn: (m) => logs.push(m) },
  });
  const r = await u.upload({ sessionKey: "k", stateDir }, [userMsg("a")]);
  assert.equal(r.skipped, "unsupported");
  await u.upload({ sessionKey: "k", stateDir }, [userMsg("a")]);
  assert.equal(logs.filter((l) => l.includes("does not support POST /api/extract")).length, 1);
  assert.equal(fs.existsSync(path.join(stateDir, "extract-state.json")), false);
});

test("uploads are refused when configured against a remote non-HTTPS server", async () => {
  const { u, bodies, logs } = uploader({ refusedReason: "conversation upload refused: http://kh.example.com is remote" });
  const r = await u.upload({ sessionKey: "k", stateDir: tmpDir() }, [userMsg("a")]);
  assert.equal(r.skipped, "refused");
  assert.equal(bodies.length, 0);
  assert.ok(logs.some((l) => l.includes("refused")));
});

test("thinking-only messages are never sent but are marked as seen", async () => {
  const stateDir = tmpDir();
  const { u, bodies } = uploader();
  const msgs = [{ role: "assistant", content: [{ type: "thinking", thinking: "x" }], timestamp: 1 }];
  const r = await u.upload({ sessionKey: "k", stateDir }, msgs);
  assert.equal(r.uploaded, 0);
  assert.equal(bodies.length, 0);
  assert.equal((await u.upload({ sessionKey: "k", stateDir }, msgs)).skipped, "nothing-new");
});

test("large histories are split into several requests under 1 MiB", async () => {
  const stateDir = tmpDir();
  const { u, bodies } = uploader();
  const msgs = Array.from({ length: 80 }, (_, i) => userMsg(`${i} ${"z".repeat(15_000)}`, i));
  const r = await u.upload({ sessionKey: "k", stateDir }, msgs);
  assert.equal(r.uploaded, 80);
  assert.ok(bodies.length >= 2);
  for (const b of bodies) assert.ok(Buffer.byteLength(JSON.stringify(b)) < 1024 * 1024);
  assert.equal(bodies.flatMap((b) => b.messages).length, 80);
});

test("schedule() serialises uploads per session and flush() waits for them", async () => {
  const stateDir = tmpDir();
  const order: number[] = [];
  const u = new ExtractionUploader({
    privacyMode: "relaxed",
    requireApproval: false,
    extract: async (b) => {
      await sleep(20);
      order.push(b.messages.length);
      return {};
    },
    logger: { info: () => {}, warn: () => {} },
  });
  const h1 = [userMsg("a", 1)];
  const h2 = [...h1, finalMsg("b", 2)];
  void u.schedule({ sessionKey: "k", stateDir }, h1);
  void u.schedule({ sessionKey: "k", stateDir }, h2);
  assert.equal(u.pending, 2);
  await u.flush(2000);
  assert.deepEqual(order, [1, 1], "second upload saw the first one's watermark");
  assert.equal(u.pending, 0);
});

// ---------------------------------------------------------------------------------------------
// through the hooks
// ---------------------------------------------------------------------------------------------

test("agent_end uploads only new messages per turn, sanitised, and never throws", async () => {
  const got: any[] = [];
  srv.routes.set("POST /api/extract", (r, res) => {
    got.push(r.body);
    json(res, 200, { extracted_count: 1 });
  });
  const base = tmpDir();
  const cfg = { apiUrl: srv.url, enableServerExtraction: true, submittedBy: "ops@example.com" };
  const ctx = { agentId: "main", sessionKey: "agent:main:main", sessionId: "s1", runId: "r1" };
  const turn1 = [userMsg("my key is sk-abcdefghijklmnopqrstuvwxyz0123", 1), toolCallMsg("kb_search", { query: "x" }, 2), toolResultMsg("kb_search", "<knowhub-experiences>secret</knowhub-experiences>", 3), finalMsg("done", 4)];
  const h1 = createFakeHost(cfg, { baseDir: base });
  await h1.hook("agent_end", { messages: turn1, success: true }, ctx);
  assert.equal(got.length, 1);
  assert.equal(got[0].messages.length, 4);
  assert.equal(got[0].messages[0].content, "my key is [API_KEY]");
  assert.equal(got[0].messages[2].content, OWN_RESULT_PLACEHOLDER);
  assert.ok(!JSON.stringify(got[0]).includes("thinking"));
  assert.equal(got[0].agent_id, "main");
  assert.equal(got[0].require_approval, true);

  // Next turn in a new process: the whole history again, only the 2 new messages are sent.
  const h2 = createFakeHost(cfg, { baseDir: base });
  await h2.hook("agent_end", { messages: [...turn1, userMsg("call 555-123-4567", 5), finalMsg("ok", 6)], success: true }, { ...ctx, runId: "r2" });
  assert.equal(got.length, 2);
  assert.deepEqual(got[1].messages.map((m: any) => m.content), ["call [PHONE]", "ok"]);
});

test("relaxed privacy sends text as is; requireApproval false is forwarded", async () => {
  const got: any[] = [];
  srv.routes.set("POST /api/extract", (r, res) => {
    got.push(r.body);
    json(res, 200, {});
  });
  const h = createFakeHost({ apiUrl: srv.url, enableServerExtraction: true, privacyMode: "relaxed", requireApproval: false });
  await h.hook("agent_end", { messages: [userMsg("alice@example.com")], success: true });
  assert.equal(got[0].messages[0].content, "alice@example.com");
  assert.equal(got[0].require_approval, false);
  assert.equal(got[0].privacy_mode, "relaxed");
});

test("agent_end waits (bounded) for a slow upload so that a one-shot CLI process does not kill it", async () => {
  srv.routes.set("POST /api/extract", async (_r, res) => {
    await sleep(150);
    json(res, 200, {});
  });
  const h = createFakeHost({ apiUrl: srv.url, enableServerExtraction: true });
  const t0 = Date.now();
  await h.hook("agent_end", { messages: [userMsg("a")], success: true });
  const dt = Date.now() - t0;
  assert.ok(dt >= 100 && dt < 2000, `took ${dt}`);
  assert.equal(srv.requests.filter((r) => r.path === "/api/extract").length, 1);
});

test("agent_end with the server down logs and resolves (the turn is unaffected)", async () => {
  srv.routes.set("POST /api/extract", (_r, res) => json(res, 503, { error: { code: "unavailable", message: "llm down" } }));
  const h = createFakeHost({ apiUrl: srv.url, enableServerExtraction: true });
  await h.hook("agent_end", { messages: [userMsg("a")], success: true });
  assert.ok(h.warnings().some((w) => w.includes("extraction upload failed")));
});

test("extractionTrigger=before_compaction: agent_end only remembers; before_compaction uploads the remembered history", async () => {
  const got: any[] = [];
  srv.routes.set("POST /api/extract", (r, res) => {
    got.push(r.body);
    json(res, 200, {});
  });
  const h = createFakeHost({ apiUrl: srv.url, enableServerExtraction: true, extractionTrigger: "before_compaction" });
  const ctx = { agentId: "main", sessionKey: "agent:main:main", runId: "r1" };
  await h.hook("agent_end", { messages: [userMsg("a", 1), finalMsg("b", 2)], success: true }, ctx);
  assert.equal(got.length, 0);
  await h.hook("before_compaction", { messageCount: 2 }, ctx); // the host passes no messages here
  await h.rt.settleBackground(2000);
  assert.equal(got.length, 1);
  assert.deepEqual(got[0].messages.map((m: any) => m.content), ["a", "b"]);
});

test("before_compaction prefers event.messages, falls back to llm_input history, and skips when nothing is known", async () => {
  const got: any[] = [];
  srv.routes.set("POST /api/extract", (r, res) => {
    got.push(r.body);
    json(res, 200, {});
  });
  const h = createFakeHost({ apiUrl: srv.url, enableServerExtraction: true, extractionTrigger: "before_compaction" });
  await h.hook("before_compaction", { messageCount: 0 }, { sessionKey: "none" });
  await h.rt.settleBackground(500);
  assert.equal(got.length, 0);
  await h.hook("llm_input", { runId: "r", sessionId: "s", prompt: "current question", historyMessages: [userMsg("old", 1), finalMsg("old answer", 2)] }, { sessionKey: "k2" });
  await h.hook("before_compaction", { messageCount: 3 }, { sessionKey: "k2" });
  await h.rt.settleBackground(2000);
  assert.deepEqual(got[0].messages.map((m: any) => m.content), ["old", "old answer", "current question"]);
  await h.hook("before_compaction", { messageCount: 1, messages: [userMsg("given", 7)] }, { sessionKey: "k3" });
  await h.rt.settleBackground(2000);
  assert.deepEqual(got[1].messages.map((m: any) => m.content), ["given"]);
});

test("with extractionTrigger=agent_end, before_compaction and llm_input do not upload", async () => {
  const h = createFakeHost({ apiUrl: srv.url, enableServerExtraction: true });
  await h.hook("llm_input", { runId: "r", sessionId: "s", prompt: "x", historyMessages: [] });
  await h.hook("before_compaction", { messageCount: 1, messages: [userMsg("a")] });
  await h.rt.settleBackground(300);
  assert.equal(srv.requests.length, 0);
  assert.equal(h.shared.history.size, 0);
});

test("extraction refused for a remote plain-http server: logged at load, nothing sent", async () => {
  const h = createFakeHost({ apiUrl: "http://kh.example.invalid:8000", enableServerExtraction: true });
  assert.ok(h.warnings().some((w) => /refused/.test(w)));
  assert.ok(h.warnings().some((w) => /plain http/.test(w)));
  await h.hook("agent_end", { messages: [userMsg("a")], success: true });
  assert.ok(h.warnings().filter((w) => /refused/.test(w)).length >= 2);
});

test("only-new survives OpenClaw rewriting persisted messages (ids, timestamps, its own secret masking)", async () => {
  const stateDir = tmpDir();
  const ctx = { sessionKey: "agent:main:main", sessionId: "s1", stateDir };
  // In-process agent_end of turn 1.
  const live = [userMsg("token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB", 100), toolCallMsg("exec", { command: "ls" }, 101), toolResultMsg("exec", "a.txt", 102), finalMsg("done", 103)];
  // The same turn as the next process loads it from the transcript: other ids, timestamps, masked text.
  const persisted = [
    userMsg("token ghp_12…yzAB", 90),
    Object.assign(toolCallMsg("exec", { command: "ls" }, 101), { content: [{ type: "toolCall", id: "callexec0", name: "exec", arguments: { command: "ls" } }] }),
    { ...toolResultMsg("exec", "a.txt", 102), toolCallId: "callexec0" },
    finalMsg("done", 103),
  ];
  const a = uploader();
  await a.u.upload(ctx, live);
  const b = uploader();
  const r = await b.u.upload(ctx, [...persisted, userMsg("turn two", 200), finalMsg("ok", 201)]);
  assert.equal(r.uploaded, 2);
  assert.deepEqual(b.bodies[0]!.messages.map((m: any) => m.content), ["turn two", "ok"]);
});

test("a new session id (reset) uploads the new session from the start", async () => {
  const stateDir = tmpDir();
  const a = uploader();
  await a.u.upload({ sessionKey: "k", sessionId: "s1", stateDir }, [userMsg("a", 1), finalMsg("b", 2), userMsg("c", 3), finalMsg("d", 4)]);
  const r = await a.u.upload({ sessionKey: "k", sessionId: "s2", stateDir }, [userMsg("fresh", 10), finalMsg("start", 11)]);
  assert.equal(r.uploaded, 2);
  assert.deepEqual(a.bodies[1]!.messages.map((m: any) => m.content), ["fresh", "start"]);
});

test("a history shortened by compaction is matched by content: only unseen messages go out", async () => {
  const stateDir = tmpDir();
  const ctx = { sessionKey: "k", sessionId: "s1", stateDir };
  const a = uploader();
  await a.u.upload(ctx, [userMsg("q1", 1), finalMsg("a1", 2), userMsg("q2", 3), finalMsg("a2", 4), userMsg("q3", 5), finalMsg("a3", 6)]);
  const compacted = [{ role: "user", content: "Summary of the conversation so far", timestamp: 7 }, userMsg("q3", 5), finalMsg("a3", 6)];
  const r = await a.u.upload(ctx, compacted);
  assert.equal(r.uploaded, 1);
  assert.deepEqual(a.bodies[1]!.messages.map((m: any) => m.content), ["Summary of the conversation so far"]);
  // and appends after that are positional again
  const r2 = await a.u.upload(ctx, [...compacted, userMsg("q4", 8)]);
  assert.equal(r2.uploaded, 1);
  assert.equal((a.bodies[2]!.messages[0] as any).content, "q4");
});

test("a failed chunk in the middle keeps the watermark at the last delivered chunk", async () => {
  const stateDir = tmpDir();
  let calls = 0;
  const bodies: ExtractBody[] = [];
  const u = new ExtractionUploader({
    privacyMode: "relaxed",
    requireApproval: true,
    extract: async (b) => {
      if (++calls === 2) throw new KnowHubError("unreachable", "down");
      bodies.push(b);
      return {};
    },
    logger: { info: () => {}, warn: () => {} },
  });
  const msgs = Array.from({ length: 60 }, (_, i) => userMsg(`${i} ${"z".repeat(15_000)}`, i));
  const r1 = await u.upload({ sessionKey: "k", stateDir }, msgs);
  assert.ok(r1.error);
  const sentFirst = bodies[0]!.messages.length;
  const r2 = await u.upload({ sessionKey: "k", stateDir }, msgs);
  assert.equal(r2.uploaded, 60 - sentFirst, "resumes after the delivered chunk");
  assert.equal(bodies.flatMap((b) => b.messages).length, 60);
});
