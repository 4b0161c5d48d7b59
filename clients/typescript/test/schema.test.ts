// src/schema.ts is generated from the OpenAPI document the Rust openapi test writes
// (plugins/openclaw/test/fixtures/openapi.json): regenerating it must change nothing, and the
// document a real server serves must give the same types.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PACKAGE_DIR, startHub } from "./server.js";

const FIXTURE = path.join(PACKAGE_DIR, "../../plugins/openclaw/test/fixtures/openapi.json");
const CLI = path.join(PACKAGE_DIR, "node_modules/openapi-typescript/bin/cli.js");

function generate(input: string): string {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "knowhub-schema-")), "schema.ts");
  const r = spawnSync(process.execPath, [CLI, input, "-o", out], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const text = fs.readFileSync(out, "utf8");
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return text;
}

const committed = () => fs.readFileSync(path.join(PACKAGE_DIR, "src/schema.ts"), "utf8");

test("src/schema.ts is what openapi-typescript makes of the committed OpenAPI document (npm run generate)", () => {
  assert.equal(generate(FIXTURE), committed(), "src/schema.ts is stale: run `npm run generate` in clients/typescript");
});

test("the server's live /openapi.json gives the same types", async () => {
  const hub = await startHub();
  try {
    const res = await fetch(`${hub.url}/openapi.json`);
    assert.equal(res.status, 200);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "knowhub-openapi-")), "openapi.json");
    fs.writeFileSync(file, await res.text());
    const live = generate(file);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    assert.equal(live, committed(), "the server serves another document than the committed fixture: run its openapi test, then `npm run generate`");
  } finally {
    await hub.stop();
  }
});
