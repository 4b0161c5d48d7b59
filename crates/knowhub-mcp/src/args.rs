//! Tool arguments checked against the tool's own input schema, so what we advertise is what we
//! enforce (rmcp does not validate). Covers the JSON Schema subset our schemas use: `properties`,
//! `required`, `additionalProperties: false`, `type` (string, integer, number, boolean),
//! `minimum`/`maximum`, `maxLength`, `enum`. Every error names the argument so a model can fix
//! its call; `null` counts as absent.

use serde_json::{Map, Value};

pub type JsonObject = Map<String, Value>;

/// A bad argument: which one and why. Shown to the model as `name: message`.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgError {
    pub argument: String,
    pub message: String,
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.argument, self.message)
    }
}

impl ArgError {
    pub fn new(argument: &str, message: impl Into<String>) -> Self {
        ArgError { argument: argument.into(), message: message.into() }
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An integer, including integral floats such as `5.0` (some clients send those).
fn as_integer(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map(|f| f as i64))
}

/// Checks `args` against `schema`; returns the arguments with `null`s dropped and integral
/// floats turned into integers, ready for the typed getters below.
pub fn validate(tool: &str, schema: &Value, args: Option<JsonObject>) -> Result<JsonObject, ArgError> {
    let empty = Map::new();
    let props = schema["properties"].as_object().unwrap_or(&empty);
    let mut out = Map::new();
    for (name, value) in args.unwrap_or_default() {
        let Some(spec) = props.get(&name) else {
            let mut known: Vec<&str> = props.keys().map(String::as_str).collect();
            known.sort_unstable();
            return Err(ArgError::new(&name, format!("unknown argument; {tool} takes {}", known.join(", "))));
        };
        if value.is_null() {
            continue;
        }
        out.insert(name.clone(), check(&name, spec, value)?);
    }
    for req in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if !out.contains_key(req) {
            return Err(ArgError::new(req, "is required"));
        }
    }
    Ok(out)
}

fn check(name: &str, spec: &Value, value: Value) -> Result<Value, ArgError> {
    let (min, max) = (spec["minimum"].as_f64(), spec["maximum"].as_f64());
    let range = |what: &str| match (min, max) {
        (Some(lo), Some(hi)) => format!("must be {what} from {lo} to {hi}"),
        (Some(lo), None) => format!("must be {what} of at least {lo}"),
        (None, Some(hi)) => format!("must be {what} of at most {hi}"),
        (None, None) => format!("must be {what}"),
    };
    let in_range = |x: f64| min.is_none_or(|lo| x >= lo) && max.is_none_or(|hi| x <= hi);
    let got = |v: &Value| match v {
        Value::String(s) => format!("got {s:?}"),
        other => format!("got {other}"),
    };
    match spec["type"].as_str() {
        Some("string") => {
            let Value::String(s) = &value else {
                return Err(ArgError::new(name, format!("must be a string, got {}", type_name(&value))));
            };
            if let Some(limit) = spec["maxLength"].as_u64() {
                let n = s.chars().count();
                if n as u64 > limit {
                    return Err(ArgError::new(name, format!("is {n} characters; the limit is {limit}")));
                }
            }
            if let Some(allowed) = spec["enum"].as_array() {
                if !allowed.contains(&value) {
                    let list: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
                    return Err(ArgError::new(name, format!("must be one of {}, {}", list.join(" | "), got(&value))));
                }
            }
            Ok(value)
        }
        Some("integer") => match as_integer(&value) {
            Some(n) if in_range(n as f64) => Ok(Value::from(n)),
            _ => Err(ArgError::new(name, format!("{}, {}", range("an integer"), got(&value)))),
        },
        Some("number") => match value.as_f64() {
            Some(x) if x.is_finite() && in_range(x) => Ok(value),
            _ => Err(ArgError::new(name, format!("{}, {}", range("a number"), got(&value)))),
        },
        Some("boolean") if value.is_boolean() => Ok(value),
        Some("boolean") => Err(ArgError::new(name, format!("must be true or false, {}", got(&value)))),
        _ => Ok(value),
    }
}

/// A validated string argument.
pub fn str_arg(args: &JsonObject, name: &str) -> Option<String> {
    args.get(name).and_then(Value::as_str).map(str::to_string)
}

/// A validated integer argument.
pub fn int_arg(args: &JsonObject, name: &str) -> Option<i64> {
    args.get(name).and_then(Value::as_i64)
}

/// A validated number argument.
pub fn num_arg(args: &JsonObject, name: &str) -> Option<f64> {
    args.get(name).and_then(Value::as_f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "maxLength": 5},
                "top_k": {"type": "integer", "minimum": 1, "maximum": 50},
                "min_relevance": {"type": "number", "minimum": 0, "maximum": 1},
                "outcome": {"type": "string", "enum": ["success", "failure", "partial"]}
            },
            "required": ["query"],
            "additionalProperties": false
        })
    }

    fn run(args: Value) -> Result<JsonObject, String> {
        validate("kb_search", &schema(), args.as_object().cloned()).map_err(|e| e.to_string())
    }

    #[test]
    fn good_arguments_pass_and_are_normalised() {
        let a = run(json!({"query": "超时", "top_k": 7.0, "min_relevance": 0.5, "outcome": null})).unwrap();
        assert_eq!(str_arg(&a, "query").as_deref(), Some("超时"));
        assert_eq!(int_arg(&a, "top_k"), Some(7));
        assert_eq!(num_arg(&a, "min_relevance"), Some(0.5));
        assert!(!a.contains_key("outcome"), "null is absent");
    }

    #[test]
    fn each_bad_argument_is_named() {
        let cases = [
            (json!({}), "query: is required"),
            (json!({"query": null}), "query: is required"),
            (json!({"query": 5}), "query: must be a string, got an integer"),
            (json!({"query": "abcdef"}), "query: is 6 characters; the limit is 5"),
            (json!({"query": "a", "top_k": 0}), "top_k: must be an integer from 1 to 50, got 0"),
            (json!({"query": "a", "top_k": 51}), "top_k: must be an integer from 1 to 50, got 51"),
            (json!({"query": "a", "top_k": "5"}), "top_k: must be an integer from 1 to 50, got \"5\""),
            (json!({"query": "a", "top_k": 2.5}), "top_k: must be an integer from 1 to 50, got 2.5"),
            (json!({"query": "a", "min_relevance": 1.5}), "min_relevance: must be a number from 0 to 1, got 1.5"),
            (
                json!({"query": "a", "outcome": "great"}),
                "outcome: must be one of success | failure | partial, got \"great\"",
            ),
            (
                json!({"query": "a", "limit": 3}),
                "limit: unknown argument; kb_search takes min_relevance, outcome, query, top_k",
            ),
        ];
        for (args, want) in cases {
            assert_eq!(run(args.clone()).unwrap_err(), want, "{args}");
        }
    }

    #[test]
    fn absent_arguments_object_is_empty() {
        let e = validate("kb_search", &schema(), None).unwrap_err();
        assert_eq!(e.argument, "query");
    }
}
