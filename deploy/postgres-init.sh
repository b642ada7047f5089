#!/bin/bash
# Run once by the postgres image on a new data folder (/docker-entrypoint-initdb.d): the
# keizerbot service's own role, owner of its own database and no superuser. Row level
# security is what keeps each club to its own rows, and a superuser passes every policy:
# keizerbot refuses to run as one. Its password is PGPASSWORD (hosted.env), which keizerbot
# reads as asyncpg does.
set -euo pipefail
: "${PGPASSWORD:?set PGPASSWORD in hosted.env: the password of the keizerbot role}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    --set=password="$PGPASSWORD" <<'SQL'
CREATE ROLE keizerbot LOGIN PASSWORD :'password';
CREATE DATABASE keizerbot OWNER keizerbot;
SQL
