// Regenerates hooks/lib/security.mjs from the OpenClaw plugin's src/security.ts, so both plugins
// redact with the very same rules (one source; this is a build copy, never edited by hand).
//
//   node scripts/sync-security.mjs           write hooks/lib/security.mjs
//   node scripts/sync-security.mjs --check   exit 1 if the committed copy is stale
//
// Needs TypeScript from plugins/openclaw (cd plugins/openclaw && npm ci).

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const openclaw = path.resolve(root, "../openclaw");
export const SOURCE = path.join(openclaw, "src/security.ts");
export const RULES_SOURCE = path.join(openclaw, "src/secret-rules.ts");
export const TARGET = path.join(root, "hooks/lib/security.mjs");

const HEADER = `// GENERATED from plugins/openclaw/src/security.ts and src/secret-rules.ts (itself generated from
// rules/secrets.json) by plugins/claude-code/scripts/sync-security.mjs.
// Do not edit: change the TypeScript source and run \`node scripts/sync-security.mjs\`.
// (test/parity.test.mjs fails when this copy is stale.)
`;

/** The generated module's text, from the current TypeScript source. */
export function generate() {
  let ts;
  try {
    ts = createRequire(path.join(openclaw, "package.json"))("typescript");
  } catch {
    throw new Error("TypeScript is missing: run `npm ci` in plugins/openclaw first");
  }
  const transpile = (file) =>
    ts.transpileModule(fs.readFileSync(file, "utf8"), {
      fileName: path.basename(file),
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: false },
    }).outputText;
  // The rule file's module goes in where security.ts imports it, so the copy runs alone.
  const rulesImport = /^import \{ [A-Z0-9_, ]+ \} from "\.\/secret-rules\.js";\n/m;
  const security = transpile(SOURCE);
  if (!rulesImport.test(security)) throw new Error("security.ts no longer imports its constants from ./secret-rules.js");
  const text = security.replace(rulesImport, () => transpile(RULES_SOURCE).replace(/^export \{\};\n?/m, ""));
  if (/^\s*import\s/m.test(text)) throw new Error("security.ts gained a runtime import; the copy would not run alone");
  return HEADER + text;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = generate();
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(TARGET) ? fs.readFileSync(TARGET, "utf8") : "";
    if (current !== text) {
      console.error(`${path.relative(process.cwd(), TARGET)} is stale: run node plugins/claude-code/scripts/sync-security.mjs`);
      process.exit(1);
    }
    console.log("hooks/lib/security.mjs matches plugins/openclaw/src/security.ts");
  } else {
    fs.writeFileSync(TARGET, text);
    console.log(`wrote ${path.relative(process.cwd(), TARGET)}`);
  }
}
