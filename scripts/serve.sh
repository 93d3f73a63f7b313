#!/usr/bin/env bash
# make serve: paisai in production mode on one host — gunicorn (config/gunicorn.py, the load
# benches' settings), a Celery worker and Celery beat (the stuck-job sweep: a job whose worker
# died is queued again or failed within PAISAI_JOB_STALE_SECONDS + PAISAI_JOB_SWEEP_SECONDS), with PostgreSQL (DATABASE_URL) and Redis (CACHE_URL,
# CELERY_BROKER_URL) required. Put a reverse proxy in front (README, "Production").
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python

fail() { echo "make serve: $*" >&2; exit 2; }
[[ -f var/paisai.env ]] && { set -a; . var/paisai.env; set +a; }  # scripts/venue-box.sh writes it

# gunicorn on a loopback address means a reverse proxy in front (README, "Production"); with
# TRUSTED_PROXIES empty paisai ignores X-Forwarded-For and every client has the proxy's address:
# one address for the audit log and for login throttling, the whole hall as one client (its
# address limit hit by everybody's typos, every user who ever logged in "known" there)
BIND="${GUNICORN_BIND:-127.0.0.1:8000}"
PROXY_WARNING=""
if [[ -z "${TRUSTED_PROXIES:-}" && "$BIND" =~ ^(127\.|localhost|\[::1\]|unix:) ]]; then
  PROXY_WARNING="TRUSTED_PROXIES is empty while gunicorn listens on $BIND behind a proxy"
  {
    echo "################################################################################"
    echo "# WARNING make serve: TRUSTED_PROXIES is empty, and gunicorn listens on $BIND,"
    echo "# so a reverse proxy is in front: every client then has the proxy's address (the"
    echo "# audit log cannot tell phones apart; login throttling treats the hall as one"
    echo "# client). Set TRUSTED_PROXIES to the proxy's address (e.g. TRUSTED_PROXIES=127.0.0.1)."
    echo "# No proxy in front? Bind gunicorn to the venue's address (GUNICORN_BIND=0.0.0.0:8000)."
    echo "################################################################################"
  } >&2
fi
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

mkdir -p var
STOPPING=""
# the worker, started again whenever it stops (killed, out of memory): the beat's sweep then
# queues again the missing work of the jobs it left (their unacknowledged messages would wait
# for the broker's visibility timeout)
(
  trap 'kill "$CHILD" 2>/dev/null; wait "$CHILD" 2>/dev/null; exit 0' TERM INT
  while :; do
    $PY -m celery -A config worker -l warning --concurrency "${CELERY_CONCURRENCY:-2}" &
    CHILD=$!
    wait "$CHILD" || true
    echo "make serve: the Celery worker stopped; starting it again" >&2
    sleep 1
  done
) &
WORKER=$!
# beat runs the sweep; one beat per site (several hosts: set PAISAI_BEAT=0 on all but one)
BEAT=""
if [[ "${PAISAI_BEAT:-1}" != 0 ]]; then
  $PY -m celery -A config beat -l warning &
  BEAT=$!
fi
stop() {
  [[ -n "$STOPPING" ]] && return
  STOPPING=1
  kill $WORKER $BEAT 2>/dev/null || true
  wait $WORKER $BEAT 2>/dev/null || true
}
trap stop EXIT INT TERM
echo "make serve: Celery worker (kept running) $WORKER, beat ${BEAT:-off}; gunicorn on $BIND"
[[ -n "$PROXY_WARNING" ]] && echo "make serve: WARNING $PROXY_WARNING (see above)" >&2
$PY -m gunicorn config.wsgi -c config/gunicorn.py
