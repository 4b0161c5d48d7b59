// Regenerates src/secret-rules.ts from the repository's rules/secrets.json, so the plugin (and the
// Claude Code hooks built from security.ts) embed the very rule file the server embeds, with no
// file to find at run time.
//
//   node scripts/sync-rules.mjs           write src/secret-rules.ts
//   node scripts/sync-rules.mjs --check   exit 1 if the committed copy is stale

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const RULES_JSON = path.resolve(here, "../../../rules/secrets.json");
export const RULES_TS = path.resolve(here, "../src/secret-rules.ts");
export const BIP39_TXT = path.resolve(here, "../../../rules/bip39-english.txt");

/** The generated module's text, from the current rule file. */
export function generateRules() {
  const data = JSON.parse(fs.readFileSync(RULES_JSON, "utf8"));
  const bip39 = fs.readFileSync(BIP39_TXT, "utf8").split(/\s+/).filter(Boolean);
  const comment = (lines) => lines.map((l) => `// ${l}`.trimEnd()).join("\n");
  return `// GENERATED from rules/secrets.json by plugins/openclaw/scripts/sync-rules.mjs. Do not edit:
// change the rule file and run \`node scripts/sync-rules.mjs\` (test/secret-rules.test.ts fails
// when this copy is stale).
//
${comment(data.about)}
//
${comment(data.dialect)}
//
// Rules with source "gitleaks" (commit ${data.gitleaks_commit}) are used under this licence:
//
${comment(data.license)}

/** One rule of rules/secrets.json. */
export interface SecretRuleSpec {
  id: string;
  source: string;
  stage?: "secrets" | "personal";
  category: string;
  replace: string;
  pattern: string;
  ignore_case?: boolean;
  multiline?: boolean;
  group?: number;
  keywords?: string[];
  entropy?: number;
  require?: string[];
  stopwords?: string[];
  /** Words that, in the match or earlier on its line, say the value is not a secret. */
  veto?: string[];
  validate?: string;
}

export const SECRET_RULES: readonly SecretRuleSpec[] = ${JSON.stringify(data.rules, null, 1)};

/** The BIP-39 English word list (rules/bip39-english.txt, from the \`mnemonic\` package, MIT; see rules/NOTICE). */
export const BIP39_ENGLISH: readonly string[] = ${JSON.stringify(bip39.join(" "))}.split(" ");
`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = generateRules();
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(RULES_TS) ? fs.readFileSync(RULES_TS, "utf8") : "";
    if (current !== text) {
      console.error("src/secret-rules.ts is stale: run node plugins/openclaw/scripts/sync-rules.mjs");
      process.exit(1);
    }
    console.log("src/secret-rules.ts matches rules/secrets.json");
  } else {
    fs.writeFileSync(RULES_TS, text);
    console.log(`wrote ${path.relative(process.cwd(), RULES_TS)}`);
  }
}
