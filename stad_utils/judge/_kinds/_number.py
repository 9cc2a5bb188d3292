"""The number kind (`NUMBER`): numbers as the readers of `stad_utils.judge._numbers` find them, compared exactly,
or at the precision of a decimal reference; and what other kinds ask of a number (`parse_number`,
`equal_at_its_precision`, `run_together`, `mentions_a_number`).

`NUMBER` is the kind other kinds are most often answered in instead; the kind registered for the
``number`` format, a number asked for, is `_number_answer.NUMBER_ANSWER`.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from .._numbers import Number, as_number, numbers_in, unclear_numbers_in
from ._kind import Kind


def number_value(text: str) -> Fraction | None:
    """``text`` as exactly one number (a leading ``+`` allowed), else ``None``."""
    number = as_number(text)
    return number.value if number else None


def parse_number(text: str) -> float | None:
    """``text`` as one number, or ``None`` if it is not exactly one number.

    Examples
    --------
    >>> parse_number("$1,234.50"), parse_number("3 11 33")
    (1234.5, None)
    """
    value = number_value(text)
    return None if value is None else float(value)


def _round_half_up(value: Fraction, decimals: int) -> Fraction:
    scale = 10**decimals
    magnitude = Fraction(math.floor(abs(value) * scale + Fraction(1, 2)), scale)
    return magnitude if value >= 0 else -magnitude


def _more_precise(candidate: Number, decimals: int) -> bool:
    """Whether the candidate is written with more decimals than a decimal reference with ``decimals`` (a fraction
    has no end).
    """
    if candidate.decimals is None:
        return candidate.value.denominator != 1
    return candidate.decimals > decimals


def _rounds_to(candidate: Number, reference: Fraction, decimals: int) -> bool:
    """Whether the candidate is within half a unit of the reference's last decimal, its ``decimals``-th (rounded
    either way on a tie).
    """
    return abs(candidate.value - reference) <= Fraction(1, 2 * 10**decimals)


def number_matches(candidate: Number, reference: Number) -> bool | None:
    """Integers and decimals exactly; a more precise candidate that rounds to a decimal reference is undecided.

    The reference may itself be rounded ("2.5" for 2.45), or may not ("0.3" when 0.34 is wrong):
    only a later stage, which sees the question, can tell. Fractions match within a relative 1e-9.

    Examples
    --------
    >>> [n] = numbers_in("1000001"); [gold] = numbers_in("1000000"); number_matches(n, gold)
    False
    >>> [gold] = numbers_in("2.5"); [number_matches(n, gold) for n in numbers_in("2.50 5/2 2.45 2.4 1/3")]
    [True, True, None, False, False]
    >>> [gold] = numbers_in("70"); [number_matches(n, gold) for n in numbers_in("$70K, $70, 70 thousand, 7 dozen")]
    [None, True, None, False]
    """
    if candidate.value == reference.value:
        return True
    if candidate.unscaled == reference.value:
        return None  # "$70K" for 70: the question may ask in thousands
    if reference.decimals:
        decimals = reference.decimals
        rounded = _more_precise(candidate, decimals) and _rounds_to(candidate, reference.value, decimals)
        return None if rounded else False
    if reference.value.denominator == 1:
        return False
    return math.isclose(candidate.value, reference.value, rel_tol=1e-9)


def _show_number(number: Number) -> str:
    if number.value.denominator == 1:
        return str(number.value.numerator)
    if number.decimals:
        return f"{float(number.value):.{number.decimals}f}"
    return str(number.value)


NUMBER = Kind("number", numbers_in, number_matches, lambda a, b: a.value == b.value, _show_number,
              unclear=unclear_numbers_in)


def equal_at_its_precision(number: Number, value: Fraction) -> bool:
    """Whether ``number`` is ``value``, written exactly or rounded to the decimals it is written with.

    Examples
    --------
    >>> [equal_at_its_precision(n, Fraction(39495, 3600)) for n in numbers_in("10.97 10.9708 11")]
    [True, True, False]
    """
    if number.value == value:
        return True
    decimals = number.decimals
    return decimals is not None and decimals != 0 and _round_half_up(value, decimals) == number.value


def run_together(larger: int, smaller: int) -> set[Fraction]:
    """Two parts of a time written as one number: 17 and 55 as ``1755`` or ``17.55``."""
    return {Fraction(100 * larger + smaller), larger + Fraction(smaller, 100)}


_NUMBER_WORD = re.compile(r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|"
                          r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|half)\b",
                          re.IGNORECASE)


def mentions_a_number(text: str) -> bool:
    """Whether ``text`` holds a digit or a number word (which only a later stage can read)."""
    return bool(re.search(r"\d", text) or _NUMBER_WORD.search(text))
