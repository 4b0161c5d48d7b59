// Starts a real `knowhub serve` for the tests: a temp data dir, 127.0.0.1 on a free port, keys
// required, full-text search only, and extraction through a scripted OpenAI-compatible mock LLM
// served from this process. KNOWHUB_BIN names the binary (default ../../target/debug/knowhub).

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/** The package folder (this file runs from build-test/test/). */
export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface Hub {
  url: string;
  /** An admin key made with `knowhub keys create` before the server started. */
  adminKey: string;
  /** How many extraction calls the mock LLM answered. */
  llmCalls(): number;
  stop(): Promise<void>;
}

function binary(): string {
  const bin = path.resolve(process.env.KNOWHUB_BIN ?? path.join(PACKAGE_DIR, "../../target/debug/knowhub"));
  if (!fs.existsSync(bin)) throw new Error(`knowhub binary not found at ${bin} (build it, or set KNOWHUB_BIN)`);
  return bin;
}

/** The server sees only what this helper passes: no KNOWHUB_* from the caller. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("KNOWHUB_")) env[k] = v;
  return { ...env, ...extra };
}

/** Answers the server's extraction prompt with one experience (a new one per call) naming the transcript's range. */
async function startMockLlm(): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      calls++;
      const body = JSON.parse(raw || "{}");
      const last = body.messages?.[body.messages.length - 1]?.content ?? "";
      const range = /<transcript messages="#(\d+)-#(\d+)">/.exec(String(last));
      const items = [
        {
          task: `Make client test suite ${calls} start its own hub`,
          resource: `knowhub serve --bind 127.0.0.1:0 (suite ${calls})`,
          result: "Port 0 picks a free port and the chosen address is printed on stdout",
          outcome: "success",
          score: 4,
          confidence: 0.9,
          messages: range ? [Number(range[1]), Number(range[2])] : [0, 0],
        },
      ];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${calls}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body.model ?? "mock",
          choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(items) }, finish_reason: "stop" }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, calls: () => calls, close: () => new Promise((r) => server.close(() => r())) };
}

/** `config`: the text of a config file for the server (e.g. lower `[limits]`). */
export async function startHub(opts: { config?: string } = {}): Promise<Hub> {
  const bin = binary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "knowhub-ts-client-"));
  const dataDir = path.join(dir, "data");
  const llm = await startMockLlm();
  const config: Record<string, string> = {};
  if (opts.config !== undefined) {
    config.KNOWHUB_CONFIG = path.join(dir, "knowhub.toml");
    fs.writeFileSync(config.KNOWHUB_CONFIG, opts.config);
  }
  const env = cleanEnv({
    ...config,
    KNOWHUB_DATA_DIR: dataDir,
    KNOWHUB_EMBEDDER: "none",
    KNOWHUB_AUTH: "true",
    KNOWHUB_LLM_BASE_URL: llm.url,
    KNOWHUB_LLM_MODEL: "mock-extractor",
    KNOWHUB_LLM_API_KEY: "test",
    // The suite submits more than an agent key's default burst (20 a minute): no holding for review.
    KNOWHUB_RECORD_BURST: "0",
    KNOWHUB_RECORDS_PER_HOUR: "0",
  });
  const made = spawnSync(bin, ["keys", "create", "--role", "admin", "--name", "ts-admin"], { env, encoding: "utf8" });
  if (made.status !== 0) throw new Error(`knowhub keys create failed: ${made.stderr}`);
  const adminKey = made.stdout.trim().split("\n").pop()!.trim();

  const child: ChildProcess = spawn(bin, ["serve", "--bind", "127.0.0.1:0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (c) => (stderr = (stderr + c).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`knowhub did not start within 30 s: ${stderr}`)), 30_000);
    child.stdout!.on("data", (c) => {
      out += c;
      const m = /listening on (http:\/\/[\d.:]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`knowhub exited (${code}) before listening: ${stderr}`));
    });
  });
  return {
    url,
    adminKey,
    llmCalls: llm.calls,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      await llm.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
