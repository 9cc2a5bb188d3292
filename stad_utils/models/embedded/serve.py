"""Serve the embedded model to a room: one OpenAI-compatible llama.cpp server that every laptop can ask.

    python -m stad_utils.models.embedded.serve                     # http://0.0.0.0:8000/v1, every core
    python -m stad_utils.models.embedded.serve --port 8080 --threads 4

The workshop's fifth exercise (``09_workshop``) points its ``room_url`` at this server. It runs in
the foreground until Ctrl-C, and prints the address to write on the board. Unlike the servers a
run starts for itself (`llama_servers`: single-thread servers on loopback, one per core), this is
one server on every network interface: llama.cpp answers one request at a time, so it gets every
thread to answer each one as fast as it can. It needs the ``embedded`` extra, as ``kind: embedded``.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys

from ._servers import EMBEDDED_ALIAS, embedded_model_path


def server_command(host: str, port: int, threads: int) -> list[str]:
    """The llama.cpp server command that serves the embedded model as ``EMBEDDED_ALIAS``."""
    return [sys.executable, "-m", "llama_cpp.server", "--model", str(embedded_model_path()),
            "--model_alias", EMBEDDED_ALIAS, "--host", host, "--port", str(port), "--n_ctx", "2048",
            "--n_threads", str(threads)]


def room_address() -> str:
    """The address other laptops reach this machine at on the local network (the loopback address if offline)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: no packet is sent, the route picks the interface
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def main(argv: list[str] | None = None) -> None:
    """Become the server (Ctrl-C and signals reach llama.cpp itself, and nothing is left running)."""
    parser = argparse.ArgumentParser(prog="python -m stad_utils.models.embedded.serve",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="0.0.0.0", help="the interface to listen on (default: every one)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="llama.cpp threads (default: every core)")
    args = parser.parse_args(argv)
    command = server_command(args.host, args.port, args.threads)
    print(f"serving {EMBEDDED_ALIAS} for the room; in 09_workshop set\n"
          f'  room_url = "http://{room_address()}:{args.port}/v1"\n  room_model = "{EMBEDDED_ALIAS}"\n'
          "Ctrl-C stops it.", flush=True)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
