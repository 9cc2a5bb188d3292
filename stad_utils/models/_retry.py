"""Which failures of a request are retried, after how long, and how a failure is described."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import httpx
import openai
from tenacity import RetryCallState

from ..records import mask_secrets

if TYPE_CHECKING:
    # The openai SDK installed here (3.x) sends through httpx2: its responses carry httpx2's requests and headers.
    import httpx2


def _transport_errors() -> tuple[type[Exception], ...]:
    """A body cut off or stalled while it is read raises the transport error of the library the openai SDK sends
    through, unwrapped: httpx for openai 1.x, httpx2 for 3.x.
    """
    try:
        import httpx2
    except ImportError:
        return (httpx.TransportError,)
    return (httpx.TransportError, httpx2.TransportError)


_TRANSPORT_ERRORS = _transport_errors()


def is_transient(exc: BaseException) -> bool:
    """Whether a failed attempt is worth another: no connection, a timeout, HTTP 429 or 5xx, a body cut off."""
    if isinstance(exc, (openai.APIConnectionError, openai.APITimeoutError, openai.RateLimitError, *_TRANSPORT_ERRORS)):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def backoff(state: RetryCallState) -> float:
    """Exponential backoff (0.5 s, 1 s, 2 s … up to 30 s), or the server's ``Retry-After``."""
    exc = state.outcome.exception() if state.outcome else None
    response = getattr(exc, "response", None)
    retry_after = response.headers.get("retry-after") if response is not None else None
    if retry_after:
        try:
            return min(float(retry_after), 60.0)
        except ValueError:
            pass
    return min(0.5 * 2 ** (state.attempt_number - 1), 30.0)


def describe_failure(exc: BaseException, secrets: Sequence[str] = ()) -> str:
    """A failure as a record states it: its type, HTTP status and message (``secrets`` masked, 400 characters)."""
    status = getattr(exc, "status_code", None)
    described = f"{type(exc).__name__}" + (f" (HTTP {status})" if status else "") + f": {exc}"
    return mask_secrets(described, secrets)[:400]


class RequestDeadlineExceeded(openai.APIConnectionError):
    """A reply that did not arrive whole within ``timeout_s`` (retried like a timeout)."""

    def __init__(self, request: httpx2.Request, limit_s: float):
        super().__init__(message=f"no complete reply within {limit_s:g} s (timeout_s, wall clock per attempt)",
                         request=request)
