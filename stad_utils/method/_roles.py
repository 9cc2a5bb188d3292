"""Opening the model-backed roles of a stage from its parameters: the teacher and the LLM judge."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from ..judge import JudgeTemplate, LLMJudge
from ..models import open_client
from ._teachers import GSM8KSolutionTeacher, LLMTeacher, OracleTeacher, Teacher


@contextmanager
def open_judge(spec: dict | None, *, cache_path: Path | str | None = None,
               log_dir: Path | str | None = None) -> Iterator[LLMJudge | None]:
    """The LLM judge named by a stage parameter, or ``None`` (deterministic and math-verify stages only).

    ``spec`` is an endpoint block, or ``{"endpoint": {...}, "prompts": "official", "official_repo": PATH}``
    to ask with the authors' judge prompt (see `stad_utils.official.load_official_prompts`).
    ``log_dir``: where an embedded model's servers log (see `open_client`).
    """
    if not spec:
        yield None
        return
    endpoint, template = judge_endpoint(spec)
    with open_client(endpoint, cache_path=cache_path, role="judge", log_dir=log_dir) as client:
        yield LLMJudge(client, template=template)


def judge_endpoint(spec: dict) -> tuple[dict, JudgeTemplate | None]:
    """The endpoint block of a judge parameter, and the authors' judge prompt if it asks for it."""
    if "endpoint" not in spec:
        return spec, None
    check_judge_options(spec)
    if spec.get("prompts", "project") == "project":
        return spec["endpoint"], None
    return spec["endpoint"], official_judge_template(spec.get("official_repo"))


def official_judge_template(official_repo: str | Path | None) -> JudgeTemplate:
    """The authors' ``prompt_correctness_value``, filled and read as their code does, for the LLM judge."""
    from ._official_prompts import fill_judge, load_official_prompts, read_judge_score

    prompts = load_official_prompts(official_repo)
    return JudgeTemplate("official prompt", partial(fill_judge, prompts), read_judge_score)


def check_judge_options(spec: dict) -> None:
    """Refuse a judge block with options other than ``endpoint``, ``prompts`` and ``official_repo``."""
    unknown = set(spec) - {"endpoint", "prompts", "official_repo"}
    if unknown or spec.get("prompts", "project") not in ("project", "official"):
        raise ValueError(f"use an endpoint block, or {{endpoint: {{...}}, prompts: official|project, "
                         f"official_repo: PATH}}; got keys {sorted(spec)} and prompts {spec.get('prompts')!r}")


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
