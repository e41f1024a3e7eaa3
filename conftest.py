"""Fixtures for every test folder: the site's own tests (tests/) and each game package's
tests (games/<module>/tests/) share the named users, clients and browser helpers."""
pytest_plugins = ["tests.fixtures", "tests.browser.fixtures", "tests.fuzz.report"]

import pytest  # noqa: E402

SERVICE_MARKERS = ("django_db", "postgres", "redis", "browser")
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"}


@pytest.fixture(autouse=True)
def _each_test_starts_in_english():
    """A request leaves its language active in the thread (LocaleMiddleware never resets
    it): without this, a test after a Dutch request would read Dutch rules messages."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True, scope="session")
def _own_shared_cache(tmp_path_factory):
    """Without Redis the "shared" cache (config.header's records) is a directory every process
    on the machine reads, as `make run`'s server and worker must. Test processes (xdist
    workers, with users of the same ids in their own databases) each get their own: another
    worker's deletion would turn a record into a miss, and a query count into three more.
    The live servers browser tests start inherit it through the environment."""
    import os

    from django.conf import settings

    shared = settings.CACHES["shared"]
    if "filebased" in shared["BACKEND"]:
        shared["LOCATION"] = os.environ["SHARED_CACHE_DIR"] = str(tmp_path_factory.mktemp("shared-cache"))


@pytest.fixture(autouse=True, scope="session")
def _own_redis_database():
    """On Redis, each xdist worker counts in a database of its own (the URL's number + 1 + the
    worker's): many tests empty the cache (`cache.clear()` is FLUSHDB on Redis), and one
    emptied on the other worker reset this one's rate-limit counters mid-test (CI: the 9th
    chat post, the 3rd sign-up, the 5th log-in accepted). The live servers browser tests
    start inherit it through the environment."""
    import os
    from urllib.parse import urlsplit, urlunsplit

    from django.conf import settings
    from django.test.signals import setting_changed

    from config.settings import redis_services

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not settings.REDIS_URL or not worker.startswith("gw"):
        return
    parts = urlsplit(settings.REDIS_URL)
    base = int(parts.path.strip("/") or 0)
    url = urlunsplit(parts._replace(path=f"/{base + 1 + int(worker[2:])}"))
    settings.REDIS_URL = os.environ["REDIS_URL"] = url
    settings.CACHES, settings.CHANNEL_LAYERS = redis_services(url)
    for name in ("REDIS_URL", "CACHES", "CHANNEL_LAYERS"):
        setting_changed.send(sender=None, setting=name, value=getattr(settings, name), enter=True)


@pytest.fixture(autouse=True)
def _live_pushes_inline(settings):
    """A move's pushes to the other audiences run in the mover's thread in tests (they run
    after the answer on a thread of their own in the server, games.deferred): a test reads its
    sockets right after a move. Tests of the deferred path set "line" and drain."""
    settings.LIVE_PUSHES = "inline"


def pytest_collection_modifyitems(config, items):
    """Tests that touch no database nor service (the rules, pure helpers) are marked
    `db_free`: they give the same answer on every backend, so CI's PostgreSQL + Redis pass
    leaves them out (`-m "not db_free"`) after the pass on the defaults ran them."""
    for item in items:
        if not any(item.get_closest_marker(name) for name in SERVICE_MARKERS) \
                and not DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.db_free)
