"""The failure browser in JupyterLab: an ipywidgets widget with the page's filters and drill-down.

The one module of the browser that imports ipywidgets; `stad_utils.report.browser` imports it only when a
widget is asked for, so that writing report.html needs no ipywidgets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import ipywidgets as widgets

from ._data import FLAGS, BrowserRecords, matching_tasks
from ._html import detail_html, detail_pane_html, task_detail_html


class FailureBrowser(widgets.VBox):
    """The browser in JupyterLab: filters, a task selector with previous/next, and the drill-down.

    Build it with `browser_widget`. The filters are the page's (see `matching_tasks`); the
    drill-down is the same HTML (`task_detail_html`).
    """

    def __init__(self, data: dict, detail_html: Callable[[str], str] | None = None):
        self.data = data
        self._detail_html = detail_html  # a task's drill-down, for tasks whose replies ``data`` does not hold
        self._by_id = {task["id"]: task for task in data["tasks"]}
        options = data["options"]
        self.filters = {
            "model": _dropdown("model", [("any model", ""), *((data["short"][m], m) for m in data["models"])]),
            "k": _dropdown("k", [("any", ""), *((k, k) for k in options["k"])]),
            "skill": _dropdown("skill", [("any", ""), *((data["short"][s], s) for s in options["skill"])]),
            "stage": _dropdown("judge stage", [("any", ""), *((s, s) for s in options["stage"])]),
            "flag": _dropdown("validity flag", [("any", ""), *((FLAGS[f], f) for f in options["flag"])]),
            "disagree": widgets.Checkbox(description="models disagree", indent=False),
            "text": widgets.Text(description="search", placeholder="task id or words of the question"),
        }
        self.task = widgets.Dropdown(description="task", layout=widgets.Layout(width="60%"))
        self.previous_button = widgets.Button(description="◀ previous")
        self.next_button = widgets.Button(description="next ▶")
        self.count = widgets.Label()
        self.detail = widgets.HTML()
        for control in self.filters.values():
            control.observe(self._refilter, names="value")
        self.task.observe(self._show_task, names="value")
        self.previous_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(+1))
        super().__init__([
            widgets.HBox(list(self.filters.values())[:4], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox(list(self.filters.values())[4:], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.previous_button, self.task, self.next_button, self.count]),
            self.detail,
        ])
        self._refilter()

    def __repr__(self) -> str:  # the default lists every option: thousands of tasks in a notebook's output
        return (f"FailureBrowser({len(self.data['tasks'])} tasks, models {', '.join(self.data['models'])}; "
                "interactive in JupyterLab)")

    def step(self, offset: int) -> None:
        """Show the task ``offset`` places after the current one among the filtered tasks."""
        if self.task.options:
            position = [value for _, value in self.task.options].index(self.task.value)
            self.task.value = self.task.options[(position + offset) % len(self.task.options)][1]

    def _refilter(self, _change: dict | None = None) -> None:
        chosen = {name: control.value for name, control in self.filters.items()}
        tasks = matching_tasks(self.data, **chosen)
        shown, kept = self.task.value, [task["id"] for task in tasks]
        self.task.options = [(f"{task['id']} · {task['question'][:70]}", task["id"]) for task in tasks]
        self.task.value = shown if shown in kept else next(iter(kept), None)  # the shown task stays if it passes
        self.count.value = f"{len(tasks)} of {len(self.data['tasks'])} tasks"
        self._show_task()

    def _show_task(self, _change: dict | None = None) -> None:
        task = self._by_id.get(self.task.value)
        if task is None:
            self.detail.value = ""
            return
        detail = (task_detail_html(task, self.data["models"], self.data["short"])
                  if task["detailed"] or self._detail_html is None else self._detail_html(task["id"]))
        self.detail.value = detail_pane_html(detail)


def _dropdown(description: str, options: list[tuple[str, str]]) -> widgets.Dropdown:
    return widgets.Dropdown(description=description, options=options,
                            style={"description_width": "initial"})


def browser_widget(run_dir: Path | str, other_runs: Iterable[Path | str] = ()) -> FailureBrowser:
    """The failure browser of a run folder (and further runs on the same tasks) as a JupyterLab widget.

    A task's replies are read when it is shown, so a run of any size opens at once.
    """
    records = BrowserRecords.of([run_dir, *other_runs])
    return FailureBrowser(records.data(max_details=0), lambda task_id: detail_html(records, task_id))
