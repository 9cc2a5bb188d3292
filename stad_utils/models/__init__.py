"""One way to talk to every model: endpoints, the client, its cache and retries, and what serves a model.

``_endpoint`` is an endpoint's settings (`EndpointConfig`); ``_client`` the OpenAI-compatible
client (`ModelClient`) with bounded concurrency, ``_cache`` its response cache, ``_retry`` which
failures it retries; ``_replies`` reads a completion and keeps a reasoning trace apart from the
answer; ``_structured`` asks for JSON through Jinja2 prompts; ``_serving`` opens the client of
an endpoint (`open_client`); ``embedded`` serves the embedded model with llama.cpp, ``_vllm``
runs vLLM in-process; ``_planted`` and ``_simulated`` are the simulated target with planted
weaknesses; ``_monitor`` the runner's progress lines and error budget; ``_limit`` the limit on
what a run may spend (calls, tokens, dollars); ``_extras`` names the pip extra a missing module
belongs to.
"""

from __future__ import annotations

from ._cache import ResponseCache
from ._client import TRACE_PROBE, TRACE_PROBE_TOKENS, EndpointUnavailable, ModelClient, as_messages, request_of
from ._endpoint import EndpointConfig, endpoint_config
from ._extras import INSTALL_HINTS, MissingExtra, require
from ._limit import LIMIT_KINDS, LIMIT_VARIABLE, RunLimit, RunLimitReached, check_limit, run_limit
from ._monitor import ErrorBudgetExceeded, ProgressLog, check_error_budget, follow
from ._planted import Simulation
from ._replies import ChatResult, from_cache, read_completion, storable
from ._serving import open_client, served_endpoint
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
    smoke_test,
    wheel_folder,
)

__all__ = [
    "LIMIT_KINDS", "LIMIT_VARIABLE", "RunLimit", "RunLimitReached", "as_messages", "check_limit", "engine_request",
    "request_of", "run_limit", "served_endpoint",
    "ChatResult", "EmbeddedModelBroken", "EmbeddedServerDied", "EndpointConfig", "EndpointUnavailable",
    "ErrorBudgetExceeded", "Failure", "INSTALL_HINTS", "LLAMA_CPP_VERSION", "MicroBatcher", "MissingExtra",
    "ModelClient", "PORTABLE_X86_64_FLAGS", "ProgressLog", "RAN_OUT_WHILE_REASONING", "ResponseCache",
    "SimulatedTarget", "Simulation", "TRACE_PROBE", "TRACE_PROBE_TOKENS", "Unavailable", "Unusable",
    "VLLMEngineClient", "ask_json", "chat_to_an_answer", "check_error_budget", "cmake_args", "compiled_features",
    "embedded_model_path", "endpoint_config", "expected_accuracy", "explain_exit", "follow", "free_port",
    "from_cache", "literal_value", "llama_server", "llama_servers", "matching_penalty", "open_client",
    "read_completion", "record_name", "render", "require", "response_format", "smoke_test", "storable",
    "wheel_folder",
]
