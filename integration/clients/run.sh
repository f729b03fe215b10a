#!/usr/bin/env bash
# The client matrix: builds icegate, serves a fresh warehouse on a free
# loopback port (user icegate, no password), creates the tables of setup.sql
# through psql, and runs one scripted scenario per PostgreSQL client (see
# README.md). Each scenario stops at its first failure with a message saying
# which step failed (with ICEGATE_CLIENTS_ALL=1 it runs every step); this
# script prints one PASS/FAIL line per scenario, the log of each failed one,
# and exits non-zero when any failed.
#
#   integration/clients/run.sh [scenario...]   (default: all of them)
#
# ICEGATE_BIN names a prebuilt binary (otherwise `go build`), ICEGATE_CLIENTS_PORT
# a port to use (otherwise a free one is picked), ICEGATE_CLIENTS_PYTHON and
# ICEGATE_CLIENTS_JDBC_JAR other clients than Debian's. A scenario whose
# client is not installed is skipped, except when CI is set: then it fails.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
all=(psql jdbc psycopg2 psycopg3 sqlalchemy node knex kysely postgresjs pgpromise sequelize typeorm odbc gorm sqlx migrate ruby php perl pgcli)
if [[ $# -gt 0 ]]; then scenarios=("$@"); else scenarios=("${all[@]}"); fi
# Debian's python3 has the Debian client packages; a python earlier on the
# PATH (a virtualenv, pyenv) may not.
python="${ICEGATE_CLIENTS_PYTHON:-/usr/bin/python3}"
jdbc_jar="${ICEGATE_CLIENTS_JDBC_JAR:-/usr/share/java/postgresql.jar}"

work="$(mktemp -d)"
server_pid=""
tls_pid=""
stop_server() {
	local pid="$1"
	if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null
		for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	fi
}
cleanup() {
	stop_server "$server_pid"
	stop_server "$tls_pid"
	rm -rf "$work"
}
trap cleanup EXIT

die() { echo "clients: $*" >&2; exit 1; }

bin="${ICEGATE_BIN:-}"
if [[ -z "$bin" ]]; then
	echo "--- clients: go build"
	(cd "$root" && go build -o "$work/icegate" ./cmd/icegate) || die "go build failed"
	bin="$work/icegate"
fi

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# free_port: prints a port nothing listens on.
free_port() {
	local candidate
	for _ in $(seq 1 50); do
		candidate=$((20000 + RANDOM % 12000)) # below the ephemeral range (32768+): a port some client connection holds passes the probe but not bind
		if ! port_in_use "$candidate"; then echo "$candidate"; return 0; fi
	done
	return 1
}
# wait_serving PID PORT LOG: waits until the server PID accepts on PORT.
wait_serving() {
	for _ in $(seq 1 300); do
		port_in_use "$2" && return 0
		kill -0 "$1" 2>/dev/null || { cat "$3" >&2; die "icegate serve exited early"; }
		sleep 0.1
	done
	cat "$3" >&2
	die "icegate serve not accepting on port $2"
}
port="${ICEGATE_CLIENTS_PORT:-}"
if [[ -z "$port" ]]; then
	port="$(free_port)" || die "no free port found"
fi
port_in_use "$port" && die "port $port is already in use"

mkdir -p "$work/warehouse"
# The server gets none of the ICEGATE_* variables of this script (it rejects
# names it does not know) and so none of the caller's settings either.
(cd "$work" && unset "${!ICEGATE_@}" && exec "$bin" serve --warehouse "$work/warehouse" --listen "127.0.0.1:$port") >"$work/icegate.log" 2>&1 &
server_pid=$!
wait_serving "$server_pid" "$port" "$work/icegate.log"

# A second server for channel binding (SCRAM-SHA-256-PLUS): TLS with a
# self-signed certificate, a password, and an audit log whose
# authentication records name the SASL mechanism each login used. The
# psql and node-postgres scenarios log in there with channel binding and
# check the record of their application_name.
# Without openssl (outside CI) the channel-binding steps are skipped.
if command -v openssl >/dev/null; then
	tls_port="$(free_port)" || die "no free port found"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 -keyout "$work/tls.key" -out "$work/tls.crt" >"$work/openssl.log" 2>&1 ||
		{ cat "$work/openssl.log" >&2; die "openssl could not make a certificate"; }
	printf 'tls:\n  cert: %s\n  key: %s\naudit:\n  file: %s\n' "$work/tls.crt" "$work/tls.key" "$work/tls-audit.jsonl" >"$work/tls.yaml"
	mkdir -p "$work/warehouse-tls"
	(cd "$work" && unset "${!ICEGATE_@}" && ICEGATE_PASSWORD=channel-binding exec "$bin" serve --config "$work/tls.yaml" \
		--warehouse "$work/warehouse-tls" --listen "127.0.0.1:$tls_port") >"$work/icegate-tls.log" 2>&1 &
	tls_pid=$!
	wait_serving "$tls_pid" "$tls_port" "$work/icegate-tls.log"
	export ICEGATE_CLIENTS_TLS_PORT="$tls_port" ICEGATE_CLIENTS_TLS_PASSWORD=channel-binding ICEGATE_CLIENTS_TLS_AUDIT="$work/tls-audit.jsonl"
elif [[ -n "${CI:-}" ]]; then
	die "openssl not found: the channel-binding server needs a certificate"
else
	echo "--- clients: openssl not found; the channel-binding steps are skipped"
fi

# Every client reads where to connect from here (libpq, node-postgres and
# the JDBC and ODBC scenarios alike).
export PGHOST=127.0.0.1 PGPORT="$port" PGUSER=icegate PGDATABASE=icegate PGCONNECT_TIMEOUT=10
unset PGPASSWORD PGSERVICE PGOPTIONS 2>/dev/null || true

command -v psql >/dev/null || die "psql not found: setup.sql needs it"
psql -X -q -v ON_ERROR_STOP=1 -f "$here/setup.sql" >"$work/setup.log" 2>&1 ||
	{ cat "$work/setup.log" >&2; die "setup.sql failed"; }

# needs TOOL...: every tool is on the PATH (or an existing file).
needs() {
	local t
	for t in "$@"; do
		if [[ "$t" == /* ]]; then [[ -e "$t" ]] || { echo "$t"; return 1; }
		else command -v "$t" >/dev/null || { echo "$t"; return 1; }; fi
	done
}

# Each scenario_NAME prints what it does and exits non-zero at the first
# failure; its output goes to a log shown only when it fails.
scenario_psql() { bash "$here/psql/scenario.sh" "$work/psql"; }
scenario_jdbc() {
	# The client JIT only and the serial collector: a short run starts faster.
	mkdir -p "$work/jdbc"
	javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -d "$work/jdbc" -cp "$jdbc_jar" "$here"/jdbc/*.java &&
		java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$jdbc_jar:$work/jdbc" JdbcScenario
}
scenario_psycopg2() { "$python" "$here/python/psycopg2_scenario.py"; }
scenario_psycopg3() { "$python" "$here/python/psycopg3_scenario.py"; }
scenario_sqlalchemy() { "$python" "$here/python/sqlalchemy_scenario.py"; }
# npm_scenario DIR: copies the scenario's package.json, package-lock.json,
# scripts and subdirectories (Knex's migrations) into the temporary directory,
# installs the locked packages there with npm ci (no node_modules in the tree)
# and runs its scenario.js.
npm_scenario() {
	local src="$here/$1" dst="$work/$1" d
	mkdir -p "$dst" && cp "$src"/package.json "$src"/package-lock.json "$src"/*.js "$dst/" || return 1
	for d in "$src"/*/; do
		[[ -d "$d" && "$(basename "$d")" != node_modules ]] || continue
		cp -r "$d" "$dst/" || return 1
	done
	(cd "$dst" && npm ci --no-audit --no-fund --loglevel=error) && node "$dst/scenario.js"
}
scenario_sequelize() { npm_scenario sequelize; }
scenario_typeorm() { npm_scenario typeorm; }
scenario_node() { npm_scenario node; }
scenario_knex() { npm_scenario knex; }
scenario_kysely() { npm_scenario kysely; }
scenario_postgresjs() { npm_scenario postgresjs; }
scenario_pgpromise() { npm_scenario pgpromise; }
scenario_odbc() { bash "$here/odbc/scenario.sh" "$work/odbc"; }
scenario_gorm() { (cd "$here/gorm" && go run .); } # modules through the Go proxy
scenario_sqlx() { (cd "$here/sqlx" && go run .); }
scenario_migrate() { (cd "$here/migrate" && go run .); }
scenario_ruby() { ruby "$here/ruby/scenario.rb"; }
scenario_php() { php "$here/php/scenario.php"; }
scenario_perl() { perl "$here/perl/scenario.pl"; }
scenario_pgcli() { bash "$here/pgcli/scenario.sh" "$work/pgcli"; }

requirements() {
	case "$1" in
	psql) needs psql ;;
	jdbc) needs javac java "$jdbc_jar" ;;
	psycopg2 | psycopg3 | sqlalchemy)
		needs "$python" || return 1
		local mod="$1"
		[[ "$mod" == psycopg3 ]] && mod=psycopg
		"$python" -c "import $mod" 2>/dev/null || { echo "python module $mod"; return 1; }
		;;
	node | knex | kysely | postgresjs | pgpromise | sequelize) needs node npm ;;
	typeorm) # TypeORM 1.x wants Node.js 20.19 or later (Debian 12's is 18)
		needs node npm || return 1
		node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' ||
			{ echo "Node.js 20.19 or later"; return 1; }
		;;
	gorm | sqlx | migrate) needs go ;;
	ruby) needs ruby && { ruby -e 'require "pg"' 2>/dev/null || { echo "ruby-pg (require \"pg\")"; return 1; }; } ;;
	php) needs php && { php -r 'exit(in_array("pgsql", PDO::getAvailableDrivers()) ? 0 : 1);' 2>/dev/null || { echo "php-pgsql (PDO pgsql)"; return 1; }; } ;;
	perl) needs perl && { perl -MDBD::Pg -e 1 2>/dev/null || { echo "libdbd-pg-perl (DBD::Pg)"; return 1; }; } ;;
	pgcli) needs pgcli tmux ;;
	odbc) needs isql && { compgen -G '/usr/lib/*/odbc/psqlodbcw.so' >/dev/null || { echo psqlodbcw.so; return 1; }; } ;;
	*) echo "no scenario named $1"; return 1 ;;
	esac
}

export here work python jdbc_jar
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the tree
passed=0 failed=0 skipped=0
for name in "${scenarios[@]}"; do
	log="$work/$name.log"
	start=$SECONDS
	if ! missing="$(requirements "$name")"; then
		if [[ -n "${CI:-}" || "$missing" == "no scenario named"* ]]; then
			failed=$((failed + 1))
			echo "FAIL $name: not runnable: $missing"
		else
			skipped=$((skipped + 1))
			echo "SKIP $name: $missing not installed"
		fi
		continue
	fi
	if timeout 180 bash -c "$(declare -f npm_scenario "scenario_$name"); scenario_$name" >"$log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS $name ($((SECONDS - start))s)"
	else
		failed=$((failed + 1))
		echo "FAIL $name ($((SECONDS - start))s): $(grep -m1 '^FAIL' "$log" || tail -n 1 "$log")"
		if [[ -n "${ICEGATE_CLIENTS_ALL:-}" ]]; then sed 's/^/    /' "$log"; else tail -n 60 "$log" | sed 's/^/    /'; fi
	fi
done

if ! kill -0 "$server_pid" 2>/dev/null; then
	failed=$((failed + 1))
	echo "FAIL icegate exited during the scenarios:"
	tail -n 40 "$work/icegate.log" | sed 's/^/    /'
fi
echo "clients: $passed passed, $failed failed, $skipped skipped"
[[ "$failed" -eq 0 ]]
