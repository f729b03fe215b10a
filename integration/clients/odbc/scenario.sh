#!/usr/bin/env bash
# psqlODBC through unixODBC's isql: connect, the table listing (isql's
# `help`, SQLTables), the columns of a table (`help types`, SQLColumns) and
# a query with rows. The driver and data source are described in ini files
# in the scratch directory $1 (ODBCSYSINI / ODBCINI), so nothing outside it
# is read or written. Connects to PGHOST:PGPORT as PGUSER.
set -uo pipefail
dir="$1"
mkdir -p "$dir"
driver="${ICEGATE_CLIENTS_ODBC_DRIVER:-$(ls /usr/lib/*/odbc/psqlodbcw.so 2>/dev/null | head -n 1)}"
[[ -n "$driver" ]] || { echo "FAIL connect: psqlodbcw.so not found under /usr/lib/*/odbc"; exit 1; }

cat >"$dir/odbcinst.ini" <<INI
[PostgreSQL Unicode]
Description = psqlODBC (Unicode)
Driver = $driver
INI
cat >"$dir/odbc.ini" <<INI
[icegate]
Driver = PostgreSQL Unicode
Servername = ${PGHOST:-127.0.0.1}
Port = ${PGPORT:-5433}
Database = ${PGDATABASE:-icegate}
Username = ${PGUSER:-icegate}
SSLmode = disable
INI
export ODBCSYSINI="$dir" ODBCINI="$dir/odbc.ini"

failures=0
# fail NAME MESSAGE: reports a failed step; the first one ends the scenario
# unless ICEGATE_CLIENTS_ALL is set.
fail() {
	echo "FAIL $1: $2"
	failures=$((failures + 1))
	[[ -n "${ICEGATE_CLIENTS_ALL:-}" ]] || exit 1
}

# step NAME WANT INPUT: isql runs INPUT; the output must contain WANT (a
# fixed string) and no error.
step() {
	local name="$1" want="$2" input="$3" out
	out="$(printf '%s\n' "$input" | timeout 60 isql -v -b -d'|' icegate 2>&1)"
	local rc=$?
	if [[ $rc -ne 0 || "$out" == *"[ISQL]ERROR"* || "$out" =~ \[[0-9A-Z]{5}\] ]]; then
		fail "$name" "isql exit status $rc:"$'\n'"$(head -n 20 <<<"$out")"
	elif [[ "$out" != *"$want"* ]]; then
		fail "$name" "output does not contain \"$want\":"$'\n'"$(head -n 20 <<<"$out")"
	else
		echo "ok   $name"
	fi
}

step 'connect' '' 'SELECT 1'
step 'help (SQLTables)' "|public|types|TABLE|" 'help'
step 'help (SQLTables) lists the view' "|public|types_v|VIEW|" 'help'
step 'help types (SQLColumns)' "|public|types|vc|" 'help types'
step 'a query with rows' "$(printf '1|héllo|12345.678|2024-01-31 12:34:56.5\n2|||\n3||-0.001|1999-12-31 23:59:59')" \
	"SELECT id, s, n, ts FROM types ORDER BY id"
step 'an aggregate' '1000|499500|624375.00' 'SELECT count(*), sum(qty), sum(price) FROM lines'

[[ "$failures" -eq 0 ]]
