"""A stand-in for ``python -m llama_cpp.server``: an OpenAI-compatible chat server on loopback (tests only).

It takes llama_cpp.server's command line (only ``--port`` and ``--model_alias`` matter) and
answers every chat with ``Answer: <a number fixed by the prompt>`` after ``STAND_IN_LATENCY_S``
seconds. Each prompt answered is appended, once the reply is sent, as a JSON line to the file
named by ``STAND_IN_ANSWERED`` (if set), so a test can tell what was answered, by which process.
"""

import argparse
import hashlib
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--model_alias", default="stand-in")
arguments, _ = parser.parse_known_args()
latency_s = float(os.environ.get("STAND_IN_LATENCY_S", "0"))
answered = os.environ.get("STAND_IN_ANSWERED")


class Handler(BaseHTTPRequestHandler):
    def log_message(self, format, *args):
        print(f"stand-in {os.getpid()}: {format % args}", flush=True)

    def reply(self, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def do_GET(self):
        self.reply({"object": "list", "data": [{"id": arguments.model_alias, "object": "model", "created": 0,
                                                "owned_by": "stand-in"}]})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][-1]["content"]
        time.sleep(latency_s)
        value = hashlib.sha256(prompt.encode()).digest()[0] % 12
        self.reply({"id": "stand-in", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": f"Answer: {value}"}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13}})
        if answered:
            with open(answered, "a", encoding="utf-8") as log:
                log.write(json.dumps({"pid": os.getpid(), "prompt": prompt}) + "\n")


server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
print(f"stand-in llama.cpp server {os.getpid()} listening on port {arguments.port}", flush=True)
sys.stdout.flush()
server.serve_forever()
