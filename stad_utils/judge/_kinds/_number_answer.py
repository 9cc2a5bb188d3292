"""The kind of a number asked for (`NUMBER_ANSWER`), registered for the ``number`` format: `NUMBER`, read as the
question and reply write numbers, with a calendar date as the other kind an answer to it is written in.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from .._numbers import (
    READERS,
    asked_unit,
    compound_durations,
    durations_in_unit,
    grouped_thousands,
    numbers_in,
    unclear_numbers_in,
    writes_thousands_with,
)
from ._calendar_date import CALENDAR_DATE, number_could_state_date
from ._kind import Kind, OtherKind
from ._number import NUMBER, parse_number
from ._registry import register


def _as_the_question_and_reply_write_it(kind: Kind, question: str | None, reply: str) -> Kind:
    """A number asked in a unit of time ("How many minutes …?") reads a duration as a number in that unit ("2 hours
    and 40 minutes" is 160); a number in a reply that groups thousands with dots or spaces (``3.000``, ``21 000``)
    is read so (``1.875`` is 1875).
    """
    unit, separator = asked_unit(question), writes_thousands_with(reply)
    if unit or separator:
        readers = READERS
        if unit:
            readers = (durations_in_unit(unit), *(reader for reader in readers if reader is not compound_durations))
        if separator:
            readers = (grouped_thousands(separator), *readers)
        return replace(kind, read=partial(numbers_in, readers=readers), unclear=partial(unclear_numbers_in,
                                                                                          readers=readers))
    return kind


NUMBER_ANSWER = replace(NUMBER, others=(
    OtherKind(CALENDAR_DATE, lambda date, gold: number_could_state_date(gold, date)),),
    adapt=_as_the_question_and_reply_write_it)
"""A number asked for: a calendar date in its place is another kind of answer ("2005-01-13" for 21)."""

register("number", NUMBER_ANSWER,
         recognises=lambda reference: parse_number(reference) is not None and "\\" not in reference)
