"""Benchmark settings: the site's own, plus a bare authenticated view (bench.urls) that
every figure is compared with. Only `make bench` uses this module; production runs
config.settings, where the bare view does not exist."""
from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
# One client plays hundreds of moves a second here: the abuse limits would refuse it.
RATELIMIT_ENABLE = False
