import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ConfigError,
  CONFIG_KEYS,
  DEFAULT_CONFIG,
  isLoopbackHost,
  isSecureTransport,
  REMINDER_INTERVALS,
  resolveConfig,
} from "../src/config.js";

function problemsOf(raw: unknown): string[] {
  try {
    resolveConfig(raw);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    return err.problems;
  }
  assert.fail("expected a ConfigError");
}

test("defaults follow the design (apiUrl localhost:8000, normal reminders, strict, extraction off)", () => {
  const { config, warnings, extractionRefused } = resolveConfig(undefined);
  assert.deepEqual(config, { ...DEFAULT_CONFIG });
  assert.equal(config.apiUrl, "http://localhost:8000");
  assert.equal(config.reminderMode, "normal");
  assert.equal(config.privacyMode, "strict");
  assert.equal(config.enableServerExtraction, false);
  assert.equal(config.extractionTrigger, "agent_end");
  assert.equal(config.requireApproval, true);
  assert.equal(config.autoRecall, false);
  assert.equal(config.timeoutMs, 5000);
  assert.equal(config.submittedBy, "");
  assert.equal(config.apiKey, undefined);
  assert.equal(config.minRelevance, undefined, "unset: the server's default applies");
  assert.deepEqual(warnings, []);
  assert.equal(extractionRefused, undefined);
  assert.deepEqual(resolveConfig(null).config, { ...DEFAULT_CONFIG });
  assert.deepEqual(resolveConfig({}).config, { ...DEFAULT_CONFIG });
});

test("reminder intervals per mode: off 0, minimal 5, normal 3, aggressive 2", () => {
  assert.deepEqual({ ...REMINDER_INTERVALS }, { off: 0, minimal: 5, normal: 3, aggressive: 2 });
});

test("a full valid config is accepted and normalised", () => {
  const { config } = resolveConfig({
    apiUrl: " https://kh.example.com/knowhub/ ",
    apiKey: " kh_secret_1 ",
    submittedBy: " ops@example.com ",
    reminderMode: "aggressive",
    enableServerExtraction: true,
    privacyMode: "relaxed",
    extractionTrigger: "before_compaction",
    requireApproval: false,
    autoRecall: true,
    timeoutMs: 2500,
    minRelevance: 0.35,
  });
  assert.deepEqual(config, {
    apiUrl: "https://kh.example.com/knowhub",
    apiKey: "kh_secret_1",
    submittedBy: "ops@example.com",
    reminderMode: "aggressive",
    enableServerExtraction: true,
    privacyMode: "relaxed",
    extractionTrigger: "before_compaction",
    requireApproval: false,
    autoRecall: true,
    timeoutMs: 2500,
    minRelevance: 0.35,
    autoRecallMinRelevance: 0.2,
  });
});

test("trailing slashes are removed from apiUrl, an empty apiKey means no key", () => {
  assert.equal(resolveConfig({ apiUrl: "http://127.0.0.1:9000///" }).config.apiUrl, "http://127.0.0.1:9000");
  assert.equal(resolveConfig({ apiKey: "  " }).config.apiKey, undefined);
  assert.equal(resolveConfig({ apiKey: null }).config.apiKey, undefined);
});

const badUrls: [unknown, RegExp][] = [
  ["not a url", /apiUrl is not a valid URL/],
  ["", /apiUrl must be a non-empty URL/],
  ["   ", /apiUrl must be a non-empty URL/],
  [42, /apiUrl must be a non-empty URL/],
  ["ftp://example.com", /apiUrl must use http:\/\/ or https:\/\//],
  ["file:///etc/passwd", /apiUrl must use http/],
  ["localhost:8000", /apiUrl must use http/],
  ["http://user:pw@example.com", /apiUrl must not embed credentials/],
  ["http://localhost:8000/?x=1", /apiUrl must not have a query string/],
  ["http://localhost:8000/#frag", /apiUrl must not have a query string or fragment/],
];
for (const [value, re] of badUrls) {
  test(`invalid apiUrl ${JSON.stringify(value)} fails naming the field`, () => {
    const problems = problemsOf({ apiUrl: value });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, re);
    assert.match(problems[0]!, /^apiUrl/);
  });
}

const badEnums: [string, unknown][] = [
  ["reminderMode", "sometimes"],
  ["reminderMode", "NORMAL"],
  ["reminderMode", 3],
  ["privacyMode", "paranoid"],
  ["privacyMode", true],
  ["extractionTrigger", "on_exit"],
  ["extractionTrigger", null],
];
for (const [field, value] of badEnums) {
  test(`invalid enum ${field}=${JSON.stringify(value)} fails naming the field and the allowed values`, () => {
    const problems = problemsOf({ [field]: value });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, new RegExp(`^${field} must be one of`));
    assert.ok(problems[0]!.includes(JSON.stringify(value) ?? "null"));
  });
}

for (const field of ["enableServerExtraction", "requireApproval", "autoRecall"]) {
  test(`boolean ${field} rejects strings`, () => {
    const problems = problemsOf({ [field]: "yes" });
    assert.match(problems[0]!, new RegExp(`^${field} must be true or false`));
  });
}

for (const value of [0, 99, 120_001, 1.5, "5000", -1]) {
  test(`timeoutMs=${JSON.stringify(value)} is rejected`, () => {
    assert.match(problemsOf({ timeoutMs: value })[0]!, /^timeoutMs must be an integer from 100 to 120000/);
  });
}

test("autoRecallMinRelevance defaults to 0.2 and accepts 0 to 1", () => {
  assert.equal(resolveConfig({}).config.autoRecallMinRelevance, 0.2);
  assert.equal(resolveConfig({ autoRecallMinRelevance: 0.5 }).config.autoRecallMinRelevance, 0.5);
  assert.match(problemsOf({ autoRecallMinRelevance: 1.5 })[0]!, /^autoRecallMinRelevance must be a number from 0 to 1/);
});

test("minRelevance accepts any number from 0 to 1; null means unset", () => {
  for (const v of [0, 0.02, 0.5, 1]) assert.equal(resolveConfig({ minRelevance: v }).config.minRelevance, v);
  assert.equal(resolveConfig({ minRelevance: null }).config.minRelevance, undefined);
});

for (const value of [-0.01, 1.01, 35, "0.3", true, Number.NaN, Number.POSITIVE_INFINITY]) {
  test(`minRelevance=${String(value)} is rejected, naming the field`, () => {
    const problems = problemsOf({ minRelevance: value });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^minRelevance must be a number from 0 to 1 \(got /);
  });
}

test("apiKey and submittedBy type/length errors", () => {
  assert.match(problemsOf({ apiKey: 123 })[0]!, /^apiKey must be a string/);
  assert.match(problemsOf({ apiKey: "two words" })[0]!, /^apiKey must not contain whitespace/);
  assert.match(problemsOf({ submittedBy: 5 })[0]!, /^submittedBy must be a string/);
  assert.match(problemsOf({ submittedBy: "x".repeat(201) })[0]!, /^submittedBy must be at most 200/);
});

test("unknown options are rejected with the list of known ones", () => {
  const problems = problemsOf({ apiUrl: "http://localhost:8000", reminder: "normal" });
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /^reminder is not a known option/);
  for (const k of CONFIG_KEYS) assert.ok(problems[0]!.includes(k));
});

test("several problems are reported together in one error message", () => {
  try {
    resolveConfig({ apiUrl: "nope", reminderMode: "loud", timeoutMs: 1 });
    assert.fail("should throw");
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.equal(err.problems.length, 3);
    assert.match(err.message, /plugins\.entries\.knowhub\.config/);
    assert.match(err.message, /apiUrl/);
    assert.match(err.message, /reminderMode/);
    assert.match(err.message, /timeoutMs/);
  }
});

test("a non-object config is rejected", () => {
  assert.match(problemsOf("http://localhost")[0]!, /config must be an object/);
  assert.match(problemsOf([1, 2])[0]!, /config must be an object/);
});

test("loopback hosts", () => {
  for (const h of ["localhost", "LOCALHOST", "api.localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1"]) {
    assert.equal(isLoopbackHost(h), true, h);
  }
  for (const h of ["example.com", "10.0.0.1", "192.168.1.1", "localhost.example.com", "128.0.0.1", "::2"]) {
    assert.equal(isLoopbackHost(h), false, h);
  }
});

test("secure transport: https anywhere, http only on loopback", () => {
  assert.equal(isSecureTransport("https://kh.example.com"), true);
  assert.equal(isSecureTransport("http://localhost:8000"), true);
  assert.equal(isSecureTransport("http://127.0.0.1:1"), true);
  assert.equal(isSecureTransport("http://[::1]:8000"), true);
  assert.equal(isSecureTransport("http://kh.example.com"), false);
  assert.equal(isSecureTransport("http://10.1.2.3:8000"), false);
});

test("a remote plain-http apiUrl logs a warning but loads", () => {
  const r = resolveConfig({ apiUrl: "http://kh.example.com:8000", apiKey: "k1" });
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0]!, /remote server over plain http/);
  assert.match(r.warnings[0]!, /API key/);
  assert.equal(r.extractionRefused, undefined);
  assert.equal(resolveConfig({ apiUrl: "https://kh.example.com" }).warnings.length, 0);
  assert.equal(resolveConfig({ apiUrl: "http://localhost:1234" }).warnings.length, 0);
});

test("extraction to a remote non-HTTPS server is refused", () => {
  const r = resolveConfig({ apiUrl: "http://kh.example.com", enableServerExtraction: true });
  assert.match(r.extractionRefused ?? "", /refused/);
  assert.equal(resolveConfig({ apiUrl: "https://kh.example.com", enableServerExtraction: true }).extractionRefused, undefined);
  assert.equal(resolveConfig({ apiUrl: "http://127.0.0.1:8000", enableServerExtraction: true }).extractionRefused, undefined);
});
