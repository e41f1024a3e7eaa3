"""Switchback settings: one module, every service chosen by environment variables.

The defaults need no services (SQLite, in-memory channel layer, console e-mail), so a
fresh clone runs with `make run`. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS,
DATABASE_URL (PostgreSQL) and REDIS_URL (channel layer + cache shared by all workers).
"""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, "1" if default else "0").strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("Set SECRET_KEY when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-switchback-not-for-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
SITE_NAME = "Switchback"
# Unset, the address `make run` serves (the Procfile's HOST and WEB_PORT), so a changed
# port moves invite and e-mail links with it; 0.0.0.0 listens everywhere, 127.0.0.1 included.
_RUN_HOST = os.environ.get("HOST", "127.0.0.1").replace("0.0.0.0", "127.0.0.1")
SITE_URL = os.environ.get("SITE_URL", f"http://{_RUN_HOST}:{os.environ.get('WEB_PORT', '8000')}").rstrip("/")

INSTALLED_APPS = [
    "daphne",
    # Before django.contrib.admin: accounts/templates/registration/* (log-in, password change
    # and reset pages and mail) must win over the admin's templates of the same names, and
    # accounts' catalogue over Django's own for the texts it words differently.
    "accounts",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "axes",
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    "lobby",
    "games",
    "chat",
    "notifications",
    "social",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and fragments compressed in the app itself, so every set-up gets it (the
    # production line has no proxy in front; issue 21). Django's GZip pads each answer
    # with random bytes against BREACH. Static files are compressed ahead by WhiteNoise.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "config.inputs.InputValidationMiddleware",  # NUL/control characters: 400; styled 405s
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.i18n.UserLocaleMiddleware",  # a player's own language and time zone (config/i18n.py)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_ratelimit.middleware.RatelimitMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Partials, then the cache, around the usual loaders plus each game package's
            # own templates/ folder (games.finders), found through the registry.
            "loaders": [("template_partials.loader.Loader", [("django.template.loaders.cached.Loader", [
                "django.template.loaders.filesystem.Loader",
                "django.template.loaders.app_directories.Loader",
                "games.finders.GameTemplatesLoader",
            ])])],
            # Every template may use config/local_time.py's filters without a {% load %}:
            # {{ value|local_time }} shows a moment in the reader's zone, the zone named.
            "builtins": ["config.local_time"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.header.context",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
DB_POOL_MAX_SIZE = int(os.environ.get("DB_POOL_MAX_SIZE", "8"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_POOL_MAX_SIZE > 0:
    # Under ASGI each sync view may run on a different thread, and persistent connections
    # are per thread: CONN_MAX_AGE > 0 would keep one connection per thread ever used.
    # A psycopg pool bounds them instead: at most DB_POOL_MAX_SIZE per server process
    # (requests beyond that wait up to `timeout` seconds for a free connection).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1, "max_size": DB_POOL_MAX_SIZE, "timeout": 20,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (HTTP + bots + sockets) share one file: wait for the lock rather
    # than failing, and take the write lock at BEGIN so select_for_update-free SQLite
    # still serialises submissions.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    # A file, not memory, so the browser tests' server process shares the test database.
    # One file per test process, so two test runs in one checkout never share it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}

# A move's live pushes to the other audiences: "deferred" (under an ASGI server, after the
# mover's answer, on one thread per process, in order; elsewhere at once: games.deferred),
# "inline" (always at once; the test suite's setting, conftest.py) or "line" (always deferred).
LIVE_PUSHES = os.environ.get("LIVE_PUSHES", "deferred")

REDIS_URL = os.environ.get("REDIS_URL", "")
# Redis pub/sub ignores the database number: two sites (or test workers) given one Redis and
# different databases would hear each other's pushes under one prefix. Without a prefix of
# its own, a database other than 0 names its channels after itself.
CHANNEL_PREFIX = os.environ.get("CHANNEL_PREFIX", "")
# Redis connections of one server process, shared by every thread and socket
# (config.redis_pool): callers beyond the pool's size wait up to REDIS_POOL_TIMEOUT s.
REDIS_POOL_MAX_SIZE = int(os.environ.get("REDIS_POOL_MAX_SIZE", "16"))
REDIS_POOL_TIMEOUT = 5
# An idle socket's consumer waits in a blocking read of CHANNEL_BLOCKING_READ seconds;
# redis-py's own socket timeout must be longer, or every idle read times out and the
# socket is closed (redis-py 8 defaults to 5 s, the same as channels-redis's read).
# Health checks and TCP keepalive find connections a proxy or a restart dropped.
CHANNEL_BLOCKING_READ = 5
# "pubsub" (RedisPubSubChannelLayer): a group message is published once and each server
# process fans it out in memory; "core" (RedisChannelLayer): one copy per channel in
# Redis. docs/performance.md compares them. The pub/sub layer reads with 0.1 s polls,
# the core layer blocks 5 s: the socket timeout below outwaits both.
CHANNEL_LAYER_BACKEND = {
    "pubsub": "config.layers.DecodeOncePubSubLayer",  # channels-redis pub/sub, one decode per process
    "core": "config.layers.BoundedRedisChannelLayer",  # channels-redis core, bounded pool
}[os.environ.get("CHANNEL_LAYER", "pubsub")]


def channel_prefix_for(url: str) -> str:
    """"switchback" on database 0, "switchback-db<n>" on database n (see CHANNEL_PREFIX)."""
    database = urlsplit(url).path.strip("/") or "0"
    return "switchback" if database == "0" else f"switchback-db{database}"


def redis_services(url: str) -> tuple[dict, dict]:
    """(CACHES, CHANNEL_LAYERS) on the Redis at `url` (tests with a Redis of their own use it too)."""
    layers = {
        "default": {
            "BACKEND": CHANNEL_LAYER_BACKEND,
            "CONFIG": {
                "hosts": [{
                    "address": url,
                    "socket_timeout": CHANNEL_BLOCKING_READ * 6,
                    "socket_connect_timeout": 5,
                    "socket_keepalive": True,
                    "health_check_interval": 15,
                    "retry_on_timeout": True,
                }],
                "prefix": CHANNEL_PREFIX or channel_prefix_for(url),
            },
        }
    }
    # A cache call Redis cannot answer is logged and answers as a miss (config.cache):
    # moves go on while Redis is down.
    # Every cache backend (Django makes one per thread and per async context: one per
    # socket) shares the process's one bounded pool (config.redis_pool).
    caches = {"default": {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": url,
                          "OPTIONS": {"pool_class": "config.redis_pool.SharedPool"}}}
    caches["presence"] = caches["shared"] = caches["default"]
    return caches, layers


if REDIS_URL:
    CACHES, CHANNEL_LAYERS = redis_services(REDIS_URL)
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # Who has a socket open is read by the worker, another process than the server's:
    # without Redis, a file cache is what both processes share on one machine.
    CACHES["presence"] = {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                          "LOCATION": str(BASE_DIR / ".presence-cache")}
    # What a change made in one process must forget in the other (config.header's record:
    # the worker's bot moves, timeouts and inbox lines change a player's header).
    CACHES["shared"] = {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                        "LOCATION": os.environ.get("SHARED_CACHE_DIR") or str(BASE_DIR / ".shared-cache")}

# Background work (deadlines, mail): Django's Tasks API through django-tasks, stored in the
# database and run by `manage.py db_worker` (the Procfile's `worker`). Tasks are enqueued
# inside the transaction that makes them due, so a rolled-back move leaves no task behind.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby:index"
LOGOUT_REDIRECT_URL = "lobby:index"

# English, Dutch, German and Italian: the languages the games' rulebooks are printed in.
# URLs carry no language prefix: a link to a game, shared in chat or mail, opens in each
# reader's own language (their setting, else the language cookie, else Accept-Language).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("de", "Deutsch"), ("it", "Italiano")]
# Each app keeps its catalogue in <app>/locale; each game keeps its own in games/<game>/locale,
# so a game stays one folder; ./locale holds the site's own templates (templates/, config/).
LOCALE_PATHS = [*sorted(BASE_DIR.glob("games/*/locale")), BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "games.finders.GameStaticFinder",  # each game package's own static/ folder
]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# In development the ASGI server serves static files straight from the apps' folders.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# E-mail: EMAIL_URL-free Django settings; console by default so sign-up mail is visible.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", f"{SITE_NAME} <noreply@switchback.local>")

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Client addresses: how many proxies the site trusts in front of it (0: clients connect
# straight to uvicorn). Each appends the address it saw to X-Forwarded-For, so the
# client is the PROXY_COUNT-th entry from the right (config.inputs.client_ip, used by
# the rate limits and django-axes). uvicorn runs with --no-proxy-headers (Procfile), so
# REMOTE_ADDR stays the address of the proxy and the header is read in this one place.
try:
    PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0"))
except ValueError:
    PROXY_COUNT = -1
if not 0 <= PROXY_COUNT <= 10:
    raise ImproperlyConfigured("PROXY_COUNT is the number of trusted proxies in front of the site, 0 to 10.")

# Abuse control (config/abuse.py) ---------------------------------------------------
# Login: django-axes counts failures per (username, IP) in the database, shared by every
# worker; after AXES_FAILURE_LIMIT the pair is locked out for AXES_COOLOFF_TIME with a
# clear message (429). A correct password during the lockout is refused too.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.abuse.locked_out"
AXES_CLIENT_IP_CALLABLE = "config.inputs.client_ip"  # the same address as the rate limits
AXES_VERBOSE = False
# Rate limits (django-ratelimit), per user and per IP (x RATELIMIT_IP_FACTOR), counted in
# the default cache: Redis with REDIS_URL, so every worker shares them.
RATELIMITS = {
    "signup": "5/h", "login": "20/m", "password-reset": "5/h",
    "moves": "120/m", "tables": "20/h", "chat": "30/m",
}
RATELIMIT_IP_FACTOR = 4
RATELIMIT_VIEW = "config.abuse.too_many_requests"
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
# A counter the cache cannot keep (Redis down: config.cache logs it) lets the request through.
RATELIMIT_FAIL_OPEN = True
RATELIMIT_IP_META_KEY = "config.inputs.client_ip"
# Django's own RedisCache counts atomically (INCR) though django-ratelimit does not list
# it; without REDIS_URL the site is one process, whose memory cache is shared enough.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"] + ([] if REDIS_URL else ["django_ratelimit.E003"])

# Content-Security-Policy (django-csp 4): scripts and style sheets only from this site
# (or an element carrying the response's nonce, `{{ request.csp_nonce }}`); sockets to
# this site ('self' covers ws:/wss: of the same host). Inline style ATTRIBUTES are
# allowed (style-src-attr): the boards colour each seat and size SVG strokes with
# style="...", whose values the server computes; an attribute cannot run script or load
# anything, so it is not a script-injection path, while moving every per-seat colour
# into classes would gain little. <style> elements stay nonce-only (style-src-elem).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "style-src-elem": [SELF, NONCE],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# How many moves a bot chain may play after one human move before yielding (guards loops).
BOT_MOVE_LIMIT = 2000

# Correspondence and clocks ([DECISION] documented on the help page, templates/help.html).
TURN_MAIL_QUIET_SECONDS = int(os.environ.get("TURN_MAIL_QUIET_SECONDS", "300"))  # no "your turn" before this
REMINDER_FRACTION = 0.8  # a reminder when 80% of a correspondence move's time is used
VACATION_DAYS_PER_YEAR = 30
OPEN_TABLE_IDLE_HOURS = 48  # an open table with no activity for this long closes
REMATCH_OFFER_HOURS = 24  # a rematch offer nobody completed expires
# The daily digest goes out at this hour of each player's own day, in their time zone
# (0-23): the task runs hourly (games.tasks.daily_digest). DIGEST_HOUR_UTC is its old name.
DIGEST_HOUR = int(os.environ.get("DIGEST_HOUR", os.environ.get("DIGEST_HOUR_UTC", "7")))
if not 0 <= DIGEST_HOUR <= 23:
    raise ImproperlyConfigured("DIGEST_HOUR is an hour of the day, 0 to 23.")

# --- Notifications (the notifications app: inbox, Web Push, the installable app) -------
# Web Push keys (VAPID, RFC 8292): `manage.py generate_vapid_keys` prints a pair. The
# private key is 32 raw bytes in base64url, the public key the uncompressed P-256 point
# browsers take as applicationServerKey. Unset: no pushes; the inbox and mail still work.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@switchback.local")  # who push services contact
# The push services a subscription may point at (the worker POSTs there, so nothing else):
# Chrome/Edge/Opera (FCM), Firefox (Mozilla autopush), Safari (Apple), Windows (WNS).
PUSH_ENDPOINT_HOSTS = env_list("PUSH_ENDPOINT_HOSTS", "fcm.googleapis.com,updates.push.services.mozilla.com,"
                               "push.services.mozilla.com,push.apple.com,notify.windows.com")
PUSH_ALLOW_HTTP = env_bool("PUSH_ALLOW_HTTP", False)  # plain-http endpoints: a local test receiver only
PUSH_BATCH_SECONDS = 60  # games that become yours within this window arrive as one push
NOTIFICATIONS_KEEP_DAYS = 30  # inbox lines older than this are deleted (a daily task)
