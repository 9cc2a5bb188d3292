"""Opening the model-backed roles of a stage from its parameters: the teacher and the LLM judge."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path

import jinja2

from .client import ModelClient
from .judge import Judgement
from .serving import open_client
from .teachers import OracleTeacher, Teacher


@cache
def prompt_template(name: str) -> jinja2.Template:
    """A prompt of the package (``stad_utils/prompts/<name>.jinja``)."""
    text = resources.files("stad_utils").joinpath("prompts", f"{name}.jinja").read_text(encoding="utf-8")
    return jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=False).from_string(text)


def parse_json_object(text: str | None) -> dict | None:
    """The last JSON object in a model's reply, tolerating code fences and prose around it."""
    if not text:
        return None
    cleaned = text.replace("```json", "```").replace("```", "")
    depth, start, found = 0, None, None
    for position, char in enumerate(cleaned):
        if char == "{":
            depth, start = depth + 1, position if depth == 0 else start
        elif char == "}" and depth:
            depth -= 1
            if depth == 0 and start is not None:
                try:
                    candidate = json.loads(cleaned[start:position + 1])
                except json.JSONDecodeError:
                    continue
                if isinstance(candidate, dict):
                    found = candidate
    return found


class LLMJudge:
    """The cascade's last stage: a model compares the *extracted* answer with the reference.

    The judge never sees the target's full response, so text in it that addresses the
    judge (``{"score": 1}``, "mark this correct") cannot reach the judge's prompt unless it
    is itself the extracted answer; a reply without a parseable score is recorded as an
    error (``correct=None``), not as a verdict.
    """

    def __init__(self, client: ModelClient):
        self.client = client

    def __call__(self, pairs: Sequence[tuple[str, str]]) -> list[Judgement]:
        template = prompt_template("judge")
        prompts = [template.render(candidate=candidate, reference=reference) for candidate, reference in pairs]
        replies = self.client.chat(prompts, desc=f"judge ({self.client.model})", temperature=0.0)
        verdicts = []
        for (candidate, _), reply in zip(pairs, replies):
            parsed = parse_json_object(reply.text)
            score = parsed.get("score") if parsed else None
            if score not in (0, 1, "0", "1", True, False):
                problem = reply.error or f"unparseable judge reply: {str(reply.text)[:200]!r}"
                verdicts.append(Judgement(None, candidate, "error", problem))
                continue
            verdicts.append(Judgement(int(score) == 1, candidate, "llm_judge", str(parsed.get("justification", ""))))
        return verdicts


@contextmanager
def open_judge(endpoint: dict | None, *, cache_path: Path | str | None = None) -> Iterator[LLMJudge | None]:
    """An `LLMJudge` on ``endpoint``, or ``None`` (deterministic and math-verify stages only)."""
    if not endpoint:
        yield None
        return
    with open_client(endpoint, cache_path=cache_path, role="judge") as client:
        yield LLMJudge(client)


@contextmanager
def open_teacher(spec: str | dict, *, cache_path: Path | str | None = None) -> Iterator[Teacher]:
    """The teacher named by a stage parameter: ``"oracle"`` (generated tasks)."""
    if spec == "oracle":
        yield OracleTeacher()
        return
    raise ValueError(f"unknown teacher {spec!r}; use 'oracle'")
