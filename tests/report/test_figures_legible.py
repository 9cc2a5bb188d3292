"""Every figure is legible projected 1,024 px wide: text at least 14 px high, nothing outside the figure,
no two texts on top of each other, no two tick labels of an axis alike.

The figures are built from one seeded simulated run of three targets on 200 generated tasks, with
long skill names that differ only at their end and more skills than a figure names (`simulated_run`),
and from the saved example run (30 tasks, two simulated targets and a real model in two settings);
``python tests/report/test_figures_legible.py OUT`` writes each of them as a PNG 1,024 px wide, to look at.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from unittest import mock

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.text import Text  # noqa: E402

SHOWN_PX = 1024  # a projector's width, in pixels
MIN_PX = 14  # the smallest text, in pixels, at that width

TASKS = 200
TARGETS = {  # long names, as a planted simulated target is named on the front page
    "simulated: weak skill (multiplication right alone 30% of the time)":
        {"step_accuracy": {"multiplication": 0.3, "default": 0.95}, "seed": 0},
    "simulated: weak chaining (composition penalty 0.35)":
        {"step_accuracy": {"default": 0.95}, "composition_penalty": 0.35, "seed": 1},
    "simulated: no weakness planted": {"step_accuracy": {"default": 0.95}, "seed": 2},
}
KINDS = ("as on a receipt from the corner shop", "as in a railway timetable")


def long_name(skill: str, task_id: str) -> str:
    """Two skills per generator label, named alike up to their last words (as a teacher names skills)."""
    return f"{skill}, with the quantities found by the earlier steps, {KINDS[int(task_id[-1]) // 2 % 2]}"


def simulated_run():
    """Outcomes of three simulated targets on the same 200 tasks (placebos asked, a second sample for one),
    their skills renamed to 26 long names; and the skill map of 04."""
    from stad_utils.analysis import run_chain

    items, skills = [], []
    for model, simulation in TARGETS.items():
        chain = run_chain(TASKS, simulation, seed=0, name=model, placebo=True)
        items += [o.model_copy(update={"skills": [long_name(s, o.task_id) for s in o.skills]}) for o in chain.outcomes]
        skills = [s.model_copy(update={"skill": long_name(s.skill, s.task_id)}) for s in chain.skills]
    again = run_chain(TASKS, {**TARGETS["simulated: no weakness planted"], "seed": 3}, seed=0,
                      name="simulated: no weakness planted", placebo=True)
    items += [o.model_copy(update={"skills": [long_name(s, o.task_id) for s in o.skills], "sample": 1})
              for o in again.outcomes]
    return items, skills


def run_figures(items, prefix: str = "") -> dict:
    """06's and 07's figures of ``items``, and each model's front-page figures, by name."""
    from stad_utils.analysis import analyze_run, compare_run, comparison_tables
    from stad_utils.report import analysis_figures, comparison_figures, plot_context, plot_diagnosis

    run = analyze_run(items, n_resamples=100)
    comparison = compare_run(items, [], n_permutations=100, n_resamples=100)
    figures = {**analysis_figures(run), **comparison_figures(comparison, comparison_tables(items))}
    for index, (model, numbers) in enumerate(run.summary.models.items()):
        figures[f"diagnosis_{index}"] = plot_diagnosis(numbers, model)
        figures[f"context_{index}"] = plot_context(numbers, model)
    return {f"{prefix}{name}": figure for name, figure in figures.items()}


def all_figures(example_dir: Path) -> dict:
    """Every figure of the front page, 04, 06, 07, 08, the workshop and the method picture, by name."""
    from stad_utils.analysis import analyze_run, power_curve, power_table
    from stad_utils.method import skill_summary
    from stad_utils.records import Outcome, RunPaths, open_run, read_records
    from stad_utils.report import (
        plot_method_ladder,
        plot_power,
        plot_same_score_different_breaks,
        plot_skill_shares,
        teaching_ladder,
    )

    items, skills = simulated_run()
    figures = run_figures(items)
    summary = analyze_run(items, n_resamples=0).summary
    figures["same_score_different_breaks"] = plot_same_score_different_breaks(summary, list(TARGETS)[:2])
    example = open_run(example_dir / "example")
    figures.update(run_figures(read_records(RunPaths(example).outcomes, Outcome.model_validate), "example_"))
    planted = {"step_accuracy": {"subtraction": 0.4, "default": 0.95}, "composition_penalty": 0.3}
    figures["power"] = plot_power(power_table(power_curve(planted, (20, 40), 2), ["subtraction"]))
    figures["skill_shares"] = plot_skill_shares(skill_summary(skills))
    figures["method"] = plot_method_ladder(*teaching_ladder(example))
    return figures


RUN = ["k_distribution", "success_by_level", "bottlenecks", "skills", "compare_differences", "compare_bottlenecks",
       "compare_isolated_vs_whole", "compare_pair_gaps"]
NAMES = [*RUN, "help_from_content", "k_stability", "diagnosis_0", "diagnosis_1", "diagnosis_2", "context_0",
         "context_1", "context_2", "same_score_different_breaks", "power", "skill_shares", "method",
         *(f"example_{name}" for name in RUN), *(f"example_{kind}_{i}" for kind in ("diagnosis", "context")
                                                  for i in range(4))]


# ------------------------------------------------------------------------------------------ what is drawn


def drawn_texts(fig) -> list[Text]:
    """Every text artist the renderer draws (visible, not empty, not culled), once each."""
    from matplotlib.backends.backend_agg import RendererAgg

    lines: list[str] = []
    drawn: dict[int, Text] = {}
    draw_text, draw = RendererAgg.draw_text, Text.draw

    def spy_text(renderer, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        lines.append(s)
        return draw_text(renderer, gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)

    def spy_draw(self, renderer):
        before = len(lines)
        result = draw(self, renderer)
        if any(line.strip() for line in lines[before:]):
            drawn[id(self)] = self
        return result

    with mock.patch.object(RendererAgg, "draw_text", spy_text), mock.patch.object(Text, "draw", spy_draw):
        fig.canvas.draw()
    return list(drawn.values())


def pixels(fig, text: Text) -> float:
    """The height of ``text``'s font in pixels when ``fig`` is shown `SHOWN_PX` wide."""
    return text.get_fontsize() * SHOWN_PX / (fig.get_figwidth() * 72)


def too_small(fig) -> list[tuple[str, float]]:
    """Drawn texts under `MIN_PX` at `SHOWN_PX` wide, with their size in pixels."""
    return [(text.get_text()[:40], round(pixels(fig, text), 1)) for text in drawn_texts(fig)
            if pixels(fig, text) < MIN_PX]


def outside(fig) -> list[str]:
    """Drawn texts that reach beyond the figure's edges."""
    texts = drawn_texts(fig)
    renderer, edge = fig.canvas.get_renderer(), fig.bbox.padded(1)
    return [text.get_text()[:40] for text in texts if not edge.contains(*text.get_window_extent(renderer).min)
            or not edge.contains(*text.get_window_extent(renderer).max)]


def overlapping(texts: list[Text], fig, slack: float = 1.0) -> list[tuple[str, str]]:
    """Pairs of ``texts`` whose drawn boxes (shrunk by ``slack`` pixels) intersect."""
    renderer = fig.canvas.get_renderer()
    boxes = [(text.get_text()[:40], text.get_window_extent(renderer).padded(-slack)) for text in texts]
    return [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2) if box_a.overlaps(box_b)]


def alike_tick_labels(fig) -> list[str]:
    """Tick labels drawn twice on one axis: names cut where they differ."""
    drawn = {id(text) for text in drawn_texts(fig)}
    alike = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = [label.get_text() for label in axis.get_ticklabels() if id(label) in drawn and label.get_text()]
            alike += sorted({label for label in labels if labels.count(label) > 1})
    return alike


def titles(fig) -> list[Text]:
    """The drawn suptitle and axes titles."""
    candidates = [fig._suptitle] + [title for ax in fig.axes for title in (ax.title, ax._left_title, ax._right_title)]
    drawn = {id(text) for text in drawn_texts(fig)}
    return [text for text in candidates if text is not None and id(text) in drawn]


# ------------------------------------------------------------------------------------------ the tests


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    built = all_figures(tmp_path_factory.mktemp("runs"))
    yield built
    plt.close("all")


def test_every_figure_is_built(figures):
    assert sorted(figures) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_text_is_at_least_14_px_at_1024_px_wide(figures, name):
    assert not too_small(figures[name]), (name, figures[name].get_figwidth(), too_small(figures[name]))


@pytest.mark.parametrize("name", NAMES)
def test_no_text_outside_the_figure(figures, name):
    assert not outside(figures[name]), (name, outside(figures[name]))


@pytest.mark.parametrize("name", NAMES)
def test_titles_do_not_overlap(figures, name):
    fig = figures[name]
    assert not overlapping(titles(fig), fig), (name, overlapping(titles(fig), fig))


@pytest.mark.parametrize("name", NAMES)
def test_no_two_texts_overlap(figures, name):
    fig = figures[name]
    assert not overlapping(drawn_texts(fig), fig), (name, overlapping(drawn_texts(fig), fig))


@pytest.mark.parametrize("name", NAMES)
def test_names_are_not_cut_where_they_differ(figures, name):
    assert not alike_tick_labels(figures[name]), (name, alike_tick_labels(figures[name]))


def test_the_bottleneck_figures_never_say_a_skill_is_missing(figures):
    for name in ("bottlenecks", "skills", "compare_bottlenecks"):
        words = " ".join(text.get_text() for text in drawn_texts(figures[name])).replace("\n", " ")
        assert "where help started to work" in words and "not which skill is missing" in words, name
        assert "turned failure into success" not in words, name


def test_a_bottleneck_heatmap_of_one_skill_is_a_bar_chart():
    from stad_utils.analysis import comparison_tables
    from stad_utils.records import Outcome
    from stad_utils.report.figures import plot_bottleneck_heatmap

    items = [Outcome(task_id=f"t{i}", model=model, source="s", n_steps=2, skills=["multiplication", "addition"],
                     curve=[i % 3 == 0, True], isolated=[True, True], k=0 if i % 3 == 0 else 1, non_monotonic=False,
                     n_errors=0) for i in range(12) for model in ("model-a", "a model with a much longer name")]
    fig = plot_bottleneck_heatmap(comparison_tables(items))
    assert len(fig.axes) == 1 and len(fig.axes[0].patches) == 2  # no colour bar: a bar per model
    assert "bottleneck rate of multiplication" in fig._suptitle.get_text().replace("\n", " ")
    assert not too_small(fig) and not outside(fig) and not overlapping(drawn_texts(fig), fig)
    plt.close(fig)


def write_pngs(out: Path) -> None:
    """Each figure as ``OUT/<name>.png``, 1,024 px wide, as a projector shows it."""
    import tempfile

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        for name, fig in all_figures(Path(folder)).items():
            fig.savefig(out / f"{name}.png", dpi=SHOWN_PX / fig.get_figwidth())
            problems = {"small": too_small(fig), "outside": outside(fig),
                        "overlapping": overlapping(drawn_texts(fig), fig), "alike": alike_tick_labels(fig)}
            print(name, fig.get_size_inches().round(2).tolist(), {k: v for k, v in problems.items() if v})
            plt.close(fig)


if __name__ == "__main__":
    write_pngs(Path(sys.argv[1]))
