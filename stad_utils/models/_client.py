"""The one way the project talks to language models.

`ModelClient` speaks the OpenAI chat API through the ``openai`` SDK, so the same code
drives OpenAI, a vLLM server and a llama.cpp server. It adds what a long evaluation run
needs:

* a persistent response cache (`ResponseCache`, SQLite in WAL mode), written the moment
  a response arrives, so a re-run or a resumed run makes no repeated calls;
* a bounded pool of worker threads fed one request at a time (no batch barrier: a slow
  request never holds the others back), spread over one or more replicas;
* retries with exponential backoff on connection errors, timeouts, 429 (honouring
  ``Retry-After``) and 5xx, bounded in count and in time;
* a result per request that is either a text or an error, never an exception, so an
  infrastructure failure can never be scored as a wrong answer;
* one reading of each reply: the answer, and apart from it a reasoning model's trace, from a
  field of its own or from tags in the content (`read_completion`, `ReasoningConfig`);
* token and time accounting per role, and a progress bar.

It registers the ``openai`` endpoint kind (`REMOTE`): any OpenAI-compatible server, asked for its
models before a run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

import httpx
import openai
from tenacity import Retrying, retry_if_exception, stop_after_attempt, stop_after_delay
from tqdm import tqdm  # plain text bars: no ipywidgets probe (and no warning) inside notebooks

from ..records import mask_secrets
from ._cache import ResponseCache
from ._endpoint import ClientOptions, EndpointConfig, EndpointKind, register_kind
from ._limit import run_limit
from ._replies import ChatResult, Messages, UsageStats, body_snippet, from_cache, model_ids, read_completion, storable
from ._retry import RequestDeadlineExceeded, backoff, describe_failure, is_transient

if TYPE_CHECKING:
    # The openai SDK installed here (3.x) sends through httpx2: its responses carry httpx2's requests and headers.
    import httpx2
    from openai.types.chat import ChatCompletionMessageParam


TRACE_PROBE = "What is 2 + 3? Reply with the number only."
TRACE_PROBE_TOKENS = 256  # room for a short trace to close (a cut-off one still shows where it is sent)


class EndpointUnavailable(RuntimeError):
    """An endpoint did not answer the preflight request for its models (names the URL and the error)."""


class ModelClient:
    """Chat completions for one role (teacher, judge or target) on one model.

    Parameters
    ----------
    endpoint : where and how to call the model.
    cache : a shared `ResponseCache`, or ``None`` to call the model every time.
    role : a label for progress bars and usage accounting.
    refresh_cache : call the model even on a cache hit, and overwrite the entry.
    progress : show a progress bar per batch.

    Every request, whichever thread sends it, waits for one of ``concurrency × replicas``
    slots, so several stages or targets sharing a client never overload its endpoint; two
    identical requests in flight at the same time are sent once.

    Examples
    --------
    >>> client = ModelClient(EndpointConfig(model="m", base_url="http://127.0.0.1:8000/v1"))  # doctest: +SKIP
    >>> [r.text for r in client.chat(["What is 2 + 3?"])]                                      # doctest: +SKIP
    ['5']
    >>> client.chat_one("What is 2 + 3?", sample=1).text   # a second sample: its own cache entry  # doctest: +SKIP
    '5'
    """

    def __init__(
        self,
        endpoint: EndpointConfig,
        cache: ResponseCache | None = None,
        role: str = "model",
        refresh_cache: bool = False,
        progress: bool = True,
    ):
        self.endpoint = endpoint
        self.progress = progress
        self.cache = cache
        self.role = role
        self.refresh_cache = refresh_cache
        self.usage = UsageStats()
        self.urls = endpoint.replica_urls()
        key = endpoint.api_key()
        self._secrets = [key] if endpoint.api_key_env else []  # masked in every error this client records
        self._replicas = [
            openai.OpenAI(base_url=url, api_key=key, timeout=endpoint.timeout_s, max_retries=0) for url in self.urls
        ]
        self._in_flight = [0] * len(self.urls)
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(endpoint.concurrency * len(self.urls))
        self._pending: dict[str, _Pending] = {}

    @property
    def model(self) -> str:
        """The label of this model setting in records (the endpoint's ``name``, else its model)."""
        return self.endpoint.label

    def request(self, prompt: str | Messages, *, sample: int = 0, response_format: dict | None = None,
                **overrides: Any) -> tuple[str, Messages, dict[str, Any]]:
        """The cache key, messages and parameters of one request (`request_of` this client's endpoint)."""
        return request_of(self.endpoint, prompt, sample=sample, response_format=response_format, **overrides)

    def chat_one(self, prompt: str | Messages, *, sample: int = 0, response_format: dict | None = None,
                 **overrides: Any) -> ChatResult:
        """Answer one prompt (blocking; safe to call from many threads at once)."""
        return self._one(*self.request(prompt, sample=sample, response_format=response_format, **overrides))

    def chat(
        self,
        prompts: Sequence[str | Messages],
        *,
        desc: str | None = None,
        response_format: dict | None = None,
        sample: int = 0,
        **overrides: Any,
    ) -> list[ChatResult]:
        """Answer each prompt (a user message, or a full message list); results keep the order."""
        requests = [self.request(p, sample=sample, response_format=response_format, **overrides) for p in prompts]
        bar = tqdm(total=len(requests), desc=desc or f"{self.role} ({self.model})", unit="call", leave=False,
                   disable=not self.progress)

        def answer(request: tuple[str, Messages, dict[str, Any]]) -> ChatResult:
            result = self._one(*request)
            bar.update(1)
            return result

        # The pool only feeds requests; the slots bound what is really in flight.
        with ThreadPoolExecutor(max_workers=len(self._replicas) * self.endpoint.concurrency) as pool:
            results = list(pool.map(answer, requests))
        bar.close()
        return results

    def _one(self, key: str, messages: Messages, params: dict[str, Any]) -> ChatResult:
        with self._lock:
            pending = self._pending.get(key)
            first = pending is None
            if pending is None:
                pending = self._pending[key] = _Pending()
        if not first:  # the same request is in flight: share its answer
            pending.done.wait()
            shared = pending.result
            assert shared is not None  # the first asker sets it before `done`, whether it succeeded or raised
            if shared.ok:
                shared = replace(shared, cached=True)
                self.usage.add(shared)
            return shared
        try:
            stored = self.cache.get(key) if self.cache is not None and not self.refresh_cache else None
            result = from_cache(stored, params, self.endpoint.reasoning) if stored is not None else None
            if result is None:
                limit = run_limit()
                if limit is not None:  # raises RunLimitReached, before anything is sent, once a limit is reached
                    limit.take_call(self.model)
                result = self._call(messages, params)
                if limit is not None and result.ok:
                    limit.charge(self.model, result.prompt_tokens, result.completion_tokens)
                if result.ok and self.cache is not None:
                    self.cache.put(key, self.endpoint.model, {"messages": messages, "params": params},
                                   storable(result))
            self.usage.add(result)
        except BaseException as exc:
            result = ChatResult(None, error=describe_failure(exc, self._secrets))
            raise
        finally:
            pending.result = result
            pending.done.set()
            with self._lock:
                del self._pending[key]
        return result

    def _call(self, messages: Messages, params: dict[str, Any]) -> ChatResult:
        started = time.perf_counter()
        retrying = Retrying(
            retry=retry_if_exception(is_transient),
            wait=backoff,
            stop=stop_after_attempt(self.endpoint.max_retries + 1) | stop_after_delay(self.endpoint.max_retry_s),
            reraise=True,
        )
        try:
            with self._slots:
                result, _ = retrying(self._send, messages, params)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a recorded error, never a crash
            result = ChatResult(None, error=describe_failure(exc, self._secrets))
        if result.error is not None:
            result = replace(result, error=mask_secrets(result.error, self._secrets))
        return replace(result, latency_s=time.perf_counter() - started)

    def _send(self, messages: Messages, params: dict[str, Any]) -> tuple[ChatResult, httpx2.Headers]:
        with self._lock:  # the replica with the fewest requests in flight takes this one
            replica = min(range(len(self._replicas)), key=self._in_flight.__getitem__)
            self._in_flight[replica] += 1
        try:
            return self._ask(self._replicas[replica], messages, params, self.endpoint.timeout_s)
        finally:
            with self._lock:
                self._in_flight[replica] -= 1

    def _ask(self, replica: openai.OpenAI, messages: Messages, params: dict[str, Any],
             limit_s: float) -> tuple[ChatResult, httpx2.Headers]:
        """One attempt, its body read within ``limit_s`` in all (a body that trickles in is cut off)."""
        deadline = time.monotonic() + limit_s
        standard = {k: v for k, v in params.items() if k in _OPENAI_PARAMS and v is not None}
        if "max_tokens" in standard:  # the cache key keeps "max_tokens" whichever field carries the limit
            standard[self.endpoint.token_limit_field] = standard.pop("max_tokens")
        extra = {k: v for k, v in params.items() if k not in _OPENAI_PARAMS}
        with replica.chat.completions.with_streaming_response.create(
            # plain role/content dicts: what the SDK's message TypedDicts describe (a dict[str, str] is not, to mypy)
            model=self.endpoint.model, messages=cast("list[ChatCompletionMessageParam]", messages),
            extra_body=extra or None, timeout=limit_s, **standard
        ) as response:
            body = bytearray()
            for chunk in response.http_response.iter_bytes():
                body += chunk
                if time.monotonic() > deadline:
                    raise RequestDeadlineExceeded(response.http_response.request, limit_s)
            return (read_completion(bytes(body), response.headers.get("content-type", ""), self.endpoint.reasoning),
                    response.headers)

    def preflight(self, timeout_s: float = 10.0) -> list[dict[str, Any]]:
        """Ask every replica for its models before any work starts; fail fast naming the URL.

        Returns, per replica, its URL, the model ids it serves and its ``Server`` header (for the
        run manifest). A server without a usable ``GET /models`` is asked a one-token chat request
        instead (its models are then ``None``). Raises `EndpointUnavailable` if a replica does not answer.
        """
        return [self._check_replica(url, replica, timeout_s) for url, replica in zip(self.urls, self._replicas)]

    def probe_trace(self, timeout_s: float = 30.0) -> dict[str, Any]:
        """Whether the model thinks aloud: one short question to the first replica, with the endpoint's
        settings, and where its reply kept a trace (``trace``: a field name, ``"tags"``, or ``None``).

        The runner asks it before a run (`stad_utils.pipeline.preflight`), so a long run does not find
        out late that thinking is on. Asked once, not retried, not cached: a failed probe is reported
        (``trace_probe_error``) and the run goes on, since `preflight` found the endpoint answering.
        """
        _, messages, params = self.request(TRACE_PROBE, max_tokens=TRACE_PROBE_TOKENS)
        try:
            result, _ = self._ask(self._replicas[0], messages, params, timeout_s)
        except Exception as exc:  # noqa: BLE001 - the probe informs; it never stops a run
            return {"trace": None, "trace_probe_error": describe_failure(exc, self._secrets)}
        if result.error is not None:
            return {"trace": None, "trace_probe_error": mask_secrets(result.error, self._secrets)}
        return {"trace": result.reasoning_source, "reasoning_tokens": result.reasoning_tokens,
                "trace_cut_off": result.cut_off_while_reasoning}

    def _check_replica(self, url: str, replica: openai.OpenAI, timeout_s: float) -> dict[str, Any]:
        unavailable = f"{self.role} endpoint {url} ({self.endpoint.model})"
        try:
            raw = replica.with_options(timeout=timeout_s).models.with_raw_response.list()
        except openai.APIConnectionError as exc:  # nothing answers there: asking again would only wait longer
            raise EndpointUnavailable(
                f"{unavailable} is not answering: {describe_failure(exc, self._secrets)}") from None
        except Exception as exc:  # noqa: BLE001 - e.g. 404: the server may still chat
            listing_problem = describe_failure(exc, self._secrets)
        else:
            models = model_ids(raw.http_response.content)
            if models is not None:
                return {"url": url, "models": models, "server": raw.headers.get("server")}
            listing_problem = (f"GET {url}/models answered HTTP {raw.http_response.status_code} with a "
                               f"{raw.headers.get('content-type') or 'untyped'} body that is not a model list: "
                               f"{body_snippet(raw.http_response.content)}")
        probe = [{"role": "user", "content": "Say OK."}]
        headers: Mapping[str, str]
        try:
            result, headers = self._ask(replica, probe, {**self.endpoint.sampling(), "max_tokens": 1}, timeout_s)
        except Exception as exc:  # noqa: BLE001 - any failure means the endpoint is unusable
            result, headers = ChatResult(None, error=describe_failure(exc, self._secrets)), httpx.Headers()
        if result.error is not None:
            raise EndpointUnavailable(mask_secrets(
                f"{unavailable} does not answer as an OpenAI-compatible API (check base_url; it usually ends "
                f"in /v1). {listing_problem}; a one-token chat request got: {result.error}", self._secrets)) from None
        return {"url": url, "models": None, "server": headers.get("server"),
                "checked_by": mask_secrets(f"a one-token chat request ({listing_problem})", self._secrets)}


@dataclass
class _Pending:
    """A request in flight, which identical requests wait for instead of sending it again."""

    done: threading.Event = field(default_factory=threading.Event)
    result: ChatResult | None = None


def request_of(endpoint: EndpointConfig, prompt: str | Messages, *, sample: int = 0,
               response_format: dict | None = None, **overrides: Any) -> tuple[str, Messages, dict[str, Any]]:
    """The cache key, messages and parameters of one request to ``endpoint``, without sending it.

    ``overrides`` replace sampling parameters of the endpoint (``temperature``, ``max_tokens``,
    ``seed``, ``top_p``); the endpoint's ``reasoning.trace_tokens`` is added to ``max_tokens``. An
    endpoint with ``temperature: null`` sends no temperature, not even an override.
    Sample *s* > 0 of a question is its own cache entry, sent with seed + *s* (so that
    repeated samples at temperature > 0 differ); sample 0 is the plain request.
    """
    params = {**endpoint.sampling(), **overrides, **endpoint.reasoning_fields(), **endpoint.extra_body}
    if endpoint.temperature is None:  # the model takes only its own, so a stage's temperature is not sent
        params.pop("temperature", None)
    if endpoint.reasoning.trace_tokens and params.get("max_tokens") is not None:
        params["max_tokens"] += endpoint.reasoning.trace_tokens  # the answer keeps the limit it was given
    if sample and params.get("seed") is not None:
        params["seed"] += sample
    if response_format is not None:
        params["response_format"] = response_format
    messages = as_messages(prompt, endpoint.system_prompt)
    return ResponseCache.key(endpoint.model, messages, params, sample), messages, params


def as_messages(prompt: str | Messages, system_prompt: str | None = None) -> Messages:
    """A chat from a prompt: one user turn (after an optional system prompt), or the messages given."""
    if not isinstance(prompt, str):
        return list(prompt)
    system = [{"role": "system", "content": system_prompt}] if system_prompt else []
    return [*system, {"role": "user", "content": prompt}]


_OPENAI_PARAMS = {"temperature", "max_tokens", "seed", "top_p", "stop", "response_format", "presence_penalty",
                  "frequency_penalty", "logprobs", "top_logprobs"}


@contextmanager
def _open_remote(config: EndpointConfig, options: ClientOptions) -> Iterator[ModelClient]:
    """A client of the server; with ``options.preflight``, one that has found every replica answering."""
    client = ModelClient(config, options.cache, options.role, options.refresh_cache)
    if options.preflight:
        client.preflight()
    yield client


def _ask_remote(config: EndpointConfig, where: str) -> list[dict[str, Any]]:
    """Each replica's models and server, the first one's also where its replies keep a reasoning trace."""
    client = ModelClient(config, role=where)
    served = client.preflight()
    served[0].update(client.probe_trace())
    return served


def _needs_a_url(config: EndpointConfig) -> list[str]:
    return [] if config.base_url or config.base_url_env else ["an openai endpoint needs base_url or base_url_env"]


REMOTE = register_kind(EndpointKind("openai", open=_open_remote, preflight=_ask_remote, check=_needs_a_url))
"""Any OpenAI-compatible server (OpenAI, vLLM, SGLang, llama.cpp …) at ``base_url``."""
