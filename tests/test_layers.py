"""The package's structure: subpackages import only the ones below them, through their faces; no circle,
no long module, no code written twice.

Every module of ``stad_utils`` is parsed with `ast`, imports inside functions included (a lazy
import is still a dependency). The order of the subpackages is the one docs/architecture.md draws.
`test_no_code_written_twice` looks for six lines of code of the same shape in two places.
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from collections import defaultdict
from pathlib import Path

from helpers import ROOT

sys.path.insert(0, str(ROOT / "scripts"))

from architecture_figure import EDGES, LAYERS, imports_of, modules, part_edges  # noqa: E402

PACKAGE = ROOT / "stad_utils"


def package_modules() -> list[Path]:
    """The package's modules, as the architecture picture reads them (the notebooks' jupytext forms left out)."""
    return sorted(modules().values())


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module → the ``stad_utils`` modules it imports, at its top or inside a function (a lazy import is still a
    dependency); the package's ``__init__`` left out: it loads lazily. Read as the architecture picture reads it."""
    paths = modules()
    names = set(paths) - {"stad_utils"}
    return {name: {target for target in imports_of(name, path) if target in names and target != name}
            for name, path in paths.items() if name != "stad_utils"}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path of modules, or ``None``."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        state[node] = "done"
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_circle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_import_circle():
    graph = import_graph()
    assert "stad_utils.analysis" in graph["stad_utils.report._markdown"]  # the parse sees the imports
    assert find_cycle(graph) is None, f"import circle: {' → '.join(find_cycle(graph))}"


SUBPACKAGES = ["definitions", "records", "models", "judge", "method", "official", "tasks", "analysis", "exchange",
               "report", "stages", "pipeline", "workshop"]
"""The package from the bottom up: a subpackage imports only the ones before it (docs/architecture.md).
``definitions`` is the one module at the top level beside the package's face: the quantities the
analysis reports, in words, referred to by the report itself; it imports nothing."""

ANALYSIS_LAYERS = [
    ["_stats", "_schema"],
    ["_frames"],
    ["_measures", "_claims", "_funnel", "_validity"],
    ["_compare"],
    ["_wording"],
    ["_summary"],
    ["_validation"],
]
"""Inside the analysis, from the bottom up: statistics and schema, frames, measures and claims,
comparisons (which build on the claims' composition gap), words, the summary; the validation of
the diagnosis on planted truth last."""


def subpackage(module: str) -> str:
    return module.split(".")[1] if module.count(".") >= 1 else ""


def test_subpackages_import_only_the_ones_below_them():
    graph = import_graph()
    rank = {name: depth for depth, name in enumerate(SUBPACKAGES)}
    upward = sorted((module, target) for module, targets in graph.items() for target in targets
                    if subpackage(module) != subpackage(target) and rank[subpackage(target)] > rank[subpackage(module)])
    assert not upward, f"imports going up: {upward}"


def test_another_subpackage_is_reached_through_its_face():
    """A module of one subpackage imports another's public names only: its ``__init__`` or a public module
    (``records.columnar``, ``report.view`` …), never a private ``_module``."""
    graph = import_graph()
    private = sorted((module, target) for module, targets in graph.items() for target in targets
                     if subpackage(module) != subpackage(target)
                     and any(part.startswith("_") for part in target.split(".")[2:]))
    assert not private, f"imports of another subpackage's private module: {private}"


def test_the_analysis_layers_import_only_downwards():
    graph = import_graph()
    layer = {f"stad_utils.analysis.{name}": depth for depth, names in enumerate(ANALYSIS_LAYERS) for name in names}
    assert set(layer) == {name for name in graph if name.startswith("stad_utils.analysis.")}
    upward = [(module, target) for module, targets in graph.items() if module in layer for target in targets
              if target in layer and layer[target] >= layer[module]]
    assert not upward, f"imports going up or sideways: {upward}"


def test_the_top_level_holds_few_modules_and_no_module_is_long():
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= 6, top
    long = {module_name(path): n for path in package_modules()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, f"modules over 600 lines: {long}"


def test_every_module_says_what_it_owns():
    missing = [name for name, path in ((module_name(p), p) for p in package_modules())
               if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))]
    assert not missing, f"modules without a docstring: {missing}"


WINDOW = 6
DATA_TOKENS = {"S", ",", "(", ")", "[", "]", "{", "}", "+", ":"}


def code_shapes(path: Path) -> list[tuple[int, str]]:
    """(line, shape) of each line of code: strings and numbers as placeholders; no blank line, comment,
    docstring, import, or line of string literals only (data, such as a template's sentences)."""
    source = path.read_text(encoding="utf-8")
    skipped = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)) or (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            skipped.update(range(node.lineno, node.end_lineno + 1))
    shapes: dict[int, list[str]] = defaultdict(list)
    ignored = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in ignored or token.start[0] in skipped:
            continue
        shapes[token.start[0]].append("S" if token.type == tokenize.STRING else "0" if token.type == tokenize.NUMBER
                                      else token.string)
    return [(line, " ".join(parts)) for line, parts in sorted(shapes.items()) if not set(parts) <= DATA_TOKENS]


def repeated_code(paths) -> dict[tuple[str, ...], list[tuple[str, int]]]:
    """Windows of ``WINDOW`` lines of code that occur in more than one place."""
    seen: dict[tuple[str, ...], list[tuple[str, int]]] = defaultdict(list)
    for path in paths:
        lines = code_shapes(path)
        for start in range(len(lines) - WINDOW + 1):
            window = tuple(shape for _, shape in lines[start:start + WINDOW])
            if len(set(window)) > 2:  # not a run of one repeated line
                seen[window].append((str(path.relative_to(PACKAGE.parent)), lines[start][0]))
    return {window: places for window, places in seen.items() if len(places) > 1}


def test_the_repetition_finder_finds_a_copy(tmp_path):
    body = "".join(f"    x{i} = f(x, {i})\n" for i in range(7))
    (tmp_path / "a.py").write_text(f"def a(x):\n{body}    return x\n")
    (tmp_path / "b.py").write_text(f"def b(y):\n{body}    return y\n")
    global PACKAGE
    package, PACKAGE = PACKAGE, tmp_path
    try:
        assert repeated_code(sorted(tmp_path.glob("*.py")))
    finally:
        PACKAGE = package


def test_no_code_written_twice():
    repeated = repeated_code(sorted(package_modules()))
    assert not repeated, f"the same {WINDOW} lines in several places: {sorted(repeated.values())[:5]}"


def test_the_architecture_picture_is_the_code():
    """docs/figures/architecture.png is drawn from the edges in architecture.json; both must be the code's."""
    import json

    drawn = json.loads(EDGES.read_text(encoding="utf-8"))
    assert drawn["layers"] == LAYERS == SUBPACKAGES, "the picture's layers are test_layers' SUBPACKAGES"
    assert drawn["edges"] == part_edges(), "the package's imports changed: run python scripts/architecture_figure.py"
    rank = {part: depth for depth, part in enumerate(LAYERS)}
    assert all(rank[importer] > rank[imported] for importer, imported in drawn["edges"])
