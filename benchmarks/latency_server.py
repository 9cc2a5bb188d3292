"""An OpenAI-compatible chat server that only waits, in a process of its own, for throughput benchmarks.

Every ``POST …/chat/completions`` is answered with ``reply`` after a latency: the next of a
seeded sequence of ``--count`` draws (the same sequence for every server started with the same
arguments, in order of arrival), then the distribution's mean once it is used up. It speaks HTTP/1.1 with
keep-alive and disables Nagle's algorithm on every connection, as production servers do, so
that no 40 ms delayed-ACK stall adds to the latency; and it runs in its own process, so that
it does not share the client's interpreter lock.

    python benchmarks/latency_server.py fixed:0.05 --count 2000          # prints the port
    python benchmarks/latency_server.py lognormal:-3.5:1.0:2.0 --count 2000 --seed 0

`LatencyServer` starts one from Python and stops it on leaving the ``with`` block.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def latency_draws(spec: str, count: int, seed: int) -> list[float]:
    """``fixed:S`` (S seconds each) or ``lognormal:MU:SIGMA:CAP`` (capped at CAP seconds).

    >>> latency_draws("fixed:0.05", 2, 0)
    [0.05, 0.05]
    >>> max(latency_draws("lognormal:-3.5:1.0:2.0", 1000, 0)) <= 2.0
    True
    """
    kind, *numbers = spec.split(":")
    values = [float(number) for number in numbers]
    rng = random.Random(seed)
    if kind == "fixed" and len(values) == 1:
        return [values[0]] * count
    if kind == "lognormal" and len(values) == 3:
        mu, sigma, cap = values
        return [min(rng.lognormvariate(mu, sigma), cap) for _ in range(count)]
    raise ValueError(f"latency {spec!r}: expected fixed:SECONDS or lognormal:MU:SIGMA:CAP")


def serve(draws: list[float], mean: float, reply: str = "ok") -> ThreadingHTTPServer:
    """Answer with the ``draws`` in order of arrival, then after ``mean`` seconds each."""
    queue = iter(draws)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self):
            super().setup()
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, *args):
            pass

        def _send(self, status: int, payload: dict) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self._send(200, {"object": "list", "data": [{"id": "bench", "object": "model", "created": 0,
                                                         "owned_by": "bench"}]})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with lock:
                latency = next(queue, mean)
            time.sleep(latency)
            self._send(200, {"id": "bench", "object": "chat.completion", "created": 0, "model": body["model"],
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": reply}}],
                             "usage": {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11}})

    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer.request_queue_size = 128
    return ThreadingHTTPServer(("127.0.0.1", 0), Handler)


class LatencyServer:
    """``with LatencyServer("fixed:0.05", count=2000) as url:`` a server process at ``url`` (…/v1)."""

    def __init__(self, spec: str, count: int = 0, seed: int = 0, reply: str = "ok"):
        self.command = [sys.executable, __file__, spec, "--count", str(count), "--seed", str(seed),
                        "--reply", reply]

    def __enter__(self) -> str:
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, text=True)
        port = self.process.stdout.readline().strip()
        if not port:
            self.process.kill()
            raise RuntimeError(f"latency server did not start: {' '.join(self.command)}")
        return f"http://127.0.0.1:{port}/v1"

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("latency", help="fixed:SECONDS or lognormal:MU:SIGMA:CAP")
    parser.add_argument("--count", type=int, default=0, help="how many draws before the mean is used")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reply", default="ok")
    args = parser.parse_args(argv)
    typical = latency_draws(args.latency, 10_000, args.seed)
    server = serve(latency_draws(args.latency, args.count, args.seed), sum(typical) / len(typical), args.reply)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
