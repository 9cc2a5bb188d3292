# Two commands on a fresh machine: `make demo` and `make test`. Each installs what it needs first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test chromium lab check notebooks benchmark clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# torch first, pinned: on these machines 2.13.0 is the local CPU build; anything looser pulls CUDA.
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m stad_utils.pipeline params/quickstart.yaml

test: $(STAMP) chromium
	$(BIN)/python -m pytest

# The failure browser's test drives Debian's headless Chromium (playwright downloads no browser here).
chromium:
	@command -v chromium >/dev/null || { \
		SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

# JupyterLab on the stage notebooks, with this environment's kernel (as root too: containers often run as root).
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/ $$([ "$$(id -u)" -eq 0 ] && echo --allow-root)

# Validate every committed params file without running anything.
check: $(STAMP)
	for params in params/*.yaml params/paper/*.yaml; do $(BIN)/python -m stad_utils.pipeline $$params --check || exit 1; done

# Regenerate the .ipynb notebooks from their reviewed text form (jupytext percent format) and re-execute them
# on their default parameters, so that the outputs nbval compares are current (the outputs it ignores are cleared).
notebooks: $(STAMP)
	$(BIN)/jupytext --sync notebooks/*.py
	rm -rf results/notebook-defaults
	cd notebooks && for nb in 0*.ipynb; do ../$(BIN)/jupyter nbconvert --to notebook --execute --inplace $$nb || exit 1; done
	$(BIN)/python scripts/strip_ignored_outputs.py notebooks/*.ipynb

benchmark: $(STAMP)
	$(BIN)/python benchmarks/judge_report.py

clean:
	rm -rf $(VENV) results
