#!/usr/bin/env bash
# pgcli driven in tmux as a person uses it: it starts against the server
# (sending its introspection queries for completion), then completion
# after "SELECT * FROM " lists the tables and after "... WHERE " the table's
# columns; \dt and \d table; quit. Every query pgcli sent must have
# succeeded: its log (log_level DEBUG, in the scratch directory $1 through
# XDG_CONFIG_HOME) has no ERROR and its stderr no traceback, and the
# server's log, when run.sh gives it ($work/icegate.log), no internal
# error. Creates its own table through psql; connects to PGHOST:PGPORT as
# PGUSER.
set -uo pipefail
dir="$1"
mkdir -p "$dir/config/pgcli"
session="icegate-pgcli-$$"
cat >"$dir/config/pgcli/config" <<'INI'
[main]
smart_completion = True
multi_line = False
log_file = default
log_level = DEBUG
enable_pager = False
keyring = False
less_chatty = True
timing = False
show_bottom_toolbar = False
INI

failures=0
# fail NAME MESSAGE: reports a failed step; the first one ends the scenario
# unless ICEGATE_CLIENTS_ALL is set.
fail() {
	echo "FAIL $1: $2"
	failures=$((failures + 1))
	if [[ -z "${ICEGATE_CLIENTS_ALL:-}" ]]; then
		finish
		exit 1
	fi
}
finish() { tmux kill-session -t "$session" 2>/dev/null || true; }
trap finish EXIT

screen() { tmux capture-pane -p -t "$session" 2>/dev/null; }

# wait_for TEXT [SECONDS]: waits until the pane shows TEXT (a fixed string).
wait_for() {
	local want="$1" limit="${2:-20}" i
	for ((i = 0; i < limit * 10; i++)); do
		[[ "$(screen)" == *"$want"* ]] && return 0
		sleep 0.1
	done
	return 1
}

# type_line TEXT: clears the input line and types TEXT (without Enter).
# No Escape: emacs mode reads it as Meta for the next key, so Escape then
# Enter inserts a newline instead of running the line.
type_line() {
	tmux send-keys -t "$session" C-u
	tmux send-keys -t "$session" -l "$1"
}

# run_line TEXT: types TEXT and runs it.
run_line() {
	type_line "$1"
	sleep 0.5
	tmux send-keys -t "$session" Enter
}

# completes TEXT WANT...: types TEXT until the completion menu shows every
# WANT: the menu comes from the refresh pgcli runs in the background at
# start, so typing before it ended shows none and is retried.
completes() {
	local text="$1" i w ok
	shift
	for ((i = 0; i < 20; i++)); do
		type_line "$text"
		sleep 1
		ok=1
		for w in "$@"; do [[ "$(screen)" == *"$w"* ]] || ok=0; done
		[[ $ok == 1 ]] && return 0
	done
	return 1
}

psql -X -q -v ON_ERROR_STOP=1 >"$dir/setup.log" 2>&1 <<'SQL' || { echo "FAIL setup: $(cat "$dir/setup.log")"; exit 1; }
SET client_min_messages = warning;
DROP TABLE IF EXISTS pgcli_orders;
CREATE TABLE pgcli_orders (order_id bigint PRIMARY KEY, customer_name text, amount numeric(10,2), placed_at timestamptz);
INSERT INTO pgcli_orders VALUES (1, 'ada', 12.50, '2024-01-02 03:04:05+00');
SQL

command -v tmux >/dev/null || { echo "FAIL start: tmux not found"; exit 1; }
tmux new-session -d -s "$session" -x 160 -y 40 \
	"env XDG_CONFIG_HOME='$dir/config' PGHOST='${PGHOST:-}' PGPORT='${PGPORT:-}' PGUSER='${PGUSER:-}' PGDATABASE='${PGDATABASE:-}' pgcli 2>'$dir/stderr'; sleep 600"
prompt="${PGDATABASE:-}>"
if wait_for "$prompt" 30; then echo "ok   start: prompt shown"; else fail "start" "no prompt: $(screen | head -n 20)"; fi

if completes 'SELECT * FROM ' 'pgcli_orders' && [[ "$(screen)" == *"pgcli_orders"*"table"* ]]; then
	echo "ok   completion after FROM lists the tables"
else
	fail "completion after FROM lists the tables" "$(screen | head -n 15)"
fi

if completes 'SELECT * FROM pgcli_orders WHERE ' 'customer_name' 'placed_at' 'order_id'; then
	echo "ok   completion after WHERE lists the columns"
else
	fail "completion after WHERE lists the columns" "$(screen | head -n 15)"
fi

tmux send-keys -t "$session" C-l
sleep 0.3
run_line 'SELECT amount FROM pgcli_orders'
if wait_for '12.50' 10; then echo "ok   a query"; else fail "a query" "$(screen | head -n 15)"; fi

tmux send-keys -t "$session" C-l
sleep 0.3
run_line '\dt'
if wait_for '| pgcli_orders' 10; then echo "ok   \\dt"; else fail '\dt' "$(screen | head -n 15)"; fi

tmux send-keys -t "$session" C-l
sleep 0.3
run_line '\d pgcli_orders'
if wait_for 'customer_name' 10 && wait_for 'numeric(10,2)' 2 && wait_for 'pgcli_orders_pkey' 2; then
	echo "ok   \\d table"
else
	fail '\d table' "$(screen | head -n 25)"
fi

run_line '\q'
quit=0
for _ in $(seq 1 50); do
	tmux list-panes -t "$session" -F '#{pane_current_command}' 2>/dev/null | grep -q '^sleep$' && { quit=1; break; }
	sleep 0.1
done
if [[ $quit == 1 ]]; then echo "ok   quit"; else fail "quit" "pgcli still running: $(screen | tail -n 5)"; fi

log="$dir/config/pgcli/log"
if [[ ! -s "$log" ]] || ! grep -q 'Schemata Query' "$log"; then
	fail "introspection queries" "pgcli logged no queries in $log"
elif grep -q ' ERROR - ' "$log" || grep -q 'Traceback' "$dir/stderr"; then
	fail "introspection queries" "$(grep -h -A2 ' ERROR - \|Traceback' "$log" "$dir/stderr" | head -n 20)"
elif [[ -n "${work:-}" && -f "$work/icegate.log" ]] && grep -q 'internal error\|panic' "$work/icegate.log"; then
	fail "introspection queries" "the server logged: $(grep -m 3 'internal error\|panic' "$work/icegate.log")"
else
	echo "ok   introspection queries all succeeded ($(grep -c 'Query. sql\|sql: ' "$log") logged)"
fi

psql -X -q -c 'DROP TABLE pgcli_orders' >/dev/null 2>&1 || fail "drop" "DROP TABLE pgcli_orders failed"
[[ $failures -eq 0 ]]
