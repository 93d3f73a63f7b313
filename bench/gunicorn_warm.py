"""gunicorn settings of the results load bench (``-c bench/gunicorn_warm.py``).

Django imports the URLconf, and with it every view module (openpyxl, numpy, drf-spectacular,
arbitration…), on a process's first request, and loads the translation catalogs on the
first request in each language: about 0.6 s of CPU that a worker's first requests wait for
(1.5 s each when four threads start cold together). A worker the warm-up never reached then
stalls the measured requests. Each worker does that work when it starts instead, before it
accepts connections. A production server wants the same (see the bench's report).
"""


def post_worker_init(worker):
    from django.conf import settings
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().url_patterns  # noqa: B018 — importing the URLconf is the point
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Changed meanwhile")
