// The rule file rules/secrets.json, as the plugin embeds it (src/secret-rules.ts): the embedded
// copy is current, every rule compiles in JavaScript with its flags, and the check digits accept
// known valid numbers and refuse one digit off. crates/knowhub-core/src/secret_rules.rs checks
// that every rule compiles in Rust's regex too.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";

import { SECRET_RULES } from "../src/secret-rules.js";
import { compileSecretRule, redactWithCounts, shannonEntropy } from "../src/security.js";

test("src/secret-rules.ts holds the current rules/secrets.json", () => {
  const file = JSON.parse(fs.readFileSync(new URL("../../../../rules/secrets.json", import.meta.url), "utf8"));
  assert.deepEqual(SECRET_RULES, file.rules, "stale: run node plugins/openclaw/scripts/sync-rules.mjs");
  assert.ok(file.license.join("\n").includes("Zachary Rice"), "the gitleaks licence notice is kept");
});

test("every rule of the rule file compiles in JavaScript and never matches empty text", () => {
  assert.ok(SECRET_RULES.length >= 150);
  for (const spec of SECRET_RULES) {
    const rule = compileSecretRule(spec);
    assert.equal(rule.re.exec(""), null, spec.id);
    assert.doesNotMatch(spec.pattern, /(?:^|[^\\])\(\?[^:]/, `${spec.id}: inline flag or look-around`);
  }
});

test("check digits: valid numbers are redacted, one digit off is kept", () => {
  const cases: Array<[string, string, string]> = [
    ["HKID A123456(3)", "HKID A123456(4)", "national_id"],
    ["id A123456789 ok", "id A123456788 ok", "national_id"],
    ["番号 1234 5678 9018", "番号 1234 5678 9017", "national_id"],
    ["RRN 900101-1234568", "RRN 900101-1234567", "national_id"],
    ["IBAN DE89 3704 0044 0532 0130 00", "IBAN DE89 3704 0044 0532 0130 01", "payment_card"],
    ["id 110105 1949 1231 002X", "id 110105 1949 1231 0020", "national_id"],
  ];
  for (const [valid, invalid, category] of cases) {
    const hit = redactWithCounts(valid);
    assert.ok((hit.counts[category] ?? 0) > 0, `${valid} -> ${hit.text}`);
    assert.equal(redactWithCounts(invalid).text, invalid);
  }
  assert.equal(shannonEntropy("abcd"), 2);
  assert.equal(shannonEntropy("aaaa"), 0);
});
