#!/usr/bin/env node
// Claude Code hook entry: `node knowhub-hook.mjs <SessionStart|UserPromptSubmit|Stop|PreCompact>`
// with the hook's JSON on stdin. Reminders go to stdout as additionalContext; uploads print
// nothing. Whatever happens (hub down, bad input, a bug) it exits 0 and writes problems to
// stderr only, so a KnowHub hiccup never breaks or confuses the session.

import { promptContext, readTranscript, sessionStartContext, settings, uploadTranscript } from "./lib/core.mjs";

async function readStdin() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  try {
    return JSON.parse(text || "{}");
  } catch {
    return {};
  }
}

function addContext(event, text) {
  if (text) process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }));
}

async function main() {
  const event = process.argv[2];
  const input = await readStdin();
  const cfg = settings();
  for (const p of cfg.problems) process.stderr.write(`knowhub: ${p}\n`);
  switch (event) {
    case "SessionStart":
      return addContext(event, sessionStartContext(cfg));
    case "UserPromptSubmit":
      return addContext(event, promptContext(cfg, readTranscript(input.transcript_path)));
    case "Stop":
    case "PreCompact":
      // A Stop hook that prints context continues the conversation: upload, print nothing.
      if (!cfg.upload || input.stop_hook_active) return;
      try {
        const r = await uploadTranscript(cfg, input);
        if (r.sent > 0) process.stderr.write(`knowhub: uploaded ${r.sent} message(s) for extraction\n`);
      } catch (e) {
        process.stderr.write(`knowhub: conversation upload skipped: ${e?.message ?? e}\n`);
      }
      return;
    default:
      process.stderr.write(`knowhub: unknown hook event ${JSON.stringify(event)}\n`);
  }
}

// exitCode, not exit(): stdout to a pipe is asynchronous on macOS, and exit() could cut it short.
main()
  .catch((e) => process.stderr.write(`knowhub: hook failed: ${e?.stack ?? e}\n`))
  .finally(() => {
    process.exitCode = 0;
  });
