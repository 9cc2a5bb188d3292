"""The judge's types: what it is asked (`JudgeItem`), what it answers (`Judgement`, stored with `judge_version`), an
LLM judge's signature (`LLMJudgeFn`), and what one stage of the cascade leaves to the next (`Undecided`,
`Unheard`: inside this package only).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..records import AnswerFormat, JudgeOutcome

JUDGE_VERSION = "cascade-8"
"""The verdict rules of this package's modules; bumped whenever they change, and stored with every verdict."""


@dataclass(frozen=True)
class JudgeItem:
    """One reply to judge.

    Attributes
    ----------
    response : str or None
        The reply; ``None`` when no reply was obtained (an infrastructure error).
    reference : str
        The gold answer.
    answer_format : str or None
        How the reference is written (`stad_utils.records.AnswerFormat`); ``None``: inferred from it.
    question : str or None
        The question asked, so that a concluding sentence that only restates it is not credited.
    truncated : bool
        The server cut the reply off at ``max_tokens`` (``finish_reason == "length"``).
    """

    response: str | None
    reference: str
    answer_format: AnswerFormat | None = None
    question: str | None = None
    truncated: bool = False


@dataclass(frozen=True)
class Judgement:
    """The judge's decision on one reply.

    Attributes
    ----------
    outcome : str
        ``correct``, ``wrong``, ``undecided``, ``no_answer`` or ``error`` (`stad_utils.records.JudgeOutcome`).
    extracted : str or None
        The committed answer (its value, or the span) the decision rests on.
    decided_by : str
        ``deterministic``, ``math_verify``, ``llm_judge``, ``none`` (undecided or no answer) or ``error``.
    explanation : str
        One short reason, e.g. ``"hedged: maybe"``.
    truncated : bool
        The reply was cut off by ``max_tokens``.
    """

    outcome: JudgeOutcome
    extracted: str | None
    decided_by: str
    explanation: str = ""
    truncated: bool = False

    @property
    def correct(self) -> bool | None:
        """``True`` for correct; ``False`` for wrong and no answer; ``None`` for undecided and errors."""
        return {"correct": True, "wrong": False, "no_answer": False}.get(self.outcome)


LLMJudgeFn = Callable[[Sequence[tuple[str, str]]], list[Judgement]]
"""Judges (committed span, reference) pairs in one batch; see `stad_utils.judge.LLMJudge`."""


def judge_version(llm_judge: LLMJudgeFn | None = None) -> str:
    """The version stored with verdicts: `JUDGE_VERSION`, plus the LLM judge's model if there is one.

    Examples
    --------
    >>> judge_version()
    'cascade-8'
    """
    if llm_judge is None:
        return JUDGE_VERSION
    model = getattr(getattr(llm_judge, "client", None), "model", None) or getattr(llm_judge, "__name__", "llm")
    return f"{JUDGE_VERSION}+llm:{model}"


@dataclass(frozen=True)
class Undecided:
    """An item the deterministic stage leaves to the later stages."""

    span: str
    reason: str
    math: str | None  # what math-verify may compare: an explicit commitment, or the one expression a concluding
    # sentence states (`math_expression`); None after a hedge, a negation or a disagreement


@dataclass(frozen=True)
class Unheard:
    """A reader's "wrong" that math-verify must hear first: the reference is LaTeX, or the answer is written in it.

    It stands only if math-verify also finds the answer different; otherwise the reply is undecided
    (a reader may have missed what the LaTeX does to a value: ``2\\frac{1}{2}``, ``\\sqrt4``).
    """

    wrong: Judgement
    span: str
    math: str | None
