"""Prompts in (Jinja2 templates of the package), JSON out: rendering, tolerant parsing, bounded re-asking."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from typing import Any, TypeVar

import jinja2

T = TypeVar("T")


class Unavailable(str):
    """Why a model-backed result is missing because of the infrastructure (not the model's answer).

    Stages leave such items out of their records, so that re-running the stage retries them.
    """


class Unusable(str):
    """Why a model's reply could not be used (no JSON, wrong shape) after the bounded re-asks."""


Failure = (Unavailable, Unusable)
"""The two ways `ask_json` can fail for an item; test with ``isinstance(result, Failure)``."""

RAN_OUT_WHILE_REASONING = "teacher ran out of tokens while reasoning"
"""Why a reply is unusable when every attempt ended at ``max_tokens`` before any answer: the trace took them all."""


@cache
def prompt_template(name: str) -> jinja2.Template:
    """A prompt of the package (``stad_utils/prompts/<name>.jinja``)."""
    text = resources.files("stad_utils").joinpath("prompts").joinpath(f"{name}.jinja").read_text(encoding="utf-8")
    return jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(text)


def render(name: str, **values: Any) -> str:
    """A prompt of the package filled with ``values``, without surrounding whitespace."""
    return prompt_template(name).render(**values).strip()


def parse_json_object(text: str | None) -> dict | None:
    """The last top-level JSON object in a model's reply, tolerating code fences and prose around it.

    >>> parse_json_object('Sure: ```json\\n{"a": {"b": 1}}\\n``` done')
    {'a': {'b': 1}}
    """
    if not text:
        return None
    cleaned = text.replace("```json", "```").replace("```", "")
    decoder = json.JSONDecoder()
    found, position = None, cleaned.find("{")
    while position != -1:
        try:
            candidate, end = decoder.raw_decode(cleaned, position)
        except json.JSONDecodeError:
            position = cleaned.find("{", position + 1)
            continue
        if isinstance(candidate, dict):
            found = candidate
        position = cleaned.find("{", end)
    return found


def literal_value(text: str) -> Any | None:
    """``text`` read as JSON, or else as a Python literal (ToT writes its labels with single quotes).

    ``None`` if it is neither.

    >>> literal_value("{'day': 'same_day'}"), literal_value('["a", "b"]'), literal_value("a, b")
    ({'day': 'same_day'}, ['a', 'b'], None)
    """
    for loader in (json.loads, ast.literal_eval):
        try:
            return loader(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def response_format(json_mode: str, name: str, schema: dict) -> dict | None:
    """The ``response_format`` a server understands: none, JSON mode, OpenAI/vLLM schemas or llama.cpp schemas."""
    if json_mode == "none":
        return None
    if json_mode == "json_object":
        return {"type": "json_object"}
    if json_mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    if json_mode == "llama_schema":
        return {"type": "json_object", "schema": schema}
    raise ValueError(f"unknown json_mode {json_mode!r}: use none, json_object, json_schema or llama_schema")


def chat_samples(client, conversations: Sequence, samples: Sequence[int], **options: Any) -> list:
    """``client.chat`` of each conversation as its own sample index (the same index: one batch)."""
    replies: list = [None] * len(conversations)
    for sample in sorted(set(samples)):
        group = [i for i, s in enumerate(samples) if s == sample]
        for i, reply in zip(group, client.chat([conversations[i] for i in group], sample=sample, **options)):
            replies[i] = reply
    return replies


def ran_out(attempts: int) -> Unusable:
    """Why a reply is unusable after ``attempts`` replies that all ran out while reasoning."""
    return Unusable(f"{RAN_OUT_WHILE_REASONING} ({attempts} attempt(s); give the endpoint reasoning.trace_tokens, "
                    "or a lower reasoning_effort)")


def chat_to_an_answer(client, prompts: Sequence, *, max_reasks: int, **options: Any) -> list:
    """``client.chat``, asking a reply cut off while reasoning again, at most ``max_reasks`` times.

    A reply whose tokens all went to the trace has no answer to correct, so it is asked again as
    it was, as a fresh sample (seed + 1, + 2 …: a new draw at temperature > 0, and its own cache
    entry); after the last attempt it is an `Unusable` saying so (`RAN_OUT_WHILE_REASONING`).
    """
    replies = list(client.chat(prompts, **options))
    for attempt in range(1, max_reasks + 1):
        again = [i for i, reply in enumerate(replies) if reply.cut_off_while_reasoning]
        if not again:
            break
        for i, reply in zip(again, client.chat([prompts[i] for i in again], sample=attempt, **options)):
            replies[i] = reply
    return [ran_out(max_reasks + 1) if reply.cut_off_while_reasoning else reply for reply in replies]


def ask_json(client, prompts: Sequence[str], validate: Callable[[dict], T], *, schema_name: str, schema: dict,
             max_reasks: int = 2, desc: str | None = None, **sampling: Any) -> list[T | str]:
    """Ask each prompt for a JSON object and ``validate`` it (raising `ValueError` with the problem).

    An unusable reply is answered with the problem and asked again, at most ``max_reasks``
    times; then the item's result is an `Unusable` string saying what was wrong. A reply cut off
    while reasoning is asked again as it was (`chat_to_an_answer`), within the same ``max_reasks``.
    A reply that never came (server error) is an `Unavailable` string. Only the answer is read,
    never a reasoning trace (`stad_utils.models._replies.split_trace`).
    """
    fmt = response_format(getattr(client.endpoint, "json_mode", "none"), schema_name, schema)
    conversations: list[list[dict]] = [[{"role": "user", "content": prompt}] for prompt in prompts]
    samples = [0] * len(prompts)  # a conversation cut off while reasoning is asked again as a fresh sample
    results: list[T | str] = [Unavailable("not asked")] * len(prompts)
    pending = list(range(len(prompts)))
    for attempt in range(1, max_reasks + 2):
        replies = chat_samples(client, [conversations[i] for i in pending], [samples[i] for i in pending],
                               desc=desc, response_format=fmt, **sampling)
        still_pending = []
        for i, reply in zip(pending, replies):
            if not reply.ok:
                results[i] = Unavailable(f"no reply from {client.model}: {reply.error}")
                continue
            if reply.cut_off_while_reasoning:
                results[i], samples[i] = ran_out(attempt), attempt
                still_pending.append(i)
                continue
            try:
                parsed = parse_json_object(reply.text)
                if parsed is None:
                    raise ValueError("no JSON object found")
                results[i] = validate(parsed)
            except (ValueError, TypeError, KeyError) as exc:
                results[i] = Unusable(f"unusable {schema_name} output after {attempt} attempt(s): {exc}")
                conversations[i] = conversations[i] + [
                    {"role": "assistant", "content": reply.text},
                    {"role": "user", "content": render("reask", problem=str(exc))},
                ]
                still_pending.append(i)
        pending = still_pending
        if not pending:
            break
    return results
