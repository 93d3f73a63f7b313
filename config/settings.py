"""paisai settings, driven by environment variables (see README, "Configuration")."""

import json
import os
import sys
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# Under pytest the test client and live server speak plain HTTP.
TESTING = "pytest" in sys.modules
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG or env_bool("PAISAI_DEV") or TESTING:
        SECRET_KEY = "dev-only-paisai-key-3f9c1e7a5b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e0f"
    else:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set SECRET_KEY (production) or DEBUG=1 (development)."
        )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "tournaments",
    "arbitration",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # the static files, compressed (.br/.gz made at collectstatic) and answered before any
    # session or database work: the venue box runs gunicorn with no proxy in front
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "tournaments.mirror.MirrorMiddleware",  # a mirror answers public reads only
    "tournaments.middleware.UploadSizeLimitMiddleware",  # before CSRF, which reads the body
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "tournaments.middleware.PrivateNoStoreMiddleware",  # a logged-in user's answers: no-store
    "tournaments.validation.RequestLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.csp.CSPMiddleware",  # django-csp's, a plain response's policy built once
    "axes.middleware.AxesMiddleware",  # last: turns a lockout into its answer
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'var' / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        # A persistent connection the server dropped (a restart, a killed backend) is
        # checked before a request uses it, not found dead by the request (issue 31:
        # 146 × 500 while backends were killed).
        conn_health_checks=True,
    )
}
if not os.environ.get("DATABASE_URL"):
    (BASE_DIR / "var").mkdir(exist_ok=True)  # the embedded default database lives here
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    if TESTING:
        # The test database lives in memory with a shared cache, where SQLite locks whole
        # tables between connections and does not wait (CI: "database table is locked:
        # tournaments_event" while a browser test's server thread read the event). Readers
        # take no table lock here; the pragma does nothing outside a shared cache.
        DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA read_uncommitted = 1;"
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by PostgreSQL, not quoted into the SQL by Python (psycopg 3), and each
    # connection's repeated statements prepared once: a result submission costs ~15% less
    # CPU (bench/results_load.py). Off (DB_SERVER_SIDE_BINDING=0) behind a pooler in
    # transaction mode (PgBouncer), where prepared statements do not survive.
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = env_bool(
        "DB_SERVER_SIDE_BINDING", True
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

if TESTING:  # hashing with 1M PBKDF2 rounds per test user would dominate the suite's time
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("Simplified Chinese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Pyodide from the npm registry (package.json; `make install` runs `npm ci`): the table phone
# runs the rules engine with no network (tournaments/services/offline.py)
# under a folder named by its version (package.json pins it), so a new Pyodide is new URLs
if (BASE_DIR / "node_modules" / "pyodide" / "package.json").is_file():
    _pyodide = json.loads((BASE_DIR / "node_modules" / "pyodide" / "package.json").read_text())
    STATICFILES_DIRS.append(
        (f"vendor/pyodide-{_pyodide['version']}", BASE_DIR / "node_modules" / "pyodide")
    )
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "var" / "media"))
# Every file (an export, a job's parts, an uploaded team list) is written and read through
# Django's storage API, so the web processes and the workers need no shared disk: the default
# is the local MEDIA_ROOT (one host); several hosts put the files on an object store by
# settings alone, e.g. with django-storages and an S3-compatible service:
#   FILE_STORAGE=storages.backends.s3.S3Storage
#   FILE_STORAGE_OPTIONS='{"bucket_name": "paisai", "endpoint_url": "https://s3.example.org"}'
STORAGES = {
    "default": {
        "BACKEND": os.environ.get("FILE_STORAGE", "django.core.files.storage.FileSystemStorage"),
        "OPTIONS": json.loads(os.environ.get("FILE_STORAGE_OPTIONS") or "{}"),
    },
    # WhiteNoise's compressed copies, not its hashed names: Pyodide loads its own files by
    # name from its folder, and the phone's files are already named by their version (?v=
    # and the engine's digest, tournaments/services/offline.py)
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Pyodide's folder is named by its version: its files never change, so they are cached for a
# year and never asked again (the other static files: WhiteNoise's 60 s, their ?v= names them)
WHITENOISE_IMMUTABLE_FILE_TEST = r"^/?static/vendor/pyodide-[^/]+/"

# Login throttling (django-axes): the login page, the admin and the API's basic auth
# (tournaments.services.logins). A username is locked at one address after
# PAISAI_LOGIN_ACCOUNT_LIMIT failures there, for 1 minute, doubling with each further
# limit's worth of failures within a day, at most PAISAI_LOGIN_LOCK_MINUTES; at an address
# where that user logged in before (axes' access log) after PAISAI_LOGIN_KNOWN_ADDRESS_FACTOR
# times as many (relaxed, never lifted). Elsewhere also: PAISAI_LOGIN_ACCOUNT_CEILING
# failures of a username from all addresses together, and PAISAI_LOGIN_ADDRESS_LIMIT
# failures of all usernames from one address, within PAISAI_LOGIN_LOCK_MINUTES. A locked login is refused before any password is hashed. The event's chief
# referee or organiser (page "Locked logins") lifts a lock of the event's people; staff and
# superusers' locks only an administrator lifts (the admin's axes pages).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "config.auth.ModelBackend",  # Django's, with the per-request user read by prebuilt SQL
]
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("PAISAI_LOGIN_ACCOUNT_LIMIT", "5"))
PAISAI_LOGIN_LOCK_MINUTES = int(os.environ.get("PAISAI_LOGIN_LOCK_MINUTES", "15"))
PAISAI_LOGIN_KNOWN_ADDRESS_FACTOR = int(os.environ.get("PAISAI_LOGIN_KNOWN_ADDRESS_FACTOR", "4"))
PAISAI_LOGIN_ACCOUNT_CEILING = int(os.environ.get("PAISAI_LOGIN_ACCOUNT_CEILING", "20"))
PAISAI_LOGIN_ADDRESS_LIMIT = int(os.environ.get("PAISAI_LOGIN_ADDRESS_LIMIT", "30"))
AXES_COOLOFF_TIME = "tournaments.services.logins.cool_off"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the pair, not either alone
AXES_USERNAME_CALLABLE = "tournaments.services.logins.axes_username"
AXES_HANDLER = "tournaments.services.logins.LoginThrottle"
AXES_LOCKOUT_CALLABLE = "tournaments.services.logins.lockout_response"
AXES_CLIENT_IP_CALLABLE = "tournaments.services.audit.client_address"
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a lock ends on time
# successful logins are kept (username, address, time: the addresses a lock never stops);
# failures too, for the escalating lock length
AXES_DISABLE_ACCESS_LOG = False
AXES_ENABLE_ACCESS_FAILURE_LOG = True
PAISAI_CAPTAIN_SIGN_LIMIT = int(os.environ.get("PAISAI_CAPTAIN_SIGN_LIMIT", "10"))
AXES_VERBOSE = False
# X-Forwarded-For is believed only from these addresses (the reverse proxy); none by default.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")

# E-mail (password reset): printed on the console unless EMAIL_HOST names an SMTP server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "paisai <noreply@localhost>")
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(3 * 24 * 3600)))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"
LOGOUT_REDIRECT_URL = "tournaments:home"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        "tournaments.api.authentication.ThrottledBasicAuthentication",
    ],
    # A JSON API (issue 31: the schema says application/json, and a form body cannot carry a
    # record or a null); the team import alone takes a multipart upload (its own parser).
    "DEFAULT_PARSER_CLASSES": ["tournaments.api.parsers.CheckedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "tournaments.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "tournaments.api.pagination.Pagination",
    "PAGE_SIZE": 200,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "paisai API",
    "DESCRIPTION": "Event management and arbitration for Guandan, Tractor and idiom-chain poker.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.schema_errors.document_errors",  # every operation's 4xx answers
        "tournaments.api.schema.strict_requests",  # no other fields, no NUL in text
    ],
    # choice sets sharing a field name ("kind") get a name of their own
    "ENUM_NAME_OVERRIDES": {
        "KindEnum": "tournaments.models.results.ResultVersion.Kind",  # its name before stages
        "StageKindEnum": "tournaments.models.stages.Stage.Kind",
        "LeaveKindEnum": "tournaments.models.checkin.RoundLeave.Kind",
        "EventStatusEnum": "tournaments.models.events.Event.Status",
        "StepEnum": "rules_engine.ladder.STEPS",  # a ruling's and an amending vote's step
    },
}

# Celery: without a broker, tasks run in-process (eager) so `make run` needs no Redis.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL or None)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# Without a broker (make run) jobs run in a thread of the web process after the request
# answered, never inside it (tournaments.tasks.in_process); the tests run them in the request
# unless a test turns this on, so that a job's outcome can be asserted at once.
PAISAI_JOBS_IN_THREAD = env_bool("PAISAI_JOBS_IN_THREAD", not TESTING)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The broker may go away and come back (issue 31). A worker retries for ever rather than
# exiting after 100 attempts; it runs without gossip, mingle and broker heartbeats
# (config.celery.Consumer), whose restart after a lost connection crashed it
# ("Unrecoverable error: AttributeError('NoneType' object has no attribute 'hostname')",
# kombu#582, celery#8091). Publishing a task waits at most PAISAI_PUBLISH_TIMEOUT seconds,
# one try (redis-py's own retries included, a frozen Redis costs a job start ~4 s, not a
# web thread for ever); the job
# is then marked failed with its reason and a retry, and the sweep queues it again once the
# broker answers.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "config.celery:Consumer"
PAISAI_PUBLISH_TIMEOUT = float(os.environ.get("PAISAI_PUBLISH_TIMEOUT", "1"))
CELERY_BROKER_CONNECTION_TIMEOUT = PAISAI_PUBLISH_TIMEOUT
CELERY_TASK_PUBLISH_RETRY = False
CELERY_REDIS_SOCKET_TIMEOUT = CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = PAISAI_PUBLISH_TIMEOUT
# A dead worker never leaves a job stuck. A worker process that dies gives its message back
# (acks_late + reject_on_worker_lost). No task runs longer than the hard time limit (the
# longest step, a 20,000-row import or 2,500 scoresheets assembled, takes well under a
# minute), and Redis hands an unacknowledged message to another worker only after the
# visibility timeout, which is longer: a task still running is never delivered twice. A
# worker killed as a whole keeps its messages until that timeout; for that, beat runs
# tournaments.tasks.sweep_jobs every PAISAI_JOB_SWEEP_SECONDS, which (once the queue is
# empty) queues again the missing work of a job whose heartbeat is older than
# PAISAI_JOB_STALE_SECONDS (a running task beats every third of it) and marks it failed
# (with a retry button) after PAISAI_JOB_MAX_RESTARTS restarts.
CELERY_TASK_TIME_LIMIT = int(os.environ.get("CELERY_TASK_TIME_LIMIT", "600"))
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 30
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 300,
    # a Redis that does not answer (stopped by SIGSTOP, a full network) fails in seconds
    "socket_timeout": PAISAI_PUBLISH_TIMEOUT,
    "socket_connect_timeout": PAISAI_PUBLISH_TIMEOUT,
    "max_retries": 0,  # a publisher's connection: one try (a worker retries for ever)
    # the worker's blocking pop returns every half second, well within the socket timeout
    "polling_interval": 0.5,
    # the queues are read in the order of their names: "celery" (officials' jobs) before
    # "public" (the files public pages ask for), so an organiser's export never waits behind
    # a backlog of public ones (issue 39), only for a task a worker process is running
    "queue_order_strategy": "sorted",
}
# Two queues, both read by every worker (a worker without -Q reads CELERY_TASK_QUEUES):
# officials' jobs on the default one, public files on PAISAI_PUBLIC_QUEUE (tournaments.tasks).
CELERY_TASK_DEFAULT_QUEUE = "celery"
PAISAI_PUBLIC_QUEUE = "public"
CELERY_TASK_QUEUES = [
    Queue(CELERY_TASK_DEFAULT_QUEUE, routing_key=CELERY_TASK_DEFAULT_QUEUE),
    Queue(PAISAI_PUBLIC_QUEUE, routing_key=PAISAI_PUBLIC_QUEUE),
]
# Public jobs (files asked for by anonymous pages) a client address, and everybody, may start
# per event revision; beyond it the answer says "try again in a minute" (issue 39).
PAISAI_PUBLIC_JOBS_PER_CLIENT = int(os.environ.get("PAISAI_PUBLIC_JOBS_PER_CLIENT", "12"))
PAISAI_PUBLIC_JOBS_PER_REVISION = int(os.environ.get("PAISAI_PUBLIC_JOBS_PER_REVISION", "60"))
PAISAI_JOB_STALE_SECONDS = float(os.environ.get("PAISAI_JOB_STALE_SECONDS", "30"))
PAISAI_JOB_SWEEP_SECONDS = float(os.environ.get("PAISAI_JOB_SWEEP_SECONDS", "10"))
PAISAI_JOB_MAX_RESTARTS = int(os.environ.get("PAISAI_JOB_MAX_RESTARTS", "3"))
CELERY_BEAT_SCHEDULE = {
    "sweep-jobs": {"task": "tournaments.tasks.sweep_jobs", "schedule": PAISAI_JOB_SWEEP_SECONDS}
}
CELERY_BEAT_SCHEDULE_FILENAME = os.environ.get(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(BASE_DIR / "var" / "celerybeat-schedule")
)

# The cache (Redis in production) is an accelerator, never a single point of failure: every
# cache error is logged and answered from the database (config/cache.py), and whatever is
# cached is keyed on the event revision stored in the database, so nothing is stale after an
# outage. Sessions live in the database: they survive a Redis outage, and a logout or a new
# login during one cannot be undone by a stale cached session once Redis is back.
CACHES = {
    "default": (
        {"BACKEND": "config.cache.FailSafeRedisCache", "LOCATION": os.environ["CACHE_URL"]}
        if os.environ.get("CACHE_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
SESSION_ENGINE = "config.sessions"  # Django's database sessions, read by prebuilt SQL

# A public mirror (README, "Public mirrors"): this site's database is a hot standby of the
# venue's, read-only; PAISAI_MIRROR_OF is the venue site's address, where every write and
# login is sent (tournaments.mirror). Nothing may write a row: sessions and messages are
# signed cookies (an anonymous visitor of the public pages has neither anyway).
PAISAI_MIRROR_OF = os.environ.get("PAISAI_MIRROR_OF", "").rstrip("/")
# Seconds between two renders of a public page (tournaments.services.public_cache): 1 on a
# mirror, whose pages follow results coming in at 50 a second; 0 (at once) otherwise.
PAISAI_PUBLIC_RENDER_PAUSE = int(
    os.environ.get("PAISAI_PUBLIC_RENDER_PAUSE", "1" if PAISAI_MIRROR_OF else "0")
)
if PAISAI_MIRROR_OF:
    SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
    MESSAGE_STORAGE = "django.contrib.messages.storage.cookie.CookieStorage"

# Security: strict unless DEBUG. Behind a TLS proxy set SECURE_PROXY_SSL_HEADER via env.
HTTPS_ONLY = not (DEBUG or TESTING)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", HTTPS_ONLY)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", HTTPS_ONLY)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS_ONLY)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
if env_bool("USE_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts and style blocks from this site only, inline
# ones with the request's nonce (``nonce="{{ request.csp_nonce }}"``); no inline event
# handlers (static/js/paisai.js wires data-autosubmit / data-print). Style attributes stay
# allowed (layout only, no script).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals_in_one_line": {"()": "config.log_filters.RefusalsInOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # a refusal (4xx) is one line, never a traceback (config/log_filters.py)
    "loggers": {"django.request": {"filters": ["refusals_in_one_line"]}},
}

# Uploads (the team import): refused from the declared length before the body is read;
# checked unpacked and row by row before parsing; long lists imported in the background.
PAISAI_MAX_UPLOAD_BYTES = int(os.environ.get("PAISAI_MAX_UPLOAD_BYTES", str(5 * 1024 * 1024)))
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024  # larger uploads are streamed to a temporary file
PAISAI_IMPORT_MAX_UNPACKED_BYTES = 40 * 1024 * 1024
PAISAI_IMPORT_MAX_ROWS = 25_000
PAISAI_IMPORT_MAX_PARTS = 1_000  # a zip of 40,000 tiny parts held an import 28–48 s
PAISAI_IMPORT_MAX_RATIO = 100  # a part unpacking to more than 100 × its packed size: a zip bomb
PAISAI_IMPORT_BACKGROUND_ROWS = 2_000
PAISAI_IMPORT_BACKGROUND_CELLS = 20_000

# Apps whose records make up an event archive (export_archive / import_archive).
PAISAI_ARCHIVE_APPS = ("tournaments", "arbitration")

PAISAI_SCORESHEET_FONT = os.environ.get("PAISAI_PDF_FONT", "Noto Sans CJK SC")
PAISAI_PDF_MONO_FONT = os.environ.get("PAISAI_PDF_MONO_FONT", "Noto Sans Mono CJK SC")
# Items per export task of a chunked export (team badges, table cards…; scoresheets: their own);
# empty: each exporter's own (tournaments/exporters/exports.py).
PAISAI_EXPORT_CHUNK = os.environ.get("PAISAI_EXPORT_CHUNK", "")
PAISAI_SCORESHEET_CHUNK = os.environ.get("PAISAI_SCORESHEET_CHUNK", "")
# How long an official's one-time login link lives (tournaments/services/accounts.py).
PAISAI_LOGIN_LINK_DAYS = int(os.environ.get("PAISAI_LOGIN_LINK_DAYS", "14"))
# The address players and referees open (printed in QR codes on badges and table cards).
# A label of the deployment (e.g. the release's commit), mixed into the version of the files
# a table phone keeps for use offline; the files' digest alone already changes with them.
PAISAI_DEPLOYMENT = os.environ.get("PAISAI_DEPLOYMENT", "")
PAISAI_PUBLIC_URL = os.environ.get("PUBLIC_URL", "http://127.0.0.1:8000").rstrip("/")
# Every signed-up user may create events (otherwise: site administrators and event creators).
PAISAI_OPEN_EVENT_CREATION = env_bool("OPEN_EVENT_CREATION")
