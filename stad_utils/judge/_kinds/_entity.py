"""The entity-name kind (`ENTITY`), registered for the ``text`` format where a reference is a name of letters and
digits (``E49``), compared in upper case.
"""

from __future__ import annotations

import operator
import re

from ._kind import Kind
from ._registry import register

_ENTITY = re.compile(r"\b[A-Za-z]+\d+\b")
ENTITY = Kind("name", lambda text: [name.upper() for name in _ENTITY.findall(text)], operator.eq,
              restatable=False, written_with_digits=False)

register("text", ENTITY, claims=lambda reference: bool(_ENTITY.fullmatch(reference.strip())))
