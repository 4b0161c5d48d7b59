//! The LLM client used for server-side extraction: one non-streaming `complete(system, user)` call
//! over the two API shapes that cover the providers people run (OpenAI-compatible Chat
//! Completions: OpenAI, DeepSeek, Qwen/DashScope, Ollama, vLLM, llama.cpp; and Anthropic
//! Messages), chosen once from config as an enum.
//!
//! Calls are bounded: a per-request timeout, a bounded number of retries with exponential backoff
//! and jitter on 429/5xx and connection errors (honouring `Retry-After`, capped), no retry on other
//! 4xx (they will not get better). Cumulative counters make token spend visible, and every call is
//! logged with sizes and token counts only: never the api key, never the prompt or the answer.

mod parse;

use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub use parse::{parse_json_array, ParseError};

/// Which API shape the provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LlmProvider {
    /// `POST {base_url}/chat/completions` with `Authorization: Bearer`; `base_url` includes the
    /// version segment (`https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`, ...).
    #[serde(alias = "openai-compatible", alias = "openai_compatible")]
    OpenAi,
    /// `POST {base_url}/v1/messages` with `x-api-key` and `anthropic-version: 2023-06-01`.
    Anthropic,
}

impl LlmProvider {
    /// Where the provider lives when no base URL is configured.
    pub fn default_base_url(self) -> &'static str {
        match self {
            LlmProvider::OpenAi => "https://api.openai.com/v1",
            LlmProvider::Anthropic => "https://api.anthropic.com",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            LlmProvider::OpenAi => "openai",
            LlmProvider::Anthropic => "anthropic",
        }
    }
}

impl fmt::Display for LlmProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for LlmProvider {
    type Err = LlmError;
    fn from_str(s: &str) -> Result<Self, LlmError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" | "openai_compatible" => Ok(LlmProvider::OpenAi),
            "anthropic" => Ok(LlmProvider::Anthropic),
            other => {
                Err(LlmError::NotConfigured(format!("unknown LLM provider {other:?} (expected openai or anthropic)")))
            }
        }
    }
}

/// An api key that never shows up in `Debug`/`Display` output (configs get logged).
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    /// The key itself, for the one place that sends it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<String> for ApiKey {
    fn from(s: String) -> Self {
        ApiKey(s)
    }
}

impl From<&str> for ApiKey {
    fn from(s: &str) -> Self {
        ApiKey(s.to_string())
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"***\"")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// The smallest context window extraction can work in: instructions, some transcript, an answer.
pub const MIN_CONTEXT_TOKENS: u32 = 2048;

/// Everything the client needs, fixed at start-up.
#[derive(Clone)]
pub struct LlmSettings {
    pub provider: LlmProvider,
    /// Without a trailing slash; see [`LlmProvider`] for what it includes.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<ApiKey>,
    /// Per HTTP request (connect + generate + read), not for the whole call with its retries.
    pub timeout: Duration,
    /// Retries after the first attempt (0 = try once).
    pub max_retries: u32,
    pub max_output_tokens: u32,
    /// The model's context window in tokens (prompt and answer together), when the server has a
    /// small one: local servers often run 4-8k (Ollama's `num_ctx`, llama.cpp's `-c`), where a
    /// 4,096-token answer budget beside a long transcript is rejected outright (or, on Ollama,
    /// silently cut from the start, instructions first). When set, the answer budget is capped at
    /// a quarter of it ([`LlmSettings::answer_tokens`]) and callers fit their prompt to the rest.
    pub context_tokens: Option<u32>,
    /// `None` leaves the provider's default (some reasoning models reject the parameter).
    pub temperature: Option<f32>,
    /// First backoff; doubles each retry.
    pub initial_backoff: Duration,
    /// Cap for one backoff and for an honoured `Retry-After`.
    pub max_backoff: Duration,
}

impl LlmSettings {
    /// Defaults suited to extraction: deterministic output, a few retries, a generous timeout.
    pub fn new(provider: LlmProvider, model: impl Into<String>) -> Self {
        LlmSettings {
            provider,
            base_url: provider.default_base_url().to_string(),
            model: model.into(),
            api_key: None,
            timeout: Duration::from_secs(120),
            max_retries: 3,
            max_output_tokens: 4096,
            context_tokens: None,
            temperature: Some(0.0),
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
        }
    }

    /// The model the `KNOWHUB_LLM_*` variables name (`PROVIDER`, default openai; `MODEL`, required;
    /// `BASE_URL`, `API_KEY`, `CONTEXT_TOKENS`), as the server's config reads them: for the live
    /// tests and benchmarks, which run without a config file.
    pub fn from_env() -> Result<Self, LlmError> {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        let provider = match env("KNOWHUB_LLM_PROVIDER") {
            Some(p) => p.parse()?,
            None => LlmProvider::OpenAi,
        };
        let model =
            env("KNOWHUB_LLM_MODEL").ok_or_else(|| LlmError::NotConfigured("KNOWHUB_LLM_MODEL is not set".into()))?;
        let mut s = LlmSettings::new(provider, model);
        if let Some(u) = env("KNOWHUB_LLM_BASE_URL") {
            s.base_url = u;
        }
        s.api_key = env("KNOWHUB_LLM_API_KEY").map(ApiKey::new);
        if let Some(t) = env("KNOWHUB_LLM_CONTEXT_TOKENS") {
            let n = t.trim().parse().map_err(|_| {
                LlmError::NotConfigured(format!("KNOWHUB_LLM_CONTEXT_TOKENS must be a number of tokens, got {t:?}"))
            })?;
            s.context_tokens = Some(n);
        }
        Ok(s)
    }

    /// Checks what can be checked without a network call.
    pub fn validate(&self) -> Result<(), LlmError> {
        let url = self.base_url.trim();
        if url.is_empty() {
            return Err(LlmError::NotConfigured("LLM base URL is empty".into()));
        }
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(LlmError::NotConfigured(format!(
                "LLM base URL must start with http:// or https://, got {url:?}"
            )));
        }
        if self.model.trim().is_empty() {
            return Err(LlmError::NotConfigured("LLM model is empty".into()));
        }
        if self.timeout.is_zero() {
            return Err(LlmError::NotConfigured("LLM timeout must be above zero".into()));
        }
        if self.max_output_tokens == 0 {
            return Err(LlmError::NotConfigured("LLM max_output_tokens must be above zero".into()));
        }
        if let Some(c) = self.context_tokens.filter(|c| *c < MIN_CONTEXT_TOKENS) {
            return Err(LlmError::NotConfigured(format!(
                "LLM context_tokens must be at least {MIN_CONTEXT_TOKENS} (the instructions alone take ~600), got {c}"
            )));
        }
        if let Some(t) = self.temperature {
            if !(0.0..=2.0).contains(&t) {
                return Err(LlmError::NotConfigured(format!("LLM temperature must be within 0..=2, got {t}")));
            }
        }
        Ok(())
    }

    /// The answer budget sent as `max_tokens`: `max_output_tokens`, capped at a quarter of the
    /// context window when one is set (ten extracted items take ~1,000 tokens).
    pub fn answer_tokens(&self) -> u32 {
        match self.context_tokens {
            Some(c) => self.max_output_tokens.min(c / 4),
            None => self.max_output_tokens,
        }
    }

    /// Tokens left for the prompt (instructions and input) within the context window, if one is set.
    pub fn prompt_tokens(&self) -> Option<u32> {
        self.context_tokens.map(|c| c.saturating_sub(self.answer_tokens()))
    }
}

impl fmt::Debug for LlmSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmSettings")
            .field("provider", &self.provider)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("max_output_tokens", &self.max_output_tokens)
            .field("context_tokens", &self.context_tokens)
            .field("temperature", &self.temperature)
            .field("initial_backoff", &self.initial_backoff)
            .field("max_backoff", &self.max_backoff)
            .finish()
    }
}

/// Failures, grouped by what a server should answer.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// No usable LLM configuration: the feature is off or misconfigured (HTTP 503 / 501).
    #[error("LLM not configured: {0}")]
    NotConfigured(String),
    /// The provider could not be reached or stayed overloaded through every retry (HTTP 503).
    #[error("LLM provider unavailable after {attempts} attempt(s): {message}")]
    Unavailable { attempts: u32, status: Option<u16>, message: String },
    /// A request ran past the configured timeout (HTTP 504). Not retried: a generation that timed
    /// out once usually does again, and retries would multiply the caller's wait.
    #[error("LLM request timed out after {timeout:?} (attempt {attempts})")]
    Timeout { attempts: u32, timeout: Duration },
    /// The provider refused the request (400/401/403/404/...): config or input problem (HTTP 502).
    #[error("LLM provider rejected the request with {status}: {message}")]
    Rejected { status: u16, message: String },
    /// A 2xx answer we could not use: not JSON, no text, wrong shape (HTTP 502).
    #[error("LLM provider returned an unusable response: {0}")]
    BadResponse(String),
}

impl LlmError {
    /// The HTTP status a server should answer with when this error ends a request.
    pub fn http_status(&self) -> u16 {
        match self {
            LlmError::NotConfigured(_) | LlmError::Unavailable { .. } => 503,
            LlmError::Timeout { .. } => 504,
            LlmError::Rejected { .. } | LlmError::BadResponse(_) => 502,
        }
    }

    /// Whether the provider refused the prompt as longer than the model's context window. Servers
    /// word it differently (OpenAI and vLLM: "maximum context length is N tokens"; llama.cpp:
    /// "exceeds the available context size"; Anthropic: "prompt is too long"), so this reads the
    /// message; the caller can retry with less input.
    pub fn is_context_overflow(&self) -> bool {
        let LlmError::Rejected { status: 400 | 413 | 422, message } = self else { return false };
        let m = message.to_ascii_lowercase();
        m.contains("context_length_exceeded")
            || m.contains("prompt is too long")
            || m.contains("context")
                && ["length", "window", "size", "exceed", "too long", "maximum", "limit"].iter().any(|w| m.contains(w))
    }

    /// A stable machine-readable code for error bodies and metrics.
    pub fn code(&self) -> &'static str {
        match self {
            LlmError::NotConfigured(_) => "llm_not_configured",
            LlmError::Unavailable { .. } => "llm_unavailable",
            LlmError::Timeout { .. } => "llm_timeout",
            LlmError::Rejected { .. } => "llm_rejected",
            LlmError::BadResponse(_) => "llm_bad_response",
        }
    }
}

/// One finished completion.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// The model's text (a leading `<think>...</think>` block removed: never part of the answer).
    pub text: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// The model that answered (as reported by the provider, else the configured one).
    pub model: String,
    /// Whole call, retries and backoff included.
    pub latency: Duration,
    /// HTTP attempts it took (1 = no retry).
    pub attempts: u32,
    /// `stop` / `end_turn` / `length` / `max_tokens` ...: `length`/`max_tokens` means truncated.
    pub stop_reason: Option<String>,
}

impl Completion {
    /// True when the provider stopped at the output token limit (the JSON is likely cut off).
    pub fn truncated(&self) -> bool {
        matches!(self.stop_reason.as_deref(), Some("length" | "max_tokens"))
    }
}

/// Cumulative counters since the client was built.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LlmStats {
    /// `complete` calls.
    pub calls: u64,
    /// HTTP requests sent, retries included.
    pub requests: u64,
    pub retries: u64,
    /// `complete` calls that ended in an error.
    pub failures: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

#[derive(Default)]
struct Counters {
    calls: AtomicU64,
    requests: AtomicU64,
    retries: AtomicU64,
    failures: AtomicU64,
    input_tokens: AtomicU64,
    output_tokens: AtomicU64,
}

/// The client: cheap to share (`Arc`), safe to call concurrently.
pub struct LlmClient {
    settings: LlmSettings,
    endpoint: String,
    http: reqwest::Client,
    counters: Counters,
}

impl fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmClient").field("settings", &self.settings).field("endpoint", &self.endpoint).finish()
    }
}

/// Why one attempt failed, and whether another may succeed.
struct AttemptError {
    error: LlmError,
    retryable: bool,
    retry_after: Option<Duration>,
}

impl LlmClient {
    pub fn new(mut settings: LlmSettings) -> Result<Self, LlmError> {
        settings.base_url = settings.base_url.trim().trim_end_matches('/').to_string();
        settings.validate()?;
        let endpoint = match settings.provider {
            LlmProvider::OpenAi => format!("{}/chat/completions", settings.base_url),
            LlmProvider::Anthropic => format!("{}/v1/messages", settings.base_url),
        };
        let http = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| LlmError::NotConfigured(format!("cannot build HTTP client: {e}")))?;
        Ok(LlmClient { settings, endpoint, http, counters: Counters::default() })
    }

    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    /// Cumulative counters (calls, requests, retries, failures, tokens).
    pub fn stats(&self) -> LlmStats {
        let c = &self.counters;
        LlmStats {
            calls: c.calls.load(Ordering::Relaxed),
            requests: c.requests.load(Ordering::Relaxed),
            retries: c.retries.load(Ordering::Relaxed),
            failures: c.failures.load(Ordering::Relaxed),
            input_tokens: c.input_tokens.load(Ordering::Relaxed),
            output_tokens: c.output_tokens.load(Ordering::Relaxed),
        }
    }

    /// One non-streaming completion: `system` instructions, one `user` message.
    pub async fn complete(&self, system: &str, user: &str) -> Result<Completion, LlmError> {
        let started = Instant::now();
        self.counters.calls.fetch_add(1, Ordering::Relaxed);
        let body = self.request_body(system, user);
        let max_attempts = self.settings.max_retries.saturating_add(1);
        let mut attempt = 0;
        loop {
            attempt += 1;
            self.counters.requests.fetch_add(1, Ordering::Relaxed);
            match self.attempt(&body, attempt).await {
                Ok(mut c) => {
                    c.latency = started.elapsed();
                    c.attempts = attempt;
                    self.counters.input_tokens.fetch_add(c.input_tokens, Ordering::Relaxed);
                    self.counters.output_tokens.fetch_add(c.output_tokens, Ordering::Relaxed);
                    tracing::info!(
                        provider = %self.settings.provider,
                        model = %c.model,
                        attempts = attempt,
                        system_chars = system.chars().count(),
                        user_chars = user.chars().count(),
                        output_chars = c.text.chars().count(),
                        input_tokens = c.input_tokens,
                        output_tokens = c.output_tokens,
                        stop_reason = c.stop_reason.as_deref().unwrap_or(""),
                        latency_ms = c.latency.as_millis() as u64,
                        "llm completion"
                    );
                    return Ok(c);
                }
                Err(e) if e.retryable && attempt < max_attempts => {
                    let delay = self.backoff(attempt, e.retry_after);
                    self.counters.retries.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(
                        provider = %self.settings.provider,
                        model = %self.settings.model,
                        attempt,
                        error = %e.error,
                        retry_in_ms = delay.as_millis() as u64,
                        "llm request failed, retrying"
                    );
                    tokio::time::sleep(delay).await;
                }
                Err(e) => {
                    self.counters.failures.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(
                        provider = %self.settings.provider,
                        model = %self.settings.model,
                        attempts = attempt,
                        system_chars = system.chars().count(),
                        user_chars = user.chars().count(),
                        code = e.error.code(),
                        error = %e.error,
                        latency_ms = started.elapsed().as_millis() as u64,
                        "llm completion failed"
                    );
                    return Err(e.error);
                }
            }
        }
    }

    /// Exponential backoff with "equal jitter" (half fixed, half random), or the server's
    /// `Retry-After`; both capped by `max_backoff` so one slow provider cannot stall a worker.
    fn backoff(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let cap = self.settings.max_backoff;
        if let Some(ra) = retry_after {
            return ra.min(cap);
        }
        let exp = self.settings.initial_backoff.saturating_mul(1u32 << (attempt - 1).min(16)).min(cap);
        let half = exp / 2;
        let jitter_nanos = random_u64() % (half.as_nanos() as u64).max(1);
        half + Duration::from_nanos(jitter_nanos)
    }

    fn request_body(&self, system: &str, user: &str) -> Value {
        let s = &self.settings;
        let mut body = match s.provider {
            LlmProvider::OpenAi => {
                let mut messages = Vec::with_capacity(2);
                if !system.is_empty() {
                    messages.push(json!({"role": "system", "content": system}));
                }
                messages.push(json!({"role": "user", "content": user}));
                // `max_tokens` rather than `max_completion_tokens`: every compatible server knows it.
                json!({"model": s.model, "messages": messages, "max_tokens": s.answer_tokens(), "stream": false})
            }
            LlmProvider::Anthropic => {
                let mut body = json!({
                    "model": s.model,
                    "max_tokens": s.answer_tokens(),
                    "messages": [{"role": "user", "content": user}],
                });
                if !system.is_empty() {
                    body["system"] = json!(system);
                }
                body
            }
        };
        if let Some(t) = s.temperature {
            body["temperature"] = json!(t);
        }
        body
    }

    async fn attempt(&self, body: &Value, attempt: u32) -> Result<Completion, AttemptError> {
        let s = &self.settings;
        let mut req = self.http.post(&self.endpoint).json(body);
        match s.provider {
            LlmProvider::OpenAi => {
                if let Some(k) = &s.api_key {
                    req = req.bearer_auth(k.expose());
                }
            }
            LlmProvider::Anthropic => {
                req = req.header("anthropic-version", "2023-06-01");
                if let Some(k) = &s.api_key {
                    req = req.header("x-api-key", k.expose());
                }
            }
        }
        let resp = req.send().await.map_err(|e| self.transport_error(e, attempt))?;
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|secs| secs.is_finite() && *secs >= 0.0)
            .map(|secs| Duration::from_secs_f64(secs.min(86_400.0)));
        let bytes = resp.bytes().await.map_err(|e| self.transport_error(e, attempt))?;
        if !status.is_success() {
            let message = error_message(&bytes);
            let code = status.as_u16();
            let retryable = code == 429 || status.is_server_error();
            let error = if retryable {
                LlmError::Unavailable {
                    attempts: attempt,
                    status: Some(code),
                    message: format!("HTTP {code}: {message}"),
                }
            } else {
                LlmError::Rejected { status: code, message }
            };
            return Err(AttemptError { error, retryable, retry_after });
        }
        let value: Value = serde_json::from_slice(&bytes).map_err(|e| AttemptError {
            error: LlmError::BadResponse(format!("body is not JSON ({e}); starts with {:?}", preview(&bytes))),
            retryable: false,
            retry_after: None,
        })?;
        let parsed = match s.provider {
            LlmProvider::OpenAi => parse_openai(&value),
            LlmProvider::Anthropic => parse_anthropic(&value),
        };
        let (text, input_tokens, output_tokens, model, stop_reason) = parsed.map_err(|m| AttemptError {
            error: LlmError::BadResponse(m),
            retryable: false,
            retry_after: None,
        })?;
        Ok(Completion {
            text: strip_think(&text),
            input_tokens,
            output_tokens,
            model: model.unwrap_or_else(|| s.model.clone()),
            latency: Duration::ZERO,
            attempts: attempt,
            stop_reason,
        })
    }

    fn transport_error(&self, e: reqwest::Error, attempt: u32) -> AttemptError {
        if e.is_timeout() {
            return AttemptError {
                error: LlmError::Timeout { attempts: attempt, timeout: self.settings.timeout },
                retryable: false,
                retry_after: None,
            };
        }
        // reqwest's message can include the URL, never headers: no key leaks here.
        let retryable = !e.is_builder();
        let message = error_chain(&e);
        let error = if retryable {
            LlmError::Unavailable { attempts: attempt, status: None, message }
        } else {
            LlmError::NotConfigured(message)
        };
        AttemptError { error, retryable, retry_after: None }
    }
}

type Parsed = (String, u64, u64, Option<String>, Option<String>);

/// `{"choices":[{"message":{"content":...},"finish_reason":...}],"usage":{...},"model":...}`
fn parse_openai(v: &Value) -> Result<Parsed, String> {
    let choice = v
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .ok_or_else(|| format!("no choices in response (keys: {})", keys(v)))?;
    let content = choice.get("message").and_then(|m| m.get("content"));
    let text = match content {
        Some(Value::String(s)) => s.clone(),
        // Some servers answer with content parts.
        Some(Value::Array(parts)) => {
            parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("")
        }
        _ => return Err("choices[0].message.content is missing or not text".into()),
    };
    let usage = v.get("usage");
    let tokens = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64).unwrap_or(0);
    let model = v.get("model").and_then(Value::as_str).map(str::to_string);
    let stop = choice.get("finish_reason").and_then(Value::as_str).map(str::to_string);
    Ok((text, tokens("prompt_tokens"), tokens("completion_tokens"), model, stop))
}

/// `{"content":[{"type":"text","text":...}],"usage":{"input_tokens","output_tokens"},"model","stop_reason"}`
fn parse_anthropic(v: &Value) -> Result<Parsed, String> {
    let blocks = v
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("no content in response (keys: {})", keys(v)))?;
    let texts: Vec<&str> = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    if texts.is_empty() && !blocks.is_empty() {
        return Err("response has no text content block".into());
    }
    let usage = v.get("usage");
    let tokens = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64).unwrap_or(0);
    let model = v.get("model").and_then(Value::as_str).map(str::to_string);
    let stop = v.get("stop_reason").and_then(Value::as_str).map(str::to_string);
    Ok((texts.join(""), tokens("input_tokens"), tokens("output_tokens"), model, stop))
}

/// Reasoning models served through compatible servers prepend `<think>...</think>`; it is never
/// part of the answer and its brackets would confuse the JSON extraction.
fn strip_think(text: &str) -> String {
    let trimmed = text.trim_start();
    if trimmed.starts_with("<think>") {
        if let Some(end) = trimmed.find("</think>") {
            return trimmed[end + "</think>".len()..].trim_start().to_string();
        }
    }
    text.to_string()
}

fn keys(v: &Value) -> String {
    match v.as_object() {
        Some(o) => o.keys().map(String::as_str).collect::<Vec<_>>().join(", "),
        None => "not an object".into(),
    }
}

/// The provider's own error message when it sends one (`{"error":{"message":...}}`), else the
/// start of the body. Short: it ends up in logs and API answers.
fn error_message(body: &[u8]) -> String {
    if let Ok(v) = serde_json::from_slice::<Value>(body) {
        let msg = v
            .pointer("/error/message")
            .or_else(|| v.get("error").filter(|e| e.is_string()))
            .or_else(|| v.get("message"))
            .and_then(Value::as_str);
        if let Some(m) = msg {
            return m.chars().take(300).collect();
        }
    }
    preview(body)
}

fn preview(body: &[u8]) -> String {
    String::from_utf8_lossy(body).chars().take(200).collect()
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}

/// A random number for jitter without a `rand` dependency (std's per-instance hasher keys).
fn random_u64() -> u64 {
    let mut h = RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_parses_and_prints() {
        assert_eq!("openai".parse::<LlmProvider>().unwrap(), LlmProvider::OpenAi);
        assert_eq!("OpenAI-Compatible".parse::<LlmProvider>().unwrap(), LlmProvider::OpenAi);
        assert_eq!(" anthropic ".parse::<LlmProvider>().unwrap(), LlmProvider::Anthropic);
        assert!(matches!("gemini".parse::<LlmProvider>(), Err(LlmError::NotConfigured(_))));
        assert_eq!(LlmProvider::Anthropic.to_string(), "anthropic");
        assert_eq!(serde_json::from_str::<LlmProvider>("\"openai\"").unwrap(), LlmProvider::OpenAi);
    }

    #[test]
    fn settings_validate() {
        let ok = LlmSettings::new(LlmProvider::Anthropic, "claude-x");
        assert_eq!(ok.base_url, "https://api.anthropic.com");
        ok.validate().unwrap();
        let mut s = ok.clone();
        s.model = " ".into();
        assert!(matches!(s.validate(), Err(LlmError::NotConfigured(m)) if m.contains("model")));
        let mut s = ok.clone();
        s.base_url = "ftp://x".into();
        assert!(s.validate().is_err());
        let mut s = ok.clone();
        s.temperature = Some(5.0);
        assert!(s.validate().is_err());
        let mut s = ok;
        s.timeout = Duration::ZERO;
        assert!(LlmClient::new(s).is_err());
    }

    #[test]
    fn context_window_caps_the_answer_and_leaves_the_prompt_the_rest() {
        let mut s = LlmSettings::new(LlmProvider::OpenAi, "local");
        assert_eq!((s.answer_tokens(), s.prompt_tokens()), (4096, None));
        s.context_tokens = Some(8192);
        assert_eq!((s.answer_tokens(), s.prompt_tokens()), (2048, Some(6144)));
        s.max_output_tokens = 1000;
        assert_eq!((s.answer_tokens(), s.prompt_tokens()), (1000, Some(7192)));
        assert_eq!(LlmClient::new(s.clone()).unwrap().request_body("sys", "u")["max_tokens"], 1000);
        s.max_output_tokens = 4096;
        s.provider = LlmProvider::Anthropic;
        assert_eq!(LlmClient::new(s.clone()).unwrap().request_body("sys", "u")["max_tokens"], 2048);
        s.context_tokens = Some(1000);
        assert!(matches!(s.validate(), Err(LlmError::NotConfigured(m)) if m.contains("context_tokens")));
    }

    #[test]
    fn context_overflow_is_recognised_in_each_servers_words() {
        let rejected = |status, message: &str| LlmError::Rejected { status, message: message.into() };
        for (status, m) in [
            (400, "This model's maximum context length is 8192 tokens. However, you requested 10557 tokens"),
            (400, "the request exceeds the available context size, try increasing it"),
            (400, "prompt is too long: 210000 tokens > 200000 maximum"),
            (400, "{\"code\": \"context_length_exceeded\"}"),
            (413, "Input exceeds the context window of this model"),
        ] {
            assert!(rejected(status, m).is_context_overflow(), "{status} {m}");
        }
        for (status, m) in [
            (400, "model 'llama9' not found"),
            (401, "maximum context length exceeded"),
            (400, "temperature must be within 0 and 2"),
            (404, "context length"),
        ] {
            assert!(!rejected(status, m).is_context_overflow(), "{status} {m}");
        }
        assert!(!LlmError::BadResponse("context length".into()).is_context_overflow());
    }

    #[test]
    fn api_key_is_hidden() {
        let mut s = LlmSettings::new(LlmProvider::OpenAi, "m");
        s.api_key = Some("sk-secret-value-123".into());
        let client = LlmClient::new(s.clone()).unwrap();
        for text in [format!("{s:?}"), format!("{client:?}"), format!("{:?} {}", s.api_key, s.api_key.clone().unwrap())]
        {
            assert!(!text.contains("sk-secret"), "{text}");
        }
        assert_eq!(s.api_key.unwrap().expose(), "sk-secret-value-123");
    }

    #[test]
    fn endpoints_per_provider() {
        let mut s = LlmSettings::new(LlmProvider::OpenAi, "m");
        s.base_url = "http://127.0.0.1:11434/v1/".into();
        assert_eq!(LlmClient::new(s).unwrap().endpoint, "http://127.0.0.1:11434/v1/chat/completions");
        let s = LlmSettings::new(LlmProvider::Anthropic, "m");
        assert_eq!(LlmClient::new(s).unwrap().endpoint, "https://api.anthropic.com/v1/messages");
    }

    #[test]
    fn backoff_grows_is_jittered_and_capped() {
        let mut s = LlmSettings::new(LlmProvider::OpenAi, "m");
        s.initial_backoff = Duration::from_millis(100);
        s.max_backoff = Duration::from_millis(1000);
        let c = LlmClient::new(s).unwrap();
        for _ in 0..50 {
            let d1 = c.backoff(1, None);
            assert!(d1 >= Duration::from_millis(50) && d1 <= Duration::from_millis(100), "{d1:?}");
            let d3 = c.backoff(3, None);
            assert!(d3 >= Duration::from_millis(200) && d3 <= Duration::from_millis(400), "{d3:?}");
            let d10 = c.backoff(10, None);
            assert!(d10 >= Duration::from_millis(500) && d10 <= Duration::from_millis(1000), "{d10:?}");
        }
        assert_eq!(c.backoff(1, Some(Duration::from_secs(60))), Duration::from_millis(1000));
        assert_eq!(c.backoff(1, Some(Duration::from_millis(20))), Duration::from_millis(20));
        let samples: std::collections::HashSet<_> = (0..20).map(|_| c.backoff(2, None)).collect();
        assert!(samples.len() > 1, "no jitter");
    }

    #[test]
    fn request_bodies() {
        let mut s = LlmSettings::new(LlmProvider::OpenAi, "gpt-x");
        s.max_output_tokens = 77;
        let c = LlmClient::new(s.clone()).unwrap();
        let b = c.request_body("sys", "usr");
        assert_eq!(b["messages"][0], json!({"role": "system", "content": "sys"}));
        assert_eq!(b["messages"][1], json!({"role": "user", "content": "usr"}));
        assert_eq!(b["max_tokens"], 77);
        assert_eq!(b["stream"], false);
        assert_eq!(b["temperature"], 0.0);
        assert_eq!(c.request_body("", "u")["messages"].as_array().unwrap().len(), 1);
        s.provider = LlmProvider::Anthropic;
        s.temperature = None;
        let b = LlmClient::new(s).unwrap().request_body("sys", "usr");
        assert_eq!(b["system"], "sys");
        assert_eq!(b["messages"], json!([{"role": "user", "content": "usr"}]));
        assert!(b.get("temperature").is_none());
    }

    #[test]
    fn response_shapes() {
        let v = json!({"model": "m1", "choices": [{"message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}, "finish_reason": "length"}]});
        let (text, i, o, model, stop) = parse_openai(&v).unwrap();
        assert_eq!((text.as_str(), i, o, model.as_deref(), stop.as_deref()), ("ab", 0, 0, Some("m1"), Some("length")));
        assert!(parse_openai(&json!({"error": "x"})).unwrap_err().contains("no choices"));
        assert!(parse_openai(&json!({"choices": [{"message": {"content": null}}]})).is_err());
        let v = json!({"content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "hi"}], "usage": {"input_tokens": 3, "output_tokens": 4}});
        let (text, i, o, _, _) = parse_anthropic(&v).unwrap();
        assert_eq!((text.as_str(), i, o), ("hi", 3, 4));
        assert!(parse_anthropic(&json!({"content": [{"type": "tool_use"}]})).is_err());
    }

    #[test]
    fn think_blocks_are_dropped() {
        assert_eq!(strip_think("<think>[not this]</think>\n[1]"), "[1]");
        assert_eq!(strip_think("  <think>unterminated"), "  <think>unterminated");
        assert_eq!(strip_think("answer <think>x</think>"), "answer <think>x</think>");
    }

    #[test]
    fn error_messages_and_statuses() {
        assert_eq!(error_message(br#"{"error":{"message":"bad model","type":"x"}}"#), "bad model");
        assert_eq!(
            error_message(br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#),
            "Overloaded"
        );
        assert_eq!(error_message(b"<html>502</html>"), "<html>502</html>");
        assert_eq!(LlmError::Timeout { attempts: 1, timeout: Duration::from_secs(1) }.http_status(), 504);
        assert_eq!(LlmError::NotConfigured("x".into()).code(), "llm_not_configured");
        assert_eq!(LlmError::Rejected { status: 400, message: String::new() }.http_status(), 502);
    }
}
