"""A scripted OpenAI-compatible chat server on loopback, for tests.

``reply(messages) -> str`` decides each answer; ``faults`` is a list of HTTP statuses
(``"drop"`` closes the connection, ``"slow"`` answers after ``slow_s``) served, in order,
before normal replies resume. With ``fault_rate`` a seeded random share of all requests
fails, each in one of ``fault_kinds``. ``latency`` (a function returning seconds) delays
every reply. Every request is recorded in ``requests`` with the time it arrived. ``GET /models``
lists ``models``. ``raw(path, request)`` may answer any request itself with a `Raw` reply (any
status, content type and bytes, optionally trickled), or return ``None`` for the scripted one.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Raw:
    """A reply sent as is; ``seconds_per_byte`` sends the body one byte at a time (after its headers), and
    ``cut_after`` closes the connection after that many bytes of the body (its Content-Length still promises all)."""

    body: bytes
    status: int = 200
    content_type: str = "application/json"
    seconds_per_byte: float = 0.0
    cut_after: int | None = None


class ScriptedServer:
    def __init__(self, reply: Callable[[list[dict]], str], faults: list[int | str] | None = None,
                 retry_after: str | None = None, fault_rate: float = 0.0,
                 fault_kinds: tuple = (500, 503, 429, "drop", "slow"), slow_s: float = 2.0,
                 latency: Callable[[], float] | None = None, seed: int = 0, models: list[str] | None = None,
                 raw: Callable[[str, dict], Raw | None] | None = None):
        self.reply, self.faults, self.retry_after, self.raw = reply, list(faults or []), retry_after, raw
        self.fault_rate, self.fault_kinds, self.slow_s, self.latency = fault_rate, fault_kinds, slow_s, latency
        self._rng = random.Random(seed)
        self.models = models or ["scripted"]
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def send_raw(self, request: dict) -> bool:
                answer = server.raw(self.path, request) if server.raw is not None else None
                if answer is None:
                    return False
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.content_type)
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                if answer.cut_after is not None:
                    self.wfile.write(answer.body[:answer.cut_after])
                    self.wfile.flush()
                    self.close_connection = True
                    return True
                if not answer.seconds_per_byte:
                    self.wfile.write(answer.body)
                    return True
                try:
                    for index in range(len(answer.body)):
                        self.wfile.write(answer.body[index:index + 1])
                        self.wfile.flush()
                        time.sleep(answer.seconds_per_byte)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting
                    self.close_connection = True
                return True

            def do_GET(self):
                if self.send_raw({"headers": {k.lower(): v for k, v in self.headers.items()}}):
                    return
                data = json.dumps({"object": "list", "data": [{"id": m, "object": "model", "created": 0,
                                                               "owned_by": "scripted"} for m in server.models]}).encode()
                self.send_response(200 if self.path.endswith("/models") else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                request = {"body": body, "headers": {k.lower(): v for k, v in self.headers.items()},
                           "time": time.monotonic()}
                with server._lock:
                    server.requests.append(request)
                    fault = server.faults.pop(0) if server.faults else None
                    if fault is None and server._rng.random() < server.fault_rate:
                        fault = server._rng.choice(server.fault_kinds)
                if fault is None and self.send_raw(request):
                    return
                if fault == "slow":
                    time.sleep(server.slow_s)
                    fault = None
                if server.latency is not None:
                    time.sleep(server.latency())
                if fault == "drop":
                    self.close_connection = True
                    self.connection.close()
                    return
                if fault is not None:
                    self.send_response(fault)
                    if server.retry_after:
                        self.send_header("Retry-After", server.retry_after)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(json.dumps({"error": {"message": f"scripted {fault}"}}).encode())
                    return
                text = server.reply(body["messages"])
                payload = {
                    "id": "scripted", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                }
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
