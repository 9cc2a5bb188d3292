"""Texts that come from a model, a data file or a user, made inert wherever they are rendered.

A skill name is written by a teacher model, a namer model, the release data or a hand-edited
``skill_map.csv``; a model name comes from a params file; a reply from the model. Each such
text is *data*: rendered as markdown (``report.md``, which nbconvert and JupyterLab turn into
HTML) or as a matplotlib label it must show as typed, never become a tag, a link, a heading or
a formula. HTML built by this project escapes it with jinja's autoescape; the exported page is
sanitised as well (`stad_utils.report`).
"""

from __future__ import annotations

import re

_INLINE_SPECIALS = re.compile(r"([\\`*_\[\]|$~])")  # code, emphasis, links, table cells, formulas, strikethrough
# what would start a heading, a list item or a rule at the start of a line (not "+13" or "0.5")
_BLOCK_START = re.compile(r"^(#{1,6}(?=\s|$)|[-+](?=\s)|\d{1,9}(?=[.)]\s)|[-=](?=[-=\s]*$))")


def markdown_text(text: object) -> str:
    """``text`` as one line of markdown that renders exactly as typed.

    HTML's ``<``, ``>`` and ``&`` become entities (no tag, no raw HTML block, no autolink); the
    markdown characters of code, emphasis, links, table cells, strikethrough and ``$`` formulas
    are backslash-escaped; line breaks become spaces, and a leading ``#``, ``-``, ``+``, ``=`` or
    ``1.`` is escaped (no heading, list or rule can start).

    Examples
    --------
    >>> print(markdown_text("[x](javascript:alert(1)) <b>|</b> $5"))
    \\[x\\](javascript:alert(1)) &lt;b&gt;\\|&lt;/b&gt; \\$5
    >>> print(markdown_text("# not a heading"), "/", markdown_text("12. not a list"), "/", markdown_text("+13 or 0.5"))
    \\# not a heading / 12\\. not a list / +13 or 0.5
    """
    plain = " ".join(str(text).split())
    plain = plain.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = _INLINE_SPECIALS.sub(r"\\\1", plain)
    start = _BLOCK_START.match(escaped)
    if not start:
        return escaped
    if start[0][0].isdigit():  # "12. x": escape the delimiter
        return f"{start[0]}\\{escaped[start.end():]}"
    return f"\\{escaped}"


def mathtext_plain(text: object) -> str:
    """``text`` for a matplotlib label: every ``$`` escaped, so that no part is parsed as a formula.

    Examples
    --------
    >>> mathtext_plain("costs $2 and $3")
    'costs \\\\$2 and \\\\$3'
    """
    return str(text).replace("$", r"\$")
