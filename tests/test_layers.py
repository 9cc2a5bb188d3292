"""The package's structure: imports only go down (no circle), no code written twice, drop codes on the records.

`test_no_import_circle` parses every module of ``stad_utils`` with `ast`, imports inside functions
included (a lazy import is still a dependency), and checks that the graph of its modules has no
cycle. `test_the_analysis_layers_import_only_downwards` pins the layers of the analysis:
statistics → frames → measures, claims, comparisons → words → summary → report.
`test_no_code_written_twice` looks for six lines of code of the same shape in two places.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import defaultdict
from pathlib import Path

import pytest

from stad_utils.funnel import DROP_NAMES, task_funnel
from stad_utils.records import Decomposition, DropCode, Ladder, Step, Task, drop_code_of

PACKAGE = Path(__file__).resolve().parents[1] / "stad_utils"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The ``stad_utils`` modules ``path`` imports, at its top or inside a function."""
    name = module_name(path)
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
            found |= {f"{target}.{alias.name}" for alias in node.names}  # `from . import columnar`
    return found


def import_graph() -> dict[str, set[str]]:
    """Module → the ``stad_utils`` modules it imports (the package's ``__init__`` left out: it loads lazily)."""
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    modules = set(paths) - {"stad_utils"}
    return {name: {target for target in imports_of(path) if target in modules and target != name}
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
    assert "stad_utils.wording" in graph["stad_utils.markdown"]  # the parse sees the package's imports
    assert find_cycle(graph) is None, f"import circle: {' → '.join(find_cycle(graph))}"


LAYERS = [
    ["stats", "schema"],
    ["frames"],
    ["analysis", "claims", "compare", "funnel", "validity"],
    ["wording"],
    ["summary"],
    ["markdown", "costs"],
    ["plots"],
    ["report"],
]
"""The analysis from the bottom up: a module imports only modules of lower layers (and ``compare``
builds on ``claims``' composition gap). ``schema`` (what the files hold) sits at the bottom: every
layer that reads ``summary.json`` or ``comparison.json`` reads it through the models."""


def test_the_analysis_layers_import_only_downwards():
    graph = import_graph()
    layer = {f"stad_utils.{name}": depth for depth, names in enumerate(LAYERS) for name in names}
    upward = [(module, target) for module, targets in graph.items() if module in layer for target in targets
              if target in layer and layer[target] >= layer[module]
              and (module, target) != ("stad_utils.compare", "stad_utils.claims")]
    assert not upward, f"imports going up or sideways: {upward}"
    for low in ("stad_utils.stats", "stad_utils.schema", "stad_utils.frames", "stad_utils.wording"):
        assert not graph[low] & {"stad_utils.analysis", "stad_utils.claims", "stad_utils.compare",
                                 "stad_utils.summary", "stad_utils.markdown"}, low


def test_every_module_says_what_it_owns():
    missing = [name for name, path in ((module_name(p), p) for p in PACKAGE.rglob("*.py"))
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
    repeated = repeated_code(sorted(PACKAGE.rglob("*.py")))
    assert not repeated, f"the same {WINDOW} lines in several places: {sorted(repeated.values())[:5]}"


# ------------------------------------------------------------------------------------------ drop codes


def task(i: int) -> Task:
    return Task(task_id=f"t{i}", source="s", question="Q?", answer="1")


@pytest.mark.parametrize("reason, code", [
    ("7 steps (at most 6)", "too_many_steps"),
    ("no steps", "no_steps"),
    ("no annotated step in the solution", "no_steps"),
    ("last step answer '3' does not match the gold answer '4'", "last_step_mismatch"),
    ("the judge could not decide whether the last step answer '3' equals the gold answer '4' (x)",
     "last_step_undecided"),
    ("a single step, so no scaffold level (drop_single_step)", "single_step"),
    ("teacher failed scaffold level(s) [1]", "teacher_failed_level"),
    ("the judge could not decide the teacher's answer at level(s) [2] (configure an LLM judge)", "level_undecided"),
    ("expected 2 scaffolds and 3 isolated questions, got 1 and 3", "wrong_variant_count"),
    ("teacher ran out of tokens while reasoning", "teacher_out_of_tokens"),
    ("the model refused", "teacher_other"),
])
def test_a_record_written_before_drop_codes_gets_its_code_when_read(reason, code):
    record = {"task": task(0).model_dump(), "teacher": "t", "steps": [], "consistent": False, "drop_reason": reason}
    assert drop_code_of(reason) == code
    assert Decomposition.model_validate(record).drop_code == code
    ladder = {**record, "scaffolds": [], "isolated": [], "verified": False}
    del ladder["consistent"]
    assert Ladder.model_validate(ladder).drop_code == code


def test_every_drop_code_has_a_funnel_name_and_kept_records_have_none():
    assert set(DROP_NAMES) == set(DropCode.__args__)
    assert Decomposition(task=task(0), teacher="t", steps=[], consistent=True).drop_code is None
    assert Ladder(task=task(0), teacher="t", steps=[], scaffolds=[], isolated=[]).drop_code is None


def test_the_funnel_counts_codes_not_sentences():
    steps = [Step(description="d", answer="1")] * 2
    decompositions = [Decomposition(task=task(0), teacher="t", steps=steps, consistent=True),
                      Decomposition(task=task(1), teacher="t", steps=steps, consistent=False,
                                    drop_reason="reworded, any sentence", drop_code="too_many_steps")]
    ladders = [Ladder(task=task(0), teacher="t", steps=steps, scaffolds=["S?"], isolated=["I?", "J?"], verified=False,
                      drop_reason="out of tokens, reworded", drop_code="teacher_out_of_tokens")]
    funnel = task_funnel([task(0), task(1)], decompositions, ladders, [])
    assert funnel["dropped"] == {"more than 6 steps": 1, "teacher ran out of tokens while reasoning": 1}


def test_the_filters_set_the_codes():
    from stad_utils.chain import build_ladders, decompose
    from stad_utils.teachers import OracleTeacher

    REFERENCE = {"reference_scaffolds": [], "reference_isolated": [], "answer_format": "number"}
    long = Task(task_id="long", source="s", question="Q?", answer="7",
                reference_steps=[Step(description=f"s{i}", answer=str(i)) for i in range(1, 8)], **REFERENCE)
    wrong = Task(task_id="wrong", source="s", question="Q?", answer="9",
                 reference_steps=[Step(description="s", answer="1"), Step(description="t", answer="2")], **REFERENCE)
    single = Task(task_id="single", source="s", question="Q?", answer="1",
                  reference_steps=[Step(description="s", answer="1")], **REFERENCE)
    decompositions = decompose([long, wrong, single], OracleTeacher())
    assert {d.task_id: d.drop_code for d in decompositions} == {"long": "too_many_steps",
                                                                "wrong": "last_step_mismatch", "single": None}
    [ladder] = build_ladders(decompositions, OracleTeacher(), drop_single_step=True)
    assert ladder.drop_code == "single_step"
