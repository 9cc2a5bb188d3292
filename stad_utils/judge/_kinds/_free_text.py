"""The free-text kind (`FREE_TEXT`), the ``text`` format's kind for any reference that is not a weekday or a name:
the whole span, normalised (`normalise_text`), is its one value.
"""

from __future__ import annotations

import re

from ._kind import Kind
from ._registry import register


def normalise_text(text: str) -> str:
    """Lower case, words only: ``"The  E49-era."`` → ``"the e49 era"``."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _equal_or_unknown(candidate: str, reference: str) -> bool | None:
    return True if candidate == reference else None


FREE_TEXT = Kind("text", lambda text: [normalise_text(text)] if normalise_text(text) else [], _equal_or_unknown,
                 restatable=False, written_with_digits=False)
"""The whole span as one value: equal text is correct; other text is left to a later stage."""

# a reference that no other format recognises is text (`infer_format` tries text last)
register("text", FREE_TEXT, recognises=lambda reference: True)
