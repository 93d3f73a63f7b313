# paisai — `make run` serves the demo on 127.0.0.1:8000, `make test` runs the whole suite.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
DEV_ENV := DEBUG=1
# Python keeps compiled modules (and pytest its rewritten test modules) in __pycache__/ even
# where the shell says not to: without them every test process compiles the whole tree again
# (test-fast's collection took 13 s per process instead of 6).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install run serve test test-fast lint format messages bench worker clean idiom-deck

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,bench]'
	touch $(STAMP)

# Pyodide from the npm registry (package.json, package-lock.json): the table phone's rules
# engine with no network. Served from node_modules/ as static files (config/settings.py).
NODE_STAMP := node_modules/.package-lock.json
$(NODE_STAMP): package.json package-lock.json
	./scripts/system-deps.sh node
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $(NODE_STAMP)

install: $(STAMP) $(NODE_STAMP)

run: install
	./scripts/system-deps.sh runtime
	@mkdir -p var
	$(DEV_ENV) $(PY) manage.py migrate --noinput
	$(DEV_ENV) $(PY) manage.py load_demo
	$(DEV_ENV) $(PY) manage.py runserver 127.0.0.1:8000

serve: install  ## production: gunicorn + a Celery worker; needs DATABASE_URL (PostgreSQL), CACHE_URL (Redis), SECRET_KEY
	./scripts/system-deps.sh runtime
	./scripts/serve.sh

# The suite runs in a shuffled order (pytest-randomly); the seed is printed so that a failure
# found in one order can be repeated: PYTEST_SEED=<seed> make test. It runs over TEST_PROCS
# processes (pytest-xdist; the files that share a port, a Redis database or a broker queue run
# in one of them: SERIAL_FILES in tests/conftest.py); TEST_PROCS=0 runs it in this process.
TEST_PROCS ?= 2
test: install
	./scripts/system-deps.sh
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	@seed=$${PYTEST_SEED:-$$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}; \
	  echo "test order: pytest-randomly seed $$seed (repeat with PYTEST_SEED=$$seed make test)"; \
	  $(PY) -m pytest -p randomly --randomly-seed=$$seed --durations=25 -n $(TEST_PROCS) --dist loadgroup

test-fast: install  ## everything but the browser tests, sweeps, walks and real workers
	$(PY) -m pytest -m "not e2e and not slow" -n $(TEST_PROCS) --dist loadgroup

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# The Chinese catalogue from the code (English is the source language): what is read and how is
# the project's own makemessages (tournaments/management/commands/makemessages.py);
# tests/test_translations.py fails when this would leave a message obsolete or untranslated.
messages: install
	$(DEV_ENV) $(PY) manage.py makemessages -l zh_Hans
	$(DEV_ENV) $(PY) manage.py compilemessages -l zh_Hans --ignore=.venv --ignore=node_modules

worker: install  ## a Celery worker with beat (-B runs the stuck-job sweep); run one -B per site
	@mkdir -p var
	$(PY) -m celery -A config worker -B -l info --concurrency 2

BENCHES := rules_engine phone_engine pairing never_stuck standings pairing_service standings_service results_load public_load mirror exports imports

bench: install  ## every benchmark, one after another (needs PostgreSQL and Redis; ~15 min)
	for b in $(BENCHES); do echo "== bench/$$b.py"; $(PY) -m bench.$$b || exit 1; done

idiom-deck: install  ## rebuild rules_engine/chengyu/idioms.json from the idiom dataset
	$(PY) -m pip install -q -e '.[deck]'
	$(PY) scripts/build_idiom_deck.py

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
