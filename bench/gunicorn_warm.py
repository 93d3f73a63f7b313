"""gunicorn settings of the results load bench (``-c bench/gunicorn_warm.py``).

config.wsgi warms each process up when it is imported; this hook makes sure a worker has
done so before it accepts connections, so no measured request waits for it.
"""


def post_worker_init(worker):
    from config.wsgi import warm_up

    warm_up()
