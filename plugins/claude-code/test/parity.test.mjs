// The hooks redact and remind exactly as the OpenClaw plugin does: the redaction copy is the
// current build of plugins/openclaw/src/security.ts, it passes that plugin's own redaction cases,
// and the reminder texts and cadence equal the ones in plugins/openclaw/src/hooks.ts.
// Needs TypeScript from plugins/openclaw (npm ci there), as scripts/test.sh does first.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

import { generate, TARGET } from "../scripts/sync-security.mjs";
import * as hook from "../hooks/lib/security.mjs";
import * as core from "../hooks/lib/core.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const openclaw = path.resolve(here, "../../openclaw");
const ts = createRequire(path.join(openclaw, "package.json"))("typescript");

/** The OpenClaw plugin's modules, compiled from its sources into a temp dir. */
async function openclawModules() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "knowhub-openclaw-src-"));
  fs.writeFileSync(path.join(dir, "package.json"), '{"type":"module"}');
  for (const name of ["secret-rules", "security", "format", "config", "hooks"]) {
    const src = fs.readFileSync(path.join(openclaw, "src", `${name}.ts`), "utf8");
    const js = ts.transpileModule(src, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } });
    fs.writeFileSync(path.join(dir, `${name}.js`), js.outputText);
  }
  const load = (n) => import(pathToFileURL(path.join(dir, `${n}.js`)).href);
  try {
    return { security: await load("security"), config: await load("config"), hooks: await load("hooks") };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An array literal `const NAME ... = [ ... ];` from the OpenClaw plugin's security tests. */
function casesFromOpenClawTests(name) {
  const src = fs.readFileSync(path.join(openclaw, "test/security.test.ts"), "utf8");
  const start = src.indexOf(`const ${name}`);
  assert.ok(start >= 0, `${name} not found in plugins/openclaw/test/security.test.ts`);
  const open = src.indexOf("= [", start) + 2;
  const close = src.indexOf("\n];", open);
  return new Function(`return ${src.slice(open, close + 2)}`)();
}

test("hooks/lib/security.mjs is the current build of plugins/openclaw/src/security.ts", () => {
  assert.equal(fs.readFileSync(TARGET, "utf8"), generate(), "stale: run node plugins/claude-code/scripts/sync-security.mjs");
});

test("the hook's redaction passes the OpenClaw plugin's redaction cases, with the same output", async () => {
  const { security } = await openclawModules();
  const redactions = casesFromOpenClawTests("REDACTIONS");
  const unchanged = casesFromOpenClawTests("UNCHANGED");
  assert.ok(redactions.length > 40 && unchanged.length > 20, "the OpenClaw cases were found");
  for (const [input, expected] of redactions) {
    assert.equal(hook.redactSensitiveInfo(input), expected, input);
    assert.equal(security.redactSensitiveInfo(input), expected, input);
  }
  for (const input of unchanged) assert.equal(hook.redactSensitiveInfo(input), input);
  const nested = { role: "tool", content: redactions[0][0], tool_calls: [{ name: "exec", arguments: { cmd: redactions[10][0] } }] };
  assert.deepEqual(hook.redactValue(nested, "strict"), security.redactValue(nested, "strict"));
  assert.deepEqual(core.redactMessages([nested]), [security.redactValue(nested, "strict")]);
});

test("reminder texts, intervals and cadence equal the OpenClaw plugin's", async () => {
  const { config, hooks } = await openclawModules();
  assert.equal(core.START_REMINDER, hooks.START_REMINDER);
  assert.equal(core.PERIODIC_REMINDER, hooks.PERIODIC_REMINDER);
  assert.deepEqual(core.REMINDER_MODES, [...config.REMINDER_MODES]);
  assert.deepEqual({ ...core.REMINDER_INTERVALS }, { ...config.REMINDER_INTERVALS });
  for (const mode of config.REMINDER_MODES) {
    for (let total = 0; total <= 12; total++) {
      for (let before = 0; before <= total; before++) {
        assert.equal(core.reminderForRun(mode, total, before), hooks.reminderForRun(mode, total, before), `${mode} ${total} ${before}`);
      }
    }
  }
});
