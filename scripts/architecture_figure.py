"""Draw docs/figures/architecture.png: the package's subpackages from the bottom up, and who imports whom.

    python scripts/architecture_figure.py

The arrows are read from the code (every ``import`` of every module, inside functions too) and
written beside the picture to ``docs/figures/architecture.json``; `tests/test_layers.py` reads the
code again and fails when the two differ, so the picture never drifts from the package.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "stad_utils"
FIGURE, EDGES = ROOT / "docs" / "figures" / "architecture.png", ROOT / "docs" / "figures" / "architecture.json"

LAYERS = ["definitions", "records", "models", "judge", "method", "official", "tasks", "analysis", "exchange",
          "report", "stages", "pipeline", "workshop"]
"""From the bottom up; a part imports only the ones before it (`tests/test_layers.py` checks it)."""

SAYS = {
    "definitions": "every quantity, in words",
    "records": "typed records, their files, the log rules",
    "models": "one client: endpoints, cache, serving, simulated targets",
    "judge": "does a reply commit to the reference? a cascade",
    "method": "teachers, decompose, ladders, evaluate, k, skills",
    "official": "the authors' file formats and release",
    "tasks": "the generator and the benchmarks",
    "analysis": "statistics, measures, tested claims, words, summary.json",
    "exchange": "Inspect task and logs, Every Eval Ever",
    "report": "report.md, figures, report.html, the browser",
    "stages": "the eight stages: run(paths, Params) -> Result",
    "pipeline": "params files and the notebook runner",
    "workshop": "the exercise notebook's runs",
}


def part_of(module: str) -> str:
    """The part (subpackage, or ``definitions``) a module of the package belongs to."""
    return module.split(".")[1]


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its name, without ``__init__``); the stage
    notebooks' jupytext forms under ``stad_utils/notebooks/`` are cells, not modules."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] == "notebooks":
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports_of(name: str, path: Path) -> set[str]:
    """The ``stad_utils`` modules a module imports, at its top or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.add(target)
            found |= {f"{target}.{alias.name}" for alias in node.names}
    return found


def part_edges() -> list[list[str]]:
    """[importer, imported] for every pair of parts joined by at least one import, sorted."""
    known = modules()
    edges = set()
    for name, path in known.items():
        if name == "stad_utils":
            continue  # the package's lazy face hands names on; it is no layer
        for target in imports_of(name, path):
            if target in known and target != "stad_utils" and part_of(target) != part_of(name):
                edges.add((part_of(name), part_of(target)))
    return sorted(map(list, edges))


def draw(edges: list[list[str]]) -> None:
    """The layered picture: one box per part, bottom to top, an arrow per import edge (to the part imported)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    fig, ax = plt.subplots(figsize=(12, 13))
    ax.set(xlim=(0, 12), ylim=(-0.6, len(LAYERS) - 0.2))
    ax.axis("off")
    x_of = {part: 2.2 + 2.6 * (i % 3) for i, part in enumerate(LAYERS)}  # three columns, so arrows stay apart
    for part in LAYERS:
        y = LAYERS.index(part)
        ax.add_patch(FancyBboxPatch((x_of[part] - 1.1, y - 0.3), 2.2, 0.6, boxstyle="round,pad=0.02",
                                    facecolor="#dbe7f3", edgecolor="#33506e"))
        ax.text(x_of[part], y + 0.06, part, ha="center", va="center", fontsize=16, fontweight="bold")
        ax.text(10.0, y, SAYS[part], ha="left", va="center", fontsize=12, color="#33506e", wrap=True)
    for importer, imported in edges:
        start, end = (x_of[importer], LAYERS.index(importer) - 0.3), (x_of[imported], LAYERS.index(imported) + 0.3)
        ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12, color="#7a8ea3", alpha=0.55,
                                     connectionstyle="arc3,rad=0.08", linewidth=1))
    ax.text(0.2, len(LAYERS) - 0.45, "stad_utils, from the bottom up: each part imports only parts below it "
                                     f"({len(edges)} arrows, read from the code)", fontsize=14)
    fig.savefig(FIGURE, dpi=80, bbox_inches="tight")
    plt.close(fig)


def main() -> int:
    edges = part_edges()
    EDGES.write_text(json.dumps({"layers": LAYERS, "edges": edges}, indent=1) + "\n", encoding="utf-8")
    draw(edges)
    print(f"wrote {FIGURE.relative_to(ROOT)} and {EDGES.relative_to(ROOT)}: {len(edges)} arrows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
