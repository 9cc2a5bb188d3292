"""Every output of a run, pinned: a restructuring of the code must leave what users read unchanged.

Two runs are pinned in ``fixtures/golden_outputs.json.gz``:

* ``simulated``: the whole chain 01 → 07 through the pipeline on generated tasks with two seeded
  simulated targets (one missing a skill and sampled three times, one failing to chain, with
  placebo levels), so every stage file and every optional section of the analysis is written;
* ``example``: 06 and 07 on the saved example run that ships with the package (real SmolLM2
  replies beside a simulated target).

For each, the test pins every stage's records, ``summary.json``, ``comparison.json``,
``report.md``, ``k_by_task.csv`` and the pixels of every figure. What changes from run to run
(times, dates, file stamps, the package's own path) is left out by `_stable`, and nothing else.

After an intended change of the outputs (a new figure, a reworded sentence, a new shipped example
run), rewrite the file with ``python tests/test_golden_outputs.py`` and review the diff that
``python tests/test_golden_outputs.py --diff`` prints against the committed file.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import FIXTURES, ROOT

from stad_utils.records import SAVED_RUN

GOLDEN = FIXTURES / "golden_outputs.json.gz"

SIMULATED = {
    "run": "simulated",
    "stages": {
        "01_tasks": {"source": "generated", "n_tasks": 40, "seed": 3, "families": ["word", "time"],
                     "min_steps": 2, "max_steps": 4, "max_number": 6},
        "02_decompose": {"teacher": "oracle"},
        "03_scaffold": {"teacher": "oracle", "placebo": True},
        "04_skills": {"embedding_model": "tfidf", "skill_source": "label"},
        "05_evaluate": {"placebo": True, "targets": [
            {"name": "weak skill", "kind": "simulated", "model": "planted-weakness", "n_samples": 3,
             "simulation": {"step_accuracy": {"multiplication": 0.4, "default": 0.95}, "seed": 1}},
            {"name": "weak chaining", "kind": "simulated", "model": "planted-weakness",
             "simulation": {"step_accuracy": {"default": 0.97}, "composition_penalty": 0.35, "seed": 2}},
        ]},
        "06_analyze": {"n_resamples": 300},
        "07_compare": {"n_permutations": 300, "n_resamples": 300},
    },
}
"""The seeded simulated run: small enough for a test, with every optional output."""

STAGE_FILES = ["tasks.jsonl", "decompositions.jsonl", "ladders.jsonl", "skills.jsonl", "verdicts.jsonl",
               "outcomes.jsonl", "skill_map.csv", "skill_examples.csv", "k_by_task.csv"]
VOLATILE_KEYS = {"seconds", "wall_seconds", "started", "finished", "date", "created", "stamp", "elapsed_s",
                 "latency_s", "duration_s"}
"""Keys whose values differ between two runs of the same code (times, dates, file stamps)."""


def _stable(value):
    """``value`` without what differs between two runs of the same code."""
    if isinstance(value, dict):
        return {key: _stable(item) for key, item in value.items() if key not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [_stable(item) for item in value]
    if isinstance(value, str):
        return value.replace(str(ROOT), "<root>")
    return value


def _pixels(png: Path) -> str:
    """A digest of a figure's pixels (not its file bytes, whose metadata may differ)."""
    import matplotlib.image

    image = matplotlib.image.imread(png)
    return hashlib.sha256(repr(image.shape).encode() + image.tobytes()).hexdigest()


def _jsonl(path: Path) -> list:
    records = [_stable(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if path.name == "verdicts.jsonl":  # the targets are asked at the same time: their lines interleave
        records.sort(key=lambda v: (v["task_id"], v["model"], v["variant"], v["level"], v["sample"]))
    return records


def run_outputs(run: Path) -> dict:
    """What a user reads in one run folder, JSON-ready and free of times and paths."""
    found: dict = {}
    for name in STAGE_FILES:
        path = run / name
        if path.exists():
            found[name] = _jsonl(path) if name.endswith(".jsonl") else _stable(path.read_text(encoding="utf-8"))
    for name in ["summary.json", "comparison.json"]:
        found[name] = _stable(json.loads((run / name).read_text(encoding="utf-8")))
    found["report.md"] = _stable((run / "report.md").read_text(encoding="utf-8"))
    found["figures"] = {png.name: _pixels(png) for png in sorted((run / "figures").glob("*.png"))}
    return found


def _pipeline(params: dict, params_path: Path, *arguments: str) -> None:
    params_path.write_text(yaml.safe_dump(params), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "stad_utils.pipeline", str(params_path), *arguments], check=True,
                   cwd=ROOT, capture_output=True, text=True)


def outputs(case: str, root: Path) -> dict:
    """Run one pinned case into ``root`` and read back its outputs."""
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    if case == "simulated":
        _pipeline({**SIMULATED, "results_dir": str(results)}, root / "simulated.yaml")
    else:
        shutil.copytree(SAVED_RUN, results / "example")
        _pipeline({"run": "example", "results_dir": str(results), "stages": {}}, root / "example.yaml",
                  "--from", "06_analyze")
    return json.loads(json.dumps(run_outputs(results / case), default=str))


CASES = ["simulated", "example"]


@pytest.fixture(scope="module")
def golden() -> dict:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_a_run_writes_what_it_wrote_before(case, golden, tmp_path):
    found, expected = outputs(case, tmp_path), golden[case]
    assert sorted(found) == sorted(expected)
    for name in expected:
        assert found[name] == expected[name], f"{case}: {name} changed"


def _diff(written: dict) -> None:
    """Print which outputs differ from the committed file, one line each, then their first differences."""
    import difflib

    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        committed = json.load(handle)
    for case, files in written.items():
        for name in sorted(set(files) | set(committed.get(case, {}))):
            old, new = committed.get(case, {}).get(name), files.get(name)
            if old != new:
                print(f"--- {case}: {name}")
                lines = difflib.unified_diff(json.dumps(old, indent=1, ensure_ascii=False).splitlines(),
                                             json.dumps(new, indent=1, ensure_ascii=False).splitlines(),
                                             lineterm="", n=1)
                print("\n".join(list(lines)[:40]))


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        written = {case: outputs(case, Path(folder) / case) for case in CASES}
    if "--diff" in sys.argv:
        _diff(written)
    else:
        with gzip.GzipFile(GOLDEN, "wb", compresslevel=9, mtime=0) as out:
            out.write(json.dumps(written, ensure_ascii=False, indent=1).encode("utf-8"))
        print(f"wrote {GOLDEN}")
