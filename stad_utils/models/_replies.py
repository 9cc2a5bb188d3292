"""A model's reply: the completion read from a server's body, its reasoning trace kept apart,
its usage counted, and its form in the response cache.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

Messages = list[dict[str, str]]
"""A chat as the chat API takes it: role and content of each message."""

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
                                      f"that is not JSON: {body_snippet(body)}")
    if not isinstance(completion, dict):
        return ChatResult(None, error=f"not a chat completion: {body_snippet(body)}")
    if "error" in completion and not completion.get("choices"):
        return ChatResult(None, error=f"the server answered HTTP 200 with an error: {body_snippet(body)}")
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
            return ChatResult(None, error="empty response" + ("" if choice else f" (no choices): {body_snippet(body)}")
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


def body_snippet(body: bytes, limit: int = 160) -> str:
    """The start of a server's body, quoted for an error message (at most ``limit`` bytes, then ``…``)."""
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
