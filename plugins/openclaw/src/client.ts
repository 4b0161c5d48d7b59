// The plugin's view of the KnowHub server (docs/api.md): the calls it makes, over the shared
// TypeScript client (@knowhub/client, clients/typescript), which does the HTTP. Every call is
// bounded by timeoutMs and the caller's AbortSignal, and every failure becomes a KnowHubError that
// says whether retrying later can help (server down/slow/5xx/auth) or not (the request itself is
// invalid).

import { FEEDBACK_OUTCOMES, KnowHubClient as HttpClient, KnowHubError, type KnowHubErrorKind } from "@knowhub/client";
import type { ExperienceRecord } from "./format.js";

export { FEEDBACK_OUTCOMES, KnowHubError, type KnowHubErrorKind };

export const PLUGIN_VERSION = "0.1.0";
export const USER_AGENT = `knowhub-openclaw/${PLUGIN_VERSION}`;

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

/** A resource's playbook: the fields the plugin reads (see docs/api.md). */
export interface PlaybookResponse {
  resource: string;
  kind?: string;
  experiences?: number;
  omitted?: number;
  tokens?: number;
  lines: { section: string; text: string; ids: string[] }[];
  /** Framed and escaped by the server; checked again by `safePlaybookText` before a model reads it. */
  text: string;
}

export interface ClientOptions {
  apiUrl: string;
  apiKey?: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
}

/**
 * The calls the plugin makes, with the signatures its tools, hooks and queue use. The answers are
 * typed by the plugin's interfaces above: the fields it reads, each optional, so that an older or
 * newer server that leaves one out still works.
 */
export class KnowHubClient {
  readonly apiUrl: string;
  readonly timeoutMs: number;
  private readonly http: HttpClient;

  constructor(opts: ClientOptions) {
    this.http = new HttpClient({ url: opts.apiUrl, apiKey: opts.apiKey, timeoutMs: opts.timeoutMs, fetch: opts.fetchImpl, userAgent: USER_AGENT });
    this.apiUrl = this.http.url;
    this.timeoutMs = opts.timeoutMs;
  }

  async search(params: SearchParams, signal?: AbortSignal, timeoutMs?: number): Promise<SearchResponse> {
    const { q, top_k, min_score, min_relevance } = params;
    const data = await this.http.search({ q, top_k, min_score, min_relevance, agent_id: params.agent_id || undefined }, { signal, timeoutMs });
    return { count: typeof data.count === "number" ? data.count : data.results.length, mode: data.mode, results: data.results as ExperienceRecord[] };
  }

  async submit(body: SubmitBody, signal?: AbortSignal): Promise<SubmitResponse> {
    return (await this.http.submit(body, { signal })) as SubmitResponse;
  }

  async feedback(body: FeedbackBody, signal?: AbortSignal): Promise<FeedbackResponse> {
    return (await this.http.feedback(body, { signal })) as FeedbackResponse;
  }

  async content(experienceId: string, signal?: AbortSignal): Promise<ContentResponse> {
    return (await this.http.content(experienceId, { signal })) as ContentResponse;
  }

  async playbook(resource: string, budget: number | undefined, signal?: AbortSignal, timeoutMs?: number): Promise<PlaybookResponse> {
    return (await this.http.playbook(resource, { budget }, { signal, timeoutMs })) as PlaybookResponse;
  }

  async extract(body: ExtractBody, signal?: AbortSignal, timeoutMs?: number): Promise<unknown> {
    return this.http.extract(body, {}, { signal, timeoutMs });
  }

  async health(signal?: AbortSignal): Promise<unknown> {
    return this.http.health({ signal });
  }
}
