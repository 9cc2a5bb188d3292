"""The weekday kind (`WEEKDAY`), registered for the ``text`` format where a reference is a day of the week; a number
or ordinal in its place names a day only from 0 to 7 (`WEEKDAY_NUMBER`, which lists of weekdays share).
"""

from __future__ import annotations

import operator
import re

from .._numbers import Number
from ._kind import Kind, OtherKind
from ._number import NUMBER
from ._registry import register


def _could_be_a_weekday_number(number: Number, _weekday) -> bool:
    """Whether a number could name a day of the week: 0 to 7, as weeks are counted from 0 or 1, Sunday or Monday."""
    return 0 <= number.value <= 7


WEEKDAY_NUMBER = OtherKind(NUMBER, _could_be_a_weekday_number)
"""A number or ordinal where a weekday is asked ("19", "the 27th day of the week")."""

_WEEKDAY = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.IGNORECASE)
WEEKDAY = Kind("weekday", lambda text: [day.lower() for day in _WEEKDAY.findall(text)], operator.eq,
               written_with_digits=False, others=(WEEKDAY_NUMBER,))


def names_a_weekday(text: str) -> bool:
    """Whether ``text`` is the name of a day of the week and nothing else (``"Thursday"``)."""
    return bool(_WEEKDAY.fullmatch(text))


register("text", WEEKDAY, claims=lambda reference: names_a_weekday(reference.strip()))
