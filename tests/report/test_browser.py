"""The failure browser: its data, filters, disagreements and widget, and the page in headless Chromium.

The run folder is hand-made: 6 tasks answered by 2 models, with an error, an undecided
verdict, a truncated reply, a non-monotonic curve, a re-asked error and three disagreements.
The Chromium tests need Debian's ``chromium`` (``apt-get install chromium``) and the pip
package ``playwright`` (the dev extra); they fail, never skip, when either is missing.
"""

import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from browser_run import GRANITE, QWEN, TASKS, make_ladder, make_verdicts, write_run

from stad_utils.records import RecordFile, RunPaths, Verdict
from stad_utils.report import write_html_report
from stad_utils.report.browser import (
    FLAGS,
    browser_data,
    browser_html,
    browser_widget,
    disagreements,
    matching_tasks,
    write_browser,
)


@pytest.fixture
def run(tmp_path) -> RunPaths:
    return write_run(tmp_path / "demo-run")


def ids(tasks: list[dict]) -> list[str]:
    return [task["id"] for task in tasks]


# ---------------------------------------------------------------- data, filters, disagreements


def test_browser_data_holds_each_task_with_its_variants_and_replies(run):
    data = browser_data(run.root)
    assert data["models"] == [GRANITE, QWEN] and ids(data["tasks"]) == list(TASKS)
    t3 = data["tasks"][2]
    assert [v["label"] for v in t3["variants"]] == ["original", "scaffold 1 (1 step given)",
                                                    "scaffold 2 (2 steps given)", "isolated step 1",
                                                    "isolated step 2", "isolated step 3"]
    assert t3["steps"][0] == {"number": 1, "description": "Convert 135 minutes to hours and minutes",
                              "answer": "2:15", "skill": "unit conversion",
                              "bottleneck_of": []}  # k −1 and undetermined: no bottleneck
    assert [step["bottleneck_of"] for step in data["tasks"][0]["steps"]] == [[], [QWEN], []]  # qwen's k is 2
    truncated = t3["variants"][1]["replies"][GRANITE][0]
    assert (truncated["outcome"], truncated["truncated"], truncated["finish_reason"]) == ("no_answer", True, "length")
    assert t3["variants"][0]["replies"][QWEN][0]["error"] == "HTTP 500: internal server error"
    assert t3["k"] == {GRANITE: ["-1"], QWEN: ["undetermined"]}
    assert t3["flags"] == {GRANITE: ["truncated"], QWEN: ["error"]}
    placebo = data["tasks"][1]["variants"][-1]
    assert placebo["label"] == "placebo 1" and placebo["replies"] == {}  # shown, though not asked
    assert data["options"] == {"k": ["0", "1", "2", "-1", "undetermined"],
                               "skill": ["addition", "multiplication", "subtraction", "time arithmetic",
                                         "unit conversion"],
                               "stage": ["deterministic", "math_verify", "llm_judge", "none", "error"],
                               "flag": [flag for flag in FLAGS if flag != "possible_leakage"]}  # none leaks here


def test_a_re_asked_error_is_superseded_by_its_answer(run):
    t2 = browser_data(run.root)["tasks"][1]
    [original] = t2["variants"][0]["replies"][QWEN]
    assert original["outcome"] == "correct" and original["error"] is None
    assert t2["flags"][QWEN] == [] and t2["stages"][QWEN] == ["deterministic"]


@pytest.mark.parametrize("filters, expected", [
    ({}, ["t1", "t2", "t3", "t4", "t5", "t6"]),
    ({"k": "0"}, ["t1", "t2", "t6"]),
    ({"k": "0", "model": QWEN}, ["t2", "t6"]),
    ({"k": "undetermined"}, ["t3", "t4"]),
    ({"skill": "unit conversion"}, ["t3", "t6"]),
    ({"disagree": True}, ["t1", "t3", "t6"]),
    ({"stage": "error"}, ["t3"]),
    ({"stage": "none"}, ["t3", "t4"]),
    ({"stage": "math_verify"}, ["t5"]),
    ({"flag": "truncated"}, ["t3"]),
    ({"flag": "truncated", "model": QWEN}, []),
    ({"flag": "non_monotonic"}, ["t5"]),
    ({"flag": "step_failed_alone"}, ["t6"]),
    ({"flag": "undecided"}, ["t4"]),
    ({"text": "DUCKS"}, ["t1"]),
])
def test_filters(run, filters, expected):
    assert ids(matching_tasks(browser_data(run.root), **filters)) == expected


def test_disagreements_list_the_tasks_with_different_k_or_verdicts(run):
    table = disagreements(run.root)
    assert table["task_id"].tolist() == ["t1", "t3", "t6"]
    assert table[f"k {QWEN}"].tolist() == [2, pd.NA, 0]
    assert table[f"k {GRANITE}"].tolist() == [0, -1, 0]
    assert table["verdicts that differ"].tolist() == [
        f"original: {GRANITE} correct, {QWEN} wrong; scaffold 1 (1 step given): {GRANITE} correct, {QWEN} wrong",
        f"isolated step 2: {GRANITE} wrong, {QWEN} correct",
        f"isolated step 1: {GRANITE} correct, {QWEN} wrong",
    ]


def test_other_runs_add_their_models(run, tmp_path):
    other = RunPaths(tmp_path / "other")
    RecordFile(other.verdicts, Verdict).append(
        make_verdicts(make_ladder("t2"), "llama-8b", "WW|CW"))  # no ladder of its own: t2's comes from the first run
    data = browser_data([run.root, other.root])
    assert data["models"] == [GRANITE, "llama-8b", QWEN]
    assert ids(matching_tasks(data, model="llama-8b")) == ["t2"]
    assert "t2" in ids(matching_tasks(data, disagree=True))


# ---------------------------------------------------------------- the widget


def test_widget_filters_and_steps_through_tasks(run):
    widget = browser_widget(run.root)
    assert widget.count.value == "6 of 6 tasks" and widget.task.value == "t1"
    widget.filters["disagree"].value = True
    assert [value for _, value in widget.task.options] == ["t1", "t3", "t6"]
    widget.next_button.click()
    assert widget.task.value == "t3" and "HTTP 500: internal server error" in widget.detail.value
    widget.previous_button.click()
    widget.previous_button.click()
    assert widget.task.value == "t6"
    widget.filters["model"].value = QWEN
    widget.filters["flag"].value = "step_failed_alone"
    assert widget.count.value == "1 of 6 tasks" and widget.task.value == "t6"
    assert "isolated step 1" in widget.detail.value and "<style>" in widget.detail.value
    assert repr(widget).startswith("FailureBrowser(6 tasks, models granite-8b, qwen-7b")  # not 6 × every option


# ---------------------------------------------------------------- the page in headless Chromium

@pytest.fixture
def page(chromium):
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.route("http*://**", lambda route: route.abort())  # the page must need nothing from outside
    yield page
    page.close()


def open_browser(page, path: Path) -> None:
    page.goto(path.as_uri())
    page.wait_for_selector(".stad-browser tr.stad-task-row")


def shown_task_ids(page) -> list[str]:
    return page.locator(".stad-browser tr.stad-task-row td:first-child").all_inner_texts()


def test_page_is_self_contained(run):
    html = browser_html(browser_data(run.root))
    assert "src=" not in html and "href=" not in html and "@import" not in html


def test_page_filters_and_drill_down_in_chromium(run, page, tmp_path):
    open_browser(page, write_browser(run.root, tmp_path / "browser.html"))
    count = page.locator(".stad-count")
    assert count.inner_text() == "6 of 6 tasks" and len(shown_task_ids(page)) == 6

    page.select_option("select[data-filter=k]", "0")
    assert shown_task_ids(page) == ["t1", "t2", "t6"]
    page.select_option("select[data-filter=model]", QWEN)
    assert shown_task_ids(page) == ["t2", "t6"] and count.inner_text() == "2 of 6 tasks"
    page.select_option("select[data-filter=model]", "")
    page.select_option("select[data-filter=k]", "")

    page.check("input[data-filter=disagree]")
    assert shown_task_ids(page) == ["t1", "t3", "t6"]
    page.uncheck("input[data-filter=disagree]")
    page.select_option("select[data-filter=stage]", "error")
    assert shown_task_ids(page) == ["t3"]
    page.select_option("select[data-filter=stage]", "")
    page.select_option("select[data-filter=flag]", "truncated")
    assert shown_task_ids(page) == ["t3"]
    page.select_option("select[data-filter=flag]", "")
    page.select_option("select[data-filter=skill]", "time arithmetic")
    assert shown_task_ids(page) == ["t3", "t4"]
    page.select_option("select[data-filter=skill]", "")
    page.fill("input[data-filter=text]", "ducks")
    assert shown_task_ids(page) == ["t1"]

    page.click("tr.stad-task-row")
    detail = page.locator(".stad-detail-row")
    detail.wait_for()
    assert detail.count() == 1
    granite_original = detail.locator(".stad-variant").first.locator(".stad-reply").first
    assert granite_original.locator("header").inner_text().split() == [GRANITE, "correct", "by", "deterministic"]
    assert granite_original.locator(".stad-response").inner_text() == (
        f"[{GRANITE}] Working it out step by step, the result is 18.\nAnswer: 18")
    assert "Multiply the eggs sold by the price" in detail.locator(".stad-steps").inner_text()
    page.screenshot(path=str(tmp_path / "browser.png"), full_page=True)
    page.click("tr.stad-task-row")
    assert page.locator(".stad-detail-row").count() == 0


def test_report_html_contains_the_browser(run, page):
    run.notebooks.mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Stage 6 · Analyze")])
    nbformat.write(notebook, run.notebooks / "06_analyze.ipynb")
    report = write_html_report(run)
    assert report == run.html
    open_browser(page, report)
    assert page.title().startswith("demo-run") and page.locator("h1").first.inner_text().startswith("demo-run")
    assert "Stage 6 · Analyze" in page.locator(".stad-contents").inner_text()
    assert page.locator(".stad-count").inner_text() == "6 of 6 tasks"
    page.select_option("select[data-filter=flag]", "non_monotonic")
    assert shown_task_ids(page) == ["t5"]


def test_writing_report_html_does_not_import_ipywidgets(run):
    """Only a notebook that draws the widget needs ipywidgets: report.html is written in an interpreter without it.

    seaborn (the figures) imports ipywidgets when it can, for palette widgets of its own, so the
    subprocess makes it unimportable, as when it is not installed, rather than looking for it in
    ``sys.modules``; ``sys.modules`` then shows that the browser's widget module was never loaded.
    """
    run.notebooks.mkdir()
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Stage 6")]),
                   run.notebooks / "06_analyze.ipynb")
    script = ("import sys\n"
              "sys.modules['ipywidgets'] = None\n"  # `import ipywidgets` now raises ImportError
              "from stad_utils.report import write_html_report\n"
              "from stad_utils.records import RunPaths\n"
              f"report = write_html_report(RunPaths({str(run.root)!r}))\n"
              "assert 'stad-browser-tasks' in report.read_text()\n"
              "print(' '.join(sorted(name for name in sys.modules if name.startswith('stad_utils.report.browser'))))\n")
    written = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert written.stdout.split() == ["stad_utils.report.browser", "stad_utils.report.browser._data", "stad_utils.report.browser._html"]


def test_a_task_whose_scaffold_states_the_answer_raises_the_leakage_flag_for_every_model(tmp_path):
    from stad_utils.records import Ladder, Outcome, Step, Task
    from stad_utils.report.browser import browser_data, matching_tasks

    def ladder(task_id, scaffold):
        task = Task(task_id=task_id, source="test", question="Ann has 3 bags of 4 apples. How many apples?",
                    answer="12", answer_format="number")
        steps = [Step(description="count bags", answer="3"), Step(description="multiply", answer="12")]
        return Ladder(task=task, teacher="test", steps=steps, scaffolds=[scaffold], isolated=["A?", "B?"])

    run = tmp_path / "run"
    run.mkdir()
    ladders = [ladder("leaks", "Ann has 12 apples. How many apples?"), ladder("clean", "Ann has 3 bags. How many?")]
    (run / "ladders.jsonl").write_text("".join(item.model_dump_json() + "\n" for item in ladders))
    (run / "outcomes.jsonl").write_text("".join(
        Outcome(task_id=item.task_id, model=model, source="test", n_steps=2, skills=["a", "b"], curve=[False, True],
                isolated=[True, True], k=1, non_monotonic=False, n_errors=0).model_dump_json() + "\n"
        for item in ladders for model in ("m1", "m2")))
    data = browser_data([run])
    assert [t["id"] for t in matching_tasks(data, flag="possible_leakage")] == ["leaks"]
    assert [t["id"] for t in matching_tasks(data, flag="possible_leakage", model="m2")] == ["leaks"]
