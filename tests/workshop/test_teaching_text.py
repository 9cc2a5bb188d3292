"""What the README, the method page, the glossary and the workshop notebook teach agrees with the code and
with each other: the errors a student would catch, each checked where a test can check it."""

from __future__ import annotations

import re

import jupytext
import yaml
from helpers import ROOT

from stad_utils.pipeline import NOTEBOOKS

README = (ROOT / "README.md").read_text(encoding="utf-8")
METHOD = (ROOT / "docs" / "method.md").read_text(encoding="utf-8")
GLOSSARY = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
WORKSHOP = (NOTEBOOKS / "text" / "09_workshop.py").read_text(encoding="utf-8")


def flat(text: str) -> str:
    """Markdown as it reads: comment marks and line breaks gone."""
    return " ".join(" ".join(re.sub(r"^# ?", "", line) for line in text.splitlines()).split())


def targets(params: str) -> dict[str, dict]:
    stages = yaml.safe_load((ROOT / "params" / params).read_text(encoding="utf-8"))["stages"]
    return {target["name"]: target for target in stages["05_evaluate"]["targets"]}


def test_the_workshop_calls_its_simulated_targets_what_report_html_calls_them():
    simulated = [name for name, target in targets("workshop.yaml").items() if target["kind"] == "simulated"]
    assert simulated == ["simulated: weak skill", "simulated: weak chaining"]
    named = set(re.findall(r'simulated_target\("([^"]+)"', WORKSHOP))
    assert set(simulated) <= named  # exercise 6 adds a target of its own, which report.html does not show
    assert named - set(simulated) == {"simulated: later steps harder"}


def test_exercise_2_names_its_interval_and_says_why_the_report_run_claims_what_it_does_not():
    solution = flat(WORKSHOP[WORKSHOP.index("## Exercise 2"):WORKSHOP.index("## Exercise 3")])
    assert "bootstrap" not in solution  # the composition gap's interval is Newcombe's (see the glossary)
    assert "Newcombe's interval" in solution
    report_penalty = targets("workshop.yaml")["simulated: weak chaining"]["simulation"]["composition_penalty"]
    assert f"penalty of {report_penalty}" in solution and "report.html" in solution


def test_the_leak_sentence_of_the_report_is_explained_where_report_html_shows_it():
    from stad_utils.report.browser import FLAGS

    explained = flat(jupytext.read(NOTEBOOKS / "text" / "07_compare.py").cells[3].source)
    assert "may leak the answer in a variant" in explained and f'"{FLAGS["possible_leakage"]}"' in explained
    assert f'"{FLAGS["possible_leakage"]}"' in flat(GLOSSARY)


def test_the_method_page_describes_the_quickstart_that_params_quickstart_runs():
    quickstart = flat(METHOD[METHOD.index("## The quickstart"):])
    for name, target in targets("quickstart.yaml").items():
        if target["kind"] == "simulated":
            assert f'"{name}"' in quickstart
    assert "two simulated targets" in quickstart and "the simulated target." not in quickstart


def test_only_a_task_that_needed_help_has_a_bottleneck():
    assert "For a task with k ≥ 1, step *k*" in flat(GLOSSARY)
    assert "The **bottleneck step** of a task with k ≥ 1 is step *k*" in flat(METHOD)
    assert "A task solved with k ≥ 1 given steps has a *bottleneck*, step *k*; with k = 0 or −1 it has none" in flat(
        README)


def test_step_names_a_step_of_a_task_and_stage_a_part_of_the_method():
    assert "## The steps of the method" not in METHOD and "## The stages of the method" in METHOD
    assert "Each step is one stage" not in METHOD


def test_the_penalty_and_the_gap_are_related_with_their_signs():
    for text in (flat(METHOD), flat(GLOSSARY)):
        assert "−Π p(skill) · (1 − (1 − c)^(K−1))" in text and "opposite" in text


def test_the_oracle_teacher_writes_scaffold_k_minus_1_and_isolated_step_k_as_one_question():
    from stad_utils.workshop import exercise_ladders

    for ladder in exercise_ladders(40):
        assert ladder.scaffolds[-1] == ladder.isolated[-1]
    assert "Isolated step K asks what scaffold K−1 asks" in flat(GLOSSARY)


def test_the_bottleneck_rate_one_step_before_the_last_is_what_the_glossary_says_under_its_assumption():
    """p/(1 + p) for a simulated target without weak skill or penalty: one draw per step, whatever the level."""
    from stad_utils.analysis import run_chain

    p = 0.7  # far from 1, so that p/(1 + p) = 0.41 and p = 0.7 (fresh tries per level) are told apart
    outcomes = [o for o in run_chain(600, {"step_accuracy": {"default": p}}, min_steps=3, max_steps=3).outcomes]
    at_risk = [o for o in outcomes if o.curve[1] is False]  # step 2 of 3 was next to be given
    rate = sum(o.k == 2 for o in at_risk) / len(at_risk)
    assert len(at_risk) > 200 and abs(rate - p / (1 + p)) < 0.08, rate
    assert "p/(1 + p)" in GLOSSARY and "the same way at every level that asks it" in flat(GLOSSARY)
