"""Settings of the load benches' gunicorn: paisai's own, with the bench URLconf (the floor)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
