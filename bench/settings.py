"""Benchmark settings: the site's own, plus a bare authenticated view (bench.urls) that
every figure is compared with. Only `make bench` uses this module; production runs
config.settings, where the bare view does not exist."""
from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
