"""A limit on what one invocation of a run may spend: model calls, tokens or dollars.

The runner puts a run's ``limit`` (``{calls: N, tokens: N, usd: X}`` in the params file, or
``--limit``) into the environment variable ``STAD_LIMIT`` of the kernel that runs its stages,
with the prices of 06_analyze. Every `ModelClient` of that process takes one call from `RunLimit`
before it sends a request the cache cannot answer, and counts the reply's tokens and price after;
once a count reaches its limit, the next request raises `RunLimitReached` instead of being sent.
A stage then stops as it stops on an interrupt: what it wrote stays (05 appends each verdict as it
comes, and every reply is cached the moment it arrives), and running the same command again
resumes, its cached replies free. The limit counts one invocation: each re-run may spend it again.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field

LIMIT_VARIABLE = "STAD_LIMIT"
"""The environment variable that carries a run's limit (JSON: ``calls``, ``tokens``, ``usd``, ``prices``)."""

LIMIT_KINDS = ("calls", "tokens", "usd")
"""What a limit may count: model calls (cache hits are free), prompt + answer tokens, dollars (with prices)."""


class RunLimitReached(RuntimeError):
    """A run's limit is reached: the next request is not sent (names the count and the limit)."""


@dataclass
class RunLimit:
    """What one process may still spend, and what it has spent (thread-safe)."""

    calls: int | None = None
    tokens: int | None = None
    usd: float | None = None
    prices: dict[str, dict[str, float]] = field(default_factory=dict)  # per model: USD per million prompt/completion
    spent: dict[str, float] = field(default_factory=lambda: dict.fromkeys(LIMIT_KINDS, 0.0))
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def take_call(self, model: str) -> None:
        """Count one call of ``model`` before it is sent; `RunLimitReached` if a limit is already reached."""
        with self._lock:
            reached = [f"{kind} {self._count(kind)} (limit {limit:g})" for kind, limit in self.limits().items()
                       if self.spent[kind] >= limit]
            if reached:
                raise RunLimitReached(f"the run's limit is reached: {', '.join(reached)}; {model} was not asked. "
                                      "What was computed is kept: run the same command again to go on (replies "
                                      "already received come from the cache and cost nothing)")
            self.spent["calls"] += 1

    def charge(self, model: str, prompt_tokens: int, completion_tokens: int) -> None:
        """Count the tokens of a reply of ``model``, and their price when ``prices`` gives one."""
        price = self.prices.get(model, {})
        with self._lock:
            self.spent["tokens"] += prompt_tokens + completion_tokens
            self.spent["usd"] += (prompt_tokens * price.get("prompt", 0.0)
                                  + completion_tokens * price.get("completion", 0.0)) / 1e6

    def limits(self) -> dict[str, float]:
        """The limits that are set, by kind."""
        return {kind: value for kind in LIMIT_KINDS if (value := getattr(self, kind)) is not None}

    def _count(self, kind: str) -> str:
        return f"${self.spent[kind]:.2f}" if kind == "usd" else f"{self.spent[kind]:,.0f}"


_LIMITS: dict[str, RunLimit] = {}
_LIMITS_LOCK = threading.Lock()


def run_limit() -> RunLimit | None:
    """The limit of the running process, read once from `LIMIT_VARIABLE` (``None`` when unset)."""
    text = os.environ.get(LIMIT_VARIABLE)
    if not text:
        return None
    with _LIMITS_LOCK:
        if text not in _LIMITS:
            block = json.loads(text)
            _LIMITS[text] = RunLimit(**{kind: block.get(kind) for kind in LIMIT_KINDS},
                                     prices=block.get("prices") or {})
        return _LIMITS[text]


def check_limit(block: object) -> list[str]:
    """What is wrong with a params file's ``limit`` block (nothing: an empty list).

    Examples
    --------
    >>> check_limit({"calls": 1000, "usd": 2.5}), check_limit({"tokens": -1})
    ([], ['limit.tokens: expected a positive number, got -1'])
    >>> check_limit({"call": 3})
    ["limit: unknown key 'call'; the keys are calls, tokens, usd"]
    """
    if not isinstance(block, dict):
        return [f"limit: expected a mapping of {', '.join(LIMIT_KINDS)}, got {block!r}"]
    problems = [f"limit: unknown key {key!r}; the keys are {', '.join(LIMIT_KINDS)}" for key in block
                if key not in LIMIT_KINDS]
    for kind in LIMIT_KINDS:
        value = block.get(kind)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
            problems.append(f"limit.{kind}: expected a positive number, got {value!r}")
    return problems
