#!/usr/bin/env bash
# A public mirror on a fresh Debian machine (README, "Public mirrors"): its PostgreSQL made a
# hot standby of the venue box's (pg_basebackup -R through the SSH tunnel the venue box
# opens to this machine, on 127.0.0.1:5433), Redis for its own cache, and var/paisai.env for
# `make serve` with PAISAI_MIRROR_OF. Run as root from the clone, with the venue's
# var/paisai.env copied to this machine:
#
#   sudo scripts/mirror-box.sh /path/to/venue-paisai.env https://live.example.org   # then: make serve
#
# Run again to rebuild the mirror from nothing (while the event runs: the venue is not
# stopped, the copy is taken from it live).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) == 0 ]] || { echo "mirror-box: run as root (sudo)" >&2; exit 2; }
VENUE_ENV="${1:?the venue box's var/paisai.env}"
PUBLIC="${2:?this mirror's public address, e.g. https://live.example.org}"
TUNNEL_PORT="${TUNNEL_PORT:-5433}"
venue() { sed -nE "s/^$1=(.*)/\1/p" "$VENUE_ENV"; }
VENUE_URL=$(venue PUBLIC_URL)
MIRROR_PASSWORD=$(venue MIRROR_PASSWORD)
DATABASE_URL=$(venue DATABASE_URL | sed -E "s|@[^/]*/|@127.0.0.1:5432/|")

apt-get update -q
apt-get install -y -q postgresql redis-server python3 python3-venv make gettext openssl
systemctl enable --now redis-server
read -r VERSION CLUSTER _ < <(pg_lsclusters -h | head -1)
DATA=/var/lib/postgresql/$VERSION/$CLUSTER
pg_ctlcluster "$VERSION" "$CLUSTER" stop || true
rm -rf "$DATA"
echo "127.0.0.1:$TUNNEL_PORT:*:mirror:$MIRROR_PASSWORD" > ~postgres/.pgpass
chown postgres: ~postgres/.pgpass && chmod 600 ~postgres/.pgpass
runuser -u postgres -- pg_basebackup -h 127.0.0.1 -p "$TUNNEL_PORT" -U mirror -D "$DATA" \
  -R -X stream --checkpoint=fast -P
cat >> /etc/postgresql/"$VERSION"/"$CLUSTER"/conf.d/mirror.conf <<CONF
hot_standby = on
wal_receiver_timeout = '20s'          # a dropped uplink is noticed within 20 s
wal_retrieve_retry_interval = '2s'    # and the link retried every 2 s once it is back
max_standby_streaming_delay = '5s'    # a long public query never holds replay back longer
CONF
pg_ctlcluster "$VERSION" "$CLUSTER" start

mkdir -p var && chmod 700 var
HOST=$(sed -E 's|^https?://([^/:]*).*|\1|' <<<"$PUBLIC")
cat > var/paisai.env <<ENV
# written by scripts/mirror-box.sh; read by make serve (scripts/serve.sh)
PAISAI_MIRROR_OF=$VENUE_URL
SECRET_KEY=$(openssl rand -hex 32)
DATABASE_URL=$DATABASE_URL
CACHE_URL=redis://127.0.0.1:6379/1
ALLOWED_HOSTS=$HOST,localhost,127.0.0.1
PUBLIC_URL=$PUBLIC
USE_X_FORWARDED_PROTO=1
ENV
chmod 600 var/paisai.env
sudo_user="${SUDO_USER:-root}"
chown -R "$sudo_user" var
runuser -u "$sudo_user" -- make install
echo "mirror-box: standby of the venue streaming; start the site with: make serve"
