"""Write the JSON Schemas of ``summary.json`` and ``comparison.json`` to ``docs/schemas/``.

They are exported from the pydantic models of `stad_utils.analysis._schema`; ``tests/test_schema.py``
checks that the committed files are current. Run after changing a model:

    python scripts/export_schemas.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stad_utils.analysis import SCHEMAS, json_schema  # noqa: E402

FOLDER = ROOT / "docs" / "schemas"


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in SCHEMAS:
        path = FOLDER / f"{name}.schema.json"
        path.write_text(json_schema(name), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
