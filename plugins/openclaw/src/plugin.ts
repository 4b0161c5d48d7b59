// Wires config, tools and hooks into the OpenClaw plugin API. Kept free of any import from the
// `openclaw` package so that it can be unit-tested with a fake host (see test/).

import { ConfigError, resolveConfig } from "./config.js";
import type { HostApi } from "./host.js";
import { createHookHandlers } from "./hooks.js";
import { globalSharedState, KnowHubRuntime, type SharedState } from "./runtime.js";
import { createTools, TOOL_NAMES } from "./tools.js";

export const PLUGIN_ID = "knowhub";
export const PLUGIN_NAME = "KnowHub";
export const PLUGIN_DESCRIPTION =
  "Search and share agent experiences (task, resource, result, 1-5 score) through a self-hosted KnowHub server.";

export interface RegisterOptions {
  /** Shared state (tests inject a fresh one; the host uses the process-wide one). */
  shared?: SharedState;
  fetchImpl?: typeof fetch;
}

/**
 * The body of `register(api)`: synchronous and side-effect free apart from registrations
 * (OpenClaw calls it several times per process). Throws ConfigError on an invalid config.
 */
export function registerKnowHub(api: HostApi, opts: RegisterOptions = {}): KnowHubRuntime {
  const shared = opts.shared ?? globalSharedState();
  let resolved;
  try {
    resolved = resolveConfig(api.pluginConfig);
  } catch (err) {
    if (err instanceof ConfigError) api.logger.error(err.message);
    throw err;
  }
  const rt = new KnowHubRuntime(api, resolved.config, api.logger, shared, {
    fetchImpl: opts.fetchImpl,
    extractionRefused: resolved.extractionRefused,
  });
  for (const w of resolved.warnings) rt.warnOnce(`config:${w}`, `knowhub: ${w}`);
  if (resolved.extractionRefused) rt.warnOnce("config:extraction-refused", `knowhub: ${resolved.extractionRefused}`);

  for (const name of TOOL_NAMES) {
    api.registerTool((ctx) => createTools(rt, ctx ?? {}).find((t) => t.name === name), { name });
  }

  const h = createHookHandlers(rt);
  api.on("before_prompt_build", h.beforePromptBuild);
  api.on("model_call_started", h.modelCallStarted);
  api.on("agent_end", h.agentEnd);
  api.on("llm_input", h.llmInput);
  api.on("before_compaction", h.beforeCompaction);
  api.on("session_end", h.sessionEnd);
  return rt;
}
