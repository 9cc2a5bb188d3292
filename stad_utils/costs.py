"""What a run cost: calls, cache hits, tokens, seconds and (with prices) dollars per stage, role and model."""

from __future__ import annotations

import pandas as pd


def usage_table(usage: dict, prices: dict | None = None) -> pd.DataFrame:
    """Calls, tokens, seconds and (with a price table) cost per stage, role and model.

    ``usage`` is ``usage.json`` (``{stage: {role: {model: stats}}}``); ``prices`` maps a model to
    ``{"prompt": USD per million prompt tokens, "completion": USD per million completion tokens}``.
    """
    rows = [{"stage": stage, "role": role, "model": model, **stats}
            for stage, roles in usage.items() for role, models in roles.items() for model, stats in models.items()]
    table = pd.DataFrame(rows, columns=["stage", "role", "model", "calls", "cache_hits", "errors", "prompt_tokens",
                                        "completion_tokens", "seconds"])
    if prices:
        rate = table["model"].map(lambda m: prices.get(m, {}))
        table["cost_usd"] = (table["prompt_tokens"] * rate.map(lambda r: r.get("prompt", float("nan")))
                             + table["completion_tokens"] * rate.map(lambda r: r.get("completion", float("nan")))) / 1e6
    return table


def usage_report(table: pd.DataFrame):
    """`usage_table` for reading: counts with thousands separators, seconds to a tenth, cost to the cent, no index."""
    formats = {**dict.fromkeys(["calls", "cache_hits", "errors", "prompt_tokens", "completion_tokens"], "{:,.0f}"),
               "seconds": "{:,.1f}", "cost_usd": "${:,.2f}"}
    return table.style.hide(axis="index").format({column: form for column, form in formats.items() if column in table},
                                                 na_rep="–")
