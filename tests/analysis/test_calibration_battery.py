"""The calibration battery (`benchmarks/diagnosis_calibration.py`, whose tables docs/diagnosis.md quotes) runs.

Its full run takes long; here its help, and a tiny configuration of every part on the real GSM8K ladders
(a few runs per cell, few shuffles) that must print every table.
"""

import math
import subprocess
import sys

import numpy as np
from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import diagnosis_calibration  # noqa: E402


def test_the_battery_explains_its_options():
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "diagnosis_calibration.py"), "--help"],
                            capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    for option in ("--quick", "--parts", "--kinds", "--shuffles", "--context-runs", "--control-runs"):
        assert option in result.stdout


def test_a_tiny_configuration_prints_every_table_of_the_context_and_quickstart_parts(shared_data, capsys):
    code = diagnosis_calibration.main([
        "--parts", "context", "quickstart", "--data", str(shared_data / "gsm8k_test.jsonl"), "--control-runs", "2",
        "--context-runs", "1", "--quickstart-runs", "1", "--kinds", "position 0.5", "--context-sizes", "150",
        "--shuffles", "50"])
    printed = capsys.readouterr().out
    assert code == 0
    for heading in ("## False weak-skill claims on controls", "## Power at 150 tasks", "## Realised deficits",
                    "## Context named", "## Composition: claimed", "## Inseparable and unconfirmed",
                    "## The quickstart's planted targets"):
        assert heading in printed, heading
    assert "| position 0.5 " in printed and "| all kinds " in printed


def test_the_planted_part_reads_the_diagnosis_and_its_intervals(shared_data):
    tasks, _ = diagnosis_calibration.load_tasks(shared_data / "gsm8k_test.jsonl")
    coverage = diagnosis_calibration.Coverage()
    weak = diagnosis_calibration.Scenario("weak", {tasks.names[0]: 0.2, "default": 0.95}, penalty=0.3)
    rates = diagnosis_calibration.run_scenario(tasks, weak, 1, 90, 0, coverage, shuffles=50)
    assert set(rates) == {"runs", "exactly right", "detection", "false flag", "ranking"}
    assert set(coverage.table()["interval"]) >= {"isolated accuracy of a skill (Wilson)",
                                                 "other skills' accuracy (Wilson)", "accuracy as asked (Wilson)"}


def test_the_battery_draws_by_the_simulators_context_model():
    tasks = diagnosis_calibration.Tasks(["a", "b"], ["x"], skill=np.array([[0, 0, -1, -1, -1, -1],
                                                                           [0, -1, -1, -1, -1, -1]]),
                                        n_steps=np.array([2, 1]))
    later = diagnosis_calibration.Scenario("s", {"default": 0.5}, position_logit_drop=math.log(3))
    chance = diagnosis_calibration.step_chances(tasks, later, np.random.default_rng(0))
    assert chance[0, :2].round(6).tolist() == [0.5, 0.25] and chance[1, 0] == 0.5  # odds ÷ 3 at step 2
    longer = diagnosis_calibration.Scenario("s", {"default": 0.5}, length_logit_drop=math.log(3))
    chance = diagnosis_calibration.step_chances(tasks, longer, np.random.default_rng(0))
    assert chance[0, :2].round(6).tolist() == [0.25, 0.25] and chance[1, 0] == 0.5  # every step of a longer task
