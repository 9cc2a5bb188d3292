"""The calendar-date kind (`CALENDAR_DATE`), the ``date`` format's kind for any reference that is not a year with an
era: ``2004-01-11``, ``12/11/2011``, ``24 May, 2023``, a numeric date whose day and month may be either way round
being both; a number in its place could still be its year, month or day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .._numbers import Number
from ._kind import Kind, OtherKind
from ._number import NUMBER
from ._registry import register

_CALENDAR = re.compile(
    r"\b(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/-]\d{1,2}[/-]\d{4}|\d{4}-[A-Za-z]{3}-\d{1,2}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,9},?\s+\d{4}|[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})\b"
)


@dataclass(frozen=True)
class CalendarDate:
    readings: frozenset  # one date; two when day and month could be either way round ("09-04-2014")
    digits: tuple[int, ...] | None  # the numbers as written, for an all-numeric date


_EITHER_ORDER = re.compile(r"(\d{1,2})-(\d{1,2})-\d{4}")  # ToT writes both dd-mm-yyyy and mm-dd-yyyy


def calendar_dates_in(text: str) -> list[CalendarDate]:
    """Calendar dates: ``2004-01-11``, ``12/11/2011`` (month first), ``24 May, 2023``, ``Dec 11, 2011``…

    ``07-27-2002`` is month first because 27 is no month; ``09-04-2014`` may be either.

    Examples
    --------
    >>> [sorted(d.isoformat() for d in found.readings) for found in calendar_dates_in("Dec 11, 2011 or 09-04-2014")]
    [['2011-12-11'], ['2014-04-09', '2014-09-04']]
    """
    from dateutil import parser

    found = []
    for match in _CALENDAR.finditer(text):
        written = match.group(0)
        try:
            readings = {parser.parse(written, dayfirst=False).date()}
        except (ValueError, OverflowError):
            continue  # a word that only looked like a month
        either = _EITHER_ORDER.fullmatch(written)
        if either and max(int(either[1]), int(either[2])) <= 12:
            readings.add(parser.parse(written, dayfirst=True).date())
        digits = tuple(map(int, re.findall(r"\d+", written))) if re.fullmatch(r"[\d/-]+", written) else None
        found.append(CalendarDate(frozenset(readings), digits))
    return found


def calendar_matches(candidate: CalendarDate, reference: CalendarDate) -> bool | None:
    """The same date; ``None`` when it depends on an unknown day-month order."""
    if candidate.digits is not None and candidate.digits == reference.digits:
        return True
    if not candidate.readings & reference.readings:
        return False
    return True if len(candidate.readings) == len(reference.readings) == 1 else None


def _date_parts(date: CalendarDate) -> set[int]:
    """The numbers a date is written with, alone or run together: ``2013``, ``8``, ``24``, ``20130824`` …"""
    parts = set()
    for day in date.readings:
        parts |= {day.year, day.month, day.day}
        parts |= {int(day.strftime(order)) for order in ("%Y%m%d", "%m%d%Y", "%d%m%Y")}
    return parts


def number_could_state_date(number: Number, date: CalendarDate) -> bool:
    """Whether a number could be the date, or a part of it (its year, month or day; ``20130824``); the same
    question tells whether a date could hold the number asked for ("What year …?" answered with a date).

    Examples
    --------
    >>> from .._numbers import numbers_in
    >>> [gold] = calendar_dates_in("08/24/2013")
    >>> [number_could_state_date(n, gold) for n in numbers_in("2013 24 20130824 368 22.14")]
    [True, True, True, False, False]
    """
    return number.value in _date_parts(date)


CALENDAR_DATE = Kind("date", calendar_dates_in, calendar_matches, lambda a, b: a.readings == b.readings,
                     show=lambda date: " or ".join(sorted(d.isoformat() for d in date.readings)),
                     others=(OtherKind(NUMBER, number_could_state_date),))

register("date", CALENDAR_DATE, recognises=lambda reference: bool(_CALENDAR.fullmatch(reference)))
