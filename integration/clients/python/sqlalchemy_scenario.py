"""SQLAlchemy (the psycopg2 dialect) against icegate: the dialect's
connect-time queries, reflection of every table and view through
inspect(engine), and a Core select. Connects to PGHOST:PGPORT as PGUSER."""

import os
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy import types as satypes

from steps import check, equal, finish, step

url = "postgresql+psycopg2://{user}@{host}:{port}/{db}".format(
    user=os.environ.get("PGUSER", "icegate"), host=os.environ.get("PGHOST", "127.0.0.1"),
    port=os.environ.get("PGPORT", "5433"), db=os.environ.get("PGDATABASE", "icegate"))
engine = sa.create_engine(url)
insp = None


@step(f"connect (SQLAlchemy {sa.__version__})")
def _():
    global insp
    with engine.connect() as c:
        equal(c.execute(sa.text("SELECT 1")).scalar(), 1, "SELECT 1")
    insp = sa.inspect(engine)


@step("get_schema_names")
def _():
    names = insp.get_schema_names()
    check("public" in names, f"schemas {names} lack public")


@step("get_table_names")
def _():
    names = insp.get_table_names()
    for want in ("types", "lines"):
        check(want in names, f"tables {names} lack {want}")
    check("types_v" not in names, f"tables {names} include the view types_v")


@step("get_view_names and get_view_definition")
def _():
    equal(insp.get_view_names(), ["types_v"], "views")
    definition = insp.get_view_definition("types_v")
    check(definition and "types" in definition, f"view definition {definition!r}")


WANT_TYPES = {
    "id": satypes.BIGINT, "i": satypes.INTEGER, "si": satypes.SMALLINT, "b": satypes.BOOLEAN,
    "d": satypes.Float, "r": satypes.REAL, "n": satypes.NUMERIC, "s": satypes.TEXT, "vc": satypes.VARCHAR,
    "dt": satypes.DATE, "ts": satypes.TIMESTAMP, "tz": satypes.TIMESTAMP, "tm": satypes.TIME,
    "u": sa.dialects.postgresql.UUID, "by": sa.dialects.postgresql.BYTEA, "ai": sa.dialects.postgresql.ARRAY,
    "at": sa.dialects.postgresql.ARRAY,
}


@step("get_columns of types (types, nullability, comments)")
def _():
    cols = {c["name"]: c for c in insp.get_columns("types")}
    equal(list(cols), list(WANT_TYPES), "column names")
    for name, cls in WANT_TYPES.items():
        check(isinstance(cols[name]["type"], cls), f"column {name}: type {cols[name]['type']!r}, want {cls.__name__}")
    equal((cols["n"]["type"].precision, cols["n"]["type"].scale), (12, 3), "numeric(12, 3)")
    equal(cols["vc"]["type"].length, 20, "varchar(20)")
    equal(cols["tz"]["type"].timezone, True, "timestamptz has a time zone")
    equal(cols["ts"]["type"].timezone, False, "timestamp has no time zone")
    check(isinstance(cols["ai"]["type"].item_type, satypes.INTEGER), f"ai items {cols['ai']['type'].item_type!r}")
    equal(cols["id"]["nullable"], False, "id nullable")
    equal(cols["i"]["nullable"], True, "i nullable")
    equal(cols["s"].get("comment"), "a string", "comment of s")


@step("get_table_comment")
def _():
    equal(insp.get_table_comment("types")["text"], "one column of every common type", "comment")


@step("get_pk_constraint")
def _():
    equal(insp.get_pk_constraint("types")["constrained_columns"], ["id"], "types")
    equal(insp.get_pk_constraint("lines")["constrained_columns"], ["order_id", "line"], "lines")


for table in ("types", "lines", "types_v"):
    @step(f"reflect {table}: columns, pk, indexes, foreign keys, unique constraints")
    def _():
        check(insp.get_columns(table), "no columns")
        insp.get_pk_constraint(table)
        insp.get_indexes(table)
        equal(insp.get_foreign_keys(table), [], "foreign keys")
        insp.get_unique_constraints(table)
        insp.get_check_constraints(table)


@step("reflect every table of every schema (MetaData.reflect)")
def _():
    for schema in insp.get_schema_names():
        md = sa.MetaData()
        md.reflect(engine, schema=schema, views=True)
        if schema == "public":
            check({"public.types", "public.lines", "public.types_v"} <= set(md.tables), f"reflected {sorted(md.tables)}")


@step("Core select on a reflected table")
def _():
    t = sa.Table("types", sa.MetaData(), autoload_with=engine)
    q = sa.select(t.c.id, t.c.n, t.c.s, t.c.ai).where(t.c.id <= sa.bindparam("top")).order_by(t.c.id.desc())
    with engine.connect() as c:
        rows = c.execute(q, {"top": 2}).all()
    equal([tuple(r) for r in rows], [(2, None, None, None), (1, Decimal("12345.678"), "héllo", [1, 2, 3])], "rows")


@step("Core aggregate with a join")
def _():
    md = sa.MetaData()
    lines = sa.Table("lines", md, autoload_with=engine)
    types = sa.Table("types", md, autoload_with=engine)
    q = (sa.select(types.c.id, sa.func.count(), sa.func.sum(lines.c.price))
         .select_from(types.join(lines, lines.c.order_id == types.c.id))
         .group_by(types.c.id).order_by(types.c.id))
    with engine.connect() as c:
        rows = c.execute(q).all()
    equal([tuple(r) for r in rows], [(1, 10, Decimal("181.25")), (2, 10, Decimal("306.25")), (3, 10, Decimal("431.25"))],
          "rows")


finish()
