"""vLLM's in-process engine behind the client interface (GPU machines only: the ``vllm`` extra), and the
``vllm`` endpoint kind (`VLLM`) that opens it.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

from ._cache import ResponseCache
from ._client import as_messages
from ._endpoint import ClientOptions, EndpointConfig, EndpointKind, register_kind
from ._limit import run_limit
from ._replies import ChatResult, Messages, UsageStats, from_cache, split_trace, storable


class MicroBatcher:
    """Gathers single requests from many threads into batches, for an engine that batches itself.

    `stad_utils.method.evaluate` asks one question per thread (so that each verdict is written as
    soon as it is judged); vLLM's in-process engine is fastest when it gets many prompts at once.
    A worker thread takes whatever requests have arrived (waiting ``wait_s`` for more, up to
    ``max_batch``) and answers them with one call of ``answer_batch``.

    Examples
    --------
    >>> batcher = MicroBatcher(lambda batch: [f"answer to {request}" for request in batch])
    >>> batcher.submit("q1")
    'answer to q1'
    """

    def __init__(self, answer_batch: Callable[[list], list], max_batch: int = 256, wait_s: float = 0.02):
        self.answer_batch, self.max_batch, self.wait_s = answer_batch, max_batch, wait_s
        self._queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._work, daemon=True, name="micro-batcher").start()

    def submit(self, request):
        """The answer to one request (blocking until its batch is answered)."""
        future: Future = Future()
        self._queue.put((request, future))
        return future.result()

    def _work(self) -> None:
        while True:
            batch = [self._queue.get()]
            deadline = time.monotonic() + self.wait_s
            while len(batch) < self.max_batch and (left := deadline - time.monotonic()) > 0:
                try:
                    batch.append(self._queue.get(timeout=left))
                except queue.Empty:
                    break
            try:
                answers = self.answer_batch([request for request, _ in batch])
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting callers, who raise it
                for _, future in batch:
                    future.set_exception(exc)
                continue
            for (_, future), answer in zip(batch, answers):
                future.set_result(answer)


class VLLMEngineClient:
    """vLLM's offline in-process engine behind the `ModelClient` interface (GPU machines only).

    Install with ``pip install .[vllm]``. vLLM needs a CUDA (or ROCm/TPU) device: it cannot
    run on a CPU-only machine such as the one the embedded default targets. ``model`` is a
    hub id or a local path, loaded once per client. Single requests from many threads
    (`chat_one`) reach the engine in batches (`MicroBatcher`).
    """

    def __init__(self, endpoint: EndpointConfig, cache: ResponseCache | None = None, role: str = "model",
                 refresh_cache: bool = False):
        from vllm import LLM  # optional dependency

        self.endpoint, self.cache, self.role, self.refresh_cache = endpoint, cache, role, refresh_cache
        self.usage = UsageStats()
        self._llm = LLM(model=endpoint.model, seed=endpoint.seed or 0, **endpoint.extra_body)
        self._batcher = MicroBatcher(self._answer)

    @property
    def model(self) -> str:
        """The endpoint's label."""
        return self.endpoint.label

    def chat_one(self, prompt: str | Messages, *, sample: int = 0, response_format: dict | None = None,
                 **overrides: Any) -> ChatResult:
        """The answer to one prompt, batched with the other threads' requests."""
        return self._batcher.submit(engine_request(self.endpoint, prompt, sample, overrides))

    def chat(self, prompts: Sequence[str | Messages], *, desc: str | None = None,
             response_format: dict | None = None, sample: int = 0, **overrides: Any) -> list[ChatResult]:
        """The answers to the prompts, in their order, with one call of the engine."""
        return self._answer([engine_request(self.endpoint, prompt, sample, overrides) for prompt in prompts])

    def _answer(self, requests: list[tuple[str, Messages, dict]]) -> list[ChatResult]:
        """Answer from the cache what it holds, the rest with one call of the engine (one sampling setting each)."""
        from vllm import SamplingParams

        stored = [self.cache.get(key) if self.cache is not None and not self.refresh_cache else None
                  for key, _, _ in requests]
        results: list[ChatResult | None] = [from_cache(s, params, self.endpoint.reasoning) if s else None
                                            for s, (_, _, params) in zip(stored, requests)]
        todo = [i for i, s in enumerate(stored) if s is None]
        limit = run_limit()
        if limit is not None:  # RunLimitReached before the engine is asked
            for _ in todo:
                limit.take_call(self.model)
        sampling = [SamplingParams(**{name: requests[i][2][name] for name in ("temperature", "max_tokens", "seed",
                                                                            "top_p") if name in requests[i][2]})
                    for i in todo]
        started = time.perf_counter()
        try:
            outputs = self._llm.chat([requests[i][1] for i in todo], sampling, use_tqdm=False) if todo else []
        except Exception as exc:  # noqa: BLE001 - recorded as errors, never as wrong answers
            outputs, failure = [None] * len(todo), f"{type(exc).__name__}: {exc}"
        elapsed = (time.perf_counter() - started) / max(len(todo), 1)
        for i, output in zip(todo, outputs):
            if output is None:
                results[i] = ChatResult(None, error=failure)
                continue
            completion = output.outputs[0]
            answer, trace, source = split_trace(completion.text, None, self.endpoint.reasoning.tags)
            answered = ChatResult(answer, finish_reason=completion.finish_reason, latency_s=elapsed,
                                  prompt_tokens=len(output.prompt_token_ids),
                                  completion_tokens=len(completion.token_ids),
                                  reasoning=trace, reasoning_source=source, content=completion.text)
            results[i] = answered
            if limit is not None:
                limit.charge(self.model, answered.prompt_tokens, answered.completion_tokens)
            if self.cache is not None:  # (an empty cache is falsy: it has a length)
                key, conversation, params = requests[i]
                self.cache.put(key, self.endpoint.model, {"messages": conversation, "params": params},
                               storable(answered))
        done: list[ChatResult] = []
        for result in results:
            if result is None:
                raise RuntimeError(f"vLLM answered {len(outputs)} of the {len(todo)} prompts it was given")
            self.usage.add(result)
            done.append(result)
        return done


def engine_request(endpoint: EndpointConfig, prompt: str | Messages, sample: int = 0,
                   overrides: dict | None = None) -> tuple[str, Messages, dict]:
    """The cache key, messages and sampling parameters of one request to the in-process engine."""
    params = {**endpoint.sampling(), **(overrides or {})}
    if endpoint.reasoning.trace_tokens:  # as `stad_utils.models.request_of`: the answer keeps its limit
        params["max_tokens"] += endpoint.reasoning.trace_tokens
    if sample and params.get("seed") is not None:
        params["seed"] += sample
    conversation = as_messages(prompt, endpoint.system_prompt)
    return ResponseCache.key(endpoint.model, conversation, params, sample), conversation, params


@contextmanager
def _open_engine(config: EndpointConfig, options: ClientOptions) -> Iterator[VLLMEngineClient]:
    yield VLLMEngineClient(config, options.cache, options.role, options.refresh_cache)


VLLM = register_kind(EndpointKind("vllm", open=_open_engine, sends_requests=False, extra="vllm"))
"""vLLM's in-process engine: no server, so no request to carry request-only settings."""
