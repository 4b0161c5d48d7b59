// HTTP client for the KnowHub server (docs/api.md). Every call is bounded by timeoutMs and the
// caller's AbortSignal, and every failure becomes a KnowHubError that says whether retrying later
// can help (server down/slow/5xx/auth) or not (the request itself is invalid).

import type { ExperienceRecord } from "./format.js";

export const PLUGIN_VERSION = "0.1.0";
export const USER_AGENT = `knowhub-openclaw/${PLUGIN_VERSION}`;

export type KnowHubErrorKind = "unreachable" | "timeout" | "aborted" | "http" | "protocol";

export class KnowHubError extends Error {
  readonly kind: KnowHubErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly field?: string;
  constructor(kind: KnowHubErrorKind, message: string, extra: { status?: number; code?: string; field?: string } = {}) {
    super(message);
    this.name = "KnowHubError";
    this.kind = kind;
    this.status = extra.status;
    this.code = extra.code;
    this.field = extra.field;
  }

  /** True when the same request may succeed later (server down, slow, overloaded, auth fixed). */
  get retryable(): boolean {
    if (this.kind === "unreachable" || this.kind === "timeout") return true;
    if (this.kind === "http" && this.status !== undefined) {
      return this.status >= 500 || this.status === 408 || this.status === 429 || this.status === 401 || this.status === 403;
    }
    return false;
  }

  /** True when the server could not be reached at all (or did not answer in time). */
  get unavailable(): boolean {
    return this.kind === "unreachable" || this.kind === "timeout" || (this.kind === "http" && (this.status ?? 0) >= 500);
  }
}

export interface SearchParams {
  q: string;
  top_k?: number;
  min_score?: number;
  /** Calibrated relevance floor (0-1); omitted = the server's default. */
  min_relevance?: number;
  agent_id?: string;
}

export interface SearchResponse {
  count: number;
  mode?: string;
  results: ExperienceRecord[];
}

export interface SubmitBody {
  task: string;
  resource: string;
  result: string;
  score?: number;
  outcome?: "success" | "failure" | "partial";
  submitted_by?: string;
  agent_id?: string;
  session_key?: string;
  timestamp?: string;
  content?: string;
  content_type?: string;
  /** Version of the resource the experience is about, e.g. "vitest 3.2". */
  resource_version?: string;
}

export interface SubmitResponse {
  id: string;
  status?: string;
  duplicate_of?: string;
  confirmations?: number;
  /** Records with the same task and resource that report the opposite outcome. */
  contested_with?: string[];
  flags?: string[];
  /** What the server redacted itself, by kind. */
  redactions?: Record<string, number>;
  /** The pending proposal holding content sent for an already reviewed record. */
  content_proposal?: string;
  /** HTTP status: 201 new record, 200 duplicate of an existing one. */
  httpStatus: number;
}

export interface ContentResponse {
  experience_id: string;
  content: string;
  content_type?: string;
}

export const FEEDBACK_OUTCOMES = ["helped", "failed", "irrelevant"] as const;
export type FeedbackOutcome = (typeof FEEDBACK_OUTCOMES)[number];

export interface FeedbackBody {
  id: string;
  outcome: FeedbackOutcome;
  note?: string;
  agent_id?: string;
}

export interface FeedbackResponse {
  id: string;
  outcome: FeedbackOutcome;
  /** Whose vote this is: the API key's owner with auth, else agent_id. */
  voter?: string;
  feedback?: { helped?: number; failed?: number; irrelevant?: number };
  disputed?: boolean;
}

export interface ExtractBody {
  messages: unknown[];
  agent_id?: string;
  submitted_by?: string;
  session_key?: string;
  session_id?: string;
  require_approval: boolean;
  privacy_mode: string;
  source: string;
}

export interface ClientOptions {
  apiUrl: string;
  apiKey?: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
}

function describeNetworkError(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const code = e?.cause?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ECONNRESET") return "connection reset";
  if (code) return code;
  return e?.cause?.message || e?.message || String(err);
}

export class KnowHubClient {
  readonly apiUrl: string;
  private readonly apiKey?: string;
  readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: ClientOptions) {
    this.apiUrl = opts.apiUrl.replace(/\/+$/, "");
    this.apiKey = opts.apiKey;
    this.timeoutMs = opts.timeoutMs;
    this.fetchImpl = opts.fetchImpl ?? fetch;
  }

  private async request<T>(
    method: "GET" | "POST",
    path: string,
    opts: { body?: unknown; signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<{ status: number; data: T }> {
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    timer.unref?.();
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
    const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const url = `${this.apiUrl}${path}`;
    try {
      let res: Response;
      try {
        res = await this.fetchImpl(url, {
          method,
          headers,
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
          signal,
        });
      } catch (err) {
        if (timeout.signal.aborted) {
          throw new KnowHubError("timeout", `KnowHub server at ${this.apiUrl} did not answer within ${timeoutMs} ms`);
        }
        if (opts.signal?.aborted) throw new KnowHubError("aborted", "request to KnowHub was cancelled");
        throw new KnowHubError("unreachable", `KnowHub server at ${this.apiUrl} is unreachable (${describeNetworkError(err)})`);
      }
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        if (timeout.signal.aborted) {
          throw new KnowHubError("timeout", `KnowHub server at ${this.apiUrl} did not answer within ${timeoutMs} ms`);
        }
        throw new KnowHubError("unreachable", `KnowHub response was cut off (${describeNetworkError(err)})`);
      }
      let data: unknown = undefined;
      if (text) {
        try {
          data = JSON.parse(text);
        } catch {
          data = undefined;
        }
      }
      if (!res.ok) {
        const errObj = (data as { error?: { code?: string; message?: string; field?: string } } | undefined)?.error;
        const message = errObj?.message || text.slice(0, 200) || res.statusText || "request failed";
        throw new KnowHubError("http", `KnowHub ${method} ${path.split("?")[0]} failed: HTTP ${res.status}${errObj?.code ? ` ${errObj.code}` : ""}: ${message}`, {
          status: res.status,
          code: errObj?.code,
          field: errObj?.field,
        });
      }
      if (data === undefined) {
        throw new KnowHubError("protocol", `KnowHub ${method} ${path.split("?")[0]} returned a non-JSON body (HTTP ${res.status})`);
      }
      return { status: res.status, data: data as T };
    } finally {
      clearTimeout(timer);
    }
  }

  async search(params: SearchParams, signal?: AbortSignal, timeoutMs?: number): Promise<SearchResponse> {
    const qs = new URLSearchParams({ q: params.q });
    if (params.top_k !== undefined) qs.set("top_k", String(params.top_k));
    if (params.min_score !== undefined) qs.set("min_score", String(params.min_score));
    if (params.min_relevance !== undefined) qs.set("min_relevance", String(params.min_relevance));
    if (params.agent_id) qs.set("agent_id", params.agent_id);
    const { data } = await this.request<SearchResponse>("GET", `/api/search?${qs.toString()}`, { signal, timeoutMs });
    if (!data || !Array.isArray(data.results)) {
      throw new KnowHubError("protocol", "KnowHub /api/search returned no results array");
    }
    return { count: typeof data.count === "number" ? data.count : data.results.length, mode: data.mode, results: data.results };
  }

  async submit(body: SubmitBody, signal?: AbortSignal): Promise<SubmitResponse> {
    const { status, data } = await this.request<Omit<SubmitResponse, "httpStatus">>("POST", "/api/submit", { body, signal });
    if (!data || typeof data.id !== "string") throw new KnowHubError("protocol", "KnowHub /api/submit returned no id");
    return { ...data, httpStatus: status };
  }

  async feedback(body: FeedbackBody, signal?: AbortSignal): Promise<FeedbackResponse> {
    const { data } = await this.request<FeedbackResponse>("POST", "/api/feedback", { body, signal });
    if (!data || typeof data.id !== "string") throw new KnowHubError("protocol", "KnowHub /api/feedback returned no id");
    return data;
  }

  async content(experienceId: string, signal?: AbortSignal): Promise<ContentResponse> {
    const { data } = await this.request<ContentResponse>("GET", `/api/content/${encodeURIComponent(experienceId)}`, { signal });
    if (!data || typeof data.content !== "string") throw new KnowHubError("protocol", "KnowHub /api/content returned no content");
    return data;
  }

  async extract(body: ExtractBody, signal?: AbortSignal, timeoutMs?: number): Promise<unknown> {
    const { data } = await this.request<unknown>("POST", "/api/extract", { body, signal, timeoutMs });
    return data;
  }

  async health(signal?: AbortSignal): Promise<unknown> {
    const { data } = await this.request<unknown>("GET", "/healthz", { signal });
    return data;
  }
}
