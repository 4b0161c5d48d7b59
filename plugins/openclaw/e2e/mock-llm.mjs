// Scripted OpenAI-compatible mock LLM for the KnowHub plugin end-to-end test.
//
// Listens on 127.0.0.1:<random>, writes the port to $MOCK_PORT_FILE and logs every request as one
// JSON line to $MOCK_LOG. POST /v1/chat/completions (stream or not) is answered from a script:
//
//   $MOCK_SCRIPT = {"<tag>": [ {"tool": "kb_submit", "args": {...}}, ..., {"final": "text"} ]}
//
// The current user message (the last role:user message with a tag) must contain "[[scenario:<tag>]]". The
// step is the number of tool results after that message, so step k answers the (k+1)-th model
// call of the turn. In args, "{{uuid:N}}" is replaced with the first UUID found in the tool result
// of step N (e.g. the id kb_submit returned), and "{{skill:NAME}}" with the file the system prompt's
// skill catalog lists for the skill NAME. Requests without tools (compaction summaries) and
// unknown scenarios get a plain final answer.
import http from "node:http";
import fs from "node:fs";

const LOG = process.env.MOCK_LOG || "./mock-requests.jsonl";
const SCRIPT = JSON.parse(process.env.MOCK_SCRIPT_FILE ? fs.readFileSync(process.env.MOCK_SCRIPT_FILE, "utf8") : "{}");
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
let seq = 0;

const textOf = (content) =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((p) => (typeof p === "string" ? p : (p?.text ?? ""))).join("")
      : "";

function plan(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  // The current prompt is the last user message carrying a scenario tag (OpenClaw may append
  // other user-role messages, e.g. internal context, after it).
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m?.role === "user" && /\[\[scenario:/.test(textOf(m.content))) lastUser = i;
  });
  const userText = lastUser >= 0 ? textOf(messages[lastUser].content) : "";
  const tag = /\[\[scenario:([\w-]+)\]\]/.exec(userText)?.[1];
  const after = lastUser >= 0 ? messages.slice(lastUser + 1) : [];
  const toolResults = after.filter((m) => m?.role === "tool");
  const step = after.filter((m) => m?.role === "assistant").length;
  const steps = tag ? SCRIPT[tag] : undefined;
  const noTools = !Array.isArray(body?.tools) || body.tools.length === 0;
  if (!steps || noTools) return { tag, step, action: { final: "[]" } };
  const action = steps[Math.min(step, steps.length - 1)];
  const system = messages.filter((m) => m?.role === "system" || m?.role === "developer").map((m) => textOf(m.content)).join("\n");
  const fill = (args) =>
    JSON.stringify(args ?? {})
      .replace(/\{\{uuid:(\d+)\}\}/g, (_m, n) => {
        const found = UUID.exec(textOf(toolResults[Number(n)]?.content ?? ""));
        return found ? found[0] : "missing-uuid";
      })
      // The file a skill of the catalog is at, as the host lists it in the system prompt.
      .replace(/\{\{skill:([\w-]+)\}\}/g, (_m, name) => {
        const at = new RegExp(`<name>${name}</name>[\\s\\S]*?<location>([^<]*)</location>`).exec(system);
        return at ? at[1].replace(/&amp;/g, "&").replace(/\\/g, "\\\\").replace(/"/g, '\\"') : "missing-skill";
      });
  if (action.tool) return { tag, step, action: { calls: [{ tool: action.tool, args: fill(action.args) }] } };
  if (action.tools) return { tag, step, action: { calls: action.tools.map((t) => ({ tool: t.tool, args: fill(t.args) })) } };
  return { tag, step, action };
}

function sse(res, chunks) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  for (const c of chunks) res.write(`data: ${JSON.stringify(c)}\n\n`);
  res.write("data: [DONE]\n\n");
  res.end();
}

/**
 * KnowHub's server-side extraction calls the same mock (non-streaming, no tools, its own system
 * prompt). Answer with one experience per scenario tag seen in the transcript, citing the
 * transcript's message numbers, so the test can check what the server stored.
 */
const EXTRACT_MARK = "You extract reusable experiences";
function extraction(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  if (!textOf(messages[0]?.content).includes(EXTRACT_MARK)) return null;
  const user = textOf(messages[messages.length - 1]?.content);
  const range = /<transcript messages="#(\d+)-#(\d+)">/.exec(user);
  const [from, to] = range ? [Number(range[1]), Number(range[2])] : [0, 0];
  const tags = [...new Set([...user.matchAll(/\[\[scenario:([\w-]+)\]\]/g)].map((m) => m[1]))];
  return tags.map((tag) => ({
    task: `Run the widget benchmark for scenario ${tag}`,
    resource: `widgetctl bench --scenario ${tag}`,
    result: `The benchmark for ${tag} finished and its result was recorded`,
    outcome: "success",
    score: 4,
    confidence: 0.9,
    messages: [from, to],
  }));
}

function answer(body, res, p) {
  const id = `chatcmpl-mock-${++seq}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body?.model || "mock-model";
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const calls = p.action.calls ?? [];
  const isTool = calls.length > 0;
  const toolCalls = calls.map((c, i) => ({ index: i, id: `call_mock_${seq}_${i}`, type: "function", function: { name: c.tool, arguments: c.args } }));
  if (body?.stream) {
    const base = { id, object: "chat.completion.chunk", created, model };
    const chunks = isTool
      ? [
          { ...base, choices: [{ index: 0, delta: { role: "assistant", content: null }, finish_reason: null }] },
          ...toolCalls.flatMap((c) => [
            { ...base, choices: [{ index: 0, delta: { tool_calls: [{ ...c, function: { name: c.function.name, arguments: "" } }] }, finish_reason: null }] },
            { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: c.index, function: { arguments: c.function.arguments } }] }, finish_reason: null }] },
          ]),
          { ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
        ]
      : [
          { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
          { ...base, choices: [{ index: 0, delta: { content: p.action.final }, finish_reason: null }] },
          { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
        ];
    if (body?.stream_options?.include_usage) chunks.push({ ...base, choices: [], usage });
    return sse(res, chunks);
  }
  const message = isTool
    ? { role: "assistant", content: null, tool_calls: toolCalls.map(({ index: _i, ...c }) => c) }
    : { role: "assistant", content: p.action.final };
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ id, object: "chat.completion", created, model, choices: [{ index: 0, message, finish_reason: isTool ? "tool_calls" : "stop" }], usage }));
}

const server = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    let body = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = { _unparsed: raw };
    }
    const url = req.url || "";
    try {
      if (req.method === "GET" && /\/models\/?$/.test(url)) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ object: "list", data: [{ id: "mock-model", object: "model", owned_by: "mock" }] }));
      }
      if (req.method === "POST" && /\/chat\/completions\/?$/.test(url)) {
        const items = extraction(body);
        if (items) {
          fs.appendFileSync(LOG, JSON.stringify({ t: new Date().toISOString(), url, extraction: true, body }) + "\n");
          return answer(body, res, { action: { final: "```json\n" + JSON.stringify(items) + "\n```" } });
        }
        const p = plan(body);
        fs.appendFileSync(LOG, JSON.stringify({ t: new Date().toISOString(), url, scenario: p.tag ?? null, step: p.step, action: p.action, body }) + "\n");
        return answer(body, res, p);
      }
      fs.appendFileSync(LOG, JSON.stringify({ t: new Date().toISOString(), url, method: req.method, body }) + "\n");
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `mock: no route ${req.method} ${url}` } }));
    } catch (err) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(err) } }));
    }
  });
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  if (process.env.MOCK_PORT_FILE) fs.writeFileSync(process.env.MOCK_PORT_FILE, String(port));
  process.stdout.write(`PORT ${port}\n`);
});
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => server.close(() => process.exit(0)));
