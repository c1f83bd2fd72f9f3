# Two commands from a fresh machine with python3 and pip:
#   make run    set up .venv and run the main job
#   make test   set up .venv and run the tests (what CI runs)
#   make docs   build the documentation site into docs/_build/html (offline)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DOCS_STAMP := $(VENV)/.docs-stamp

.PHONY: setup run test lint docs bench bench-games clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/chameleon-lab notebooks run --profile quick

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check --quiet chameleon_lab tests notebooks

test: lint
	$(BIN)/python -m pytest -n auto --dist worksteal --durations=25 --compile-report

$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

# offline, warnings as errors; the pages show reports/*.ipynb where make run wrote them
docs: $(DOCS_STAMP)
	$(BIN)/sphinx-build -b html -W --keep-going -q docs docs/_build/html -d docs/_build/doctrees
	@echo "docs: open docs/_build/html/index.html"

bench: $(STAMP)
	$(BIN)/chameleon-lab bench perft

bench-games: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/chameleon-lab bench games

clean:  # the venv, tool caches and compiled code (numba's cache sits in __pycache__)
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
	rm -rf docs/_build docs/notebooks docs/api/generated
	find chameleon_lab tests -name __pycache__ -type d -prune -exec rm -rf {} +
