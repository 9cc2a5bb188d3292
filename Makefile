# Two commands on a fresh machine: `make demo` and `make test`. Each installs what it needs first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test chromium lab check notebooks benchmark docs clean

# llama.cpp for any x86-64 CPU with AVX2, whatever the build machine advertises. Its default build is CPU-native
# (GGML_NATIVE): on a VM that advertises AMX without letting a process use it, that build dies on its first
# completion. The wheel is built once into a folder named after its version and flags (pip's own wheel cache is not
# keyed on CMAKE_ARGS, so a cached native wheel would otherwise be reused) and force-installed from there.
LLAMA_CPP_VERSION := 0.3.36
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
WHEELHOUSE ?= $(HOME)/.cache/stad-workbench/llama-cpp-python-$(LLAMA_CPP_VERSION)-$(shell echo '$(LLAMA_CMAKE_ARGS)' | sha1sum | cut -c1-8)
LLAMA_WHEEL := $(WHEELHOUSE)/.built

$(BIN)/pip:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(LLAMA_WHEEL): | $(BIN)/pip
	rm -rf $(WHEELHOUSE)
	@echo "building llama-cpp-python $(LLAMA_CPP_VERSION) for any AVX2 CPU (about 5-10 min on 2 cores) ..."
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/pip wheel --quiet --no-cache-dir --no-deps --no-binary llama-cpp-python \
		-w $(WHEELHOUSE) llama-cpp-python==$(LLAMA_CPP_VERSION)
	touch $@

$(STAMP): pyproject.toml $(LLAMA_WHEEL) | $(BIN)/pip
	# torch first, pinned: on these machines 2.13.0 is the local CPU build; anything looser pulls CUDA.
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet --force-reinstall --no-deps --no-index --find-links $(WHEELHOUSE) \
		llama-cpp-python==$(LLAMA_CPP_VERSION)
	$(BIN)/pip install --quiet -e '.[dev]'
	# One real completion of the embedded model: a build this CPU cannot run fails here, with the fix.
	$(BIN)/python -m stad_utils.embedded_check
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
	$(BIN)/jupytext --sync notebooks/text/*.py
	rm -rf results/notebook-defaults results/example
	cd notebooks && for nb in 0*.ipynb; do ../$(BIN)/jupyter nbconvert --to notebook --execute --inplace $$nb || exit 1; done
	$(BIN)/python scripts/strip_ignored_outputs.py notebooks/0[1-5]*.ipynb notebooks/08*.ipynb
	$(BIN)/python scripts/strip_ignored_outputs.py --keep-outputs notebooks/06*.ipynb notebooks/07*.ipynb

benchmark: $(STAMP)
	$(BIN)/python benchmarks/judge_report.py

# The documentation site, built strictly (a broken link, a missing page or a notebook that does not render fails it)
# into site/; open site/index.html, or serve it: $(BIN)/python -m http.server -d site -b 127.0.0.1.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict -d site
	$(BIN)/python scripts/check_site.py site

clean:  # keeps the portable llama.cpp wheel in $(WHEELHOUSE) (it takes minutes to build)
	rm -rf $(VENV) results
