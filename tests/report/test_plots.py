"""Figures: readable at any run size, and a message instead of a crash when nothing was answered."""

import itertools
import random

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from stad_utils.analysis import analyze_run, compare_run, comparison_tables  # noqa: E402
from stad_utils.method import is_non_monotonic, minimal_scaffolding_level  # noqa: E402
from stad_utils.records import Outcome  # noqa: E402
from stad_utils.report import MAX_SHOWN, analysis_figures, comparison_figures  # noqa: E402

DPI = 110  # as the notebooks save them


def outcome(model, task_id, skills, curve, isolated, placebo=(), policy="full"):
    k = minimal_scaffolding_level(curve)
    return Outcome(task_id=task_id, model=model, source="test", n_steps=len(curve), skills=skills, curve=curve,
                   isolated=isolated, placebo=list(placebo), k=k, undetermined_by="error" if k is None else None,
                   non_monotonic=is_non_monotonic(curve), n_errors=curve.count(None), policy=policy)


def many_skills_run(n_tasks=300, n_skills=80, seed=0, policy="full"):
    """Two models on tasks whose steps draw from many skills, a few of them frequent."""
    rng = random.Random(seed)
    names = [f"skill number {i} with a rather long descriptive name" for i in range(n_skills)]
    weights = [1 / (i + 1) for i in range(n_skills)]
    items = []
    for t in range(n_tasks):
        n_steps = rng.randint(2, 6)
        skills = rng.choices(names, weights, k=n_steps)
        for model in ("model-a", "model-b"):
            k = rng.choice([0, 0, -1] + list(range(1, n_steps)))
            curve = [level >= k if k >= 0 else False for level in range(n_steps)]
            if policy == "on_failure" and curve[0]:
                curve, isolated, placebo = [True] + [None] * (n_steps - 1), [None] * n_steps, []
            else:
                isolated = [rng.random() < 0.8 for _ in range(n_steps)]
                placebo = [rng.random() < 0.3 for _ in range(n_steps - 1)]
            items.append(outcome(model, f"t{t}", skills, curve, isolated, placebo, policy))
    return items


def label_overlaps(fig) -> list[tuple[str, str]]:
    """Pairs of tick labels of the same axis whose drawn boxes intersect."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    overlaps = []
    for ax in fig.axes:
        for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
            boxes = [(label.get_text(), label.get_window_extent(renderer)) for label in labels if label.get_text()]
            overlaps += [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2) if box_a.overlaps(box_b)]
    return overlaps


def texts_cut_off(fig) -> list[str]:
    """Titles, axis labels and tick labels that reach beyond the figure's edges."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    edge = fig.bbox.padded(1)
    texts = [fig._suptitle] + [text for ax in fig.axes for text in
                               (ax.title, ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels(), *ax.get_yticklabels())]
    boxes = [(text.get_text(), text.get_window_extent(renderer)) for text in texts if text and text.get_text()]
    return [name for name, box in boxes
            if box.x0 < edge.x0 or box.x1 > edge.x1 or box.y0 < edge.y0 or box.y1 > edge.y1]


def all_figures(items):
    plt.close("all")
    run = analyze_run(items, n_resamples=50, max_shown=MAX_SHOWN)
    comparison = compare_run(items, [], n_permutations=50, n_resamples=50)
    return {**analysis_figures(run), **comparison_figures(comparison, comparison_tables(items, max_shown=MAX_SHOWN))}


def words(fig) -> str:
    """Every text of a figure (its title and note, its axes' texts and titles), on one line."""
    texts = [*fig.texts, *(text for ax in fig.axes for text in (*ax.texts, ax.title, ax._left_title))]
    return " ".join(text.get_text() for text in texts).replace("\n", " ")


def test_many_skills_are_folded_and_every_figure_fits_a_screen():
    figures = all_figures(many_skills_run())
    assert "help_from_content" in figures
    for name, fig in figures.items():
        width, height = fig.get_size_inches() * DPI
        assert width <= 1800 and height <= 1800, (name, width, height)
        assert not label_overlaps(fig), name
        assert not texts_cut_off(fig), name
    skills = [label.get_text() for label in figures["skills"].axes[0].get_yticklabels()]
    assert len(skills) <= MAX_SHOWN + 1 and any(label.startswith("other (") for label in skills)


def test_a_run_without_any_answer_gets_placeholders():
    items = [outcome(m, f"t{i}", ["add", "mul"], [None, None], [None, None]) for i in range(4)
             for m in ("model-a", "model-b")]
    for name, fig in all_figures(items).items():
        texts = words(fig)
        assert "no answered tasks" in texts or "no task with a determined k" in texts or "no isolated step" in texts \
            or "no step was at risk" in texts, (name, texts)


def test_pair_gaps_are_refused_under_on_failure():
    figures = all_figures(many_skills_run(n_tasks=60, policy="on_failure"))
    assert "not computed under policy on_failure" in words(figures["compare_pair_gaps"])
    assert "on_failure" in words(figures["success_by_level"])


def test_repeated_samples_get_a_k_stability_figure_that_fits():
    from stad_utils.report import plot_k_stability

    items = [outcome(m, f"t{i}", ["add", "mul"], [s % 2 == 0, True], [True, True]).model_copy(update={"sample": s})
             for i in range(12) for s in range(3) for m in ("model-a", "a much longer simulated model name")]
    run = analyze_run(items, n_resamples=20)
    fig = plot_k_stability(run)
    assert not label_overlaps(fig) and not texts_cut_off(fig)
    assert "k_stability" in analysis_figures(run)


def test_a_model_without_data_gets_no_slot_and_is_named_in_words():
    from stad_utils.report import plot_k_shares

    items = [outcome("model-a", f"t{i}", ["add", "mul"], [i % 2 == 0, True], [True, True]) for i in range(6)]
    items += [outcome("model-b", f"t{i}", ["add", "mul"], [None, None], [None, None]) for i in range(6)]
    fig = plot_k_shares(analyze_run(items, n_resamples=0))
    legend = [text.get_text() for text in fig.legends[0].get_texts()]
    assert legend == ["model-a"] and "No data here for model-b" in words(fig)


def test_long_skill_names_are_never_cut_where_they_differ():
    from stad_utils.report import readable

    names = ["Multiply the number of groups by the number of items in each group.",
             "Multiply the number of items sold by the price of one item.",
             "Add the minutes of the first trip to the clock time 09:40",
             "Add the minutes of the first trip to the clock time 10:15"]
    labels = readable(names, width=20)
    assert len(set(labels)) == len(names) and all(label.count("\n") <= 1 for label in labels)
    assert "09:40" in labels[2] and "10:15" in labels[3]


def test_the_pair_gap_heatmap_shows_only_pairs_with_tasks_and_stays_legible():
    fig = all_figures(many_skills_run(n_tasks=120))["compare_pair_gaps"]
    cells = [text.get_text() for ax in fig.axes for text in ax.texts]
    assert cells and not any("n=0" in cell for cell in cells)
    assert not label_overlaps(fig) and not texts_cut_off(fig)
    width, height = fig.get_size_inches() * DPI
    assert width <= 1800 and height <= 1800
