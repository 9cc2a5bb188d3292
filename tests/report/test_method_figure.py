"""The docs' method picture: one real ladder drawn from a run's records, with k and the bottleneck step marked."""


import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from helpers import ROOT

from stad_utils.records import (  # noqa: E402  # noqa: E402
    Ladder,
    Outcome,
    Step,
    Task,
    open_run,  # noqa: E402
)
from stad_utils.report import plot_method_ladder, teaching_ladder  # noqa: E402


def texts(figure) -> list[str]:
    return [t.get_text() for ax in figure.axes for t in ax.texts]


def test_draws_a_ladder_of_the_example_run_with_k_and_its_bottleneck(tmp_path):
    ladder, outcome, verdicts = teaching_ladder(open_run(tmp_path / "example"))
    assert outcome.simulated and outcome.k > 0 and outcome.n_steps >= 3  # a picture with help that worked
    figure = plot_method_ladder(ladder, outcome, verdicts)
    words = "\n".join(texts(figure))
    assert ladder.task.question.split()[0] in words and f"k = {outcome.k}" in words
    assert words.count("bottleneck step") == 2  # in the level that solved it, and among the steps asked alone
    assert f"bottleneck step (step k = {outcome.k})" in words
    solved = [v for v in verdicts if v.variant == "scaffold" and v.level == outcome.k][0]
    assert f"answered {solved.extracted}" in words  # the reply's own answer, from the verdict records
    plt.close(figure)


def test_an_unresolved_task_has_no_bottleneck():
    steps = [Step(description=f"step {i}", answer=str(i), explanation=f"{i} * 1 = {i}", skill=f"skill {i}")
             for i in (1, 2)]
    ladder = Ladder(task=Task(task_id="t", source="test", question="Costs $2 and $3: how much?", answer="2"),
                    teacher="oracle", steps=steps, scaffolds=["scaffold"], isolated=["alone 1", "alone 2"])
    outcome = Outcome(task_id="t", model="m", source="test", n_steps=2, skills=["skill 1", "skill 2"],
                      curve=[False, False], isolated=[True, None], k=-1, non_monotonic=False, n_errors=0)
    words = "\n".join(texts(plot_method_ladder(ladder, outcome)))
    assert "unresolved" in words and "bottleneck step" not in words
    assert "Costs $2 and $3" in words  # data is drawn as typed, never as a formula
    assert "– not asked" in words and "1 × 1 = 1" in words
    plt.close("all")


def test_the_method_page_reads_the_ladder_the_figure_draws(tmp_path):
    ladder, outcome, verdicts = teaching_ladder(open_run(tmp_path / "example"))
    page = (ROOT / "docs" / "method.md").read_text()
    advice = ("docs/method.md reads another ladder than `python scripts/method_figure.py` draws from the saved "
              "example run: update the page's worked example, and the figure")
    assert f"**k = {outcome.k}**" in page, advice
    for verdict in verdicts:
        if verdict.variant in ("original", "scaffold"):
            assert f"answers {verdict.extracted}" in page, advice
    for step in ladder.steps:
        assert f"= {step.answer}" in page.replace("$", ""), advice
