# The client matrix's ruby-pg scenario (see ../README.md): Debian's ruby-pg
# as a Ruby application uses it. exec_params with typed parameters, text and
# binary; results decoded by PG::BasicTypeMapForResults (json and jsonb as
# Hash and Array, numbers, booleans, dates, arrays); prepare and
# exec_prepared; COPY FROM STDIN with copy_data and COPY TO STDOUT; a
# transaction block and its rollback; PG::Error subclasses and SQLSTATEs.
# It connects with the PG* variables and passes against PostgreSQL 15 too.
require "pg"
require "json"
require "bigdecimal"
require "date"

$failures = 0

# step runs one step and prints ok or FAIL; without ICEGATE_CLIENTS_ALL the
# first failure ends the scenario.
def step(name)
  yield
  puts "ok   #{name}"
rescue StandardError => e
  puts "FAIL #{name}: #{e.class}: #{e.message.lines.first&.strip}"
  $failures += 1
  exit 1 unless ENV["ICEGATE_CLIENTS_ALL"]
end

def check(cond, msg)
  raise msg unless cond
end

conn = nil
step("connect") do
  conn = PG.connect
  check(conn.server_version >= 150000, "server_version #{conn.server_version}")
  conn.exec("SET client_min_messages = warning")
end

step("create table (serial, jsonb, json, numeric, arrays)") do
  conn.exec("DROP TABLE IF EXISTS ruby_items")
  conn.exec(<<~SQL)
    CREATE TABLE ruby_items (
      id serial PRIMARY KEY,
      name text NOT NULL,
      qty integer,
      price numeric(10, 2),
      ok boolean DEFAULT true,
      day date,
      tags text[],
      attrs jsonb,
      raw json,
      at timestamptz DEFAULT now()
    )
  SQL
end

step("exec_params with typed parameters (text and binary)") do
  r = conn.exec_params(
    "INSERT INTO ruby_items (name, qty, price, day, tags, attrs, raw) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    ["widget", 3, "9.99", "2024-02-29", "{a,b}", JSON.generate({ "color" => "red", "sizes" => [1, 2], "n" => nil }), '{"k": [true, false]}']
  )
  check(r[0]["id"] == "1", "id #{r[0]['id'].inspect}")
  # Parameter types given by OID: int4 (23) in binary, text (25).
  r = conn.exec_params("INSERT INTO ruby_items (name, qty) VALUES ($1::text, $2) RETURNING id, qty",
                       [{ value: "gadget", type: 25 }, { value: [7].pack("N"), type: 23, format: 1 }])
  check(r[0]["id"] == "2" && r[0]["qty"] == "7", "row #{r[0].inspect}")
  r = conn.exec_params("SELECT $1::int + 1 AS n, $2::text AS t, $3::bool AS b", [41, nil, true])
  check(r[0] == { "n" => "42", "t" => nil, "b" => "t" }, "row #{r[0].inspect}")
  # Binary results.
  r = conn.exec_params("SELECT qty FROM ruby_items WHERE id = $1", [2], 1)
  check(r.getvalue(0, 0).unpack1("N") == 7, "binary int4 #{r.getvalue(0, 0).inspect}")
end

step("BasicTypeMapForResults: json and jsonb as Hash, typed values") do
  conn.type_map_for_results = PG::BasicTypeMapForResults.new(conn)
  r = conn.exec("SELECT id, name, qty, price, ok, day, tags, attrs, raw, at FROM ruby_items WHERE id = 1")
  row = r[0]
  check(row["id"] == 1 && row["qty"] == 3, "ints #{row.inspect}")
  check(row["price"] == BigDecimal("9.99"), "price #{row['price'].inspect}")
  check(row["ok"] == true, "ok #{row['ok'].inspect}")
  check(row["day"] == Date.new(2024, 2, 29), "day #{row['day'].inspect}")
  check(row["tags"] == %w[a b], "tags #{row['tags'].inspect}")
  check(row["attrs"] == { "color" => "red", "sizes" => [1, 2], "n" => nil }, "jsonb #{row['attrs'].inspect}")
  check(row["raw"] == { "k" => [true, false] }, "json #{row['raw'].inspect}")
  check(row["at"].is_a?(Time), "timestamptz #{row.inspect}")
  check(r.ftype(7) == 3802 && r.ftype(8) == 114, "column types #{r.ftype(7)} #{r.ftype(8)}")
  r = conn.exec("SELECT attrs->'sizes' AS sizes, attrs->>'color' AS color, jsonb_typeof(attrs) AS kind FROM ruby_items WHERE id = 1")
  check(r[0] == { "sizes" => [1, 2], "color" => "red", "kind" => "object" }, "operators #{r[0].inspect}")
ensure
  conn.type_map_for_results = PG::TypeMapAllStrings.new if conn
end

step("BasicTypeMapForQueries encodes Ruby values") do
  conn.type_map_for_queries = PG::BasicTypeMapForQueries.new(conn)
  conn.exec_params("INSERT INTO ruby_items (name, qty, ok, tags) VALUES ($1, $2, $3, $4)", ["sprocket", 11, false, %w[x y z]])
  r = conn.exec_params("SELECT qty, ok, tags FROM ruby_items WHERE name = $1", ["sprocket"])
  check(r[0] == { "qty" => "11", "ok" => "f", "tags" => "{x,y,z}" }, "row #{r[0].inspect}")
ensure
  conn.type_map_for_queries = PG::TypeMapAllStrings.new if conn
end

step("prepare and exec_prepared, describe_prepared") do
  conn.prepare("ruby_by_qty", "SELECT name FROM ruby_items WHERE qty >= $1 ORDER BY qty")
  d = conn.describe_prepared("ruby_by_qty")
  check(d.nparams == 1 && d.paramtype(0) == 23 && d.fname(0) == "name", "describe #{d.nparams} #{d.paramtype(0)}")
  check(conn.exec_prepared("ruby_by_qty", [5]).column_values(0) == %w[gadget sprocket], "qty >= 5")
  check(conn.exec_prepared("ruby_by_qty", [0]).column_values(0) == %w[widget gadget sprocket], "qty >= 0")
  conn.exec("DEALLOCATE ruby_by_qty")
  begin
    conn.exec_prepared("ruby_by_qty", [1])
    raise "exec_prepared after DEALLOCATE succeeded"
  rescue PG::InvalidSqlStatementName
    nil
  end
end

step("COPY FROM STDIN with copy_data, COPY TO STDOUT") do
  conn.copy_data("COPY ruby_items (name, qty, price, attrs) FROM STDIN WITH (FORMAT csv)") do
    conn.put_copy_data(%(bolt,100,0.25,"{""m"": 1}"\n))
    conn.put_copy_data(%(nut,200,0.10,\n))
  end
  rows = []
  conn.copy_data("COPY (SELECT name, qty, attrs FROM ruby_items WHERE qty >= 100 ORDER BY qty) TO STDOUT WITH (FORMAT csv)") do
    while (line = conn.get_copy_data)
      rows << line
    end
  end
  check(rows == [%(bolt,100,"{""m"": 1}"\n), "nut,200,\n"], "copied out #{rows.inspect}")
  check(conn.exec("SELECT max(id) FROM ruby_items").getvalue(0, 0) == "5", "serial ids through COPY")
end

step("transaction: rollback on error, commit") do
  begin
    conn.transaction do |c|
      c.exec("INSERT INTO ruby_items (name) VALUES ('ghost')")
      c.exec("SELECT * FROM ruby_nothing")
    end
    raise "the failing transaction did not raise"
  rescue PG::UndefinedTable => e
    check(e.result.error_field(PG::Result::PG_DIAG_SQLSTATE) == "42P01", "sqlstate")
  end
  check(conn.transaction_status == PG::PQTRANS_IDLE, "status #{conn.transaction_status}")
  check(conn.exec("SELECT count(*) FROM ruby_items WHERE name = 'ghost'").getvalue(0, 0) == "0", "ghost kept")
  conn.transaction do |c|
    c.exec("UPDATE ruby_items SET qty = qty + 1 WHERE name = 'widget'")
    check(c.transaction_status == PG::PQTRANS_INTRANS, "in block #{c.transaction_status}")
  end
  check(conn.exec("SELECT qty FROM ruby_items WHERE name = 'widget'").getvalue(0, 0) == "4", "committed update")
end

step("error classes and fields") do
  cases = {
    "SELECT 1/0" => [PG::DivisionByZero, "22012"],
    "SELECT nope FROM ruby_items" => [PG::UndefinedColumn, "42703"],
    "SELEC 1" => [PG::SyntaxError, "42601"],
    "INSERT INTO ruby_items (name, attrs) VALUES ('x', '{bad')" => [PG::InvalidTextRepresentation, "22P02"],
    "INSERT INTO ruby_items (qty) VALUES (1)" => [PG::NotNullViolation, "23502"],
  }
  cases.each do |sql, (klass, code)|
    begin
      conn.exec(sql)
      raise "#{sql}: no error"
    rescue PG::Error => e
      got = e.result&.error_field(PG::Result::PG_DIAG_SQLSTATE)
      raise "#{sql}: #{e.class} #{got}, want #{klass} #{code}" unless e.is_a?(klass) && got == code
    end
  end
  begin
    conn.exec("SELECT * FROM ruby_nothing")
  rescue PG::UndefinedTable => e
    check(e.result.error_field(PG::Result::PG_DIAG_STATEMENT_POSITION) == "15", "position")
    check(e.result.error_field(PG::Result::PG_DIAG_SEVERITY) == "ERROR", "severity")
  end
end

step("async_exec, send_query with several results, escaping") do
  conn.send_query("SELECT 1 AS a; SELECT 'two' AS b")
  results = []
  while (r = conn.get_result)
    results << r.values
    r.clear
  end
  check(results == [[["1"]], [["two"]]], "results #{results.inspect}")
  name = conn.escape_string("o'brien")
  conn.async_exec("INSERT INTO ruby_items (name) VALUES ('#{name}')")
  check(conn.exec_params("SELECT count(*) FROM ruby_items WHERE name = $1", ["o'brien"]).getvalue(0, 0) == "1", "escaped")
  check(conn.quote_ident("a\"b") == "\"a\"\"b\"", "quote_ident")
end

step("drop") do
  conn.exec("DROP TABLE ruby_items")
  conn.close
end

exit 1 if $failures.positive?
