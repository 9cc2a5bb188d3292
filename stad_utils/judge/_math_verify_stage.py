"""The cascade's second stage (`judge_by_math_verify`): what is sent to math-verify, and how its answer is heard.

An undecided answer to a LaTeX reference, or written in LaTeX, is compared symbolically; a
reader's "wrong" stands only if math-verify also finds the answer different (`Unheard`). Units,
matrices, lists of solutions and approximations are handled before and after the comparison;
the comparison itself runs in math-verify's worker process (`_symbolic`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ._kinds import infer_format
from ._latex import column_as_tuple, decimals_as_fractions, normal_form, solutions_in, split_unit, without_unit
from ._numbers import ROMAN_CONSTANT
from ._symbolic import compare_math_verify
from ._types import JudgeItem, Judgement, Undecided, Unheard

_APPROXIMATE = re.compile(r"≈|\\approx|\b(?:approximately|approx\.?|roughly|about|around|nearly)\b", re.IGNORECASE)


def _math_verify_says(math: str, reference: str) -> bool | None:
    """math-verify on an answer and the reference, both without a unit in words, which it would read as a
    factor (``8\\sqrt{3} \\text { square inches}`` is ``8\\sqrt{3}``), and on their values alone when both
    name the same unit; ``None`` when the units differ (``5\\text{ cm}`` for ``5\\text{ m}`` is not the
    answer, nor surely wrong), and for a "different" on a matrix or vector reference that the answer does
    not write as a matrix. A column vector reference is compared as a tuple with an answer written as one.
    """
    # math-verify drops \mathrm{i} and \mathrm{e}: they reach it as i and e
    math, reference = (_CONSTANT.sub(r"\g<constant>", text) for text in (math, reference))
    (value, unit), (gold_value, gold_unit) = split_unit(math), split_unit(reference)
    if unit and gold_unit:
        if unit != gold_unit:
            return None
        math, reference = value, gold_value  # "\frac{270}{7}^\circ" for "\frac{270}7\text{ degrees}"
    else:
        math, reference = without_unit(math), without_unit(reference)
    if _MATRIX.search(math) is None and _MATRIX.search(reference) is not None:
        # a vector or matrix written another way ("(1,4,3)", "-\mathbf{I}") may be credited, never called wrong;
        # a column vector is compared as the tuple MATH's graders accept for it
        equal = compare_math_verify(math, column_as_tuple(reference) or reference)
        return True if equal else None
    if len(solutions_in(math)) > 1 and _one_tuple_or_interval(reference):
        return None  # math-verify finds "x = 1, x = 2" equal to the pair or interval "(1, 2)"
    equal = compare_math_verify(math, reference)
    if equal is False and (exact := decimals_as_fractions(math)) != math:
        equal = compare_math_verify(exact, reference)  # "0.2i" for "\frac{i}{5}": a decimal is a fraction exactly
    if equal is False and unit != gold_unit and {unit, gold_unit} & {"°", "%"}:
        return None  # "30^\circ" for "\frac{\pi}{6}", "0.3" for "30\%": only a reader of the question can tell
    return equal


_MATRIX = re.compile(r"\\begin\{[pbBvV]?matrix\}")
_CONSTANT = re.compile(ROMAN_CONSTANT)


def _one_tuple_or_interval(reference: str) -> bool:
    return len(solutions_in(reference)) == 1 and normal_form(reference)[:1] in ("(", "[")


def _hear(item: JudgeItem, unheard: Unheard) -> Judgement | Undecided:
    """A reader's "wrong" stands when math-verify also finds the answer different; otherwise it is undecided."""
    different = unheard.math is not None and _math_verify_says(unheard.math, item.reference) is False
    if different:
        return replace(unheard.wrong, explanation=f"{unheard.wrong.explanation}; math-verify agrees")
    return Undecided(unheard.span, f"{unheard.wrong.explanation}, but math-verify does not find it different",
                     math=None)


def judge_by_math_verify(item: JudgeItem, undecided: Undecided | Unheard) -> Judgement | Undecided:
    """Stage 2 for a LaTeX reference or span; the item stays undecided if math-verify cannot read it."""
    if isinstance(undecided, Unheard):
        return _hear(item, undecided)
    symbolic = (item.answer_format or infer_format(item.reference)) == "latex" or "\\" in (undecided.math or "")
    equal = _math_verify_says(undecided.math, item.reference) if symbolic and undecided.math else None
    if equal is None or not equal and _APPROXIMATE.search(undecided.span):
        return undecided  # "15π ≈ 47.12. So the area is approximately 47.12." rounds what may be the reference
    return Judgement("correct" if equal else "wrong", undecided.math, "math_verify",
                     "symbolically equal" if equal else "symbolically different", item.truncated)
