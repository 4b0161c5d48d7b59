//! The tool table. Each tool is one [`ToolDef`] (name, descriptions, hand-written schemas, hints,
//! and the function that runs it); adding a tool is one module and one entry in [`TOOLS`].

mod content;
mod feedback;
mod playbook;
mod search;
mod submit;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use knowhub_core::Caller;
use knowhub_service::requests::IntRange;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use serde_json::{json, Value};

use crate::args::{self, ArgError};
use crate::backend::Backend;

/// Every tool the server offers, in the order clients list them.
pub const TOOLS: &[ToolDef] = &[search::TOOL, submit::TOOL, content::TOOL, feedback::TOOL, playbook::TOOL];

/// What a tool call runs with.
pub struct Ctx {
    pub backend: Arc<dyn Backend>,
    /// The authenticated caller (HTTP); `None` over stdio, where the REST client holds the key.
    pub caller: Option<Caller>,
    /// Stamped on submits that name no agent: `knowhub mcp --agent-id`, or `/mcp?agent_id=`.
    pub default_agent_id: Option<String>,
}

/// A tool's answer: text for the model and the matching structured content.
pub struct Output {
    pub text: String,
    pub structured: Value,
}

/// Why a call failed; each becomes a tool error (`isError: true`) the model can read and act on.
pub enum Failure {
    Arg(ArgError),
    Backend(knowhub_client::Error),
}

impl From<ArgError> for Failure {
    fn from(e: ArgError) -> Self {
        Failure::Arg(e)
    }
}

impl From<knowhub_client::Error> for Failure {
    fn from(e: knowhub_client::Error) -> Self {
        Failure::Backend(e)
    }
}

pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = Result<Output, Failure>> + Send + 'a>>;

pub struct ToolDef {
    pub name: &'static str,
    pub title: &'static str,
    /// English, then Chinese.
    pub description: &'static str,
    pub read_only: bool,
    pub idempotent: bool,
    pub input_schema: fn() -> Value,
    pub output_schema: fn() -> Value,
    /// Runs the call with arguments already checked against `input_schema`.
    pub run: for<'a> fn(&'a Ctx, JsonObject) -> ToolFuture<'a>,
}

fn object(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(m) => Arc::new(m),
        _ => Arc::new(JsonObject::new()),
    }
}

impl ToolDef {
    pub fn find(name: &str) -> Option<&'static ToolDef> {
        TOOLS.iter().find(|t| t.name == name)
    }

    /// The tool as MCP lists it.
    pub fn tool(&self) -> Tool {
        let hints = ToolAnnotations::with_title(self.title)
            .read_only(self.read_only)
            .destructive(false)
            .idempotent(self.idempotent)
            .open_world(false);
        Tool::new(self.name, self.description, object((self.input_schema)()))
            .with_title(self.title)
            .with_raw_output_schema(object((self.output_schema)()))
            .with_annotations(hints)
    }

    /// Validates the arguments, runs the tool, and turns any failure into a tool error.
    pub async fn call(&self, ctx: &Ctx, arguments: Option<JsonObject>) -> CallToolResult {
        let outcome = match args::validate(self.name, &(self.input_schema)(), arguments) {
            Ok(a) => (self.run)(ctx, a).await,
            Err(e) => Err(e.into()),
        };
        match outcome {
            Ok(out) => {
                let mut r = CallToolResult::success(vec![ContentBlock::text(out.text)]);
                r.structured_content = Some(out.structured);
                r
            }
            Err(f) => self.failure(f),
        }
    }

    fn failure(&self, f: Failure) -> CallToolResult {
        let (text, error) = match f {
            Failure::Arg(e) => (
                format!("{}: {e}", self.name),
                json!({"code": "invalid_argument", "argument": e.argument, "message": e.to_string()}),
            ),
            Failure::Backend(knowhub_client::Error::Api { code, message, field, .. }) => {
                let hint = match code.as_str() {
                    "unauthorized" | "forbidden" => ". Check the KnowHub API key (KNOWHUB_API_KEY) and its role.",
                    "unavailable" | "internal" => ". Continue the task without KnowHub.",
                    _ => "",
                };
                let text = format!("{}: {}{hint}", self.name, message.trim_end_matches('.'));
                let mut error = json!({"code": code, "message": message});
                if let Some(f) = field {
                    error["argument"] = json!(f);
                }
                (text, error)
            }
            Failure::Backend(knowhub_client::Error::Unreachable { url, reason }) => {
                let message = format!("the KnowHub hub at {url} is unreachable ({reason})");
                (
                    format!("{}: {message}. Continue the task without KnowHub.", self.name),
                    json!({"code": "unreachable", "message": message}),
                )
            }
        };
        let mut r = CallToolResult::error(vec![ContentBlock::text(text)]);
        r.structured_content = Some(json!({ "error": error }));
        r
    }
}

/// Schema of a string argument with a description in English and Chinese.
fn string(en: &str, zh: &str, max: usize) -> Value {
    json!({"type": "string", "maxLength": max, "description": format!("{en} / {zh}")})
}

/// Schema of a bounded integer argument, with the service's bounds and default.
fn integer(en: &str, zh: &str, range: IntRange) -> Value {
    json!({"type": "integer", "minimum": range.min, "maximum": range.max, "default": range.default,
           "description": format!("{en} / {zh}")})
}

/// A request the service refused, as an argument error naming the tool's own argument
/// (`renames` maps the service's field names to the tool's where they differ).
fn invalid(e: knowhub_core::CoreError, renames: &[(&str, &str)]) -> Failure {
    match e {
        knowhub_core::CoreError::Invalid { field, message } => {
            let name = renames.iter().find(|(from, _)| *from == field).map_or(field.as_str(), |(_, to)| to);
            Failure::Arg(ArgError::new(name, message))
        }
        e => Failure::Backend(e.into()),
    }
}
