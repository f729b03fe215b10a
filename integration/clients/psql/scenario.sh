#!/usr/bin/env bash
# psql smoke run: connection info, the describe commands, \copy both ways.
# Connection from PGHOST/PGPORT/PGUSER/PGDATABASE; $1 is a scratch directory.
# (psql's describe output is compared byte for byte elsewhere: here each
# command must succeed and show what setup.sql created.)
set -uo pipefail
dir="$1"
mkdir -p "$dir"

failures=0
# fail NAME MESSAGE: reports a failed step; the first one ends the scenario
# unless ICEGATE_CLIENTS_ALL is set.
fail() {
	echo "FAIL $1: $2"
	failures=$((failures + 1))
	[[ -n "${ICEGATE_CLIENTS_ALL:-}" ]] || exit 1
}

# step NAME WANT SQL...: psql runs the commands; the output must contain WANT.
step() {
	local name="$1" want="$2" out
	shift 2
	local args=()
	for c in "$@"; do args+=(-c "$c"); done
	if ! out="$(psql -X -v ON_ERROR_STOP=1 "${args[@]}" 2>&1)"; then
		fail "$name" "psql failed: $out"
	elif [[ "$out" != *"$want"* ]]; then
		fail "$name" "output does not contain \"$want\":"$'\n'"$out"
	else
		echo "ok   $name"
	fi
}

step '\conninfo' "You are connected to database \"${PGDATABASE:-icegate}\" as user \"${PGUSER:-icegate}\"" '\conninfo'
step '\dt' 'types' '\dt'
step '\d types' 'numeric(12,3)' '\d types'
step '\d types (primary key)' '"types_pkey" PRIMARY KEY' '\d types'
step '\dv' 'types_v' '\dv'
step '\dn' 'public' '\dn'
step '\l' "${PGDATABASE:-icegate}" '\l'
step '\d+ types (comments)' 'a string' '\d+ types'
step '\x' 'id | 1' '\x on' 'SELECT id, s FROM types WHERE id = 1'

step '\copy to a file' 'COPY 1000' "\\copy (SELECT * FROM lines ORDER BY order_id, line) TO '$dir/lines.csv' WITH (FORMAT csv, HEADER)"
lines="$(wc -l <"$dir/lines.csv" 2>/dev/null)"
first="$(head -n 3 "$dir/lines.csv" 2>/dev/null)"
if [[ "$lines" != 1001 ]]; then
	fail '\copy file content' "$lines lines, want 1001 (header + 1000)"
elif [[ "$first" != "$(printf 'order_id,line,qty,price\n0,0,0,0.00\n0,1,1,1.25')" ]]; then
	fail '\copy file content' "unexpected first lines:"$'\n'"$first"
else
	echo "ok   \\copy file content"
fi

step 'create the \copy target' 'CREATE TABLE' 'CREATE TABLE public.psql_copy (order_id bigint, line int, qty int, price numeric(10, 2))'
step '\copy from a file' 'COPY 1000' "\\copy public.psql_copy FROM '$dir/lines.csv' WITH (FORMAT csv, HEADER)"
step '\copy round trip' '1000|499500|624375.00' \
	'\pset format unaligned' '\pset tuples_only on' 'SELECT count(*), sum(qty), sum(price) FROM public.psql_copy'
step '\copy round trip equal' '0' '\pset format unaligned' '\pset tuples_only on' \
	'SELECT count(*) FROM (SELECT * FROM public.psql_copy EXCEPT SELECT * FROM public.lines) x'

# Channel binding: the TLS server of run.sh, SCRAM-SHA-256-PLUS required;
# its audit log must say the login used it.
if [[ -n "${ICEGATE_CLIENTS_TLS_PORT:-}" ]]; then
	conninfo="host=127.0.0.1 port=$ICEGATE_CLIENTS_TLS_PORT sslmode=require channel_binding=require application_name=psql-channel-binding"
	if ! out="$(PGPASSWORD="$ICEGATE_CLIENTS_TLS_PASSWORD" psql -X -At -d "$conninfo" -c 'SELECT 1' 2>&1)" || [[ "$out" != 1 ]]; then
		fail 'channel binding' "psql with channel_binding=require: $out"
	elif ! grep '"application_name":"psql-channel-binding"' "$ICEGATE_CLIENTS_TLS_AUDIT" | grep -q '"mechanism":"SCRAM-SHA-256-PLUS"'; then
		fail 'channel binding' "the audit log has no SCRAM-SHA-256-PLUS login of psql:"$'\n'"$(cat "$ICEGATE_CLIENTS_TLS_AUDIT")"
	else
		echo "ok   channel binding"
	fi
fi

[[ "$failures" -eq 0 ]]
