"""Getting the client of an endpoint for a role: its kind opens it, with the response cache if that applies.

`open_client` asks the registry (`endpoint_kind`) how to open the endpoint's kind: a remote server
(``openai``), the embedded model served by supervised llama.cpp servers (``embedded``), vLLM's
in-process engine (``vllm``) or a simulated target (``simulated``). It owns what every kind shares:
the ``STAD_CACHE`` switch and the response cache, closed when the client is.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ._cache import ResponseCache
from ._endpoint import ChatClient, ClientOptions, EndpointConfig, endpoint_kind


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
) -> Iterator[ChatClient]:
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
    kind = endpoint_kind(config.kind)
    mode = os.environ.get("STAD_CACHE", "use")  # "use", "off" (bypass) or "refresh" (call and overwrite)
    if mode not in ("use", "off", "refresh"):
        raise ValueError(f"STAD_CACHE={mode!r}: use 'use', 'off' or 'refresh'")
    private = tempfile.TemporaryDirectory(prefix="stad-cache-") if mode == "off" else None
    where = Path(private.name) / "cache.sqlite" if private is not None else cache_path
    cache = ResponseCache(where) if where and kind.cached else None
    options = ClientOptions(cache=cache, role=role, refresh_cache=refresh_cache or mode == "refresh", ladders=ladders,
                            preflight=preflight, log_dir=log_dir)
    try:
        with kind.open(config, options) as client:
            yield client
    finally:
        if cache is not None:
            cache.close()
        if private is not None:
            private.cleanup()
