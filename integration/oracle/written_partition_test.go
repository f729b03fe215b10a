package oracle

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/google/uuid"
)

// partIdentitySQLTable is a format-version 1 table partitioned by identity
// on a string and an int, NULL partition values included.
func partIdentitySQLTable() sqlTable {
	regions := []string{"'emea'", "'apac'", "'amer'", "NULL", "'a/b c=d%'"}
	gen := func(i int) []string {
		yr := fmt.Sprint(2020 + i%5)
		if i%9 == 4 {
			yr = "NULL"
		}
		return []string{
			fmt.Sprint(i), regions[i%len(regions)], yr, fmt.Sprint(i%2 == 0),
			nullEvery(i, 4, 13, lit(numericText(bigInt(int64(i*101-5000)), 2))),
			nullEvery(i, 5, 7, lit(time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format("2006-01-02"))),
		}
	}
	return sqlTable{
		name:          "part_identity",
		formatVersion: 1,
		partitioning:  []string{"identity(region)", "identity(yr)"},
		create: fmt.Sprintf(`CREATE TABLE %s (id bigint NOT NULL, region text, yr int, active boolean, amt numeric(10,2), day date) WITH (partitioning = 'region, yr', "format-version" = '1')`,
			qualified("part_identity")),
		inserts: []string{
			insertValues("part_identity", genSQLRows(0, 100, gen)),
			insertValues("part_identity", genSQLRows(100, 250, gen)),
		},
		probeIDs: []string{"0", "3", "4", "13"},
		filters: []filterCase{
			{"region = 'emea'", iceberg.EqualTo(ref("region"), "emea")},
			{"region IS NULL", iceberg.IsNull(ref("region"))},
			{"yr = 2022", iceberg.EqualTo(ref("yr"), int32(2022))},
			{"yr IS NULL", iceberg.IsNull(ref("yr"))},
			{"id < 30", iceberg.LessThan(ref("id"), int64(30))},
		},
	}
}

// partHashSQLTable is partitioned by bucket (long, uuid) and truncate
// (string, int, decimal).
func partHashSQLTable() sqlTable {
	gen := func(i int) []string {
		return []string{
			fmt.Sprint(i),
			nullEvery(i, 1, 10, lit(fmt.Sprintf("%c%c%c-%d", 'a'+i%4, 'a'+i%3, 'a'+i%5, i))),
			nullEvery(i, 2, 12, fmt.Sprint(i*7-600)),
			nullEvery(i, 3, 9, lit(uuid.NewSHA1(uuid.NameSpaceDNS, fmt.Appendf(nil, "%d", i)).String())),
			nullEvery(i, 4, 11, lit(numericText(bigInt(int64(i*1001-77_777)), 2))),
		}
	}
	return sqlTable{
		name:          "part_hash",
		formatVersion: 2,
		partitioning:  []string{"bucket[16](id)", "truncate[2](s)", "truncate[100](n)", "bucket[4](u)", "truncate[1000](amt)"},
		create: fmt.Sprintf(`CREATE TABLE %s (id bigint NOT NULL, s text, n int, u uuid, amt numeric(10,2)) WITH (partitioning = 'bucket(16, id), truncate(2, s), truncate(100, n), bucket(4, u), truncate(1000, amt)', "format-version" = '2')`,
			qualified("part_hash")),
		inserts: []string{
			insertValues("part_hash", genSQLRows(0, 120, gen)),
			insertValues("part_hash", genSQLRows(120, 200, gen)),
			insertValues("part_hash", genSQLRows(200, 300, gen)),
		},
		probeIDs: []string{"0", "42", "120"},
		filters: []filterCase{
			{"id = 17", iceberg.EqualTo(ref("id"), int64(17))},
			{"s >= 'ab' AND s < 'ac'", iceberg.NewAnd(iceberg.GreaterThanEqual(ref("s"), "ab"), iceberg.LessThan(ref("s"), "ac"))},
			{"n >= 0 AND n < 500", iceberg.NewAnd(iceberg.GreaterThanEqual(ref("n"), int32(0)), iceberg.LessThan(ref("n"), int32(500)))},
			{"s IS NULL", iceberg.IsNull(ref("s"))},
			{"u = '" + uuid.NewSHA1(uuid.NameSpaceDNS, []byte("43")).String() + "'", iceberg.EqualTo(ref("u"), uuid.NewSHA1(uuid.NameSpaceDNS, []byte("43")))},
		},
	}
}

// partTimeSQLTable is a format-version 3 table partitioned by year, month,
// day and hour, with instants before 1970 and NULL partition values.
func partTimeSQLTable() sqlTable {
	base := time.Date(1968, 11, 30, 22, 0, 0, 0, time.UTC)
	gen := func(i int) []string {
		t := base.Add(time.Duration(i) * (23*24*time.Hour + 5*time.Hour + 17*time.Minute + 1001*time.Microsecond))
		return []string{
			fmt.Sprint(i),
			nullEvery(i, 1, 10, lit(t.Format("2006-01-02"))),
			nullEvery(i, 2, 11, lit(t.Format("2006-01-02 15:04:05.999999"))),
			nullEvery(i, 3, 12, lit(t.Add(-90*time.Minute).Format("2006-01-02 15:04:05.999999-07"))),
			nullEvery(i, 4, 13, lit(t.Add(time.Duration(i)*time.Hour).Format("2006-01-02 15:04:05.999999"))),
		}
	}
	return sqlTable{
		name:          "part_time",
		formatVersion: 3,
		partitioning:  []string{"year(d)", "month(ts)", "day(tz)", "hour(ts2)"},
		create: fmt.Sprintf(`CREATE TABLE %s (id bigint NOT NULL, d date, ts timestamp, tz timestamptz, ts2 timestamp) WITH (partitioning = 'years(d), months(ts), days(tz), hours(ts2)', "format-version" = '3')`,
			qualified("part_time")),
		inserts: []string{
			insertValues("part_time", genSQLRows(0, 100, gen)),
			insertValues("part_time", genSQLRows(100, 200, gen)),
		},
		probeIDs: []string{"0", "4", "9", "10", "11", "12", "199"},
		filters: []filterCase{
			{"d < '1970-01-01'", iceberg.LessThan(ref("d"), days(1970, 1, 1))},
			{"ts >= '1975-03-01 00:00:00'", iceberg.GreaterThanEqual(ref("ts"), micros(1975, 3, 1, 0))},
			{"tz IS NULL", iceberg.IsNull(ref("tz"))},
			{"ts2 < '1971-06-01 00:00:00'", iceberg.LessThan(ref("ts2"), micros(1971, 6, 1, 0))},
		},
	}
}

// copySQLTable is created in the Spark form and filled by COPY FROM STDIN,
// text and csv.
func copySQLTable() sqlTable {
	var text, csv strings.Builder
	for i := range 200 {
		name, amount, d, ts := fmt.Sprintf("name %d", i), numericText(bigInt(int64(i*37-3000)), 2),
			time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i*3).Format("2006-01-02"),
			time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i)*7*time.Hour).Format("2006-01-02 15:04:05+00")
		if i%10 == 3 {
			name = "tab\there, back\\slash"
		}
		if i < 100 {
			if i%9 == 0 {
				amount = `\N`
			}
			fmt.Fprintf(&text, "%d\t%s\t%s\t%s\t%s\n", i, strings.NewReplacer("\\", `\\`, "\t", `\t`).Replace(name), amount, d, ts)
			continue
		}
		if i%9 == 0 {
			d = ""
		}
		fmt.Fprintf(&csv, "%d,\"%s\",%s,%s,%s\n", i, strings.ReplaceAll(name, `"`, `""`), amount, d, ts)
	}
	return sqlTable{
		name:          "copied",
		formatVersion: 2,
		partitioning:  []string{"bucket[4](id)", "day(ts)"},
		create:        fmt.Sprintf(`CREATE TABLE %s (id LONG NOT NULL, name STRING, amount DECIMAL(8,2), d DATE, ts TIMESTAMP) USING iceberg PARTITIONED BY (bucket(4, id), days(ts)) TBLPROPERTIES ('format-version'='2')`, qualified("copied")),
		copies: []copyInput{
			{fmt.Sprintf("COPY %s FROM STDIN", qualified("copied")), text.String()},
			{fmt.Sprintf("COPY %s (id, name, amount, d, ts) FROM STDIN WITH (FORMAT csv)", qualified("copied")), csv.String()},
		},
		probeIDs: []string{"3", "9", "100", "108"},
		filters: []filterCase{
			{"ts >= '2023-02-01 00:00:00+00'", iceberg.GreaterThanEqual(ref("ts"), micros(2023, 2, 1, 0))},
			{"d IS NULL", iceberg.IsNull(ref("d"))},
		},
	}
}

// ctasSQLTable is made by CREATE TABLE AS SELECT from the types table
// (so it comes after it in sqlTables), partitioned, format-version 3, then
// appended to by INSERT ... SELECT.
func ctasSQLTable() sqlTable {
	return sqlTable{
		name:          "ctas",
		formatVersion: 3,
		partitioning:  []string{"bucket[8](id)", "truncate[3](s)"},
		create: fmt.Sprintf(`CREATE TABLE %s WITH (partitioning = 'bucket(8, id), truncate(3, s)', "format-version" = '3') AS SELECT * FROM %s WHERE id < 200`,
			qualified("ctas"), qualified("types")),
		inserts: []string{
			fmt.Sprintf("INSERT INTO %s SELECT * FROM %s WHERE id >= 200", qualified("ctas"), qualified("types")),
		},
		probeIDs: []string{"1", "17"},
		filters: []filterCase{
			{"id = 5", iceberg.EqualTo(ref("id"), int64(5))},
			{"s < 's1'", iceberg.LessThan(ref("s"), "s1")},
		},
	}
}

// partBinarySQLTable is partitioned by identity, truncate and bucket of
// bytea columns holding empty values, which are values and not NULL: the
// partition tuples and summaries must say so, or iceberg-go prunes away
// files it must read.
func partBinarySQLTable() sqlTable {
	values := []string{`'\x'`, `'\x01'`, `'\x0102'`, "NULL", `'\xff'`}
	gen := func(i int) []string {
		return []string{
			fmt.Sprint(i),
			values[i%len(values)],
			values[(i/2)%len(values)],
			values[(i/3)%len(values)],
		}
	}
	return sqlTable{
		name:          "part_binary",
		formatVersion: 2,
		partitioning:  []string{"identity(b)", "truncate[1](t)", "bucket[4](h)"},
		create: fmt.Sprintf(`CREATE TABLE %s (id bigint NOT NULL, b bytea, t bytea, h bytea) WITH (partitioning = 'b, truncate(1, t), bucket(4, h)', "format-version" = '2')`,
			qualified("part_binary")),
		inserts: []string{
			insertValues("part_binary", genSQLRows(0, 30, gen)),
			insertValues("part_binary", genSQLRows(30, 60, gen)),
		},
		probeIDs: []string{"0", "1", "3", "10"},
		filters: []filterCase{
			{`b = '\x'`, iceberg.EqualTo(ref("b"), []byte{})},
			{`b = '\x01'`, iceberg.EqualTo(ref("b"), []byte{1})},
			{"b IS NULL", iceberg.IsNull(ref("b"))},
			{`t = '\x'`, iceberg.EqualTo(ref("t"), []byte{})},
			{`h = '\x'`, iceberg.EqualTo(ref("h"), []byte{})},
		},
	}
}
