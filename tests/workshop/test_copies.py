"""The participants' notebooks: the student copy and the group notebooks come from the one source of 09."""

from __future__ import annotations

import jupytext
import nbformat
import pytest
from helpers import ROOT

from stad_utils.pipeline import NOTEBOOKS
from stad_utils.workshop import SOLUTION, WORKSHOP_NOTEBOOK, read_groups, student_copy, write_group_notebooks

TEXT_SOURCE = NOTEBOOKS / "text" / "09_workshop.py"
STUDENT_COPY = ROOT / "workshop" / "09_workshop.ipynb"


def sources(notebook) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source) for cell in notebook.cells]


def test_the_instructor_copy_is_the_text_source_executed():
    instructor = nbformat.read(WORKSHOP_NOTEBOOK, as_version=4)
    assert sources(instructor) == sources(jupytext.read(TEXT_SOURCE))
    assert all(cell.execution_count for cell in instructor.cells if cell.cell_type == "code")  # executed, for nbval


def test_the_committed_student_copy_is_generated_from_the_instructor_copy():
    """Regenerated with `make notebooks` (python -m stad_utils.workshop student-copy …), never edited by hand."""
    expected = student_copy(nbformat.read(WORKSHOP_NOTEBOOK, as_version=4))
    assert nbformat.read(STUDENT_COPY, as_version=4) == expected


def test_the_student_copy_shows_no_result_and_folds_every_solution():
    student = nbformat.read(STUDENT_COPY, as_version=4)
    code = [cell for cell in student.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs and cell.execution_count is None for cell in code)
    solutions = [cell for cell in student.cells if SOLUTION in cell.metadata.get("tags", [])]
    assert len(solutions) == 6  # one per exercise
    assert all(cell.metadata["jupyter"]["source_hidden"] for cell in solutions)
    assert all(cell.source.startswith("**Solution**") for cell in solutions)  # what a folded cell still shows
    assert not [cell for cell in student.cells if cell.metadata.get("jupyter") and cell not in solutions]
    assert "jupytext" not in student.metadata  # saving a copy must not write a text form beside it
    assert student.metadata["kernelspec"]["name"] == "python3"


def test_a_group_notebook_gets_its_parameters_right_after_the_parameters_cell(tmp_path):
    table = tmp_path / "groups.csv"
    table.write_text("group,missing_skill,missing_skill_sizes\nblue,multiplication,\"[40]\"\nred,,\n")
    written = write_group_notebooks(table, tmp_path / "out")
    assert written == [tmp_path / "out" / "blue" / "09_workshop.blue.ipynb",
                       tmp_path / "out" / "red" / "09_workshop.red.ipynb"]
    cells = nbformat.read(written[0], as_version=4).cells
    tags = [cell.metadata.get("tags", []) for cell in cells]
    injected = tags.index(["injected-parameters"])
    assert "parameters" in tags[injected - 1]
    assert 'missing_skill = "multiplication"' in cells[injected].source
    assert "missing_skill_sizes = [40]" in cells[injected].source
    assert all(not cell.get("outputs") for cell in cells if cell.cell_type == "code")  # handed out unexecuted
    assert ["injected-parameters"] not in [cell.metadata.get("tags", []) for cell in
                                           nbformat.read(written[1], as_version=4).cells]


def test_a_misspelt_parameter_in_the_group_table_is_refused(tmp_path):
    table = tmp_path / "groups.yaml"
    table.write_text("blue: {missing_skil: multiplication}\n")
    assert read_groups(table) == {"blue": {"missing_skil": "multiplication"}}
    with pytest.raises(ValueError, match="missing_skil"):
        write_group_notebooks(table, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_shipped_group_table_names_only_parameters_of_09():
    import papermill as pm

    declared = pm.inspect_notebook(str(WORKSHOP_NOTEBOOK))
    groups = read_groups(ROOT / "workshop" / "groups.csv")
    assert len(groups) >= 4 and len({values["missing_skill"] for values in groups.values()}) == len(groups)
    assert all(set(values) <= set(declared) for values in groups.values())
