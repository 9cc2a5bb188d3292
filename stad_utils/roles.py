"""Opening the model-backed roles of a stage from its parameters: the teacher and the LLM judge."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .client import ModelClient
from .judge import Judgement
from .serving import open_client
from .structured import parse_json_object, render
from .teachers import GSM8KSolutionTeacher, LLMTeacher, OracleTeacher, Teacher


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
        prompts = [render("judge", candidate=candidate, reference=reference) for candidate, reference in pairs]
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
    """The teacher named by a stage parameter.

    ``"oracle"`` (generated tasks), ``"gsm8k_solution"`` (GSM8K's annotated gold solutions), or
    an LLM teacher: ``{"endpoint": {...EndpointConfig...}, **LLMTeacher options}``.
    """
    if spec == "oracle":
        yield OracleTeacher()
    elif spec == "gsm8k_solution":
        yield GSM8KSolutionTeacher()
    elif isinstance(spec, dict) and "endpoint" in spec:
        options = {key: value for key, value in spec.items() if key != "endpoint"}
        with open_client(spec["endpoint"], cache_path=cache_path, role="teacher") as client:
            yield LLMTeacher(client, **options)
    else:
        raise ValueError(f"unknown teacher {spec!r}; use 'oracle', 'gsm8k_solution' or {{'endpoint': {{...}}}}")
