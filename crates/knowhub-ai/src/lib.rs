//! AI providers: the embedder chosen once from config. (The LLM client for extraction joins later.)

mod embedder;

pub use embedder::{normalize, EmbedError, Embedder, EmbedderKind, EmbedderSettings, OpenAiEmbedder};
pub use knowhub_embed::default_model_dir;
