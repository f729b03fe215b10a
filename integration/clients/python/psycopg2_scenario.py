"""psycopg2 against icegate: parameters of many types, typed results, a
named (server-side) cursor over 1000 rows, copy_expert both ways, cancel,
errors by class and a migration in the default (non-autocommit) transaction. Connects with libpq's PG* environment variables."""

import io
import threading
import time
import uuid
from datetime import date, datetime, time as dtime, timezone
from decimal import Decimal

import psycopg2
import psycopg2.errors
import psycopg2.extras

from steps import check, equal, expect_error, finish, step

psycopg2.extras.register_uuid()
conn = None


@step("connect")
def _():
    global conn
    conn = psycopg2.connect("")


def rollback():
    conn.rollback()


U = uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
TS = datetime(2024, 2, 29, 13, 14, 15, 123456, tzinfo=timezone.utc)


@step("parameters of many types", rollback)
def _():
    params = (42, 2**40, Decimal("-1.50"), "héllo 'q'", date(2024, 2, 29), TS, TS.replace(tzinfo=None),
              U, b"\x00\xff\x10", [1, 2, None], ["a", "b c"], True, 0.1, None)
    with conn.cursor() as cur:
        cur.execute("SELECT %s::int4, %s::int8, %s::numeric, %s::text, %s::date, %s::timestamptz, %s::timestamp, "
                    "%s::uuid, %s::bytea, %s::int4[], %s::text[], %s::bool, %s::float8, %s::int4", params)
        row = list(cur.fetchone())
    row[8] = bytes(row[8])
    equal(row, list(params), "row")
    conn.rollback()


@step("typed results of the table with every type", rollback)
def _():
    with conn.cursor() as cur:
        cur.execute("SELECT id, i, si, b, d, r, n, s, vc, dt, ts, tz, tm, u, by, ai, at FROM types ORDER BY id")
        rows = cur.fetchall()
        names = [d.name for d in cur.description]
    conn.rollback()
    equal(len(rows), 3, "rows")
    want = [1, 42, -7, True, 1.5, 2.25, Decimal("12345.678"), "héllo", "short", date(2024, 1, 31),
            datetime(2024, 1, 31, 12, 34, 56, 500000), datetime(2024, 1, 31, 12, 34, 56, 500000, tzinfo=timezone.utc),
            dtime(10, 11, 12), U, b"\xde\xad\xbe\xef", [1, 2, 3], ["a", "b c"]]
    got = list(rows[0])
    got[14] = bytes(got[14])
    for name, g, w in zip(names, got, want):
        equal(type(g), type(w), f"type of {name}")
        equal(g, w, name)
    check(rows[0][11].utcoffset() is not None, "timestamptz without a time zone")
    equal(list(rows[1][1:]), [None] * 16, "the NULL row")


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


@step("named cursor fetchmany / scroll", rollback)
def _():
    with conn.cursor("scroll_cursor", scrollable=False) as cur:
        cur.execute("SELECT qty FROM lines ORDER BY qty")
        equal([r[0] for r in cur.fetchmany(3)], [0, 1, 2], "first fetchmany")
        equal([r[0] for r in cur.fetchmany(2)], [3, 4], "second fetchmany")
    conn.commit()


csv_out = io.StringIO()


@step("copy_expert COPY (query) TO STDOUT CSV HEADER", rollback)
def _():
    with conn.cursor() as cur:
        cur.copy_expert("COPY (SELECT order_id, line, qty, price FROM lines ORDER BY qty) TO STDOUT WITH (FORMAT csv, HEADER)",
                        csv_out)
    conn.commit()
    lines = csv_out.getvalue().splitlines()
    equal(len(lines), 1001, "lines")
    equal(lines[:3], ["order_id,line,qty,price", "0,0,0,0.00", "0,1,1,1.25"], "first lines")


@step("copy_expert COPY table TO STDOUT", rollback)
def _():
    out = io.StringIO()
    with conn.cursor() as cur:
        cur.copy_expert("COPY types (id, s, ai) TO STDOUT", out)
    conn.commit()
    equal(sorted(out.getvalue().splitlines()), ["1\théllo\t{1,2,3}", "2\t\\N\t\\N", "3\t\t{}"], "text rows")


@step("copy_expert COPY FROM STDIN CSV HEADER", rollback)
def _():
    with conn.cursor() as cur:
        cur.execute("CREATE TABLE py2_copy (order_id bigint, line int, qty int, price numeric(10, 2))")
        conn.commit()
        cur.copy_expert("COPY py2_copy FROM STDIN WITH (FORMAT csv, HEADER)", io.StringIO(csv_out.getvalue()))
        equal(cur.rowcount, 1000, "rowcount")
        conn.commit()
        cur.execute("SELECT count(*), sum(qty), sum(price) FROM py2_copy")
        equal(cur.fetchone(), (1000, 499500, Decimal("624375.00")), "count and sums")
    conn.commit()


@step("executemany INSERT", rollback)
def _():
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO py2_copy VALUES (%s, %s, %s, %s)",
                        [(1000, 0, 10000, Decimal("1.01")), (1000, 1, 10001, None)])
        conn.commit()
        cur.execute("SELECT count(*) FROM py2_copy WHERE order_id = %s", (1000,))
        equal(cur.fetchone()[0], 2, "inserted rows")
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
                "57014", psycopg2.errors.QueryCanceled)
    finally:
        done.set()
        timer.join()
    conn.rollback()
    elapsed = time.monotonic() - start
    check(elapsed < 10, f"cancelled after {elapsed:.1f}s")
    with conn.cursor() as cur:
        cur.execute("SELECT 1")
        equal(cur.fetchone(), (1,), "after the cancel")
    conn.rollback()


@step("a migration in psycopg2's default transaction: CREATE, INSERT, ALTER, INSERT, then commit", rollback)
def _():
    other = psycopg2.connect("")
    try:
        with conn.cursor() as cur:
            cur.execute("CREATE TABLE py_migration (id int, email text)")
            cur.execute("INSERT INTO py_migration VALUES (1, 'a@example.com')")
            cur.execute("ALTER TABLE py_migration ADD COLUMN name text")
            cur.execute("INSERT INTO py_migration VALUES (2, 'b@example.com', %s)", ("Bea",))
            cur.execute("SELECT id, name FROM py_migration ORDER BY id")
            equal(cur.fetchall(), [(1, None), (2, "Bea")], "rows the transaction sees")
        with other.cursor() as cur:
            expect_error(lambda: cur.execute("SELECT * FROM py_migration"), "42P01", psycopg2.errors.UndefinedTable)
        other.rollback()
        conn.commit()
        with other.cursor() as cur:
            cur.execute("SELECT id, name FROM py_migration ORDER BY id")
            equal(cur.fetchall(), [(1, None), (2, "Bea")], "rows after commit")
        other.rollback()
        with conn.cursor() as cur:
            cur.execute("CREATE TABLE py_rolled (a int)")
            cur.execute("ALTER TABLE py_migration ADD COLUMN age int")
        conn.rollback()
        with other.cursor() as cur:
            expect_error(lambda: cur.execute("SELECT * FROM py_rolled"), "42P01", psycopg2.errors.UndefinedTable)
        other.rollback()
        with other.cursor() as cur:
            expect_error(lambda: cur.execute("SELECT age FROM py_migration"), "42703", psycopg2.errors.UndefinedColumn)
        other.rollback()
    finally:
        other.close()


ERRORS = [
    ("SELECT * FROM no_such_table", "42P01", psycopg2.errors.UndefinedTable),
    ("SELECT no_such_column FROM types", "42703", psycopg2.errors.UndefinedColumn),
    ("SELEC 1", "42601", psycopg2.errors.SyntaxError),
    ("SELECT 1 / 0", "22012", psycopg2.errors.DivisionByZero),
    ("SELECT no_such_function(1)", "42883", psycopg2.errors.UndefinedFunction),
    ("SELECT 'x'::int", "22P02", psycopg2.errors.InvalidTextRepresentation),
]
for sql, code, cls in ERRORS:
    @step(f"error class {cls.__name__} ({code})", rollback)
    def _():
        with conn.cursor() as cur:
            expect_error(lambda: cur.execute(sql), code, cls)
        conn.rollback()


@step("InFailedSqlTransaction (25P02) after an error in a transaction", rollback)
def _():
    with conn.cursor() as cur:
        expect_error(lambda: cur.execute("SELECT * FROM no_such_table"), "42P01")
        expect_error(lambda: cur.execute("SELECT 1"), "25P02", psycopg2.errors.InFailedSqlTransaction)
    conn.rollback()
    with conn.cursor() as cur:
        cur.execute("SELECT 1")
    conn.rollback()


finish()
