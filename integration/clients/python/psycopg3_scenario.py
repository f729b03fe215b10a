"""psycopg 3 against icegate: server-side parameters of many types in text
and binary, typed results, prepared statements past prepare_threshold, a
named (server-side) cursor over 1000 rows, COPY both ways (CSV, and binary
rows out), cancel, errors by class, and EXPLAIN (FORMAT JSON) as a parsed plan. Connects with libpq's PG* variables."""

import threading
import time
import uuid
from datetime import date, datetime, time as dtime, timezone
from decimal import Decimal

import psycopg
import psycopg.errors

from steps import check, equal, expect_error, finish, step

conn = None


@step("connect")
def _():
    global conn
    conn = psycopg.connect("")


def rollback():
    conn.rollback()


U = uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
TS = datetime(2024, 2, 29, 13, 14, 15, 123456, tzinfo=timezone.utc)
PARAMS = (42, 2**40, Decimal("-1.50"), "héllo 'q'", date(2024, 2, 29), TS, TS.replace(tzinfo=None),
          U, b"\x00\xff\x10", [1, 2, None], ["a", "b c"], True, 0.1, None)


for fmt, binary in (("text", False), ("binary", True)):
    ph = "%b" if binary else "%t"

    @step(f"{fmt} parameters of many types, {fmt} results", rollback)
    def _():
        with conn.cursor(binary=binary) as cur:
            cur.execute("SELECT " + ", ".join([ph] * len(PARAMS)), PARAMS)
            got = cur.fetchone()
        conn.rollback()
        want = list(PARAMS)
        if not binary:
            want[10] = '{a,"b c"}'  # a list of str goes as unknown[]: PostgreSQL reads text
        for k, (g, w) in enumerate(zip(got, want)):
            if isinstance(w, datetime) and w.tzinfo is not None:
                check(isinstance(g, datetime) and g.utcoffset() is not None, f"column {k}: {g!r} has no time zone")
            equal(g, w, f"column {k}")

    @step(f"typed {fmt} results of the table with every type", rollback)
    def _():
        with conn.cursor(binary=binary) as cur:
            cur.execute("SELECT id, i, si, b, d, r, n, s, vc, dt, ts, tz, tm, u, by, ai, at FROM types ORDER BY id")
            rows = cur.fetchall()
            names = [d.name for d in cur.description]
        conn.rollback()
        equal(len(rows), 3, "rows")
        want = [1, 42, -7, True, 1.5, 2.25, Decimal("12345.678"), "héllo", "short", date(2024, 1, 31),
                datetime(2024, 1, 31, 12, 34, 56, 500000), datetime(2024, 1, 31, 12, 34, 56, 500000, tzinfo=timezone.utc),
                dtime(10, 11, 12), U, b"\xde\xad\xbe\xef", [1, 2, 3], ["a", "b c"]]
        for name, g, w in zip(names, rows[0], want):
            equal(type(g), type(w), f"type of {name}")
            equal(g, w, name)
        equal(list(rows[1][1:]), [None] * 16, "the NULL row")
        equal(list(rows[2][14:]), [b"", [], []], "empty bytea and arrays")


@step("json and jsonb columns: Python objects in text and binary, jsonb normalised", rollback)
def _():
    from psycopg.types.json import Json, Jsonb
    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            cur.execute("DROP TABLE IF EXISTS py_json")
            cur.execute("CREATE TABLE py_json (id int, j jsonb, k json, v varchar(3), s smallint)")
            cur.execute("INSERT INTO py_json VALUES (%s, %s, %s, %s, %s)",
                        (1, Jsonb({"b": {"c": None}, "a": [1, "x"]}), Json({"z": 1, "a": True}), "abc", -2))
            for binary in (False, True):
                with conn.cursor(binary=binary) as bc:
                    bc.execute("SELECT j, k, j::text, v, s FROM py_json")
                    row = bc.fetchone()
                    equal([d.type_code for d in bc.description], [3802, 114, 25, 1043, 21], f"type OIDs (binary={binary})")
                equal(row, ({"a": [1, "x"], "b": {"c": None}}, {"z": 1, "a": True}, '{"a": [1, "x"], "b": {"c": null}}',
                            "abc", -2), f"row (binary={binary})")
            expect_error(lambda: cur.execute("""INSERT INTO py_json (id, j) VALUES (2, '{"a":')"""), "22P02",
                         psycopg.errors.InvalidTextRepresentation)
            expect_error(lambda: cur.execute("INSERT INTO py_json (id, v) VALUES (2, 'abcd')"), "22001",
                         psycopg.errors.StringDataRightTruncation)
            cur.execute("DROP TABLE py_json")
    finally:
        conn.autocommit = False


@step("EXPLAIN (FORMAT JSON): one json value (114) parsed to PostgreSQL's plan tree", rollback)
def _():
    with conn.cursor() as cur:
        cur.execute("EXPLAIN (FORMAT JSON) SELECT count(*) FROM lines WHERE qty > 100")
        equal([d.type_code for d in cur.description], [114], "type OID")
        rows = cur.fetchall()
        equal(len(rows), 1, "one row")
        plan = rows[0][0][0]["Plan"]
        equal((plan["Node Type"], plan["Strategy"]), ("Aggregate", "Plain"), "root")
        scan = plan
        while "Plans" in scan:  # through a Gather when it runs in parallel
            scan = scan["Plans"][0]
        equal((scan["Node Type"], scan["Parent Relationship"], scan["Relation Name"], scan["Filter"]),
              ("Seq Scan", "Outer", "lines", "(qty > 100)"), "scan")
        check(scan["Plan Rows"] > 0 and scan["Total Cost"] > 0, "estimates")
        cur.execute("EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM lines WHERE qty > 100")
        top = cur.fetchone()[0][0]
        equal(top["Plan"]["Plans"][0]["Actual Rows"], 899, "actual rows of the scan")
        equal(top["Plan"]["Plans"][0]["Rows Removed by Filter"], 101, "rows removed")
        check(top["Execution Time"] >= 0 and top["Triggers"] == [], "summary")


@step("one query executed 8 times (prepare_threshold 5)", rollback)
def _():
    with conn.cursor() as cur:
        for k in range(8):
            cur.execute("SELECT id, n, tz, u FROM types WHERE id = %s", (1,))
            equal(cur.fetchone(), (1, Decimal("12345.678"), datetime(2024, 1, 31, 12, 34, 56, 500000, tzinfo=timezone.utc), U),
                  f"execution {k}")
    conn.rollback()


@step("named cursor over 1000 rows in chunks of 100", rollback)
def _():
    with conn.cursor("lines_cursor") as cur:
        cur.itersize = 100
        cur.execute("SELECT order_id, line, qty FROM lines ORDER BY qty")
        n = total = 0
        for order_id, line, qty in cur:
            equal(order_id * 10 + line, qty, f"row {n}")
            n += 1
            total += qty
    conn.commit()
    equal((n, total), (1000, 499500), "rows and sum")


csv_out = bytearray()


@step("COPY (query) TO STDOUT CSV HEADER", rollback)
def _():
    with conn.cursor() as cur:
        with cur.copy("COPY (SELECT order_id, line, qty, price FROM lines ORDER BY qty) TO STDOUT (FORMAT csv, HEADER)") as copy:
            for block in copy:
                csv_out.extend(block)
    conn.commit()
    lines = csv_out.decode().splitlines()
    equal(len(lines), 1001, "lines")
    equal(lines[:3], ["order_id,line,qty,price", "0,0,0,0.00", "0,1,1,1.25"], "first lines")


@step("COPY TO STDOUT (FORMAT binary) read as typed rows", rollback)
def _():
    with conn.cursor() as cur:
        with cur.copy("COPY (SELECT id, n, dt, tz, u, ai FROM types ORDER BY id) TO STDOUT (FORMAT binary)") as copy:
            copy.set_types(["int8", "numeric", "date", "timestamptz", "uuid", "int4[]"])
            rows = list(copy.rows())
    conn.commit()
    equal(rows[0], (1, Decimal("12345.678"), date(2024, 1, 31),
                    datetime(2024, 1, 31, 12, 34, 56, 500000, tzinfo=timezone.utc), U, [1, 2, 3]), "first row")
    equal(rows[1], (2, None, None, None, None, None), "NULL row")


@step("COPY FROM STDIN CSV HEADER", rollback)
def _():
    with conn.cursor() as cur:
        cur.execute("CREATE TABLE py3_copy (order_id bigint, line int, qty int, price numeric(10, 2))")
        conn.commit()
        with cur.copy("COPY py3_copy FROM STDIN (FORMAT csv, HEADER)") as copy:
            copy.write(bytes(csv_out))
        equal(cur.rowcount, 1000, "rowcount")
        conn.commit()
        cur.execute("SELECT count(*), sum(qty), sum(price) FROM py3_copy")
        equal(cur.fetchone(), (1000, 499500, Decimal("624375.00")), "count and sums")
    conn.commit()


@step("COPY FROM STDIN with write_row", rollback)
def _():
    with conn.cursor() as cur:
        with cur.copy("COPY py3_copy (order_id, line, qty, price) FROM STDIN") as copy:
            copy.write_row((1000, 0, 10000, Decimal("1.01")))
            copy.write_row((1000, 1, None, None))
        conn.commit()
        cur.execute("SELECT qty, price FROM py3_copy WHERE order_id = 1000 ORDER BY line")
        equal(cur.fetchall(), [(10000, Decimal("1.01")), (None, None)], "rows")
    conn.commit()


@step("cancel a long query (57014)", rollback)
def _():
    # A cancel that arrives before the query starts is ignored (as by
    # PostgreSQL), so it is repeated until the query ends.
    done = threading.Event()

    def cancel_until_done():
        for _ in range(20):
            if done.wait(0.5):
                return
            conn.cancel()

    timer = threading.Thread(target=cancel_until_done)
    start = time.monotonic()
    timer.start()
    try:
        with conn.cursor() as cur:
            expect_error(lambda: cur.execute(
                "SELECT count(*) FROM generate_series(1, 100000) a CROSS JOIN generate_series(1, 100000) b"),
                "57014", psycopg.errors.QueryCanceled)
    finally:
        done.set()
        timer.join()
    conn.rollback()
    elapsed = time.monotonic() - start
    check(elapsed < 10, f"cancelled after {elapsed:.1f}s")
    equal(conn.execute("SELECT 1").fetchone(), (1,), "after the cancel")
    conn.rollback()


ERRORS = [
    ("SELECT * FROM no_such_table", "42P01", psycopg.errors.UndefinedTable),
    ("SELECT no_such_column FROM types", "42703", psycopg.errors.UndefinedColumn),
    ("SELEC 1", "42601", psycopg.errors.SyntaxError),
    ("SELECT 1 / 0", "22012", psycopg.errors.DivisionByZero),
    ("SELECT no_such_function(1)", "42883", psycopg.errors.UndefinedFunction),
    ("SELECT 'x'::int", "22P02", psycopg.errors.InvalidTextRepresentation),
]
for sql, code, cls in ERRORS:
    @step(f"error class {cls.__name__} ({code})", rollback)
    def _():
        expect_error(lambda: conn.execute(sql), code, cls)
        conn.rollback()


@step("InFailedSqlTransaction (25P02) after an error in a transaction", rollback)
def _():
    expect_error(lambda: conn.execute("SELECT * FROM no_such_table"), "42P01")
    expect_error(lambda: conn.execute("SELECT 1"), "25P02", psycopg.errors.InFailedSqlTransaction)
    conn.rollback()
    conn.execute("SELECT 1")
    conn.rollback()


finish()
