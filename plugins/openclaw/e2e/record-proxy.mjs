// Recording reverse proxy for the KnowHub plugin end-to-end test.
//
// The plugin's apiUrl points here; every request is forwarded unchanged to the real knowhub server
// ($UPSTREAM, e.g. http://127.0.0.1:8123) and logged as one JSON line to $PROXY_LOG with the parsed
// request body and the upstream status, so the test can assert on exactly what the plugin sent
// (e.g. which messages an /api/extract upload carried). Listens on 127.0.0.1:$PROXY_PORT.
import http from "node:http";
import fs from "node:fs";

const UPSTREAM = new URL(process.env.UPSTREAM);
const LOG = process.env.PROXY_LOG;
const PORT = Number(process.env.PROXY_PORT);

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks);
    let body = null;
    try {
      body = raw.length ? JSON.parse(raw.toString("utf8")) : null;
    } catch {
      body = { _unparsed: raw.toString("utf8").slice(0, 2000) };
    }
    const entry = { t: new Date().toISOString(), method: req.method, url: req.url, auth: req.headers.authorization ?? null, body };
    const up = http.request(
      { host: UPSTREAM.hostname, port: UPSTREAM.port, method: req.method, path: req.url, headers: { ...req.headers, host: UPSTREAM.host } },
      (upRes) => {
        const out = [];
        upRes.on("data", (c) => out.push(c));
        upRes.on("end", () => {
          const resBody = Buffer.concat(out);
          entry.status = upRes.statusCode;
          entry.response = resBody.toString("utf8").slice(0, 4000);
          fs.appendFileSync(LOG, JSON.stringify(entry) + "\n");
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          res.end(resBody);
        });
      },
    );
    up.on("error", (err) => {
      entry.status = 502;
      entry.error = String(err);
      fs.appendFileSync(LOG, JSON.stringify(entry) + "\n");
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "unavailable", message: `proxy: upstream ${String(err)}` } }));
    });
    up.end(raw);
  });
});
server.listen(PORT, "127.0.0.1", () => process.stdout.write(`PROXY ${PORT} -> ${UPSTREAM.href}\n`));
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => server.close(() => process.exit(0)));
setTimeout(() => {}, 1 << 30); // keep alive even when idle
