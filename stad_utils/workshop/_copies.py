"""The workshop notebook for participants: the student copy of ``09_workshop`` and one notebook per group.

One source: ``notebooks/text/09_workshop.py`` (jupytext), paired with the executed instructor copy
``notebooks/09_workshop.ipynb`` that ships in the package, which nbval re-runs and the docs show.
The student copy is derived from it, never edited: outputs cleared (an exercise's result must not be on
screen before "Predict first"), the cells tagged ``solution`` folded (JupyterLab's hidden-source
metadata: a bar to click), and no jupytext pairing (saving a copy must not write a text form beside it).

A group notebook is the student copy with one group's parameters injected by papermill after its
``parameters`` cell, in a folder of its own, where the group's runs write (its ``results_folder``
is relative to the notebook's folder), so no two groups share a results folder.
"""

from __future__ import annotations

import copy
import csv
import tempfile
from pathlib import Path
from typing import Any

import nbformat
import yaml

from ..pipeline import NOTEBOOKS, kernel_for_this_python

WORKSHOP_NOTEBOOK = NOTEBOOKS / "09_workshop.ipynb"
"""The instructor copy: executed on its default parameters, solutions shown."""
SOLUTION = "solution"
"""The tag of a solution cell in the source."""
KERNEL = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
"""The kernel a participant's JupyterLab offers: the environment JupyterLab was installed in."""


def student_copy(instructor: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The participants' notebook: ``instructor`` without outputs, with its solution cells folded."""
    notebook = copy.deepcopy(instructor)
    for key in ("jupytext", "papermill", "widgets"):
        notebook.metadata.pop(key, None)
    notebook.metadata["kernelspec"] = dict(KERNEL)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        if SOLUTION in cell.metadata.get("tags", []):
            cell.metadata["jupyter"] = {"source_hidden": True, **({"outputs_hidden": True}
                                                                   if cell.cell_type == "code" else {})}
    nbformat.validate(notebook)
    return notebook


def write_student_copy(out: Path | str, instructor: Path | str = WORKSHOP_NOTEBOOK) -> Path:
    """Write the student copy of ``instructor`` to ``out`` (replacing it) and return ``out``."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(student_copy(nbformat.read(instructor, as_version=4)), out)
    return out


def read_groups(table: Path | str) -> dict[str, dict[str, Any]]:
    """Each group's parameters from a table: a CSV with a ``group`` column, or a YAML mapping group → parameters.

    CSV cells are read as YAML, so ``0.2`` is a number and ``[30, 200]`` a list; an empty cell keeps the
    notebook's default.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "groups.csv")
    >>> _ = open(path, "w").write("group,missing_skill,missing_skill_sizes\\nred,addition,\\"[30, 200]\\"\\nblue,,\\n")
    >>> read_groups(path)
    {'red': {'missing_skill': 'addition', 'missing_skill_sizes': [30, 200]}, 'blue': {}}
    """
    table = Path(table)
    if table.suffix in (".yaml", ".yml"):
        groups = yaml.safe_load(table.read_text(encoding="utf-8")) or {}
        return {str(group): dict(values or {}) for group, values in groups.items()}
    with open(table, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    if rows and "group" not in rows[0]:
        raise ValueError(f"{table}: the first line must name the columns, one of them 'group'")
    return {row["group"]: {name: yaml.safe_load(value) for name, value in row.items()
                           if name != "group" and value not in ("", None)} for row in rows}


def write_group_notebooks(table: Path | str, out_dir: Path | str, *, execute: bool = False,
                          only: str | None = None, instructor: Path | str = WORKSHOP_NOTEBOOK) -> list[Path]:
    """One student copy per group of ``table``, its parameters injected: ``OUT_DIR/<group>/09_workshop.<group>.ipynb``.

    A parameter the notebook does not declare is refused (papermill itself only warns about a typo).
    With ``execute`` each notebook is also run, in its group's folder (what CI checks); ``only`` picks one group.
    """
    import papermill as pm

    groups = read_groups(table)
    if only is not None:
        groups = {only: groups[only]}
    out_dir = Path(out_dir).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        source = write_student_copy(Path(scratch) / "09_workshop.ipynb", instructor)
        declared = pm.inspect_notebook(str(source))
        unknown = {group: sorted(set(values) - set(declared)) for group, values in groups.items()
                   if set(values) - set(declared)}
        if unknown:
            raise ValueError(f"unknown parameter(s) {unknown}; 09_workshop takes {sorted(declared)}")
        written = []
        for group, values in groups.items():
            folder = out_dir / group
            folder.mkdir(parents=True, exist_ok=True)
            written.append(folder / f"09_workshop.{group}.ipynb")
            pm.execute_notebook(str(source), str(written[-1]), parameters=values, prepare_only=not execute,
                                cwd=str(folder), kernel_name=kernel_for_this_python() if execute else KERNEL["name"],
                                progress_bar=False)
    return written
