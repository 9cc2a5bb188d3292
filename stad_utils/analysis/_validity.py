"""Checks of a run's validity: places to look, not proof of a fault.

Owns: whether a ladder's variants may leak the final answer (`possible_leakage`) and the
counts of suspicious ladders and outcomes of ``comparison.json`` (`validity_checks`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..method import k_category
from ..records import Ladder, Outcome
from ._frames import policy_of
from ._schema import Validity


def _mentions(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w.:/]){re.escape(value)}(?![\w:/]|\.\d)", text) is not None


def possible_leakage(ladder: Ladder) -> bool:
    """A scaffold, or an isolated question before the last, states the final answer that the original does not."""
    answer = ladder.task.answer
    return not _mentions(ladder.task.question, answer) and any(
        _mentions(text, answer) for text in ladder.scaffolds + ladder.isolated[:-1])


def validity_checks(ladders: Sequence[Ladder], items: Sequence[Outcome]) -> Validity:
    """Counts of suspicious variants and outcomes (each a place to look, not proof of a fault).

    * ``possible_leakage``: ladders with a scaffold, or an isolated question before the last,
      that states the final answer although the original question does not;
    * ``non_monotonic``: outcomes solved at some level and failed at a higher one;
    * ``solved_but_steps_failed``: outcomes solved as asked (k = 0) with an isolated step
      failed, which questions the teacher's step answers or the isolated wording; ``None``
      under ``on_failure``, where solved originals have no isolated answers.
    """
    leaking = [ladder.task_id for ladder in ladders if possible_leakage(ladder)]
    solved_but_failed = (sum(k_category(o.k) == "independent" and False in o.isolated for o in items)
                         if policy_of(items) == "full"
                         else None)
    return Validity(possible_leakage=len(leaking), leaking_tasks=leaking[:20],
                    non_monotonic=sum(o.non_monotonic for o in items), solved_but_steps_failed=solved_but_failed)
