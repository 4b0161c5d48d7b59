//! `kb_submit`: record what the agent learned, redacted before it leaves for the hub.

use knowhub_core::redact::redact;
use knowhub_service::requests::{
    SubmitRequest, MAX_AGENT_ID, MAX_CONTENT, MAX_CONTENT_TYPE, MAX_RESOURCE, MAX_RESULT, MAX_SCOPE, MAX_TASK,
    MAX_VERSION, SCORE,
};
use knowhub_service::SubmitResponse;
use serde::Serialize;
use serde_json::{json, Value};

use super::{integer, string, Ctx, Output, ToolDef, ToolFuture};
use crate::args::{int_arg, str_arg, JsonObject};

pub const TOOL: ToolDef = ToolDef {
    name: "kb_submit",
    title: "Record an experience in KnowHub",
    description: "Record an experience in KnowHub so other agents can reuse it: the task, the resource you used (tool, \
command, library, API, config), the result you observed and a 1-5 score. Submit after using a resource, whether it \
worked or not (failures are valuable: outcome=failure). Be specific and self-contained; secrets and personal data are \
redacted, but leave them out. / 把经验记录到 KnowHub，供其他智能体复用：任务、所用资源（工具、命令、库、API、配置）、观察到的\
结果和 1-5 分。用过某个资源后提交，无论成败（失败同样有价值：outcome=failure）。写具体、自成一体；密钥和个人信息会被脱敏，\
但请不要写进去。",
    read_only: false,
    // A second identical submit confirms the first instead of adding a record, but it does count.
    idempotent: false,
    input_schema,
    output_schema,
    run,
};

fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "task": string("What you were trying to achieve, self-contained (no 'this' or 'the above').", "你要完成的任务，自成一体（不要用“这个”“上面”）。", MAX_TASK),
            "resource": string("Exactly what you used: tool, command, library, API, setting, with versions and flags.", "具体用了什么：工具、命令、库、API、配置，带版本和参数。", MAX_RESOURCE),
            "result": string("What happened, with evidence: numbers, the error message, the fix, caveats.", "结果及证据：数字、错误信息、解决办法、注意事项。", MAX_RESULT),
            "score": integer("How useful the resource was for the task: 5 solved it cleanly, 3 helped with caveats, 1 did not work.", "该资源对任务有多大用处：5 干净地解决，3 有帮助但有限制，1 无效。", SCORE),
            "outcome": {
                "type": "string", "enum": ["success", "failure", "partial"],
                "description": "success (default), failure or partial. / 成功（默认）、失败或部分成功。"
            },
            "resource_version": string("The version of the resource this holds for, e.g. 3.2 (another version is another experience).", "经验适用的资源版本，例如 3.2（版本不同即为不同经验）。", MAX_VERSION),
            "content": string("Optional longer details in Markdown: steps, config, a short log excerpt; read later with kb_content.", "可选的详细内容（Markdown）：步骤、配置、简短日志；之后用 kb_content 读取。", MAX_CONTENT),
            "content_type": string("MIME type of content (default text/markdown).", "content 的 MIME 类型（默认 text/markdown）。", MAX_CONTENT_TYPE),
            "agent_id": string("Which agent is submitting (defaults to the one this server was started for).", "提交的智能体（默认为启动本服务时指定的）。", MAX_AGENT_ID),
            "submitted_by": string("Who is responsible for this agent, e.g. a team or an e-mail-free handle.", "该智能体的负责人，例如团队名。", MAX_AGENT_ID),
            "scope": string("Where to store it (org, team/<name>, project/<name>, private/<owner>), one your key may write; default: your key's write scope.", "存放的范围（org、team/<名称>、project/<名称>、private/<所有者>），须是你的密钥可写的；默认为密钥的写入范围。", MAX_SCOPE)
        },
        "required": ["task", "resource", "result"],
        "additionalProperties": false
    })
}

fn output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "message": {"type": "string", "description": "What happened, in words (the same text as the content block)."},
            "id": {"type": "string"},
            "status": {"type": "string", "description": "approved, or pending when a reviewer must approve it first"},
            "duplicate_of": {"type": "string", "description": "set when KnowHub already had this experience"},
            "confirmations": {"type": "integer"},
            "created": {"type": "boolean"}
        },
        "required": ["message", "id", "status", "confirmations", "created"]
    })
}

/// What the structured result says of a submit (the output schema's fields, beside `message`).
#[derive(Serialize)]
struct Submitted {
    id: String,
    status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    duplicate_of: Option<String>,
    confirmations: u32,
    /// The pending proposal holding content sent for an already reviewed record.
    #[serde(skip_serializing_if = "Option::is_none")]
    content_proposal: Option<String>,
    /// A new record, rather than a confirmation of an existing one.
    created: bool,
}

impl From<SubmitResponse> for Submitted {
    fn from(r: SubmitResponse) -> Self {
        Submitted {
            id: r.id,
            status: r.status.to_string(),
            duplicate_of: r.duplicate_of,
            confirmations: r.confirmations,
            content_proposal: r.content_proposal,
            created: r.created,
        }
    }
}

/// The text with secrets and personal data replaced (the plugin's strict privacy mode).
fn clean(v: Option<String>) -> Option<String> {
    v.map(|t| redact(&t).text)
}

fn run(ctx: &Ctx, a: JsonObject) -> ToolFuture<'_> {
    Box::pin(async move {
        let agent_id =
            str_arg(&a, "agent_id").filter(|s| !s.trim().is_empty()).or_else(|| ctx.default_agent_id.clone());
        let req = SubmitRequest {
            task: clean(str_arg(&a, "task")),
            resource: clean(str_arg(&a, "resource")),
            result: clean(str_arg(&a, "result")),
            score: int_arg(&a, "score"),
            outcome: str_arg(&a, "outcome"),
            content: clean(str_arg(&a, "content")),
            content_type: str_arg(&a, "content_type"),
            resource_version: str_arg(&a, "resource_version"),
            agent_id,
            submitted_by: str_arg(&a, "submitted_by"),
            scope: str_arg(&a, "scope"),
            ..Default::default()
        };
        let s = Submitted::from(ctx.backend.submit(ctx.caller.as_ref(), req).await?);
        let mut text = match (&s.duplicate_of, s.status.as_str()) {
            (Some(id), _) => format!(
                "KnowHub already had this experience (id: {id}); your submission counted as a confirmation (confirmations: {}).",
                s.confirmations
            ),
            (None, "pending") => {
                format!("Experience recorded in KnowHub (id: {}); it waits for a reviewer before others can find it.", s.id)
            }
            (None, _) => format!("Experience recorded in KnowHub (id: {}); other agents can find it now.", s.id),
        };
        // Our own words around an id-shaped value: the server's text does not reach the model.
        if let Some(p) = s.content_proposal.as_deref().filter(|p| knowhub_core::validate::id(p).is_ok()) {
            text.push_str(&format!(
                " Its content was not attached: that record was already reviewed, so the content waits for a reviewer (proposal {p})."
            ));
        }
        // The sentence goes in the structured content too: some hosts show the model only that.
        let mut structured = serde_json::to_value(&s).unwrap_or(Value::Null);
        structured["message"] = json!(text);
        Ok(Output { text, structured })
    })
}
