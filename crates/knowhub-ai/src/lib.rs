//! AI providers chosen once from config: the embedder, and the LLM client used for extraction.

mod embedder;
mod llm;
pub mod screen;

pub use embedder::{
    add_minilm, compose, latin_share, normalize, EmbedError, Embedder, EmbedderKind, EmbedderSettings, OpenAiEmbedder,
    QueryVectors,
};
pub use knowhub_embed::default_model_dir;
pub use llm::{
    parse_json_array, ApiKey, Completion, LlmClient, LlmError, LlmProvider, LlmSettings, LlmStats, ParseError,
};
