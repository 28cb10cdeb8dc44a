#!/bin/sh
# Serves the book club from a fresh database beside this script (with a fresh media folder): applies
# the schema, imports the data, prints a token for Ana and starts the server (Ctrl-C stops it).
set -e
here=$(cd "$(dirname "$0")" && pwd)
loom="$here/../../bin/loom"
db="${LOOM_DB:-$here/club.db}"
# A new database starts with no photos or snapshots: the old one's go with it.
case "$db" in postgres*) ;; *) rm -rf "$db" "$db-wal" "$db-shm" "$db-media" "$db.snapshots" ;; esac
"$loom" schema apply "$here/bookclub.loom.yaml" --db "$db"
"$loom" import --data "$here/data.ndjson" --db "$db"
"$loom" token --db "$db" --principal ana --scopes reading_activity,publish
exec "$loom" serve --db "$db" --no-demo
