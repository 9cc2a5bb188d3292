"""report.html: safe whatever the data say, offline, and opening on a front page.

A small run is made whose every text that comes from a model, a data file or a user (the run
name, task ids, questions, answers, step texts, skill names, model names, replies, extracted
answers, judge explanations, errors, finish reasons, and the diagnosis block of summary.json)
carries each injection payload below. The real stages 06 and 07 are executed on it by the
runner (papermill), then the page is opened in headless Chromium with the network *not*
blocked but recorded: nothing may run (no dialog, no global set), no click may navigate away,
and no request may leave the page. Needs Debian's chromium and playwright, as tests/test_browser.py.
"""

import json
import re
from pathlib import Path

import pytest
import yaml

from stad_utils.pipeline import run_pipeline
from stad_utils.records import Ladder, Outcome, RecordFile, RunPaths, Step, StepSkill, Task, Verdict
from stad_utils.report import write_html_report
from stad_utils.report.browser import browser_widget

PAYLOADS = [
    "<script>window.__stad_injected = 'script'; alert('script')</script>",
    "<img src=x onerror=\"window.__stad_injected = 'img'; alert('img')\">",
    "</script><script>window.__stad_injected = 'close'; alert('close')</script>",
    "[click me](javascript:window.__stad_injected='link';alert('link'))",
    "costs $\\frac{1}{$ and $5",  # a formula matplotlib's mathtext cannot parse
]
EVIL = " ".join(PAYLOADS)


def evil(text: str) -> str:
    return f"{text} {EVIL}"


SKILLS = [evil("addition"), evil("multiplication"), evil("subtraction")]
MODELS = {evil("qwen-7b"): False, evil("simulated (planted weakness)"): True}
RUN = "inject-<img src=x onerror=alert('run')>"  # a folder name: no slash


def write_evil_run(root: Path) -> RunPaths:
    """Six three-step tasks, answered by a real and a simulated model, every text carrying the payloads."""
    paths = RunPaths(root)
    ladders, skills, verdicts, outcomes = [], [], [], []
    for t in range(6):
        task_id = evil(f"t{t}") if t == 0 else f"t{t}"
        steps = [Step(description=evil(f"step {i} of task {t}"), answer=str(i + t), skill=SKILLS[i]) for i in range(3)]
        task = Task(task_id=task_id, source=evil("gsm8k"), question=evil(f"question {t}"), answer=evil(str(t)))
        ladder = Ladder(task=task, teacher=evil("teacher"), steps=steps,
                        scaffolds=[evil("scaffold 1"), evil("scaffold 2")],
                        isolated=[evil(f"isolated {i}") for i in range(3)])
        ladders.append(ladder)
        skills += [StepSkill(task_id=task_id, step=i + 1, description=step.description, label=step.skill, cluster=i,
                             skill=step.skill) for i, step in enumerate(steps)]
        for m, (model, simulated) in enumerate(MODELS.items()):
            curve = [t % 2 == 0 and m == 0, t % 3 != 0, True]
            isolated = [True, (t + m) % 2 == 0, True]
            questions = ([("original", 0, ladder.task.question, curve[0])]
                         + [("scaffold", j, text, curve[j]) for j, text in enumerate(ladder.scaffolds, start=1)]
                         + [("isolated", i, text, isolated[i - 1]) for i, text in enumerate(ladder.isolated, start=1)])
            for variant, level, prompt, correct in questions:
                error = t == 5 and variant == "isolated" and level == 3
                verdicts.append(Verdict(
                    task_id=task_id, model=model, variant=variant, level=level, prompt=prompt, reference=evil("ref"),
                    response=None if error else evil("The reply"), error=evil("HTTP 500") if error else None,
                    extracted=evil("7"), outcome="error" if error else "correct" if correct else "wrong",
                    correct=None if error else correct, decided_by="error" if error else "deterministic",
                    explanation=evil("number differs"), judge_version=evil("cascade-test"),
                    finish_reason=evil("stop")))
            k = next((j for j, solved in enumerate(curve) if solved), -1)
            outcomes.append(Outcome(task_id=task_id, model=model, source=task.source, n_steps=3, skills=SKILLS,
                                    curve=curve, isolated=[None, *isolated[1:]] if t == 5 else isolated, k=k,
                                    non_monotonic=False, n_errors=int(t == 5), simulated=simulated))
    RecordFile(paths.tasks, Task).append(ladder.task for ladder in ladders)
    RecordFile(paths.ladders, Ladder).append(ladders)
    RecordFile(paths.skills, StepSkill).append(skills)
    RecordFile(paths.verdicts, Verdict).append(verdicts)
    RecordFile(paths.outcomes, Outcome).append(outcomes)
    return paths


def add_diagnosis(paths: RunPaths) -> None:
    """The diagnosis block of summary.json (written by 06 once merged), with the payloads in its texts."""
    summary = json.loads(paths.summary.read_text())
    for model in summary["models"].values():
        model["diagnosis"].update({"weak_skills": [SKILLS[1]], "composition_failure": True, "headline": evil("breaks at"),
                                   "composition_effect": {"value": -0.2, "ci95": [-0.4, 0.0], "n": 6,
                                                          "name": evil("gap")}})
    summary["funnel"] = {"loaded": 6, "consistent": 6, "verified": 6, "evaluated": 6, "dropped": {evil("reason"): 0}}
    paths.summary.write_text(json.dumps(summary))


@pytest.fixture(scope="module")
def evil_run(tmp_path_factory) -> RunPaths:
    results = tmp_path_factory.mktemp("results")
    paths = write_evil_run(results / RUN)
    params = results / "params.yaml"
    params.write_text(yaml.safe_dump({"run": RUN, "stages": {}}))
    run_pipeline(params, stages=["06_analyze", "07_compare"], results_dir=results,
                 overrides={"06_analyze": {"n_resamples": 20}, "07_compare": {"n_permutations": 20, "n_resamples": 20}})
    add_diagnosis(paths)
    write_html_report(paths)
    return paths


def test_report_md_renders_every_payload_as_text(evil_run):
    from stad_utils.report import markdown_text

    written = evil_run.report.read_text()
    assert "<script" not in written and "<img" not in written
    assert not re.search(r"(?<!\\)\]\(javascript", written)  # a link needs an unescaped "](" before its target
    assert markdown_text(SKILLS[1]) in written or markdown_text(evil("qwen-7b")) in written


def test_the_widget_shows_every_payload_as_text(evil_run):
    widget = browser_widget(evil_run.root)
    for _, task in widget.task.options:
        widget.task.value = task
        assert "<script>" not in widget.detail.value and "<img src=x" not in widget.detail.value
        assert "&lt;script&gt;" in widget.detail.value


def test_sanitise_keeps_embedded_images_and_anchors_only():
    from stad_utils.report import sanitise

    html = ('<h2 id="Results">R</h2><a href="#Results">to</a><a href="https://example.org">out</a>'
            '<img src="data:image/png;base64,iVBO"><img src="x.png" onerror="alert(1)"><div style="background:url(y)">'
            '<form action="z"><input></form></div>')
    assert sanitise(html) == ('<h2 id="nb-Results">R</h2><a href="#nb-Results" rel="noopener noreferrer">to</a>'
                              '<a rel="noopener noreferrer">out</a><img src="data:image/png;base64,iVBO"><img>'
                              '<div></div>')


def test_nothing_runs_nothing_navigates_and_no_request_leaves_the_page(evil_run, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    requests, dialogs = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    url = evil_run.html.as_uri()
    page.goto(url, wait_until="load")
    page.wait_for_selector(".stad-browser tr.stad-task-row")
    for row in range(page.locator("tr.stad-task-row").count()):  # open every task: its replies, steps, errors
        page.locator("tr.stad-task-row").nth(row).click()
        page.locator(".stad-detail-row").first.wait_for()
    for select in page.locator("select[data-filter]").all():
        for value in select.locator("option").evaluate_all("options => options.map(o => o.value)"):
            select.select_option(value)
    for link in page.locator("a").all():
        if link.is_visible():
            link.click()
        assert page.url.split("#")[0] == url.split("#")[0], page.url
    page.wait_for_timeout(300)
    outside = [request for request in requests if not request.startswith(("data:", url.split("#")[0]))]
    assert (dialogs, page.evaluate("window.__stad_injected ?? null"), outside) == ([], None, [])
    assert "onerror" in page.locator("body").inner_text()  # the payloads are there, shown as text
    page.close()


def test_report_opens_on_its_front_page(evil_run, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1024, "height": 900})
    page.route(re.compile(r"^https?://"), lambda route: route.abort())
    page.goto(evil_run.html.as_uri())
    assert page.title().startswith(RUN) and page.locator("h1").first.inner_text().startswith(RUN)
    front = page.locator("#front").inner_text()
    assert "onerror" in front and "breaks at" in front and "−20 points (95% CI −40 to +0, n = 6)" in front
    facts = page.locator(".stad-facts").inner_text()
    assert "6 loaded" in facts.replace("\n", " ") and "real model" in facts and "simulated" in facts
    assert page.locator(".stad-model-card").count() == len(MODELS)
    diagnoses = page.locator(".stad-model-card img[alt^='The tests behind the diagnosis']")
    assert diagnoses.count() == len(MODELS)
    for index in range(len(MODELS)):  # each figure as wide as the page's text, so its text stays ≥ 14 px high
        assert diagnoses.nth(index).bounding_box()["width"] >= 960
    contents = page.locator(".stad-contents a").all_inner_texts()
    assert contents[0].startswith("Where each model breaks") and contents[-1].startswith("Failure browser")
    assert any(text.startswith("Stage 6") for text in contents) and any(text.startswith("Stage 7") for text in contents)
    page.locator("tr.stad-task-row").first.click()  # an opened task, its replies side by side, fits too
    page.locator(".stad-detail-row").wait_for()
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than a 1,024 px window"
    detail = page.locator(".stad-detail").bounding_box()
    assert detail["x"] >= 0 and detail["x"] + detail["width"] <= 1024
    page.close()


def test_report_has_no_leftovers(evil_run):
    html = evil_run.html.read_text()
    assert "FailureBrowser(" not in html and "the same view is at the end of" not in html
    assert "widget-view+json" not in html and "unpkg" not in html
    figures = sorted(path.name for path in evil_run.figures.glob("*.png"))
    assert "compare_k_shares.png" not in figures and "compare_success_by_level.png" not in figures


def test_the_front_page_sentence_is_the_diagnosis_headline_else_the_weakness_profile():
    from stad_utils.analysis import ModelSummary, NamedEstimate, summarize
    from stad_utils.report import model_entry

    numbers = ModelSummary.model_validate(summarize([]))
    numbers.weakness_profile, numbers.diagnosis.headline = "As asked, the model solves 50% …", ""
    assert model_entry("m", numbers, None).sentence == "As asked, the model solves 50% …"
    diagnosis = numbers.diagnosis
    diagnosis.headline, diagnosis.weak_skills = "m breaks at multiplication.", ["multiplication"]
    diagnosis.composition_effect = NamedEstimate(value=-0.25, ci95=[-0.5, -0.05], n=20, name="composition effect")
    diagnosis.test, diagnosis.correction = "one-sided binomial", "Holm"
    entry = model_entry("m", numbers, None)
    assert entry.sentence == "m breaks at multiplication."
    assert entry.facts == ["weak skills: multiplication",
                              "composition effect: −25 points (95% CI −50 to −5, n = 20)",
                              "test: one-sided binomial (Holm)"]


def test_a_run_without_evaluated_tasks_gets_a_page_that_says_so(tmp_path):
    import nbformat

    paths = RunPaths(tmp_path / "empty-run")
    paths.notebooks.mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Stage 6 · Analyze")]),
                   paths.notebooks / "06_analyze.ipynb")
    html = write_html_report(paths).read_text()
    assert 'id="stad-browser"' not in html and "<script" not in html
    assert "None: no model has been analysed yet" in html and "Stage 6 · Analyze" in html
