"""Client addresses from one place (issue 18, row 6, build 6): PROXY_COUNT trusted proxies
in front of the site decide which X-Forwarded-For entry is the client, for rate limits
and log-in lockouts alike (config.inputs.client_ip); a header that cannot be the work of
those proxies is a 400, never a 500, and varying what the client itself writes into the
header never opens a new bucket."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from config.inputs import client_ip

pytestmark = pytest.mark.django_db
PROXY = "10.0.0.1"  # the proxy's own address: what the site's socket sees


@pytest.fixture
def behind_one_proxy(settings):
    """The production shape with one proxy; the log-in limit low and counted from zero (per
    hour: a minute's window could end in the middle of a slow test and reset the count)."""
    settings.PROXY_COUNT = 1
    settings.RATELIMIT_ENABLE = True
    settings.RATELIMITS = {**settings.RATELIMITS, "login": "20/h"}
    cache.clear()
    yield settings
    cache.clear()


def log_in(forwarded_for: str | None, username: str = "nobody", password: str = "wrong-password"):
    headers = {"REMOTE_ADDR": PROXY}
    if forwarded_for is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return Client(**headers).post("/accounts/login/", {"username": username, "password": password})


@pytest.mark.parametrize("header", [None, "", "not-an-address", "203.0.113.9, ", "203.0.113.9, 999.1.1.1",
                                    " , ", "203.0.113.9,,", "\u00e9t\u00e9"])
def test_a_header_the_proxy_could_not_have_written_is_a_clear_400(behind_one_proxy, header):
    response = log_in(header)
    assert response.status_code == 400
    assert "address" in response.content.decode()


@pytest.mark.parametrize("header, client", [
    ("203.0.113.9", "203.0.113.9"),
    ("198.51.100.7, 203.0.113.9", "203.0.113.9"),  # the client's own entry, then the proxy's
    ("spoofed, 203.0.113.9", "203.0.113.9"),
    ("2001:db8::1", "2001:db8::1"),
    ("203.0.113.9:52100", "203.0.113.9"),
    ("[2001:db8::1]:443", "2001:db8::1"),
])
def test_the_client_is_the_entry_the_outermost_trusted_proxy_wrote(behind_one_proxy, rf, header, client):
    assert client_ip(rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=header)) == client


def test_without_a_proxy_the_header_is_ignored(settings, rf):
    settings.PROXY_COUNT = 0
    assert client_ip(rf.get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.7")) == "203.0.113.9"


def test_two_proxies_take_the_second_entry_from_the_right(settings, rf):
    settings.PROXY_COUNT = 2
    request = rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="spoofed, 203.0.113.9, 10.0.0.2")
    assert client_ip(request) == "203.0.113.9"


def test_varying_the_header_does_not_open_new_rate_limit_buckets(behind_one_proxy):
    statuses = [log_in(f"198.51.100.{i}, 203.0.113.9", username=f"walker{i}").status_code for i in range(25)]
    assert statuses.count(429) == 5, statuses  # 20 an hour, whatever the client writes


def test_varying_the_header_does_not_escape_the_lockout(behind_one_proxy, alice):
    statuses = [log_in(f"198.51.100.{i}, 203.0.113.9", username="alice").status_code for i in range(6)]
    assert statuses[4:] == [429, 429]
    assert log_in("203.0.113.77", username="alice", password="alice-pass-123").status_code == 302  # another client
