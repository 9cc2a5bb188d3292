"""``summary.json`` and ``comparison.json`` are described by `stad_utils.analysis._schema`: validated, versioned, exported.

The pinned outputs of `tests/test_golden_outputs.py` are read with the models and written back
unchanged, and validate against the JSON Schemas in ``docs/schemas/``, which must be current
(``python scripts/export_schemas.py`` rewrites them).
"""

from __future__ import annotations

import gzip
import json

import jsonschema
import pytest
from helpers import ROOT
from pydantic import ValidationError

from stad_utils.analysis import SCHEMA_VERSION, SCHEMAS, Comparison, RunSummary, json_schema

GOLDEN = ROOT / "tests" / "fixtures" / "golden_outputs.json.gz"
FILES = {"summary": "summary.json", "comparison": "comparison.json"}


@pytest.fixture(scope="module")
def pinned() -> dict:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_exported_json_schema_is_current(name):
    committed = (ROOT / "docs" / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8")
    assert committed == json_schema(name), "run python scripts/export_schemas.py"


@pytest.mark.parametrize("case", ["simulated", "example"])
@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_a_pinned_file_is_read_by_the_model_and_written_back_unchanged(pinned, case, name):
    content = pinned[case][FILES[name]]
    model = SCHEMAS[name].model_validate(content)
    assert model.schema_version == SCHEMA_VERSION == content["schema_version"]
    assert json.dumps(model.as_dict()) == json.dumps(content)  # same keys, same order, same values
    jsonschema.validate(content, json.loads(json_schema(name)))


def test_the_models_are_read_by_attribute(pinned):
    summary = RunSummary.model_validate(pinned["simulated"]["summary.json"])
    numbers = summary.models["simulated:weak skill"]
    assert numbers.diagnosis.weak_skills == ["multiplication"] and numbers.diagnosis.headline
    assert numbers.accuracy_original.ci95[0] <= numbers.accuracy_original.value <= numbers.accuracy_original.ci95[1]
    assert numbers.undetermined.not_asked == numbers.as_dict()["undetermined"]["not asked"]
    comparison = Comparison.model_validate(pinned["simulated"]["comparison.json"])
    [pair] = comparison.comparisons
    assert pair.models == comparison.models and pair.statement.startswith("On the 40 tasks")


def test_a_file_written_before_the_version_loads_as_version_1_and_a_stray_key_is_refused(pinned):
    older = {key: value for key, value in pinned["example"]["summary.json"].items() if key != "schema_version"}
    assert RunSummary.model_validate(older).schema_version == 1
    assert "schema_version" not in RunSummary.model_validate(older).as_dict()  # read back as it was
    with pytest.raises(ValidationError, match="summry"):
        RunSummary.model_validate({**older, "summry": 1})
    model = next(iter(older["models"]))
    broken = {**older, "models": {model: {**older["models"][model], "n_tasks": "many"}}}
    with pytest.raises(ValidationError, match="n_tasks"):
        RunSummary.model_validate(broken)


def test_the_file_is_written_as_before(tmp_path, pinned):
    summary = RunSummary.model_validate(pinned["example"]["summary.json"])
    path = tmp_path / "summary.json"
    path.write_text(summary.json_text(), encoding="utf-8")
    assert json.loads(path.read_text()) == pinned["example"]["summary.json"]
    assert RunSummary.read(path) == summary
