"""Fixtures for every test folder: the site's own tests (tests/) and each game package's
tests (games/<module>/tests/) share the named users, clients and browser helpers."""
pytest_plugins = ["tests.fixtures", "tests.browser.fixtures", "tests.fuzz.report"]
