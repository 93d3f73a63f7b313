#!/usr/bin/env bash
# The venue box on a fresh Debian machine (README, "The venue box"): PostgreSQL, Redis and
# Python from Debian, the paisai database, a replication role for public mirrors, and
# var/paisai.env, which `make serve` reads. Run once, as root, from the clone:
#
#   sudo scripts/venue-box.sh [ADDRESS]      # then: make serve
#
# ADDRESS is the box's fixed address on the venue's network (default: its first address);
# phones, table links and QR codes use http://ADDRESS:8000/. Running it again keeps the
# database and the passwords.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) == 0 ]] || { echo "venue-box: run as root (sudo)" >&2; exit 2; }
ADDRESS="${1:-$(hostname -I | awk '{print $1}')}"
PORT="${VENUE_PORT:-8000}"
ENV_FILE=var/paisai.env

apt-get update -q
apt-get install -y -q postgresql redis-server python3 python3-venv make gettext openssl
systemctl enable --now postgresql redis-server

mkdir -p var && chmod 700 var
if [[ ! -f $ENV_FILE ]]; then
  DB_PASSWORD=$(openssl rand -hex 16)
  MIRROR_PASSWORD=$(openssl rand -hex 16)
  cat > $ENV_FILE <<ENV
# written by scripts/venue-box.sh; read by make serve (scripts/serve.sh)
SECRET_KEY=$(openssl rand -hex 32)
DATABASE_URL=postgres://paisai:$DB_PASSWORD@127.0.0.1:5432/paisai
CACHE_URL=redis://127.0.0.1:6379/1
CELERY_BROKER_URL=redis://127.0.0.1:6379/0
ALLOWED_HOSTS=$ADDRESS,localhost,127.0.0.1
CSRF_TRUSTED_ORIGINS=http://$ADDRESS:$PORT
PUBLIC_URL=http://$ADDRESS:$PORT
GUNICORN_BIND=0.0.0.0:$PORT
SECURE_SSL_REDIRECT=0
SESSION_COOKIE_SECURE=0
CSRF_COOKIE_SECURE=0
SECURE_HSTS_SECONDS=0
MIRROR_PASSWORD=$MIRROR_PASSWORD
ENV
  chmod 600 $ENV_FILE
fi
set -a; . $ENV_FILE; set +a
DB_PASSWORD=$(sed -E 's|.*//paisai:([^@]*)@.*|\1|' <<<"$DATABASE_URL")

psql_() { runuser -u postgres -- psql -v ON_ERROR_STOP=1 -qtAc "$1"; }
[[ $(psql_ "SELECT 1 FROM pg_roles WHERE rolname = 'paisai'") == 1 ]] || psql_ "CREATE ROLE paisai LOGIN"
psql_ "ALTER ROLE paisai PASSWORD '$DB_PASSWORD'"
# the mirrors read the replication state (how fresh they are) as this role
psql_ "GRANT pg_read_all_stats TO paisai"
[[ $(psql_ "SELECT 1 FROM pg_database WHERE datname = 'paisai'") == 1 ]] \
  || runuser -u postgres -- createdb -O paisai paisai
# public mirrors stream the WAL as this role, through an SSH tunnel (README, "Public mirrors")
[[ $(psql_ "SELECT 1 FROM pg_roles WHERE rolname = 'mirror'") == 1 ]] \
  || psql_ "CREATE ROLE mirror LOGIN REPLICATION"
psql_ "ALTER ROLE mirror PASSWORD '$MIRROR_PASSWORD'"
# keep enough WAL for a mirror cut off for an hour at 50 results a second (README figures)
psql_ "ALTER SYSTEM SET wal_keep_size = '4GB'"
psql_ "ALTER SYSTEM SET max_wal_senders = 10"
systemctl restart postgresql

sudo_user="${SUDO_USER:-root}"
chown -R "$sudo_user" var
runuser -u "$sudo_user" -- make install
echo "venue-box: ready. Start it with: make serve   (phones: http://$ADDRESS:$PORT/)"
