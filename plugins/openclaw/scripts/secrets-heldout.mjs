// The held-out secret cases (testdata/secrets/heldout.jsonl, written without sight of the rules)
// through the plugin's redactor, redactSensitiveInfo: what strict privacy mode applies to every
// string the plugin sends (records, uploads, queries). Prints per category how many secrets no
// longer appear in the output (detected) and how many benign look-alikes were changed (false
// positives), the same table `knowhub-bench secrets` prints for the server's redactor, and with
// --out writes each case's output so that command can list where the two disagree.
//
//   npm run build && node scripts/secrets-heldout.mjs [--cases FILE] [--records FILE] [--out FILE]

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { redactSensitiveInfo } from "../dist/security.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const casesPath = arg("--cases", path.join(root, "testdata/secrets/heldout.jsonl"));
const recordsPath = arg("--records", path.join(root, "bench/data/experiences/records.jsonl"));
const outPath = arg("--out", undefined);

const lines = (p) =>
  fs
    .readFileSync(p, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));

/** Whether 8 characters in a row of a secret of 10 or more are still in the output. */
function survives(secret, out) {
  const chars = [...secret];
  if (chars.length < 10) return false;
  for (let i = 0; i + 8 <= chars.length; i++) if (out.includes(chars.slice(i, i + 8).join(""))) return true;
  return false;
}

function verdict(c, out) {
  if (c.secret !== undefined) {
    if (out.includes(c.secret)) return "missed";
    return survives(c.secret, out) ? "partial" : "detected";
  }
  return out === c.text ? "kept" : "changed";
}

const excerpt = (t) => {
  const one = t.split(/\s+/).filter(Boolean).join(" ");
  const cut = [...one].slice(0, 140).join("");
  return cut.length < one.length ? `${cut}…` : cut;
};
const pct = (k, n) => (n === 0 ? "-" : `${Math.round((100 * k) / n)}%`);

const cases = lines(casesPath);
const rows = new Map();
const misses = [];
const partials = [];
const changed = [];
const outputs = [];
for (const c of cases) {
  const out = redactSensitiveInfo(c.text);
  outputs.push(JSON.stringify({ id: c.id, text: out }));
  const v = verdict(c, out);
  const key = `${c.kind}\u0000${c.family}\u0000${c.category}`;
  const row = rows.get(key) ?? { kind: c.kind, family: c.family, category: c.category, n: 0, hit: 0, partial: 0 };
  rows.set(key, row);
  row.n += 1;
  if (v === "detected" || v === "partial" || v === "changed") row.hit += 1;
  if (v === "partial") row.partial += 1;
  const line = `${c.id} [${c.category}]: ${excerpt(out)}`;
  if (v === "missed") misses.push(line);
  if (v === "partial") partials.push(line);
  if (v === "changed") changed.push(line);
}
if (outPath) fs.writeFileSync(outPath, outputs.join("\n") + "\n");

console.log(`held-out cases: ${cases.length} (${casesPath}), TypeScript redactSensitiveInfo`);
for (const [kind, title] of [
  ["secret", "detected (secret gone from the output)"],
  ["benign", "changed (false positive)"],
]) {
  console.log(`\n${kind}: ${title}\n\n| family | category | n | ts |\n|---|---|---:|---:|`);
  let n = 0;
  let hit = 0;
  const sorted = [...rows.values()]
    .filter((r) => r.kind === kind)
    .sort((a, b) => (a.family + "\u0000" + a.category < b.family + "\u0000" + b.category ? -1 : 1));
  for (const r of sorted) {
    const part = r.partial > 0 ? ` (${r.partial} partial)` : "";
    console.log(`| ${r.family} | ${r.category} | ${r.n} | ${r.hit}/${r.n} ${pct(r.hit, r.n)}${part} |`);
    n += r.n;
    hit += r.hit;
  }
  console.log(`| **all** | | ${n} | ${hit}/${n} ${pct(hit, n)} |`);
}
console.log(`\nmissed secrets (ts): ${misses.length}`);
for (const m of misses) console.log(`  ${m}`);
console.log(`\npartly redacted secrets (ts; 8+ characters survive): ${partials.length}`);
for (const m of partials) console.log(`  ${m}`);
console.log(`\nchanged benign texts (ts): ${changed.length}`);
for (const m of changed) console.log(`  ${m}`);

if (recordsPath) {
  let n = 0;
  let changedRecords = 0;
  const examples = [];
  for (const r of lines(recordsPath)) {
    n += 1;
    let any = false;
    for (const field of ["task", "resource", "result"]) {
      if (typeof r[field] !== "string") continue;
      const out = redactSensitiveInfo(r[field]);
      if (out !== r[field]) {
        any = true;
        examples.push(`${r.id}.${field}: ${excerpt(out)}`);
      }
    }
    if (any) changedRecords += 1;
  }
  const share = n === 0 ? 0 : (100 * changedRecords) / n;
  console.log(`\nexperience set ${recordsPath}: ${n} records, changed by redaction ${changedRecords} (${share.toFixed(2)}%)`);
  for (const e of examples) console.log(`  ${e}`);
}
