"""What a run cost: calls, cache hits, tokens, seconds and (with prices) dollars per stage, role and model."""

from __future__ import annotations

import pandas as pd

REASONING_COUNTS = ("reasoning_tokens", "traces")
"""The counts of `stad_utils.models._replies.UsageStats` that only reasoning models make."""


def usage_table(usage: dict, prices: dict | None = None) -> pd.DataFrame:
    """Calls, tokens, seconds and (with a price table) cost per stage, role and model.

    ``usage`` is ``usage.json`` (``{stage: {role: {model: stats}}}``); ``prices`` maps a model to
    ``{"prompt": USD per million prompt tokens, "completion": USD per million completion tokens}``.
    ``reasoning_tokens`` are the part of ``completion_tokens`` a reasoning model spent on its trace, as
    servers report them (and bill them: as completion tokens); ``traces`` counts the replies that came
    with a trace; both columns are there only when some model reasoned aloud (files written before
    they were counted read 0).
    """
    counts = ["calls", "cache_hits", "errors", "prompt_tokens", "completion_tokens", *REASONING_COUNTS]
    rows = [{"stage": stage, "role": role, "model": model, **dict.fromkeys(counts, 0), **stats}
            for stage, roles in usage.items() for role, models in roles.items() for model, stats in models.items()]
    table = pd.DataFrame(rows, columns=["stage", "role", "model", *counts, "seconds"])
    if not table[list(REASONING_COUNTS)].to_numpy().any():  # a run without reasoning models reads as before
        table = table.drop(columns=list(REASONING_COUNTS))
    if prices:
        rate = table["model"].map(lambda m: prices.get(m, {}))
        table["cost_usd"] = (table["prompt_tokens"] * rate.map(lambda r: r.get("prompt", float("nan")))
                             + table["completion_tokens"] * rate.map(lambda r: r.get("completion", float("nan")))) / 1e6
    return table


def usage_report(table: pd.DataFrame):
    """`usage_table` for reading: counts with thousands separators, seconds to a tenth, cost to the cent, no index."""
    formats = {**dict.fromkeys(["calls", "cache_hits", "errors", "prompt_tokens", "completion_tokens",
                                *REASONING_COUNTS], "{:,.0f}"),
               "seconds": "{:,.1f}", "cost_usd": "${:,.2f}"}
    return table.style.hide(axis="index").format({column: form for column, form in formats.items() if column in table},
                                                 na_rep="–")
