// A tiny OpenAI-compatible mock LLM for the console's browser test: every POST .../chat/completions
// is answered with the same two extracted experiences, citing the transcript's message numbers, so
// an upload to POST /api/extract leaves two pending items with their source messages.
//
// Listens on 127.0.0.1:<random port>, writes the port to $MOCK_PORT_FILE. Nothing else.
import http from "node:http";
import fs from "node:fs";

const textOf = (c) => (typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => p?.text ?? "").join("") : "");

function items(body) {
  const msgs = Array.isArray(body?.messages) ? body.messages : [];
  const user = textOf(msgs[msgs.length - 1]?.content);
  const m = /<transcript messages="#(\d+)-#(\d+)">/.exec(user);
  const [from, to] = m ? [Number(m[1]), Number(m[2])] : [0, 3];
  const mid = Math.max(from, Math.min(to, from + 3));
  return [
    {
      task: "Fix EACCES when npm installs global packages on the CI runner",
      resource: "npm 10",
      result: "Setting the npm prefix to a user directory (npm config set prefix ~/.npm-global) fixed it; sudo is not needed",
      outcome: "success",
      score: 4,
      confidence: 0.92,
      messages: [from, mid],
    },
    {
      task: "Pin the Node.js version used by the CI build",
      resource: "nvm 0.40",
      result: "An .nvmrc holding 20.11 made CI and the laptops run the same Node; nvm use picks it up",
      outcome: "success",
      score: 4,
      confidence: 0.85,
      messages: [Math.min(mid + 1, to), to],
    },
  ];
}

const server = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    let body = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = null;
    }
    if (req.method === "POST" && /\/chat\/completions\/?$/.test(req.url || "")) {
      const content = "```json\n" + JSON.stringify(items(body)) + "\n```";
      const id = "chatcmpl-console-e2e";
      const created = Math.floor(Date.now() / 1000);
      const model = body?.model || "mock-extractor";
      const usage = { prompt_tokens: 420, completion_tokens: 96, total_tokens: 516 };
      if (body?.stream) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const base = { id, object: "chat.completion.chunk", created, model };
        res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: null }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage })}\n\n`);
        return res.end("data: [DONE]\n\n");
      }
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({ id, object: "chat.completion", created, model, usage,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] }),
      );
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: `mock: no route ${req.method} ${req.url}` } }));
  });
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  if (process.env.MOCK_PORT_FILE) fs.writeFileSync(process.env.MOCK_PORT_FILE, String(port));
});
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => server.close(() => process.exit(0)));
