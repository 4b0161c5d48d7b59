// Per-registration runtime (config, client, uploader) plus the process-wide shared state that
// must survive OpenClaw calling register() several times per process: session counters, the
// "did our prompt hook ever run" flag, queues (one timer per directory) and captured history.

import os from "node:os";
import path from "node:path";
import type { KnowHubConfig } from "./config.js";
import { isSecureTransport } from "./config.js";
import { KnowHubClient } from "./client.js";
import { ExtractionUploader, type UploadResult } from "./extraction.js";
import type { HostApi, HostLogger } from "./host.js";
import { SessionTracker } from "./hooks.js";
import { SubmitQueue } from "./queue.js";

export interface SharedState {
  sessions: SessionTracker;
  /** Set the first time before_prompt_build runs in this process. */
  promptHookSeen: boolean;
  hooksHintLogged: boolean;
  warned: Set<string>;
  queues: Map<string, SubmitQueue>;
  history: Map<string, { messages: unknown[]; at: number }>;
}

export function createSharedState(): SharedState {
  return {
    sessions: new SessionTracker(),
    promptHookSeen: false,
    hooksHintLogged: false,
    warned: new Set(),
    queues: new Map(),
    history: new Map(),
  };
}

const SHARED_KEY = Symbol.for("knowhub.openclaw-plugin.shared-state");

/** The process-wide shared state (kept on globalThis so a re-loaded module sees it too). */
export function globalSharedState(): SharedState {
  const g = globalThis as unknown as Record<symbol, SharedState | undefined>;
  let s = g[SHARED_KEY];
  if (!s) {
    s = createSharedState();
    g[SHARED_KEY] = s;
  }
  return s;
}

export const HOOKS_HINT =
  "knowhub: the KnowHub tools are being used but the plugin's conversation hooks never ran in this process, " +
  "so there are no reminders, auto-recall or extraction uploads. OpenClaw skips these hooks silently for " +
  "non-bundled plugins unless you set plugins.entries.knowhub.hooks.allowConversationAccess: true " +
  "(and do not set hooks.allowPromptInjection: false). See the plugin README.";

const MAX_HISTORY_SESSIONS = 50;

export interface AgentLocation {
  agentId?: string;
  agentDir?: string;
  workspaceDir?: string;
}

export class KnowHubRuntime {
  readonly client: KnowHubClient;
  readonly uploader: ExtractionUploader;

  constructor(
    readonly api: Pick<HostApi, "config" | "runtime">,
    readonly config: KnowHubConfig,
    readonly logger: HostLogger,
    readonly shared: SharedState,
    opts: { fetchImpl?: typeof fetch; extractionRefused?: string } = {},
  ) {
    this.client = new KnowHubClient({
      apiUrl: config.apiUrl,
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
      fetchImpl: opts.fetchImpl,
    });
    this.uploader = new ExtractionUploader({
      privacyMode: config.privacyMode,
      requireApproval: config.requireApproval,
      submittedBy: config.submittedBy || undefined,
      extract: (body) => this.client.extract(body, undefined, Math.max(config.timeoutMs, 15_000)),
      logger,
      refusedReason:
        opts.extractionRefused ??
        (isSecureTransport(config.apiUrl)
          ? undefined
          : `conversation upload refused: ${config.apiUrl} is a remote server without HTTPS`),
    });
  }

  private readonly background = new Set<Promise<unknown>>();

  /** Tracks a background promise so that agent_end can let it finish before a CLI process exits. */
  track<T>(p: Promise<T>): Promise<T> {
    const settled = p.catch(() => undefined);
    this.background.add(settled);
    void settled.finally(() => this.background.delete(settled));
    return p;
  }

  /** Waits (at most maxWaitMs) for tracked background work: queue replays and uploads. */
  async settleBackground(maxWaitMs: number): Promise<void> {
    if (this.background.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.background]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxWaitMs);
        timer.unref?.();
      }),
    ]);
    if (timer) clearTimeout(timer);
  }

  /** Logs a message once per process. */
  warnOnce(key: string, message: string): void {
    if (this.shared.warned.has(key)) return;
    this.shared.warned.add(key);
    this.logger.warn(message);
  }

  /**
   * Directory for the plugin's per-agent state (queue, extraction watermarks): <agentDir>/knowhub,
   * where agentDir is the agent's OpenClaw state dir (e.g. ~/.openclaw/agents/main/agent).
   */
  stateDirFor(loc: AgentLocation): string {
    if (loc.agentDir) return path.join(loc.agentDir, "knowhub");
    const agentId = loc.agentId || "main";
    try {
      const resolve = this.api.runtime?.agent?.resolveAgentDir;
      if (typeof resolve === "function") {
        const dir = resolve.call(this.api.runtime?.agent, this.api.config as never, agentId);
        if (typeof dir === "string" && dir) return path.join(dir, "knowhub");
      }
    } catch {
      // fall through
    }
    if (loc.workspaceDir) return path.join(loc.workspaceDir, ".knowhub");
    return path.join(os.homedir(), ".openclaw", "knowhub", agentId.replace(/[^A-Za-z0-9._-]/g, "_"));
  }

  queueFor(loc: AgentLocation): SubmitQueue {
    const dir = path.join(this.stateDirFor(loc), "queue");
    let q = this.shared.queues.get(dir);
    if (!q) {
      q = new SubmitQueue(dir);
      this.shared.queues.set(dir, q);
    }
    return q;
  }

  private submitFn = (body: Parameters<KnowHubClient["submit"]>[0]) => this.client.submit(body);

  /** Replays the agent's queue in the background when it has items. Never throws, never blocks. */
  replayQueueInBackground(loc: AgentLocation): void {
    let q: SubmitQueue;
    try {
      q = this.queueFor(loc);
      if (q.pendingCountSync() === 0) return;
    } catch {
      return;
    }
    this.track(
      q
        .replay(this.submitFn, this.logger)
        .then((r) => {
          if (r.remaining > 0 && !r.busy) q.scheduleReplay(this.submitFn, this.logger);
        })
        .catch((err) => this.logger.warn(`knowhub: queue replay failed: ${String(err)}`)),
    );
  }

  /** Schedules a timer-driven replay (after an enqueue). */
  scheduleReplay(loc: AgentLocation): void {
    this.queueFor(loc).scheduleReplay(this.submitFn, this.logger);
  }

  /** Logs the allowConversationAccess hint when tools run but our hooks never did. */
  checkHooksHint(): void {
    const needsHooks = this.config.reminderMode !== "off" || this.config.autoRecall || this.config.enableServerExtraction;
    if (!needsHooks || this.shared.promptHookSeen || this.shared.hooksHintLogged) return;
    this.shared.hooksHintLogged = true;
    this.logger.warn(HOOKS_HINT);
  }

  rememberHistory(sessionKey: string, messages: unknown[]): void {
    this.shared.history.delete(sessionKey);
    this.shared.history.set(sessionKey, { messages: messages.slice(), at: Date.now() });
    while (this.shared.history.size > MAX_HISTORY_SESSIONS) {
      const oldest = this.shared.history.keys().next().value;
      if (oldest === undefined) break;
      this.shared.history.delete(oldest);
    }
  }

  recallHistory(sessionKey: string): unknown[] | undefined {
    return this.shared.history.get(sessionKey)?.messages;
  }

  forgetHistory(sessionKey: string): void {
    this.shared.history.delete(sessionKey);
  }

  /** Starts a background upload of the not-yet-uploaded messages; resolves when it is done. */
  uploadForExtraction(
    ctx: { agentId?: string; sessionKey?: string; sessionId?: string; workspaceDir?: string },
    messages: unknown[],
  ): Promise<UploadResult> {
    let stateDir: string;
    try {
      stateDir = this.stateDirFor({ agentId: ctx.agentId, workspaceDir: ctx.workspaceDir });
    } catch (err) {
      return Promise.resolve({ uploaded: 0, requests: 0, error: String(err) });
    }
    return this.track(
      this.uploader.schedule({ agentId: ctx.agentId, sessionKey: ctx.sessionKey, sessionId: ctx.sessionId, stateDir }, messages),
    );
  }
}
