// The shared security corpus (testdata/security-cases.jsonl), also read by the Rust test
// crates/knowhub-core/tests/security_corpus.rs: every case must hold on both sides.
//
// - injection: screenText reports exactly the categories in expect_flags (in category order);
// - secret: redaction gives expect_text exactly, leaves every expect_redacted token, no must_remove text, every must_keep
//   text, a count in every expect_counts category, and is idempotent;
// - benign: screenText finds nothing and redaction changes nothing.
//
// Prints per-category detection and false-positive rates.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { looksLikePromptInjection, redactSensitiveInfo, redactWithCounts, screenText } from "../src/security.js";

interface Case {
  id: string;
  kind: "injection" | "secret" | "benign";
  category: string;
  text: string;
  /** The exact redacted text (both implementations must agree to the character). */
  expect_text?: string;
  expect_flags?: string[];
  expect_redacted?: string[];
  expect_counts?: string[];
  must_keep?: string[];
  must_remove?: string[];
}

function loadCases(): Case[] {
  const url = new URL("../../../../testdata/security-cases.jsonl", import.meta.url);
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Case);
}

/** Why a case fails, or undefined when it holds. */
function check(c: Case): string | undefined {
  if (c.kind === "injection") {
    const flags = screenText(c.text);
    const expected = c.expect_flags ?? [];
    return JSON.stringify(flags) !== JSON.stringify(expected) || flags.length === 0
      ? `flags ${JSON.stringify(flags)}, expected ${JSON.stringify(expected)}`
      : undefined;
  }
  if (c.kind === "secret") {
    const out = redactWithCounts(c.text);
    const why: string[] = [];
    if (c.expect_text !== undefined && c.expect_text !== out.text) why.push(`expected ${JSON.stringify(c.expect_text)}`);
    for (const t of c.expect_redacted ?? []) if (!out.text.includes(t)) why.push(`no ${JSON.stringify(t)}`);
    for (const t of c.must_remove ?? []) if (out.text.includes(t)) why.push(`kept ${JSON.stringify(t)}`);
    for (const t of c.must_keep ?? []) if (!out.text.includes(t)) why.push(`lost ${JSON.stringify(t)}`);
    for (const k of c.expect_counts ?? []) if (!out.counts[k]) why.push(`count ${k} is 0`);
    const again = redactWithCounts(out.text);
    if (again.text !== out.text || Object.values(again.counts).some((n) => n > 0)) {
      why.push(`not idempotent: ${JSON.stringify(again.text)}`);
    }
    return why.length > 0 ? `${why.join(", ")} -> ${JSON.stringify(out.text)}` : undefined;
  }
  if (c.kind === "benign") {
    const flags = screenText(c.text);
    const out = redactSensitiveInfo(c.text);
    return flags.length > 0 || out !== c.text ? `flags ${JSON.stringify(flags)}, redacted ${JSON.stringify(out)}` : undefined;
  }
  return `unknown kind ${String(c.kind)}`;
}

test("every case of the shared security corpus holds (testdata/security-cases.jsonl)", () => {
  const cases = loadCases();
  assert.ok(cases.length >= 300, `${cases.length} cases`);
  assert.ok(cases.filter((c) => c.kind === "benign").length >= 80);
  assert.equal(new Set(cases.map((c) => c.id)).size, cases.length, "duplicate ids");
  const per = new Map<string, { kind: string; category: string; n: number; ok: number }>();
  const failures: string[] = [];
  for (const c of cases) {
    const key = `${c.kind}\u0000${c.category}`;
    const e = per.get(key) ?? { kind: c.kind, category: c.category, n: 0, ok: 0 };
    per.set(key, e);
    e.n++;
    const why = check(c);
    if (why === undefined) e.ok++;
    else failures.push(`${c.id} (${c.category}): ${why}\n    text: ${JSON.stringify(c.text)}`);
  }
  const rows = [...per.values()].sort((a, b) => (a.kind + a.category < b.kind + b.category ? -1 : 1));
  const lines = [`security corpus: ${cases.length} cases`];
  for (const r of rows) {
    const benign = r.kind === "benign";
    const rate = benign ? (r.n - r.ok) / r.n : r.ok / r.n;
    lines.push(`${r.kind.padEnd(10)} ${r.category.padEnd(22)} ${String(r.n).padStart(5)} ${benign ? "    fp" : "detect"} ${(rate * 100).toFixed(1).padStart(5)}%`);
  }
  for (const kind of ["injection", "secret", "benign"]) {
    const rs = rows.filter((r) => r.kind === kind);
    const n = rs.reduce((a, r) => a + r.n, 0);
    const ok = rs.reduce((a, r) => a + r.ok, 0);
    const rate = kind === "benign" ? (n - ok) / n : ok / n;
    lines.push(`${kind}: ${n} cases, ${kind === "benign" ? "false-positive" : "detection"} rate ${(rate * 100).toFixed(1)}%`);
  }
  const secretsFlagged = cases.filter((c) => c.kind === "secret" && looksLikePromptInjection(c.text)).length;
  lines.push(`secret cases also flagged by the injection screen: ${secretsFlagged}`);
  console.log(lines.join("\n"));
  assert.equal(failures.length, 0, `${failures.length} failing cases:\n${failures.join("\n")}`);
});

test("screening and redaction stay fast on adversarial inputs (no catastrophic backtracking)", () => {
  const inputs = [
    "ignore ".repeat(20_000),
    "A".repeat(200_000),
    "curl ".repeat(20_000),
    "rm -r ".repeat(20_000),
    "![".repeat(50_000),
    "忽略".repeat(50_000),
    "aWdub3Jl ".repeat(20_000),
    "a:".repeat(50_000),
    "1 ".repeat(50_000),
    "é".repeat(50_000) + "@",
    "mysql ".repeat(20_000),
    "--password ".repeat(20_000),
    "ghp_abcdefgh\n".repeat(10_000),
    "curl $(cat ".repeat(20_000),
    "cat .ssh/ ".repeat(20_000),
    "env | ".repeat(30_000),
  ];
  for (const input of inputs) {
    const t0 = Date.now();
    screenText(input);
    redactSensitiveInfo(input);
    const dt = Date.now() - t0;
    assert.ok(dt < 3000, `${JSON.stringify(input.slice(0, 20))}... took ${dt} ms`);
  }
});
