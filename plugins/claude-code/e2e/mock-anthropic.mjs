// A scripted stand-in for the Anthropic Messages API (and, for the hub's extraction worker, an
// OpenAI-style chat endpoint), so Claude Code runs offline and deterministically in the MCP
// end-to-end test (scripts/mcp-e2e.sh). Stateless: each answer is decided from the request.
//
//   POST /v1/messages (streamed):
//     last turn holds a kb_submit result            -> final text
//     last turn holds the $MOCK_QUERY search result  -> tool_use kb_search {query: $MOCK_FAILURE_QUERY}
//                                                       (no min_score: the default applies)
//     last turn holds the other search result        -> tool_use kb_submit (run-specific task)
//     kb_search is in tools[]                        -> tool_use kb_search {query: $MOCK_QUERY}
//     kb_search is only listed as a deferred tool    -> tool_use ToolSearch "select:<search>,<submit>"
//     anything else                                  -> final text
//   POST /v1/chat/completions -> "[]" (the extraction finds nothing; the upload is what is tested)
//
// The run tag comes from "[[run:TAG]]" in the user's prompt. Every request is one JSON line in
// $MOCK_LOG (with the reply kind); the port goes to $MOCK_PORT_FILE.
import http from "node:http";
import fs from "node:fs";

const LOG = process.env.MOCK_LOG;
const QUERY = process.env.MOCK_QUERY || "widget cache";
const FAILURE_QUERY = process.env.MOCK_FAILURE_QUERY || "kubectl deploy API production cluster";
let seq = 0;
const id = (p) => `${p}_e2e${(seq++).toString(36)}`;

const blocks = (m) => (typeof m?.content === "string" ? [{ type: "text", text: m.content }] : Array.isArray(m?.content) ? m.content : []);

function plan(body) {
  const msgs = Array.isArray(body.messages) ? body.messages : [];
  const tools = (body.tools ?? []).map((t) => t.name);
  const everything = JSON.stringify(body);
  const named = (suffix) =>
    tools.find((n) => n.startsWith("mcp__") && n.endsWith(suffix)) ??
    [...everything.matchAll(/mcp__[A-Za-z0-9_-]+?__kb_(?:search|submit)/g)].map((m) => m[0]).find((n) => n.endsWith(suffix));
  const search = named("__kb_search");
  const submit = named("__kb_submit");
  // The latest prompt's tag (a resumed session also holds the earlier ones).
  const run = [...everything.matchAll(/\[\[run:([A-Za-z0-9_-]+)\]\]/g)].map((m) => m[1]).pop() ?? "x";
  const toolNames = {};
  const toolInputs = {};
  for (const m of msgs) {
    if (m.role !== "assistant") continue;
    for (const b of blocks(m)) if (b.type === "tool_use") [toolNames[b.id], toolInputs[b.id]] = [b.name, b.input];
  }
  const last = msgs[msgs.length - 1];
  const answered = last?.role === "user" ? blocks(last).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id) : [];
  const results = answered.map((tid) => toolNames[tid] ?? "");
  const searchedFor = answered.filter((tid) => (toolNames[tid] ?? "").endsWith("__kb_search")).map((tid) => toolInputs[tid]?.query);
  const text = (t) => ({ kind: "final", blocks: [{ type: "text", text: t }], stop: "end_turn" });
  const use = (kind, name, input) => ({ kind, blocks: [{ type: "tool_use", id: id("toolu"), name, input }], stop: "tool_use" });
  if (results.some((n) => n.endsWith("__kb_submit"))) return text(`E2E_FINAL run ${run}: searched and recorded.`);
  if (searchedFor.includes(QUERY) && search) return use("failsearch", search, { query: FAILURE_QUERY });
  if (results.some((n) => n.endsWith("__kb_search")) && submit) {
    return use("submit", submit, {
      task: `Speed up the widget build (e2e run ${run})`,
      resource: "widgetctl build --cache ~/.widget",
      result: "build 4m -> 40s once the cache lived on local disk",
      score: 4,
    });
  }
  if (results.length > 0 && !results.includes("ToolSearch")) return text(`E2E_FINAL run ${run}: done.`);
  if (search && tools.includes(search)) return use("search", search, { query: QUERY, min_score: 1 });
  if (search && tools.includes("ToolSearch")) return use("toolsearch", "ToolSearch", { query: `select:${search},${submit}`, max_results: 5 });
  return text(`E2E_FINAL run ${run}: no KnowHub tools.`);
}

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function answerMessages(res, body, p) {
  const usage = { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: id("msg"), type: "message", role: "assistant", model: body.model ?? "mock", content: [], stop_reason: null, stop_sequence: null, usage };
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify({ ...message, content: p.blocks, stop_reason: p.stop, usage: { ...usage, output_tokens: 20 } }));
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": id("req") });
  sse(res, "message_start", { type: "message_start", message });
  p.blocks.forEach((b, index) => {
    const start = b.type === "text" ? { type: "text", text: "" } : { type: "tool_use", id: b.id, name: b.name, input: {} };
    const delta = b.type === "text" ? { type: "text_delta", text: b.text } : { type: "input_json_delta", partial_json: JSON.stringify(b.input) };
    sse(res, "content_block_start", { type: "content_block_start", index, content_block: start });
    sse(res, "content_block_delta", { type: "content_block_delta", index, delta });
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  });
  sse(res, "message_delta", { type: "message_delta", delta: { stop_reason: p.stop, stop_sequence: null }, usage: { output_tokens: 20 } });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

const server = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (d) => (raw += d));
  req.on("end", () => {
    let body = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      body = { unparsed: raw.slice(0, 1000) };
    }
    const entry = { method: req.method, url: req.url, body };
    const log = (reply) => fs.appendFileSync(LOG, JSON.stringify({ ...entry, reply }) + "\n");
    if (req.method === "POST" && req.url.startsWith("/v1/messages/count_tokens")) {
      log("count_tokens");
      res.writeHead(200, { "content-type": "application/json" });
      return res.end('{"input_tokens":100}');
    }
    if (req.method === "POST" && req.url.startsWith("/v1/messages")) {
      const p = plan(body);
      log(p.kind);
      return answerMessages(res, body, p);
    }
    if (req.method === "POST" && req.url.startsWith("/v1/chat/completions")) {
      log("extract");
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({
        id: id("chat"), object: "chat.completion", model: body.model ?? "mock",
        choices: [{ index: 0, message: { role: "assistant", content: "[]" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 100, completion_tokens: 1, total_tokens: 101 },
      }));
    }
    log("404");
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `mock: no route ${req.method} ${req.url}` } }));
  });
});

server.listen(0, "127.0.0.1", () => fs.writeFileSync(process.env.MOCK_PORT_FILE, String(server.address().port)));
