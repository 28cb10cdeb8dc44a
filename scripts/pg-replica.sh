#!/usr/bin/env bash
# A private PostgreSQL primary and a streaming replica of it, made from the PostgreSQL server
# binaries (initdb, pg_ctl, pg_basebackup -R), each on a free port of 127.0.0.1, in a folder of
# their own. For trying `loom serve --read-replica` and for its tests; nothing is shared with a
# PostgreSQL already running on the machine.
#
#   scripts/pg-replica.sh run [--delay MS] -- COMMAND [ARGS...]
#       starts both, runs COMMAND with LOOM_PG_PRIMARY and LOOM_PG_REPLICA set to their URLs,
#       then stops both and removes their folder, whatever COMMAND's outcome (its exit code is kept).
#   scripts/pg-replica.sh start [--delay MS] [--owner PID]
#       starts both and prints LOOM_PG_DIR, LOOM_PG_PRIMARY and LOOM_PG_REPLICA as shell
#       assignments (for eval). With --owner, both are stopped and removed once process PID ends.
#   scripts/pg-replica.sh stop-replica DIR | start-replica DIR
#       stops or starts the replica alone (its slot keeps on the primary the WAL it will need).
#   scripts/pg-replica.sh stop DIR
#       stops both and removes the folder.
#
# --delay MS makes the replica apply each transaction MS milliseconds after its commit on the
# primary (recovery_min_apply_delay), to see what a lagging replica does. The binaries are those
# of the newest /usr/lib/postgresql/*/bin, or of PG_BIN. Run as root, the clusters run as the
# postgres user (PostgreSQL refuses to run as root).
set -euo pipefail

usage() {
  sed -n '/^#   /,/^# --delay/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

find_bin() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "pg-replica: no PostgreSQL server binaries under /usr/lib/postgresql/*/bin; install Debian's postgresql package or set PG_BIN" >&2
    exit 1
  fi
  echo "$bin"
}
BIN=$(find_bin)

# Runs a PostgreSQL binary as the user that owns the clusters.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

port_is_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port() {
  local port
  for _ in $(seq 1 100); do
    port=$((20000 + RANDOM % 40000))
    if port_is_free "$port"; then echo "$port"; return; fi
  done
  echo "pg-replica: found no free port" >&2
  exit 1
}

# pg_ctl start of a data folder; another process may take the port between the check and the
# start, so a cluster that fails to start is given a new port and started again.
start_cluster() {
  local data=$1 log=$2
  for _ in 1 2 3; do
    if as_owner "$BIN/pg_ctl" -D "$data" -l "$log" -w -t 60 start >/dev/null; then return 0; fi
    echo "port = $(free_port)" >>"$data/postgresql.auto.conf"
  done
  echo "pg-replica: the cluster in $data did not start; see $log" >&2
  tail -n 20 "$log" >&2 || true
  return 1
}

port_of() {
  # The last setting wins; ALTER SYSTEM rewrites the file with the value quoted.
  grep -E '^port = ' "$1/postgresql.auto.conf" | tail -n 1 | sed "s/^port = //; s/'//g"
}

url_of() {
  echo "postgresql://postgres@127.0.0.1:$(port_of "$1")/postgres"
}

start_all() {
  local delay=$1 dir
  dir=$(mktemp -d "${TMPDIR:-/tmp}/loom-pg-replica.XXXXXX")
  chmod 755 "$dir"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
  as_owner "$BIN/initdb" -D "$dir/primary" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  # Durability is not the point of a scratch cluster; speed is. The replica needs the WAL senders
  # and a slot, so the primary keeps the WAL a stopped replica has not received yet.
  as_owner tee -a "$dir/primary/postgresql.auto.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = replica
max_wal_senders = 4
max_replication_slots = 4
max_connections = 200
port = $(free_port)
EOF
  start_cluster "$dir/primary" "$dir/primary.log"
  local primary_port
  primary_port=$(port_of "$dir/primary")
  as_owner "$BIN/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$dir/replica" -R -X stream -c fast -C -S loom_replica --no-sync >/dev/null
  # hot_standby_feedback keeps the primary from removing rows a replica's read still needs, so
  # reads are not cancelled by the replay.
  as_owner tee -a "$dir/replica/postgresql.auto.conf" >/dev/null <<EOF
hot_standby = on
hot_standby_feedback = on
recovery_min_apply_delay = '${delay}ms'
port = $(free_port)
EOF
  start_cluster "$dir/replica" "$dir/replica.log"
  echo "$dir"
}

stop_all() {
  local dir=$1
  [ -d "$dir" ] || return 0
  for cluster in replica primary; do
    if [ -f "$dir/$cluster/postmaster.pid" ]; then
      as_owner "$BIN/pg_ctl" -D "$dir/$cluster" -m immediate -w stop >/dev/null 2>&1 || true
    fi
  done
  rm -rf "$dir"
}

check_dir() {
  if [ -z "${1:-}" ] || [ ! -d "$1/primary" ]; then
    echo "pg-replica: ${1:-(none given)} is not a folder that 'pg-replica.sh start' made" >&2
    exit 2
  fi
}

command=${1:-}
[ -n "$command" ] || usage
shift
delay=0
owner=
while [ $# -gt 0 ]; do
  case $1 in
    --delay) delay=${2:?--delay needs milliseconds}; shift 2 ;;
    --owner) owner=${2:?--owner needs a process id}; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
if ! [[ $delay =~ ^[0-9]+$ ]]; then
  echo "pg-replica: --delay takes whole milliseconds, not $delay" >&2
  exit 2
fi

case $command in
  run)
    [ $# -gt 0 ] || usage
    dir=$(start_all "$delay")
    trap 'stop_all "$dir"' EXIT
    trap 'exit 130' INT TERM
    status=0
    LOOM_PG_PRIMARY=$(url_of "$dir/primary") LOOM_PG_REPLICA=$(url_of "$dir/replica") "$@" || status=$?
    exit "$status"
    ;;
  start)
    dir=$(start_all "$delay")
    if [ -n "$owner" ]; then
      # A watcher in a session of its own, so it outlives whatever stops the owner's process group.
      setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; "$2" stop "$3"' watcher "$owner" "$0" "$dir" \
        </dev/null >/dev/null 2>&1 &
    fi
    echo "LOOM_PG_DIR=$dir"
    echo "LOOM_PG_PRIMARY=$(url_of "$dir/primary")"
    echo "LOOM_PG_REPLICA=$(url_of "$dir/replica")"
    ;;
  stop-replica)
    check_dir "${1:-}"
    as_owner "$BIN/pg_ctl" -D "$1/replica" -m fast -w stop >/dev/null
    ;;
  start-replica)
    check_dir "${1:-}"
    start_cluster "$1/replica" "$1/replica.log"
    ;;
  stop)
    check_dir "${1:-}"
    stop_all "$1"
    ;;
  *) usage ;;
esac
