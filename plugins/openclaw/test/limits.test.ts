// The plugin's argument limits are the server's: each one is compared with the server's
// /openapi.json, which states them. test/fixtures/openapi.json is that document; the server's
// test suite (crates/knowhub-http/tests/openapi.rs) fails when the copy is stale and rewrites it.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { LIMITS, SEARCH_RANGES } from "../src/tool-args.js";

const spec = JSON.parse(fs.readFileSync(new URL("../../test/fixtures/openapi.json", import.meta.url), "utf8"));

function field(schema: string, prop: string): Record<string, unknown> {
  const s = spec.components?.schemas?.[schema]?.properties?.[prop];
  assert.ok(s, `the spec has no ${schema}.${prop}`);
  return s;
}

function param(path: string, method: string, name: string): Record<string, unknown> {
  const p = (spec.paths?.[path]?.[method]?.parameters ?? []).find((x: { name: string }) => x.name === name);
  assert.ok(p?.schema, `the spec has no parameter ${name} on ${method.toUpperCase()} ${path}`);
  return p.schema;
}

test("text limits equal the server's", () => {
  const cases: [keyof typeof LIMITS, Record<string, unknown>][] = [
    ["query", param("/api/search", "get", "q")],
    ["task", field("SubmitRequest", "task")],
    ["resource", field("SubmitRequest", "resource")],
    ["result", field("SubmitRequest", "result")],
    ["content", field("SubmitRequest", "content")],
    ["contentType", field("SubmitRequest", "content_type")],
    ["resourceVersion", field("SubmitRequest", "resource_version")],
    ["note", field("FeedbackRequest", "note")],
    // The plugin cuts agent ids and session keys to this before sending them.
    ["id", field("SubmitRequest", "agent_id")],
    ["id", field("SubmitRequest", "session_key")],
    ["experienceId", field("FeedbackRequest", "id")],
    ["experienceId", param("/api/content/{id}", "get", "id")],
  ];
  for (const [key, schema] of cases) {
    assert.equal(typeof schema.maxLength, "number", `the server states no maxLength for LIMITS.${key}`);
    assert.equal(LIMITS[key], schema.maxLength, `LIMITS.${key}`);
  }
});

test("kb_search's ranges and defaults equal the server's", () => {
  const topK = param("/api/search", "get", "top_k");
  const minScore = param("/api/search", "get", "min_score");
  const minRelevance = param("/api/search", "get", "min_relevance");
  assert.deepEqual(SEARCH_RANGES.topK, { min: topK.minimum, max: topK.maximum, default: topK.default });
  assert.deepEqual(SEARCH_RANGES.minScore, { min: minScore.minimum, max: minScore.maximum, default: minScore.default });
  assert.deepEqual(SEARCH_RANGES.minRelevance, { min: minRelevance.minimum, max: minRelevance.maximum });
});
