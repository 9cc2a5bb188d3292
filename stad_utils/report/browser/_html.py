"""The failure browser as HTML: a task's drill-down, the section report.html embeds, a page of its own.

The page is self-contained: no server and no external file. Its data travels as gzip-compressed
JSON in base64 (the table's first, then the drill-downs), and a task's drill-down enters the
document only when it is opened, so a page of a thousand tasks and several models stays usable.
A viewer's page (`stad_utils.report.view`) carries the table only and asks the server for drill-downs.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Sequence
from pathlib import Path

import jinja2
from markupsafe import Markup

from ...records import collector_paused
from ...records.columnar import RunDirs
from ._data import FLAGS, BrowserRecords, browser_data

_TEMPLATES = jinja2.Environment(loader=jinja2.PackageLoader("stad_utils", "templates"), autoescape=True,
                                undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)

REPORT_DETAILS = 1000
"""How many tasks' drill-downs report.html carries at most (about 20 KB each for 6 models)."""


def task_detail_html(task: dict, models: Sequence[str], short: dict[str, str] | None = None) -> Markup:
    """The drill-down of one task of `browser_data` as an HTML fragment (styled by ``browser.css``).

    ``short``: display names of models (`browser_data`'s ``short``); the full name shows on hover.
    """
    return Markup(_TEMPLATES.get_template("task_detail.html.jinja").render(
        task=task, models=[model for model in models if model in task["models"]], flag_labels=FLAGS,
        short=short or {}))


def detail_html(records: BrowserRecords, task_id: str) -> Markup:
    """One task's drill-down with every reply, read now (`BrowserRecords.task`)."""
    return task_detail_html(records.task(task_id), records.models, records.short)


def detail_pane_html(detail: str) -> str:
    """A drill-down with the browser's style, for a pane outside the page (the widget's)."""
    return _TEMPLATES.get_template("detail_pane.html.jinja").render(detail=detail)


def _encode(value: object) -> str:
    """JSON, gzip-compressed, in base64: the form in which the page carries its data.

    Level 6, as ``gzip`` itself: level 9 takes much longer for a page hardly smaller.
    """
    compressed = gzip.compress(json.dumps(value, ensure_ascii=False).encode("utf-8"), compresslevel=6, mtime=0)
    return base64.b64encode(compressed).decode("ascii")


@collector_paused()
def _page_blobs(data: dict, viewer: bool = False) -> dict[str, str]:
    """The page's data: ``tasks``, what the table shows and filters on, and ``details``, the drill-downs
    of the tasks that carry their replies (``null`` for the others; none when a viewer serves them).

    They are apart so that the table appears before the larger drill-downs are inflated.
    """
    facets = ("id", "source", "question", "n_steps", "skills", "k", "stages", "flags", "disagree")
    table = {"models": data["models"], "flag_labels": FLAGS, "short": data["short"],
             "tasks": [{name: task[name] for name in facets} for task in data["tasks"]]}
    if viewer:
        return {"tasks": _encode(table)}
    return {"tasks": _encode(table), "details": _encode([task_detail_html(task, data["models"], data["short"])
                                                          if task["detailed"] else None for task in data["tasks"]])}


def _render(template: str, data: dict, viewer: bool = False, **context) -> str:
    return _TEMPLATES.get_template(template).render(data=data, flag_labels=FLAGS, blobs=_page_blobs(data, viewer),
                                                    viewer=viewer, **context)


def browser_section(data: dict) -> str:
    """The browser as one ``<section>`` (its style, filters, table, data and script) for any HTML page."""
    return _render("browser_section.html.jinja", data)


def browser_html(data: dict, title: str = "STaD failure browser", viewer: bool = False) -> str:
    """The browser as a complete, self-contained HTML page; with ``viewer``, a page whose drill-downs
    are asked of the server that serves it (``GET task/<id>``, `stad_utils.report.view`).
    """
    return _render("browser.html.jinja", data, viewer=viewer, title=title)


def write_browser(run_dirs: RunDirs, path: Path | str) -> Path:
    """Write `browser_html` of the run folders to ``path`` and return it."""
    path = Path(path)
    path.write_text(browser_html(browser_data(run_dirs), title=f"STaD failure browser · {path.parent.name}"),
                    encoding="utf-8")
    return path
