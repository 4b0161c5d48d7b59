//! Configuration: TOML file < `KNOWHUB_*` environment < command-line flags.
//! Unknown keys are rejected so a typo never silently falls back to a default.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use knowhub_core::rank::Fusion;
use knowhub_service::SearchConfig;
use serde::Deserialize;

/// A string that never prints: API keys go through this so logs and `Debug` cannot leak them.
#[derive(Clone, Default, Deserialize, PartialEq)]
#[serde(transparent)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_empty() { "\"\"" } else { "\"***\"" })
    }
}

/// What one client may take of the server: rate limits per caller (the key, or the peer address
/// without auth) and connection hygiene.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsSection {
    /// Submits and feedback votes per minute per caller (0 = no limit).
    pub writes_per_minute: u32,
    /// Conversation uploads (`POST /api/extract`, one LLM call each) per minute per caller (0 = no limit).
    pub uploads_per_minute: u32,
    /// New records one agent key may write in any minute before the rest wait for review, flagged
    /// `burst` (0 = no limit; only with auth: without keys there is no key to count for).
    pub record_burst: u32,
    /// New records one agent key may write in any hour before the rest wait for review (0 = no limit).
    pub records_per_hour: u32,
    /// Open connections at most (lowered to fit the open-file limit); at the cap a new one
    /// evicts the longest-idle connection.
    pub max_connections: usize,
    /// Open connections from one IP address at most (0 = no cap; loopback is exempt; behind a
    /// reverse proxy on another host every connection comes from the proxy).
    pub max_connections_per_address: usize,
    /// Seconds a new connection has to deliver its first request head (counted from accept), and
    /// a kept-alive one may sit idle between requests.
    pub header_timeout_secs: u64,
}

impl Default for LimitsSection {
    fn default() -> Self {
        let c = knowhub_http::ConnLimits::default();
        LimitsSection {
            writes_per_minute: 600,
            uploads_per_minute: 30,
            record_burst: 20,
            records_per_hour: 200,
            max_connections: c.max_connections,
            max_connections_per_address: c.max_per_address,
            header_timeout_secs: c.header_timeout.as_secs(),
        }
    }
}

impl LimitsSection {
    pub fn rates(&self) -> knowhub_service::RateLimits {
        knowhub_service::RateLimits {
            writes_per_minute: self.writes_per_minute,
            uploads_per_minute: self.uploads_per_minute,
        }
    }

    pub fn records(&self) -> knowhub_service::RecordLimits {
        knowhub_service::RecordLimits { burst: self.record_burst, per_hour: self.records_per_hour }
    }

    pub fn connections(&self) -> anyhow::Result<knowhub_http::ConnLimits> {
        if self.max_connections == 0 || self.header_timeout_secs == 0 {
            bail!("limits.max_connections and limits.header_timeout_secs must be at least 1");
        }
        Ok(knowhub_http::ConnLimits {
            max_connections: self.max_connections,
            max_per_address: self.max_connections_per_address,
            loopback_exempt: true,
            header_timeout: std::time::Duration::from_secs(self.header_timeout_secs),
        })
    }
}

/// One `[[webhooks]]` entry: who gets the hub's changes, signed with `secret`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WebhookSection {
    pub name: String,
    pub url: String,
    /// Event kinds to send (`approved`, `disputed`, ...); omitted: all.
    #[serde(default)]
    pub events: Vec<String>,
    /// Only records in these scopes (and deletions); omitted: every scope.
    #[serde(default)]
    pub scopes: Vec<String>,
    pub secret: Secret,
}

impl WebhookSection {
    pub fn settings(&self, i: usize) -> anyhow::Result<knowhub_service::Webhook> {
        let w = knowhub_service::Webhook {
            name: self.name.clone(),
            url: self.url.clone(),
            events: self.events.clone(),
            scopes: self.scopes.clone(),
            secret: self.secret.0.clone(),
        };
        w.validate().map_err(|e| anyhow::anyhow!("webhooks[{i}] (name = {:?}): {e}", self.name))?;
        Ok(w)
    }
}

/// `[sync]`: pull another hub's changes continuously (one table, or `[[sync]]` for several).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SyncSection {
    pub from: String,
    pub key: Option<Secret>,
    pub scope: Option<String>,
    pub into: Option<String>,
}

/// `[sync]` as one table or a list of them.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum SyncSections {
    One(SyncSection),
    Many(Vec<SyncSection>),
}

impl Default for SyncSections {
    fn default() -> Self {
        SyncSections::Many(Vec::new())
    }
}

/// How long records live without re-confirmation, unless a submit says (`expires_at`,
/// `ttl_days`): `days` for every scope, `scopes` per scope. 0: forever.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ExpirySection {
    pub days: u32,
    pub scopes: std::collections::BTreeMap<String, u32>,
}

impl ExpirySection {
    pub fn settings(&self) -> anyhow::Result<knowhub_service::ExpirySettings> {
        let max = knowhub_service::hold::MAX_TTL_DAYS as u32;
        for (scope, days) in
            std::iter::once(("days", &self.days)).chain(self.scopes.iter().map(|(s, d)| (s.as_str(), d)))
        {
            if *days > max {
                bail!("expiry: {scope} = {days} is over {max} days");
            }
        }
        for scope in self.scopes.keys() {
            knowhub_core::scope::parse("expiry.scopes", scope).map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        Ok(knowhub_service::ExpirySettings { days: self.days, scopes: self.scopes.clone() })
    }
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum EmbedderKind {
    /// Full-text search only.
    None,
    /// Any OpenAI-compatible /v1/embeddings endpoint.
    Openai,
    /// The bundled multilingual model, run in-process.
    Local,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct EmbedderConfig {
    pub kind: EmbedderKind,
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<Secret>,
    pub model_dir: Option<PathBuf>,
    pub timeout_secs: u64,
    /// Local model: remove the language direction from query vectors (better cross-lingual recall).
    pub debias: bool,
}

impl EmbedderConfig {
    pub fn settings(&self) -> knowhub_ai::EmbedderSettings {
        knowhub_ai::EmbedderSettings {
            kind: match self.kind {
                EmbedderKind::None => knowhub_ai::EmbedderKind::None,
                EmbedderKind::Openai => knowhub_ai::EmbedderKind::OpenAi,
                EmbedderKind::Local => knowhub_ai::EmbedderKind::Local,
            },
            base_url: self.base_url.clone(),
            model: self.model.clone(),
            api_key: self.api_key.as_ref().map(|k| k.0.clone()),
            model_dir: self.model_dir.clone(),
            timeout: Some(std::time::Duration::from_secs(self.timeout_secs)),
            debias: self.debias,
        }
    }
}

impl Default for EmbedderConfig {
    fn default() -> Self {
        EmbedderConfig {
            kind: EmbedderKind::Local,
            base_url: None,
            model: None,
            api_key: None,
            model_dir: None,
            timeout_secs: 30,
            debias: true,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum FusionKind {
    /// `relevance_weight` of calibrated relevance beside the weighted fusion.
    Calibrated,
    Weighted,
    Rrf,
    /// Weighted, with the text weight scaled by how much the two top lists agree.
    Agreement,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SearchSection {
    pub fusion: FusionKind,
    /// With `fusion = "calibrated"`: the share of the order that is calibrated relevance.
    pub relevance_weight: f64,
    pub vector_weight: f64,
    pub text_weight: f64,
    pub rrf_k: f64,
    pub candidate_multiplier: usize,
    pub mmr: bool,
    pub mmr_lambda: f64,
    pub decay: bool,
    pub decay_half_life_days: f64,
    pub quality_weight: f64,
    pub score_union: bool,
    /// Hits below this calibrated relevance are not returned (a request may ask for another).
    pub min_relevance: f64,
}

impl Default for SearchSection {
    fn default() -> Self {
        SearchSection {
            fusion: FusionKind::Calibrated,
            relevance_weight: 0.5,
            vector_weight: 0.8,
            text_weight: 0.2,
            rrf_k: 60.0,
            candidate_multiplier: 4,
            mmr: false,
            mmr_lambda: 0.7,
            decay: false,
            decay_half_life_days: 30.0,
            quality_weight: 0.1,
            score_union: true,
            min_relevance: knowhub_core::calibrate::DEFAULT_MIN_RELEVANCE,
        }
    }
}

impl SearchSection {
    pub fn validate(&self) -> anyhow::Result<()> {
        if !(self.vector_weight >= 0.0 && self.text_weight >= 0.0 && self.vector_weight + self.text_weight > 0.0) {
            bail!("search.vector_weight and search.text_weight must be >= 0 and not both 0");
        }
        if !(0.0..=1.0).contains(&self.relevance_weight) {
            bail!("search.relevance_weight must be between 0 and 1");
        }
        if !(0.0..=1.0).contains(&self.mmr_lambda) {
            bail!("search.mmr_lambda must be between 0 and 1");
        }
        if self.decay_half_life_days.is_nan() || self.decay_half_life_days <= 0.0 {
            bail!("search.decay_half_life_days must be > 0");
        }
        if !(1..=20).contains(&self.candidate_multiplier) {
            bail!("search.candidate_multiplier must be 1..20");
        }
        if self.rrf_k.is_nan() || self.rrf_k <= 0.0 || !(0.0..=1.0).contains(&self.quality_weight) {
            bail!("search.rrf_k must be > 0 and search.quality_weight within 0..1");
        }
        if !(0.0..=1.0).contains(&self.min_relevance) {
            bail!("search.min_relevance must be within 0..1");
        }
        Ok(())
    }

    pub fn to_search_config(&self, f: &FeedbackSection) -> SearchConfig {
        SearchConfig {
            min_relevance: self.min_relevance,
            feedback: knowhub_core::rank::FeedbackPrior {
                pseudo_votes: f.pseudo_votes,
                weight: f.weight,
                dispute_factor: f.dispute_factor,
            },
            dispute_threshold: f.dispute_threshold,
            fusion: match self.fusion {
                FusionKind::Calibrated => {
                    // The weighted part's two weights share what relevance leaves.
                    let rest = (1.0 - self.relevance_weight) / (self.vector_weight + self.text_weight);
                    Fusion::Calibrated {
                        relevance: self.relevance_weight,
                        vector: self.vector_weight * rest,
                        text: self.text_weight * rest,
                    }
                }
                FusionKind::Weighted => Fusion::Weighted { vector: self.vector_weight, text: self.text_weight },
                FusionKind::Rrf => Fusion::Rrf { k: self.rrf_k },
                FusionKind::Agreement => Fusion::Agreement { vector: self.vector_weight, text: self.text_weight },
            },
            candidate_multiplier: self.candidate_multiplier,
            mmr_lambda: self.mmr.then_some(self.mmr_lambda),
            decay_half_life_days: self.decay.then_some(self.decay_half_life_days),
            quality_weight: self.quality_weight,
            score_union: self.score_union,
        }
    }
}

/// How outcome votes (`POST /api/feedback`) move the order.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct FeedbackSection {
    /// Pseudo-votes the helpfulness estimate is shrunk with: larger means votes move it less.
    pub pseudo_votes: f64,
    /// How far helpfulness moves the order (0 = not at all; 1 = up to ×2 or ×0).
    pub weight: f64,
    /// Distinct callers reporting a failure (outnumbering successes) that dispute a record; 0 = off.
    pub dispute_threshold: u32,
    /// What a disputed record's order is multiplied by.
    pub dispute_factor: f64,
}

impl Default for FeedbackSection {
    fn default() -> Self {
        let d = knowhub_core::rank::FeedbackPrior::default();
        FeedbackSection {
            pseudo_votes: d.pseudo_votes,
            weight: d.weight,
            dispute_threshold: SearchConfig::default().dispute_threshold,
            dispute_factor: d.dispute_factor,
        }
    }
}

impl FeedbackSection {
    pub fn validate(&self) -> anyhow::Result<()> {
        if !(self.pseudo_votes >= 0.0
            && (0.0..=1.0).contains(&self.weight)
            && (0.0..=1.0).contains(&self.dispute_factor))
        {
            bail!("feedback.pseudo_votes must be >= 0, feedback.weight and feedback.dispute_factor within 0..1");
        }
        Ok(())
    }
}

/// When a submit is the same experience as a stored one (merged as a confirmation) or its
/// opposite (both marked contested).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct DedupSection {
    pub merge_cosine: f64,
    pub contest_cosine: f64,
    pub contest_callers: u32,
}

impl Default for DedupSection {
    fn default() -> Self {
        let d = knowhub_service::EvidenceSettings::default();
        DedupSection {
            merge_cosine: d.merge_cosine,
            contest_cosine: d.contest_cosine,
            contest_callers: d.contest_callers,
        }
    }
}

impl DedupSection {
    pub fn settings(&self) -> anyhow::Result<knowhub_service::EvidenceSettings> {
        if !((0.0..=1.0).contains(&self.merge_cosine) && (0.0..=1.0).contains(&self.contest_cosine)) {
            bail!("dedup.merge_cosine and dedup.contest_cosine must be within 0..1");
        }
        if self.contest_callers == 0 {
            bail!("dedup.contest_callers must be at least 1");
        }
        Ok(knowhub_service::EvidenceSettings {
            merge_cosine: self.merge_cosine,
            contest_cosine: self.contest_cosine,
            contest_callers: self.contest_callers,
        })
    }
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LlmProviderKind {
    /// OpenAI-compatible Chat Completions (OpenAI, DeepSeek, Qwen/DashScope, Ollama, vLLM, llama.cpp).
    Openai,
    /// Anthropic Messages.
    Anthropic,
}

/// The LLM used for extraction. Extraction is on when `model` is set.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LlmConfig {
    pub provider: LlmProviderKind,
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<Secret>,
    pub timeout_secs: u64,
    pub max_retries: u32,
    pub max_output_tokens: u32,
    /// The model's context window in tokens, for servers with a small one (Ollama `num_ctx`).
    pub context_tokens: Option<u32>,
    pub temperature: Option<f32>,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            provider: LlmProviderKind::Openai,
            base_url: None,
            model: None,
            api_key: None,
            timeout_secs: 120,
            max_retries: 3,
            max_output_tokens: 4096,
            context_tokens: None,
            temperature: Some(0.0),
        }
    }
}

impl LlmConfig {
    /// `None` when extraction is off (no model configured).
    pub fn settings(&self) -> anyhow::Result<Option<knowhub_ai::LlmSettings>> {
        let Some(model) = self.model.as_deref().map(str::trim).filter(|m| !m.is_empty()) else {
            if self.base_url.is_some() {
                bail!("llm.base_url is set but llm.model is not: set KNOWHUB_LLM_MODEL (or remove the base URL)");
            }
            return Ok(None);
        };
        let provider = match self.provider {
            LlmProviderKind::Openai => knowhub_ai::LlmProvider::OpenAi,
            LlmProviderKind::Anthropic => knowhub_ai::LlmProvider::Anthropic,
        };
        let mut s = knowhub_ai::LlmSettings::new(provider, model);
        if let Some(u) = &self.base_url {
            s.base_url = u.clone();
        }
        s.api_key = self.api_key.as_ref().filter(|k| !k.0.is_empty()).map(|k| knowhub_ai::ApiKey::new(k.0.clone()));
        s.timeout = std::time::Duration::from_secs(self.timeout_secs);
        s.max_retries = self.max_retries;
        s.max_output_tokens = self.max_output_tokens;
        s.context_tokens = self.context_tokens;
        s.temperature = self.temperature;
        s.validate().map_err(|e| anyhow::anyhow!("llm: {e}"))?;
        Ok(Some(s))
    }
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ExtractionConfig {
    /// Extracted experiences wait in the review queue.
    pub require_approval: bool,
    /// Keep only items the model is more confident about than this.
    pub min_confidence: f64,
    pub max_transcript_chars: usize,
    pub max_items: usize,
    /// Attempts per job when the LLM is unreachable.
    pub max_attempts: u32,
    /// Base of the delay between those attempts: after n attempts a job waits this x 2^n s.
    pub retry_after_secs: u64,
}

impl Default for ExtractionConfig {
    fn default() -> Self {
        let d = knowhub_service::ExtractSettings::default();
        ExtractionConfig {
            require_approval: true,
            min_confidence: d.min_confidence,
            max_transcript_chars: d.max_transcript_chars,
            max_items: d.max_items,
            max_attempts: d.max_attempts,
            retry_after_secs: d.retry_after_secs,
        }
    }
}

impl ExtractionConfig {
    pub fn settings(&self) -> anyhow::Result<knowhub_service::ExtractSettings> {
        if !(0.0..1.0).contains(&self.min_confidence) {
            bail!("extraction.min_confidence must be within 0..1");
        }
        if self.max_transcript_chars < 2_000 || !(1..=50).contains(&self.max_items) || self.max_attempts == 0 {
            bail!("extraction: max_transcript_chars must be >= 2000, max_items 1..50, max_attempts >= 1");
        }
        let max_retry = knowhub_service::ExtractSettings::MAX_RETRY_AFTER_SECS;
        if !(1..=max_retry).contains(&self.retry_after_secs) {
            bail!("extraction.retry_after_secs must be within 1..{max_retry} (its longest wait is then a day)");
        }
        Ok(knowhub_service::ExtractSettings {
            min_confidence: self.min_confidence,
            max_transcript_chars: self.max_transcript_chars,
            max_items: self.max_items,
            max_attempts: self.max_attempts,
            retry_after_secs: self.retry_after_secs,
            ..Default::default()
        })
    }
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum AutoApproveKind {
    #[default]
    All,
    Reviewers,
    None,
}

#[derive(Debug, Clone, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ReviewConfig {
    /// Which manual submits skip the review queue: all | reviewers (keys with reviewer/admin role) | none.
    pub auto_approve: AutoApproveKind,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub bind: String,
    pub data_dir: PathBuf,
    /// PostgreSQL instead of the data dir (a secret: it may hold a password).
    pub database_url: Option<Secret>,
    pub log_format: LogFormat,
    /// Require API keys (always required on a non-loopback address).
    pub auth: bool,
    pub embedder: EmbedderConfig,
    pub search: SearchSection,
    pub feedback: FeedbackSection,
    pub dedup: DedupSection,
    pub expiry: ExpirySection,
    pub webhooks: Vec<WebhookSection>,
    pub sync: SyncSections,
    pub limits: LimitsSection,
    pub llm: LlmConfig,
    pub extraction: ExtractionConfig,
    pub review: ReviewConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: "127.0.0.1:8000".into(),
            data_dir: PathBuf::from("./knowhub-data"),
            database_url: None,
            log_format: LogFormat::Text,
            auth: false,
            embedder: EmbedderConfig::default(),
            search: SearchSection::default(),
            feedback: FeedbackSection::default(),
            dedup: DedupSection::default(),
            expiry: ExpirySection::default(),
            webhooks: Vec::new(),
            sync: SyncSections::default(),
            limits: LimitsSection::default(),
            llm: LlmConfig::default(),
            extraction: ExtractionConfig::default(),
            review: ReviewConfig::default(),
        }
    }
}

/// Values from flags and environment (clap reads `KNOWHUB_*` for each); `None` = not given.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct Overrides {
    /// TOML config file (see `knowhub config default`).
    #[arg(long, env = "KNOWHUB_CONFIG", global = true)]
    pub config: Option<PathBuf>,
    /// Data directory of the embedded store.
    #[arg(long, env = "KNOWHUB_DATA_DIR", global = true)]
    pub data_dir: Option<PathBuf>,
    /// PostgreSQL URL (postgres://user:pass@host/db); replaces the data dir. Prefer the env var.
    #[arg(long, env = "KNOWHUB_DATABASE_URL", hide_env_values = true, global = true)]
    pub database_url: Option<String>,
    /// Embedder: none (full-text only), openai, local.
    #[arg(long, env = "KNOWHUB_EMBEDDER", global = true)]
    pub embedder: Option<EmbedderKind>,
    /// Base URL of an OpenAI-compatible embeddings API, e.g. https://api.openai.com/v1.
    #[arg(long, env = "KNOWHUB_EMBED_BASE_URL", global = true)]
    pub embed_base_url: Option<String>,
    /// Embedding model name for the openai embedder.
    #[arg(long, env = "KNOWHUB_EMBED_MODEL", global = true)]
    pub embed_model: Option<String>,
    /// API key for the openai embedder (prefer the environment variable).
    #[arg(long, env = "KNOWHUB_EMBED_API_KEY", hide_env_values = true, global = true)]
    pub embed_api_key: Option<String>,
    /// Directory holding the local model's files.
    #[arg(long, env = "KNOWHUB_MODEL_DIR", global = true)]
    pub model_dir: Option<PathBuf>,
    /// Log format on stderr.
    #[arg(long, env = "KNOWHUB_LOG_FORMAT", global = true)]
    pub log_format: Option<LogFormat>,
    /// Require API keys (true/false).
    #[arg(long, env = "KNOWHUB_AUTH", global = true)]
    pub auth: Option<bool>,
    /// LLM API shape for extraction: openai (compatible) or anthropic.
    #[arg(long, env = "KNOWHUB_LLM_PROVIDER", global = true)]
    pub llm_provider: Option<LlmProviderKind>,
    /// LLM base URL, e.g. https://api.deepseek.com/v1 or http://127.0.0.1:11434/v1.
    #[arg(long, env = "KNOWHUB_LLM_BASE_URL", global = true)]
    pub llm_base_url: Option<String>,
    /// LLM model name; setting it turns extraction on.
    #[arg(long, env = "KNOWHUB_LLM_MODEL", global = true)]
    pub llm_model: Option<String>,
    /// LLM API key (prefer the environment variable).
    #[arg(long, env = "KNOWHUB_LLM_API_KEY", hide_env_values = true, global = true)]
    pub llm_api_key: Option<String>,
    /// The LLM's context window in tokens (prompt + answer), for local servers with a small one.
    #[arg(long, env = "KNOWHUB_LLM_CONTEXT_TOKENS", global = true)]
    pub llm_context_tokens: Option<u32>,
    /// Extracted experiences wait for review (true/false).
    #[arg(long, env = "KNOWHUB_REQUIRE_APPROVAL", global = true)]
    pub require_approval: Option<bool>,
    /// New records per agent key in any minute before the rest wait for review (0 = no limit).
    #[arg(long, env = "KNOWHUB_RECORD_BURST", global = true)]
    pub record_burst: Option<u32>,
    /// New records per agent key in any hour before the rest wait for review (0 = no limit).
    #[arg(long, env = "KNOWHUB_RECORDS_PER_HOUR", global = true)]
    pub records_per_hour: Option<u32>,
}

impl Config {
    /// Builds the effective config: defaults < TOML file < env/flags.
    pub fn load(o: &Overrides) -> anyhow::Result<Self> {
        let mut c = match &o.config {
            Some(p) => Self::from_file(p)?,
            None => Config::default(),
        };
        if let Some(v) = &o.data_dir {
            c.data_dir = v.clone();
        }
        if let Some(v) = &o.database_url {
            c.database_url = Some(Secret(v.clone()));
        }
        if let Some(v) = o.embedder {
            c.embedder.kind = v;
        }
        if let Some(v) = &o.embed_base_url {
            c.embedder.base_url = Some(v.clone());
        }
        if let Some(v) = &o.embed_model {
            c.embedder.model = Some(v.clone());
        }
        if let Some(v) = &o.embed_api_key {
            c.embedder.api_key = Some(Secret(v.clone()));
        }
        if let Some(v) = &o.model_dir {
            c.embedder.model_dir = Some(v.clone());
        }
        if let Some(v) = o.log_format {
            c.log_format = v;
        }
        if let Some(v) = o.auth {
            c.auth = v;
        }
        if let Some(v) = o.llm_provider {
            c.llm.provider = v;
        }
        if let Some(v) = &o.llm_base_url {
            c.llm.base_url = Some(v.clone());
        }
        if let Some(v) = &o.llm_model {
            c.llm.model = Some(v.clone());
        }
        if let Some(v) = &o.llm_api_key {
            c.llm.api_key = Some(Secret(v.clone()));
        }
        if let Some(v) = o.llm_context_tokens {
            c.llm.context_tokens = Some(v);
        }
        if let Some(v) = o.require_approval {
            c.extraction.require_approval = v;
        }
        if let Some(v) = o.record_burst {
            c.limits.record_burst = v;
        }
        if let Some(v) = o.records_per_hour {
            c.limits.records_per_hour = v;
        }
        c.search.validate()?;
        c.feedback.validate()?;
        c.dedup.settings()?;
        c.expiry.settings()?;
        c.webhook_settings()?;
        c.sync_peers()?;
        c.limits.connections()?;
        c.extraction.settings()?;
        Ok(c)
    }

    /// The webhooks, checked (names unique, URLs http(s), secrets long enough).
    pub fn webhook_settings(&self) -> anyhow::Result<Vec<knowhub_service::Webhook>> {
        let hooks: Vec<knowhub_service::Webhook> =
            self.webhooks.iter().enumerate().map(|(i, w)| w.settings(i)).collect::<anyhow::Result<_>>()?;
        let mut names: Vec<&str> = hooks.iter().map(|w| w.name.as_str()).collect();
        names.sort_unstable();
        if let Some(d) = names.windows(2).find(|p| p[0] == p[1]) {
            bail!("webhooks: the name {:?} is used twice", d[0]);
        }
        Ok(hooks)
    }

    /// The hubs to pull from continuously, checked (http(s) URLs, valid scopes).
    pub fn sync_peers(&self) -> anyhow::Result<Vec<knowhub_service::SyncPeer>> {
        let list: Vec<&SyncSection> = match &self.sync {
            SyncSections::One(s) => vec![s],
            SyncSections::Many(v) => v.iter().collect(),
        };
        list.into_iter()
            .enumerate()
            .map(|(i, s)| {
                let req = knowhub_service::SyncRequest {
                    from: s.from.clone(),
                    key: s.key.as_ref().map(|k| k.0.clone()),
                    scope: s.scope.clone(),
                    into: s.into.clone(),
                };
                req.validate().map_err(|e| anyhow::anyhow!("sync[{i}] (from = {:?}): {e}", s.from))
            })
            .collect()
    }

    pub fn from_file(p: &Path) -> anyhow::Result<Self> {
        let s = std::fs::read_to_string(p).with_context(|| format!("reading config file {}", p.display()))?;
        toml::from_str(&s).with_context(|| format!("invalid config file {}", p.display()))
    }
}

/// `knowhub config default`: every key with its default and a comment.
pub const DEFAULT_TOML: &str = r#"# KnowHub configuration. Precedence: this file < KNOWHUB_* environment < command-line flags.
# Unknown keys are an error.

# Address to listen on. Keep 127.0.0.1 unless the hub must be reachable from other machines.
bind = "127.0.0.1:8000"            # KNOWHUB_BIND / --bind
data_dir = "./knowhub-data"        # KNOWHUB_DATA_DIR / --data-dir
# PostgreSQL + pgvector instead of the data dir; several servers may share it.
# database_url = "postgres://knowhub:PASSWORD@db.internal/knowhub"   # KNOWHUB_DATABASE_URL / --database-url
log_format = "text"                # text | json        KNOWHUB_LOG_FORMAT / --log-format
# Require API keys (Authorization: Bearer). Always required on a non-loopback bind.
auth = false                       # KNOWHUB_AUTH / --auth

[embedder]
kind = "local"                     # local | openai | none   KNOWHUB_EMBEDDER / --embedder
# base_url = "https://api.openai.com/v1"   # KNOWHUB_EMBED_BASE_URL (openai)
# model = "text-embedding-3-small"         # KNOWHUB_EMBED_MODEL (openai)
# api_key = "..."                          # KNOWHUB_EMBED_API_KEY (openai; prefer the env var)
# model_dir = "~/.cache/knowhub/models/multilingual-e5-small-q4"   # KNOWHUB_MODEL_DIR (local)
timeout_secs = 30
debias = true                      # local: remove the language direction from queries (cross-lingual)

[search]
fusion = "calibrated"              # calibrated | weighted | rrf | agreement
relevance_weight = 0.5             # calibrated: the share of the order that is relevance (feedback can lift any hit)
vector_weight = 0.8                # the one default that keeps hybrid >= each signal alone on all 3 benchmark sets
text_weight = 0.2
rrf_k = 60.0
candidate_multiplier = 4           # candidate pool per signal = top_k x this
mmr = false                        # diversity re-ranking
mmr_lambda = 0.7
decay = false                      # favour recent experiences
decay_half_life_days = 30.0
quality_weight = 0.1               # how much rating and confirmations reorder results (0 = none)
score_union = true                 # hybrid: score every candidate on both signals (not 0 when missing from a list)
min_relevance = 0.02                 # hits below this calibrated relevance (~ probability of answering) are not returned

# Outcome votes (POST /api/feedback: helped | failed | irrelevant), one per caller per experience.
[feedback]
pseudo_votes = 4.0                   # helpfulness is shrunk towards "unknown" by this many votes: few votes move it little
weight = 1.0                         # how far helpfulness moves the order (1 = up to x2 .. x0)
dispute_threshold = 3                # distinct callers reporting a failure (more than report success): disputed, demoted, sent to review; 0 = off
dispute_factor = 0.5                  # a disputed experience's order is multiplied by this

# Near-duplicates: same resource (and version) and outcome, same meaning in other words.
[dedup]
merge_cosine = 0.97                   # at least this similar: merged as a confirmation (duplicate_of)
contest_cosine = 0.97                 # same resource, opposite outcome, at least this similar (or the same task): both marked contested
contest_callers = 2                  # ... once this many distinct callers report that opposite outcome

# How long an experience lives without re-confirmation (a new confirmation or a helped vote renews
# it; past it, it leaves agents' results and waits in the console's re-confirm list). A submit may
# set its own: expires_at or ttl_days. 0 = forever.
[expiry]
days = 0
# scopes = { "project/launch" = 30 }   # per scope, overriding days

# Webhooks: each gets every change it asks for (the events of GET /api/changes), one POST each, in
# order, signed: X-KnowHub-Signature = "sha256=" + hex HMAC-SHA256(secret, "<X-KnowHub-Timestamp>.<body>").
# Retried with backoff until it answers 2xx; a dead receiver never slows a write.
# [[webhooks]]
# name = "chat"                       # its position in the feed is kept under this name
# url = "https://chat.internal/knowhub"
# events = ["disputed", "approved"]   # omitted: every event
# scopes = ["team/payments"]          # omitted: every scope (deletions always come)
# secret = "at least 16 characters"

# Sync: pull another hub's changes continuously (long-polled; resumes where it stopped after a
# restart). Records keep their ids and say which hub they came from; a record changed on both
# hubs keeps this hub's version and the other's waits in the review queue. `[[sync]]` for several.
# [sync]
# from = "http://10.0.0.5:8000"       # the other hub
# key = "kh_..."                      # a reviewer key there pulls pending and rejected records too
# scope = "team/infra"                # only this scope of the other hub
# into = "team/infra"                 # stored in this scope here (default: as there)

# What one client may take of the server. Rates are per caller: its key, or its address without auth.
[limits]
writes_per_minute = 600               # submits + feedback votes; over it: 429 with Retry-After; 0 = no limit
uploads_per_minute = 30               # POST /api/extract (each costs an LLM call); 0 = no limit
record_burst = 20                     # new records per agent key in any minute; beyond: accepted, held for review (flag burst); 0 = no limit   KNOWHUB_RECORD_BURST
records_per_hour = 200                # the same per hour: the sustained rate   KNOWHUB_RECORDS_PER_HOUR
max_connections = 4096                # open connections at most (lowered to fit the open-file limit); when full, the longest-idle one is closed
max_connections_per_address = 256     # open connections from one IP address (loopback exempt); 0 = no cap (behind a proxy on another host: raise it)
header_timeout_secs = 10              # a new connection must send a whole request head within this of connecting; a kept-alive one idle this long is closed

# The LLM for POST /api/extract. Extraction is off until a model is set.
[llm]
provider = "openai"                # openai (any compatible API) | anthropic   KNOWHUB_LLM_PROVIDER
# base_url = "https://api.openai.com/v1"   # KNOWHUB_LLM_BASE_URL (Ollama: http://127.0.0.1:11434/v1)
# model = "gpt-4o-mini"                    # KNOWHUB_LLM_MODEL
# api_key = "..."                          # KNOWHUB_LLM_API_KEY (prefer the env var)
timeout_secs = 120
max_retries = 3                    # on 429/5xx/connection errors, with backoff
max_output_tokens = 4096
# context_tokens = 8192            # the model's context window, when small (Ollama num_ctx, llama.cpp -c): the
                                   # answer budget is capped at a quarter and the transcript fit to the rest   KNOWHUB_LLM_CONTEXT_TOKENS
temperature = 0.0

[extraction]
require_approval = true            # extracted items wait for a reviewer   KNOWHUB_REQUIRE_APPROVAL
min_confidence = 0.7               # keep items the model is more confident about than this
max_transcript_chars = 24000       # transcript budget: start, tool calls and end kept; middle summarised
max_items = 10
max_attempts = 3                   # per job, when the LLM is unreachable
retry_after_secs = 30              # then wait this x 2, x 4, ... seconds between attempts

[review]
auto_approve = "all"               # manual submits approved at once: all | reviewers | none
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_toml_parses_to_defaults() {
        let c: Config = toml::from_str(DEFAULT_TOML).unwrap();
        assert_eq!(c, Config::default());
    }

    #[test]
    fn record_limits_from_file_then_flag() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("k.toml");
        std::fs::write(&p, "[limits]\nrecord_burst = 5\nrecords_per_hour = 50\n").unwrap();
        let c = Config::load(&Overrides { config: Some(p.clone()), ..Default::default() }).unwrap();
        assert_eq!(c.limits.records(), knowhub_service::RecordLimits { burst: 5, per_hour: 50 });
        // clap fills Overrides from the environment and the flags alike, the flag winning.
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            o: Overrides,
        }
        let o = Cli::parse_from(["knowhub", "--config", p.to_str().unwrap(), "--record-burst", "7"]).o;
        let c = Config::load(&o).unwrap();
        assert_eq!(c.limits.records(), knowhub_service::RecordLimits { burst: 7, per_hour: 50 });
        assert_eq!(Config::default().limits.records(), knowhub_service::RecordLimits { burst: 20, per_hour: 200 });
    }

    #[test]
    fn webhooks_and_expiry_are_checked_at_load() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("k.toml");
        let load = |toml: &str| {
            std::fs::write(&p, toml).unwrap();
            Config::load(&Overrides { config: Some(p.clone()), ..Default::default() })
        };
        let hook = |url: &str, name: &str| {
            format!("[[webhooks]]\nname = \"{name}\"\nurl = \"{url}\"\nsecret = \"0123456789abcdef\"\n")
        };
        let c =
            load(&format!("{}[expiry]\ndays = 90\nscopes = {{ \"team/a\" = 7 }}\n", hook("https://x.internal/h", "a")))
                .unwrap();
        assert_eq!(c.webhook_settings().unwrap()[0].url, "https://x.internal/h");
        assert_eq!(c.expiry.settings().unwrap().ttl_secs("team/a"), Some(7 * 86_400));
        let e = load(&hook("ftp://x.internal/h", "a")).unwrap_err().to_string();
        assert!(e.contains("webhooks[0]") && e.contains("url") && e.contains("ftp://"), "{e}");
        let e =
            load(&format!("{}{}", hook("https://a/h", "same"), hook("https://b/h", "same"))).unwrap_err().to_string();
        assert!(e.contains("used twice"), "{e}");
        let e = load("[expiry]\nscopes = { \"team/\" = 7 }\n").unwrap_err().to_string();
        assert!(e.contains("expiry.scopes"), "{e}");
        let e = load("[[webhooks]]\nname = \"a\"\nurl = \"https://a/h\"\nsecret = \"s\"\ncolour = 1\n").unwrap_err();
        assert!(format!("{e:#}").contains("colour"), "unknown keys are refused: {e:#}");
    }

    #[test]
    fn the_default_order_is_the_cores() {
        let f = FeedbackSection::default();
        assert_eq!(SearchSection::default().to_search_config(&f).fusion, Fusion::default());
        let c: Config = toml::from_str("[search]\nrelevance_weight = 0.2").unwrap();
        match c.search.to_search_config(&f).fusion {
            Fusion::Calibrated { relevance, vector, text } => {
                assert!((relevance - 0.2).abs() < 1e-12 && (vector - 0.64).abs() < 1e-12 && (text - 0.16).abs() < 1e-12)
            }
            other => panic!("{other:?}"),
        }
        let bad: Config = toml::from_str("[search]\nrelevance_weight = 1.5").unwrap();
        assert!(bad.search.validate().unwrap_err().to_string().contains("relevance_weight"));
    }

    #[test]
    fn unknown_keys_rejected() {
        let e = toml::from_str::<Config>("bnid = \"0.0.0.0:1\"").unwrap_err().to_string();
        assert!(e.contains("bnid"), "{e}");
        let e = toml::from_str::<Config>("[search]\nvector_wieght = 1.0").unwrap_err().to_string();
        assert!(e.contains("vector_wieght"), "{e}");
    }

    #[test]
    fn precedence_file_then_overrides() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("k.toml");
        std::fs::write(&p, "data_dir = \"/from/file\"\n[embedder]\nkind = \"openai\"\nmodel = \"file-model\"\n")
            .unwrap();
        let o = Overrides { config: Some(p.clone()), embed_model: Some("flag-model".into()), ..Default::default() };
        let c = Config::load(&o).unwrap();
        assert_eq!(c.data_dir, PathBuf::from("/from/file"));
        assert_eq!(c.embedder.kind, EmbedderKind::Openai);
        assert_eq!(c.embedder.model.as_deref(), Some("flag-model"));
    }

    #[test]
    fn llm_context_window_from_file_or_flag_and_checked() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("k.toml");
        std::fs::write(&p, "[llm]\nmodel = \"qwen2.5:7b\"\ncontext_tokens = 4096\n").unwrap();
        let from_file = Config::load(&Overrides { config: Some(p.clone()), ..Default::default() }).unwrap();
        let s = from_file.llm.settings().unwrap().unwrap();
        assert_eq!((s.context_tokens, s.answer_tokens()), (Some(4096), 1024));
        let o = Overrides { config: Some(p.clone()), llm_context_tokens: Some(8192), ..Default::default() };
        assert_eq!(Config::load(&o).unwrap().llm.settings().unwrap().unwrap().context_tokens, Some(8192));
        let o = Overrides { config: Some(p), llm_context_tokens: Some(512), ..Default::default() };
        let e = Config::load(&o).unwrap().llm.settings().unwrap_err().to_string();
        assert!(e.contains("context_tokens"), "{e}");
    }

    #[test]
    fn extraction_retry_delay_from_file_and_checked() {
        let settings = |toml_text: &str| toml::from_str::<Config>(toml_text).unwrap().extraction.settings();
        assert_eq!(settings("").unwrap().retry_after_secs, 30);
        assert_eq!(settings("[extraction]\nretry_after_secs = 5").unwrap().retry_after_secs, 5);
        assert_eq!(settings("[extraction]\nretry_after_secs = 1350").unwrap().retry_after_secs, 1_350);
        for bad in [0, 1_351] {
            let e = settings(&format!("[extraction]\nretry_after_secs = {bad}")).unwrap_err().to_string();
            assert!(e.contains("retry_after_secs"), "{e}");
        }
    }

    #[test]
    fn secrets_hidden_from_debug() {
        let mut c = Config::default();
        c.embedder.api_key = Some(Secret("sk-live-123".into()));
        c.database_url = Some(Secret("postgres://u:pg-pass-456@db/k".into()));
        let s = format!("{c:?}");
        assert!(!s.contains("sk-live-123") && !s.contains("pg-pass-456") && s.contains("***"));
    }

    #[test]
    fn bad_search_values_rejected() {
        let mut s = SearchSection { mmr_lambda: 1.5, ..Default::default() };
        assert!(s.validate().is_err());
        s = SearchSection { vector_weight: 0.0, text_weight: 0.0, ..Default::default() };
        assert!(s.validate().is_err());
    }
}
