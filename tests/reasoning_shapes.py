"""The shapes in which OpenAI-compatible servers send a reasoning model's reply, for scripted servers in tests.

Each shape writes an answer and a trace into a chat completion the way a real server does:

* ``reasoning``: current vLLM with ``--reasoning-parser`` (the field renamed from ``reasoning_content``);
* ``reasoning_content``: older vLLM, DeepSeek's API and several hosts;
* ``reasoning_details``: OpenRouter's list of reasoning blocks (an encrypted block beside the text one);
* ``think_tags``: no parser on the server, the trace in the content between ``<think>`` tags;
* ``closing_tag_only``: the chat template wrote ``<think>`` into the prompt, so the content has only the closing tag;
* ``gpt_oss``: gpt-oss through vLLM's harmony parser: the final channel as content, the analysis channel in both
  trace fields, and the reasoning tokens in ``usage.completion_tokens_details``;
* ``cut_off_in_field``: ``max_tokens`` reached while thinking, with a parser: no content, ``finish_reason`` "length";
* ``cut_off_in_tags``: the same without a parser: an opening ``<think>`` never closed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from scripted_server import Raw


@dataclass(frozen=True)
class Shape:
    name: str
    cut_off: bool  # the reply ends inside its trace: no answer
    source: str  # where the client should find the trace
    reports_reasoning_tokens: bool  # the server counts the trace's tokens in usage


SHAPES = {shape.name: shape for shape in (
    Shape("reasoning", False, "reasoning", True),
    Shape("reasoning_content", False, "reasoning_content", True),
    Shape("reasoning_details", False, "reasoning_details", True),
    Shape("think_tags", False, "tags", False),
    Shape("closing_tag_only", False, "tags", False),
    Shape("gpt_oss", False, "reasoning_content", True),
    Shape("cut_off_in_field", True, "reasoning", True),
    Shape("cut_off_in_tags", True, "tags", False),
)}

REASONING_TOKENS, ANSWER_TOKENS = 40, 8


def message_of(shape: str, answer: str, trace: str) -> tuple[dict, str]:
    """The ``message`` and ``finish_reason`` of a reply in ``shape`` (a cut-off shape sends the trace only)."""
    if shape == "reasoning":
        return {"role": "assistant", "content": answer, "reasoning": trace}, "stop"
    if shape == "reasoning_content":
        return {"role": "assistant", "content": answer, "reasoning_content": trace}, "stop"
    if shape == "reasoning_details":
        return {"role": "assistant", "content": answer, "reasoning": trace, "reasoning_details": [
            {"type": "reasoning.text", "text": trace, "format": "unknown", "index": 0},
            {"type": "reasoning.encrypted", "data": "gAAAAB-opaque", "format": "unknown", "index": 1}]}, "stop"
    if shape == "think_tags":
        return {"role": "assistant", "content": f"<think>\n{trace}\n</think>\n\n{answer}"}, "stop"
    if shape == "closing_tag_only":
        return {"role": "assistant", "content": f"{trace}\n</think>\n\n{answer}"}, "stop"
    if shape == "gpt_oss":
        return {"role": "assistant", "content": answer, "reasoning_content": trace, "reasoning": trace,
                "tool_calls": [], "refusal": None}, "stop"
    if shape == "cut_off_in_field":
        return {"role": "assistant", "content": None, "reasoning": trace}, "length"
    if shape == "cut_off_in_tags":
        return {"role": "assistant", "content": f"<think>\n{trace}"}, "length"
    raise ValueError(shape)


def completion(shape: str, answer: str, trace: str, model: str = "m") -> bytes:
    """A chat completion body in ``shape``, with usage as such a server reports it."""
    message, finish_reason = message_of(shape, answer, trace)
    generated = REASONING_TOKENS + (0 if SHAPES[shape].cut_off else ANSWER_TOKENS)
    usage = {"prompt_tokens": 20, "completion_tokens": generated, "total_tokens": 20 + generated}
    if SHAPES[shape].reports_reasoning_tokens:
        usage["completion_tokens_details"] = {"reasoning_tokens": REASONING_TOKENS}
    return json.dumps({"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": model,
                       "choices": [{"index": 0, "message": message, "finish_reason": finish_reason,
                                    "logprobs": None}], "usage": usage}).encode()


def answering(reply, shape_of, trace_of=lambda messages, answer: "Let me think. 2 + 2 = 4, so maybe 7."):
    """A `ScriptedServer` ``raw`` hook: ``reply(messages)`` is the answer, sent in ``shape_of(body)``.

    ``shape_of`` may also return ``None`` to let the server send its plain scripted reply.
    """
    def raw(path, request):
        body = request.get("body")
        if body is None:
            return None
        shape = shape_of(body)
        if shape is None:
            return None
        answer = reply(body["messages"])
        return Raw(completion(shape, answer, trace_of(body["messages"], answer), body["model"]))
    return raw
