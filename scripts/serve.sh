#!/usr/bin/env bash
# make serve: paisai in production mode on one host — gunicorn (config/gunicorn.py, the load
# benches' settings) and a Celery worker, with PostgreSQL (DATABASE_URL) and Redis (CACHE_URL,
# CELERY_BROKER_URL) required. Put a reverse proxy in front (README, "Production").
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python

fail() { echo "make serve: $*" >&2; exit 2; }
[[ -f var/paisai.env ]] && { set -a; . var/paisai.env; set +a; }  # scripts/venue-box.sh writes it
[[ "${DATABASE_URL:-}" == postgres* ]] || fail "set DATABASE_URL=postgres://user@host:5432/db (PostgreSQL)"
[[ "${CACHE_URL:-}" == redis* ]] || fail "set CACHE_URL=redis://host:6379/1 (the shared cache of every worker)"
export CELERY_BROKER_URL="${CELERY_BROKER_URL:-${CACHE_URL%/*}/0}"
[[ -n "${SECRET_KEY:-}" ]] || fail "set SECRET_KEY (and ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS)"
export DB_CONN_MAX_AGE="${DB_CONN_MAX_AGE:-600}"
export DJANGO_SETTINGS_MODULE=config.settings

$PY manage.py check --deploy --fail-level ERROR
if [[ -n "${PAISAI_MIRROR_OF:-}" ]]; then
  # a public mirror (README, "Public mirrors"): its database is a read-only hot standby of the
  # venue's, migrated there; no worker (a mirror starts no job), gunicorn only
  $PY manage.py collectstatic --noinput -v 0
  $PY manage.py compilemessages --ignore=.venv -v 0 2>/dev/null || true
  echo "make serve: public mirror of $PAISAI_MIRROR_OF; gunicorn on ${GUNICORN_BIND:-127.0.0.1:8000}"
  exec $PY -m gunicorn config.wsgi -c config/gunicorn.py
fi
$PY manage.py migrate --noinput
$PY manage.py collectstatic --noinput -v 0
$PY manage.py compilemessages --ignore=.venv -v 0 2>/dev/null || true

$PY -m celery -A config worker -l warning --concurrency "${CELERY_CONCURRENCY:-2}" &
WORKER=$!
trap 'kill "$WORKER" 2>/dev/null; wait "$WORKER" 2>/dev/null || true' EXIT INT TERM
echo "make serve: Celery worker $WORKER; gunicorn on ${GUNICORN_BIND:-127.0.0.1:8000}"
$PY -m gunicorn config.wsgi -c config/gunicorn.py
