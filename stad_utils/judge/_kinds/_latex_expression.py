"""The LaTeX-expression kind (`LATEX`), registered for the ``latex`` format: a MATH answer read whole by the readers
of `stad_utils.judge._latex`; and whether a span writes its numbers plainly (`written_plainly`).
"""

from __future__ import annotations

import re

from .._latex import answer_math, normal_form, same_answer
from ._kind import Kind
from ._registry import register

_LAYOUT = re.compile(r"\\(?:begin|end)\{[^{}]*\}|\\\\|&")  # "\end{align*}" closing a display is no expression


def _latex_answer(text: str) -> list[str]:
    answer = answer_math(text)
    return [answer] if answer and normal_form(_LAYOUT.sub("", answer)) else []


LATEX = Kind("expression", _latex_answer, same_answer, lambda a, b: normal_form(a) == normal_form(b), scalar=False,
             restatable=False, written_with_digits=False)
"""A LaTeX answer, read whole by the readers of `_latex`; what they cannot tell is left to math-verify."""

register("latex", LATEX, recognises=lambda reference: "\\" in reference or "^" in reference or "{" in reference)

_SYMBOLIC = re.compile(r"[\\$^_{}π√∞%]|\d\s*!|\b(?:sqrt|pi|log|ln|exp|sin|cos|tan|cot|sec|csc)\b", re.IGNORECASE)


def written_plainly(text: str) -> bool:
    """Whether ``text`` writes its numbers plainly: no LaTeX, root, power, percent, factorial or function
    that changes what a number in it is worth (``\\sqrt{25/256}``, ``31.25%``, ``3!``).

    Examples
    --------
    >>> [written_plainly(text) for text in ("The probability is 1/100.", "It is $\\frac{1}{100}$", "31.25%")]
    [True, False, False]
    """
    return _SYMBOLIC.search(text) is None
