"""Where a model is served and how it is asked: the settings of one endpoint."""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ._planted import Simulation
from ._replies import ReasoningConfig

Messages = list[dict[str, str]]


class EndpointConfig(BaseModel):
    """Where a role's model is served and how to sample from it (one block of a params file).

    ``kind`` is ``"openai"`` for any OpenAI-compatible server, ``"embedded"`` for the
    bundled SmolLM2 served by llama.cpp on a free loopback port (see
    `stad_utils.models.open_client`), or ``"vllm"`` for vLLM's in-process engine (GPU only).
    The API key is read from the environment variable named by ``api_key_env``; it is never
    stored in a params file, a notebook, the cache or the results.
    """

    model_config = ConfigDict(extra="forbid")  # a misspelt key (``max_token``) is an error, not silently ignored

    kind: Literal["openai", "embedded", "vllm", "simulated"] = "openai"
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
        """The in-process engine and a simulation have no request to carry them: refused, not ignored."""
        settings_set = {"reasoning_effort": self.reasoning_effort is not None,
                        "chat_template_kwargs": bool(self.chat_template_kwargs),
                        "token_limit_field": self.token_limit_field != "max_tokens",
                        "temperature: null": self.temperature is None}  # an engine would sample at its own
        sent = [name for name, is_set in settings_set.items() if is_set]
        if sent and self.kind in ("vllm", "simulated"):
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
