#!/usr/bin/env bash
# Sourced by .ci/run: PostgreSQL up (started when it is down) and a scratch database for the
# PostgreSQL half of the tests, exported as LOOM_TEST_PG. The scratch database is dropped when
# the sourcing shell exits, whatever the outcome. A LOOM_TEST_PG given by the environment is
# used as it is instead.

export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"

start_postgres() {
  # The cluster listening on $PGPORT, as Debian's postgresql-common lists it.
  local cluster
  cluster=$(pg_lsclusters --no-header | awk -v port="$PGPORT" '$3 == port { print $1, $2; exit }')
  if [ -z "$cluster" ]; then
    echo "ci: no PostgreSQL cluster is set up on port $PGPORT" >&2
    exit 1
  fi
  echo "ci: PostgreSQL is not running; starting cluster $cluster"
  # shellcheck disable=SC2086 # "version name", two words on purpose
  pg_ctlcluster --skip-systemctl-redirect $cluster start
  for _ in $(seq 1 30); do
    pg_isready --quiet && return 0
    sleep 1
  done
  echo "ci: PostgreSQL did not accept connections within 30 seconds" >&2
  exit 1
}

if [ -z "${LOOM_TEST_PG:-}" ]; then
  pg_isready --quiet || start_postgres
  database="loom_ci_$(date +%s)_$$"
  createdb "$database"
  trap 'dropdb --if-exists --force "$database"' EXIT
  export LOOM_TEST_PG="postgresql://$PGUSER@$PGHOST:$PGPORT/$database"
  echo "ci: tests use the scratch database $database"
fi
