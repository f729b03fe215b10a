// pgJDBC against icegate: DatabaseMetaData, PreparedStatement with every
// parameter type and NULLs, fetch size with autocommit off (portal
// suspension), server-side prepared statements past prepareThreshold,
// Statement.cancel and SQLStates. Connects to PGHOST:PGPORT as PGUSER.
// Exits 1 at the first failure, naming the step; with ICEGATE_CLIENTS_ALL
// set it runs every step and exits 1 at the end if any failed.

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

public class JdbcScenario {
    interface Body {
        void run() throws Exception;
    }

    private static final boolean ALL = !env("ICEGATE_CLIENTS_ALL", "").isEmpty();
    private static int failures;
    private static Connection conn;

    public static void main(String[] args) {
        try {
            conn = connect();
            System.out.println("ok   connect");
        } catch (SQLException e) {
            System.out.println("FAIL connect: " + e + " [SQLState " + e.getSQLState() + "]");
            System.exit(1);
        }
        metadata(conn);
        resultMetadata(conn);
        parameters(conn);
        fetchSize(conn);
        serverPrepared(conn);
        cancel(conn);
        errors(conn);
        System.exit(failures == 0 ? 0 : 1);
    }

    // step runs one named step and reports it.
    static void step(String name, Body body) {
        try {
            body.run();
            System.out.println("ok   " + name);
        } catch (Throwable e) {
            failures++;
            String state = e instanceof SQLException ? " [SQLState " + ((SQLException) e).getSQLState() + "]" : "";
            System.out.println("FAIL " + name + ": " + e + state);
            StackTraceElement[] trace = e.getStackTrace();
            for (StackTraceElement el : trace) {
                if (el.getClassName().startsWith("JdbcScenario")) {
                    System.out.println("    at " + el);
                    break;
                }
            }
            if (!ALL) {
                System.exit(1);
            }
            try {
                if (!conn.getAutoCommit()) {
                    conn.rollback();
                    conn.setAutoCommit(true);
                }
            } catch (SQLException ignored) {
                // the next step reports a broken connection
            }
        }
    }

    static void check(boolean cond, String what) {
        if (!cond) {
            throw new AssertionError(what);
        }
    }

    static void equal(Object got, Object want, String what) {
        if (!Objects.equals(got, want)) {
            throw new AssertionError(what + ": got " + got + ", want " + want);
        }
    }

    static Connection connect() throws SQLException {
        String url = "jdbc:postgresql://" + env("PGHOST", "127.0.0.1") + ":" + env("PGPORT", "5433") + "/"
                + env("PGDATABASE", "icegate");
        Properties p = new Properties();
        p.setProperty("user", env("PGUSER", "icegate"));
        p.setProperty("connectTimeout", "10");
        return DriverManager.getConnection(url, p);
    }

    static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? dflt : v;
    }

    static List<String> strings(ResultSet rs, String column) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                out.add(rs.getString(column));
            }
        }
        return out;
    }

    static void metadata(Connection c) {
        DatabaseMetaData md;
        try {
            md = c.getMetaData();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }

        step("getCatalogs", () -> {
            List<String> catalogs = strings(md.getCatalogs(), "TABLE_CAT");
            String db = env("PGDATABASE", "icegate");
            check(catalogs.contains(db), "catalogs " + catalogs + " lack " + db);
        });

        step("getSchemas", () -> {
            List<String> schemas = strings(md.getSchemas(), "TABLE_SCHEM");
            check(schemas.contains("public"), "schemas " + schemas + " lack public");
        });

        step("getTables", () -> {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = md.getTables(null, "public", "%", new String[] {"TABLE", "VIEW"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
                }
            }
            for (String want : new String[] {"types:TABLE", "lines:TABLE", "types_v:VIEW"}) {
                check(tables.contains(want), "tables " + tables + " lack " + want);
            }
        });

        step("getTables remarks", () -> {
            try (ResultSet rs = md.getTables(null, "public", "types", null)) {
                check(rs.next(), "no row for table types");
                equal(rs.getString("REMARKS"), "one column of every common type", "REMARKS");
            }
        });

        step("getColumns", () -> {
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, "public", "types", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getInt("DATA_TYPE") + ":" + rs.getString("TYPE_NAME")
                            + ":" + rs.getInt("ORDINAL_POSITION"));
                    if (rs.getString("COLUMN_NAME").equals("n")) {
                        equal(rs.getInt("COLUMN_SIZE"), 12, "COLUMN_SIZE of n");
                        equal(rs.getInt("DECIMAL_DIGITS"), 3, "DECIMAL_DIGITS of n");
                    }
                    if (rs.getString("COLUMN_NAME").equals("s")) {
                        equal(rs.getString("REMARKS"), "a string", "REMARKS of s");
                    }
                    if (rs.getString("COLUMN_NAME").equals("id")) {
                        equal(rs.getString("IS_NULLABLE"), "NO", "IS_NULLABLE of id");
                    }
                }
            }
            List<String> want = Arrays.asList("id:" + Types.BIGINT + ":int8:1", "i:" + Types.INTEGER + ":int4:2",
                    "si:" + Types.SMALLINT + ":int2:3", "b:" + Types.BIT + ":bool:4", "d:" + Types.DOUBLE + ":float8:5",
                    "r:" + Types.REAL + ":float4:6", "n:" + Types.NUMERIC + ":numeric:7", "s:" + Types.VARCHAR + ":text:8",
                    "vc:" + Types.VARCHAR + ":varchar:9", "dt:" + Types.DATE + ":date:10",
                    "ts:" + Types.TIMESTAMP + ":timestamp:11", "tz:" + Types.TIMESTAMP + ":timestamptz:12",
                    "tm:" + Types.TIME + ":time:13", "u:" + Types.OTHER + ":uuid:14", "by:" + Types.BINARY + ":bytea:15",
                    "ai:" + Types.ARRAY + ":_int4:16", "at:" + Types.ARRAY + ":_text:17");
            equal(columns, want, "columns of types");
        });

        step("getPrimaryKeys", () -> {
            List<String> keys = new ArrayList<>();
            try (ResultSet rs = md.getPrimaryKeys(null, "public", "lines")) {
                while (rs.next()) {
                    keys.add(rs.getString("COLUMN_NAME") + ":" + rs.getInt("KEY_SEQ"));
                }
            }
            equal(keys, Arrays.asList("order_id:1", "line:2"), "primary key of lines");
        });

        step("getTypeInfo", () -> {
            List<String> types = strings(md.getTypeInfo(), "TYPE_NAME");
            for (String t : new String[] {"int4", "int8", "text", "numeric", "timestamptz", "uuid", "bytea"}) {
                check(types.contains(t), "getTypeInfo lacks " + t + " (has " + types.size() + " types)");
            }
        });

        step("getIndexInfo (the primary key's index)", () -> {
            List<String> index = new ArrayList<>();
            try (ResultSet rs = md.getIndexInfo(null, "public", "lines", false, false)) {
                while (rs.next()) {
                    index.add(rs.getString("INDEX_NAME") + ":" + rs.getBoolean("NON_UNIQUE") + ":" + rs.getString("COLUMN_NAME")
                            + ":" + rs.getInt("ORDINAL_POSITION"));
                }
            }
            equal(index, Arrays.asList("lines_pkey:false:order_id:1", "lines_pkey:false:line:2"), "indexes of lines");
        });

        step("getImportedKeys / getExportedKeys (none)", () -> {
            try (ResultSet rs = md.getImportedKeys(null, "public", "types")) {
                check(!rs.next(), "an imported key");
            }
            try (ResultSet rs = md.getExportedKeys(null, "public", "types")) {
                check(!rs.next(), "an exported key");
            }
        });

        step("getDatabaseProductName / Version", () -> {
            equal(md.getDatabaseProductName(), "PostgreSQL", "product name");
            check(md.getDatabaseMajorVersion() >= 10, "major version " + md.getDatabaseMajorVersion());
        });
    }

    static void resultMetadata(Connection c) {
        step("ResultSetMetaData (types, base table and column, nullability)", () -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT id, n, s, 1 AS one FROM public.types")) {
                ResultSetMetaData rmd = rs.getMetaData();
                org.postgresql.PGResultSetMetaData pmd = rmd.unwrap(org.postgresql.PGResultSetMetaData.class);
                equal(rmd.getColumnTypeName(1), "int8", "type of id");
                equal(rmd.getColumnTypeName(2), "numeric", "type of n");
                equal(rmd.getPrecision(2), 12, "precision of n");
                equal(rmd.getScale(2), 3, "scale of n");
                equal(pmd.getBaseTableName(1), "types", "base table of id");
                equal(pmd.getBaseSchemaName(1), "public", "base schema of id");
                equal(pmd.getBaseColumnName(3), "s", "base column of s");
                equal(rmd.isNullable(1), ResultSetMetaData.columnNoNulls, "id nullable");
                equal(rmd.isNullable(3), ResultSetMetaData.columnNullable, "s nullable");
                equal(rmd.isAutoIncrement(1), false, "id auto-increment");
                equal(pmd.getBaseTableName(4), "", "base table of a literal");
            }
        });
    }

    static final String PARAM_COLUMNS = "id, i, si, b, d, r, n, s, vc, dt, ts, tz, u, by, ai, at";

    static final String INSERT = "INSERT INTO public.jdbc_params (" + PARAM_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    static final int[] NULL_TYPES = {Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.BOOLEAN, Types.DOUBLE, Types.REAL,
        Types.NUMERIC, Types.VARCHAR, Types.VARCHAR, Types.DATE, Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE, Types.OTHER,
        Types.BINARY, Types.ARRAY, Types.ARRAY};

    static void parameters(Connection c) {
        step("create the parameter table", () -> {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE public.jdbc_params (id bigint, i int, si smallint, b boolean, d float8, r real, "
                        + "n numeric(12, 3), s text, vc varchar(20), dt date, ts timestamp, tz timestamptz, u uuid, by bytea, "
                        + "ai int[], at text[])");
            }
        });

        UUID uuid = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        Date date = Date.valueOf("2024-02-29");
        Timestamp ts = Timestamp.valueOf("2024-02-29 13:14:15.123456");
        byte[] bytes = new byte[] {0, (byte) 0xff, 0x10};
        BigDecimal dec = new BigDecimal("-12345.678");

        step("PreparedStatement INSERT with every parameter type", () -> {
            try (PreparedStatement ps = c.prepareStatement(INSERT)) {
                ps.setLong(1, 1L);
                ps.setInt(2, 2147483647);
                ps.setShort(3, (short) -32768);
                ps.setBoolean(4, true);
                ps.setDouble(5, 1e20);
                ps.setFloat(6, 1.5f);
                ps.setBigDecimal(7, dec);
                ps.setString(8, "héllo wörld");
                ps.setString(9, "varchar");
                ps.setDate(10, date);
                ps.setTimestamp(11, ts);
                ps.setTimestamp(12, ts);
                ps.setObject(13, uuid);
                ps.setBytes(14, bytes);
                ps.setArray(15, c.createArrayOf("int4", new Integer[] {1, null, 3}));
                ps.setArray(16, c.createArrayOf("text", new String[] {"a", "b c"}));
                equal(ps.executeUpdate(), 1, "update count");
            }
        });

        step("PreparedStatement INSERT with setNull", () -> {
            try (PreparedStatement ps = c.prepareStatement(INSERT)) {
                ps.setLong(1, 2L);
                for (int k = 2; k <= NULL_TYPES.length; k++) {
                    ps.setNull(k, NULL_TYPES[k - 1]);
                }
                equal(ps.executeUpdate(), 1, "update count");
            }
        });

        step("typed results of the parameter row", () -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + PARAM_COLUMNS + " FROM public.jdbc_params WHERE id = ?")) {
                ps.setLong(1, 1L);
                try (ResultSet rs = ps.executeQuery()) {
                    check(rs.next(), "no row with id 1");
                    equal(rs.getLong("id"), 1L, "id");
                    equal(rs.getInt("i"), 2147483647, "i");
                    equal(rs.getShort("si"), (short) -32768, "si");
                    equal(rs.getBoolean("b"), true, "b");
                    equal(rs.getDouble("d"), 1e20, "d");
                    equal(rs.getFloat("r"), 1.5f, "r");
                    equal(rs.getBigDecimal("n"), dec, "n");
                    equal(rs.getString("s"), "héllo wörld", "s");
                    equal(rs.getString("vc"), "varchar", "vc");
                    equal(rs.getDate("dt"), date, "dt");
                    equal(rs.getTimestamp("ts"), ts, "ts");
                    equal(rs.getTimestamp("tz"), ts, "tz");
                    equal(rs.getObject("u"), uuid, "u");
                    check(Arrays.equals(rs.getBytes("by"), bytes), "by: got " + Arrays.toString(rs.getBytes("by")));
                    Array ai = rs.getArray("ai");
                    equal(Arrays.asList((Object[]) ai.getArray()), Arrays.asList(1, null, 3), "ai");
                    Array at = rs.getArray("at");
                    equal(Arrays.asList((Object[]) at.getArray()), Arrays.asList("a", "b c"), "at");
                    check(!rs.next(), "more than one row with id 1");
                }
            }
        });

        step("typed results of the NULL row", () -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + PARAM_COLUMNS + " FROM public.jdbc_params WHERE id = ?")) {
                ps.setLong(1, 2L);
                try (ResultSet rs = ps.executeQuery()) {
                    check(rs.next(), "no row with id 2");
                    for (int k = 2; k <= NULL_TYPES.length; k++) {
                        Object v = rs.getObject(k);
                        check(v == null && rs.wasNull(), "column " + rs.getMetaData().getColumnName(k) + " is " + v + ", want NULL");
                    }
                }
            }
        });

        step("setObject parameters in a SELECT list", () -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT ? + 1, ? || 'x', ?::numeric * 2, ? IS NULL")) {
                ps.setInt(1, 41);
                ps.setString(2, "a");
                ps.setObject(3, new BigDecimal("1.25"));
                ps.setNull(4, Types.INTEGER);
                try (ResultSet rs = ps.executeQuery()) {
                    check(rs.next(), "no row");
                    equal(rs.getInt(1), 42, "? + 1");
                    equal(rs.getString(2), "ax", "? || 'x'");
                    equal(rs.getBigDecimal(3), new BigDecimal("2.50"), "?::numeric * 2");
                    equal(rs.getBoolean(4), true, "? IS NULL");
                }
            }
        });
    }

    static void fetchSize(Connection c) {
        step("setFetchSize(10) with autocommit off on 1000 rows", () -> {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("SELECT order_id, line, qty FROM public.lines ORDER BY qty")) {
                ps.setFetchSize(10);
                long n = 0, sum = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        equal(rs.getLong(1) * 10 + rs.getInt(2), (long) rs.getInt(3), "row " + n);
                        n++;
                        sum += rs.getInt(3);
                    }
                }
                equal(n, 1000L, "rows");
                equal(sum, 499500L, "sum of qty");
            }
            c.commit();
            c.setAutoCommit(true);
        });
    }

    static void serverPrepared(Connection c) {
        step("one PreparedStatement executed 8 times (prepareThreshold 5)", () -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id, i, si, b, d, r, n, s, dt, ts, tz, u, by FROM public.types WHERE id = ?")) {
                for (int k = 0; k < 8; k++) {
                    ps.setLong(1, 1L);
                    try (ResultSet rs = ps.executeQuery()) {
                        check(rs.next(), "execution " + k + ": no row");
                        String got = rs.getLong(1) + "|" + rs.getInt(2) + "|" + rs.getShort(3) + "|" + rs.getBoolean(4) + "|"
                                + rs.getDouble(5) + "|" + rs.getFloat(6) + "|" + rs.getBigDecimal(7) + "|" + rs.getString(8) + "|"
                                + rs.getDate(9) + "|" + rs.getTimestamp(10) + "|" + rs.getTimestamp(11).toInstant() + "|"
                                + rs.getObject(12) + "|" + Arrays.toString(rs.getBytes(13));
                        equal(got, "1|42|-7|true|1.5|2.25|12345.678|héllo|2024-01-31|2024-01-31 12:34:56.5|2024-01-31T12:34:56.500Z|"
                                + "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11|[-34, -83, -66, -17]", "execution " + k);
                    }
                }
                check(ps.unwrap(org.postgresql.PGStatement.class).isUseServerPrepare(), "not server-prepared after 8 executions");
            }
        });
    }

    static void cancel(Connection c) {
        step("Statement.cancel of a long query", () -> {
            try (Statement st = c.createStatement()) {
                // A cancel that arrives before the query starts is ignored (as
                // by PostgreSQL), so it is repeated until the query ends.
                AtomicBoolean done = new AtomicBoolean();
                Thread canceller = new Thread(() -> {
                    try {
                        for (int k = 0; k < 20 && !done.get(); k++) {
                            Thread.sleep(500);
                            if (!done.get()) {
                                st.cancel();
                            }
                        }
                    } catch (Exception e) {
                        System.out.println("cancel: " + e);
                    }
                });
                long start = System.nanoTime();
                canceller.start();
                try {
                    st.executeQuery("SELECT count(*) FROM generate_series(1, 100000) a CROSS JOIN generate_series(1, 100000) b");
                    throw new AssertionError("the query finished: not cancelled");
                } catch (SQLException e) {
                    equal(e.getSQLState(), "57014", "SQLState of the cancelled query (" + e.getMessage() + ")");
                } finally {
                    done.set(true);
                }
                canceller.join();
                long ms = (System.nanoTime() - start) / 1_000_000;
                check(ms < 10000, "cancelled after " + ms + " ms");
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
                check(rs.next() && rs.getInt(1) == 1, "connection unusable after the cancel");
            }
        });
    }

    static void errors(Connection c) {
        String[][] cases = {
            {"SELECT * FROM public.no_such_table", "42P01"},
            {"SELECT no_such_column FROM public.types", "42703"},
            {"SELEC 1", "42601"},
            {"SELECT 1 / 0", "22012"},
        };
        for (String[] tc : cases) {
            step("SQLState of " + tc[0], () -> {
                try (Statement st = c.createStatement()) {
                    st.executeQuery(tc[0]);
                    throw new AssertionError("no error");
                } catch (SQLException e) {
                    equal(e.getSQLState(), tc[1], "SQLState (" + e.getMessage() + ")");
                }
            });
        }

        step("25P02 after an error in a transaction, then rollback", () -> {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                try {
                    st.executeQuery("SELECT * FROM public.no_such_table");
                    throw new AssertionError("no error");
                } catch (SQLException e) {
                    equal(e.getSQLState(), "42P01", "first error");
                }
                try {
                    st.executeQuery("SELECT 1");
                    throw new AssertionError("no error after the failed statement");
                } catch (SQLException e) {
                    equal(e.getSQLState(), "25P02", "second error");
                }
            }
            c.rollback();
            c.setAutoCommit(true);
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
                check(rs.next(), "no row after the rollback");
            }
        });
    }
}
