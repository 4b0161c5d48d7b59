// The host installs the plugin from its packed folder without devDependencies, so the shared
// client (@knowhub/client, linked from clients/typescript) is copied into dist/ and the one
// module that imports it, dist/client.js, is pointed at that copy. Run after `tsc`.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const plugin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(plugin, "dist");
const from = path.join(plugin, "node_modules/@knowhub/client/dist/index.js");
const fail = (msg) => {
  console.error(`vendor-client: ${msg}`);
  process.exit(1);
};

if (!fs.existsSync(from)) fail(`${from} is missing: run npm ci, then npm run build:client`);
const code = fs.readFileSync(from, "utf8");
if (/^\s*(import|export)\s[^;]*\sfrom\s/m.test(code)) fail("the client imports other modules; copy them too");
fs.writeFileSync(path.join(dist, "knowhub-client.js"), code);

const SPEC = '"@knowhub/client"';
let rewritten = 0;
for (const name of fs.readdirSync(dist)) {
  if (!name.endsWith(".js")) continue;
  const file = path.join(dist, name);
  const text = fs.readFileSync(file, "utf8");
  if (!text.includes(SPEC)) continue;
  fs.writeFileSync(file, text.replaceAll(`from ${SPEC}`, 'from "./knowhub-client.js"'));
  if (fs.readFileSync(file, "utf8").includes(SPEC)) fail(`${name} names ${SPEC} other than in an import`);
  rewritten++;
}
if (rewritten === 0) fail(`no module in dist/ imports ${SPEC}`);
