"""The method in one picture: one task asked with more and more help, from a saved run."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

import matplotlib.pyplot as plt

from ...method import k_category
from ...records import Outcome, Verdict, latest_verdicts, outcome_key
from ._style import MIN_PX, font_points, projected

# ------------------------------------------------------------------------------------------ the method, on one ladder

_VERDICT_WORDS = {"correct": ("✓", "solved", "forestgreen"), "wrong": ("✗", "wrong", "firebrick"),
                  "no_answer": ("✗", "no answer", "firebrick"), "undecided": ("?", "undecided", "darkorange"),
                  "error": ("!", "error", "dimgray")}
_BOTTLENECK_COLOUR = "darkorange"
_GIVEN_COLOUR = "#1b6e3a"


def _verdict_of(verdict, solved: bool | None) -> tuple[str, str, str]:
    """(symbol, word, colour) and, when the reply's answer is known, 'answered X' — of one question."""
    if verdict is not None and verdict.outcome in _VERDICT_WORDS:
        symbol, word, colour = _VERDICT_WORDS[verdict.outcome]
        if verdict.outcome == "correct":
            word = "right"
        answer = f"answered {verdict.extracted}" if verdict.extracted not in (None, "") else ""
        return f"{symbol} {word}", answer, colour
    if solved is None:
        return "– not asked", "", "dimgray"
    return ("✓ right", "", "forestgreen") if solved else ("✗ wrong", "", "firebrick")


def _step_words(ladder, i: int) -> str:
    """'step 1 · multiplication: 5 × 4 = 20' for 1-based step ``i`` of ``ladder``."""
    step = ladder.steps[i - 1]
    work = (step.explanation or step.answer).replace(" * ", " × ").replace(" / ", " ÷ ")
    return f"step {i} · {step.skill or 'unmapped'}: {work}"


def teaching_ladder(run_dir, model: str | None = None, task_id: str | None = None):
    """(ladder, outcome, verdicts) of one task of a run, for `plot_method_ladder`.

    Without ``task_id``: a verified ladder on which a simulated target (or ``model``) needed help
    (k > 0), preferring the most steps, then one with a step failed alone (a weak skill shows beside
    the ladder), then the highest k, then the shortest question; so the picture shows a failure, a
    level that helped and a bottleneck step.
    """
    from ...records import Ladder, RunPaths, read_records

    paths = RunPaths(run_dir)
    ladders = {ladder.task.task_id: ladder for ladder in read_records(paths.ladders, Ladder.model_validate)
               if ladder.verified}
    outcomes = [o for o in read_records(paths.outcomes, Outcome.model_validate)
                if o.task_id in ladders and o.sample == 0 and (o.model == model if model else o.simulated)]
    if task_id is not None:
        outcomes = [o for o in outcomes if o.task_id == task_id]
    else:
        helped = [o for o in outcomes if o.k is not None and o.k > 0]
        outcomes = sorted(helped, key=lambda o: (-o.n_steps, False not in o.isolated, -(o.k or 0),  # k > 0 here
                                                 len(ladders[o.task_id].task.question), o.model, o.task_id))
    if not outcomes:
        raise ValueError(f"{run_dir}: no verified ladder with k > 0 for "
                         f"{model or 'a simulated target'}{f' on {task_id}' if task_id else ''}")
    chosen = outcomes[0]
    verdicts = [v for v in read_records(paths.verdicts, Verdict.model_validate, missing_ok=True)
                if v.task_id == chosen.task_id and v.model == chosen.model and v.sample == 0]
    return ladders[chosen.task_id], chosen, verdicts


@projected
def plot_method_ladder(ladder, outcome: Outcome, verdicts: Sequence = (), *, width: float = 14.0,
                       title: str = "One task, asked with more and more help"):
    """The method on one real ladder: the original question and each scaffold level with the steps it
    gives, the target's verdict at each level, k and the bottleneck step marked; below, each step
    asked alone with its verdict.

    ``ladder``: a `Ladder`; ``outcome``: the target's `Outcome` on it; ``verdicts``: its `Verdict`
    records on the task (the replies' answers are shown when given; later records win).
    """
    latest: dict[tuple[str, int], Verdict] = {
        (verdict.variant, verdict.level): verdict for verdict in latest_verdicts(verdicts).values()
              if outcome_key(verdict) == outcome_key(outcome)}
    n_steps, k = len(ladder.steps), outcome.k
    fontsize, line = 15, 15 * 1.45 / 72  # points, and inches per line of text
    smallest = max(13, math.ceil(font_points(MIN_PX, width)))  # the isolated questions: 14 px at 1,024 px wide
    question_chars = int((width - 5.6) * 9.2)  # characters per line of the question column at this size
    left, question_x, verdict_x = 0.25, 2.75, width - 2.6

    given_chars = int(question_chars * 0.88)  # the given steps are bold, so wider per character
    rows = []  # (level, given lines with their colours, question lines)
    for level, question in enumerate([ladder.task.question, *ladder.scaffolds]):
        given = []
        for i in range(1, level + 1):
            is_bottleneck = k is not None and level == k and i == k
            words = "given: " + _step_words(ladder, i) + ("   ← bottleneck step" if is_bottleneck else "")
            colour = _BOTTLENECK_COLOUR if is_bottleneck else _GIVEN_COLOUR
            given += [(wrapped, colour) for wrapped in textwrap.wrap(words, given_chars)]
        rows.append((level, given, textwrap.wrap(question, question_chars)))
    step_chars = int((width - 0.5) / n_steps * 8.0)
    steps = []  # per step: its heading lines, and the isolated question's lines
    for i, step in enumerate(ladder.steps, start=1):
        work = (step.explanation or step.answer).replace(" * ", " × ").replace(" / ", " ÷ ")
        heading = textwrap.wrap(f"step {i} · {step.skill or 'unmapped'}", step_chars) + textwrap.wrap(work, step_chars)
        asked = ladder.isolated[i - 1] if i - 1 < len(ladder.isolated) else ""
        steps.append((heading, textwrap.wrap(f"asked: {asked}", int(step_chars * 1.15 * 13 / smallest))))

    small = line * smallest / 15
    heights = [(len(given) + len(question)) * line + 0.25 for _, given, question in rows]
    step_height = (max(len(heading) for heading, _ in steps) * line + max(len(asked) for _, asked in steps) * small
                   + 3.2 * line + 0.2)
    total = 1.85 + 0.5 + sum(heights) + 0.22 * len(rows) + 0.9 + 0.55 + step_height + 0.1
    fig = plt.figure(figsize=(width, total))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set(xlim=(0, width), ylim=(total, 0))
    ax.axis("off")

    def text(x, y, words, **style):
        return ax.text(x, y, words, fontsize=style.pop("fontsize", fontsize), va="top", parse_math=False, **style)

    if k is None:
        verdict_words = "k undetermined (an unanswered level)"
    elif k == 0:
        verdict_words = "k = 0: solved as asked, no bottleneck"
    elif k_category(k) == "unresolved":
        verdict_words = "k = −1: no level solved (unresolved), no bottleneck"
    else:
        verdict_words = f"k = {k}: {k} step{'s' if k > 1 else ''} had to be given; bottleneck = step {k}"
    text(left, 0.2, title, fontsize=22, fontweight="bold")
    text(left, 0.72, f"target: {outcome.model}   ·   task {outcome.task_id}, K = {n_steps} steps",
         fontsize=14, color="dimgray")
    text(left, 1.05, verdict_words, fontsize=15, color=_BOTTLENECK_COLOUR if k else "dimgray", fontweight="bold")
    y = 1.85
    for x, words in ((left, "level"), (question_x, "what the target is asked (steps already given in green)"),
                     (verdict_x, "its verdict")):
        text(x, y, words, fontsize=14, color="dimgray", fontstyle="italic")
    y += 0.5

    for (level, given, question), height in zip(rows, heights):
        is_k = k is not None and level == k
        ax.add_patch(plt.Rectangle((question_x - 0.15, y - 0.12), verdict_x - question_x - 0.1, height,
                                   facecolor="#fff4e0" if is_k else "#f4f4f4",
                                   edgecolor=_BOTTLENECK_COLOUR if is_k else "lightgray", linewidth=3 if is_k else 1))
        name = "original\n(level 0)" if level == 0 else f"scaffold {level}\n({level} given)"
        text(left, y, name, fontweight="bold")
        if is_k:
            text(left, y + 2.3 * line, f"← k = {k}\nfirst level\nsolved", color=_BOTTLENECK_COLOUR, fontweight="bold")
        row_y = y
        for words, colour in given:
            text(question_x, row_y, words, color=colour, fontweight="bold")
            row_y += line
        text(question_x, row_y, "\n".join(question), linespacing=1.3)
        variant = "original" if level == 0 else "scaffold"
        solved = outcome.curve[level] if level < len(outcome.curve) else None
        verdict, answer, colour = _verdict_of(latest.get((variant, level)), solved)
        text(verdict_x, y, verdict, color=colour, fontweight="bold", fontsize=18)
        if answer:
            text(verdict_x, y + 1.4 * line, answer, color="dimgray", fontsize=14)
        y += height + 0.22

    y += 0.3
    text(left, y, "Each step asked alone (isolated steps, earlier results given)", fontsize=17, fontweight="bold")
    y += 0.55
    box = (width - 0.5) / n_steps
    for i, (lines, asked) in enumerate(steps, start=1):
        x = left + (i - 1) * box
        is_bottleneck = k is not None and k > 0 and i == k
        ax.add_patch(plt.Rectangle((x, y - 0.12), box - 0.2, step_height,
                                   facecolor="#fff4e0" if is_bottleneck else "#f4f4f4",
                                   edgecolor=_BOTTLENECK_COLOUR if is_bottleneck else "lightgray",
                                   linewidth=3 if is_bottleneck else 1))
        text(x + 0.15, y, "\n".join(lines), linespacing=1.3, fontweight="bold")
        below = y + len(lines) * line + 0.05
        text(x + 0.15, below, "\n".join(asked), linespacing=1.3, fontsize=smallest, color="dimgray")
        below += len(asked) * small + 0.15
        solved = outcome.isolated[i - 1] if i - 1 < len(outcome.isolated) else None
        verdict, answer, colour = _verdict_of(latest.get(("isolated", i)), solved)
        text(x + 0.15, below, verdict, color=colour, fontweight="bold", fontsize=17)
        if answer:
            text(x + 1.45, below + 0.03, answer, color="dimgray", fontsize=14)
        if is_bottleneck:
            text(x + 0.15, below + 1.3 * line, f"bottleneck step (step k = {k})", color=_BOTTLENECK_COLOUR,
                 fontweight="bold")
    bottom = y - 0.12 + step_height + 0.25  # the figure ends just under the boxes, one inch of drawing per inch
    fig.set_figheight(bottom)
    ax.set_ylim(bottom, 0)
    return fig
