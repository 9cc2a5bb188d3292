"""Clear the outputs nbval does not compare, so the committed notebooks stay small.

Cells marked ``# NBVAL_IGNORE_OUTPUT`` hold model-dependent results, figures and the failure
browser widget; nbval re-runs them but never compares their outputs, so keeping those outputs
in git only adds hundreds of kilobytes of PNG and widget state. Deterministic cells keep their
outputs, which nbval checks.

With ``--keep-outputs`` (05_evaluate on its simulated default, 06_analyze and 07_compare on the
saved example run, and the workshop notebook, all committed executed so that they teach with their
tables and figures) only the widgets go: their state is large and a widget cannot be shown without
its kernel.

    cd stad_utils/notebooks
    python ../../scripts/strip_ignored_outputs.py 0[1-4]*.ipynb 08*.ipynb
    python ../../scripts/strip_ignored_outputs.py --keep-outputs 0[5-7]*.ipynb 09*.ipynb
"""

import sys

import nbformat

MARKER = "# NBVAL_IGNORE_OUTPUT"
WIDGET = "application/vnd.jupyter.widget-view+json"


def strip(path: str, keep_outputs: bool) -> None:
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        if keep_outputs:
            cell.outputs = [output for output in cell.outputs if WIDGET not in output.get("data", {})]
        elif MARKER in cell.source:
            cell.outputs, cell.execution_count = [], None
    notebook.metadata.pop("widgets", None)  # the state of widgets whose outputs were just cleared
    nbformat.write(notebook, path)


if __name__ == "__main__":
    keep = "--keep-outputs" in sys.argv[1:]
    for notebook_path in (argument for argument in sys.argv[1:] if argument != "--keep-outputs"):
        strip(notebook_path, keep)
