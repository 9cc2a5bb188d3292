"""The stages run from Python as they do in their notebooks: the same parameters, the same files."""

from __future__ import annotations

import ast
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_golden_outputs import GOLDEN, SIMULATED, run_outputs

from stad_utils import stages
from stad_utils.pipeline import NOTEBOOKS, RUNNER_PARAMETERS, STAGES, declared_parameters
from stad_utils.records import RunPaths
from stad_utils.stages import STAGE_MODULES, analyze, compare, decompose, evaluate, scaffold, skills, tasks, validate

MODULES = {"01_tasks": tasks, "02_decompose": decompose, "03_scaffold": scaffold, "04_skills": skills,
           "05_evaluate": evaluate, "06_analyze": analyze, "07_compare": compare, "08_validate": validate}


def test_every_notebook_has_a_stage_module():
    assert sorted(STAGE_MODULES) == sorted([*STAGES, "08_validate"]) == sorted(MODULES)
    assert all(getattr(stages, name) is MODULES[stage] for stage, name in STAGE_MODULES.items())


@pytest.mark.parametrize("stage", MODULES)
def test_a_stage_takes_the_parameters_its_notebook_declares_with_the_same_defaults(stage):
    declared = {name: ast.literal_eval(entry["default"]) for name, entry in declared_parameters(stage).items()
                if name not in RUNNER_PARAMETERS - {"cache_path"}}
    fields = MODULES[stage].Params.model_fields
    assert sorted(fields) == sorted(declared)
    assert {name: field.default for name, field in fields.items()} == declared


def notebook_cells(stage: str) -> list:
    import nbformat

    return nbformat.read(NOTEBOOKS / f"{stage}.ipynb", as_version=4).cells


@pytest.mark.parametrize("notebook", sorted(path.stem for path in NOTEBOOKS.glob("*.ipynb")))
def test_every_notebook_has_one_parameters_cell(notebook):
    tagged = [cell for cell in notebook_cells(notebook) if "parameters" in cell.metadata.get("tags", [])]
    assert len(tagged) == 1 and tagged[0].cell_type == "code"


@pytest.mark.parametrize("stage", MODULES)
def test_a_stage_notebook_is_one_import_one_run_and_displays(stage):
    """Each parameter is written once, in the parameters cell: the run call takes them all with ``from_cell``."""
    code = "\n".join(cell.source for cell in notebook_cells(stage)
                     if cell.cell_type == "code" and "parameters" not in cell.metadata.get("tags", []))
    module = STAGE_MODULES[stage]
    assert re.findall(r"^from stad_utils\S* import .*$", code, re.M) == [f"from stad_utils.stages import {module}"]
    assert code.count(f"{module}.run(run_dir, {module}.Params.from_cell(globals()))") == 1
    assert "Params(" not in code.replace("Params.from_cell(", "")


def test_params_from_a_cell_take_the_values_injected_and_keep_the_other_defaults():
    injected = {"n_tasks": 12, "seed": 3, "run_dir": "elsewhere", "unrelated": object()}
    params = tasks.Params.from_cell(injected)
    assert (params.n_tasks, params.seed, params.source) == (12, 3, "generated")


WRITES = re.compile(r"\.write_text\(|\.write_bytes\(|\.to_csv\(|\.to_parquet\(|\.savefig\(|\bopen\([^)]*['\"][wa]|"
                    r"\.unlink\(|\.mkdir\(|json\.dump\(|shutil\.")


@pytest.mark.parametrize("notebook", sorted((NOTEBOOKS / "text").glob("0*.py")), ids=lambda path: path.stem)
def test_no_notebook_writes_a_file_itself(notebook):
    code = [line for line in notebook.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert not [line for line in code if WRITES.search(line)]


def test_a_stage_refuses_a_parameter_it_does_not_take():
    with pytest.raises(ValueError, match="n_taks"):
        tasks.Params(n_taks=3)


def _run_from_python(run: Path, cache: Path) -> None:
    """01 → 07 of the golden test's simulated run, each stage called from Python (no notebook, no papermill)."""
    paths = RunPaths(run)
    for stage, values in SIMULATED["stages"].items():
        module = MODULES[stage]
        extra = {"cache_path": str(cache)} if "cache_path" in module.Params.model_fields else {}
        module.run(paths, module.Params(**values, **extra))


@pytest.mark.slow
def test_stages_called_from_python_write_what_the_notebooks_write(tmp_path):
    """The golden test pins what the notebooks wrote for this run; the stages called directly write the same."""
    run = tmp_path / "simulated"
    _run_from_python(run, tmp_path / "cache.sqlite")
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        expected = json.load(handle)["simulated"]
    found = json.loads(json.dumps(run_outputs(run), default=str))
    assert sorted(found) == sorted(expected)
    for name in expected:
        assert found[name] == expected[name], name


@pytest.mark.slow
def test_validate_from_python_writes_what_its_notebook_writes(tmp_path):
    small = {"n_tasks": 40, "sizes": [20, 40], "repetitions": 2}
    result = validate.run(RunPaths(tmp_path / "python"), validate.Params(**small))
    assert result.found.flagged == result.diagnosis.weak_skills
    import papermill as pm

    pm.execute_notebook(str(NOTEBOOKS / "08_validate.ipynb"), str(tmp_path / "08.ipynb"), cwd=str(NOTEBOOKS),
                        parameters={"run_dir": str(tmp_path / "notebook"), **small}, progress_bar=False,
                        kernel_name=None)
    for name in ["validation.json", "power.csv"]:
        assert (tmp_path / "notebook" / "validation" / name).read_text() == \
               (tmp_path / "python" / "validation" / name).read_text(), name


def test_evaluate_keeps_what_it_computed_when_the_error_budget_is_exceeded(tmp_path):
    """The stage raises after writing: the verdicts and outcomes stay for a re-run to complete."""
    from scripted_server import ScriptedServer

    from stad_utils.models import ErrorBudgetExceeded

    paths = RunPaths(tmp_path)
    tasks.run(paths, tasks.Params(n_tasks=3))
    decompose.run(paths)
    scaffold.run(paths)
    skills.run(paths, skills.Params(embedding_model="tfidf", skill_source="label"))
    with ScriptedServer(lambda messages: "Answer: 1", fault_rate=0.5, fault_kinds=(500,)) as server:
        target = {"name": "flaky", "model": "scripted", "base_url": server.base_url, "max_retries": 0}
        with pytest.raises(ErrorBudgetExceeded, match="flaky"):
            evaluate.run(paths, evaluate.Params(targets=[target], cache_path=str(tmp_path / "cache.sqlite")))
    verdicts = paths.verdicts.read_text().splitlines()
    assert any('"outcome":"error"' in line for line in verdicts) and any('"outcome":"error"' not in line
                                                                          for line in verdicts)
    assert paths.outcomes.read_text().count("\n") == 3


def test_a_stage_runs_in_a_fresh_interpreter_from_its_module_docstring(tmp_path):
    """What the package docstring shows a user works as written."""
    script = (f"from stad_utils import RunPaths\nfrom stad_utils.stages import tasks\n"
              f"result = tasks.run(RunPaths({str(tmp_path)!r}), tasks.Params(n_tasks=2))\n"
              "print(len(result.tasks))\n")
    assert subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                          text=True).stdout.strip() == "2"
