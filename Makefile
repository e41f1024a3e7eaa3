# Switchback: `make run` serves the site, `make test` runs the whole suite.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint install migrate bench clean lock browser-deps gettext-deps messages

# Every package comes pinned from requirements.lock (htmx too: django-htmx ships it);
# `make lock` rebuilds the lock from pyproject.toml after a dependency changes.
$(STAMP): pyproject.toml requirements.lock
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

# Then the translation catalogues are compiled (.po -> .mo, never committed; docs/i18n.md),
# again whenever a catalogue changed. Their stamp lives in the checkout, not in .venv: a
# virtualenv shared by several checkouts must not make one think its catalogues compiled.
CATALOGUES := $(shell find . -path ./.venv -prune -o -path '*/locale/*' -name django.po -print 2>/dev/null)
MESSAGES_STAMP := .messages-compiled
$(MESSAGES_STAMP): $(CATALOGUES) | $(STAMP) gettext-deps
	$(BIN)/python manage.py compilemessages --ignore=.venv -v0
	touch $(MESSAGES_STAMP)

lock: install
	$(BIN)/pip install --quiet pip-tools==7.6.2
	$(BIN)/pip-compile --quiet --extra test --strip-extras --allow-unsafe -o requirements.lock pyproject.toml

install: $(STAMP) $(MESSAGES_STAMP)

# Catalogues: `make messages` updates every app's, game's and the site's .po files from the
# sources (games/management/commands/update_catalogues.py); translate, then `make install`
# compiles them.
messages: install
	$(BIN)/python manage.py update_catalogues

migrate: install
	$(BIN)/python manage.py migrate --noinput

# The Procfile's web line listens on $HOST:$WEB_PORT; the banner shows the same address
# (0.0.0.0 listens on every address, 127.0.0.1 included) and config/settings.py derives
# SITE_URL from them when it is unset.
HOST ?= 127.0.0.1
WEB_PORT ?= 8000
export HOST WEB_PORT
browse_host = $(if $(filter 0.0.0.0,$(HOST)),127.0.0.1,$(HOST))

run: migrate
	@echo ""
	@echo "Switchback runs at http://$(browse_host):$(WEB_PORT)  (Ctrl-C stops it)"
	@echo "Create an admin account with: $(BIN)/python manage.py createsuperuser"
	@echo ""
	@# The Procfile's web (uvicorn, one process: WEB_CONCURRENCY unset) and worker (manage.py run_worker: deadlines, e-mail, searching bots) run side by side.
	$(BIN)/honcho start -f Procfile

# Both cores: pytest-xdist spreads the suite over two workers (each has its own database).
# BROWSER=0 leaves out the browser tests (and the chromium they need): a partial run, said so.
test: install $(if $(filter 0,$(BROWSER)),,browser-deps)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS) $(if $(filter 0,$(BROWSER)),-m "not browser")

# The browser tests drive Debian's chromium (tests/browser/fixtures.py). As root with
# apt-get (CI, a fresh container) it is installed here; anyone else gets one line saying
# what to install before any test runs, rather than a wall of failed browser tests.
CHROMIUM := /usr/bin/chromium
can_install_chromium = $(and $(filter 0,$(shell id -u)),$(shell command -v apt-get))
browser-deps:
ifeq (,$(wildcard $(CHROMIUM)))
	$(if $(can_install_chromium),,$(error make test: the browser tests need Debian's chromium at $(CHROMIUM): \
	  install it with 'sudo apt-get install chromium chromium-driver', or run 'make test BROWSER=0' without them))
	@echo "== installing Debian's chromium for the browser tests"
	DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null
else
	@:
endif

# compilemessages needs GNU gettext's msgfmt: as root with apt-get (CI, a fresh container)
# Debian's gettext is installed here, as chromium is above; anyone else is told what to install.
can_install_packages = $(can_install_chromium)
gettext-deps:
ifeq (,$(shell command -v msgfmt))
	$(if $(can_install_packages),,$(error make install: compiling the translations needs GNU gettext's msgfmt: \
	  install it with 'sudo apt-get install gettext'))
	@echo "== installing Debian's gettext for the translation catalogues"
	DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q gettext >/dev/null
else
	@:
endif

# Hygiene that CI enforces: ruff over the project, the import layers (pyproject.toml's
# [tool.importlinter]: no circles, rules pure, engine below the apps), mypy over every app of
# the platform (all of games with each game's rules and presenter, accounts, notifications,
# lobby, chat, config, social, tournaments); the test folders inside the apps are left out.
lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy games accounts notifications lobby chat config social tournaments \
		--exclude 'games/[a-z_]+/tests/|notifications/tests/'

bench: install
	$(BIN)/python bench/run_all.py $(if $(QUICK),--quick) $(if $(SOCKETS),--idle-sockets $(SOCKETS))

clean:
	rm -rf $(VENV) staticfiles test-db.sqlite3* .presence-cache $(MESSAGES_STAMP)
