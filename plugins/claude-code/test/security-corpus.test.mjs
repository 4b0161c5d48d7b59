// The generated hooks/lib/security.mjs passes the shared security corpus
// (testdata/security-cases.jsonl) like its TypeScript source and the Rust server do: the hooks
// redact an uploaded conversation exactly as they would.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";

import { redactSensitiveInfo, screenText } from "../hooks/lib/security.mjs";

const cases = fs
  .readFileSync(new URL("../../../testdata/security-cases.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));

test("the hooks' security copy holds every corpus case", () => {
  assert.ok(cases.length >= 300);
  const failures = [];
  for (const c of cases) {
    if (c.kind === "secret" && c.expect_text !== undefined) {
      const out = redactSensitiveInfo(c.text);
      if (out !== c.expect_text) failures.push(`${c.id}: ${JSON.stringify(out)}`);
    } else if (c.kind === "injection") {
      const flags = screenText(c.text);
      if (JSON.stringify(flags) !== JSON.stringify(c.expect_flags)) failures.push(`${c.id}: ${JSON.stringify(flags)}`);
    } else if (c.kind === "benign") {
      if (redactSensitiveInfo(c.text) !== c.text || screenText(c.text).length > 0) failures.push(`${c.id}: changed or flagged`);
    }
  }
  assert.deepEqual(failures, []);
});
