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
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
import warnings
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

import httpx
import openai
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, stop_after_delay
from tqdm import tqdm  # plain text bars: no ipywidgets probe (and no warning) inside notebooks

from .files import DiskFull, set_aside
from .secrets import mask_secrets

if TYPE_CHECKING:
    # The openai SDK installed here (3.x) sends through httpx2: its responses carry httpx2's requests and headers.
    import httpx2
    from openai.types.chat import ChatCompletionMessageParam


def _transport_errors() -> tuple[type[Exception], ...]:
    """A body cut off or stalled while it is read raises the transport error of the library the openai SDK sends
    through, unwrapped: httpx for openai 1.x, httpx2 for 3.x.
    """
    try:
        import httpx2
    except ImportError:
        return (httpx.TransportError,)
    return (httpx.TransportError, httpx2.TransportError)


_TRANSPORT_ERRORS = _transport_errors()

Messages = list[dict[str, str]]


class Simulation(BaseModel):
    """The ``simulation`` block of a ``kind: simulated`` endpoint.

    Examples
    --------
    >>> planted = Simulation(step_accuracy={"subtraction": 0.4, "default": 0.95}, composition_penalty=0.3)
    >>> planted.accuracy("subtraction"), planted.accuracy("addition"), planted.weak_skills()
    (0.4, 0.95, ['subtraction'])
    >>> planted.planted()
    'subtraction 0.4, every other skill 0.95, composition penalty 0.3'
    >>> Simulation(step_accuracy={"default": 0.95}).planted()
    'every skill 0.95, no composition penalty'
    """

    model_config = ConfigDict(extra="forbid")

    step_accuracy: dict[str, float] = {}  # skill label → chance of doing a step of it alone; "default": the rest
    composition_penalty: float = Field(0.0, ge=0.0, le=1.0)  # chance that one link of a chain fails
    seed: int = 0

    @field_validator("step_accuracy")
    @classmethod
    def _probabilities(cls, accuracy: dict[str, float]) -> dict[str, float]:
        wrong = {skill: p for skill, p in accuracy.items() if not 0.0 <= p <= 1.0}
        if wrong:
            raise ValueError(f"step accuracies must lie in [0, 1], got {wrong}")
        return accuracy

    def accuracy(self, skill: str | None) -> float:
        """The chance that a step of ``skill`` is done right when asked alone."""
        return self.step_accuracy.get(skill or "", self.step_accuracy.get("default", 1.0))

    def planted(self) -> str:
        """The whole planted setting in words: what a short display name of the target leaves out."""
        listed = [f"{skill} {p:g}" for skill, p in sorted(self.step_accuracy.items()) if skill != "default"]
        rest = f"every {'other ' if listed else ''}skill {self.accuracy(None):g}"
        penalty = (f"composition penalty {self.composition_penalty:g}" if self.composition_penalty
                   else "no composition penalty")
        return ", ".join([*listed, rest, penalty])

    def weak_skills(self) -> list[str]:
        """The planted weaknesses: skills with a lower accuracy than the default."""
        return sorted(skill for skill, p in self.step_accuracy.items()
                      if skill != "default" and p < self.accuracy(None))


THINK_TAGS = ("<think>", "</think>")
"""The tags in which DeepSeek-R1, Qwen3 and their kin write a trace into the content when no server parser takes it."""


class ReasoningConfig(BaseModel):
    """The ``reasoning`` block of an endpoint: where a reasoning model's trace is, and how many tokens it may take.

    A server with a reasoning parser sends the trace in a field of its own (``reasoning``,
    ``reasoning_content`` or ``reasoning_details``), which is always read. Without one the trace
    arrives inside the content between ``tags``; a reply holding only the closing tag (the chat
    template wrote the opening one into the prompt) has its trace before it. The answer is the
    content with the trace taken out: it is what judges and teachers read.

    ``trace_tokens`` is added to every request's ``max_tokens``: servers count the trace against
    ``max_tokens`` (vLLM, OpenAI), so without it a limit meant for the answer (the paper's 1,024)
    is eaten by the thinking. The server enforces only the sum: a trace longer than
    ``trace_tokens`` leaves the answer less room.

    Examples
    --------
    >>> ReasoningConfig().tags, ReasoningConfig(tags=None, trace_tokens=4096).trace_tokens
    (('<think>', '</think>'), 4096)
    """

    model_config = ConfigDict(extra="forbid")

    tags: tuple[str, str] | None = THINK_TAGS  # (opening, closing) of a trace in the content; None: all is answer
    trace_tokens: int = Field(0, ge=0)  # tokens for the trace, added to each request's max_tokens

    @field_validator("tags")
    @classmethod
    def _distinct_tags(cls, tags: tuple[str, str] | None) -> tuple[str, str] | None:
        if tags is not None and (not all(tags) or tags[0] == tags[1]):
            raise ValueError(f"tags must be two distinct non-empty strings (opening, closing), got {list(tags)}")
        return tags


_DEFAULT_REASONING = ReasoningConfig()
"""The reasoning settings of an endpoint without a ``reasoning`` block (one shared default, never changed)."""


class EndpointConfig(BaseModel):
    """Where a role's model is served and how to sample from it (one block of a params file).

    ``kind`` is ``"openai"`` for any OpenAI-compatible server, ``"embedded"`` for the
    bundled SmolLM2 served by llama.cpp on a free loopback port (see
    `stad_utils.serving.open_client`), or ``"vllm"`` for vLLM's in-process engine (GPU only).
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
    simulation: dict[str, Any] = {}  # simulated only: a `Simulation` (see `stad_utils.simulate.SimulatedTarget`)

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


@dataclass(frozen=True)
class ChatResult:
    """A model's reply, or why there is none."""

    text: str | None  # the answer: the content without a reasoning trace; "" when the reply was cut off in its trace
    error: str | None = None
    finish_reason: str | None = None  # "stop", "length" (cut off by max_tokens), … as the server said
    cached: bool = False
    latency_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0  # every generated token, the trace's included (as servers count them)
    reasoning: str | None = None  # the trace, apart from the answer; None when the reply came without one
    reasoning_source: str | None = None  # where the trace was: "reasoning", "reasoning_content", … or "tags"
    reasoning_tokens: int = 0  # of completion_tokens, the trace's, as the server reports them (0: not reported)
    # What the server sent, kept for the cache, which reads the trace out again (a changed ``tags`` setting applies):
    # the content as sent, and a trace sent apart from it as (field, text)
    content: str | None = field(default=None, repr=False)
    sent_apart: tuple[str, str] | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        """Whether the request got a reply (no error)."""
        return self.error is None

    @property
    def cut_off_while_reasoning(self) -> bool:
        """``max_tokens`` ended the reply before any answer: the tokens went to the trace (shown or not)."""
        return self.ok and self.finish_reason == "length" and not (self.text or "").strip()


@dataclass
class UsageStats:
    """Calls, cache hits, errors, tokens and seconds of one client (one role)."""

    calls: int = 0
    cache_hits: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0  # of completion_tokens, as the server reports them
    traces: int = 0  # replies that came with a trace (a server that reports no reasoning tokens still shows here)
    seconds: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, result: ChatResult) -> None:
        """Count one result: its tokens and time, or the cache hit or error it was."""
        with self._lock:
            if result.cached:
                self.cache_hits += 1
                return
            self.calls += 1
            self.errors += result.error is not None
            self.prompt_tokens += result.prompt_tokens
            self.completion_tokens += result.completion_tokens
            self.reasoning_tokens += result.reasoning_tokens
            self.traces += result.reasoning is not None
            self.seconds += result.latency_s

    def as_dict(self) -> dict[str, float]:
        """The counts, by name."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


class ResponseCache:
    """Responses keyed by model, messages and every sampling parameter (SQLite, WAL mode).

    A file that is not a database at all is set aside (``cache.sqlite.corrupt-<time>``) and a new
    cache started; a database damaged in places answers what it can and treats the rest as misses,
    with one warning naming the file and the fix.
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._warned = False
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if _is_disk_full(exc):
                raise DiskFull(self.path, "opening the response cache") from None
            if not _is_corrupt(exc):  # e.g. locked by another process for longer than the timeout
                raise
            aside = [set_aside(file) for file in (self.path, *_sqlite_side_files(self.path)) if file.exists()]
            warnings.warn(f"{self.path} is not a readable response cache ({exc}); it was moved to "
                          f"{aside[0].name} and a new cache is started", stacklevel=2)
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, timeout=60)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, request TEXT, response TEXT)"
            )
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _damaged(self, exc: sqlite3.DatabaseError) -> None:
        """Warn once about a damaged page (the caller then treats the entry as missing); re-raise anything else."""
        if _is_disk_full(exc):
            raise DiskFull(self.path, "writing the response cache") from None
        if not _is_corrupt(exc):
            raise exc
        if not self._warned:
            self._warned = True
            warnings.warn(f"{self.path} is damaged ({exc}): entries that cannot be read are asked again. "
                          f"To start a clean cache, move it aside (mv {self.path} {self.path}.old)", stacklevel=3)

    @staticmethod
    def key(model: str, messages: Messages, params: dict[str, Any], sample: int = 0) -> str:
        """A hash of the request; the sample index enters only from the second sample on, so that
        caches written before repeated trials existed still answer sample 0.
        """
        request: dict[str, Any] = {"model": model, "messages": messages, "params": params}
        if sample:
            request["sample"] = sample
        return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()

    def get(self, key: str) -> dict | None:
        """The stored response, or ``None`` when there is none or it cannot be read (then it is asked again)."""
        try:
            with self._lock:
                row = self._db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            return None
        try:
            stored = json.loads(row[0]) if row else None
        except (TypeError, json.JSONDecodeError):
            return None
        return stored if isinstance(stored, dict) else None

    def put(self, key: str, model: str, request: dict, response: dict) -> None:
        """Store a response under ``key``, the moment it arrives (a damaged database only warns)."""
        try:
            with self._lock:
                self._db.execute(
                    "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                    (key, model, json.dumps(request), json.dumps(response)),
                )
                self._db.commit()
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _sqlite_side_files(path: Path) -> tuple[Path, Path]:
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


_SQLITE_FULL, _SQLITE_CORRUPT, _SQLITE_NOTADB = 13, 11, 26


def _sqlite_code(exc: sqlite3.DatabaseError) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+; an extended code keeps the primary in its low byte
    return None if code is None else code & 0xFF


def _is_disk_full(exc: sqlite3.DatabaseError) -> bool:
    return _sqlite_code(exc) == _SQLITE_FULL or "disk is full" in str(exc)


def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    code = _sqlite_code(exc)
    if code is not None:
        return code in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    return "malformed" in str(exc) or "not a database" in str(exc)


def _is_transient(exc: BaseException) -> bool:
    if isinstance(exc, (openai.APIConnectionError, openai.APITimeoutError, openai.RateLimitError, *_TRANSPORT_ERRORS)):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def _backoff(state: RetryCallState) -> float:
    """Exponential backoff (0.5 s, 1 s, 2 s … up to 30 s), or the server's ``Retry-After``."""
    exc = state.outcome.exception() if state.outcome else None
    response = getattr(exc, "response", None)
    retry_after = response.headers.get("retry-after") if response is not None else None
    if retry_after:
        try:
            return min(float(retry_after), 60.0)
        except ValueError:
            pass
    return min(0.5 * 2 ** (state.attempt_number - 1), 30.0)


def _describe(exc: BaseException, secrets: Sequence[str] = ()) -> str:
    status = getattr(exc, "status_code", None)
    described = f"{type(exc).__name__}" + (f" (HTTP {status})" if status else "") + f": {exc}"
    return mask_secrets(described, secrets)[:400]


class RequestDeadlineExceeded(openai.APIConnectionError):
    """A reply that did not arrive whole within ``timeout_s`` (retried like a timeout)."""

    def __init__(self, request: httpx2.Request, limit_s: float):
        super().__init__(message=f"no complete reply within {limit_s:g} s (timeout_s, wall clock per attempt)",
                         request=request)


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
        """The cache key, messages and parameters of one request.

        ``overrides`` replace sampling parameters of the endpoint (``temperature``, ``max_tokens``,
        ``seed``, ``top_p``); the endpoint's ``reasoning.trace_tokens`` is added to ``max_tokens``. An
        endpoint with ``temperature: null`` sends no temperature, not even an override.
        Sample *s* > 0 of a question is its own cache entry, sent with seed + *s* (so that
        repeated samples at temperature > 0 differ); sample 0 is the plain request.
        """
        params = {**self.endpoint.sampling(), **overrides, **self.endpoint.reasoning_fields(),
                  **self.endpoint.extra_body}
        if self.endpoint.temperature is None:  # the model takes only its own, so a stage's temperature is not sent
            params.pop("temperature", None)
        if self.endpoint.reasoning.trace_tokens and params.get("max_tokens") is not None:
            params["max_tokens"] += self.endpoint.reasoning.trace_tokens  # the answer keeps the limit it was given
        if sample and params.get("seed") is not None:
            params["seed"] += sample
        if response_format is not None:
            params["response_format"] = response_format
        messages = as_messages(prompt, self.endpoint.system_prompt)
        return ResponseCache.key(self.endpoint.model, messages, params, sample), messages, params

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
                result = self._call(messages, params)
                if result.ok and self.cache is not None:
                    self.cache.put(key, self.endpoint.model, {"messages": messages, "params": params},
                                   storable(result))
            self.usage.add(result)
        except BaseException as exc:
            result = ChatResult(None, error=_describe(exc, self._secrets))
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
            retry=retry_if_exception(_is_transient),
            wait=_backoff,
            stop=stop_after_attempt(self.endpoint.max_retries + 1) | stop_after_delay(self.endpoint.max_retry_s),
            reraise=True,
        )
        try:
            with self._slots:
                result, _ = retrying(self._send, messages, params)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a recorded error, never a crash
            result = ChatResult(None, error=_describe(exc, self._secrets))
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
            return {"trace": None, "trace_probe_error": _describe(exc, self._secrets)}
        if result.error is not None:
            return {"trace": None, "trace_probe_error": mask_secrets(result.error, self._secrets)}
        return {"trace": result.reasoning_source, "reasoning_tokens": result.reasoning_tokens,
                "trace_cut_off": result.cut_off_while_reasoning}

    def _check_replica(self, url: str, replica: openai.OpenAI, timeout_s: float) -> dict[str, Any]:
        unavailable = f"{self.role} endpoint {url} ({self.endpoint.model})"
        try:
            raw = replica.with_options(timeout=timeout_s).models.with_raw_response.list()
        except openai.APIConnectionError as exc:  # nothing answers there: asking again would only wait longer
            raise EndpointUnavailable(f"{unavailable} is not answering: {_describe(exc, self._secrets)}") from None
        except Exception as exc:  # noqa: BLE001 - e.g. 404: the server may still chat
            listing_problem = _describe(exc, self._secrets)
        else:
            models = model_ids(raw.http_response.content)
            if models is not None:
                return {"url": url, "models": models, "server": raw.headers.get("server")}
            listing_problem = (f"GET {url}/models answered HTTP {raw.http_response.status_code} with a "
                               f"{raw.headers.get('content-type') or 'untyped'} body that is not a model list: "
                               f"{_snippet(raw.http_response.content)}")
        probe = [{"role": "user", "content": "Say OK."}]
        headers: Mapping[str, str]
        try:
            result, headers = self._ask(replica, probe, {**self.endpoint.sampling(), "max_tokens": 1}, timeout_s)
        except Exception as exc:  # noqa: BLE001 - any failure means the endpoint is unusable
            result, headers = ChatResult(None, error=_describe(exc, self._secrets)), httpx.Headers()
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


def as_messages(prompt: str | Messages, system_prompt: str | None = None) -> Messages:
    """A chat from a prompt: one user turn (after an optional system prompt), or the messages given."""
    if not isinstance(prompt, str):
        return list(prompt)
    system = [{"role": "system", "content": system_prompt}] if system_prompt else []
    return [*system, {"role": "user", "content": prompt}]


_OPENAI_PARAMS = {"temperature", "max_tokens", "seed", "top_p", "stop", "response_format", "presence_penalty",
                  "frequency_penalty", "logprobs", "top_logprobs"}


def from_cache(stored: dict[str, Any], params: dict[str, Any],
               reasoning: ReasoningConfig = _DEFAULT_REASONING) -> ChatResult | None:
    """A cached reply, or ``None`` for an entry that cannot be one (it is then asked again).

    The entry holds what the server sent (its content, and a trace it sent apart); the trace is
    read out of it as for a new reply (`split_trace`), so a changed ``tags`` setting applies.
    Entries written before finish reasons were stored get one back from their token count: a reply
    exactly ``max_tokens`` long was cut off ("length"), a shorter one ended.
    """
    if not isinstance(stored.get("text"), str) or not set(stored) <= _STORED_FIELDS:
        return None
    if "finish_reason" not in stored and stored.get("completion_tokens"):
        limit = params.get("max_tokens")
        stored = {**stored, "finish_reason": "length" if limit and stored["completion_tokens"] >= limit else "stop"}
    content = clean_text(stored["text"])
    sent, field_name = stored.get("reasoning"), stored.get("reasoning_field")
    sent_apart = (field_name, clean_text(sent)) if isinstance(sent, str) and isinstance(field_name, str) else None
    answer, trace, source = split_trace(content, sent_apart, reasoning.tags)
    counts = {name: stored[name] for name in ("latency_s", "prompt_tokens", "completion_tokens") if name in stored}
    return ChatResult(answer, finish_reason=stored.get("finish_reason"), cached=True, reasoning=trace,
                      reasoning_source=source, reasoning_tokens=_token_count(stored.get("reasoning_tokens")),
                      content=content, sent_apart=sent_apart, **counts)


_STORED_FIELDS = {"text", "finish_reason", "latency_s", "prompt_tokens", "completion_tokens",
                  "reasoning", "reasoning_field", "reasoning_tokens"}


def clean_text(text: str) -> str:
    """``text`` with lone surrogates (``\\ud800``, which no UTF-8 file can hold) replaced by U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


TRACE_FIELDS = ("reasoning_details", "reasoning_content", "reasoning")
"""The message fields in which servers send a trace apart from the content, in the order they are read (the
first with text wins; a server sending two sends the same trace): ``reasoning_details`` (OpenRouter's blocks,
beside its ``reasoning``; encrypted blocks hold no readable text), ``reasoning_content`` (DeepSeek's API,
vLLM before the rename, several hosts), ``reasoning`` (current vLLM)."""


def server_trace(message: dict) -> tuple[str, str] | None:
    """``(field, trace)`` of a trace the server sent beside the content, or ``None``.

    Examples
    --------
    >>> server_trace({"content": "5", "reasoning_content": "2 + 3 = 5"})
    ('reasoning_content', '2 + 3 = 5')
    >>> server_trace({"content": "5", "reasoning_details": [{"type": "reasoning.text", "text": "2 + 3"},
    ...                                                     {"type": "reasoning.encrypted", "data": "gAAA"}]})
    ('reasoning_details', '2 + 3')
    >>> server_trace({"content": "5", "reasoning": None}) is None
    True
    """
    for name in TRACE_FIELDS:
        value = message.get(name)
        if name == "reasoning_details" and isinstance(value, list):
            value = "\n\n".join(part for block in value if isinstance(block, dict)
                                 for part in (block.get("text"), block.get("summary")) if isinstance(part, str))
        if isinstance(value, str) and value:
            return name, clean_text(value)
    return None


def split_trace(content: str, sent_apart: tuple[str, str] | None,
                tags: tuple[str, str] | None) -> tuple[str, str | None, str | None]:
    """``(answer, trace, where the trace was)`` of a reply's content and a ``(field, trace)`` the server sent apart.

    A trace between ``tags`` in the content is taken out of the answer; so is the text before a
    closing tag with no opening one (the chat template put the opening tag in the prompt), and
    the text after an opening tag never closed (the reply ended while thinking: the answer is
    what came before it, usually nothing).

    Examples
    --------
    >>> split_trace("<think>2 + 3 = 5</think>\\n\\nThe answer is 5.", None, THINK_TAGS)
    ('The answer is 5.', '2 + 3 = 5', 'tags')
    >>> split_trace("2 + 3 = 5, so\\n</think>\\n5", None, THINK_TAGS)
    ('5', '2 + 3 = 5, so', 'tags')
    >>> split_trace("<think>2 + 3 is", None, THINK_TAGS)
    ('', '2 + 3 is', 'tags')
    >>> split_trace("The answer is 5.", ("reasoning", "2 + 3 = 5"), THINK_TAGS)
    ('The answer is 5.', '2 + 3 = 5', 'reasoning')
    """
    answer, in_content = content, None
    if tags is not None:
        opening, closing = tags
        start, end = content.find(opening), content.find(closing)
        if end != -1 and (start == -1 or start > end):  # only the closing tag
            answer, in_content = content[end + len(closing):], content[:end]
        elif start != -1 and end != -1:
            answer, in_content = content[:start] + content[end + len(closing):], content[start + len(opening):end]
        elif start != -1:  # never closed
            answer, in_content = content[:start], content[start + len(opening):]
    if in_content is not None:
        answer, in_content = answer.strip(), in_content.strip()
    found = ([sent_apart] if sent_apart else []) + ([("tags", in_content)] if in_content else [])
    if not found:
        return answer, None, None
    return answer, "\n\n".join(trace for _, trace in found), " and ".join(where for where, _ in found)


def read_completion(body: bytes, content_type: str = "",
                    reasoning: ReasoningConfig = _DEFAULT_REASONING) -> ChatResult:
    """The reply in an HTTP 200 body of a chat completion; a body that holds none is a recorded error.

    The answer and the trace are read apart (`server_trace`, `split_trace`). A reply that
    ``max_tokens`` ended before any answer (no content, or a trace never closed, with
    ``finish_reason`` "length") is a reply with an empty answer, which the judge calls a truncated
    ``no_answer``: the model answered nothing in its budget, the server did not fail. No content
    with any other finish reason is an error ("empty response"). Invalid UTF-8 and lone surrogates
    are replaced by U+FFFD, so every reply can be stored.
    """
    try:
        completion = json.loads(body.decode("utf-8", errors="replace"))
    except json.JSONDecodeError:
        return ChatResult(None, error=f"not a chat completion: HTTP 200 with a {content_type or 'untyped'} body "
                                      f"that is not JSON: {_snippet(body)}")
    if not isinstance(completion, dict):
        return ChatResult(None, error=f"not a chat completion: {_snippet(body)}")
    if "error" in completion and not completion.get("choices"):
        return ChatResult(None, error=f"the server answered HTTP 200 with an error: {_snippet(body)}")
    choices = completion.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message = choice.get("message")
    if not isinstance(message, dict):
        message = {}
    finish_reason = choice.get("finish_reason") if isinstance(choice.get("finish_reason"), str) else None
    content = message.get("content")
    sent_apart = server_trace(message)
    if not isinstance(content, str):
        if finish_reason != "length":
            return ChatResult(None, error="empty response" + ("" if choice else f" (no choices): {_snippet(body)}")
                              + (f" (finish_reason {finish_reason!r} after a trace in {sent_apart[0]})"
                                 if sent_apart else ""))
        content = ""  # cut off before the answer began
    usage = completion.get("usage")
    if not isinstance(usage, dict):
        usage = {}
    details = usage.get("completion_tokens_details")
    content = clean_text(content)
    answer, trace, source = split_trace(content, sent_apart, reasoning.tags)
    return ChatResult(answer, finish_reason=finish_reason, prompt_tokens=_token_count(usage.get("prompt_tokens")),
                      completion_tokens=_token_count(usage.get("completion_tokens")),
                      reasoning=trace, reasoning_source=source,
                      reasoning_tokens=_token_count(details.get("reasoning_tokens") if isinstance(details, dict)
                                                    else None),
                      content=content, sent_apart=sent_apart)


def model_ids(body: bytes) -> list[str] | None:
    """The model ids of a ``GET /models`` body, or ``None`` when it is not a model list."""
    try:
        listing = json.loads(body.decode("utf-8", errors="replace"))
    except json.JSONDecodeError:
        return None
    data = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(data, list) or not all(isinstance(m, dict) and isinstance(m.get("id"), str) for m in data):
        return None
    return [m["id"] for m in data]


def _token_count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _snippet(body: bytes, limit: int = 160) -> str:
    return repr(clean_text(body[:limit].decode("utf-8", errors="replace")) + ("…" if len(body) > limit else ""))


def storable(result: ChatResult) -> dict[str, Any]:
    """A reply as the cache keeps it: what the server sent, its trace fields only when it sent them (so the
    entries of other models stay as they were).
    """
    entry = {"text": result.content if result.content is not None else result.text,
             "finish_reason": result.finish_reason, "latency_s": result.latency_s,
             "prompt_tokens": result.prompt_tokens, "completion_tokens": result.completion_tokens}
    if result.sent_apart is not None:
        entry["reasoning_field"], entry["reasoning"] = result.sent_apart
    if result.reasoning_tokens:
        entry["reasoning_tokens"] = result.reasoning_tokens
    return entry
