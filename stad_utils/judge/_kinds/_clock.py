"""The clock-time kind (`CLOCK`), registered for the ``clock`` format: times of day with or without AM/PM, a time
without them being either half of the day; a number in its place could still be its hour, minute or second.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import partial

from .._numbers import Number
from ._kind import Kind, OtherKind
from ._number import NUMBER, run_together
from ._registry import register


@dataclass(frozen=True)
class Clock:
    seconds: int  # after midnight, 24-hour
    unambiguous: bool  # written with AM/PM, or an hour only a 24-hour clock has (0, 13…23)


_CLOCK = re.compile(
    r"(?<![\d:.])(?P<h>\d{1,2})(?::(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?)?(?![\d:])"
    r"(?:\s*(?P<half>[AaPp])\.?\s?[Mm]\b\.?)?"
)


def clocks_in(text: str, twenty_four_hour: bool = False) -> list[Clock]:
    """Clock times: ``11:15``, ``11:15 AM``, ``21:44:10``, ``9am``, ``5 p.m.``.

    A time in the 1–12 hour range without AM/PM may be either half of the day, unless
    ``twenty_four_hour`` says that the text writes the 24-hour clock: then a zero-padded hour
    (``01:15``) is that hour of the morning (`writes_the_24_hour_clock`).

    Examples
    --------
    >>> [c.seconds // 60 for c in clocks_in("from 9am to 1:40 PM")]
    [540, 820]
    >>> [c.unambiguous for c in clocks_in("01:15 1:15")], [c.unambiguous for c in clocks_in("01:15 1:15", True)]
    ([False, False], [True, False])
    """
    found = []
    for match in _CLOCK.finditer(text):
        if match["m"] is None and match["half"] is None:
            continue  # a bare number
        hour, minute, second = int(match["h"]), int(match["m"] or 0), int(match["s"] or 0)
        half = (match["half"] or "").lower()
        if hour > 23 or (half and not 1 <= hour <= 12):
            continue
        if half:
            hour = hour % 12 + (12 if half == "p" else 0)
        zero_padded = twenty_four_hour and match["h"].startswith("0")
        found.append(Clock(hour * 3600 + minute * 60 + second, bool(half) or hour == 0 or hour > 12 or zero_padded))
    return found


_HALF_OF_THE_DAY = re.compile(r"\d\s*[AaPp]\.?\s?[Mm]\b")
_TWENTY_FOUR_HOUR = re.compile(r"(?<![\d:])(?:1[3-9]|2[0-3]|00):[0-5]\d|\b24[- ]?(?:hour|hr|h)\b", re.IGNORECASE)


def writes_the_24_hour_clock(text: str) -> bool:
    """Whether a text writes the 24-hour clock: a time only it has (``13:40``, ``00:15``) or says so ("24-hour"),
    and no AM or PM anywhere. Then ``01:15`` in it is a quarter past one in the morning.

    Examples
    --------
    >>> [writes_the_24_hour_clock(t) for t in ("From 22:30 to 01:15.", "01:15", "13:00 or 1:15 PM", "01:15 (24hr)")]
    [True, False, False, True]
    """
    return bool(_TWENTY_FOUR_HOUR.search(text)) and not _HALF_OF_THE_DAY.search(text)


def _either_half_of_the_day(candidate: Clock, reference: Clock) -> bool:
    """Whether one of the two readings of a time without AM/PM (``10:50``: 10:50 or 22:50) is the reference."""
    return candidate.seconds % 43200 == reference.seconds % 43200


def clock_matches(candidate: Clock, reference: Clock) -> bool | None:
    """Equal times of day; a time without AM/PM against a reference whose half of the day is known is undecided.

    A candidate in the 1–12 hour range without AM/PM could be either half of the day. Against a
    reference written with AM/PM, or a 24-hour one from 13:00 or before 01:00, it is undecided
    when one of its readings is the reference and wrong when neither is. A 24-hour candidate
    (``13:40``), or a reference without AM/PM in the 1–12 range (ToT's ``04:31``), compares as
    24-hour.

    Examples
    --------
    >>> [clock_matches(c, clocks_in("10:50 PM")[0]) for c in clocks_in("22:50 10:50 10:50 AM 11:50")]
    [True, None, False, False]
    >>> [clock_matches(c, clocks_in("04:31")[0]) for c in clocks_in("4:31 4:31 PM 16:31")]
    [True, False, False]
    """
    if not candidate.unambiguous and reference.unambiguous:
        return None if _either_half_of_the_day(candidate, reference) else False
    return candidate.seconds == reference.seconds


def could_be_the_same_clock(one: Clock, other: Clock) -> bool:
    """Whether two times may be one time written twice: equal, or equal in some half of the day if one leaves it unsaid.

    Examples
    --------
    >>> [could_be_the_same_clock(c, clocks_in("10:50 PM")[0]) for c in clocks_in("10:50 22:50 10:50 AM")]
    [True, True, False]
    """
    if one.seconds == other.seconds:
        return True
    return (not one.unambiguous or not other.unambiguous) and _either_half_of_the_day(one, other)


def _show_clock(clock: Clock) -> str:
    hours, rest = divmod(clock.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")


def number_could_state_clock(number: Number, clock: Clock) -> bool:
    """Whether a number could be the clock time, or a part of it: its hour (12- or 24-hour), its minute or
    second, or its hour and minute run together (``1755``, ``5.55``).

    Examples
    --------
    >>> from .._numbers import numbers_in
    >>> [number_could_state_clock(n, clocks_in("5:55 PM")[0]) for n in numbers_in("5 17 55 555 5.55 250")]
    [True, True, True, True, True, False]
    """
    hour, rest = divmod(clock.seconds, 3600)
    minute, second = divmod(rest, 60)
    hours = {hour, hour % 12 or 12}
    parts = hours | {minute, second} | {written for h in hours for written in run_together(h, minute)}
    return number.value in parts


def _in_a_24_hour_reply(kind: Kind, question: str | None, reply: str) -> Kind:
    """A reply that writes the 24-hour clock (`writes_the_24_hour_clock`) has a zero-padded hour of the morning."""
    if writes_the_24_hour_clock(reply):
        return replace(kind, read=partial(clocks_in, twenty_four_hour=True))
    return kind


CLOCK = Kind("clock time", clocks_in, clock_matches, could_be_the_same_clock, _show_clock,
             others=(OtherKind(NUMBER, number_could_state_clock),), adapt=_in_a_24_hour_reply)

# how a clock reference is written: "11:15", "11:15 AM", "21:44:10"
_CLOCK_REFERENCE = re.compile(r"\d{1,2}:\d{2}(:\d{2})?\s*([AaPp]\.?[Mm]\.?)?")
register("clock", CLOCK, recognises=lambda reference: bool(_CLOCK_REFERENCE.fullmatch(reference)))
