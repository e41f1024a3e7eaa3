# Switchback: `make run` serves the site, `make test` runs the whole suite.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint install migrate bench clean lock

# Every package comes pinned from requirements.lock (htmx too: django-htmx ships it);
# `make lock` rebuilds the lock from pyproject.toml after a dependency changes.
$(STAMP): pyproject.toml requirements.lock
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

lock: install
	$(BIN)/pip install --quiet pip-tools==7.6.2
	$(BIN)/pip-compile --quiet --extra test --strip-extras --allow-unsafe -o requirements.lock pyproject.toml

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: migrate
	@echo ""
	@echo "Switchback runs at http://127.0.0.1:8000  (Ctrl-C stops it)"
	@echo "Create an admin account with: $(BIN)/python manage.py createsuperuser"
	@echo ""
	@# The Procfile's web (uvicorn, one process: WEB_CONCURRENCY unset) and worker (db_worker: deadlines, e-mail) run side by side.
	$(BIN)/honcho start -f Procfile

# Both cores: pytest-xdist spreads the suite over two workers (each has its own database).
test: install
	$(BIN)/python -m pytest -n 2

# Hygiene that CI enforces: ruff over the project, mypy over the rules and the engine.
lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy games/rules games/*/rules games/engine.py games/core.py games/clocks.py games/finishing.py \
		games/moves.py games/rematch.py games/publisher.py games/signals.py games/record.py games/panel.py

bench: install
	$(BIN)/python bench/run_all.py $(if $(QUICK),--quick)

clean:
	rm -rf $(VENV) staticfiles test-db.sqlite3* .presence-cache
