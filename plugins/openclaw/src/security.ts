// Privacy and prompt-safety helpers: secret/PII redaction, prompt-injection detection and
// escaping. How KnowHub records are shown to a model lives in format.ts.
//
// Design rule: these functions must not corrupt ordinary technical text. Every pattern is
// anchored so that URLs, package specs (pkg@1.2.3), semver, UUIDs, hashes, dates, ports and
// code such as `password: string` pass through untouched. Judgement calls are documented next
// to each rule and in README.md ("Privacy").

import type { PrivacyMode } from "./config.js";

// ---------------------------------------------------------------------------------------------
// Redaction
// ---------------------------------------------------------------------------------------------

type Rule = { name: string; pattern: RegExp; replace: (match: string, ...groups: string[]) => string };

/** Version markers: a dotted quad right after one of these is a version, not an IPv4 address. */
const VERSION_CONTEXT = /(?:\bv|\bversions?|\bver\.?|\brelease|\bbuild|\brev(?:ision)?|\bnode|\bpython|\bchrome|\bfirefox|[=<>~^]=?)\s*[:=]?\s*$/i;

function isPublicishIPv4(ip: string): boolean {
  const [a, b] = ip.split(".").map(Number);
  if (a === 127) return false; // loopback: not identifying, very common in technical text
  if (ip === "0.0.0.0") return false; // "listen on all interfaces"
  if (a === 255 && b === 255) return false; // netmasks / broadcast
  return true;
}

function isLikelySecretValue(v: string): boolean {
  if (/^[$<{%[]/.test(v)) return false; // ${VAR}, <placeholder>, {{tpl}}, %VAR%, [REDACTED]
  if (/process\.env|os\.environ|getenv/i.test(v)) return false;
  if (/^(?:string|number|boolean|null|undefined|none|true|false|required|optional|secret|password|token|str|int)$/i.test(v)) {
    return false; // type annotations and placeholders
  }
  return /\d/.test(v) || /[!@#%^&*+/=~-]/.test(v) || v.length >= 20;
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
  {
    name: "url_password",
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]+):([^\s@/]+)@/gi,
    replace: (_m, prefix) => `${prefix}:[REDACTED]@`,
  },
  // JSON Web Tokens (three base64url segments, the first one a JSON header).
  {
    name: "jwt",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replace: () => "[JWT]",
  },
  // Bearer tokens: at least 16 token characters including a digit, so prose such as
  // "use a Bearer token" or "Bearer authentication" is left alone.
  {
    name: "bearer",
    pattern: /\b(Bearer)\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}=*/gi,
    replace: (_m, word) => `${word} [TOKEN]`,
  },
  {
    name: "basic_auth",
    pattern: /\b(Authorization\s*:\s*Basic)\s+[A-Za-z0-9+/]{8,}={0,2}/gi,
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
  { name: "aws_key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: () => "[AWS_KEY]" },
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  { name: "github_token", pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, replace: () => "[GITHUB_TOKEN]" },
  { name: "github_pat", pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g, replace: () => "[GITHUB_TOKEN]" },
  // Slack tokens.
  { name: "slack_token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, replace: () => "[SLACK_TOKEN]" },
  { name: "slack_app_token", pattern: /\bxapp-\d-[A-Za-z0-9-]{10,}/g, replace: () => "[SLACK_TOKEN]" },
  // Google API keys.
  { name: "google_key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, replace: () => "[API_KEY]" },
  // key=value / key: value secrets (api_key=..., "password": "...", TOKEN=...). The value must
  // look like a secret (see isLikelySecretValue), so `password: string` in code survives.
  {
    name: "secret_assignment",
    pattern:
      /\b((?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|access[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|aws_secret_access_key|secret|password|passwd|pwd|token)["']?\s*[:=]\s*["']?)([^\s"',;`]{8,})/gi,
    replace: (m, head, value) => (isLikelySecretValue(value) ? `${head}[REDACTED]` : m),
  },
  // Email addresses. `git@host:org/repo` SSH remotes are kept (not a person's address).
  {
    name: "email",
    pattern: /(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]+)@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?![A-Za-z0-9-])/g,
    replace: (m, local) => (local.toLowerCase() === "git" ? m : "[EMAIL]"),
  },
  // Home directories: /home/<user>, /Users/<user> (also file:// URLs), C:\Users\<user>.
  // The left guard keeps URL paths like https://example.com/home/docs intact.
  {
    name: "posix_home",
    pattern: /(?<=^|[\s"'`(=:,;[{<>|]|file:\/\/)(\/(?:home|Users))\/(?!\[REDACTED\])([^/\s"'`<>)\]}|,;:]+)/g,
    replace: (_m, root) => `${root}/[REDACTED]`,
  },
  {
    name: "windows_home",
    pattern: /\b([A-Za-z]:(?:\\\\|\\|\/)Users(?:\\\\|\\|\/))(?!\[REDACTED\])([^\\/\s"'`<>|:*?]+)/gi,
    replace: (_m, head) => `${head}[REDACTED]`,
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
      if (VERSION_CONTEXT.test(input.slice(Math.max(0, offset - 16), offset))) return m;
      return "[IP]";
    },
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
  {
    name: "phone_cn",
    pattern: /(?<![\w.+-])1[3-9]\d(?:[ -]?\d{4}){2}(?![\w.-]?\d)/g,
    replace: () => "[PHONE]",
  },
];

/** The names of the redaction rules, in the order they are applied. */
export const REDACTION_RULES: readonly string[] = RULES.map((r) => r.name);

/**
 * Removes secrets and personal data from free text (strict privacy mode).
 * Idempotent: redacting twice gives the same result as redacting once.
 */
export function redactSensitiveInfo(text: string): string {
  return applyRules(RULES, text);
}

function applyRules(rules: readonly Rule[], text: string): string {
  if (!text) return text;
  let out = text;
  for (const rule of rules) {
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replace as (substring: string, ...args: unknown[]) => string);
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
// Prompt-injection detection
// ---------------------------------------------------------------------------------------------

/** The seed's patterns (memory-lancedb heritage), kept verbatim. */
const SEED_INJECTION_PATTERNS: RegExp[] = [
  /ignore (all|any|previous|above|prior) instructions/i,
  /do not follow (the )?(system|developer)/i,
  /system prompt/i,
  /<\s*(system|assistant|developer|tool)\b/i,
  /forget (all|everything|previous)/i,
  /new instructions:/i,
];

const EXTRA_INJECTION_PATTERNS: RegExp[] = [
  // "ignore/disregard all previous instructions", "override the system rules", ...
  /\b(ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|these|those)\s+)*(previous|prior|above|earlier|preceding|former|original|system|developer)\s+(instructions?|prompts?|rules|directions|guidelines|messages)\b/i,
  /\b(ignore|disregard)\s+(all|everything)\s+(above|before|previously|said)\b/i,
  /\bnew\s+(system\s+)?instructions?\s*[:：]/i,
  // Chat-template role markers and closing role tags.
  /<\s*\/\s*(system|assistant|developer|tool|user)\s*>/i,
  /<\|\s*(im_start|im_end|system|assistant|user|endoftext)\s*\|>/i,
  /\[\/?INST\]|<<\/?SYS>>/,
  /\b(reveal|print|show|repeat|output|leak)\s+(me\s+)?(your|the)\s+(hidden\s+|initial\s+)?(instructions|prompt)\b/i,
  /\byou are now (?:an? |in )?(?:DAN|unrestricted|unfiltered|jailbroken|developer mode)\b/i,
  /\b(act|behave)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(unrestricted|unfiltered|jailbroken)\b/i,
  // Chinese: 忽略之前的指令 / 忽略以上所有指令 / 无视上述提示词 / 忘记你之前的指示 ...
  /(忽略|无视|忽视|不要理会|不理会|别管|抛开|忘记|忘掉)[^。！？!?\n]{0,10}?(之前|以前|先前|此前|上面|上述|以上|前面|前述|所有|全部|一切|原来|原有|原先|系统|开发者)[^。！？!?\n]{0,8}?(指令|指示|提示词)/,
  /(不要|别|请勿|无需|不必)再?(遵守|遵循|服从|听从|理会)[^。！？!?\n]{0,6}?(系统|开发者|之前|以上|上面|原来)/,
  /新的?(指令|指示)\s*[:：]/,
  /系统提示词/,
  /(输出|显示|泄露|打印|告诉我|重复)[^。！？!?\n]{0,6}?(系统提示|你的提示词|你的指令)/,
  /你现在是[^。！？!?\n]{0,12}?(不受|没有|无)(任何)?(限制|约束)/,
];

export const PROMPT_INJECTION_PATTERNS: readonly RegExp[] = [...SEED_INJECTION_PATTERNS, ...EXTRA_INJECTION_PATTERNS];

/** NFKC (full-width -> ASCII), zero-width characters removed, whitespace collapsed. */
export function normaliseForDetection(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

export function looksLikePromptInjection(text: string | undefined | null): boolean {
  if (!text) return false;
  const normalised = normaliseForDetection(String(text));
  return PROMPT_INJECTION_PATTERNS.some((p) => p.test(normalised));
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
 * (so no record can close or fake a tag) and drops control characters other than \t and \n.
 * Reversible for everything but the dropped control characters.
 */
export function escapeForPrompt(text: string | undefined | null): string {
  if (text === undefined || text === null) return "";
  return String(text)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[&<>"']/g, (c) => ESCAPE_MAP[c] ?? c);
}
