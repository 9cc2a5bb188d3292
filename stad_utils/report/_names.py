"""Short display names for long skill and model names, never cut where two of them differ.

A cluster of steps may be named by a whole step sentence, and a simulated target by its planted
weaknesses; a table column or a tick label has room for a few words. `short_names` keeps the
words that tell a name from every other one, and says where it left words out ("…"); the
full name stays at hand (a ``title`` in HTML, the report's tables).
"""

from __future__ import annotations

from collections.abc import Sequence

ELLIPSIS = "…"


def _differing_word(words: list[str], others: Sequence[list[str]]) -> int:
    """The index of the last word needed to tell ``words`` from each of ``others`` (by their first difference)."""
    needed = 0
    for other in others:
        common = next((i for i, (a, b) in enumerate(zip(words, other)) if a != b), min(len(words), len(other)))
        needed = max(needed, min(common, len(words) - 1))
    return needed


def _shorten(name: str, others: Sequence[str], width: int) -> str:
    if len(name) <= width:
        return name
    head = name.split(" (")[0].split(": ")[0].rstrip(".,;")
    if len(head) <= width and all(not other.startswith(head) for other in others):
        return head
    words = name.split()
    needed = _differing_word(words, [other.split() for other in others])
    kept = 1
    while kept < len(words) and len(" ".join(words[:kept + 1])) <= width - 2:
        kept += 1
    more = f" {ELLIPSIS}" if needed + 1 < len(words) else ""
    if kept >= len(words):  # one long word: nothing to leave out
        return name
    if kept > needed:
        return " ".join(words[:kept]) + f" {ELLIPSIS}"
    if needed <= 2:  # the differing word comes early: keep the words up to it, however long
        return " ".join(words[:needed + 1]) + more
    tail = words[needed - 1:needed + 1]  # the differing word, after the one before it
    lead = 1
    while len(" ".join(words[:lead + 1] + [ELLIPSIS] + tail) + more) <= width and lead + 1 < needed - 1:
        lead += 1
    return " ".join(words[:lead] + [ELLIPSIS] + tail) + more


def short_names(names: Sequence[str], width: int = 32) -> dict[str, str]:
    """Each name → a display name of about ``width`` characters, distinct from the others'.

    A name that fits is kept; else its head before a parenthesis or colon if that is unique;
    else its first words, continued up to the word where it first differs from its closest
    other name (words between are left out with "…"). Names that would still collide keep
    their full text.

    Examples
    --------
    >>> names = ["Multiply the number of groups by the number of items in each group.",
    ...          "Multiply the number of items sold by the price of one item.",
    ...          "simulated (planted: multiplication 0.4, composition penalty 0.3)", "addition"]
    >>> list(short_names(names).values())
    ['Multiply the number of groups …', 'Multiply the number of items …', 'simulated', 'addition']
    >>> short_names(["Add the minutes of the first trip to the clock time 09:40",
    ...              "Add the minutes of the first trip to the clock time 10:15"], width=30)
    ... # doctest: +NORMALIZE_WHITESPACE
    {'Add the minutes of the first trip to the clock time 09:40': 'Add the minutes … time 09:40',
     'Add the minutes of the first trip to the clock time 10:15': 'Add the minutes … time 10:15'}
    """
    distinct = list(dict.fromkeys(names))
    shortened = {name: _shorten(name, [other for other in distinct if other != name], width) for name in distinct}
    seen: dict[str, int] = {}
    for short in shortened.values():
        seen[short] = seen.get(short, 0) + 1
    return {name: short if seen[short] == 1 else name for name, short in shortened.items()}
