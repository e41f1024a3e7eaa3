# Switchback: `make run` serves the site, `make test` runs the whole suite.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install migrate bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: migrate
	@echo ""
	@echo "Switchback runs at http://127.0.0.1:8000  (Ctrl-C stops it)"
	@echo "Create an admin account with: $(BIN)/python manage.py createsuperuser"
	@echo ""
	$(BIN)/daphne -b 127.0.0.1 -p 8000 config.asgi:application

test: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) staticfiles test-db.sqlite3*
