"""STaD's questions as an Inspect task, scored by this project's judge cascade.

::

    inspect eval stad_utils/stad_ladders -T run=results/quickstart --model openai/gpt-4o-mini \\
        --max-retries 3 -M max_retries=0 --temperature 0 --log-dir logs/stad

(with the package installed, its entry point registers the task as ``stad_utils/stad_ladders``;
the file form ``inspect eval <path of this file>@stad_ladders`` works from a checkout.) One
sample per question a target is asked in 05_evaluate: the original, every scaffold level, every
isolated step and, with ``-T placebo=true``, every placebo level of the run's verified ladders.
Repeated trials (05's ``n_samples``) are Inspect's epochs: ``-T n_samples=3`` asks each question
three times, epoch *e* with seed + *e* − 1 when a seed is given, as 05 sends sample *s* with
seed + *s*. The token limits of 05 are ``-T max_tokens`` (originals) and ``-T max_tokens_variants``
(the rest); without them Inspect's ``--max-tokens`` applies to all. A target's system prompt is
``-T system_prompt=…``.

The scorer is `stad_utils.method.judge_reply`, the judge of 05: its verdict's fields are the
score's metadata (``outcome``, ``decided_by``, ``extracted``, ``truncated`` …). A reply judged
correct is ``C``; wrong or without an answer, ``I``; one no stage could decide, or a judge that gave
no verdict, is *unscored* (`inspect_ai.scorer.Score.unscored`), so Inspect's accuracy counts only
decided replies, as the method does, and ``stad_utils.exchange`` reads the outcome back
(``python -m stad_utils.exchange from-inspect``). A reply cut off by ``max_tokens`` is judged as
truncated. This module imports ``inspect_ai`` (the ``inspect`` extra): only Inspect imports it.
"""

from __future__ import annotations

from pathlib import Path

from anyio import to_thread
from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, ContentReasoning, GenerateConfigArgs
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, grouped, scorer, stderr
from inspect_ai.solver import Generate, TaskState, solver

from stad_utils.exchange._run import question_metadata, run_name, sample_id, step_skills, verified_ladders
from stad_utils.judge import judge_version
from stad_utils.method import Question, judge_reply, ladder_questions
from stad_utils.models import ChatResult
from stad_utils.records import RunPaths

FINISH_REASONS = {"stop": "stop", "max_tokens": "length", "model_length": "length"}
"""Inspect's stop reasons as the finish reasons 05 records (others are kept as Inspect names them)."""

SCORER = "stad_judge"
"""The name of the scorer, and of its scores in a log."""

JUDGED = ("outcome", "correct", "extracted", "decided_by", "explanation", "judge_version", "truncated", "error")
"""A verdict's fields that the judge sets (`judge_reply`): what a score of `stad_judge` records in its metadata."""


def reply_of(output, error: str | None = None) -> ChatResult:
    """An Inspect model output as the reply 05 would have recorded: the answer, its trace apart, its tokens."""
    if error is not None or output is None or not output.choices:
        return ChatResult(None, error=error or "the model gave no reply")
    choice = output.choices[0]
    content = choice.message.content
    traces = [part.reasoning for part in content if isinstance(part, ContentReasoning)] if isinstance(content, list) \
        else []
    usage = output.usage
    return ChatResult(output.completion, finish_reason=FINISH_REASONS.get(choice.stop_reason, choice.stop_reason),
                      prompt_tokens=usage.input_tokens if usage else 0,
                      completion_tokens=usage.output_tokens if usage else 0,
                      reasoning="\n".join(traces) if traces else None,
                      reasoning_tokens=(usage.reasoning_tokens or 0) if usage else 0)


def score_of(judged: dict) -> Score:
    """The Inspect score of a verdict's judged fields (all kept in its metadata): C, I, or unscored (undecided,
    judge error).
    """
    metadata = dict(judged)
    if judged["correct"] is None:
        return Score.unscored(reason=judged["outcome"], answer=judged["extracted"], explanation=judged["explanation"],
                              metadata=metadata)
    return Score(value=CORRECT if judged["correct"] else INCORRECT, answer=judged["extracted"],
                 explanation=judged["explanation"], metadata=metadata)


@scorer(metrics=[accuracy(), stderr(), grouped(accuracy(), "variant", all=False)])
def stad_judge(run: str, placebo: bool = False):
    """The cascade of 05 on each reply (deterministic, then math-verify; no LLM judge)."""
    questions = _questions(run, placebo)

    async def score(state: TaskState, target: Target) -> Score:
        question = questions[str(state.sample_id)]
        reply = reply_of(state.output)
        return score_of(await to_thread.run_sync(judge_reply, question, reply))

    return score


@solver
def ask_target(max_tokens: int | None = None, max_tokens_variants: int | None = None, seed: int | None = None):
    """Generate, with 05's token limit for the question's variant and the seed of its sample."""
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        config: GenerateConfigArgs = {}
        limit = max_tokens if state.metadata["variant"] == "original" else (max_tokens_variants or max_tokens)
        if limit is not None:
            config["max_tokens"] = limit
        if seed is not None:
            config["seed"] = seed + state.epoch - 1
        return await generate(state, **config)

    return solve


def _questions(run: str, placebo: bool) -> dict[str, Question]:
    return {sample_id(q.task_id, q.variant, q.level): q
            for q in ladder_questions(verified_ladders(RunPaths(Path(run))), placebo=placebo)}


@task
def stad_ladders(run: str, placebo: bool = False, n_samples: int = 1, system_prompt: str | None = None,
                 max_tokens: int | None = None, max_tokens_variants: int | None = None,
                 seed: int | None = None) -> Task:
    """Every question a target is asked in 05_evaluate of the run folder ``run``.

    Parameters
    ----------
    run : a run folder with ``ladders.jsonl`` (03_scaffold done; with ``skills.jsonl`` the samples carry skills).
    placebo : also ask the placebo level of every scaffold level.
    n_samples : the epochs: replies per question (05's ``n_samples``).
    system_prompt : the target's system prompt (05's ``system_prompt``).
    max_tokens, max_tokens_variants : 05's limits for originals and for the other questions.
    seed : the seed of sample 0; epoch *e* is sent with seed + *e* − 1.
    """
    paths = RunPaths(Path(run))
    skills = step_skills(paths)
    system = [ChatMessageSystem(content=system_prompt)] if system_prompt else []
    samples = [Sample(id=key, input=[*system, ChatMessageUser(content=question.prompt)] if system else question.prompt,
                      target=question.reference, metadata=question_metadata(question, skills))
               for key, question in _questions(run, placebo).items()]
    return Task(dataset=MemoryDataset(samples, name=run_name(paths)), solver=ask_target(max_tokens, max_tokens_variants,
                                                                                        seed),
                scorer=stad_judge(run, placebo), epochs=Epochs(n_samples), name="stad_ladders",
                metadata={"stad": {"run": str(paths.root), "placebo": placebo, "judge_version": judge_version()}})
