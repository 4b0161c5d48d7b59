// Privacy and prompt-safety helpers: secret/PII redaction, prompt-injection detection and
// escaping. How KnowHub records are shown to a model lives in format.ts.
//
// Design rule: these functions must not corrupt ordinary technical text. Every pattern is
// anchored so that URLs, package specs (pkg@1.2.3), semver, UUIDs, hashes, dates, ports and
// code such as `password: string` pass through untouched. Judgement calls are documented next
// to each rule and in README.md ("Privacy").

import type { PrivacyMode } from "./config.js";
import { BIP39_ENGLISH, SECRET_RULES, type SecretRuleSpec } from "./secret-rules.js";

// ---------------------------------------------------------------------------------------------
// Redaction
// ---------------------------------------------------------------------------------------------

type PatternRule = { name: string; pattern: RegExp; replace: (match: string, ...groups: string[]) => string };
/** Where one stage of the rule file (rules/secrets.json) runs among the hand-written rules. */
type StageRule = { name: string; stage: "secrets" | "personal" };
type Rule = PatternRule | StageRule;

/** Version markers: a dotted quad right after one of these is a version, not an IPv4 address. */
const VERSION_CONTEXT = /(?:\bv|\bversions?|\bver\.?|\brelease|\bbuild|\brev(?:ision)?|\bnode|\bpython|\bchrome|\bfirefox|版本号?|バージョン|버전|[=<>~^]=?)\s*[:=：]?\s*$/i;

/** A key naming an address right before a dotted quad (`client_ip=`, `host: `): an address even after `=`. */
const ADDRESS_KEY = /(?:\b|_)(?:ip|ipv4|addr|address|host|server|gateway|proxy|peer|remote|nameserver)["']?\s*[:=]\s*["']?$/i;

/** A package name joined by a dash (`pyerfa-2.0.1.5`) or a section word (`section 7.1.1.1`, `§ 4.2.1.3`). */
const NUMBERING_CONTEXT = /(?:[A-Za-z]-|\b(?:sections?|sect?\.|chapter|clause|appendix|paragraph|para\.)\s*|§\s*)$/i;

/** Shared, CI and system accounts rather than people (`/home/runner`, `C:\Users\Public`, `/Users/Shared`). */
const GENERIC_ACCOUNTS = new Set([
  "runner",
  "runneradmin",
  "ubuntu",
  "debian",
  "ec2-user",
  "centos",
  "fedora",
  "vagrant",
  "node",
  "circleci",
  "jenkins",
  "travis",
  "gitlab-runner",
  "buildkite-agent",
  "codespace",
  "vscode",
  "shared",
  "public",
  "default",
  "guest",
]);

const isGenericAccount = (user: string): boolean => GENERIC_ACCOUNTS.has(asciiLower(user));

/** A password slot that holds a variable, not a password: `${DB_PASSWORD}`, `$PGPASS`, `%PASSWORD%`, `<password>`, `{{ .Password }}`. */
const isVariableReference = (v: string): boolean =>
  /^(?:\$\{[^{}]+\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|<[^<>]+>|\{\{[^{}]+\}\})$/.test(v);

const UNIT_AFTER =
  /^\s?(?:bytes?|[kmgt]i?b|rows?|records?|items?|entries|lines?|files?|blocks?|pages?|tokens?|chars?|characters?|words?|messages?|events?|requests?|docs?|documents?|objects?|keys?|ms|ns|us|µs|sec|seconds?|ticks?|cycles?|iterations?|steps?|samples?)\b/i;
const COUNTER_BEFORE =
  /\b(?:inode|offset|size|count|total|length|len|bytes|rows|records|lsn|seq|sequence|block|height|nonce|epoch|timestamp|ts|checksum|crc)\s*[:=#]?\s*$/i;

/**
 * A bare 11-digit number that counts something (`13812345678 bytes`, `inode 13802214457`): a unit
 * right after it or a counter word in the 16 characters before it. Numbers written with separators
 * keep their phone reading.
 */
function isQuantity(m: string, offset: number, input: string): boolean {
  return /^\d+$/.test(m) && (UNIT_AFTER.test(input.slice(offset + m.length)) || COUNTER_BEFORE.test(before16(input, offset)));
}

/** The 16 characters before `offset`, the window the version and address checks read. */
const before16 = (input: string, offset: number): string => input.slice(Math.max(0, offset - 16), offset);

function isPublicishIPv4(ip: string): boolean {
  const [a, b] = ip.split(".").map(Number);
  if (a === 127) return false; // loopback: not identifying, very common in technical text
  if (ip === "0.0.0.0") return false; // "listen on all interfaces"
  if (a === 255 && b === 255) return false; // netmasks / broadcast
  return true;
}

/**
 * Code rather than a value: a call or subscript (`self.session.get(...)`, `sys.argv[2]`) or a
 * lower-case dotted or snake_case name without digits (`self._token`, `aws_secret_access_key`).
 */
function isCodeReference(v: string): boolean {
  const bare = v.replace(/[)\]}]+$/, ""); // `f(key=aws_secret_access_key)`
  return /^[A-Za-z_$][A-Za-z0-9_$.]*[([]/.test(v) || (/^[a-z_][a-z_.]*$/.test(bare) && /[_.]/.test(bare));
}

function isLikelySecretValue(v: string): boolean {
  if (/^[$<{%[]/.test(v)) return false; // ${VAR}, <placeholder>, {{tpl}}, %VAR%, [REDACTED]
  if (/process\.env|os\.environ|getenv/i.test(v)) return false;
  if (/^(?:string|number|boolean|null|undefined|none|true|false|required|optional|secret|password|token|str|int)$/i.test(v)) {
    return false; // type annotations and placeholders
  }
  if (isCodeReference(v)) return false;
  return /\d/.test(v) || /[!@#%^&*+/=~-]/.test(v) || v.length >= 20;
}

/** Luhn checksum over a list of digits. */
function luhnOk(digits: number[]): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let v = digits[digits.length - 1 - i]!;
    if (i % 2 === 1) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
  }
  return sum % 10 === 0;
}

/**
 * A payment card: 13-19 digits with a known issuer prefix and length, a valid Luhn digit, and
 * either no separators or one kind of separator between groups of 3+ digits (so tables of small
 * numbers and timestamps are not cards).
 */
function isPaymentCard(m: string): boolean {
  const digits = [...m].filter((c) => c >= "0" && c <= "9").map(Number);
  const seps = [...m].filter((c) => !(c >= "0" && c <= "9"));
  if (seps.some((c) => c !== seps[0]) || m.split(/[ -]/).some((g) => g.length < 3)) return false;
  const n = digits.length;
  const p2 = digits[0]! * 10 + digits[1]!;
  const p3 = p2 * 10 + digits[2]!;
  const p4 = p3 * 10 + digits[3]!;
  let issuer = false;
  switch (digits[0]) {
    case 4: issuer = [13, 16, 19].includes(n); break;
    case 5: issuer = (p2 >= 51 && p2 <= 55 && n === 16) || (p3 === 508 && n >= 16 && n <= 19); break;
    case 2: issuer = (p4 >= 2221 && p4 <= 2720 && n === 16) || (p4 >= 2200 && p4 <= 2204 && n >= 16 && n <= 19); break;
    case 3:
      issuer = ((p2 === 34 || p2 === 37) && n === 15) || (p2 === 35 && n >= 16 && n <= 19) ||
        (((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38) && n >= 14 && n <= 19);
      break;
    case 6: issuer = (p2 === 60 || p2 === 65 || (p3 >= 644 && p3 <= 649) || p2 === 62) && n >= 16 && n <= 19; break;
  }
  return issuer && luhnOk(digits);
}

/** A Chinese resident identity number: the ISO 7064 MOD 11-2 check character must match. */
function isCnResidentId(m: string): boolean {
  const W = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  if (m.length !== 18) return false;
  return "10X98765432"[weighted(m, W) % 11] === m[17]!.toUpperCase();
}

/**
 * An IPv6 address with a real shape: eight groups, or one `::` with at least two groups, a group
 * of 3+ digits and a decimal digit somewhere (so `a::b`, `dead::beef` in code are kept), and not
 * loopback.
 */
function isRealIPv6(m: string): boolean {
  const groups = m.split(":").filter((g) => g !== "");
  const compressed = m.split("::").length - 1;
  const shape =
    compressed === 0 ? groups.length === 8 : compressed === 1 ? groups.length >= 2 && groups.length <= 7 && groups.some((g) => g.length >= 3) : false;
  const loopback =
    groups.length > 0 && groups.slice(0, -1).every((g) => /^0*$/.test(g)) && /^0*1$/.test(groups[groups.length - 1]!);
  return shape && /\d/.test(m) && !loopback;
}

/** Patterns of known secrets, for text found by decoding base64. */
const KNOWN_SECRET: RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY/,
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/,
  /\b(?:sk|rk)_live_[A-Za-z0-9]{16,}/,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}/,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/,
  /\bgithub_pat_[A-Za-z0-9_]{22,}/,
  /\bglpat-[A-Za-z0-9_-]{20,}/,
  /\bxox[abposre]-[A-Za-z0-9-]{10,}/,
  /\bAIza[0-9A-Za-z_-]{35}/,
  /\bnpm_[A-Za-z0-9]{36}/,
  /\bpypi-[A-Za-z0-9_-]{32,}/,
  /\bhf_[A-Za-z0-9]{30,}/,
  /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  /[a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:[^\s@/]+@/,
  /(?:password|passwd|secret|token|api[_-]?key)\s*[:=]\s*\S{6,}/i,
];

/**
 * Base64 (standard or URL-safe) that decodes to readable text holding a known secret. Runs longer
 * than 4 KiB are not decoded; every run is decoded once, so the cost stays linear.
 */
function isEncodedSecret(run: string): boolean {
  if (run.length > 4096) return false;
  const bytes = decodeBase64(run);
  const text = bytes ? printableText(bytes) : undefined;
  return text !== undefined && KNOWN_SECRET.some((p) => p.test(text));
}

/** A `key=value,...` mount spec naming where a secret comes from (`docker build --secret id=npmrc,src=...`). */
const isMountSpec = (v: string): boolean => /^(?:id|src|source|env|type|target|dst|required)=/.test(v);

/** The BIP-39 English word list, for lookups (see secret-rules.ts). */
const BIP39_WORDS: ReadonlySet<string> = new Set(BIP39_ENGLISH);

/** The shortest seed phrase a wallet writes. */
const SEED_WORDS = 12;

/**
 * `run` (lower-case words between separators) with each stretch of at least SEED_WORDS BIP-39
 * words replaced by `[REDACTED]`; null when no stretch is that long.
 */
function maskSeedPhrases(run: string): string | null {
  const words = [...run.matchAll(/[a-z]+/g)].map((w) => ({ from: w.index, to: w.index + w[0].length, listed: BIP39_WORDS.has(w[0]) }));
  let out = "";
  let copied = 0;
  let start = 0;
  for (let k = 0; k <= words.length; k++) {
    if (words[k]?.listed) continue;
    const first = words[start];
    const last = words[k - 1];
    if (k - start >= SEED_WORDS && first && last) {
      out += run.slice(copied, first.from) + "[REDACTED]";
      copied = last.to;
    }
    start = k + 1;
  }
  return copied === 0 ? null : out + run.slice(copied);
}

/** Values of flags, query parameters and `-u user:pass` that are placeholders, not secrets. */
function isPlaceholder(v: string): boolean {
  return v === "" || /^[$<{%[-]/.test(v);
}

/**
 * Invisible characters that can split a secret from a pattern (zero-width, bidi controls, tag
 * characters), removed before matching. Kept where they do real work: a joiner or variation
 * selector after a non-ASCII character (emoji sequences) and tag characters after a black flag
 * (subdivision flags).
 */
function stripInvisible(text: string): string {
  if (!INVISIBLE_TEST.test(text)) return text;
  let out = "";
  let prev = "\0";
  let inFlag = false;
  for (const c of text) {
    const cp = c.codePointAt(0)!;
    let keep: boolean;
    if (cp >= 0xe0020 && cp <= 0xe007f) {
      inFlag = inFlag || prev === "\u{1F3F4}";
      keep = inFlag;
    } else if (cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) {
      keep = prev.codePointAt(0)! > 0x7f;
    } else {
      inFlag = false;
      keep = !isInvisible(c);
    }
    if (keep) {
      out += c;
      prev = c;
    }
  }
  return out;
}

/** The prefixes of provider tokens that a writer may split (`ghp_`, `sk-`, `AKIA`, ...). */
const TOKEN_PREFIX = String.raw`(?:gh[pousr]_|github_pat_|glpat-|xox[abposre]-|xapp-|sk-|sk_live_|rk_live_|npm_|pypi-|hf_|AIza|AKIA|ASIA|SG\.)`;

/**
 * A token with a known prefix at the end of a line, continued alone on the next line(s): the line
 * break is removed so the token rules see the whole token.
 */
const SPLIT_TOKEN = new RegExp(
  String.raw`(?<![A-Za-z0-9_-])(${TOKEN_PREFIX}[A-Za-z0-9_\-.]{6,}[ \t]*\r?\n[ \t]*([A-Za-z0-9_\-.]{4,}))(?=[ \t]*(?:\r?\n|$))`,
  "g",
);

/**
 * A string literal opening with a known token prefix, concatenated with the next literal
 * (`"sk-proj-" + "Xa9..."`, Python's `"ghp_" "abc"`, PHP `.`, Lua `..`, SQL `||`, across a line
 * break too): the two literals are joined so the token rules see the whole token.
 */
const SPLIT_LITERAL = new RegExp(
  String.raw`(["'` + "`" + String.raw`])(${TOKEN_PREFIX}[A-Za-z0-9_\-.]*)["'` + "`" + String.raw`][ \t]*(?:\+|\.\.?|\|\|)?[ \t]*(?:\r?\n[ \t]*(?:\+|\.\.?|\|\|)?[ \t]*)?["'` + "`" + String.raw`]([A-Za-z0-9_\-.]{4,})["'` + "`" + String.raw`]`,
  "g",
);

/**
 * A run of short groups, each followed by one space: where a token spelled out character by
 * character (`g h p _ 1 A …`) or spaced every few characters (`xoxp-152 36581199 …`) can hide.
 */
const SPACED_RUN = /(?<![A-Za-z0-9_\-.+/=])(?:[A-Za-z0-9_\-.+/=]{1,8} ){2,}[A-Za-z0-9_\-.+/=]{1,8}/g;
const STARTS_WITH_PREFIX = new RegExp(`^${TOKEN_PREFIX}`);

/**
 * Where in a run of spaced groups a prefixed token starts and ends (group indices, inclusive):
 * from the first group at which the joined rest opens with a token prefix, the groups as long as
 * that first one (the writer's spacing), then one shorter last group if it ends the run. `null`
 * unless the joined token holds 20 or more characters, an upper-case letter or a digit after its
 * prefix, and three groups or more.
 */
function spacedToken(groups: string[]): [number, number] | null {
  // A prefix is at most 11 characters, so the first 16 of the rest tell (a long run of prose words
  // stays linear).
  const head = (i: number): string => {
    let h = "";
    for (let j = i; j < groups.length && h.length < 16; j++) h += groups[j];
    return h;
  };
  const start = groups.findIndex((_, i) => STARTS_WITH_PREFIX.test(head(i)));
  if (start < 0) return null;
  const width = groups[start]!.length;
  let end = start;
  while (end + 1 < groups.length && groups[end + 1]!.length === width) end++;
  if (end + 2 === groups.length && groups[end + 1]!.length < width) end++;
  const joined = groups.slice(start, end + 1).join("");
  const prefix = STARTS_WITH_PREFIX.exec(joined)?.[0].length ?? 0;
  return end - start >= 2 && joined.length >= 20 && /[0-9A-Z]/.test(joined.slice(prefix)) ? [start, end] : null;
}

/** Joins a prefixed token written with spaces inside it (see `SPACED_RUN`), so the token rules see the whole token. */
function joinSpacedTokens(text: string): string {
  return text.replace(SPACED_RUN, (run: string) => {
    const groups = run.split(" ");
    const span = spacedToken(groups);
    if (!span) return run;
    const [start, end] = span;
    return [...groups.slice(0, start), groups.slice(start, end + 1).join(""), ...groups.slice(end + 1)].join(" ");
  });
}

/**
 * Joins tokens split across lines or string literals (up to three breaks per token) or written
 * with spaces inside them.
 */
function joinSplitTokens(text: string): string {
  let cur = joinSpacedTokens(text);
  for (let i = 0; i < 3; i++) {
    let changed = false;
    cur = cur.replace(SPLIT_TOKEN, (m: string, _whole: string, cont: string) => {
      if (!/[0-9A-Z]/.test(cont)) return m;
      changed = true;
      return m.replace(/\s+/g, "");
    });
    cur = cur.replace(SPLIT_LITERAL, (m: string, q: string, head: string, cont: string) => {
      if (!/[0-9A-Z]/.test(cont)) return m;
      changed = true;
      return `${q}${head}${cont}${q}`;
    });
    if (!changed) break;
  }
  return cur;
}

/**
 * Header cells that name a column of secrets in a table (Markdown, CSV, TSV): the values under them
 * are secrets whatever they look like, which no pattern over one cell can know.
 */
function isSecretColumn(cell: string): boolean {
  const c = cell.trim().replace(/^["'`* ]+|["'`* ]+$/g, "").toLowerCase();
  const exact = [
    "password", "passwd", "pwd", "pass", "passphrase", "passcode", "pin", "secret", "token", "api key",
    "apikey", "api_key", "api-key", "access token", "access_token", "secret key", "secret_key", "client secret",
    "client_secret", "private key", "private_key", "密码", "密碼", "口令", "密钥", "密鑰", "秘钥", "パスワード",
    "暗証番号", "비밀번호", "암호", "contraseña", "contrasena", "clave", "passwort", "kennwort", "senha",
    "mot de passe", "mdp", "пароль", "wachtwoord", "hasło", "haslo", "şifre", "sifre", "parola",
  ];
  const words = c.split(/\s+/).filter(Boolean).length;
  return (
    exact.includes(c) ||
    ([...c].length <= 24 &&
      words <= 2 &&
      (c.endsWith("_password") || c.endsWith(" password") || c.endsWith("-password") || c.endsWith("密码")))
  );
}

/** A cell's value that stands for no secret: empty, a mask (`****`, `-`), a placeholder. */
function isMaskedCell(v: string): boolean {
  const lower = v.toLowerCase();
  return (
    v === "" ||
    /^[$<{%[]/.test(v) ||
    /^[*•·xX\-—_. ]+$/.test(v) ||
    ["n/a", "na", "none", "null", "(hidden)", "hidden", "redacted", "same", "同上", "无", "無"].includes(lower)
  );
}

/** The raw cells of a table row split at `delim` (double-quoted cells keep their delimiters). */
function splitCells(line: string, delim: string): string[] {
  const cells: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"' && delim !== "|") quoted = !quoted;
    else if (c === delim && !quoted) {
      cells.push(line.slice(start, i));
      start = i + 1;
    }
  }
  cells.push(line.slice(start));
  return cells;
}

/** The delimiter of a table line: `|` for Markdown rows, else a tab, else a comma, else `;`. */
function tableDelimiter(line: string): string | undefined {
  const t = line.trim();
  if (t.startsWith("|") && (t.match(/\|/g) ?? []).length >= 3) return "|";
  return ["\t", ",", ";"].find((d) => line.includes(d));
}

/**
 * Replaces the values in the columns of a table whose header names a secret (`| user | password |`,
 * `username,password`); `count` is called once a cell (category `secret`). As in Rust.
 */
function maskSecretColumns(text: string, count?: (rule: string) => void): string {
  if (!/[|,\t;]/.test(text)) return text;
  const lines = text.split("\n");
  let changed = false;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    i++;
    const delim = tableDelimiter(line);
    if (delim === undefined) continue;
    // Only a table's first row is its header (a schema table lists `password` as a field).
    if (i >= 2 && tableDelimiter(lines[i - 2]!) === delim) continue;
    const header = splitCells(line.replace(/\r+$/, ""), delim);
    const secret = header.flatMap((c, k) => (isSecretColumn(c) ? [[k, c.trim().toLowerCase()] as const] : []));
    if (secret.length === 0 || header.length < 2) continue;
    // A header is a row of short names; prose with a comma and code (`f(user, password)`) are not.
    const names = header.every(
      (c) => [...c.trim()].length <= 32 && c.split(/\s+/).filter(Boolean).length <= 3 && !/[(){}[\]=:<>]/.test(c),
    );
    if (delim !== "|" && !names) continue;
    while (i < lines.length) {
      const row = lines[i]!;
      const body = row.replace(/\r+$/, "");
      const cells = splitCells(body, delim);
      if (tableDelimiter(row) !== delim || cells.length !== header.length) break;
      i++;
      if (cells.every((c) => /^[-: ]*$/.test(c.trim()))) continue; // the `|---|---|` rule under a Markdown header
      let masked = false;
      for (const [k, name] of secret) {
        const v = cells[k]!.trim().replace(/^"+|"+$/g, "").trim();
        if (isMaskedCell(v) || v.toLowerCase() === name) continue;
        cells[k] = cells[k]!.replace(v, "[REDACTED]");
        count?.("secret_column");
        masked = true;
      }
      if (masked) {
        lines[i - 1] = cells.join(delim) + row.slice(body.length);
        changed = true;
      }
    }
  }
  return changed ? lines.join("\n") : text;
}

// ---------------------------------------------------------------------------------------------
// Check digits and the rule file (the twins of crates/knowhub-core/src/checksum.rs and
// secret_rules.rs)
// ---------------------------------------------------------------------------------------------

/** The ASCII digits and letters of `s`, upper-cased, separators dropped. */
function alnum(s: string): string {
  return s.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}

const isDigits = (s: string): boolean => /^[0-9]*$/.test(s);

/** Whether `dd`/`mm` can be a day and a month. */
const dayMonth = (dd: number, mm: number): boolean => dd >= 1 && dd <= 31 && mm >= 1 && mm <= 12;

/** The sum of the digits `b` times the weights `w`, pairwise (`w` as long as the part weighed). */
function weighted(b: string, w: number[]): number {
  let sum = 0;
  for (let i = 0; i < w.length; i++) sum += Number(b[i]) * w[i]!;
  return sum;
}

/** A Chinese resident identity number (separators allowed): plausible birth date, MOD 11-2 check. */
function checkCnId(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 18 || !isDigits(b.slice(0, 17))) return false;
  const year = Number(b.slice(6, 10));
  if (year < 1900 || year > 2099 || !dayMonth(Number(b.slice(12, 14)), Number(b.slice(10, 12)))) return false;
  return isCnResidentId(b);
}

/** A Hong Kong identity card number, `A123456(3)`: the mod 11 check character (`A` is 10). */
function checkHkid(s: string): boolean {
  const b = alnum(s);
  const letters = /^[A-Z]*/.exec(b)![0].length;
  if (letters < 1 || letters > 2 || b.length !== letters + 7 || !isDigits(b.slice(letters, letters + 6))) return false;
  const letter = (c: string) => c.charCodeAt(0) - 65 + 10;
  let sum = letters === 1 ? 36 * 9 + letter(b[0]!) * 8 : letter(b[0]!) * 9 + letter(b[1]!) * 8;
  for (let i = 0; i < 6; i++) sum += Number(b[letters + i]) * (7 - i);
  const check = (11 - (sum % 11)) % 11;
  return b[letters + 6] === (check === 10 ? "A" : String(check));
}

/** A Taiwanese national id, `A123456789`: letter code and digits, weighted, sum to a multiple of 10. */
function checkTwId(s: string): boolean {
  const CODES = [10, 11, 12, 13, 14, 15, 16, 17, 34, 18, 19, 20, 21, 22, 35, 23, 24, 25, 26, 27, 28, 29, 32, 30, 31, 33];
  const b = alnum(s);
  if (b.length !== 10 || !/^[A-Z][0-9]{9}$/.test(b)) return false;
  const code = CODES[b.charCodeAt(0) - 65]!;
  let sum = Math.floor(code / 10) + (code % 10) * 9;
  for (let i = 0; i < 9; i++) sum += Number(b[1 + i]) * (i < 8 ? 8 - i : 1);
  return sum % 10 === 0;
}

/** A Japanese individual number (My Number): twelve digits, the last a mod 11 check digit. */
function checkJpMyNumber(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 12 || !isDigits(b)) return false;
  let sum = 0;
  for (let n = 1; n <= 11; n++) sum += Number(b[11 - n]) * (n <= 6 ? n + 1 : n - 5);
  const r = sum % 11;
  return Number(b[11]) === (r <= 1 ? 0 : 11 - r);
}

/** A South Korean resident registration number, `YYMMDD-GNNNNNN`: the mod 11 check digit. */
function checkKrRrn(s: string): boolean {
  const W = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  const b = alnum(s);
  if (b.length !== 13 || !isDigits(b)) return false;
  return (11 - (weighted(b, W) % 11)) % 10 === Number(b[12]);
}

/** A US social security number that could be issued: area not 000, 666 or 9xx, group not 00, serial not 0000. */
function checkUsSsn(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 9 || !isDigits(b)) return false;
  const area = b.slice(0, 3);
  return area !== "000" && area !== "666" && area[0] !== "9" && b.slice(3, 5) !== "00" && b.slice(5) !== "0000";
}

/** IBAN lengths by country (ISO 13616 registry). */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CR: 22, CY: 28,
  CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23,
  GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28,
  LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15,
  PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TN: 24,
  TR: 26, UA: 29, VG: 24, XK: 20,
};

/** An IBAN (spaces allowed): the country's length and the mod 97 remainder 1. */
function checkIban(s: string): boolean {
  const b = alnum(s);
  if (b.length < 2 || IBAN_LENGTHS[b.slice(0, 2)] !== b.length) return false;
  let rem = 0;
  for (const c of b.slice(4) + b.slice(0, 4)) {
    const v = c >= "0" && c <= "9" ? Number(c) : c.charCodeAt(0) - 65 + 10;
    rem = v >= 10 ? (rem * 100 + v) % 97 : (rem * 10 + v) % 97;
  }
  return rem === 1;
}

/** Base64 of `user:password` (a Docker config `auth`). */
function checkBase64UserPass(s: string): boolean {
  const bytes = decodeBase64(s);
  const text = bytes ? printableText(bytes) : undefined;
  if (text === undefined) return false;
  const i = text.indexOf(":");
  return i > 0 && i < text.length - 1;
}

/**
 * A UK National Insurance number, `AB123456C` or `AB 12 34 56 C`: no check digit, so the allocation
 * rules do the work (neither prefix letter D, F, I, Q, U or V, the second not O, never BG, GB, KN,
 * NK, NT, TN or ZZ).
 */
function checkUkNino(s: string): boolean {
  const b = alnum(s);
  if (!/^[A-Z]{2}\d{6}[A-D]$/.test(b)) return false;
  const [p, q] = [b.charAt(0), b.charAt(1)];
  const letterOk = (c: string): boolean => !"DFIQUV".includes(c);
  return letterOk(p) && letterOk(q) && q !== "O" && !["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"].includes(p + q);
}

/** A Spanish DNI (`12345678Z`) or NIE (`X1234567L`): the number mod 23 picks the check letter. */
function checkEsDni(s: string): boolean {
  const b = alnum(s);
  if (!/^[0-9XYZ][0-9]{7}[A-Z]$/.test(b)) return false;
  const lead = b[0] === "X" ? "0" : b[0] === "Y" ? "1" : b[0] === "Z" ? "2" : b[0]!;
  const n = Number(lead + b.slice(1, 8));
  return "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23] === b[8];
}

/**
 * A French social security number (NIR): sex, year, a month that can occur (01-12, or 20 and
 * above), department (Corsica `2A`/`2B` count as 19 and 18), and the key, 97 minus the first
 * thirteen digits mod 97.
 */
function checkFrNir(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 15 || !"123478".includes(b[0]!)) return false;
  const dept = b.slice(5, 7);
  const digits = b.slice(0, 5) + (dept === "2A" ? "19" : dept === "2B" ? "18" : dept) + b.slice(7);
  if (!isDigits(digits)) return false;
  const month = Number(digits.slice(3, 5));
  if (month === 0 || (month >= 13 && month < 20)) return false;
  return Number(digits.slice(13)) === 97 - Number(BigInt(digits.slice(0, 13)) % 97n);
}

/** A Dutch citizen service number (BSN): nine digits passing the eleven test. */
function checkNlBsn(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 9 || !isDigits(b)) return false;
  let sum = -Number(b[8]);
  for (let i = 0; i < 8; i++) sum += Number(b[i]) * (9 - i);
  return sum > 0 && sum % 11 === 0;
}

/** An Italian tax code (codice fiscale): structure, day and check letter; digits may be letters LMNPQRSTUV. */
function checkItCodiceFiscale(s: string): boolean {
  const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
  const b = alnum(s);
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(b)) return false;
  const subst = (c: string): number => (/[0-9]/.test(c) ? Number(c) : "LMNPQRSTUV".indexOf(c));
  const day = subst(b[9]!) * 10 + subst(b[10]!);
  if (!((day >= 1 && day <= 31) || (day >= 41 && day <= 71))) return false;
  const value = (c: string): number => (/[0-9]/.test(c) ? Number(c) : c.charCodeAt(0) - 65);
  let sum = 0;
  for (let i = 0; i < 15; i++) sum += i % 2 === 0 ? ODD[value(b[i]!)]! : value(b[i]!);
  return b[15] === String.fromCharCode(65 + (sum % 26));
}

/**
 * A German tax identification number (Steuer-ID): eleven digits, the first not 0, exactly one of
 * the first ten repeated (twice or three times), and the ISO 7064 MOD 11,10 check digit.
 */
function checkDeSteuerId(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 11 || !isDigits(b) || b[0] === "0") return false;
  const counts = new Array<number>(10).fill(0);
  for (const d of b.slice(0, 10)) counts[Number(d)]! += 1;
  if (counts.filter((c) => c > 1).length !== 1 || counts.some((c) => c > 3)) return false;
  let product = 10;
  for (const d of b.slice(0, 10)) {
    let sum = (Number(d) + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  return Number(b[10]) === (11 - product) % 10;
}

/** A Singapore NRIC or FIN (`S1234567D`): prefix S, T, F or G, seven digits, the check letter. */
function checkSgNric(s: string): boolean {
  const W = [2, 7, 6, 5, 4, 3, 2];
  const b = alnum(s);
  if (!/^[STFG][0-9]{7}[A-Z]$/.test(b)) return false;
  const sum = ("TG".includes(b[0]!) ? 4 : 0) + weighted(b.slice(1), W);
  const table = "ST".includes(b[0]!) ? "JZIHGFEDCBA" : "XWUTRQPNMLK";
  return table[sum % 11] === b[8];
}

/** The ICAO 9303 check digit of an MRZ field: weights 7, 3, 1; `<` counts 0, letters 10 to 35. */
function mrzCheck(field: string, check: string): boolean {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field.charCodeAt(i);
    const v = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : 0;
    sum += v * [7, 3, 1][i % 3]!;
  }
  return check === String(sum % 10) || (check === "<" && sum === 0);
}

/**
 * A machine-readable zone of a travel document (ICAO 9303): a passport's second line (TD3, 44
 * characters), a TD2 line (36) or a TD1 card's first two lines (30 each), the line before
 * optional. Every check digit must hold.
 */
function checkMrz(s: string): boolean {
  const lines = s.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const l = lines[lines.length - 1];
  if (l === undefined) return false;
  if (l.length === 44) {
    return mrzCheck(l.slice(0, 9), l[9]!) && mrzCheck(l.slice(13, 19), l[19]!) && mrzCheck(l.slice(21, 27), l[27]!)
      && mrzCheck(l.slice(28, 42), l[42]!) && mrzCheck(l.slice(0, 10) + l.slice(13, 20) + l.slice(21, 43), l[43]!);
  }
  if (l.length === 36) {
    return mrzCheck(l.slice(0, 9), l[9]!) && mrzCheck(l.slice(13, 19), l[19]!) && mrzCheck(l.slice(21, 27), l[27]!)
      && mrzCheck(l.slice(0, 10) + l.slice(13, 20) + l.slice(21, 35), l[35]!);
  }
  const a = lines[lines.length - 2];
  if (l.length === 30 && a !== undefined && a.length === 30) {
    return mrzCheck(a.slice(5, 14), a[14]!) && mrzCheck(l.slice(0, 6), l[6]!) && mrzCheck(l.slice(8, 14), l[14]!)
      && mrzCheck(a.slice(5, 30) + l.slice(0, 7) + l.slice(8, 15) + l.slice(18, 29), l[29]!);
  }
  return false;
}

/** A Polish PESEL: a birth date whose month carries the century, and the 1-3-7-9 check digit. */
function checkPlPesel(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 11 || !isDigits(b)) return false;
  const sum = weighted(b, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]);
  return dayMonth(Number(b.slice(4, 6)), Number(b.slice(2, 4)) % 20) && (10 - (sum % 10)) % 10 === Number(b[10]);
}

/** A Swedish personal or co-ordination number (day + 60): a date and the Luhn digit of the ten-digit form. */
function checkSePersonnummer(s: string): boolean {
  let b = alnum(s);
  if (b.length === 12) b = b.slice(2);
  if (b.length !== 10 || !isDigits(b)) return false;
  const [mm, dd] = [Number(b.slice(2, 4)), Number(b.slice(4, 6))];
  return (dayMonth(dd, mm) || dayMonth(dd - 60, mm)) && luhnOk([...b].map(Number));
}

/** A Finnish personal identity code, `DDMMYYCNNNX`: a date, a century sign, the check character mod 31. */
function checkFiHetu(s: string): boolean {
  const b = s.trim().toUpperCase();
  if (b.length !== 11 || !"+-ABCDEFUVWXY".includes(b[6]!)) return false;
  const digits = b.slice(0, 6) + b.slice(7, 10);
  if (!/^[0-9]{9}$/.test(digits) || !dayMonth(Number(b.slice(0, 2)), Number(b.slice(2, 4)))) return false;
  return "0123456789ABCDEFHJKLMNPRSTUVWXY"[Number(digits) % 31] === b[10];
}

/** A Danish CPR number, `DDMMYY-NNNN`: a date only (no check digit since 2007), so its rule needs context. */
function checkDkCpr(s: string): boolean {
  const b = alnum(s);
  return b.length === 10 && isDigits(b) && dayMonth(Number(b.slice(0, 2)), Number(b.slice(2, 4)));
}

/** A Norwegian national identity number (D- and H-numbers raise the day or month by 40): two mod 11 check digits. */
function checkNoFodselsnummer(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 11 || !isDigits(b)) return false;
  const check = (w: number[], n: number): boolean => {
    const k = (11 - (weighted(b, w) % 11)) % 11;
    return k !== 10 && k === Number(b[n]);
  };
  return dayMonth(Number(b.slice(0, 2)) % 40, Number(b.slice(2, 4)) % 40) && check([3, 7, 6, 1, 8, 9, 4, 5, 2], 9)
    && check([5, 4, 3, 2, 7, 6, 5, 4, 3, 2], 10);
}

/** A Belgian national register number: 97 minus the first nine digits mod 97 (a 2 in front from 2000). */
function checkBeNationalNumber(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 11 || !isDigits(b) || Number(b.slice(2, 4)) % 20 > 12) return false;
  const [n, cc] = [Number(b.slice(0, 9)), Number(b.slice(9))];
  return 97 - (n % 97) === cc || 97 - ((2_000_000_000 + n) % 97) === cc;
}

/** An Austrian social insurance number, `NNNC DDMMYY`: the weighted check digit mod 11, a first digit not 0. */
function checkAtSvnr(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 10 || !isDigits(b) || b[0] === "0") return false;
  const dd = Number(b.slice(4, 6));
  return weighted(b, [3, 7, 9, 0, 5, 8, 4, 2, 1, 6]) % 11 === Number(b[3]) && dd >= 1 && dd <= 31;
}

/** A Swiss AHV/AVS number, `756.NNNN.NNNN.NC`: the prefix 756 and the EAN-13 check digit. */
function checkChAhv(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 13 || !isDigits(b) || !b.startsWith("756")) return false;
  const sum = weighted(b, [1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3]);
  return (10 - (sum % 10)) % 10 === Number(b[12]);
}

/** An Irish PPS number: seven digits and the check letter (mod 23; a second letter counts times 9). */
function checkIePps(s: string): boolean {
  const b = alnum(s);
  if (!/^[0-9]{7}[A-Z]{1,2}$/.test(b)) return false;
  let sum = weighted(b, [8, 7, 6, 5, 4, 3, 2]);
  if (b.length === 9 && b[8] !== "W") sum += (b.charCodeAt(8) - 64) * 9;
  return "WABCDEFGHIJKLMNOPQRSTUV"[sum % 23] === b[7];
}

/** A Portuguese tax number (NIF/NIPC): nine digits, a first digit in use, the mod 11 check. */
function checkPtNif(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 9 || !isDigits(b) || "04".includes(b[0]!)) return false;
  const r = weighted(b, [9, 8, 7, 6, 5, 4, 3, 2]) % 11;
  return (r < 2 ? 0 : 11 - r) === Number(b[8]);
}

/** The mod 11 check digit of Brazil's CPF and CNPJ over `b` with weights `w`. */
function brCheck(b: string, w: number[]): number {
  const r = weighted(b, w) % 11;
  return r < 2 ? 0 : 11 - r;
}

/** A Brazilian CPF: two mod 11 check digits, not one digit repeated. */
function checkBrCpf(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 11 || !isDigits(b) || /^(.)\1*$/.test(b)) return false;
  return brCheck(b, [10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(b[9]) && brCheck(b, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(b[10]);
}

/** A Brazilian CNPJ: two mod 11 check digits, not one digit repeated. */
function checkBrCnpj(s: string): boolean {
  const W = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const b = alnum(s);
  if (b.length !== 14 || !isDigits(b) || /^(.)\1*$/.test(b)) return false;
  return brCheck(b, W.slice(1)) === Number(b[12]) && brCheck(b, W) === Number(b[13]);
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** An Indian Aadhaar number: twelve digits, the first 2-9, and the Verhoeff check digit. */
function checkInAadhaar(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 12 || !isDigits(b) || b[0]! < "2") return false;
  let c = 0;
  [...b].reverse().forEach((d, i) => { c = VERHOEFF_D[c]![VERHOEFF_P[i % 8]![Number(d)]!]!; });
  return c === 0;
}

/** A Canadian social insurance number: nine digits, not starting with 0 or 8, Luhn verified. */
function checkCaSin(s: string): boolean {
  const b = alnum(s);
  return b.length === 9 && isDigits(b) && !"08".includes(b[0]!) && luhnOk([...b].map(Number));
}

/** A US individual taxpayer identification number: 9NN-GG-NNNN, the group in the ranges issued. */
function checkUsItin(s: string): boolean {
  const b = alnum(s);
  if (b.length !== 9 || !isDigits(b) || b[0] !== "9") return false;
  const g = Number(b.slice(3, 5));
  return (g >= 50 && g <= 65) || (g >= 70 && g <= 88) || (g >= 90 && g <= 92) || (g >= 94 && g <= 99);
}

/** A Mexican CURP: structure, a birth date, and the check digit over the first seventeen characters. */
function checkMxCurp(s: string): boolean {
  const ALPHABET = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ";
  const b = alnum(s);
  if (b.length !== 18 || !/^[0-9]{6}$/.test(b.slice(4, 10)) || !"HMX".includes(b[10]!) || !/[0-9]/.test(b[17]!)) return false;
  if (!dayMonth(Number(b.slice(8, 10)), Number(b.slice(6, 8)))) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += ALPHABET.indexOf(b[i]!) * (18 - i);
  return (10 - (sum % 10)) % 10 === Number(b[17]);
}

/** A German identity card number: nine characters and the ICAO 9303 check digit. */
function checkDeAusweis(s: string): boolean {
  const b = alnum(s);
  return b.length === 10 && /[0-9]/.test(b[9]!) && mrzCheck(b.slice(0, 9), b[9]!);
}

/** Lengths of the runs of digits in `s`, split at every other character. */
function digitGroups(s: string): number[] {
  return s.split(/[^0-9]+/).filter((g) => g.length > 0).map((g) => g.length);
}

/** A run of digits that reads as a number a person owns: `min..max` digits (`g`: the lengths of
 * its runs), not one digit repeated, not a date (as in Rust). */
function numberRun(s: string, g: number[], min: number, max: number): boolean {
  const n = g.reduce((a, b) => a + b, 0);
  const digits = s.replace(/[^0-9]/g, "");
  const date = g.length === 3 && ((g[0] === 4 && g[1]! <= 2 && g[2]! <= 2) || (g[0]! <= 2 && g[1]! <= 2 && g[2] === 4));
  return n >= min && n <= max && [...digits].some((d) => d !== digits[0]) && !date;
}

/** A phone number after a word naming one: 8 to 15 digits, not a date nor a dotted IPv4. */
function checkPhoneDigits(s: string): boolean {
  const g = digitGroups(s);
  const ipv4 = s.includes(".") && g.length === 4 && g.every((x) => x <= 3);
  return numberRun(s, g, 8, 15) && !ipv4;
}

/** A bank account number after a word naming one: 6 to 23 digits, not a date. */
function checkBankAccount(s: string): boolean {
  return numberRun(s, digitGroups(s), 6, 23);
}

const CHECKS: Record<string, (s: string) => boolean> = {
  cn_id: checkCnId,
  hkid: checkHkid,
  tw_id: checkTwId,
  jp_mynumber: checkJpMyNumber,
  kr_rrn: checkKrRrn,
  us_ssn: checkUsSsn,
  iban: checkIban,
  base64_userpass: checkBase64UserPass,
  uk_nino: checkUkNino,
  es_dni: checkEsDni,
  fr_nir: checkFrNir,
  nl_bsn: checkNlBsn,
  it_cf: checkItCodiceFiscale,
  de_steuer_id: checkDeSteuerId,
  sg_nric: checkSgNric,
  mrz: checkMrz,
  pl_pesel: checkPlPesel,
  se_pnr: checkSePersonnummer,
  fi_hetu: checkFiHetu,
  dk_cpr: checkDkCpr,
  no_fnr: checkNoFodselsnummer,
  be_nrn: checkBeNationalNumber,
  at_svnr: checkAtSvnr,
  ch_ahv: checkChAhv,
  ie_pps: checkIePps,
  pt_nif: checkPtNif,
  br_cpf: checkBrCpf,
  br_cnpj: checkBrCnpj,
  in_aadhaar: checkInAadhaar,
  ca_sin: checkCaSin,
  us_itin: checkUsItin,
  mx_curp: checkMxCurp,
  de_ausweis: checkDeAusweis,
  phone_digits: checkPhoneDigits,
  bank_account: checkBankAccount,
};

/** Shannon entropy in bits per character (summed in order of first appearance, as in Rust). */
export function shannonEntropy(s: string): number {
  const chars = [...s];
  if (chars.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / chars.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function hasRequired(v: string, what: string): boolean {
  const digit = /[0-9]/.test(v);
  const upper = /[A-Z]/.test(v);
  const lower = /[a-z]/.test(v);
  switch (what) {
    case "digit": return digit;
    case "letter": return upper || lower;
    case "upper": return upper;
    case "lower": return lower;
    case "secret_value": return isLikelySecretValue(v);
    // Not words run together (`searchResultsPageLayoutV2`): a run of five lower-case letters and
    // at most one digit reads as an identifier, not as a random key.
    case "random": return !(/[a-z]{5}/.test(v) && (v.match(/[0-9]/g) ?? []).length <= 1);
    case "mixed": {
      const other = /[^A-Za-z0-9]/.test(v);
      return ((upper || lower) && digit) || [digit, upper, lower, other].filter(Boolean).length >= 3;
    }
    default: return false;
  }
}

type DataRule = { spec: SecretRuleSpec; re: RegExp; validate?: (s: string) => boolean };

/** The pattern as JavaScript reads it: `d` for group offsets, the rule's flags. */
export function compileSecretRule(spec: SecretRuleSpec): DataRule {
  const flags = "gd" + (spec.ignore_case ? "i" : "") + (spec.multiline ? "m" : "");
  const validate = spec.validate === undefined ? undefined : CHECKS[spec.validate];
  if (spec.validate !== undefined && validate === undefined) throw new Error(`${spec.id}: unknown check ${spec.validate}`);
  return { spec, re: new RegExp(spec.pattern, flags), validate };
}

const DATA_RULES: readonly DataRule[] = SECRET_RULES.flatMap((spec) => {
  try {
    return [compileSecretRule(spec)];
  } catch {
    return []; // the rule-file test fails on it, so a released build has none
  }
});

/** The category each rule of the rule file counts under. */
const DATA_RULE_CATEGORY: Record<string, string> = Object.fromEntries(SECRET_RULES.map((r) => [`rules:${r.id}`, r.category]));

function acceptsSecret(rule: DataRule, v: string): boolean {
  const s = rule.spec;
  if (v === "" || /^[$<{%[]/.test(v)) return false;
  if (s.entropy !== undefined && shannonEntropy(v) < s.entropy) return false;
  if (s.require && !s.require.every((r) => hasRequired(v, r))) return false;
  if (s.stopwords && s.stopwords.length > 0) {
    const lower = asciiLower(v);
    if (s.stopwords.some((w) => lower.includes(w))) return false;
  }
  return rule.validate === undefined || rule.validate(v);
}

/** Whether a veto word stands between the start of the match's line and the end of its value. */
function vetoed(rule: DataRule, text: string, start: number, end: number): boolean {
  const veto = rule.spec.veto;
  if (!veto || veto.length === 0) return false;
  const window = asciiLower(text.slice(text.lastIndexOf("\n", start - 1) + 1, end));
  return veto.some((w) => window.includes(w));
}

const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** Runs one stage of the rule file over the text. */
function applyStage(stage: string, text: string, count?: (rule: string) => void): string {
  let lower = asciiLower(text);
  for (const rule of DATA_RULES) {
    if ((rule.spec.stage ?? "secrets") !== stage) continue;
    const kw = rule.spec.keywords;
    if (kw && kw.length > 0 && !kw.some((k) => lower.includes(k))) continue;
    const group = rule.spec.group ?? 0;
    const re = rule.re;
    re.lastIndex = 0;
    let out = "";
    let copied = 0;
    let changed = false;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      if (m[0] === "") {
        re.lastIndex++;
        continue;
      }
      const span = m.indices?.[group];
      if (!span) continue;
      if (!acceptsSecret(rule, text.slice(span[0], span[1])) || vetoed(rule, text, m.index, span[1])) continue;
      out += text.slice(copied, span[0]) + rule.spec.replace;
      copied = span[1];
      changed = true;
      count?.(`rules:${rule.spec.id}`);
    }
    if (changed) {
      text = out + text.slice(copied);
      lower = asciiLower(text);
    }
  }
  return text;
}

const IPV4_OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";

const RULES: Rule[] = [
  // PEM private key blocks (also truncated ones without an END line).
  {
    name: "private_key",
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replace: () => "[PRIVATE_KEY]",
  },
  // Passwords embedded in URLs: scheme://user:password@host -> scheme://user:[REDACTED]@host
  // (also redis://:password@host and mongodb+srv://).
  {
    name: "url_password",
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*):([^\s@/]+)@/gi,
    replace: (m, prefix, pw) => (pw === "[REDACTED]" || isVariableReference(pw) ? m : `${prefix}:[REDACTED]@`),
  },
  // JSON Web Tokens (three base64url segments, the first one a JSON header).
  {
    name: "jwt",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replace: () => "[JWT]",
  },
  // Bearer tokens: at least 16 token characters including a digit, so prose such as
  // "use a Bearer token" or "Bearer authentication" is left alone. A colon may join parts of one
  // token (Asana's `2/1204...:9f8e...`).
  {
    name: "bearer",
    pattern: /\b(Bearer)\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}(?::[A-Za-z0-9._~+/-]+)*=*/gi,
    replace: (_m, word) => `${word} [TOKEN]`,
  },
  {
    name: "basic_auth",
    pattern: /\b(Authorization["']?\s*:\s*["']?Basic)\s+[A-Za-z0-9+/]{8,}={0,2}/gi,
    replace: (_m, head) => `${head} [TOKEN]`,
  },
  // OpenAI / Anthropic style keys: sk-..., sk-proj-..., sk-ant-... (needs a digit and 20+ chars;
  // the left guard keeps words like "task-runner-..." intact).
  {
    name: "sk_key",
    pattern: /(?<![A-Za-z0-9_-])sk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g,
    replace: () => "[API_KEY]",
  },
  // Stripe-style live/test keys.
  {
    name: "stripe_key",
    pattern: /(?<![A-Za-z0-9_])(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
    replace: () => "[API_KEY]",
  },
  // AWS access key ids.
  {
    name: "aws_key",
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA)[0-9A-Z]{16}\b/g,
    replace: () => "[AWS_KEY]",
  },
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  { name: "github_token", pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, replace: () => "[GITHUB_TOKEN]" },
  { name: "github_pat", pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g, replace: () => "[GITHUB_TOKEN]" },
  // GitLab personal, project and group access tokens.
  { name: "gitlab_token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, replace: () => "[API_KEY]" },
  // Slack tokens.
  { name: "slack_token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, replace: () => "[SLACK_TOKEN]" },
  { name: "slack_app_token", pattern: /\bxapp-\d-[A-Za-z0-9-]{10,}/g, replace: () => "[SLACK_TOKEN]" },
  // Google API keys.
  { name: "google_key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, replace: () => "[API_KEY]" },
  // npm automation and publish tokens.
  { name: "npm_token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, replace: () => "[API_KEY]" },
  // PyPI upload tokens (base64 macaroons: mixed case and digits; `pypi-simple-mirror` stays).
  {
    name: "pypi_token",
    pattern: /\bpypi-[A-Za-z0-9_-]{32,}/g,
    replace: (m) => (/\d/.test(m) && /[A-Z]/.test(m) ? "[API_KEY]" : m),
  },
  // Hugging Face access tokens (`hf_hub_download` has an underscore and stays).
  { name: "huggingface_token", pattern: /\bhf_[A-Za-z0-9]{30,}\b/g, replace: () => "[API_KEY]" },
  // SendGrid keys (`SG.<id>.<secret>`), used by Azure's SendGrid too.
  { name: "sendgrid_key", pattern: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g, replace: () => "[API_KEY]" },
  // Twilio API key and account SIDs (`SK`/`AC` + 32 hex).
  { name: "twilio_key", pattern: /\b(?:SK|AC)[0-9a-f]{32}\b/g, replace: () => "[API_KEY]" },
  // Discord bot tokens (`<base64 id>.<6>.<27+>`).
  {
    name: "discord_token",
    pattern: /\b[MNO][A-Za-z0-9]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b/g,
    replace: () => "[API_KEY]",
  },
  // Webhook URLs whose path is the secret (Discord, Slack).
  {
    name: "webhook_secret",
    pattern: /(discord(?:app)?\.com\/api\/webhooks\/[0-9]{5,25}\/|hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/)[A-Za-z0-9_-]{16,}/gi,
    replace: (_m, head) => `${head}[REDACTED]`,
  },
  // Command-line flags that take a credential: `--password xyz`, `--token=...`, `--api-key '...'`.
  // Quoted values always count; bare ones must look like a secret.
  {
    name: "cli_flag_secret",
    pattern:
      /(?<=^|[\s(;|&])(--?(?:password|passwd|pass|pwd|token|api[_-]?key|apikey|secret|client[_-]?secret|auth[_-]?token|access[_-]?token|access[_-]?key|secret[_-]?key|private[_-]?key|storepass|keypass|passin|passout)(?:=|[ \t]+)(["']?))([^\s"']+)/gi,
    replace: (m, head, q, value) =>
      isPlaceholder(value) || isMountSpec(value) || !(q !== "" || isLikelySecretValue(value)) ? m : `${head}[REDACTED]`,
  },
  // MySQL/MariaDB's attached password flag (`mysql -uroot -pS3cret`), and any quoted attached `-p'...'`.
  {
    name: "password_flag",
    pattern: /(?<=^|[\s(;|&])((?:(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)[^\n|;]{0,200}?[ \t]-p|-p["'])["']?)([^\s"']+)/g,
    replace: (m, head, value) => (isPlaceholder(value) ? m : `${head}[REDACTED]`),
  },
  // `curl -u user:password` (a uid:gid pair such as `-u 1000:1000` stays).
  {
    name: "user_password_flag",
    pattern: /(?<=^|[\s(;|&])((?:-u|--user)[ \t]*["']?([^\s:"'@]{1,64}):)([^\s"'@]+)/g,
    replace: (m, head, user, value) =>
      isPlaceholder(value) || (/^\d+$/.test(value) && /^\d+$/.test(user)) ? m : `${head}[REDACTED]`,
  },
  // Credentials in URL queries and `key=value;` connection strings (JDBC, ADO.NET, Azure):
  // `?password=x`, `;Password=x;`, `&sig=...`. A password counts whatever it looks like; other
  // keys need a secret-looking value.
  {
    name: "query_secret",
    pattern:
      /([?&;][ \t]*(password|passwd|pwd|pass|secret|client_secret|token|access_token|refresh_token|api_key|apikey|api-key|sig|signature|accountkey|sharedaccesskey)[ \t]*=[ \t]*)([^&\s#;"'<>]+)/gi,
    replace: (m, head, key, value) => {
      const password = ["password", "passwd", "pwd", "pass"].includes(key.toLowerCase());
      return isPlaceholder(value) || !(password || isLikelySecretValue(value) || value.length >= 16) ? m : `${head}[REDACTED]`;
    },
  },
  // key=value / key: value secrets (api_key=..., "password": "...", TOKEN=...). The value must
  // look like a secret (see isLikelySecretValue), so `password: string` in code survives.
  {
    name: "secret_assignment",
    pattern:
      /\b(_*(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|access[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|aws_secret_access_key|account[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|sas[_-]?token|credentials?|secret|password|passwd|passphrase|pass|pwd|token)["']?[ \t]*[:=][ \t]*["']?)([^\s"',;`]{8,})/gi,
    replace: (m, head, value) => (isLikelySecretValue(value) ? `${head}[REDACTED]` : m),
  },
  // Oracle JDBC `jdbc:oracle:thin:user/password@host`.
  {
    name: "jdbc_oracle",
    pattern: /(jdbc:oracle:[a-z0-9]+:[^\s/@:;]{1,64}\/)([^\s@/]+)@/gi,
    replace: (m, head, value) => (value === "[REDACTED]" ? m : `${head}[REDACTED]@`),
  },
  // Wallet seed phrases: twelve or more words in a row from the BIP-39 English list, in any
  // surrounding language (numbered or comma-separated too). Ordinary prose does not run that long
  // without `the`, `a`, `is` or `to`, none of which the list holds.
  {
    name: "bip39_mnemonic",
    pattern: /(?<![A-Za-z])[a-z]{3,8}(?:[ \t\r\n,;]+(?:[0-9]{1,2}[.)][ \t]*)?[a-z]{3,8}){11,}(?![A-Za-z])/g,
    replace: (m) => maskSeedPhrases(m) ?? m,
  },
  // Provider keys (gitleaks' rules) and secrets given away by their context: rules/secrets.json.
  { name: "rules:secrets", stage: "secrets" },
  // Base64 that decodes to a known secret (a key pasted encoded, a Kubernetes secret).
  {
    name: "encoded_secret",
    pattern: /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/=_-])/g,
    replace: (m) => (isEncodedSecret(m) ? "[ENCODED_SECRET]" : m),
  },
  // Internationalised and full-width addresses (`josé@exämple.com`, `ｂｏｂ＠ｅｘａｍｐｌｅ．ｃｏｍ`,
  // `用户@例子.中国`): a local part in Latin, Greek or Cyrillic letters (full-width too) or all Han,
  // an @ or ＠, a domain with an ASCII, full-width or common IDN top-level domain. All-ASCII
  // matches are left to the next rule.
  {
    name: "email_unicode",
    pattern:
      /(?<![0-9._%+\-\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{M}０-９＿．])(\p{Script=Han}{1,20}|[0-9._%+\-\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{M}０-９＿．]+)[@＠][\p{L}\p{N}\p{M}\-－]+(?:[.．][\p{L}\p{N}\p{M}\-－]+)*[.．](?:[A-Za-z]{2,}|[ａ-ｚＡ-Ｚ]{2,}|\p{Script=Greek}{2,}|\p{Script=Cyrillic}{2,}|中国|中國|公司|网络|網絡|在线|广告|移动|みんな|한국)(?![A-Za-z0-9\-ａ-ｚＡ-Ｚ０-９])/gu,
    replace: (m, local) => (/^[\x00-\x7f]*$/.test(m) || local.toLowerCase() === "git" ? m : "[EMAIL]"),
  },
  // Email addresses. `git@host:org/repo` SSH remotes are kept (not a person's address), and so is
  // a local part ending in `-` or `.` and a domain running on into `_`: that is a decorator after a
  // `grep -n` line prefix (`57-@app.route`, `@functools.lru_cache`).
  {
    name: "email",
    pattern: /(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]+)@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?![A-Za-z0-9_-])/g,
    replace: (m, local) => (local.toLowerCase() === "git" || /[-.]$/.test(local) ? m : "[EMAIL]"),
  },
  // Home directories: /home/<user>, /Users/<user> (also file:// URLs), C:\Users\<user>.
  // The left guard keeps URL paths like https://example.com/home/docs intact.
  {
    name: "posix_home",
    pattern: /(?<=^|[\s"'`(=:,;[{<>|]|file:\/\/)(\/(?:home|Users))\/(?!\[REDACTED\])([^/\s"'`<>)\]}|,;:]+)/g,
    replace: (m, root, user) => (isGenericAccount(user) ? m : `${root}/[REDACTED]`),
  },
  {
    name: "windows_home",
    pattern: /\b([A-Za-z]:(?:\\\\|\\|\/)(?:Users|Documents and Settings)(?:\\\\|\\|\/))(?!\[REDACTED\])([^\\/\s"'`<>|:*?]+)/gi,
    replace: (m, head, user) => (isGenericAccount(user) ? m : `${head}[REDACTED]`),
  },
  // National ids, IBANs and phone numbers with their check digits: rules/secrets.json.
  { name: "rules:personal", stage: "personal" },
  // Chinese resident identity numbers: region, birth date, sequence, check character (the checksum
  // is verified, so an 18-digit order number is kept).
  {
    name: "cn_resident_id",
    pattern: /(?<![A-Za-z0-9_-])[1-8]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[0-9Xx](?![A-Za-z0-9_-])/g,
    replace: (m) => (isCnResidentId(m) ? "[ID_NUMBER]" : m),
  },
  // Payment cards: 13-19 digits, compact or in groups of 3-6 between spaces or dashes (so an expiry
  // date after the number is not read as its last group), issuer prefix and Luhn.
  {
    name: "payment_card",
    pattern: /(?<![A-Za-z0-9_.+/-])(?:\d{3,6}(?:[ -]\d{3,6}){1,5}|\d{13,19})(?![A-Za-z0-9_]|[-.]\d)/g,
    replace: (m) => (isPaymentCard(m) ? "[CARD]" : m),
  },
  // IPv4 addresses. Kept: loopback (127/8), 0.0.0.0, 255.255.x.x masks, dotted quads that are
  // part of longer dotted numbers (1.2.3.4.5), and quads right after a version marker
  // ("v1.2.3.4", "version 10.0.19041.1", "==1.2.3.4").
  {
    name: "ipv4",
    pattern: new RegExp(`(?<![\\w.])${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}(?![\\w]|\\.\\d)`, "g"),
    replace: (m, ...rest) => {
      const offset = rest[rest.length - 2] as unknown as number;
      const input = rest[rest.length - 1] as unknown as string;
      if (!isPublicishIPv4(m)) return m;
      const before = before16(input, offset);
      if ((VERSION_CONTEXT.test(before) || NUMBERING_CONTEXT.test(before)) && !ADDRESS_KEY.test(before)) return m;
      return "[IP]";
    },
  },
  // IPv6 addresses with a real shape (see isRealIPv6): C++ `a::b`, MAC addresses and times are
  // kept, and so is loopback `::1`.
  {
    name: "ipv6",
    pattern:
      /(?<![A-Za-z0-9_:.])(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}:){0,5}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,7}:)(?![A-Za-z0-9_:])/g,
    replace: (m) => (isRealIPv6(m) ? "[IP]" : m),
  },
  // Phone numbers: international "+<digits>" (8-15 digits), US 555-123-4567 / (555) 123-4567,
  // Chinese mobiles 13812345678 / 138-1234-5678. Dotted forms are not touched (version-like).
  {
    name: "phone_international",
    pattern: /(?<![\w+])\+\d[\d ()-]{6,20}\d(?![\d])/g,
    replace: (m) => {
      const digits = m.replace(/\D/g, "").length;
      return digits >= 8 && digits <= 15 ? "[PHONE]" : m;
    },
  },
  {
    name: "phone_us",
    pattern: /(?<![\w.-])(?:\(\d{3}\)\s?|\d{3}-)\d{3}-\d{4}(?![\w-])/g,
    replace: () => "[PHONE]",
  },
  // Chinese landlines: area code 010/02x + 8 digits or 0xxx + 7-8 digits, written `010-12345678`,
  // `(0755)1234567` or `（0755）1234567`.
  {
    name: "phone_cn_landline",
    pattern: /(?<![A-Za-z0-9_.+\-/])(?:\((0(?:10|2\d|[3-9]\d{2}))\)|（(0(?:10|2\d|[3-9]\d{2}))）|(0(?:10|2\d|[3-9]\d{2}))-) ?([1-9]\d{6,7})(?![A-Za-z0-9_]|-\d)/g,
    replace: (m, a1, a2, a3, local) => ((a1 || a2 || a3 || "").length === 3 && local.length !== 8 ? m : "[PHONE]"),
  },
  {
    name: "phone_cn",
    pattern: /(?<![\w.+-])1[3-9]\d(?:[ -]?\d{4}){2}(?![\w.-]?\d)/g,
    replace: (m, offset: unknown, input: unknown) => (isQuantity(m, offset as number, input as string) ? m : "[PHONE]"),
  },
];

/** The names of the redaction rules, in the order they are applied. */
export const REDACTION_RULES: readonly string[] = RULES.map((r) => r.name);

/** The category each rule counts under (the server's `RedactionCounts` fields). */
const RULE_CATEGORY: Record<string, string> = {
  private_key: "private_key",
  jwt: "jwt",
  bearer: "bearer_token",
  basic_auth: "bearer_token",
  encoded_secret: "encoded_secret",
  email_unicode: "email",
  email: "email",
  posix_home: "home_path",
  windows_home: "home_path",
  cn_resident_id: "national_id",
  payment_card: "payment_card",
  ipv4: "ip",
  ipv6: "ip",
  phone_international: "phone",
  phone_us: "phone",
  phone_cn_landline: "phone",
  phone_cn: "phone",
  url_password: "secret",
  webhook_secret: "secret",
  cli_flag_secret: "secret",
  password_flag: "secret",
  user_password_flag: "secret",
  query_secret: "secret",
  secret_assignment: "secret",
  jdbc_oracle: "secret",
  bip39_mnemonic: "secret",
  secret_column: "secret",
};

/** Every redaction category, in the server's order. */
export const REDACTION_CATEGORIES: readonly string[] = [
  "private_key",
  "jwt",
  "bearer_token",
  "api_key",
  "encoded_secret",
  "secret",
  "email",
  "home_path",
  "ip",
  "phone",
  "national_id",
  "payment_card",
  "address",
];

/** The category a rule counts under; provider keys and tokens are `api_key`. */
export function redactionCategory(rule: string): string {
  return RULE_CATEGORY[rule] ?? DATA_RULE_CATEGORY[rule] ?? "api_key";
}

/**
 * Redacts like redactSensitiveInfo and counts the replacements per category (the same counts as the
 * server's `redactions`).
 */
export function redactWithCounts(text: string): { text: string; counts: Record<string, number> } {
  const counts: Record<string, number> = Object.fromEntries(REDACTION_CATEGORIES.map((c) => [c, 0]));
  const out = applyRules(RULES, text, (rule) => {
    const c = redactionCategory(rule);
    counts[c] = (counts[c] ?? 0) + 1;
  });
  return { text: out, counts };
}

/**
 * Removes secrets and personal data from free text (strict privacy mode). Invisible characters
 * that could split a secret are removed first and tokens split across lines are joined.
 * Idempotent: redacting twice gives the same result as redacting once.
 */
export function redactSensitiveInfo(text: string): string {
  return applyRules(RULES, text);
}

function applyRules(rules: readonly Rule[], text: string, count?: (rule: string) => void): string {
  if (!text) return text;
  let out = maskSecretColumns(joinSplitTokens(stripInvisible(text)), count);
  for (const rule of rules) {
    if ("stage" in rule) {
      out = applyStage(rule.stage, out, count);
      continue;
    }
    rule.pattern.lastIndex = 0;
    const replace = rule.replace as (substring: string, ...args: unknown[]) => string;
    out = out.replace(rule.pattern, (m: string, ...args: unknown[]) => {
      const r = replace(m, ...args);
      if (r !== m && count) count(rule.name);
      return r;
    });
  }
  return out;
}

// In a field that only holds a version, a dotted quad (`10.0.19041.1`) is a version, not an address.
const VERSION_RULES = RULES.filter((r) => r.name !== "ipv4");

/** Redacts a version string (`resource_version`): every rule but IPv4, which would eat versions. */
export function redactVersionString(version: string): string {
  return applyRules(VERSION_RULES, version);
}

/** Applies the privacy mode to text: strict redacts, relaxed returns it unchanged. */
export function applyPrivacy(text: string, mode: PrivacyMode): string {
  return mode === "strict" ? redactSensitiveInfo(text) : text;
}

/** Deeply redacts every string inside a JSON-like value (object keys are kept). */
export function redactValue<T>(value: T, mode: PrivacyMode = "strict", depth = 0): T {
  if (mode === "relaxed") return value;
  if (typeof value === "string") return redactSensitiveInfo(value) as unknown as T;
  if (depth > 32 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, mode, depth + 1)) as unknown as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactValue(v, mode, depth + 1);
  return out as T;
}

// ---------------------------------------------------------------------------------------------
// Prompt-injection screening (the same engine as crates/knowhub-core/src/guard.rs; both are
// checked against testdata/security-cases.jsonl)
// ---------------------------------------------------------------------------------------------

/** Text that tries to replace the model's instructions or jailbreak it. */
export const INSTRUCTION_OVERRIDE = "instruction_override";
/** Asks the model to reveal its hidden instructions or system prompt. */
export const PROMPT_LEAK = "prompt_leak";
/** Fake chat turns or role markers (`Human:`, `### System:`, `<|im_start|>`, `[INST]`, `</system>`). */
export const ROLE_MARKER = "role_marker";
/** Opens or closes KnowHub's own wrapper tags (`</knowhub-experiences>`) to break out of the data block. */
export const WRAPPER_ESCAPE = "wrapper_escape";
/** A markdown image or HTML `<img>` whose URL would carry data out when rendered. */
export const EXFILTRATION = "exfiltration";
/** A base64 run that decodes to one of the above. */
export const ENCODED_PAYLOAD = "encoded_payload";
/** Text hidden in Unicode tag characters (invisible to a reviewer, read by a model). */
export const HIDDEN_TEXT = "hidden_text";
/** Download piped to a shell, recursive delete of home or root, disk wipes: for a reviewer to see. */
export const DANGEROUS_COMMAND = "dangerous_command";

/** Every category, in the order screenText reports them. */
export const INJECTION_CATEGORIES: readonly string[] = [
  INSTRUCTION_OVERRIDE,
  PROMPT_LEAK,
  ROLE_MARKER,
  WRAPPER_ESCAPE,
  EXFILTRATION,
  ENCODED_PAYLOAD,
  HIDDEN_TEXT,
  DANGEROUS_COMMAND,
];

const IO = INSTRUCTION_OVERRIDE;
const PL = PROMPT_LEAK;
const RM = ROLE_MARKER;
const DC = DANGEROUS_COMMAND;

/** `[category, pattern]`, run on normalised text; the Rust twin has the same table. */
const SCREEN_PATTERNS: [string, RegExp][] = [
  // --- English ---
  [IO, /ignore (all|any|previous|above|prior) instructions/i],
  [IO, /do not follow (the )?(system|developer)/i],
  [IO, /forget (all|everything|previous)/i],
  [IO, /new instructions:/i],
  [
    IO,
    /\b(ignore|disregard|forget|override|bypass|skip|drop|discard|abandon|set aside|throw out|neglect)\s+(?:(?:all|any|the|your|of|these|those|my|every|its|whatever)\s+)*(previous|prior|above|earlier|preceding|former|original|initial|existing|system|developer|safety|old|current)\s+(instructions?|prompts?|rules|directions|guidelines|messages|guardrails|constraints|orders|commands|context)\b/i,
  ],
  [IO, /\b(ignore|disregard|forget)\s+(all|everything)\s+(above|before|previously|said|you were told|you have been told|prior)\b/i],
  [IO, /\b(ignore|disregard|forget)\s+(what|everything)\s+(you were|you've been|you have been)\s+(told|instructed|given)\b/i],
  [IO, /\bnew\s+(system\s+)?instructions?\s*[:：]/i],
  [
    IO,
    /\b(ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|these|those|my)\s+)*(instructions|prompts?|rules|directions|guidelines)\s+(above|before this|given (?:earlier|before|above)|you (?:were|have been) given|from (?:before|earlier|the system|the developer))/i,
  ],
  [
    IO,
    /\b(previous|prior|above|earlier|original|system)\s+(instructions|rules|prompt)\s+(are|is)\s+(now\s+)?(void|cancel+ed|revoked|obsolete|no longer (valid|apply|applicable|in effect))\b/i,
  ],
  [IO, /\b(never ?mind|pay no attention to)\s+(all\s+|the\s+|your\s+)*(previous|prior|above|earlier|system)\s+(instructions|rules|prompts?)\b/i],
  [IO, /\b(stop|quit) following\s+(your|the|all)\s+(\w+\s+)?(instructions|rules|guidelines)\b/i],
  [IO, /\byou are now (?:an? |in )?(?:DAN|unrestricted|unfiltered|jailbroken|developer mode|free of (?:all )?(?:rules|restrictions))\b/i],
  [IO, /\b(act|behave)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(unrestricted|unfiltered|jailbroken)\b/i],
  [IO, /\b(enable|enter|activate)\s+(developer|god|jailbreak|DAN)\s+mode\b/i],
  [IO, /\bdo anything now\b/i],
  [IO, /\bfrom now on,?\s+you\s+(will|must|shall|are to)\s+(ignore|obey|only|always|never|not)\b/i],
  [
    PL,
    /\b(reveal|print|show|repeat|output|leak|dump|display|tell me|give me|send me|echo)\s+(me\s+)?(your|the)\s+(hidden\s+|initial\s+|original\s+|secret\s+|full\s+|entire\s+|exact\s+)?(instructions|prompt|system\s+prompt|system\s+message)\b/i,
  ],
  [PL, /\b(reveal|print|show|repeat|output|leak|dump|display)\b[^.!?\n]{0,30}\bsystem prompt\b/i],
  [PL, /\bwhat (is|are|was|were) your (system prompt|initial instructions|hidden instructions)\b/i],
  // --- Simplified and Traditional Chinese ---
  [
    IO,
    /(忽略|无视|無視|忽视|忽視|不要理会|不要理會|不理会|不理會|别管|別管|抛开|拋開|忘记|忘記|忘掉|撇开|撇開|跳过|跳過)[^。！？!?\n]{0,10}?(之前|以前|先前|此前|上面|上述|以上|前面|前述|所有|全部|一切|原来|原來|原有|原先|系统|系統|开发者|開發者)[^。！？!?\n]{0,8}?(指令|指示|提示词|提示詞|规则|規則|设定|設定|说的话|說的話|命令|要求)/,
  ],
  [IO, /(不要|别|別|请勿|請勿|无需|無需|不必|不用)再?(遵守|遵循|服从|服從|听从|聽從|理会|理會)[^。！？!?\n]{0,6}?(系统|系統|开发者|開發者|之前|以上|上面|原来|原來)/],
  [IO, /新的?(指令|指示)\s*[:：]/],
  [IO, /(你现在是|你現在是|现在你是|現在你是)[^。！？!?\n]{0,12}?(不受|没有|沒有|无|無)(任何)?(限制|约束|約束)/],
  [IO, /(从现在开始|從現在開始|从现在起|從現在起)[，,]?\s*你(必须|必須|只能|要|将|將)(忽略|无视|無視|服从|服從|听从|聽從)/],
  [PL, /(系统提示词|系統提示詞)/],
  [PL, /(输出|輸出|显示|顯示|泄露|洩露|打印|告诉我|告訴我|重复|重複|透露)[^。！？!?\n]{0,6}?(系统提示|系統提示|你的提示词|你的提示詞|你的指令|初始指令)/],
  // --- Japanese ---
  [IO, /(以前|これまで|今まで|前|上記|先ほど|先程|上|すべて|全て)の?[^。\n]{0,8}?(指示|命令|プロンプト|ルール|指令)[^。\n]{0,6}?(無視|忘れ|破棄)/],
  [IO, /(指示|命令|ルール)(は|を)?(すべて|全て)?(無視|忘れ)して/],
  [PL, /システムプロンプト[^。\n]{0,10}?(表示|出力|教え|見せ|開示|繰り返)/],
  // --- Korean ---
  [IO, /(이전|앞의|위의|모든|기존|시스템)[^.\n]{0,10}?(지시|명령|지침|규칙|프롬프트)[^.\n]{0,8}?(무시|잊어)/],
  [PL, /시스템 ?프롬프트[^.\n]{0,10}?(보여|출력|알려|공개)/],
  // --- Spanish, Portuguese, Italian, French, German ---
  [
    IO,
    /(ignora|ignore|ignorar|ignores|olvida|olvide|olvidar|omite|descarta|esqueça|esqueca|esquece|desconsidere|desconsidera|dimentica|dimenticare|trascura|oublie|oubliez|ignorez|ne tiens pas compte d|ne tenez pas compte d)[^.!?\n]{0,25}?(instrucciones|instruções|instrucoes|istruzioni|instructions|indicaciones|consignes|reglas|regras|regole|règles)[^.!?\n]{0,12}?(anteriores|previas|prévias|previas|precedentes|precedenti|précédentes|antérieures|de arriba|acima|sopra|ci-dessus|del sistema|do sistema|di sistema|du système|originales|originais|originali)/i,
  ],
  [
    IO,
    /(ignora|ignore|ignorar|olvida|olvide|esqueça|esqueca|desconsidere|dimentica|oublie|oubliez|ignorez)\s+(?:(?:todas|tutte|toutes)\s+)?(?:(?:las|los|as|os|le|les|i)\s+)?(?:(?:tus|sus|tuas|suas|tue|tuoi|tes|vos)\s+)?(?:(?:anteriores|precedenti|précédentes)\s+)?(instrucciones|instruções|instrucoes|istruzioni|instructions|consignes)\b/i,
  ],
  [
    IO,
    /(ignorier|ignoriere|ignorieren|vergiss|vergessen|missachte|überspringe)[^.!?\n]{0,25}?(vorherigen|bisherigen|obigen|vorigen|früheren|alle|deine|ihre|ursprünglichen|system)[^.!?\n]{0,15}?(anweisungen|instruktionen|befehle|regeln|vorgaben)/i,
  ],
  [IO, /(nuevas instrucciones|nouvelles instructions|neue anweisungen|novas instruções|nuove istruzioni)\s*[:：]/i],
  [
    PL,
    /(revela|muestra|imprime|mostre|revele|mostra|rivela|révèle|révélez|affiche|montre|zeige|zeig|gib)[^.!?\n]{0,20}?(prompt del sistema|prompt do sistema|prompt di sistema|prompt système|prompt systeme|systemprompt|system-prompt)/i,
  ],
  // --- Russian ---
  [
    IO,
    /(игнорируй|игнорируйте|забудь|забудьте|проигнорируй|не обращай внимания на|не следуй|отбрось)[^.!?\n]{0,25}?(предыдущие|прошлые|все|свои|твои|системные|вышеуказанные|прежние|исходные)[^.!?\n]{0,15}?(инструкции|указания|правила|команды|промпт)/i,
  ],
  [PL, /(покажи|выведи|раскрой|повтори|напиши)[^.!?\n]{0,20}?(системный промпт|системные инструкции|свои инструкции)/i],
  // --- Fake turns and role markers ---
  [RM, /^[ \t>*_]*(human|assistant)\s*:/im],
  [RM, /^[ \t>]*#{1,6}[ \t]*(system|assistant|human|user|instruction|instructions)[ \t]*:/im],
  [RM, /<\s*(system|assistant|developer|tool)\b/i],
  [RM, /<\s*\/\s*(system|assistant|developer|tool|user)\s*>/i],
  [RM, /<\|\s*(im_start|im_end|system|assistant|user|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\s*\|>/i],
  [RM, /<\s*\/?\s*(start_of_turn|end_of_turn)\s*>/i],
  [RM, /\[\/?INST\]|<<\/?SYS>>/],
  [RM, /\[(system|assistant)\]\(#/i],
  // --- Breaking out of KnowHub's wrapper ---
  [WRAPPER_ESCAPE, /<\s*\/?\s*knowhub[-_][a-z]/i],
  // --- Exfiltration through rendered images ---
  [EXFILTRATION, /!\[[^\]\n]{0,200}\]\(\s*<?\s*(?:https?:)?\/\/[^)\s?]{1,300}\?[^)\s]{0,2000}=/i],
  [EXFILTRATION, /<\s*img\b[^>]{0,300}?\bsrc\s*=\s*["']?\s*(?:https?:)?\/\//i],
  // --- Exfiltration through shell commands: the environment or a credential file sent to a
  // network tool (a token in an `Authorization` header is ordinary API use and not matched) ---
  [EXFILTRATION, /\b(?:env|printenv)\s*\|[^\n]{0,120}?\b(?:curl|wget|nc|ncat|netcat|socat|telnet)\b/i],
  [EXFILTRATION, /\b(?:cat|base6[4a]|xxd|gzip|tar)\b[^\n|]{0,80}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed)|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\/etc\/passwd|\.pgpass|\/proc\/self\/environ)[^\n|]{0,40}\|[^\n]{0,120}?\b(?:curl|wget|nc|ncat|netcat|socat|telnet)\b/i],
  [EXFILTRATION, /\b(?:curl|wget|nc|ncat|netcat|socat|telnet)\b[^\n]{0,160}?(?:\$\(|`)\s*(?:env|printenv|(?:cat|base6[4a])\s+[A-Za-z0-9_.\/~${}-]{0,80}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed)|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\/etc\/passwd|\.pgpass|\/proc\/self\/environ))/i],
  [EXFILTRATION, /\b(?:curl|wget)\b[^\n]{0,160}?(?:-d|--data[a-z-]*|-F|--form|-T|--upload-file|--post-file)(?:\s+|=)["']?[A-Za-z0-9_=@.\/~${}-]{0,80}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed)|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\/etc\/passwd|\.pgpass|\/proc\/self\/environ)/i],
  // --- Exfiltration asked for in words: a credential's contents put into what the model sends or writes ---
  [EXFILTRATION, /\b(?:attach|include|paste|send|post|upload|share|submit|append|report|echo|print|reveal|leak|forward|email)\b[^\n]{0,80}?\b(?:output|outputs|contents?|value|values|text)\s+of\b[^\n]{0,60}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed25519)(?:$|[^A-Za-z0-9_.])|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\.pgpass|\/proc\/self\/environ|\$\{?[A-Z][A-Z0-9_]*(?:API_KEY|_TOKEN|_SECRET|SECRET_KEY|PASSWORD|PASSWD|ACCESS_KEY(?:_ID)?)\b|\b(?:printenv|env)[\x60\x27\x22])/i],
  [EXFILTRATION, /\b(?:attach|include|paste|append|put|insert|embed)\b[^\n]{0,60}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed25519)(?:$|[^A-Za-z0-9_.])|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\.pgpass|\/proc\/self\/environ|\$\{?[A-Z][A-Z0-9_]*(?:API_KEY|_TOKEN|_SECRET|SECRET_KEY|PASSWORD|PASSWD|ACCESS_KEY(?:_ID)?)\b|\b(?:printenv|env)[\x60\x27\x22])[^\n]{0,80}?\b(?:to|in|into)\s+(?:your|the|this|each|every)\s+(?:answer|reply|response|summary|submission|report|comment|message|output|next\s+[a-z]+)/i],
  // --- Dangerous commands ---
  [DC, /\b(curl|wget|fetch)\b[^|\n;]{0,300}\|\s*(sudo\s+(-\S+\s+)*)?(ba|z|da|k|fi)?sh\b/i],
  [DC, /\b(ba|z|da|k)?sh\s+(-c\s+)?["']?\$\(\s*(curl|wget)\b/i],
  [DC, /\b(ba|z|da|k)?sh\s+<\(\s*(curl|wget)\b/i],
  [DC, /\b(iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget)\b[^|\n]{0,300}\|\s*(iex|invoke-expression)\b/i],
  [DC, /\b(iex|invoke-expression)\s*\(*\s*(\(\s*)?new-object\s+(system\.)?net\.webclient\s*\)?\s*\.\s*downloadstring/i],
  [
    DC,
    /\brm\s+(?:-[A-Za-z]+\s+|--[a-z-]+\s+)*(?:-[A-Za-z]*[rR][A-Za-z]*|--recursive)\s+(?:-[A-Za-z]+\s+|--[a-z-]+\s+)*(?:--\s+)?["']?(?:~|\$HOME|\$\{HOME\}|\/)\/?\*?["']?(?:[\s;&|)]|$)/,
  ],
  [DC, /\b(mkfs(\.\w+)?|wipefs\s+-a)\s+\/dev\/(sd|hd|nvme|vd|xvd)/],
  [DC, /\bdd\s+[^\n]{0,100}?\bof=\/dev\/(sd|hd|nvme|vd|xvd)[a-z]*\d*(?:\s|$)/],
  [DC, /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/],
  [DC, /\bchmod\s+(?:-[A-Za-z]*R[A-Za-z]*|--recursive)\s+[0-7]{3,4}\s+["']?(?:~|\$HOME|\/)\/?\*?["']?(?:[\s;&|)]|$)/],
];

/** The patterns, for callers that list them (categories aside). */
export const PROMPT_INJECTION_PATTERNS: readonly RegExp[] = SCREEN_PATTERNS.map(([, p]) => p);

const INVISIBLE_SOURCE =
  "\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF\\u00AD\\u034F\\u180E\\uFE00-\\uFE0F\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}";
const INVISIBLE_TEST = new RegExp(`[${INVISIBLE_SOURCE}]`, "u");
const INVISIBLE_ALL = new RegExp(`[${INVISIBLE_SOURCE}]`, "gu");

/**
 * Characters that render as nothing (or only change direction) and so can split or hide a word
 * from a reader and a pattern: zero-width, bidi controls, tag characters, variation selectors.
 */
export function isInvisible(c: string): boolean {
  return INVISIBLE_TEST.test(c);
}

/** Cyrillic and Greek letters that look like Latin ones. */
const CONFUSABLES: Record<string, string> = {
  а: "a", α: "a", в: "b", с: "c", ϲ: "c", ԁ: "d", е: "e", ε: "e", һ: "h", і: "i", ι: "i", ı: "i", ј: "j",
  к: "k", κ: "k", м: "m", п: "n", η: "n", о: "o", ο: "o", σ: "o", р: "p", ρ: "p", ԛ: "q", ѕ: "s", т: "t",
  τ: "t", υ: "u", ѵ: "v", ν: "v", ԝ: "w", ω: "w", х: "x", χ: "x", у: "y", γ: "y",
  А: "A", Α: "A", В: "B", Β: "B", С: "C", Ϲ: "C", Е: "E", Ε: "E", Н: "H", Η: "H", І: "I", Ι: "I", Ј: "J",
  К: "K", Κ: "K", М: "M", Μ: "M", Ν: "N", О: "O", Ο: "O", Р: "P", Ρ: "P", Ѕ: "S", Т: "T", Τ: "T", Х: "X",
  Χ: "X", У: "Y", Υ: "Y", Ζ: "Z",
};

/**
 * Folds look-alikes in words that mix them with Latin letters ("іgnоrе"), so real Russian or Greek
 * words stay as they are for their own patterns.
 */
function foldConfusables(text: string): string {
  return text.replace(/\p{Alphabetic}+/gu, (word) =>
    /[A-Za-z]/.test(word) && [...word].some((c) => c in CONFUSABLES) ? [...word].map((c) => CONFUSABLES[c] ?? c).join("") : word,
  );
}

/**
 * The text as the patterns see it: invisible characters removed, NFKC (full-width ASCII becomes
 * ASCII), look-alikes folded (Cyrillic/Greek in Latin words, leetspeak digits), blanks collapsed to
 * one space and blank runs with a line break to one newline (line-start patterns still work; `\s+`
 * still spans lines), letters spelled out one by one joined.
 */
export function normaliseForDetection(text: string): string {
  return collapse(foldLeet(unfolded(text)));
}

/** The steps of normaliseForDetection before the leetspeak fold (invisibles, NFKC, look-alikes). */
function unfolded(text: string): string {
  return foldConfusables(text.replace(INVISIBLE_ALL, "").normalize("NFKC"));
}

/** The steps of normaliseForDetection after the leetspeak fold (blanks, spelled-out letters). */
function collapse(folded: string): string {
  const collapsed = folded
    .replace(/\p{White_Space}+/gu, (ws) => (/[\n\r]/.test(ws) ? "\n" : " "))
    .replace(/^[ \n]+|[ \n]+$/g, "");
  return collapsed.replace(/\b(?:[A-Za-z] ){3,}[A-Za-z]\b/g, (m) => m.replace(/ /g, ""));
}

const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "@": "a", "5": "s", "7": "t" };

/** Digits and symbols used as letters in words that mix them with letters ("1gn0re", "prev10us"). */
function foldLeet(text: string): string {
  return text.replace(/[A-Za-z0-9@]+/g, (w) => {
    const letters = (w.match(/[A-Za-z]/g) ?? []).length;
    return letters >= 2 && w.length > letters ? [...w].map((c) => LEET[c] ?? c).join("") : w;
  });
}

/**
 * Text spelled in Unicode tag characters (U+E0020..U+E007E mirror ASCII), decoded, runs separated
 * by spaces; a run right after a black flag (a subdivision flag emoji) is skipped.
 */
function hiddenTagText(text: string): string {
  let out = "";
  let prev = 0;
  let skip = false;
  const isTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007e;
  for (const c of text) {
    const cp = c.codePointAt(0)!;
    if (isTag(cp)) {
      if (!isTag(prev)) {
        skip = prev === 0x1f3f4;
        out += " ";
      }
      if (!skip) out += String.fromCodePoint(cp - 0xe0000);
    }
    prev = cp;
  }
  return out.trim();
}

/** Decodes standard or URL-safe base64 (padding optional); undefined for anything else. */
export function decodeBase64(input: string): Uint8Array | undefined {
  const s = input.replace(/=+$/, "");
  if (s.length % 4 === 1) return undefined;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const b = s.charCodeAt(i);
    let v: number;
    if (b >= 65 && b <= 90) v = b - 65;
    else if (b >= 97 && b <= 122) v = b - 97 + 26;
    else if (b >= 48 && b <= 57) v = b - 48 + 52;
    else if (b === 43 || b === 45) v = 62;
    else if (b === 47 || b === 95) v = 63;
    else return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
      acc &= (1 << bits) - 1;
    }
  }
  return Uint8Array.from(out);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decoded text when the bytes are mostly printable UTF-8 (a hash or path decodes to noise). */
export function printableText(bytes: Uint8Array): string | undefined {
  let s: string;
  try {
    s = UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  const chars = [...s];
  const printable = chars.filter((c) => !/\p{Cc}/u.test(c) || c === "\n" || c === "\t" || c === "\r").length;
  return chars.length >= 4 && printable * 10 >= chars.length * 9 ? s : undefined;
}

/** At most this many base64 runs are decoded per text, each at most this long: bounded cost. */
const MAX_BASE64_RUNS = 16;
const MAX_BASE64_LEN = 4096;

/**
 * Words glued into an identifier, apart: `ignore_all_previous_instructions`, `ignore-all.previous`
 * and `ignoreAllPrevious` read as words (ASCII letters only, like the Rust twin). A second pass,
 * for the wording categories only (instruction override, prompt leak).
 */
export function splitIdentifiers(text: string): string {
  return text.replace(/(?<=[A-Za-z])[_.-](?=[A-Za-z])/g, " ").replace(/(?<=[a-z])(?=[A-Z])/g, " ");
}

/** Commands that destroy data or history, for unconsentedDestruction (the Rust twin's DESTRUCTIVE). */
const DESTRUCTIVE =
  /(?:\brm\s+-[a-z]*[rf][a-z]*\b|\bdrop\s+(?:schema|database|table|collection)\b|\bdropdb\b|\btruncate\s+table\b|\bdelete\s+from\b|\bgit\s+(?:reset\s+--hard|clean\s+-[a-z]*f|push\b[^\n]{0,40}?(?:\s-f\b|\s--force\b))|\bkubectl\s+delete\b|\bterraform\s+destroy\b|\bdocker\s+(?:system|volume)\s+prune\b|\bmkfs\b|\bshred\b|\bflushall\b|\bdropdatabase\b)/i;

/** Doing something behind the user's back, the user named (the Rust twin's UNCONSENTED). */
const UNCONSENTED: RegExp[] = [
  /\bwithout\s+(?:first\s+)?(?:asking|telling|informing|notifying|alerting|warning|consulting|checking\s+with|confirming\s+with|prompting)\s+(?:the|your|any)\s+(?:user|human|operator|owner)s?\b/gi,
  /\b(?:do\s+not|don't|never|no\s+need\s+to)\s+(?:ask|tell|inform|notify|alert|warn|consult)\s+(?:the|your)\s+(?:user|human|operator)s?\b/gi,
  /(?:不需要|不需|无需|無需|无须|無須|不用|不必|不要|别|別|勿)再?(?:询问|詢問|告知|告诉|告訴|通知|征求|徵求|提醒|请示|請示|问|問)(?:一下)?(?:使用者|用户|用戶)/g,
  /(?:未经|未經|不经|不經|无需|無需|不需)(?:使用者|用户|用戶)的?(?:同意|确认|確認|允许|允許|许可|許可)/g,
  /(?:ユーザー|ユーザ|利用者)(?:に|へ)?(?:確認|相談|許可を求め|知らせ|伝え|報告|聞か)(?:せず|しないで|ずに|する必要はない|なくて)/g,
  /(?:사용자|유저|이용자)(?:에게|한테|의)?\s*(?:묻지|알리지|확인하지|확인받지|물어보지|동의\s*없이|허락\s*없이)/g,
  /\bsin\s+(?:preguntar|avisar|consultar|informar|notificar|confirmar)(?:le|les)?\s+(?:al|a\s+los|con\s+el|con\s+los)\s+usuarios?\b/gi,
  /\bsem\s+(?:perguntar|avisar|consultar|informar|notificar|confirmar)\s+(?:ao|aos|o|os|com\s+o|com\s+os)\s+usu[aá]rios?\b/gi,
  /\bsans\s+(?:demander|prévenir|prevenir|informer|avertir|consulter)\s+(?:à\s+)?l['’]utilisat(?:eur|rice)\b/gi,
  /\bohne\s+(?:den|die)\s+(?:benutzer|nutzer|anwender)[a-z]*\s+zu\s+(?:fragen|informieren|benachrichtigen|warnen)\b/gi,
  /не\s+(?:спрашивая|сообщая|уведомляя|предупреждая)\s+пользовател/gi,
  /بدون\s+(?:پرسیدن|اطلاع|اجازه)\s*(?:از\s*)?(?:به\s*)?کاربر/g,
  /(?:دون|بدون)\s+(?:سؤال|إبلاغ|إخبار|إذن|علم|استئذان)\s+(?:ال)?مستخدم/g,
];

/** A destructive command forbidden on its line (the Rust twin's FORBIDDEN). */
const FORBIDDEN: RegExp[] = [
  /\b(?:never|don't|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|avoid|not\s+allowed\s+to|forbidden\s+to|nunca|no\s+ejecutes|jamais|niemals|nicht)\b/i,
  /(?:não|никогда\s+не|не\s+запускай)/i,
  /(?:不要|不得|禁止|切勿|严禁|嚴禁|不可|不能|别|別|绝不|絕不)/,
  /(?:しないで|してはいけない|禁止|しては(?:なら|いけ)ない)/,
  /(?:하지\s*마|금지|안\s*됩니다|절대)/,
];

/**
 * An instruction to destroy data or history behind the user's back: a destructive command and
 * "without asking the user" (or its like) on one line, with nothing else on the line forbidding it.
 */
function unconsentedDestruction(normalised: string): boolean {
  return normalised.split("\n").some((line) => {
    if (!DESTRUCTIVE.test(line) || !UNCONSENTED.some((u) => line.search(u) >= 0)) return false;
    // The consent phrase itself may hold a negation ("do not tell the user", "不要告诉用户").
    const rest = UNCONSENTED.reduce((l, u) => l.replace(u, " "), line);
    return !FORBIDDEN.some((f) => f.test(rest));
  });
}

function matchCategories(normalised: string, found: Set<string>): void {
  for (const [category, pattern] of SCREEN_PATTERNS) {
    if (!found.has(category) && pattern.test(normalised)) found.add(category);
  }
}

/**
 * Screens text for prompt injection and dangerous commands: the categories found (empty when the
 * text reads like ordinary work notes), in INJECTION_CATEGORIES order.
 */
export function screenText(text: string | undefined | null): string[] {
  if (!text || !String(text).trim()) return [];
  const raw = String(text);
  const found = new Set<string>();
  const base = unfolded(raw);
  const folded = foldLeet(base);
  const n = collapse(folded);
  matchCategories(n, found);
  // Commands are literal, and folding leetspeak rewrites them (`@env | curl` reads `aenv`,
  // `base64` reads `base6a`): the text is also screened as written, when folding changed it.
  const literal = folded !== base ? collapse(base) : undefined;
  if (literal !== undefined) matchCategories(literal, found);
  if (unconsentedDestruction(literal ?? n)) found.add(INSTRUCTION_OVERRIDE);
  const split = splitIdentifiers(n);
  if (split !== n) {
    // Only the wording categories: splitting `List<SystemConfig>` must not make a role tag.
    const words = new Set<string>();
    matchCategories(split, words);
    for (const c of [INSTRUCTION_OVERRIDE, PROMPT_LEAK]) if (words.has(c)) found.add(c);
  }
  const hidden = hiddenTagText(raw);
  if ((hidden.match(/[A-Za-z0-9]/g) ?? []).length >= 4) {
    found.add(HIDDEN_TEXT);
    matchCategories(normaliseForDetection(hidden), found);
  }
  let runs = 0;
  // From the text itself: normalising (leetspeak folding) would change the encoding.
  for (const m of raw.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
    if (runs++ >= MAX_BASE64_RUNS) break;
    const run = m[0];
    if (run.length > MAX_BASE64_LEN || !/[0-9A-Z]/.test(run)) continue;
    const bytes = decodeBase64(run);
    const decoded = bytes ? printableText(bytes) : undefined;
    if (decoded === undefined) continue;
    const inner = new Set<string>();
    matchCategories(normaliseForDetection(decoded), inner);
    if (inner.size > 0) found.add(ENCODED_PAYLOAD);
  }
  return INJECTION_CATEGORIES.filter((c) => found.has(c));
}

/**
 * True when the text reads like an attempt to instruct a model rather than describe work, or holds
 * a dangerous command a reviewer should see (any category of screenText).
 */
export function looksLikePromptInjection(text: string | undefined | null): boolean {
  return screenText(text).length > 0;
}

/**
 * True when the text tries to steer a model (every category but dangerous_command): what a
 * model-facing formatter leaves out. A dangerous command in an approved record is still shown.
 */
export function isPromptInjection(text: string | undefined | null): boolean {
  return screenText(text).some((c) => c !== DANGEROUS_COMMAND);
}

// ---------------------------------------------------------------------------------------------
// Escaping and safe formatting
// ---------------------------------------------------------------------------------------------

const ESCAPE_MAP: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for inclusion inside the plugin's XML-like prompt blocks: HTML-escapes & < > " '
 * (so no record can open or close a tag, `</knowhub-experiences>` included), drops control
 * characters other than \t and \n, and drops invisible characters (zero-width, bidi controls, tag
 * characters, variation selectors), so a model reads nothing a reviewer could not see. Reversible
 * for everything but the dropped characters.
 */
export function escapeForPrompt(text: string | undefined | null): string {
  if (text === undefined || text === null) return "";
  return String(text)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
    .replace(INVISIBLE_ALL, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[&<>"']/g, (c) => ESCAPE_MAP[c] ?? c);
}
