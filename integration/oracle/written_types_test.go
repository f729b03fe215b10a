package oracle

import (
	"fmt"
	"math/big"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/google/uuid"
)

// typesColumns are the columns of the types table: every primitive type
// icegate writes.
const typesColumns = "id bigint NOT NULL, b boolean, i int, l bigint, r real, d double precision, " +
	"n numeric(12,3), n38 numeric(38,10), dt date, tm time, ts timestamp, tz timestamptz, " +
	"s text, u uuid, by bytea"

// typesEdgeRows hold the edge values: integer limits, NaN, ±Infinity, -0,
// the largest numeric(38,10), years 1 and 9999, pre-1970 instants, the
// Gregorian switch, strings needing quotes, and a row of NULLs.
var typesEdgeRows = [][]string{
	{"0", "true", "-2147483648", "'-9223372036854775808'", "'NaN'", "'NaN'", "'-999999999.999'",
		"'-9999999999999999999999999999.9999999999'", "'0001-01-01'", "'00:00:00'",
		"'0001-01-01 00:00:00'", "'0001-01-01 00:00:00+00'", "''",
		"'00000000-0000-0000-0000-000000000000'", `'\x'`},
	{"1", "false", "2147483647", "9223372036854775807", "'Infinity'", "'Infinity'", "999999999.999",
		"9999999999999999999999999999.9999999999", "'9999-12-31'", "'23:59:59.999999'",
		"'9999-12-31 23:59:59.999999'", "'9999-12-31 23:59:59.999999+00'",
		lit(`quote ' and "dq", {brace}, back\slash, tab	end`),
		"'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'", `'\x00ff7f80'`},
	{"2", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
	{"3", "true", "0", "0", "'-Infinity'", "'-Infinity'", "0.001", "0.0000000001", "'1969-12-31'",
		"'12:00:00.000001'", "'1969-12-31 23:59:59.999999'", "'1969-12-31 23:59:59.999999+00'",
		lit("ünïcødé ✓ 𝄞"), "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", `'\xdeadbeef'`},
	{"4", "false", "-1", "-1", "'-0'", "'-0'", "'-0.001'", "'-0.0000000001'", "'1582-10-04'",
		"'00:00:00.000001'", "'1582-10-15 12:34:56.5'", "'1900-01-01 00:00:00-05:30'",
		"' leading and trailing '", "'12345678-1234-5678-1234-567812345678'", `'\x00'`},
	{"5", "true", "1", "1", "'3.4028235e38'", "'1.7976931348623157e308'", "0", "0", "'1970-01-01'",
		"'23:59:59'", "'1970-01-01 00:00:00'", "'2024-03-10 02:30:00-08'", "'NULL'",
		"'ffffffff-0000-ffff-0000-ffffffffffff'", `'\x5c'`},
	{"6", "false", "7", "7", "'1e-45'", "'5e-324'", "0.5", "'-0.5'", "'2000-02-29'",
		"'01:02:03.4'", "'2000-02-29 23:59:59.999999'", "'1960-06-15 08:00:00+14'",
		"'\\'", "'01234567-89ab-cdef-0123-456789abcdef'", `'\x20'`},
}

// typesRow is regular row i: every column derived from i, NULL on a
// diagonal.
func typesRow(i int) []string {
	base := time.Date(1955, 3, 1, 0, 0, 0, 0, time.UTC)
	ts := base.Add(time.Duration(i) * (97*time.Hour + 13*time.Minute + 7*time.Second + 123457*time.Microsecond))
	tz := base.Add(time.Duration(i) * (211*time.Hour + 555555*time.Microsecond))
	n38 := new(big.Int).Mul(big.NewInt(int64(i*i-4000)), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(10+i%23)), nil))
	n38.Add(n38, big.NewInt(int64(i*7)))
	vals := []string{
		fmt.Sprint(i),
		fmt.Sprint(i%3 == 0),
		fmt.Sprint(i*7919 - 1_000_000),
		fmt.Sprint(int64(i)*1_000_000_007_001 - 99_999_999_999_999),
		lit(fmt.Sprintf("%g", float64(i)*0.37-20.1)),
		lit(fmt.Sprintf("%g", float64(i)*1.0001e10-3.3e-3)),
		lit(numericText(big.NewInt(int64(i*12345-1_000_000)), 3)),
		lit(numericText(n38, 10)),
		lit(base.AddDate(0, 0, i*97).Format("2006-01-02")),
		lit(timeText(int64(i) * 123_456_789 % 86_400_000_000)),
		lit(ts.Format("2006-01-02 15:04:05.999999")),
		lit(tz.Format("2006-01-02 15:04:05.999999-07")),
		lit(fmt.Sprintf("s%03d-%c", i, 'a'+i%26)),
		lit(uuid.NewSHA1(uuid.NameSpaceOID, fmt.Appendf(nil, "%d", i)).String()),
		lit(byteaText([]byte{byte(i), byte(i >> 8), 0, 0xff})),
	}
	for c := 1; c < len(vals); c++ {
		vals[c] = nullEvery(i, c, 11, vals[c])
	}
	return vals
}

// typesSQLTable holds every primitive type in three INSERT ... VALUES
// statements and one INSERT ... SELECT.
func typesSQLTable() sqlTable {
	return sqlTable{
		name:          "types",
		formatVersion: 2,
		unpruned:      []string{"i IS NULL"},
		probeIDs:      []string{"0", "1", "3", "4", "5", "6", "17"},
		create:        fmt.Sprintf("CREATE TABLE %s (%s)", qualified("types"), typesColumns),
		inserts: []string{
			insertValues("types", typesEdgeRows),
			insertValues("types", genSQLRows(10, 150, typesRow)),
			insertValues("types", genSQLRows(150, 300, typesRow)),
			fmt.Sprintf("INSERT INTO %s SELECT id + 1000, b, i, l, r, d, n, n38, dt, tm, ts, tz, s, u, by FROM %s WHERE id < 40", qualified("types"), qualified("types")),
		},
		filters: []filterCase{
			{"id >= 1000", iceberg.GreaterThanEqual(ref("id"), int64(1000))},
			{"dt < '1970-01-01'", iceberg.LessThan(ref("dt"), days(1970, 1, 1))},
			{"s >= 's2' AND s < 's3'", iceberg.NewAnd(iceberg.GreaterThanEqual(ref("s"), "s2"), iceberg.LessThan(ref("s"), "s3"))},
			{"i IS NULL", iceberg.IsNull(ref("i"))},
			{"ts > '2000-01-01 00:00:00'", iceberg.GreaterThan(ref("ts"), micros(2000, 1, 1, 0))},
		},
	}
}
