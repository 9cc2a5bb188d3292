"""Endpoints: the settings of one (`EndpointConfig`), and the registry of the kinds an endpoint may be of.

An `EndpointKind` says how to open its client, what the run manifest records of it before a run,
what a params check asks of its block, whether the response cache applies, whether its settings
reach a server in a request, and which pip extra it needs. Each kind registers itself where it is
implemented, with `register_kind`: ``openai`` in ``_client``, ``embedded`` in ``embedded``,
``vllm`` in ``_vllm``, ``simulated`` in ``_simulated``. `open_client`, the endpoint's validators
and the pipeline look a kind up by name (`endpoint_kind`), so a new kind, for instance one that
asks through Inspect's model providers, is one more registered object::

    register_kind(EndpointKind("inspect", open=open_inspect_client, extra="inspect"))

The registry lives beside the settings it validates, and imports none of the modules that register
kinds (they import it).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ._cache import ResponseCache
from ._planted import Simulation
from ._replies import ChatResult, Messages, ReasoningConfig, UsageStats


class EndpointConfig(BaseModel):
    """Where a role's model is served and how to sample from it (one block of a params file).

    ``kind`` is a registered `EndpointKind` (`stad_utils.models.endpoint_kind`): ``"openai"`` for any
    OpenAI-compatible server, ``"embedded"`` for the bundled SmolLM2 served by llama.cpp on a free
    loopback port (see `stad_utils.models.open_client`), ``"vllm"`` for vLLM's in-process engine (GPU
    only), or ``"simulated"`` for a target with planted weaknesses (`stad_utils.models.SimulatedTarget`).
    The API key is read from the environment variable named by ``api_key_env``; it is never
    stored in a params file, a notebook, the cache or the results.
    """

    model_config = ConfigDict(extra="forbid")  # a misspelt key (``max_token``) is an error, not silently ignored

    kind: str = "openai"  # a registered kind (`endpoint_kind`)
    model: str
    name: str | None = None  # the label in records and figures (default: the model); tells two settings apart
    system_prompt: str | None = None  # None: one user turn and no system prompt, as in the paper
    base_url: str | list[str] | None = None  # one URL or several replicas of the same model
    base_url_env: str | None = None  # or read the URL(s), comma-separated, from this variable
    api_key_env: str | None = None
    concurrency: int = Field(4, ge=1)  # requests in flight per replica
    temperature: float | None = Field(0.0, ge=0)  # None: not sent (OpenAI's reasoning models take only their own)
    top_p: float | None = Field(None, gt=0, le=1)  # None: the server's default (1.0 on every engine we know)
    max_tokens: int = Field(1024, ge=1)  # for original questions (the authors' test script: 1,024)
    # the request field that carries the token limit: OpenAI's reasoning models refuse max_tokens
    token_limit_field: Literal["max_tokens", "max_completion_tokens"] = "max_tokens"
    # for scaffold, isolated and placebo questions (authors: 2,000); None: max_tokens
    max_tokens_variants: int | None = Field(None, ge=1)
    # replies per question (repeated trials); 1 at temperature 0 is the paper's protocol
    n_samples: int = Field(1, ge=1)
    seed: int | None = 0  # sample s is sent with seed + s, so repeated samples differ at temperature > 0
    timeout_s: float = Field(300.0, gt=0)  # the longest one attempt may take, wall clock, however the reply trickles
    max_retries: int = Field(5, ge=0)  # per request, after the first attempt
    max_retry_s: float = Field(600.0, ge=0)  # give up retrying a request after this long
    extra_body: dict[str, Any] = {}  # engine-specific sampling fields, e.g. llama.cpp's repeat_penalty
    reasoning: ReasoningConfig = ReasoningConfig()  # where a trace is, and its token budget (`ReasoningConfig`)
    # How long a reasoning model thinks (OpenAI, gpt-oss): sent as ``reasoning_effort``; None: the server's default
    reasoning_effort: Literal["none", "minimal", "low", "medium", "high", "xhigh"] | None = None
    chat_template_kwargs: dict[str, Any] = {}  # vLLM / SGLang, e.g. {enable_thinking: false} for Qwen3
    # How to ask for JSON: "none", "json_object", "json_schema" (OpenAI, vLLM) or "llama_schema" (llama.cpp)
    json_mode: Literal["none", "json_object", "json_schema", "llama_schema"] = "none"
    n_servers: int | None = None  # embedded only: single-thread llama.cpp servers to start (None: one per core)
    simulation: dict[str, Any] = {}  # simulated only: a `Simulation` (see `stad_utils.models.SimulatedTarget`)

    @field_validator("kind", mode="before")
    @classmethod
    def _registered_kind(cls, kind: Any) -> Any:
        """A kind nobody registered is refused as a fixed choice of kinds would be, in the same words."""
        try:
            endpoint_kind(kind)
        except ValueError:
            raise PydanticCustomError("literal_error", "Input should be {expected}",
                                      {"expected": known_kinds()}) from None
        return kind

    @field_validator("simulation")
    @classmethod
    def _known_simulation_keys(cls, block: dict[str, Any]) -> dict[str, Any]:
        """A misspelt simulation key (``step_acuracy``) is refused like any other."""
        Simulation.model_validate(block)
        return block

    @field_validator("extra_body")
    @classmethod
    def _reasoning_settings_have_their_own_keys(cls, body: dict[str, Any]) -> dict[str, Any]:
        """Sent twice, one would silently win over the other."""
        doubled = sorted(set(body) & {"reasoning_effort", "chat_template_kwargs"})
        if doubled:
            raise ValueError(f"give {', '.join(doubled)} as endpoint setting(s) of their own, not in extra_body")
        return body

    @model_validator(mode="after")
    def _reasoning_settings_reach_a_server(self) -> EndpointConfig:
        """A kind that sends no request (the in-process engine, a simulation) has none to carry them: refused,
        not ignored.
        """
        settings_set = {"reasoning_effort": self.reasoning_effort is not None,
                        "chat_template_kwargs": bool(self.chat_template_kwargs),
                        "token_limit_field": self.token_limit_field != "max_tokens",
                        "temperature: null": self.temperature is None}  # an engine would sample at its own
        sent = [name for name, is_set in settings_set.items() if is_set]
        if sent and not endpoint_kind(self.kind).sends_requests:
            raise ValueError(f"{', '.join(sent)} reach(es) a server only: kind {self.kind!r} takes none of them")
        return self

    @property
    def label(self) -> str:
        """The endpoint's name in results and reports: ``name``, else the model id."""
        return self.name or self.model

    def replica_urls(self) -> list[str]:
        """The base URL of every replica: ``base_url``, or the comma-separated list in ``base_url_env`` if named."""
        urls = self.base_url
        if self.base_url_env:
            value = os.environ.get(self.base_url_env)
            if not value:
                raise RuntimeError(f"environment variable {self.base_url_env} (base URL of {self.model}) is not set")
            urls = [url.strip() for url in value.split(",") if url.strip()]
        if not urls:
            raise ValueError(f"no base_url or base_url_env given for model {self.model}")
        return [urls] if isinstance(urls, str) else list(urls)

    def api_key(self) -> str:
        """The API key in the environment variable ``api_key_env``; without one, a placeholder (local servers)."""
        if not self.api_key_env:
            return "not-needed"  # local servers accept any key
        key = os.environ.get(self.api_key_env)
        if not key:
            raise RuntimeError(f"environment variable {self.api_key_env} (API key for {self.model}) is not set")
        return key

    def sampling(self) -> dict[str, Any]:
        """The sampling parameters sent with every request (``top_p`` only when it is set; a ``None`` is not sent)."""
        params = {"temperature": self.temperature, "max_tokens": self.max_tokens, "seed": self.seed}
        return params if self.top_p is None else {**params, "top_p": self.top_p}

    def reasoning_fields(self) -> dict[str, Any]:
        """The request fields of the reasoning settings that are set (none at all for other models,
        so their requests and cache keys stay as they were).
        """
        fields: dict[str, Any] = {}
        if self.reasoning_effort is not None:
            fields["reasoning_effort"] = self.reasoning_effort
        if self.chat_template_kwargs:
            fields["chat_template_kwargs"] = self.chat_template_kwargs
        return fields

    def variant_tokens(self) -> int:
        """The token limit for scaffold, isolated and placebo questions."""
        return self.max_tokens_variants or self.max_tokens


def endpoint_config(block: Any, where: str) -> EndpointConfig:
    """``block`` validated as an `EndpointConfig`; a `ValueError` names ``where`` (the target) and each bad key."""
    try:
        return EndpointConfig.model_validate(block)
    except ValidationError as exc:
        problems = "; ".join(f"{where}.{'.'.join(str(part) for part in problem['loc']) or '(block)'}: "
                             f"{problem['msg']}" for problem in exc.errors())
        raise ValueError(problems) from None


class ChatClient(Protocol):
    """What the client of every kind offers the stages: `ModelClient`'s interface."""

    endpoint: EndpointConfig
    usage: UsageStats

    @property
    def model(self) -> str:
        """The label of the model setting in records."""

    def chat_one(self, prompt: str | Messages, *, sample: int = 0, response_format: dict | None = None,
                 **overrides: Any) -> ChatResult:
        """Answer one prompt (safe to call from many threads at once)."""

    def chat(self, prompts: Sequence[str | Messages], *, desc: str | None = None,
             response_format: dict | None = None, sample: int = 0, **overrides: Any) -> list[ChatResult]:
        """Answer each prompt; the results keep the order."""


@dataclass(frozen=True)
class ClientOptions:
    """What `open_client` was asked for besides the endpoint, handed to the kind that opens the client."""

    cache: ResponseCache | None = None  # None: no cache (off, not asked for, or a kind it does not apply to)
    role: str = "model"  # a label for progress bars, usage accounting and errors
    refresh_cache: bool = False  # call the model even on a cache hit, and overwrite the entry
    ladders: Sequence | None = None  # the questions a simulated target can answer
    preflight: bool = True  # ask a remote endpoint for its models before the client is used
    log_dir: Path | str | None = None  # where servers started for the client log


def _kind_and_model(config: EndpointConfig, where: str) -> list[dict[str, Any]]:
    """What the manifest records of a kind that says nothing more of itself."""
    return [{"kind": config.kind, "model": config.model}]


def _no_problems(config: EndpointConfig) -> list[str]:
    """The params check of a kind whose block needs nothing beyond its types."""
    return []


@dataclass(frozen=True)
class EndpointKind:
    """One ``kind`` of endpoint block, and everything that depends on it.

    Attributes
    ----------
    name : str
        The ``kind`` of the block.
    open : callable
        ``open(config, options)``: a context manager yielding the client (`ChatClient`) of a validated
        `EndpointConfig` of this kind, with the `ClientOptions` of `open_client`; what it starts, it stops.
    preflight : callable
        ``preflight(config, where)``: what the run manifest records of the endpoint (a list of entries,
        one per replica), before any stage runs; a server that must answer is asked now, and one that
        does not raises `EndpointUnavailable`. ``where`` names the block (``stages.05_evaluate.targets[0]``).
        Default: one entry with its kind and model.
    check : callable
        ``check(config)``: what a params check reports as wrong in a block of this kind beyond its types.
        Default: nothing.
    cached : bool
        Whether the response cache answers requests already made.
    sends_requests : bool
        Whether the client sends HTTP requests, so that settings only a request carries (``reasoning_effort``,
        ``chat_template_kwargs``, ``token_limit_field``, ``temperature: null``) reach a server; a kind
        without requests refuses them.
    extra : str or None
        The pip extra (``pyproject.toml``'s optional dependencies) its client needs; None: the core.
    simulated : bool
        Whether its replies come from a simulation, not a model (its verdicts say so).
    """

    name: str
    open: Callable[[EndpointConfig, ClientOptions], AbstractContextManager[ChatClient]]
    preflight: Callable[[EndpointConfig, str], list[dict[str, Any]]] = _kind_and_model
    check: Callable[[EndpointConfig], list[str]] = _no_problems
    cached: bool = True
    sends_requests: bool = True
    extra: str | None = None
    simulated: bool = False


_KINDS: dict[str, EndpointKind] = {}  # by name, in the order they registered (the order messages list them in)


def register_kind(kind: EndpointKind) -> EndpointKind:
    """Add ``kind`` to the registry and return it; a name registered twice is an error, not a silent swap."""
    if kind.name in _KINDS:
        raise ValueError(f"an endpoint kind named {kind.name!r} is registered already")
    _KINDS[kind.name] = kind
    return kind


def known_kinds() -> str:
    """The registered kinds, quoted, in the order they registered (as pydantic lists the choices of a field).

    Examples
    --------
    >>> known_kinds()
    "'openai', 'embedded', 'vllm' or 'simulated'"
    """
    quoted = [repr(name) for name in _KINDS]
    return " or ".join(part for part in (", ".join(quoted[:-1]), *quoted[-1:]) if part)


def endpoint_kind(name: str) -> EndpointKind:
    """The registered kind called ``name``; a `ValueError` names the known kinds.

    Examples
    --------
    >>> endpoint_kind("simulated").cached
    False
    >>> endpoint_kind("openia")
    Traceback (most recent call last):
    ...
    ValueError: unknown endpoint kind 'openia': use 'openai', 'embedded', 'vllm' or 'simulated'
    """
    kind = _KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ValueError(f"unknown endpoint kind {name!r}: use {known_kinds()}")
    return kind
