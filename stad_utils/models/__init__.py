"""One way to talk to every model: endpoints, the client, its cache and retries, and what serves a model.

``_endpoint`` is an endpoint's settings (`EndpointConfig`) and the registry of endpoint kinds
(`EndpointKind`, `register_kind`, `endpoint_kind`): what each ``kind`` opens, records before a run and
asks of its block. ``_client`` is the OpenAI-compatible client (`ModelClient`, kind ``openai``) with
bounded concurrency, ``_cache`` its response cache, ``_retry`` which failures it retries; ``_replies``
reads a completion and keeps a reasoning trace apart from the answer; ``_structured`` asks for JSON
through Jinja2 prompts; ``_serving`` opens the client of an endpoint (`open_client`); ``embedded``
serves the embedded model with llama.cpp (kind ``embedded``), ``_vllm`` runs vLLM in-process (kind
``vllm``); ``_planted`` and ``_simulated`` are the simulated target with planted weaknesses (kind
``simulated``); ``_monitor`` the runner's progress lines and error budget; ``_limit`` the limit on
what a run may spend (calls, tokens, dollars); ``_extras`` names the pip extra a missing module
belongs to.
"""

from __future__ import annotations

# Each built-in kind registers as its module loads; loaded in this order, an unknown ``kind`` is told the
# known ones in it: openai, embedded, vllm, simulated.
from . import _client, embedded, _vllm, _simulated  # isort: skip  # noqa: F401
from ._cache import ResponseCache
from ._client import TRACE_PROBE, TRACE_PROBE_TOKENS, EndpointUnavailable, ModelClient, as_messages, request_of
from ._endpoint import (
    ChatClient,
    ClientOptions,
    EndpointConfig,
    EndpointKind,
    endpoint_config,
    endpoint_kind,
    register_kind,
)
from ._extras import INSTALL_HINTS, MissingExtra, require
from ._limit import LIMIT_KINDS, LIMIT_VARIABLE, RunLimit, RunLimitReached, check_limit, run_limit
from ._monitor import ErrorBudgetExceeded, ProgressLog, check_error_budget, follow
from ._planted import Simulation, step_chance, task_z
from ._replies import ChatResult, UsageStats, from_cache, read_completion, storable
from ._serving import open_client
from ._simulated import SimulatedTarget, expected_accuracy, matching_penalty, record_name
from ._structured import (
    RAN_OUT_WHILE_REASONING,
    Failure,
    Unavailable,
    Unusable,
    ask_json,
    chat_to_an_answer,
    literal_value,
    render,
    response_format,
)
from ._vllm import MicroBatcher, VLLMEngineClient, engine_request
from .embedded import (
    LLAMA_CPP_VERSION,
    PORTABLE_X86_64_FLAGS,
    EmbeddedModelBroken,
    EmbeddedServerDied,
    cmake_args,
    compiled_features,
    embedded_model_path,
    explain_exit,
    free_port,
    llama_server,
    llama_servers,
    served_endpoint,
    smoke_test,
    wheel_folder,
)

__all__ = [
    "LIMIT_KINDS", "LIMIT_VARIABLE", "RunLimit", "RunLimitReached", "as_messages", "check_limit", "engine_request",
    "request_of", "run_limit", "served_endpoint",
    "ChatClient", "ChatResult", "ClientOptions", "EmbeddedModelBroken", "EmbeddedServerDied", "EndpointConfig",
    "EndpointKind", "EndpointUnavailable", "ErrorBudgetExceeded", "Failure", "INSTALL_HINTS", "LLAMA_CPP_VERSION",
    "MicroBatcher", "MissingExtra", "ModelClient", "PORTABLE_X86_64_FLAGS", "ProgressLog",
    "RAN_OUT_WHILE_REASONING", "ResponseCache", "SimulatedTarget", "Simulation", "TRACE_PROBE",
    "TRACE_PROBE_TOKENS", "Unavailable", "Unusable", "UsageStats", "VLLMEngineClient", "ask_json",
    "chat_to_an_answer", "check_error_budget", "cmake_args", "compiled_features", "embedded_model_path",
    "endpoint_config", "endpoint_kind", "expected_accuracy", "explain_exit", "follow", "free_port", "from_cache",
    "literal_value", "llama_server", "llama_servers", "matching_penalty", "open_client", "read_completion",
    "record_name", "register_kind", "render", "require", "response_format", "smoke_test", "step_chance", "storable",
    "task_z", "wheel_folder",
]
