//! AI providers: the embedder chosen once from config. (The LLM client for extraction joins later.)

mod embedder;

pub use embedder::{normalize, EmbedError, Embedder, OpenAiEmbedder};
