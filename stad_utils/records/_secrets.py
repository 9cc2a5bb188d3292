"""Masking secrets (API keys, ``Bearer`` tokens) in any text before it is stored or shown."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import Any

MASK = "***"
_BEARER = re.compile(r"(Bearer\s+)[^\s\"'\\,;]+", re.IGNORECASE)
_SHORTEST_SECRET = 4  # "not-needed" style placeholders are longer; a one-letter "key" would mask every letter


def mask_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every given secret and every ``Bearer`` token replaced by ``***``."""
    for secret in sorted(set(secrets), key=len, reverse=True):
        if len(secret) >= _SHORTEST_SECRET:
            text = text.replace(secret, MASK)
    return _BEARER.sub(rf"\g<1>{MASK}", text)


def configured_secrets(params: Any) -> list[str]:
    """The values of every environment variable a params tree names in an ``api_key_env``."""
    return [os.environ[name] for name in _key_variables(params) if os.environ.get(name)]


def _key_variables(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "api_key_env" and isinstance(value, str):
                yield value
            else:
                yield from _key_variables(value)
    elif isinstance(node, list):
        for item in node:
            yield from _key_variables(item)
