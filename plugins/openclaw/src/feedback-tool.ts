// kb_feedback: the agent reports whether an experience it used helped, failed or did not match
// the task. The hub ranks on these votes (one per agent; a second replaces the first) and flags
// an experience that distinct agents report as failed as `disputed`.

import { FEEDBACK_OUTCOMES, KnowHubError, type FeedbackBody, type FeedbackOutcome } from "./client.js";
import type { ToolContext, ToolDefinition } from "./host.js";
import type { KnowHubRuntime } from "./runtime.js";
import { redactSensitiveInfo } from "./security.js";
import { asParams, charLength, experienceId, LIMITS, oneOf, optionalText, text, toolError, ToolInputError } from "./tool-args.js";

export function createFeedbackTool(rt: KnowHubRuntime, ctx: ToolContext, afterSuccess: () => void): ToolDefinition {
  const strict = rt.config.privacyMode === "strict";
  return {
    name: "kb_feedback",
    label: "KnowHub feedback",
    description:
      "Report how a KnowHub experience worked out, right after you used it: helped (it worked), failed (you followed it and it " +
      "did not work) or irrelevant (the hit did not match your task). Other agents then see the counts and failing experiences " +
      "rank lower. One vote per agent and experience; sending again replaces your vote.",
    catalogMode: "direct-only",
    parameters: {
      type: "object",
      properties: {
        id: { type: "string", maxLength: LIMITS.experienceId, description: "The id of the experience, as shown by kb_search or auto-recall." },
        outcome: {
          type: "string",
          enum: [...FEEDBACK_OUTCOMES],
          description: "helped: it worked for you; failed: you followed it and it did not work; irrelevant: it did not match your task.",
        },
        note: {
          type: "string",
          maxLength: LIMITS.note,
          description: "Optional: why, in one or two sentences (e.g. the error you got, or the version where it no longer works).",
        },
      },
      required: ["id", "outcome"],
      additionalProperties: false,
    },
    async execute(_toolCallId, params, signal) {
      rt.checkHooksHint();
      const p = asParams(params);
      const id = experienceId("kb_feedback", p, "id");
      const outcome = oneOf("kb_feedback", p, "outcome", FEEDBACK_OUTCOMES);
      if (!outcome) throw new ToolInputError(`kb_feedback: outcome is required (one of ${FEEDBACK_OUTCOMES.join(", ")})`);
      let note = optionalText("kb_feedback", p, "note", LIMITS.note);
      if (note !== undefined && strict) {
        note = redactSensitiveInfo(note);
        if (charLength(note) > LIMITS.note) throw new ToolInputError(`kb_feedback: note is too long after redaction (max ${LIMITS.note} characters)`);
      }

      const body: FeedbackBody = { id, outcome };
      if (note !== undefined) body.note = note;
      // Without an API key the hub keys the vote by agent_id: one vote per OpenClaw agent.
      if (ctx.agentId) body.agent_id = ctx.agentId.slice(0, LIMITS.id);

      let res;
      try {
        res = await rt.client.feedback(body, signal);
      } catch (err) {
        if (err instanceof KnowHubError && err.status === 404) {
          throw new Error(`kb_feedback: KnowHub has no experience with id ${id}. Use an id exactly as kb_search showed it.`);
        }
        if (err instanceof KnowHubError && err.status === 409) {
          throw new Error(
            `kb_feedback: experience ${id} is not approved (it is pending review or was rejected), so it takes no feedback. ` +
              "Continue with your task.",
          );
        }
        if (err instanceof KnowHubError && err.status === 400) {
          throw new Error(`kb_feedback: KnowHub rejected the feedback: ${err.message}${err.field ? ` (argument: ${err.field})` : ""}`);
        }
        throw toolError("kb_feedback", err, "The feedback was not recorded; continue with your task.");
      }
      afterSuccess();
      const c = res.feedback ?? {};
      const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
      const counts = `helped: ${n(c.helped)}, failed: ${n(c.failed)}, irrelevant: ${n(c.irrelevant)}`;
      const lines = [`Feedback recorded for experience ${id}: ${outcome}. Votes now: ${counts}.`];
      if (res.disputed === true) {
        lines.push(
          `This experience is ${outcome === "failed" ? "now " : ""}disputed: several agents report that it failed, so it ranks lower, is marked with a warning ` +
            "in search results and waits for a human review.",
        );
      }
      lines.push("Your vote replaces any earlier one of yours on this experience; no need to send it again.");
      return text(lines.join(" "), {
        id,
        outcome,
        voter: res.voter,
        feedback: res.feedback,
        disputed: Boolean(res.disputed),
      });
    },
  };
}
