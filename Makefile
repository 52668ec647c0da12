# make demo / make test: both create .venv when missing. make demo installs accord with the one extra the demo
# uses (report: its HTML pages); make test installs the test set (every extra and the oracles).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_STAMP := $(VENV)/.accord-demo
STAMP := $(VENV)/.accord-installed

.PHONY: demo test bench lint clean mutate

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# the test set includes the demo's packages, so a venv made for the tests serves the demo as it is
$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	test -f $(STAMP) -a $(STAMP) -nt pyproject.toml || $(BIN)/python -m pip install --quiet -e '.[report]'
	touch $(DEMO_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	# irrCAC (the oracle for Gwet's AC1/AC2) pins scipy==1.12, older than accord needs (bootstrap's rng,
	# SciPy 1.15); its code runs on the current SciPy, so it is installed without its pins.
	$(BIN)/python -m pip install --quiet --no-deps 'irrcac>=0.4'
	# pygamma-agreement (the oracle for gamma) pins cvxopt==1.3.2; its code runs on the current cvxopt, so it is
	# installed without its pins, with the packages it imports.
	$(BIN)/python -m pip install --quiet numba cvxpy cvxopt pyannote.core pyannote.database sortedcontainers
	$(BIN)/python -m pip install --quiet --no-deps 'pygamma-agreement==0.5.9'
	touch $(STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/accord demo
	$(BIN)/accord demo --report demo-reports --force

# ruff, and the import-linter contracts of pyproject.toml (the layers of docs/design.md)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# the files spread over the machine's cores (one file's tests stay in one process: a docs page's blocks share
# their folder and namespace)
test: lint
	$(BIN)/python -m pytest -n auto --dist loadfile

# the mutation campaign of issue 29: RUNS damaged and re-serialised copies of every input kind through the CLI;
# the failures go to OUT (FORCE=--force replaces it); exit status 1 when there is any
RUNS ?= 3000
SEED ?= 1
OUT ?= mutation-failures.json
FORCE ?=
mutate: $(STAMP)
	$(BIN)/python scripts/mutation_campaign.py --runs $(RUNS) --seed $(SEED) --out $(OUT) --families $(FORCE)

# every figure of BENCHMARKS.md ("Rerunning every figure"); run it on a quiet machine (uptime: load below 0.3)
bench: $(STAMP)
	uptime
	$(BIN)/python benchmarks/bench_alpha.py
	$(BIN)/python benchmarks/bench_sets.py
	$(BIN)/python benchmarks/bench_coref.py
	$(BIN)/python benchmarks/bench_startup.py --repeat 9
	$(BIN)/python benchmarks/bench_spans.py
	$(BIN)/python benchmarks/bench_importers.py
	$(BIN)/python benchmarks/bench_importers.py --quick
	$(BIN)/python benchmarks/bench_report.py
	$(BIN)/python benchmarks/bench_engines.py --duckdb-limit 600MB --big-units 50000000
	$(BIN)/python benchmarks/bench_engines.py --sets 8 --units 1000000 --contenders memory,duckdb,polars,dask,spark
	$(BIN)/python benchmarks/bench_engines.py --floor --threads 1,2 --rounds 7
	$(BIN)/python benchmarks/bench_gamma.py --sizes 2x100 3x100 5x100 --contenders accord accord-windowed pygamma-exact pygamma-fast --gamma --timeout 200 --files docs/examples/spans/spans.csv
	$(BIN)/python benchmarks/bench_gamma.py --sizes 2x1000 3x1000 5x1000 --contenders accord accord-windowed pygamma-fast --gamma --timeout 400
	$(BIN)/python benchmarks/bench_gamma.py --sizes 5x1000 --contenders accord --gamma --jobs 2 --repeat 1
	$(BIN)/python benchmarks/bench_gamma.py --sizes 2x100 3x100 2x1000 --contenders accord pygamma-exact --rounds 5 --repeat 5
	$(BIN)/python benchmarks/bench_gamma.py --sizes 3x1000 --contenders accord pygamma-exact --repeat 1 --timeout 900
	$(BIN)/python benchmarks/bench_gamma.py --sizes --corpora 2x200x8 3x200x8 5x60x5 --files docs/examples/spans/spans.csv --contenders accord accord-by-document pygamma-exact --gamma --repeat 3 --timeout 900
	$(BIN)/python benchmarks/bench_relations.py
	$(BIN)/python benchmarks/bench_judge.py --repeat 3
	uptime

clean:
	rm -rf $(VENV) .pytest_cache
