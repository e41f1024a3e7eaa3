"""The site's URLs plus /bench/bare/: the cheapest authenticated request the stack serves
(session + user lookup, middleware, a tiny response). Benchmarks only (bench.settings)."""
import os

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import include, path


@login_required
def bare(request):
    return HttpResponse(f"ok {os.getpid()}", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), path("", include("config.urls"))]
