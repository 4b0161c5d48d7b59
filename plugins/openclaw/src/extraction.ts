// Server-side extraction upload: turns OpenClaw transcript messages into a compact, sanitised
// form and POSTs only the messages not uploaded before to /api/extract.
//
// `agent_end` receives the WHOLE session history every time, and each `openclaw agent --local`
// turn is a new process, so what was uploaded is remembered on disk per session key: the number of
// history messages already uploaded (history only grows by appending, so the new messages are the
// tail) and the session id (a reset starts over). When the history got shorter (compaction rewrote
// it), content fingerprints of the uploaded messages pick out the new ones instead. Positions, not
// content, are the primary key because OpenClaw rewrites persisted messages (tool-call ids,
// timestamps, its own secret masking), so the same message looks different in the next process.
// A failed upload marks nothing: the same messages are offered again next time; the server dedupes
// as well.

import fsp from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";
import type { PrivacyMode } from "./config.js";
import { redactValue } from "./security.js";
import { KnowHubError, type ExtractBody } from "./client.js";

export interface UploadToolCall {
  name: string;
  arguments: unknown;
}

export interface UploadMessage {
  role: string;
  content: string;
  tool_calls?: UploadToolCall[];
  tool_name?: string;
  is_error?: boolean;
  timestamp?: string;
}

/** Tools whose results are KnowHub's own data: not sent back for extraction (no feedback loop). */
export const OWN_RESULT_TOOLS = new Set(["kb_search", "kb_content"]);
export const OWN_RESULT_PLACEHOLDER = "[KnowHub tool output omitted]";
export const MAX_TEXT_CHARS = 16_000;
/** Keep each request well under the server's 1 MiB body limit. */
export const MAX_CHUNK_BYTES = 512 * 1024;
const MAX_FINGERPRINTS_PER_SESSION = 5000;
const MAX_SESSIONS_IN_STATE = 200;

const DROPPED_PART_TYPES = new Set(["thinking", "redacted_thinking", "reasoning"]);

function truncate(text: string, max = MAX_TEXT_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}\n[... truncated ${text.length - max} characters ...]` : text;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function partsOf(content: unknown): unknown[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}

function limitArguments(args: unknown): unknown {
  let json: string;
  try {
    json = JSON.stringify(args ?? {});
  } catch {
    return "[unserialisable arguments]";
  }
  return json.length > MAX_TEXT_CHARS ? truncate(json) : args;
}

/**
 * Converts one OpenClaw message into the upload shape: keeps text, tool names, tool arguments
 * and tool results; drops thinking parts and provider metadata. Returns undefined when nothing
 * is left (e.g. a thinking-only message).
 */
export function convertMessage(msg: unknown): UploadMessage | undefined {
  if (!isRecord(msg) || typeof msg.role !== "string") return undefined;
  const texts: string[] = [];
  const toolCalls: UploadToolCall[] = [];
  for (const part of partsOf(msg.content)) {
    if (typeof part === "string") {
      texts.push(part);
      continue;
    }
    if (!isRecord(part) || typeof part.type !== "string") continue;
    if (DROPPED_PART_TYPES.has(part.type)) continue;
    if (part.type === "text" && typeof part.text === "string") texts.push(part.text);
    else if (part.type === "image" || part.type === "image_url") texts.push("[image]");
    else if ((part.type === "toolCall" || part.type === "tool_use") && typeof part.name === "string") {
      toolCalls.push({ name: part.name, arguments: limitArguments(part.arguments ?? part.input) });
    }
  }
  const ts = msg.timestamp;
  const timestamp =
    typeof ts === "number" && Number.isFinite(ts) ? new Date(ts).toISOString() : typeof ts === "string" ? ts : undefined;

  if (msg.role === "toolResult" || msg.role === "tool") {
    const toolName = typeof msg.toolName === "string" ? msg.toolName : typeof msg.name === "string" ? msg.name : "unknown";
    const content = OWN_RESULT_TOOLS.has(toolName) ? OWN_RESULT_PLACEHOLDER : truncate(texts.join("\n"));
    const out: UploadMessage = { role: "tool", tool_name: toolName, content };
    if (msg.isError === true) out.is_error = true;
    if (timestamp) out.timestamp = timestamp;
    return out;
  }
  const content = truncate(texts.join("\n").trim());
  if (!content && toolCalls.length === 0) return undefined;
  const out: UploadMessage = { role: msg.role, content };
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  if (timestamp) out.timestamp = timestamp;
  return out;
}

/**
 * Applies the privacy mode to a converted message (strict: every string the LLM will read is
 * redacted: content, role, tool name, tool call names and arguments).
 */
export function sanitiseMessage(msg: UploadMessage, mode: PrivacyMode): UploadMessage {
  if (mode === "relaxed") return msg;
  const out: UploadMessage = { ...msg, role: redactValue(msg.role, mode), content: redactValue(msg.content, mode) };
  if (msg.tool_name !== undefined) out.tool_name = redactValue(msg.tool_name, mode);
  if (msg.tool_calls) {
    out.tool_calls = msg.tool_calls.map((c) => ({ name: redactValue(c.name, mode), arguments: redactValue(c.arguments, mode) }));
  }
  return out;
}

/**
 * Content fingerprints for converted messages (role, text, tool names and arguments; no ids and
 * no timestamps), plus the occurrence number of identical messages so that two "OK" replies
 * differ. Used to find the new messages after a compaction rewrote the history.
 */
export function fingerprintMessages(messages: unknown[]): string[] {
  const seen = new Map<string, number>();
  return messages.map((m) => {
    const c = convertMessage(m);
    let key: string;
    try {
      key = JSON.stringify(c ? [c.role, c.content, c.tool_name, c.tool_calls] : ["raw", m]);
    } catch {
      key = String(c?.role);
    }
    const base = crypto.createHash("sha256").update(key).digest("hex").slice(0, 32);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return `${base}:${n}`;
  });
}

/** Splits messages into chunks whose JSON stays under maxBytes (a single huge message is its own chunk). */
export function chunkMessages<T>(items: T[], maxBytes = MAX_CHUNK_BYTES): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const n = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (current.length > 0 && size + n > maxBytes) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += n;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

interface SessionState {
  /** The session id the watermark belongs to (a reset gives a new one). */
  sessionId?: string;
  /** Number of history messages (from the start) already uploaded. */
  count: number;
  /** Content fingerprints of uploaded messages (bounded), for rewritten histories. */
  uploaded: string[];
  updatedAt: string;
}

interface StateFile {
  version: 2;
  sessions: Record<string, SessionState>;
}

async function loadState(file: string): Promise<StateFile> {
  try {
    const s = JSON.parse(await fsp.readFile(file, "utf8")) as StateFile;
    if (s && s.version === 2 && isRecord(s.sessions)) return s;
  } catch {
    // missing or unreadable: start over (worst case: a re-upload the server dedupes)
  }
  return { version: 2, sessions: {} };
}

async function saveState(file: string, state: StateFile): Promise<void> {
  const keys = Object.keys(state.sessions);
  if (keys.length > MAX_SESSIONS_IN_STATE) {
    keys
      .sort((a, b) => state.sessions[a]!.updatedAt.localeCompare(state.sessions[b]!.updatedAt))
      .slice(0, keys.length - MAX_SESSIONS_IN_STATE)
      .forEach((k) => delete state.sessions[k]);
  }
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fsp.writeFile(tmp, JSON.stringify(state), { mode: 0o600 });
  await fsp.rename(tmp, file);
}

export interface UploadContext {
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
  /** Directory holding the plugin's per-agent state (extract-state.json). */
  stateDir: string;
}

export interface UploadResult {
  uploaded: number;
  requests: number;
  skipped?: "nothing-new" | "unsupported" | "refused";
  error?: string;
}

export interface UploaderOptions {
  privacyMode: PrivacyMode;
  requireApproval: boolean;
  submittedBy?: string;
  extract: (body: ExtractBody) => Promise<unknown>;
  logger: { info: (m: string) => void; warn: (m: string) => void; debug?: (m: string) => void };
  /** When set, uploads are refused with this reason (remote server without HTTPS). */
  refusedReason?: string;
}

export class ExtractionUploader {
  private chains = new Map<string, Promise<unknown>>();
  private inflight = new Set<Promise<unknown>>();
  private unsupportedLogged = false;
  constructor(private readonly opts: UploaderOptions) {}

  /** Starts an upload in the background (serialised per session) and returns at once. */
  schedule(ctx: UploadContext, messages: unknown[]): Promise<UploadResult> {
    const key = `${ctx.stateDir}\u0000${ctx.sessionKey ?? ctx.sessionId ?? "default"}`;
    const prev = this.chains.get(key) ?? Promise.resolve();
    const snapshot = messages.slice();
    const run = prev.then(() => this.upload(ctx, snapshot));
    const settled = run.catch((err: unknown): UploadResult => {
      this.opts.logger.warn(`knowhub: extraction upload failed: ${String(err)}`);
      return { uploaded: 0, requests: 0, error: String(err) };
    });
    this.chains.set(key, settled);
    this.inflight.add(settled);
    void settled.finally(() => {
      this.inflight.delete(settled);
      if (this.chains.get(key) === settled) this.chains.delete(key);
    });
    return settled;
  }

  /** Waits (bounded) for background uploads; used by tests and on shutdown. */
  async flush(timeoutMs = 10_000): Promise<void> {
    const all = Promise.allSettled([...this.inflight]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    if (timer) clearTimeout(timer);
  }

  get pending(): number {
    return this.inflight.size;
  }

  async upload(ctx: UploadContext, messages: unknown[]): Promise<UploadResult> {
    if (this.opts.refusedReason) {
      this.opts.logger.warn(`knowhub: ${this.opts.refusedReason}`);
      return { uploaded: 0, requests: 0, skipped: "refused" };
    }
    const sessionKey = ctx.sessionKey ?? ctx.sessionId ?? "default";
    const stateFile = path.join(ctx.stateDir, "extract-state.json");
    const state = await loadState(stateFile);
    const prev = state.sessions[sessionKey];
    const fps = fingerprintMessages(messages);

    // Which history positions are new?
    let fresh: number[];
    if (!prev || (ctx.sessionId && prev.sessionId && prev.sessionId !== ctx.sessionId)) {
      fresh = messages.map((_m, i) => i); // first upload for this session, or the session was reset
    } else if (messages.length >= prev.count) {
      fresh = messages.map((_m, i) => i).filter((i) => i >= prev.count); // history grew: the tail is new
    } else {
      const known = new Set(prev.uploaded); // history was rewritten (compaction): compare content
      fresh = messages.map((_m, i) => i).filter((i) => !known.has(fps[i]!));
    }

    const markDone = async (uptoCount: number, indexes: number[]) => {
      const s = await loadState(stateFile);
      const before = s.sessions[sessionKey];
      const keepOld = before && (!ctx.sessionId || !before.sessionId || before.sessionId === ctx.sessionId) ? before.uploaded : [];
      const merged = [...new Set([...keepOld, ...indexes.map((i) => fps[i]!)])].slice(-MAX_FINGERPRINTS_PER_SESSION);
      s.sessions[sessionKey] = {
        sessionId: ctx.sessionId ?? before?.sessionId,
        count: uptoCount,
        uploaded: merged,
        updatedAt: new Date().toISOString(),
      };
      await saveState(stateFile, s);
    };

    if (fresh.length === 0) {
      if (!prev || prev.count !== messages.length) await markDone(messages.length, []);
      return { uploaded: 0, requests: 0, skipped: "nothing-new" };
    }
    const sendable = fresh
      .map((i) => ({ i, msg: convertMessage(messages[i]) }))
      .filter((f): f is { i: number; msg: UploadMessage } => f.msg !== undefined)
      .map((f) => ({ i: f.i, msg: sanitiseMessage(f.msg, this.opts.privacyMode) }));
    if (sendable.length === 0) {
      await markDone(messages.length, fresh);
      return { uploaded: 0, requests: 0, skipped: "nothing-new" };
    }

    let count = 0;
    let requests = 0;
    const chunks = chunkMessages(sendable);
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c]!;
      const body: ExtractBody = {
        messages: chunk.map((x) => x.msg),
        require_approval: this.opts.requireApproval,
        privacy_mode: this.opts.privacyMode,
        source: "openclaw",
      };
      if (ctx.agentId) body.agent_id = ctx.agentId.slice(0, 200);
      if (this.opts.submittedBy) body.submitted_by = this.opts.submittedBy;
      if (ctx.sessionKey) body.session_key = ctx.sessionKey.slice(0, 200);
      if (ctx.sessionId) body.session_id = ctx.sessionId.slice(0, 200);
      try {
        await this.opts.extract(body);
      } catch (err) {
        if (err instanceof KnowHubError && (err.status === 404 || err.status === 405)) {
          if (!this.unsupportedLogged) {
            this.unsupportedLogged = true;
            this.opts.logger.warn(
              "knowhub: the KnowHub server does not support POST /api/extract (HTTP " +
                `${err.status}); conversation extraction is skipped. Upgrade the server or set enableServerExtraction: false.`,
            );
          }
          return { uploaded: count, requests, skipped: "unsupported", error: err.message };
        }
        this.opts.logger.warn(`knowhub: extraction upload failed (will retry with the next turn): ${String((err as Error).message ?? err)}`);
        return { uploaded: count, requests, error: String((err as Error).message ?? err) };
      }
      requests += 1;
      count += chunk.length;
      const last = c === chunks.length - 1;
      const upto = last ? messages.length : chunk[chunk.length - 1]!.i + 1;
      await markDone(upto, last ? fresh : fresh.filter((i) => i < upto));
    }
    this.opts.logger.info(`knowhub: uploaded ${count} new message(s) for extraction (session ${sessionKey})`);
    return { uploaded: count, requests };
  }
}
