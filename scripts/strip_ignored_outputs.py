"""Clear the outputs nbval does not compare, so the committed notebooks stay small.

Cells marked ``# NBVAL_IGNORE_OUTPUT`` hold model-dependent results, figures and the failure
browser widget; nbval re-runs them but never compares their outputs, so keeping those outputs
in git only adds hundreds of kilobytes of PNG and widget state. Deterministic cells keep their
outputs, which nbval checks.

    python scripts/strip_ignored_outputs.py notebooks/*.ipynb
"""

import sys

import nbformat

MARKER = "# NBVAL_IGNORE_OUTPUT"


def strip(path: str) -> None:
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code" and MARKER in cell.source:
            cell.outputs, cell.execution_count = [], None
    notebook.metadata.pop("widgets", None)  # the state of widgets whose outputs were just cleared
    nbformat.write(notebook, path)


if __name__ == "__main__":
    for notebook_path in sys.argv[1:]:
        strip(notebook_path)
