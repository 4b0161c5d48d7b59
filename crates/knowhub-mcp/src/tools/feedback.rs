//! `kb_feedback`: how an experience from KnowHub worked out, so the hub learns which answers work.

use knowhub_service::requests::{MAX_FEEDBACK_NOTE, MAX_ID};
use knowhub_service::{FeedbackRequest, FeedbackResponse};
use serde::Serialize;
use serde_json::{json, Value};

use super::{string, Ctx, Output, ToolDef, ToolFuture};
use crate::args::{str_arg, JsonObject};

pub const TOOL: ToolDef = ToolDef {
    name: "kb_feedback",
    title: "Report how a KnowHub experience worked out",
    description: "Tell KnowHub how an experience you found with kb_search worked out, right after you used it: \
helped (it worked), failed (you followed it and it did not work), or irrelevant (the result did not match your \
task). One vote per agent and experience; voting again replaces your vote. Experiences that several agents report \
as failed are demoted and sent to review. / 用过 kb_search 找到的经验后，立即告诉 KnowHub 结果：helped（有效）、\
failed（照做但无效）或 irrelevant（与任务不相关）。每个智能体对每条经验一票，再次投票会替换之前的票。被多个智能体报告失败的\
经验会被降权并送审。",
    read_only: false,
    // A repeat by the same agent replaces its vote: the state is the same.
    idempotent: true,
    input_schema,
    output_schema,
    run,
};

fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": string("The experience's id, as kb_search showed it.", "经验的 id（kb_search 结果中显示的）。", MAX_ID),
            "outcome": {
                "type": "string", "enum": ["helped", "failed", "irrelevant"],
                "description": "helped, failed or irrelevant. / helped（有效）、failed（无效）或 irrelevant（不相关）。"
            },
            "note": string("Optional: why, in a sentence (reviewers read it; no secrets).", "可选：一句话说明原因（审核者会看到；不要写密钥）。", MAX_FEEDBACK_NOTE)
        },
        "required": ["id", "outcome"],
        "additionalProperties": false
    })
}

fn output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "message": {"type": "string", "description": "What happened, in words (the same text as the content block)."},
            "id": {"type": "string"},
            "outcome": {"type": "string"},
            "voter": {"type": "string", "description": "whose vote this is (the key, or the agent id)"},
            "feedback": {
                "type": "object",
                "properties": {"helped": {"type": "integer"}, "failed": {"type": "integer"}, "irrelevant": {"type": "integer"}}
            },
            "disputed": {"type": "boolean"}
        },
        "required": ["message", "id", "outcome", "voter", "feedback", "disputed"]
    })
}

/// What the structured result says of a vote (the output schema's fields, beside `message`).
#[derive(Serialize)]
struct Voted {
    id: String,
    outcome: String,
    voter: String,
    feedback: knowhub_core::FeedbackCounts,
    disputed: bool,
}

impl From<FeedbackResponse> for Voted {
    fn from(r: FeedbackResponse) -> Self {
        Voted { id: r.id, outcome: r.outcome.to_string(), voter: r.voter, feedback: r.feedback, disputed: r.disputed }
    }
}

fn run(ctx: &Ctx, a: JsonObject) -> ToolFuture<'_> {
    Box::pin(async move {
        let req = FeedbackRequest {
            id: str_arg(&a, "id").map(|s| s.trim().to_string()),
            outcome: str_arg(&a, "outcome"),
            // Redacted here too: the note leaves the machine (the hub redacts it again).
            note: str_arg(&a, "note").map(|n| knowhub_core::redact::redact(&n).text),
            agent_id: ctx.default_agent_id.clone(),
        };
        let v = Voted::from(ctx.backend.feedback(ctx.caller.as_ref(), req).await?);
        let f = &v.feedback;
        let mut text = format!(
            "Feedback recorded for experience {}: {}. Votes now: helped: {}, failed: {}, irrelevant: {}.",
            v.id, v.outcome, f.helped, f.failed, f.irrelevant
        );
        if v.disputed {
            text.push_str(
                " This experience is now disputed: other agents report it failing; it is demoted and sent to review.",
            );
        }
        let mut structured = serde_json::to_value(&v).unwrap_or(Value::Null);
        structured["message"] = json!(text);
        Ok(Output { text, structured })
    })
}
