"""The year kind (`YEAR`), registered for the ``date`` format where a reference is a year with an era (``352 BC``,
``AD 1057``); other dates are calendar dates (`_calendar_date`).
"""

from __future__ import annotations

import operator
import re

from ._kind import Kind
from ._registry import register

_YEAR = re.compile(r"(?<![\w.])(?P<year>\d{1,5})\s*(?P<era>BCE|BC|AD|CE|B\.C\.(?:E\.)?|A\.D\.|C\.E\.)(?![\w])"
                   r"|(?<![\w.])(?P<era_first>AD|A\.D\.)\s*(?P<year_after>\d{1,5})(?![\w.])")


def years_in(text: str) -> list[int]:
    """Years written with an era, BC as negative: ``352 BC -> -352``, ``AD 1057 -> 1057``.

    Examples
    --------
    >>> years_in("from 360 BC to 302 AD")
    [-360, 302]
    """
    found = []
    for match in _YEAR.finditer(text):
        era = (match["era"] or match["era_first"]).replace(".", "")
        year = int(match["year"] or match["year_after"])
        found.append(-year if era.startswith("B") else year)
    return found


YEAR = Kind("year", years_in, operator.eq, show=lambda y: f"{-y} BC" if y < 0 else f"{y} AD")

register("date", YEAR, claims=lambda reference: bool(years_in(reference)),
         recognises=lambda reference: bool(_YEAR.fullmatch(reference)))
