# Two commands on a fresh machine: `make demo` and `make test`. Each installs what it needs first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test workshop workshop-lab workshop-groups slides chromium eee-validator lab check lint \
	notebooks benchmark docs clean

$(BIN)/pip:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Everything: the core, both extras and the test tools.
$(STAMP): pyproject.toml | $(BIN)/pip
	# torch first, pinned here only: on this project's machines 2.13.0 is the local CPU build, and any looser
	# spec makes pip download a multi-GB CUDA build. The embeddings extra itself takes any torch.
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[embeddings,dev,inspect]'
	# The embedded extra, with llama.cpp built for this machine's architecture (the rule is in
	# stad_utils.models.embedded.build; its wheel is cached), then one real completion: a build this CPU
	# cannot run fails here, with the fix.
	$(BIN)/python -m stad_utils.models.embedded.build
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m stad_utils.pipeline params/quickstart.yaml

test: $(STAMP) chromium eee-validator
	$(BIN)/python -m pytest

# The workshop laptop's install, as docs/workshop.md gives it to participants (no compiler, no make needed there):
# the core and JupyterLab from wheels (no torch, no llama.cpp), not editable, in a venv of its own. Reinstalled
# when the package changes. `make workshop` then runs the simulated chain 01→07 of params/workshop.yaml to
# report.html; `make workshop-lab` opens JupyterLab on the participants' notebook from the same install.
WORKSHOP_VENV ?= .venv-workshop
$(WORKSHOP_VENV)/.installed-stamp: pyproject.toml $(shell find stad_utils -type f -not -path '*/__pycache__/*' \
		-not -path 'stad_utils/notebooks/results/*')
	test -x $(WORKSHOP_VENV)/bin/pip || $(PYTHON) -m venv $(WORKSHOP_VENV)
	$(WORKSHOP_VENV)/bin/pip install --quiet --only-binary :all: '.[workshop]'
	touch $@

workshop: $(WORKSHOP_VENV)/.installed-stamp
	$(WORKSHOP_VENV)/bin/python -m stad_utils.pipeline params/workshop.yaml

workshop-lab: $(WORKSHOP_VENV)/.installed-stamp
	$(WORKSHOP_VENV)/bin/jupyter lab workshop/ $$([ "$$(id -u)" -eq 0 ] && echo --allow-root)

# One notebook per group of workshop/groups.csv (its planted weaknesses injected by papermill), for the lecturer
# to hand out: workshop/groups/<group>/09_workshop.<group>.ipynb, whose runs write beside it.
workshop-groups: $(WORKSHOP_VENV)/.installed-stamp
	$(WORKSHOP_VENV)/bin/python -m stad_utils.workshop groups workshop/groups.csv workshop/groups

# The workshop's slides, offline (reveal.js vendored beside them): open workshop/slides/workshop.slides.html.
slides: $(STAMP)
	$(BIN)/python scripts/build_slides.py workshop/slides/workshop.py

# The failure browser's test drives Debian's headless Chromium (playwright downloads no browser here).
chromium:
	@command -v chromium >/dev/null || { \
		SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

# Every Eval Ever's own validator, which tests/exchange/test_eee.py runs on the exports: every-eval-ever needs
# Python 3.12, so it has a venv of its own beside this project's (it is no dependency of the package).
# The first Python 3.12 that runs (a pyenv shim of a version that is not selected does not).
PYTHON312 ?= $(shell for python in python3.12 $(wildcard /root/.pyenv/versions/3.12*/bin/python3.12); do \
	$$python -c '' 2>/dev/null && echo $$python && break; done)
EEE_VENV ?= .venv-eee
$(EEE_VENV)/.installed-stamp:
	@test -n "$(PYTHON312)" || { echo "Every Eval Ever's validator needs Python 3.12: install python3.12, or give" \
		"its path: make eee-validator PYTHON312=/path/to/python3.12"; exit 1; }
	$(PYTHON312) -m venv $(EEE_VENV)
	$(EEE_VENV)/bin/pip install --quiet every-eval-ever==0.3.0
	touch $@

eee-validator: $(EEE_VENV)/.installed-stamp

# JupyterLab on the stage notebooks, with this environment's kernel (as root too: containers often run as root).
lab: $(STAMP)
	$(BIN)/jupyter lab stad_utils/notebooks/ $$([ "$$(id -u)" -eq 0 ] && echo --allow-root)

# Validate every committed params file without running anything.
check: $(STAMP)
	for params in params/*.yaml params/paper/*.yaml; do $(BIN)/python -m stad_utils.pipeline $$params --check || exit 1; done

# Regenerate the .ipynb notebooks from their reviewed text form (jupytext percent format) and re-execute them
# on their default parameters, so that the outputs nbval compares are current (the outputs it ignores are cleared);
# then the participants' copy of 09 from its executed instructor copy (outputs cleared, solutions folded).
NOTEBOOKS := stad_utils/notebooks
notebooks: $(STAMP)
	$(BIN)/jupytext --sync $(NOTEBOOKS)/text/*.py
	rm -rf $(NOTEBOOKS)/results
	cd $(NOTEBOOKS) && for nb in 0*.ipynb; do $(abspath $(BIN))/jupyter nbconvert --to notebook --execute --inplace $$nb \
		|| exit 1; done
	$(BIN)/python scripts/strip_ignored_outputs.py $(NOTEBOOKS)/0[1-4]*.ipynb $(NOTEBOOKS)/08*.ipynb
	$(BIN)/python scripts/strip_ignored_outputs.py --keep-outputs $(NOTEBOOKS)/0[5-7]*.ipynb $(NOTEBOOKS)/09*.ipynb
	$(BIN)/python -m stad_utils.workshop student-copy workshop/09_workshop.ipynb

# The style and type checks CI runs over the package: ruff (with pydocstyle) and mypy, configured in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check stad_utils
	$(BIN)/mypy stad_utils

benchmark: $(STAMP)
	$(BIN)/python benchmarks/judge_report.py

# The documentation site, built strictly (a broken link, a missing page or a notebook that does not render fails it)
# into site/; open site/index.html, or serve it: $(BIN)/python -m http.server -d site -b 127.0.0.1.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict -d site
	$(BIN)/python scripts/check_site.py site

clean:  # keeps the llama.cpp wheel stad_utils.models.embedded.build cached in ~/.cache/stad-workbench (minutes to build)
	rm -rf $(VENV) $(WORKSHOP_VENV) $(EEE_VENV) results $(NOTEBOOKS)/results workshop/groups \
		workshop/slides/workshop.slides.html
