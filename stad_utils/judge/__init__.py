"""Does a reply commit to an answer equal to the reference in value? A precision-first cascade.

A wrong "correct" is worse than an honest "undecided": the judge credits only the answer a reply
commits to, and leaves anything it cannot read for sure to a later stage, never to a guess.
Three stages, run in order by `_cascade`: ``deterministic`` (read the committed answer,
`_extract`; the value a span states, `_span_value`, one answer from the commitments, `_reconcile`,
read and compared by the reference's kind, `_kinds`, `_numbers`, `_latex`, or by another kind,
`_other_kind`; the verdict, `_deterministic`), ``math_verify`` (`_math_verify_stage`, with
math-verify in a worker process, `_symbolic`; heard before any "wrong" on LaTeX) and
``llm_judge`` (`_llm`, optional). A credited answer not in the form its question asks for is
wrong (`_form_as_asked`). A reply that commits to no answer is ``no_answer``; a missing reply is
an ``error``, never wrong; the types are in `_types`.

The specification (the committed-answer grammar, how each kind is read and compared, the
precedence between commitments, the MATH readers) and the measured precision and recall are in
``docs/judge.md``; the version history is the "Judge" section of ``CHANGELOG.md``.
"""

from __future__ import annotations

from ._cascade import judge_answers
from ._extract import Commitment, Reading, extract_answer, last_boxed, read_reply
from ._kinds import (
    calendar_dates_in,
    clocks_in,
    durations_in,
    infer_format,
    kind_for,
    lists_in,
    parse_number,
    years_in,
)
from ._llm import MAX_CANDIDATE_CHARS, JudgeTemplate, LLMJudge
from ._numbers import numbers_in
from ._types import JUDGE_VERSION, JudgeItem, Judgement, LLMJudgeFn, judge_version

__all__ = ['MAX_CANDIDATE_CHARS',
    "JUDGE_VERSION", "Commitment", "JudgeItem", "JudgeTemplate", "Judgement", "LLMJudge", "LLMJudgeFn", "Reading",
    "calendar_dates_in", "clocks_in", "durations_in", "extract_answer", "infer_format", "judge_answers",
    "judge_version", "kind_for", "last_boxed", "lists_in", "numbers_in", "parse_number", "read_reply", "years_in",
]
