"""The failure browser's data and disagreements, pinned to what they were before they were computed with DuckDB.

``fixtures/browser_golden.json`` holds, for the seeded runs of `browser_cases` (every corner of
the records: samples, re-asked questions, a second run, old verdicts, …) and for the saved
example run (real SmolLM2 replies), what `browser_data` and `disagreements` returned when they
were computed from every verdict as a Python object (commit 8579410). The browser must return
the same, whatever it computes them with. After an intended change, rewrite the file with
``python tests/test_browser_golden.py`` and review its diff.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from browser_cases import write_cases
from helpers import FIXTURES

from stad_utils.records import SAVED_RUN
from stad_utils.report.browser import BrowserRecords, disagreements

GOLDEN = FIXTURES / "browser_golden.json.gz"


def _runs(case: str, root: Path) -> list[Path]:
    if case == "example":
        shutil.copytree(SAVED_RUN, root / "example")
        return [root / "example"]
    seed, which = case.split("-")
    runs = write_cases(root / case, int(seed))
    return runs if which == "both" else runs[:1]


CASES = {"0-both": (None, 3), "1-both": (None, 0, 5), "2-first": (None, 2), "example": (0, 4)}
"""The runs and, for each, the ``max_details`` of the `BrowserRecords.data` it pins."""


def _table(table: pd.DataFrame) -> dict:
    return {"dtypes": [str(dtype) for dtype in table.dtypes], "columns": list(table.columns),
            "rows": json.loads(table.to_json(orient="values"))}


def outputs(case: str, root: Path) -> dict:
    """What the browser returns for one case, JSON-ready."""
    runs = _runs(case, root)
    records = BrowserRecords(runs)
    data = {str(limit): records.data(limit) for limit in CASES[case]}
    return json.loads(json.dumps({"data": data, "disagreements": _table(disagreements(runs))}, ensure_ascii=False))


@pytest.fixture(scope="module")
def golden() -> dict:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.parametrize("case", CASES)
def test_the_browser_returns_what_it_returned_before(case, golden, tmp_path):
    found, expected = outputs(case, tmp_path), golden[case]
    assert found["disagreements"] == expected["disagreements"]
    for limit, data in expected["data"].items():
        assert {key: value for key, value in found["data"][limit].items() if key != "tasks"} == \
               {key: value for key, value in data.items() if key != "tasks"}
        for task, pinned in zip(found["data"][limit]["tasks"], data["tasks"], strict=True):
            assert task == pinned, task["id"]
            assert json.dumps(task) == json.dumps(pinned), f"{task['id']}: the same values in another order"


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        written = {case: outputs(case, Path(folder)) for case in CASES}
    with gzip.GzipFile(GOLDEN, "wb", compresslevel=9, mtime=0) as out:
        out.write(json.dumps(written, ensure_ascii=False, indent=1).encode("utf-8"))
    print(f"wrote {GOLDEN}")
