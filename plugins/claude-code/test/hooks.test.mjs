// The hook script as Claude Code runs it: a child process with the hook's JSON on stdin, settings
// in the environment, and (for uploads) a local HTTP server standing in for the hub.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import {
  countModelCalls,
  OWN_RESULT_PLACEHOLDER,
  PERIODIC_REMINDER,
  settings,
  START_REMINDER,
  toUploadMessages,
} from "../hooks/lib/core.mjs";

const HOOK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../hooks/knowhub-hook.mjs");

// Every hook run gets its own plugin-data folder; all are removed when the file's tests end.
const made = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tmp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "knowhub-cc-hook-"));
  made.push(dir);
  return dir;
}

/** Runs the hook; resolves to { code, stdout, stderr }. */
function runHook(event, input, env = {}) {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("KNOWHUB_")));
    const child = spawn(process.execPath, [HOOK, event], { env: { ...clean, CLAUDE_PLUGIN_DATA: tmp(), ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(typeof input === "string" ? input : JSON.stringify(input));
  });
}

function context(stdout) {
  if (!stdout) return undefined;
  const out = JSON.parse(stdout);
  return out.hookSpecificOutput.additionalContext;
}

// Transcript lines in Claude Code's shape (one line per assistant content block).
const prompt = (text, ts = "2026-11-23T09:00:00Z") => ({ type: "user", message: { role: "user", content: text }, timestamp: ts });
const assistant = (id, content) => ({ type: "assistant", message: { id, role: "assistant", content } });
const toolResult = (id, text, extra = {}) => ({
  type: "user",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: [{ type: "text", text }], ...extra }] },
});

function transcript(dir, entries, name = "t.jsonl") {
  const file = path.join(dir, name);
  const lines = entries.map((e) => JSON.stringify(e));
  lines.splice(1, 0, '{"type":"attachment","attachment":{"type":"hook_success"}}', "not json");
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

/** A transcript with `calls` model calls in a previous run, then a new prompt on its way. */
function sessionWith(calls, dir = tmp()) {
  const entries = [prompt("first task")];
  for (let i = 0; i < calls; i++) entries.push(assistant(`msg_${i}`, [{ type: "text", text: `step ${i}` }]));
  return transcript(dir, entries);
}

test("settings come from the environment; a bad mode falls back to normal and says so", () => {
  const d = settings({});
  assert.equal(d.url, "http://127.0.0.1:8000");
  assert.equal(d.agentId, "claude-code");
  assert.equal(d.reminderMode, "normal");
  assert.equal(d.upload, false);
  const s = settings({ KNOWHUB_URL: "http://hub:9/", KNOWHUB_REMINDER_MODE: "LOUD", KNOWHUB_UPLOAD: "1", KNOWHUB_AGENT_ID: "cc-7" });
  assert.equal(s.url, "http://hub:9");
  assert.equal(s.reminderMode, "normal");
  assert.match(s.problems[0], /KNOWHUB_REMINDER_MODE must be off \| minimal \| normal \| aggressive, got "loud"/);
  assert.equal(s.upload, true);
  assert.equal(s.agentId, "cc-7");
});

test("SessionStart gives the start reminder in every mode but off", async () => {
  for (const mode of ["minimal", "normal", "aggressive"]) {
    const r = await runHook("SessionStart", { session_id: "s", source: "startup" }, { KNOWHUB_REMINDER_MODE: mode });
    assert.equal(r.code, 0);
    assert.equal(context(r.stdout), START_REMINDER, mode);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.hookEventName, "SessionStart");
  }
  const off = await runHook("SessionStart", { session_id: "s" }, { KNOWHUB_REMINDER_MODE: "off" });
  assert.deepEqual([off.code, off.stdout], [0, ""]);
});

test("UserPromptSubmit reminds again once the mode's interval of model calls has passed", async () => {
  // calls made in the previous run -> expected reminder per mode (minimal 5, normal 3, aggressive 2)
  const cases = [
    [0, { minimal: undefined, normal: undefined, aggressive: undefined }], // first prompt: SessionStart covered it
    [1, { minimal: undefined, normal: undefined, aggressive: undefined }],
    [2, { minimal: undefined, normal: undefined, aggressive: PERIODIC_REMINDER }],
    [3, { minimal: undefined, normal: PERIODIC_REMINDER, aggressive: PERIODIC_REMINDER }],
    [5, { minimal: PERIODIC_REMINDER, normal: PERIODIC_REMINDER, aggressive: PERIODIC_REMINDER }],
  ];
  for (const [calls, want] of cases) {
    const file = sessionWith(calls);
    for (const [mode, expected] of Object.entries(want)) {
      const r = await runHook("UserPromptSubmit", { session_id: "s", transcript_path: file, prompt: "next" }, { KNOWHUB_REMINDER_MODE: mode });
      assert.equal(r.code, 0);
      assert.equal(context(r.stdout), expected, `${calls} calls, ${mode}`);
    }
    const off = await runHook("UserPromptSubmit", { transcript_path: file }, { KNOWHUB_REMINDER_MODE: "off" });
    assert.equal(off.stdout, "");
  }
});

test("model calls count distinct assistant messages, not content blocks", () => {
  const entries = [
    prompt("a"),
    assistant("m1", [{ type: "text", text: "x" }]),
    assistant("m1", [{ type: "tool_use", id: "t1", name: "Bash", input: {} }]),
    toolResult("t1", "ok"),
    assistant("m2", [{ type: "text", text: "done" }]),
    prompt("b"),
    assistant("m3", [{ type: "text", text: "y" }]),
  ];
  assert.deepEqual(countModelCalls(entries), { total: 3, beforePreviousRun: 2 });
});

test("transcripts become upload messages: tool calls kept, KnowHub's own results left out", () => {
  const msgs = toUploadMessages([
    prompt("deploy the widget"),
    { type: "user", isMeta: true, message: { role: "user", content: "<command-name>/clear</command-name>" } },
    assistant("m1", [{ type: "thinking", thinking: "secret plan" }]),
    assistant("m1", [{ type: "text", text: "Searching first." }]),
    assistant("m1", [{ type: "tool_use", id: "t1", name: "mcp__plugin_knowhub_knowhub__kb_search", input: { query: "widget" } }]),
    toolResult("t1", "<knowhub-experiences>...</knowhub-experiences>"),
    assistant("m2", [{ type: "tool_use", id: "t2", name: "Bash", input: { command: "make deploy" } }]),
    toolResult("t2", "permission denied", { is_error: true }),
    assistant("m3", [{ type: "text", text: "Deployed with sudo." }]),
  ]);
  assert.deepEqual(
    msgs.map((m) => ({ ...m, timestamp: undefined })),
    [
      { role: "user", content: "deploy the widget", timestamp: undefined },
      { role: "assistant", content: "Searching first.", tool_calls: [{ name: "mcp__plugin_knowhub_knowhub__kb_search", arguments: { query: "widget" } }], timestamp: undefined },
      { role: "tool", tool_name: "mcp__plugin_knowhub_knowhub__kb_search", content: OWN_RESULT_PLACEHOLDER, timestamp: undefined },
      { role: "assistant", content: "", tool_calls: [{ name: "Bash", arguments: { command: "make deploy" } }], timestamp: undefined },
      { role: "tool", tool_name: "Bash", content: "permission denied", is_error: true, timestamp: undefined },
      { role: "assistant", content: "Deployed with sudo.", timestamp: undefined },
    ],
  );
});

/** A stand-in hub: records requests, answers with `status`. */
async function fakeHub(status = 202, delayMs = 0) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: body ? JSON.parse(body) : undefined });
      setTimeout(() => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(status < 400 ? '{"job_id":"j","status":"queued"}' : '{"error":{"code":"unavailable","message":"the store is down"}}');
      }, delayMs);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((r) => server.close(r)) };
}

test("Stop uploads the conversation only when enabled, redacted, and only what is new", async () => {
  const hub = await fakeHub();
  const dir = tmp();
  const data = path.join(dir, "plugin-data");
  const entries = [
    prompt("Fix the deploy. Token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB, mail carol@example.com"),
    assistant("m1", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "curl -H 'Authorization: Bearer abcdef0123456789abcdef' http://10.1.2.3/" } }]),
    toolResult("t1", "ok from /home/alice/app"),
    assistant("m2", [{ type: "text", text: "Done." }]),
  ];
  const file = transcript(dir, entries);
  const input = { session_id: "sess-1", transcript_path: file, hook_event_name: "Stop", stop_hook_active: false };
  const env = { KNOWHUB_URL: hub.url, CLAUDE_PLUGIN_DATA: data, KNOWHUB_AGENT_ID: "cc-test", KNOWHUB_API_KEY: "kh_test" };

  const off = await runHook("Stop", input, { ...env });
  assert.deepEqual([off.code, off.stdout, hub.requests.length], [0, "", 0], "no upload unless KNOWHUB_UPLOAD is on");

  const on = await runHook("Stop", input, { ...env, KNOWHUB_UPLOAD: "1" });
  assert.deepEqual([on.code, on.stdout], [0, ""], on.stderr);
  assert.equal(hub.requests.length, 1);
  const req = hub.requests[0];
  assert.equal(req.method, "POST");
  assert.equal(req.url, "/api/extract");
  assert.equal(req.headers.authorization, "Bearer kh_test");
  assert.equal(req.body.session_key, "claude-code:sess-1");
  assert.equal(req.body.agent_id, "cc-test");
  assert.equal(req.body.source, "claude-code");
  const sent = JSON.stringify(req.body.messages);
  assert.equal(req.body.messages.length, 4);
  for (const secret of ["ghp_1234567890", "carol@example.com", "abcdef0123456789abcdef", "10.1.2.3", "/home/alice"]) {
    assert.ok(!sent.includes(secret), `${secret} must be redacted: ${sent}`);
  }
  for (const mark of ["[GITHUB_TOKEN]", "[EMAIL]", "Bearer [TOKEN]", "[IP]", "/home/[REDACTED]"]) assert.ok(sent.includes(mark), mark);

  const again = await runHook("Stop", input, { ...env, KNOWHUB_UPLOAD: "1" });
  assert.equal(again.code, 0);
  assert.equal(hub.requests.length, 1, "nothing new, nothing sent");

  fs.appendFileSync(file, JSON.stringify(prompt("And the docs?")) + "\n" + JSON.stringify(assistant("m3", [{ type: "text", text: "Updated." }])) + "\n");
  await runHook("PreCompact", { ...input, hook_event_name: "PreCompact", trigger: "manual" }, { ...env, KNOWHUB_UPLOAD: "true" });
  assert.equal(hub.requests.length, 2);
  assert.deepEqual(hub.requests[1].body.messages.map((m) => m.content), ["And the docs?", "Updated."]);

  await runHook("Stop", { ...input, stop_hook_active: true }, { ...env, KNOWHUB_UPLOAD: "1", CLAUDE_PLUGIN_DATA: path.join(dir, "other") });
  assert.equal(hub.requests.length, 2, "no upload while a Stop hook is continuing the conversation");
  await hub.close();
});

test("a failing hub never breaks the session: exit 0, nothing on stdout", async () => {
  const dir = tmp();
  const file = transcript(dir, [prompt("hello"), assistant("m1", [{ type: "text", text: "hi" }])]);
  const input = { session_id: "s", transcript_path: file };
  const closed = await new Promise((r) => {
    const s = http.createServer().listen(0, "127.0.0.1", () => {
      const port = s.address().port;
      s.close(() => r(`http://127.0.0.1:${port}`));
    });
  });
  const broken = await fakeHub(503);
  const slow = await fakeHub(202, 5000);
  for (const [label, url, extra] of [
    ["down", closed, {}],
    ["503", broken.url, {}],
    ["too slow", slow.url, { KNOWHUB_TIMEOUT_MS: "300" }],
  ]) {
    const started = Date.now();
    const r = await runHook("Stop", input, { KNOWHUB_URL: url, KNOWHUB_UPLOAD: "1", ...extra });
    assert.deepEqual([r.code, r.stdout], [0, ""], label);
    assert.match(r.stderr, /knowhub: conversation upload skipped/, label);
    if (label === "503") assert.match(r.stderr, /the store is down/);
    if (label === "too slow") assert.ok(Date.now() - started < 4000, "gives up at the timeout");
  }
  await broken.close();
  await slow.close();
  for (const [event, stdin] of [
    ["UserPromptSubmit", "{not json"],
    ["UserPromptSubmit", { transcript_path: "/nonexistent/t.jsonl" }],
    ["Bogus", {}],
  ]) {
    const r = await runHook(event, stdin, {});
    assert.deepEqual([r.code, r.stdout], [0, ""], `${event} ${JSON.stringify(stdin)}`);
  }
});

test("Stop waits for the turn's last lines before uploading (Claude Code can flush them late)", async () => {
  const hub = await fakeHub();
  const dir = tmp();
  const partial = [
    prompt("Speed up the build"),
    assistant("m1", [{ type: "tool_use", id: "t1", name: "mcp__knowhub__kb_search", input: { query: "build cache" } }]),
  ];
  const file = transcript(dir, partial);
  const input = { session_id: "late", transcript_path: file, hook_event_name: "Stop", stop_hook_active: false };
  const env = { KNOWHUB_URL: hub.url, CLAUDE_PLUGIN_DATA: path.join(dir, "data"), KNOWHUB_UPLOAD: "1" };
  try {
    const run = runHook("Stop", input, env);
    // The tool result and the answer land while the hook is already running.
    await new Promise((r) => setTimeout(r, 400));
    fs.appendFileSync(file, JSON.stringify(toolResult("t1", "knowhub-experiences ...")) + "\n" + JSON.stringify(assistant("m2", [{ type: "text", text: "Cached it." }])) + "\n");
    const r = await run;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(hub.requests.length, 1);
    const roles = hub.requests[0].body.messages.map((m) => m.role);
    assert.deepEqual(roles, ["user", "assistant", "tool", "assistant"], JSON.stringify(hub.requests[0].body.messages));
    assert.equal(hub.requests[0].body.messages[2].content, OWN_RESULT_PLACEHOLDER);
  } finally {
    await hub.close();
  }
});

test("a turn that never ends on disk is uploaded as it is after the wait", async () => {
  const { settledMessages, turnEnded } = await import("../hooks/lib/core.mjs");
  const dir = tmp();
  const file = transcript(dir, [prompt("hi"), assistant("m1", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }])]);
  const t0 = Date.now();
  const msgs = await settledMessages(file, { waitMs: 300, stepMs: 50 });
  assert.ok(Date.now() - t0 >= 250, "it waited");
  assert.equal(msgs.length, 2);
  assert.equal(turnEnded(msgs), false);
  assert.equal(turnEnded([...msgs, { role: "assistant", content: "done" }]), true);
});
