//! Placeholder: the local multilingual embedder lands here (issue 3).
