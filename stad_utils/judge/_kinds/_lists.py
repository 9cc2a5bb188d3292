"""The list and set kinds (`ORDERED_LIST`, `UNORDERED_LIST`), registered for the ``list`` and ``set`` formats: a
JSON or Python list, or a plain prose list ("A, B and C"); a list of weekdays may be answered with a day's number.
"""

from __future__ import annotations

import operator
import re
from dataclasses import replace
from functools import partial

from ...models import literal_value
from ._free_text import normalise_text
from ._kind import Kind
from ._registry import register
from ._weekday import WEEKDAY_NUMBER, names_a_weekday

_LEAD_IN = re.compile(r"^.*(?::|\b(?:is|are|was|were)\b)\s*", re.IGNORECASE | re.DOTALL)
_LIST_SEPARATOR = re.compile(r"\s*(?:,\s*(?:and|then)\b|,|;|\band\b|\bthen\b|->|→|\bfollowed by\b)\s*",
                             re.IGNORECASE)
_MAX_ITEM_WORDS = 3  # "working out", "plant watering"; longer is a clause, not an item
_ITEM = re.compile(rf"[\w'-]+(?:\s[\w'-]+){{0,{_MAX_ITEM_WORDS - 1}}}")


def _literal_list(text: str) -> list | None:
    value = literal_value(text)
    return list(value) if isinstance(value, (list, tuple)) else None


def _prose_list(text: str) -> list[str] | None:
    """``"The days are Thursday and Friday."`` → ``["Thursday", "Friday"]``; ``None`` unless every item is short."""
    body = _LEAD_IN.sub("", text).strip().strip(".!*_`\"'")
    items = [re.sub(r"^(?:the|a|an)\s+", "", item.strip("*_`\"' "), flags=re.IGNORECASE)
             for item in _LIST_SEPARATOR.split(body)]
    if not items or not all(_ITEM.fullmatch(item) for item in items):
        return None
    return items


def lists_in(text: str) -> list[tuple[str, ...]]:
    """The list a span states, as normalised items: a JSON or Python list, or a plain prose list.

    Examples
    --------
    >>> lists_in("The days are Thursday and Friday."), lists_in("Joe, then Jenny, then Jason")
    ([('thursday', 'friday')], [('joe', 'jenny', 'jason')])
    >>> lists_in("Kyle and Joe have exams after the cut-off.")
    []
    """
    stripped = text.strip().rstrip(".")
    bracketed = re.findall(r"\[[^\[\]]*\]", stripped)
    items = _literal_list(bracketed[-1]) if bracketed else _prose_list(stripped)
    return [] if items is None else [tuple(normalise_text(str(item)) for item in items)]


ORDERED_LIST = Kind("list", lists_in, operator.eq, show=", ".join, scalar=False, restatable=False,
                    written_with_digits=False)
UNORDERED_LIST = Kind("set", lists_in, lambda a, b: sorted(a) == sorted(b), show=", ".join, scalar=False,
                      restatable=False, written_with_digits=False)


def _list_kind(kind: Kind, reference: str) -> Kind:
    """A list or set of weekdays may be answered with a day's number instead; other lists are not."""
    items = lists_in(reference)
    if items and items[0] and all(names_a_weekday(item) for item in items[0]):
        return replace(kind, others=(WEEKDAY_NUMBER,))
    return kind


register("list", partial(_list_kind, ORDERED_LIST),
         recognises=lambda reference: reference.startswith("[") and reference.endswith("]"))
register("set", partial(_list_kind, UNORDERED_LIST))  # a set reference is written as a list: never inferred
