"""gunicorn settings of the load benches (``-c bench/gunicorn_warm.py``): the production
hooks of config/gunicorn.py; the benches give workers, threads and the bind on the command
line (command-line options win over this file)."""

from config.gunicorn import post_worker_init  # noqa: F401 — gunicorn reads it from here
