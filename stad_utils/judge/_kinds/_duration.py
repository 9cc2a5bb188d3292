"""The duration kind (`DURATION`), registered for the ``duration`` format: one contiguous expression with units from
larger to smaller (``1 hour 35 minutes``), in seconds.
"""

from __future__ import annotations

import operator
import re
from fractions import Fraction

from .._numbers import duration_parts
from ._kind import Kind
from ._registry import register


def durations_in(text: str) -> list[Fraction]:
    """Durations in seconds, each one contiguous expression with units from larger to smaller.

    ``1 hour 35 minutes`` is one duration; ``1 hour 35 minutes (95 minutes)`` holds the same
    duration twice; ``1 hour, 1 hour, 1 hour`` is three durations of an hour, not one of three;
    ``7,380 seconds`` is 7380 seconds.

    Examples
    --------
    >>> [int(s) for s in durations_in("It takes 1 hour 35 minutes (95 minutes), or 2h 5m.")]
    [5700, 5700, 7500]
    """
    return [seconds for _, _, seconds, _ in duration_parts(text)]


def show_duration(seconds: Fraction) -> str:
    """``5700`` → ``"1 h 35 min"``."""
    parts, rest = [], seconds
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        whole, rest = divmod(rest, size)
        if whole:
            parts.append(f"{whole} {unit}")
    if rest or not parts:
        parts.append(f"{float(rest):g} s")
    return " ".join(parts)


DURATION = Kind("duration", durations_in, operator.eq, show=show_duration)

# how a duration reference is written: "95 minutes", "1 hour, 35 minutes and 10 seconds"
_DURATION_REFERENCE = re.compile(r"(\s*\d+(\.\d+)?\s*(days?|hours?|minutes?|seconds?)\s*,?\s*(and)?)+", re.IGNORECASE)
register("duration", DURATION, recognises=lambda reference: bool(_DURATION_REFERENCE.fullmatch(reference)))
