// Shared by the tools: argument parsing with errors that name the argument (the host shows a
// thrown message to the model, which then fixes its call), result building, and turning
// KnowHubErrors into advice the model can act on.

import { KnowHubError } from "./client.js";
import type { ToolResult } from "./host.js";

/**
 * The server's limits, checked here first so the model gets a clear message. They must equal
 * the server's own, as its /openapi.json states them: test/limits.test.ts compares them with
 * test/fixtures/openapi.json, a copy the server's test suite keeps current.
 */
export const LIMITS = {
  query: 2000,
  task: 2000,
  resource: 2000,
  result: 8000,
  content: 200_000,
  contentType: 100,
  resourceVersion: 100,
  note: 2000,
  id: 200,
  experienceId: 64,
} as const;

/** The server's ranges and defaults for kb_search's numeric arguments. */
export const SEARCH_RANGES = {
  topK: { min: 1, max: 50, default: 5 },
  minScore: { min: 1, max: 5, default: 3 },
  minRelevance: { min: 0, max: 1 },
} as const;

/** What an experience id from kb_search looks like; anything else never reaches a URL. */
export const EXPERIENCE_ID = /^[A-Za-z0-9._-]+$/;

/** Raised for bad tool arguments; the host shows the message to the model as a tool error. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

export function asParams(params: unknown): Record<string, unknown> {
  return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
}

/** Counts characters as Unicode scalar values, as the server does. */
export function charLength(s: string): number {
  return [...s].length;
}

const absent = (v: unknown): boolean => v === undefined || v === null || v === "";

export function requiredText(tool: string, p: Record<string, unknown>, key: string, max: number, hint: string): string {
  const v = p[key];
  if (typeof v !== "string" || v.trim() === "") throw new ToolInputError(`${tool}: ${key} is required (${hint})`);
  const t = v.trim();
  if (charLength(t) > max) throw new ToolInputError(`${tool}: ${key} is too long (${charLength(t)} characters, max ${max})`);
  return t;
}

/** An optional trimmed string; empty means absent. */
export function optionalText(tool: string, p: Record<string, unknown>, key: string, max: number): string | undefined {
  const v = p[key];
  if (absent(v)) return undefined;
  if (typeof v !== "string") throw new ToolInputError(`${tool}: ${key} must be a string (got ${JSON.stringify(v)})`);
  const t = v.trim();
  if (t === "") return undefined;
  if (charLength(t) > max) throw new ToolInputError(`${tool}: ${key} is too long (${charLength(t)} characters, max ${max})`);
  return t;
}

export function optionalInt(tool: string, p: Record<string, unknown>, key: string, def: number, min: number, max: number): number {
  let v = p[key];
  if (absent(v)) return def;
  if (typeof v === "string" && /^\s*-?\d+\s*$/.test(v)) v = Number(v);
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw new ToolInputError(`${tool}: ${key} must be an integer from ${min} to ${max} (got ${JSON.stringify(p[key])})`);
  }
  return v;
}

/** An optional number in [min, max]; numeric strings are accepted (models send them). */
export function optionalNumber(tool: string, p: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  let v = p[key];
  if (absent(v)) return undefined;
  if (typeof v === "string" && /^\s*\d*\.?\d+\s*$/.test(v)) v = Number(v);
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) {
    throw new ToolInputError(`${tool}: ${key} must be a number from ${min} to ${max} (got ${JSON.stringify(p[key])})`);
  }
  return v;
}

export function oneOf<T extends string>(tool: string, p: Record<string, unknown>, key: string, allowed: readonly T[]): T | undefined {
  const v = p[key];
  if (absent(v)) return undefined;
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) {
    throw new ToolInputError(`${tool}: ${key} must be one of ${allowed.join(", ")} (got ${JSON.stringify(v)})`);
  }
  return v as T;
}

export function experienceId(tool: string, p: Record<string, unknown>, key: string): string {
  const id = requiredText(tool, p, key, LIMITS.experienceId, "the id shown by kb_search");
  if (!EXPERIENCE_ID.test(id)) {
    throw new ToolInputError(`${tool}: ${key} must look like an id from kb_search (got ${JSON.stringify(id)})`);
  }
  return id;
}

export function text(t: string, details: unknown): ToolResult {
  return { content: [{ type: "text", text: t }], details };
}

/** A KnowHubError as a message the model can act on (`advice` says how to carry on). */
export function toolError(tool: string, err: unknown, advice: string): Error {
  if (err instanceof KnowHubError) {
    if (err.kind === "aborted") return new Error(`${tool} was cancelled.`);
    if (err.unavailable) return new Error(`${tool}: ${err.message}. ${advice}`);
    if (err.status === 401 || err.status === 403) {
      return new Error(`${tool}: ${err.message}. Ask the user to check plugins.entries.knowhub.config.apiKey. ${advice}`);
    }
    return new Error(`${tool}: ${err.message}`);
  }
  return new Error(`${tool}: unexpected error: ${String(err)}`);
}
