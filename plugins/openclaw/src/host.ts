// The slice of the OpenClaw plugin API (2026.9.x) that this plugin uses, written structurally
// so the plugin builds and unit-tests without the 600+ MB `openclaw` package. The end-to-end
// test (scripts/plugin-e2e.sh) type-checks src/ against the real `openclaw/plugin-sdk` types,
// which proves the real API is assignable to these shapes.

export interface HostLogger {
  debug?: (message: string) => void;
  info: (message: string) => void;
  warn: (message: string) => void;
  error: (message: string) => void;
}

/** Context handed to a tool factory (`api.registerTool((ctx) => tool)`). */
export interface ToolContext {
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
  workspaceDir?: string;
  agentDir?: string;
  /** True for one-shot `openclaw agent --local` runs: do not keep the process alive. */
  oneShotCliRun?: boolean;
}

/** Context handed to agent hooks (before_prompt_build, agent_end, llm_input, ...). */
export interface HookContext {
  runId?: string;
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
  workspaceDir?: string;
  trigger?: string;
}

export interface TextPart {
  type: "text";
  text: string;
}

export interface ToolResult {
  content: TextPart[];
  details: unknown;
}

export interface ToolDefinition {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Keep the tool model-visible: Tool Search hides plugin tools otherwise. */
  catalogMode?: "direct-only";
  /** The result carries externally controlled (network) content. */
  resultContentSource?: "network";
  execute: (toolCallId: string, params: unknown, signal?: AbortSignal) => Promise<ToolResult>;
}

export interface BeforePromptBuildEvent {
  prompt: string;
  currentUserMessage?: string;
  messages: unknown[];
}

export interface PromptBuildResult {
  prependContext?: string;
  appendContext?: string;
  prependSystemContext?: string;
  appendSystemContext?: string;
}

export interface AgentEndEvent {
  runId?: string;
  messages: unknown[];
  success: boolean;
  error?: string;
  durationMs?: number;
}

export interface ModelCallStartedEvent {
  runId: string;
  callId: string;
  sessionKey?: string;
  sessionId?: string;
}

export interface LlmInputEvent {
  runId: string;
  sessionId: string;
  prompt: string;
  historyMessages: unknown[];
}

export interface BeforeCompactionEvent {
  messageCount: number;
  messages?: unknown[];
  sessionFile?: string;
}

export interface SessionEndEvent {
  sessionId: string;
  sessionKey?: string;
  reason?: string;
}

export interface SessionEndContext {
  agentId?: string;
  sessionId: string;
  sessionKey?: string;
}

export interface HookOptions {
  priority?: number;
  timeoutMs?: number;
}

/** The host API passed to `register(api)`. */
export interface HostApi {
  id: string;
  registrationMode?: string;
  pluginConfig?: Record<string, unknown>;
  config?: unknown;
  logger: HostLogger;
  runtime?: {
    agent?: {
      resolveAgentDir?(cfg: never, agentId: string): string;
    };
  };
  registerTool(factory: (ctx: ToolContext) => ToolDefinition | null | undefined, opts?: { name?: string }): void;
  on(
    hookName: "before_prompt_build",
    handler: (
      event: BeforePromptBuildEvent,
      ctx: HookContext,
    ) => Promise<PromptBuildResult | void> | PromptBuildResult | void,
    opts?: HookOptions,
  ): void;
  on(
    hookName: "agent_end",
    handler: (event: AgentEndEvent, ctx: HookContext) => Promise<void> | void,
    opts?: HookOptions,
  ): void;
  on(
    hookName: "model_call_started",
    handler: (event: ModelCallStartedEvent, ctx: HookContext) => Promise<void> | void,
    opts?: HookOptions,
  ): void;
  on(
    hookName: "llm_input",
    handler: (event: LlmInputEvent, ctx: HookContext) => Promise<void> | void,
    opts?: HookOptions,
  ): void;
  on(
    hookName: "before_compaction",
    handler: (event: BeforeCompactionEvent, ctx: HookContext) => Promise<void> | void,
    opts?: HookOptions,
  ): void;
  on(
    hookName: "session_end",
    handler: (event: SessionEndEvent, ctx: SessionEndContext) => Promise<void> | void,
    opts?: HookOptions,
  ): void;
}
