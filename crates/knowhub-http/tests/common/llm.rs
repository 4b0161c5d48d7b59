//! A scripted LLM on 127.0.0.1 in the OpenAI-compatible and Anthropic shapes: it answers in
//! order and records every request body (the remote model cannot run here).
#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use knowhub_ai::LlmProvider;
use serde_json::{json, Value};

/// A scripted LLM: answers in order, records every request body.
#[derive(Default)]
pub struct Llm {
    pub answers: Mutex<VecDeque<(u16, Duration, String)>>,
    pub requests: Mutex<Vec<Value>>,
}

impl Llm {
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
    /// The user prompts the model received, in order.
    pub fn prompts(&self) -> Vec<String> {
        self.requests()
            .iter()
            .map(|r| r["messages"].as_array().unwrap().last().unwrap()["content"].as_str().unwrap().to_string())
            .collect()
    }
}

/// Wraps model text in the provider's response shape.
pub fn reply(provider: LlmProvider, text: &str) -> String {
    match provider {
        LlmProvider::OpenAi => json!({"model": "mock", "choices": [{"message": {"role": "assistant", "content": text},
            "finish_reason": "stop"}], "usage": {"prompt_tokens": 100, "completion_tokens": 20}}),
        LlmProvider::Anthropic => json!({"model": "mock", "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn", "usage": {"input_tokens": 100, "output_tokens": 20}}),
    }
    .to_string()
}

pub async fn mock_llm(provider: LlmProvider, answers: Vec<(u16, Duration, String)>) -> (String, Arc<Llm>) {
    let llm = Arc::new(Llm { answers: Mutex::new(answers.into()), ..Default::default() });
    let l = llm.clone();
    let router = axum::Router::new().fallback(move |body: Bytes| {
        let l = l.clone();
        async move {
            l.requests.lock().unwrap().push(serde_json::from_slice(&body).unwrap_or(Value::Null));
            let next = l.answers.lock().unwrap().pop_front();
            let (status, delay, body) =
                next.unwrap_or((500, Duration::ZERO, "{\"error\":\"script exhausted\"}".into()));
            tokio::time::sleep(delay).await;
            let mut r = (StatusCode::from_u16(status).unwrap(), body).into_response();
            r.headers_mut().insert("content-type", "application/json".parse().unwrap());
            r.headers_mut().insert("retry-after", "0".parse().unwrap());
            r
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let base = match provider {
        LlmProvider::OpenAi => format!("{url}/v1"),
        LlmProvider::Anthropic => url,
    };
    (base, llm)
}
