package integration

import (
	"context"
	"database/sql"
	"math"
	"math/big"
	"reflect"
	"testing"
	"time"

	"github.com/icegate/icegate/internal/fixtures"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	_ "github.com/lib/pq" // registers the "postgres" driver for database/sql
)

// numericValue is an expected numeric, compared by exact value with
// whatever a client returns for it (pgtype.Numeric, []byte or string).
type numericValue string

// typeCase is one query whose single expected row must be among the rows
// returned, with the Go values pgx (both modes) and lib/pq give.
type typeCase struct {
	name string
	sql  string
	pgx  []any
	pq   []any
}

func typeCases() []typeCase {
	utc := func(y int, m time.Month, d, hh, mm, ss, us int) time.Time {
		return time.Date(y, m, d, hh, mm, ss, us*1000, time.UTC)
	}
	uuid := [16]byte{0x55, 0x0e, 0x84, 0x00, 0xe2, 0x9b, 0x41, 0xd4, 0xa7, 0x16, 0x44, 0x66, 0x55, 0x44, 0x00, 0x00}
	return []typeCase{
		{name: "int2", sql: "SELECT 1::int2", pgx: []any{int16(1)}, pq: []any{int64(1)}},
		{name: "int4", sql: "SELECT -2::int4", pgx: []any{int32(-2)}, pq: []any{int64(-2)}},
		{name: "int8", sql: "SELECT 9223372036854775807::int8", pgx: []any{int64(math.MaxInt64)}, pq: []any{int64(math.MaxInt64)}},
		{name: "float4", sql: "SELECT 1.5::float4", pgx: []any{float32(1.5)}, pq: []any{float32(1.5)}},
		{name: "float8", sql: "SELECT 2.25::float8", pgx: []any{2.25}, pq: []any{2.25}},
		{name: "numeric", sql: "SELECT 12.345::numeric(10,3)", pgx: []any{numericValue("12.345")}, pq: []any{numericValue("12.345")}},
		{name: "numeric from arithmetic", sql: "SELECT 1.5::numeric + 1", pgx: []any{numericValue("2.5")}, pq: []any{numericValue("2.5")}},
		{name: "numeric from aggregates", sql: "SELECT sum(l_quantity), avg(l_linenumber) FROM iceberg.duckdb__lineitem_iceberg_gz WHERE l_orderkey = 1 AND l_linenumber <= 2",
			pgx: []any{int64(106), numericValue("1.5")}, pq: []any{int64(106), numericValue("1.5")}}, // the table holds each of these rows twice
		{name: "bool", sql: "SELECT true, false", pgx: []any{true, false}, pq: []any{true, false}},
		{name: "text", sql: "SELECT 'héllo'::text", pgx: []any{"héllo"}, pq: []any{"héllo"}},
		{name: "date", sql: "SELECT DATE '2024-02-29'", pgx: []any{utc(2024, 2, 29, 0, 0, 0, 0)}, pq: []any{utc(2024, 2, 29, 0, 0, 0, 0)}},
		{name: "timestamp", sql: "SELECT TIMESTAMP '2024-02-29 12:34:56.789'",
			pgx: []any{utc(2024, 2, 29, 12, 34, 56, 789000)}, pq: []any{utc(2024, 2, 29, 12, 34, 56, 789000)}},
		{name: "timestamptz", sql: "SELECT TIMESTAMPTZ '2024-02-29 12:34:56+02'",
			pgx: []any{utc(2024, 2, 29, 10, 34, 56, 0)}, pq: []any{utc(2024, 2, 29, 10, 34, 56, 0)}},
		{name: "uuid", sql: "SELECT '550e8400-e29b-41d4-a716-446655440000'::uuid",
			pgx: []any{uuid}, pq: []any{[]byte("550e8400-e29b-41d4-a716-446655440000")}},
		{name: "bytea", sql: `SELECT '\xdeadbeef'::bytea`, pgx: []any{[]byte{0xde, 0xad, 0xbe, 0xef}}, pq: []any{[]byte{0xde, 0xad, 0xbe, 0xef}}},
		{name: "null", sql: "SELECT NULL::int4", pgx: []any{nil}, pq: []any{nil}},

		{name: "all_spark_types", sql: "SELECT col0, col1, col2, col3, col4, col5, col6, col7, col8, col9, col10, col11 FROM iceberg.lithium__all_spark_types",
			pgx: []any{true, int32(math.MaxInt32), int64(math.MaxInt64), float32(math.MaxFloat32), math.MaxFloat64, numericValue("12345.67"),
				"example", []byte("spark"), utc(2023, 10, 10, 0, 0, 0, 0), utc(2023, 10, 10, 12, 34, 56, 0), utc(2023, 10, 10, 12, 34, 56, 0),
				[]any{"item1", "item2"}},
			pq: []any{true, int64(math.MaxInt32), int64(math.MaxInt64), float32(math.MaxFloat32), math.MaxFloat64, numericValue("12345.67"),
				"example", []byte("spark"), utc(2023, 10, 10, 0, 0, 0, 0), utc(2023, 10, 10, 12, 34, 56, 0), utc(2023, 10, 10, 12, 34, 56, 0),
				[]byte("{item1,item2}")}},
		{name: "all_trino_types", sql: "SELECT * FROM iceberg.lithium__all_trino_types",
			pgx: []any{int64(1), true, int32(42), int64(math.MaxInt64), float32(3.14), 2.718281828459045, numericValue("123456.78901"),
				utc(2025, 4, 5, 0, 0, 0, 0), pgtype.Time{Microseconds: 45296123456, Valid: true},
				utc(2025, 4, 5, 12, 34, 56, 123456), utc(2025, 4, 5, 12, 34, 56, 123456), "Hello Iceberg", uuid,
				[]byte{0xde, 0xad, 0xbe, 0xef}, []any{1.1, 2.2, 3.3}},
			pq: []any{int64(1), true, int64(42), int64(math.MaxInt64), float32(3.14), 2.718281828459045, numericValue("123456.78901"),
				utc(2025, 4, 5, 0, 0, 0, 0), time.Date(0, 1, 1, 12, 34, 56, 123456000, time.UTC),
				utc(2025, 4, 5, 12, 34, 56, 123456), utc(2025, 4, 5, 12, 34, 56, 123456), "Hello Iceberg",
				[]byte("550e8400-e29b-41d4-a716-446655440000"), []byte{0xde, 0xad, 0xbe, 0xef}, []byte("{1.1,2.2,3.3}")}},
		{name: "uuid column", sql: "SELECT uuid FROM iceberg.duckdb__uuid",
			pgx: []any{[16]byte{0x8d, 0xc3, 0x14, 0xd8, 0x3f, 0xd4, 0x4b, 0x3a, 0x8b, 0xf5, 0xc0, 0x08, 0xf3, 0x63, 0xc2, 0xe4}},
			pq:  []any{[]byte("8dc314d8-3fd4-4b3a-8bf5-c008f363c2e4")}},
		{name: "decimal(36,23) column", sql: "SELECT partition_col FROM iceberg.duckdb__partition_decimal_hugeint",
			pgx: []any{numericValue("-5432109876.10987654321098765432109")},
			pq:  []any{numericValue("-5432109876.10987654321098765432109")}},
		{name: "decimal(15,2) column", sql: "SELECT l_extendedprice FROM iceberg.duckdb__lineitem_iceberg_gz WHERE l_orderkey = 1 AND l_linenumber = 1",
			pgx: []any{numericValue("24710.35")}, pq: []any{numericValue("24710.35")}},
	}
}

// TestTypesThroughClients reads values of every primitive type through pgx
// (extended and simple protocol) and lib/pq and checks the Go values.
func TestTypesThroughClients(t *testing.T) {
	warehouse := fixtures.Warehouse(t)
	addr := startServer(t, warehouse, serverOpts{})
	conn := connect(t, addr)
	db, err := sql.Open("postgres", connString(addr, "icegate", ""))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })

	clients := []struct {
		name string
		read func(ctx context.Context, sql string) ([][]any, error)
		want func(tc typeCase) []any
	}{
		{"pgx extended", func(ctx context.Context, q string) ([][]any, error) { return pgxValues(ctx, conn, q) },
			func(tc typeCase) []any { return tc.pgx }},
		{"pgx simple", func(ctx context.Context, q string) ([][]any, error) {
			return pgxValues(ctx, conn, q, pgx.QueryExecModeSimpleProtocol)
		}, func(tc typeCase) []any { return tc.pgx }},
		{"lib/pq", func(ctx context.Context, q string) ([][]any, error) { return sqlValues(ctx, db, q) },
			func(tc typeCase) []any { return tc.pq }},
	}
	for _, tc := range typeCases() {
		for _, c := range clients {
			t.Run(tc.name+"/"+c.name, func(t *testing.T) {
				rows, err := c.read(testCtx(t), tc.sql)
				if err != nil {
					t.Fatalf("%s: %s", tc.sql, describe(err))
				}
				want := c.want(tc)
				for _, row := range rows {
					if sameRow(row, want) {
						return
					}
				}
				if len(rows) == 1 {
					for i := range want {
						if i < len(rows[0]) && !sameValue(rows[0][i], want[i]) {
							t.Errorf("column %d: got %#v (%T), want %#v (%T)", i+1, rows[0][i], rows[0][i], want[i], want[i])
						}
					}
					if len(rows[0]) != len(want) {
						t.Errorf("got %d columns, want %d", len(rows[0]), len(want))
					}
					return
				}
				t.Errorf("%s: no row of %d equals %#v", tc.sql, len(rows), want)
			})
		}
	}
}

func pgxValues(ctx context.Context, conn *pgx.Conn, q string, args ...any) ([][]any, error) {
	rows, err := conn.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

func sqlValues(ctx context.Context, db *sql.DB, q string) ([][]any, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

func sameRow(got, want []any) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range want {
		if !sameValue(got[i], want[i]) {
			return false
		}
	}
	return true
}

// sameValue compares a value a client returned with the expected one:
// times as instants, float4 at float4 precision, numerics by exact value.
func sameValue(got, want any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case time.Time:
		g, ok := got.(time.Time)
		return ok && g.Equal(w)
	case float32:
		switch g := got.(type) {
		case float32:
			return g == w
		case float64:
			return float32(g) == w
		}
		return false
	case numericValue:
		wr, ok := new(big.Rat).SetString(string(w))
		if !ok {
			return false
		}
		var s string
		switch g := got.(type) {
		case pgtype.Numeric:
			if !g.Valid || g.NaN || g.InfinityModifier != pgtype.Finite {
				return false
			}
			r := new(big.Rat).SetInt(g.Int)
			exp := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(g.Exp))), nil))
			if g.Exp < 0 {
				r.Quo(r, exp)
			} else {
				r.Mul(r, exp)
			}
			return r.Cmp(wr) == 0
		case []byte:
			s = string(g)
		case string:
			s = g
		default:
			return false
		}
		gr, ok := new(big.Rat).SetString(s)
		return ok && gr.Cmp(wr) == 0
	}
	return reflect.DeepEqual(got, want)
}

func abs(n int32) int32 {
	if n < 0 {
		return -n
	}
	return n
}
