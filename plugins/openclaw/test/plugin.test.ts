import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { CONFIG_KEYS, ConfigError, DEFAULT_CONFIG, EXTRACTION_TRIGGERS, PRIVACY_MODES, REMINDER_MODES } from "../src/config.js";
import { PLUGIN_ID, registerKnowHub } from "../src/plugin.js";
import { createSharedState, globalSharedState } from "../src/runtime.js";
import { TOOL_NAMES } from "../src/tools.js";
import { PLUGIN_VERSION } from "../src/client.js";
import { createFakeHost } from "./helpers.js";

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const manifest = JSON.parse(fs.readFileSync(root("openclaw.plugin.json"), "utf8"));
const pkg = JSON.parse(fs.readFileSync(root("package.json"), "utf8"));

test("manifest: id knowhub, every tool in contracts.tools, skills shipped", () => {
  assert.equal(manifest.id, PLUGIN_ID);
  assert.equal(manifest.id, "knowhub");
  assert.deepEqual(manifest.contracts.tools, [...TOOL_NAMES]);
  assert.deepEqual(manifest.skills, ["./skills"]);
  const skill = fs.readFileSync(root("skills/knowhub/SKILL.md"), "utf8");
  assert.match(skill, /^---\nname: knowhub\ndescription: .+\n---\n/);
  for (const t of TOOL_NAMES) assert.ok(skill.includes(t), t);
  assert.match(skill, /When to search/);
  assert.match(skill, /When to submit/);
  assert.match(skill, /How to write a good experience/);
  assert.match(skill, /Failure lessons/);
  assert.match(skill, /When to give feedback/);
  assert.match(skill, /right after you used an experience from KnowHub/i);
  for (const o of ["helped", "failed", "irrelevant"]) assert.ok(skill.includes(`\`${o}\``), o);
  assert.ok(skill.includes("KnowHub has no relevant experience for this; proceed without it."), "SKILL.md quotes the nothing-relevant answer");
});

test("manifest configSchema lists every option with the code's defaults and enums", () => {
  const schema = manifest.configSchema;
  assert.equal(schema.type, "object");
  assert.equal(schema.additionalProperties, false);
  assert.deepEqual(Object.keys(schema.properties).sort(), [...CONFIG_KEYS].sort());
  for (const key of CONFIG_KEYS) {
    const def = (DEFAULT_CONFIG as Record<string, unknown>)[key];
    if (def !== undefined) assert.deepEqual(schema.properties[key].default, def, key);
    assert.ok(schema.properties[key].description, `${key} has a description`);
  }
  assert.deepEqual(schema.properties.reminderMode.enum, [...REMINDER_MODES]);
  assert.deepEqual(schema.properties.privacyMode.enum, [...PRIVACY_MODES]);
  assert.deepEqual(schema.properties.extractionTrigger.enum, [...EXTRACTION_TRIGGERS]);
  assert.equal(schema.properties.timeoutMs.type, "integer");
  assert.deepEqual(
    [schema.properties.minRelevance.type, schema.properties.minRelevance.minimum, schema.properties.minRelevance.maximum],
    ["number", 0, 1],
  );
  assert.equal("default" in schema.properties.minRelevance, false, "no default: unset means the server's default");
});

test("manifest uiHints mark the API key sensitive and label every option", () => {
  assert.equal(manifest.uiHints.apiKey.sensitive, true);
  for (const key of CONFIG_KEYS) assert.ok(manifest.uiHints[key]?.label, key);
  for (const [key, hint] of Object.entries<any>(manifest.uiHints)) if (key !== "apiKey") assert.notEqual(hint.sensitive, true, key);
});

test("package.json: ESM, entry ./dist/index.js, openclaw peer dependency, pinned dev dependencies", () => {
  assert.equal(pkg.type, "module");
  assert.deepEqual(pkg.openclaw.extensions, ["./dist/index.js"]);
  assert.ok(pkg.peerDependencies.openclaw);
  assert.equal(pkg.peerDependenciesMeta.openclaw.optional, true);
  // The shared client is this repository's own folder (built and copied into dist/ by the build).
  assert.equal(pkg.devDependencies["@knowhub/client"], "file:../../clients/typescript");
  for (const [name, v] of Object.entries<string>(pkg.devDependencies)) {
    if (name !== "@knowhub/client") assert.match(v, /^\d+\.\d+\.\d+$/, `${name} pinned`);
  }
  assert.deepEqual(pkg.dependencies ?? {}, {}, "no runtime dependencies");
  assert.ok(pkg.files.includes("dist/") && pkg.files.includes("openclaw.plugin.json") && pkg.files.includes("skills/"));
  assert.equal(pkg.version, manifest.version);
  assert.equal(pkg.version, PLUGIN_VERSION);
});

test("register wires the four tool factories and the hooks", () => {
  const h = createFakeHost({});
  assert.deepEqual([...h.tools.keys()], [...TOOL_NAMES]);
  assert.deepEqual([...h.hooks.keys()].sort(), ["agent_end", "before_compaction", "before_prompt_build", "llm_input", "model_call_started", "session_end"]);
  assert.equal(h.rt.config.apiUrl, "http://localhost:8000");
  assert.equal(h.logs.length, 0, "a default config loads silently");
});

test("an invalid config throws a ConfigError naming the field and logs it", () => {
  const logs: string[] = [];
  const api = {
    id: "knowhub",
    pluginConfig: { apiUrl: "ftp://x", reminderMode: "loud" },
    logger: { info: () => {}, warn: () => {}, error: (m: string) => logs.push(m) },
    registerTool: () => assert.fail("must not register with a bad config"),
    on: () => assert.fail("must not register with a bad config"),
  };
  assert.throws(() => registerKnowHub(api as never, { shared: createSharedState() }), (e: unknown) => {
    assert.ok(e instanceof ConfigError);
    assert.match(e.message, /apiUrl must use http/);
    assert.match(e.message, /reminderMode must be one of/);
    return true;
  });
  assert.equal(logs.length, 1);
  assert.match(logs[0]!, /knowhub: invalid plugin config/);
});

test("warnings are logged once even though OpenClaw calls register() several times", () => {
  const shared = createSharedState();
  const a = createFakeHost({ apiUrl: "http://kh.example.invalid" }, { shared });
  const b = createFakeHost({ apiUrl: "http://kh.example.invalid" }, { shared });
  assert.equal(a.warnings().length + b.warnings().length, 1);
});

test("the process-wide shared state is a singleton on globalThis", () => {
  assert.equal(globalSharedState(), globalSharedState());
});
