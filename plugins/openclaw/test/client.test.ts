import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { KnowHubClient, KnowHubError, USER_AGENT } from "../src/client.js";
import { closedPort, experience, json, startFakeServer, type FakeServer } from "./helpers.js";

let srv: FakeServer;
before(async () => {
  srv = await startFakeServer();
});
after(async () => {
  await srv.close();
});

function client(over: Partial<ConstructorParameters<typeof KnowHubClient>[0]> = {}) {
  return new KnowHubClient({ apiUrl: srv.url, timeoutMs: 2000, ...over });
}

test("search builds the query string and returns the results", async () => {
  srv.requests.length = 0;
  srv.routes.set("GET /api/search", (_r, res) => json(res, 200, { count: 1, mode: "fts", results: [experience()] }));
  const r = await client().search({ q: "修复 超时 & more", top_k: 7, min_score: 2, agent_id: "main" });
  assert.equal(r.count, 1);
  assert.equal(r.mode, "fts");
  assert.equal(r.results[0]!.task, "Fix PostgreSQL connection timeouts");
  const req = srv.requests[0]!;
  assert.equal(req.query.get("q"), "修复 超时 & more");
  assert.equal(req.query.get("top_k"), "7");
  assert.equal(req.query.get("min_score"), "2");
  assert.equal(req.query.get("agent_id"), "main");
  assert.equal(req.headers["user-agent"], USER_AGENT);
  assert.equal(req.headers.authorization, undefined);
});

test("search sends min_relevance only when given (0 included)", async () => {
  srv.requests.length = 0;
  srv.routes.set("GET /api/search", (_r, res) => json(res, 200, { count: 0, results: [] }));
  await client().search({ q: "x" });
  await client().search({ q: "x", min_relevance: 0 });
  await client().search({ q: "x", min_relevance: 0.35 });
  assert.deepEqual(
    srv.requests.map((r) => r.query.get("min_relevance")),
    [null, "0", "0.35"],
  );
});

test("feedback posts JSON to /api/feedback and returns the counts; errors keep status and field", async () => {
  srv.requests.length = 0;
  srv.routes.set("POST /api/feedback", (r, res) =>
    json(res, 201, { id: (r.body as any).id, outcome: "failed", voter: "main", feedback: { helped: 0, failed: 3, irrelevant: 0 }, disputed: true }),
  );
  const body = { id: "e-1", outcome: "failed" as const, note: "n", agent_id: "main" };
  const r = await client().feedback(body);
  assert.deepEqual(r, { id: "e-1", outcome: "failed", voter: "main", feedback: { helped: 0, failed: 3, irrelevant: 0 }, disputed: true });
  assert.deepEqual(srv.requests[0]!.body, body);
  srv.routes.set("POST /api/feedback", (_r, res) =>
    json(res, 400, { error: { code: "invalid_field", field: "outcome", message: "outcome: must be one of helped | failed | irrelevant" } }),
  );
  await assert.rejects(client().feedback(body), (e: unknown) => {
    assert.ok(e instanceof KnowHubError);
    assert.deepEqual([e.status, e.code, e.field, e.retryable], [400, "invalid_field", "outcome", false]);
    return true;
  });
  srv.routes.set("POST /api/feedback", (_r, res) => json(res, 201, {}));
  await assert.rejects(client().feedback(body), /returned no id/);
});

test("the API key is sent as a Bearer token", async () => {
  srv.requests.length = 0;
  srv.routes.set("GET /healthz", (_r, res) => json(res, 200, { status: "ok" }));
  await client({ apiKey: "kh_test_key" }).health();
  assert.equal(srv.requests[0]!.headers.authorization, "Bearer kh_test_key");
});

test("submit posts JSON and reports 201 vs 200 duplicates", async () => {
  srv.requests.length = 0;
  let n = 0;
  srv.routes.set("POST /api/submit", (_r, res) =>
    ++n === 1 ? json(res, 201, { id: "id-1", status: "approved" }) : json(res, 200, { id: "id-1", status: "approved", duplicate_of: "id-1", confirmations: 2 }),
  );
  const body = { task: "t", resource: "r", result: "x", score: 4 };
  const first = await client().submit(body);
  assert.deepEqual(first, { id: "id-1", status: "approved", httpStatus: 201 });
  const second = await client().submit(body);
  assert.equal(second.httpStatus, 200);
  assert.equal(second.duplicate_of, "id-1");
  assert.equal(second.confirmations, 2);
  assert.deepEqual(srv.requests[0]!.body, body);
  assert.equal(srv.requests[0]!.headers["content-type"], "application/json");
});

test("content encodes the id in the path", async () => {
  srv.requests.length = 0;
  srv.routes.set("GET /api/content/*", (r, res) => json(res, 200, { experience_id: decodeURIComponent(r.path.split("/").pop()!), content: "c", content_type: "text/markdown" }));
  const r = await client().content("a b/c");
  assert.equal(srv.requests[0]!.url, "/api/content/a%20b%2Fc");
  assert.equal(r.content, "c");
});

test("HTTP errors carry status, code, field and the server's message", async () => {
  srv.routes.set("POST /api/submit", (_r, res) =>
    json(res, 400, { error: { code: "invalid_field", message: "score: must be an integer from 1 to 5", field: "score" } }),
  );
  await assert.rejects(client().submit({ task: "t", resource: "r", result: "x", score: 9 }), (err: unknown) => {
    assert.ok(err instanceof KnowHubError);
    assert.equal(err.kind, "http");
    assert.equal(err.status, 400);
    assert.equal(err.code, "invalid_field");
    assert.equal(err.field, "score");
    assert.match(err.message, /HTTP 400 invalid_field: score: must be an integer/);
    assert.equal(err.retryable, false);
    assert.equal(err.unavailable, false);
    return true;
  });
});

test("retryable classification", () => {
  const http = (status: number) => new KnowHubError("http", "x", { status });
  assert.equal(new KnowHubError("unreachable", "x").retryable, true);
  assert.equal(new KnowHubError("timeout", "x").retryable, true);
  assert.equal(new KnowHubError("aborted", "x").retryable, false);
  assert.equal(new KnowHubError("protocol", "x").retryable, false);
  for (const s of [500, 502, 503, 408, 429, 401, 403]) assert.equal(http(s).retryable, true, String(s));
  for (const s of [400, 404, 405, 409, 413, 415]) assert.equal(http(s).retryable, false, String(s));
  assert.equal(http(503).unavailable, true);
  assert.equal(http(401).unavailable, false);
});

test("503 is an unavailable error", async () => {
  srv.routes.set("GET /api/search", (_r, res) => json(res, 503, { error: { code: "unavailable", message: "db down" } }));
  await assert.rejects(client().search({ q: "x" }), (e: unknown) => e instanceof KnowHubError && e.status === 503 && e.unavailable);
});

test("a slow server times out within timeoutMs", async () => {
  srv.routes.set("GET /api/search", () => {
    /* never answers */
  });
  const t0 = Date.now();
  await assert.rejects(client({ timeoutMs: 300 }).search({ q: "x" }), (e: unknown) => {
    assert.ok(e instanceof KnowHubError);
    assert.equal(e.kind, "timeout");
    assert.match(e.message, /did not answer within 300 ms/);
    return true;
  });
  const dt = Date.now() - t0;
  assert.ok(dt >= 250 && dt < 1500, `took ${dt} ms`);
});

test("a per-call timeout overrides the default", async () => {
  srv.routes.set("GET /api/search", () => {});
  const t0 = Date.now();
  await assert.rejects(client({ timeoutMs: 5000 }).search({ q: "x" }, undefined, 200), (e: unknown) => e instanceof KnowHubError && e.kind === "timeout");
  assert.ok(Date.now() - t0 < 1500);
});

test("connection refused is reported as unreachable, quickly", async () => {
  const port = await closedPort();
  const t0 = Date.now();
  await assert.rejects(new KnowHubClient({ apiUrl: `http://127.0.0.1:${port}`, timeoutMs: 2000 }).search({ q: "x" }), (e: unknown) => {
    assert.ok(e instanceof KnowHubError);
    assert.equal(e.kind, "unreachable");
    assert.match(e.message, /unreachable \(connection refused\)/);
    assert.equal(e.retryable, true);
    return true;
  });
  assert.ok(Date.now() - t0 < 1000);
});

test("the caller's abort signal cancels the request", async () => {
  srv.routes.set("GET /api/search", () => {});
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(client().search({ q: "x" }, ac.signal), (e: unknown) => e instanceof KnowHubError && e.kind === "aborted");
});

test("a non-JSON success body is a protocol error", async () => {
  srv.routes.set("GET /api/search", (_r, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html>proxy</html>");
  });
  await assert.rejects(client().search({ q: "x" }), (e: unknown) => e instanceof KnowHubError && e.kind === "protocol");
  srv.routes.set("GET /api/search", (_r, res) => json(res, 200, { nope: true }));
  await assert.rejects(client().search({ q: "x" }), (e: unknown) => e instanceof KnowHubError && e.kind === "protocol");
});

test("a non-JSON error body still produces a useful message", async () => {
  srv.routes.set("GET /api/search", (_r, res) => {
    res.writeHead(502, { "content-type": "text/plain" });
    res.end("Bad Gateway from nginx");
  });
  await assert.rejects(client().search({ q: "x" }), (e: unknown) => e instanceof KnowHubError && /HTTP 502: Bad Gateway from nginx/.test(e.message));
});

test("extract posts the body to /api/extract", async () => {
  srv.requests.length = 0;
  srv.routes.set("POST /api/extract", (_r, res) => json(res, 200, { extracted_count: 0 }));
  const body = { messages: [{ role: "user", content: "hi" }], require_approval: true, privacy_mode: "strict", source: "openclaw" };
  assert.deepEqual(await client().extract(body), { extracted_count: 0 });
  assert.deepEqual(srv.requests[0]!.body, body);
});

test("apiUrl with a path prefix and trailing slash", async () => {
  srv.requests.length = 0;
  srv.routes.set("GET /prefix/healthz", (_r, res) => json(res, 200, { status: "ok" }));
  await new KnowHubClient({ apiUrl: `${srv.url}/prefix/`, timeoutMs: 1000 }).health();
  assert.equal(srv.requests[0]!.path, "/prefix/healthz");
});
