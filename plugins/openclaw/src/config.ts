// Plugin configuration: defaults, validation with field-named errors, transport-safety checks.
// The same rules are declared as JSON Schema in openclaw.plugin.json (the host checks that
// first); this module re-checks at load so that errors are clear even on hosts that do not
// enforce the schema, and adds the checks a schema cannot express (URL shape, remote http).

export const REMINDER_MODES = ["off", "minimal", "normal", "aggressive"] as const;
export const PRIVACY_MODES = ["strict", "relaxed"] as const;
export const EXTRACTION_TRIGGERS = ["agent_end", "before_compaction"] as const;

export type ReminderMode = (typeof REMINDER_MODES)[number];
export type PrivacyMode = (typeof PRIVACY_MODES)[number];
export type ExtractionTrigger = (typeof EXTRACTION_TRIGGERS)[number];

export interface KnowHubConfig {
  /** Base URL of the KnowHub server, without a trailing slash. */
  apiUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Who submits (e.g. an email); sent as `submitted_by`. Empty = not sent. */
  submittedBy: string;
  reminderMode: ReminderMode;
  enableServerExtraction: boolean;
  privacyMode: PrivacyMode;
  extractionTrigger: ExtractionTrigger;
  /** Ask the server to keep extracted experiences pending until a human approves them. */
  requireApproval: boolean;
  /** Inject the most relevant experiences before the first model call of a task. */
  autoRecall: boolean;
  /** Per-request budget for every call to the KnowHub server. */
  timeoutMs: number;
  /**
   * Hits below this calibrated relevance (0-1, roughly the probability that a hit answers the
   * query) are not returned; sent as `min_relevance`. Unset = the server's own default.
   */
  minRelevance?: number;
  /**
   * The floor for auto-recall, which puts experiences in the prompt unasked (0-1). Higher than
   * the search default: at 0.2 a hit about the same tool but another problem rarely gets in
   * (docs/ranking.md §5), while the model can still search with `kb_search` for weaker matches.
   * A higher `minRelevance` wins.
   */
  autoRecallMinRelevance: number;
}

export const DEFAULT_CONFIG: Readonly<KnowHubConfig> = Object.freeze({
  apiUrl: "http://localhost:8000",
  apiKey: undefined,
  submittedBy: "",
  reminderMode: "normal",
  enableServerExtraction: false,
  privacyMode: "strict",
  extractionTrigger: "agent_end",
  requireApproval: true,
  autoRecall: false,
  timeoutMs: 5000,
  minRelevance: undefined,
  autoRecallMinRelevance: 0.2,
});

export const CONFIG_KEYS = Object.keys(DEFAULT_CONFIG) as (keyof KnowHubConfig)[];

export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 120_000;
const MAX_SUBMITTED_BY = 200;

/** Model calls between two periodic reminders, per mode (`off` never reminds). */
export const REMINDER_INTERVALS: Readonly<Record<ReminderMode, number>> = Object.freeze({
  off: 0,
  minimal: 5,
  normal: 3,
  aggressive: 2,
});

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`knowhub: invalid plugin config (plugins.entries.knowhub.config): ${problems.join("; ")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export interface ResolvedConfig {
  config: KnowHubConfig;
  /** Non-fatal problems to log once (e.g. plain http to a remote host). */
  warnings: string[];
  /** Set when extraction was requested but must not run (remote server without HTTPS). */
  extractionRefused?: string;
}

/** True for loopback names/addresses: localhost, *.localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  return false;
}

/** True when traffic to this URL is protected: HTTPS, or never leaves the machine. */
export function isSecureTransport(apiUrl: string): boolean {
  const u = new URL(apiUrl);
  return u.protocol === "https:" || isLoopbackHost(u.hostname);
}

const show = (v: unknown): string => {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
  } catch {
    return String(v);
  }
};

function checkEnum<T extends string>(
  raw: Record<string, unknown>,
  key: keyof KnowHubConfig,
  allowed: readonly T[],
  problems: string[],
): T | undefined {
  const v = raw[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) {
    problems.push(`${key} must be one of ${allowed.map((a) => `"${a}"`).join(", ")} (got ${show(v)})`);
    return undefined;
  }
  return v as T;
}

/** A number from 0 to 1 (a relevance floor); `null` counts as unset. */
function checkUnit(raw: Record<string, unknown>, key: keyof KnowHubConfig, problems: string[]): number | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 1) {
    problems.push(`${key} must be a number from 0 to 1 (got ${show(v)})`);
    return undefined;
  }
  return v;
}

function checkBool(raw: Record<string, unknown>, key: keyof KnowHubConfig, problems: string[]): boolean | undefined {
  const v = raw[key];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") {
    problems.push(`${key} must be true or false (got ${show(v)})`);
    return undefined;
  }
  return v;
}

function normaliseApiUrl(v: unknown, problems: string[]): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.trim() === "") {
    problems.push(`apiUrl must be a non-empty URL string such as "http://localhost:8000" (got ${show(v)})`);
    return undefined;
  }
  let u: URL;
  try {
    u = new URL(v.trim());
  } catch {
    problems.push(`apiUrl is not a valid URL (got ${show(v)}); expected e.g. "http://localhost:8000"`);
    return undefined;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    problems.push(`apiUrl must use http:// or https:// (got ${show(v)})`);
    return undefined;
  }
  if (u.username || u.password) {
    problems.push("apiUrl must not embed credentials (user:password@); put the key in apiKey instead");
    return undefined;
  }
  if (u.search || u.hash) {
    problems.push(`apiUrl must not have a query string or fragment (got ${show(v)})`);
    return undefined;
  }
  // Keep an optional path prefix (reverse proxy), drop trailing slashes.
  return `${u.origin}${u.pathname}`.replace(/\/+$/, "");
}

/**
 * Validates raw `plugins.entries.knowhub.config`, fills defaults and returns the resolved config.
 * Throws ConfigError naming every bad field.
 */
export function resolveConfig(rawInput: unknown): ResolvedConfig {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (rawInput !== undefined && rawInput !== null && (typeof rawInput !== "object" || Array.isArray(rawInput))) {
    throw new ConfigError([`config must be an object (got ${show(rawInput)})`]);
  }
  const raw = (rawInput ?? {}) as Record<string, unknown>;

  for (const key of Object.keys(raw)) {
    if (!(CONFIG_KEYS as string[]).includes(key)) {
      problems.push(`${key} is not a known option (known: ${CONFIG_KEYS.join(", ")})`);
    }
  }

  const apiUrl = normaliseApiUrl(raw.apiUrl, problems);

  let apiKey: string | undefined;
  if (raw.apiKey !== undefined && raw.apiKey !== null) {
    if (typeof raw.apiKey !== "string") {
      problems.push("apiKey must be a string");
    } else if (raw.apiKey.trim() !== "") {
      apiKey = raw.apiKey.trim();
      if (/\s/.test(apiKey)) problems.push("apiKey must not contain whitespace");
    }
  }

  let submittedBy: string | undefined;
  if (raw.submittedBy !== undefined) {
    if (typeof raw.submittedBy !== "string") {
      problems.push(`submittedBy must be a string (got ${show(raw.submittedBy)})`);
    } else if (raw.submittedBy.trim().length > MAX_SUBMITTED_BY) {
      problems.push(`submittedBy must be at most ${MAX_SUBMITTED_BY} characters`);
    } else {
      submittedBy = raw.submittedBy.trim();
    }
  }

  const reminderMode = checkEnum(raw, "reminderMode", REMINDER_MODES, problems);
  const privacyMode = checkEnum(raw, "privacyMode", PRIVACY_MODES, problems);
  const extractionTrigger = checkEnum(raw, "extractionTrigger", EXTRACTION_TRIGGERS, problems);
  const enableServerExtraction = checkBool(raw, "enableServerExtraction", problems);
  const requireApproval = checkBool(raw, "requireApproval", problems);
  const autoRecall = checkBool(raw, "autoRecall", problems);

  let timeoutMs: number | undefined;
  if (raw.timeoutMs !== undefined) {
    const t = raw.timeoutMs;
    if (typeof t !== "number" || !Number.isInteger(t) || t < MIN_TIMEOUT_MS || t > MAX_TIMEOUT_MS) {
      problems.push(`timeoutMs must be an integer from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS} (got ${show(t)})`);
    } else {
      timeoutMs = t;
    }
  }

  const minRelevance = checkUnit(raw, "minRelevance", problems);
  const autoRecallMinRelevance = checkUnit(raw, "autoRecallMinRelevance", problems);

  if (problems.length > 0) throw new ConfigError(problems);

  const config: KnowHubConfig = {
    apiUrl: apiUrl ?? DEFAULT_CONFIG.apiUrl,
    apiKey,
    submittedBy: submittedBy ?? DEFAULT_CONFIG.submittedBy,
    reminderMode: reminderMode ?? DEFAULT_CONFIG.reminderMode,
    enableServerExtraction: enableServerExtraction ?? DEFAULT_CONFIG.enableServerExtraction,
    privacyMode: privacyMode ?? DEFAULT_CONFIG.privacyMode,
    extractionTrigger: extractionTrigger ?? DEFAULT_CONFIG.extractionTrigger,
    requireApproval: requireApproval ?? DEFAULT_CONFIG.requireApproval,
    autoRecall: autoRecall ?? DEFAULT_CONFIG.autoRecall,
    timeoutMs: timeoutMs ?? DEFAULT_CONFIG.timeoutMs,
    minRelevance,
    autoRecallMinRelevance: autoRecallMinRelevance ?? DEFAULT_CONFIG.autoRecallMinRelevance,
  };

  const resolved: ResolvedConfig = { config, warnings };
  if (!isSecureTransport(config.apiUrl)) {
    warnings.push(
      `apiUrl ${config.apiUrl} is a remote server over plain http: experiences${config.apiKey ? " and the API key" : ""} ` +
        "travel unencrypted. Use https:// for anything that is not localhost.",
    );
    if (config.enableServerExtraction) {
      resolved.extractionRefused =
        `enableServerExtraction is on but apiUrl ${config.apiUrl} is a remote server without HTTPS: ` +
        "conversation uploads are refused (nothing will be sent). Use an https:// URL or a localhost server.";
    }
  }
  return resolved;
}
