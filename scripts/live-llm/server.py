"""A minimal OpenAI-compatible chat server around a local GGUF model, for the live extraction check.

Why: the extraction pipeline had only ever met mocked models. This serves a real one (any GGUF
that `transformers` can load) on 127.0.0.1 with the parts of `/v1/chat/completions` KnowHub uses:
the model's own chat template, greedy decoding at temperature 0, `max_tokens` (finish_reason
`length` when hit), `usage`, and a 400 in OpenAI's error shape when the prompt exceeds the
model's context, as real servers answer. Not for production: one request at a time.

    python server.py --gguf DIR/FILE.gguf --port 8399
"""

import argparse
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def load(path, device):
    folder, _, name = path.rpartition("/")
    tok = AutoTokenizer.from_pretrained(folder or ".", gguf_file=name)
    model = AutoModelForCausalLM.from_pretrained(folder or ".", gguf_file=name, dtype=torch.float32)
    model.to(device).eval()
    ctx = getattr(model.config, "max_position_embeddings", 2048)
    return tok, model, ctx


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gguf", required=True)
    ap.add_argument("--port", type=int, default=8399)
    ap.add_argument("--name", default="local-gguf")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    t0 = time.time()
    tok, model, ctx = load(args.gguf, args.device)
    print(f"loaded {args.gguf} on {args.device} in {time.time() - t0:.1f}s, context {ctx} tokens", flush=True)

    class Handler(BaseHTTPRequestHandler):
        def reply(self, code, obj):
            data = json.dumps(obj).encode()
            self.send_response(code)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def error(self, code, message, kind="invalid_request_error"):
            self.reply(code, {"error": {"message": message, "type": kind}})

        def do_GET(self):
            if self.path.rstrip("/") == "/v1/models":
                return self.reply(200, {"object": "list", "data": [{"id": args.name, "object": "model"}]})
            self.error(404, "not found")

        def do_POST(self):
            if self.path.rstrip("/") != "/v1/chat/completions":
                return self.error(404, "not found")
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
                messages = body["messages"]
            except (ValueError, KeyError, TypeError) as e:
                return self.error(400, f"bad request body: {e}")
            max_new = int(body.get("max_tokens") or 512)
            ids = tok.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt")
            if not torch.is_tensor(ids):
                ids = ids["input_ids"]
            ids = ids.to(args.device)
            n_in = ids.shape[1]
            if n_in + max_new > ctx:
                return self.error(
                    400,
                    f"This model's maximum context length is {ctx} tokens. However, you requested "
                    f"{n_in + max_new} tokens ({n_in} in the messages, {max_new} in the completion).",
                )
            t = time.time()
            with torch.no_grad():
                out = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=max_new, do_sample=False)
            new = out[0][n_in:]
            text = tok.decode(new, skip_special_tokens=True)
            finish = "length" if len(new) >= max_new else "stop"
            print(f"POST {n_in} tokens in, {len(new)} out ({finish}) in {time.time() - t:.1f}s", flush=True)
            self.reply(200, {
                "id": f"chatcmpl-{int(time.time() * 1000)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": args.name,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
                "usage": {"prompt_tokens": n_in, "completion_tokens": len(new), "total_tokens": n_in + len(new)},
            })

        def log_message(self, fmt, *a):
            pass

    HTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    sys.exit(main())
