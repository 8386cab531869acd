#!/usr/bin/env bash
# The scale-out series (tests/bench/cluster_load.py --series) on a bare machine: one bounded
# run, for the device machine (16 cores, Python 3.12, no network, no PostgreSQL, root).
#
# Here, once:  bash tests/bench/device/prepare.sh     (fills .device-kit/, git-ignored)
# There:       bash tests/bench/device/scaleout.sh    (carry .device-kit and service/gen)
#
# It installs the kit's wheels into /tmp/site, starts the PostgreSQL 16 of the pgserver wheel
# (fsync and synchronous_commit on, as shipped) as an unprivileged user on 127.0.0.1, runs the
# series and writes its output to $OUT/scaleout.txt when $OUT is set. Settings (environment):
# SERIES (1,2,4,8), PER_SERVER_CLIENTS (2), PER_SERVER_INFLIGHT (64), PER_SERVER_COMMANDS
# (4000), LIMIT_S (seconds for each series, 210), COMPARE_LOCK (1: then the same series with
# ANNALES_PG_TABLE_LOCK=1, every insert under the events table's lock), KIT (.device-kit),
# KIT_PG_PORT (5432), PYTHON (python3).
set -uo pipefail
cd "$(dirname "$0")/../../.."
KIT=${KIT:-.device-kit}
PYTHON=${PYTHON:-python3}
PORT=${KIT_PG_PORT:-5432}
SITE=${KIT_SITE:-/tmp/site}
PGDIR=${KIT_PGDATA:-/tmp/annales-pg}
LOG=${OUT:-/tmp}/scaleout.txt
[ -d "$KIT/wheels" ] || { echo "no $KIT/wheels: run tests/bench/device/prepare.sh here first"; exit 2; }
echo "machine: $(nproc) cores, $($PYTHON --version 2>&1), kit for Python $(cat "$KIT/python")" | tee "$LOG"
"$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target "$SITE" "$KIT"/wheels/*.whl || exit 3
export PYTHONPATH="$SITE:$PWD:$PWD/clients/python:$PWD/service/gen"
export ANNALES_PG_HOST=127.0.0.1 ANNALES_PG_PORT=$PORT ANNALES_PG_USER=postgres
BIN="$SITE/pgserver/pginstall/bin"
as_owner() {  # PostgreSQL refuses to run as root
  if [ "$(id -u)" = 0 ]; then runuser -u annalespg -- "$@"; else "$@"; fi
}
if [ "$(id -u)" = 0 ] && ! id annalespg >/dev/null 2>&1; then
  useradd -r -M -s /bin/sh annalespg || exit 4
fi
rm -rf "$PGDIR" && mkdir -p "$PGDIR" && chmod 755 "$PGDIR"
[ "$(id -u)" = 0 ] && chown annalespg "$PGDIR"
as_owner "$BIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust -E UTF8 --locale=C \
  > "$PGDIR/initdb.log" 2>&1 || { cat "$PGDIR/initdb.log"; exit 5; }
as_owner "$BIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -t 60 start -o \
  "-p $PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$PGDIR -c max_connections=600 -c shared_buffers=1GB" \
  || { cat "$PGDIR/server.log"; exit 6; }
"$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -Atc \
  "SELECT version(), current_setting('fsync'), current_setting('synchronous_commit')" | tee -a "$LOG"
series() {  # extra options of cluster_load, e.g. --table-lock
  PYTHONUNBUFFERED=1 timeout "${LIMIT_S:-210}" "$PYTHON" -m tests.bench.cluster_load \
    --series "${SERIES:-1,2,4,8}" --clients "${PER_SERVER_CLIENTS:-2}" \
    --inflight "${PER_SERVER_INFLIGHT:-64}" --commands "${PER_SERVER_COMMANDS:-4000}" "$@" \
    2>&1 | tee -a "$LOG"
  return "${PIPESTATUS[0]}"
}
series
status=$?
if [ "${COMPARE_LOCK:-1}" = 1 ]; then
  series --table-lock || status=$?
fi
as_owner "$BIN/pg_ctl" -D "$PGDIR/data" -m fast stop > /dev/null
exit "$status"
