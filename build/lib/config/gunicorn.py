"""gunicorn settings of ``make serve`` and of the load benches (``-c config/gunicorn.py``).

Threads suit paisai: a request spends much of its time waiting on PostgreSQL or Redis, and a
worker process per CPU with 4 threads each keeps both CPUs of a venue's small server busy.
Everything can be changed from the environment (GUNICORN_BIND, GUNICORN_WORKERS,
GUNICORN_THREADS, GUNICORN_TIMEOUT).
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", str(max(2, multiprocessing.cpu_count() * 2))))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread" if threads > 0 else "sync"
keepalive = 30  # phones and the reverse proxy keep their connections
backlog = 256
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
max_requests = 20000  # recycle a worker now and then (memory), staggered by the jitter
max_requests_jitter = 2000
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "warning")
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")


def post_worker_init(worker):
    """Each worker imports the URLconf and the translations before it accepts connections,
    so no request waits for them (config.wsgi.warm_up)."""
    from config.wsgi import warm_up

    warm_up()
