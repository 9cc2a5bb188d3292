"""The method picture of the docs: one real ladder of the shipped example run, k and the bottleneck marked.

    python scripts/method_figure.py                       # writes docs/figures/method.png
    python scripts/method_figure.py --run results/quickstart --model NAME --task TASK_ID --out method.png

The ladder is chosen by `stad_utils.report.figures.teaching_ladder` (a simulated target's verified ladder
with k > 0, the most steps first) unless --task names one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from stad_utils.records import open_run  # noqa: E402
from stad_utils.report import plot_method_ladder, teaching_ladder  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, default=ROOT / "results" / "example",
                        help="a run folder (default: results/example, filled from the saved example run)")
    parser.add_argument("--model", help="the target (default: a simulated target)")
    parser.add_argument("--task", help="a task id (default: chosen by teaching_ladder)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures" / "method.png")
    args = parser.parse_args()
    ladder, outcome, verdicts = teaching_ladder(open_run(args.run), args.model, args.task)
    figure = plot_method_ladder(ladder, outcome, verdicts)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(args.out, dpi=110)
    print(f"{args.out}: task {outcome.task_id}, {outcome.model}, k = {outcome.k}")


if __name__ == "__main__":
    main()
