"""The form-as-asked rule (`as_asked`): a credited answer not in the form its question demands is wrong (a fraction
not in lowest terms where they are asked for, a mixed number where an improper fraction is, or the reverse).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from ._latex import solutions_in, split_unit
from ._types import JudgeItem, Judgement, Undecided

_LOWEST_TERMS = re.compile(r"\b(?:lowest|simplest) terms\b|\bsimplest form\b|\breduced fraction\b", re.IGNORECASE)
_IMPROPER = re.compile(r"\bimproper fraction\b", re.IGNORECASE)
_MIXED = re.compile(r"\bmixed number\b", re.IGNORECASE)
# one fraction or mixed number in `normal_form` (``\\frac{10}{25}``, ``3\\frac{283}{999}``, ``10/25``)
_ONE_FRACTION = re.compile(r"^(?:(?P<whole>\d+)?\\frac\{(?P<num>\d+)\}\{(?P<den>\d+)\}"
                           r"|(?P<slash_num>\d+)/(?P<slash_den>\d+))$")


def _form_not_as_asked(question: str | None, credited: str | None) -> str | None:
    """Why a credited answer is not in the form its question demands, read whole: a fraction not in lowest terms
    where they are asked for, a mixed number where an improper fraction is, or the reverse; else ``None``.

    Examples
    --------
    >>> _form_not_as_asked("Express your answer as a common fraction in lowest terms.", r"\\frac{10}{25}")
    'not in lowest terms, as the question asks'
    >>> _form_not_as_asked("Express your answer as an improper fraction.", r"3\\frac{283}{999}")
    'a mixed number, where the question asks for an improper fraction'
    >>> _form_not_as_asked("Express your answer as a common fraction in lowest terms.", r"\\frac{2}{5}") is None
    True
    """
    if not question or credited is None:
        return None
    values = solutions_in(credited)  # in normal form, "x=" dropped
    if len(values) != 1:
        return None
    value, _ = split_unit(values[0])
    fraction = _ONE_FRACTION.match(value.replace("-", "", 1))
    if fraction is None:
        return None
    numerator, denominator = (int(fraction[name] or fraction[f"slash_{name}"]) for name in ("num", "den"))
    if _LOWEST_TERMS.search(question) and math.gcd(numerator, denominator) > 1:
        return "not in lowest terms, as the question asks"
    if _IMPROPER.search(question) and fraction["whole"]:
        return "a mixed number, where the question asks for an improper fraction"
    if _MIXED.search(question) and not fraction["whole"] and numerator > denominator:
        return "an improper fraction, where the question asks for a mixed number"
    return None


def as_asked(item: JudgeItem, verdict: Judgement | Undecided) -> Judgement | Undecided:
    """A "correct" whose answer is not in the form the question demands is wrong: the value alone is not what
    was asked ("as a common fraction in lowest terms" against ``\\frac{10}{25}``).
    """
    if not isinstance(verdict, Judgement) or verdict.outcome != "correct":
        return verdict
    problem = _form_not_as_asked(item.question, verdict.extracted)
    if problem is None:
        return verdict
    return replace(verdict, outcome="wrong", explanation=f"{verdict.explanation}, but {problem}")
