package integration

import (
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestPreparedBinaryParameters runs prepared queries over the wire with
// the parameters pgx sends in binary, each several times (the statement
// is bound once and its plan reused): every type a binary parameter is
// decoded to a value for finds its row, NULL finds none; a new row is
// seen by the next execution, and SELECT * after ADD COLUMN is 0A000, as
// on PostgreSQL.
func TestPreparedBinaryParameters(t *testing.T) {
	conn := connect(t, startServer(t, t.TempDir(), serverOpts{}))
	ctx := testCtx(t)
	for _, sql := range []string{
		"CREATE SCHEMA pp",
		`CREATE TABLE pp.ty (b boolean, i2 smallint, i4 int, i8 bigint, f4 real, f8 double precision,
			n numeric(10,2), tx text, vc varchar(10), d date, ts timestamp, tz timestamptz, u uuid, by bytea, iv interval)`,
		`INSERT INTO pp.ty VALUES (true, 2, 4, 8, 1.5, 2.25, 12.34, 'text', 'var', '2024-02-29',
			'2024-02-29 12:00:00', '2024-02-29 12:00:00+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\xdeadbeef', '1 day 2 hours')`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	ts := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		col string
		arg any
	}{
		{"b", true}, {"i2", int16(2)}, {"i4", int32(4)}, {"i8", int64(8)}, {"f4", float32(1.5)}, {"f8", 2.25},
		{"n", pgtype.Numeric{Int: big.NewInt(1234), Exp: -2, Valid: true}}, {"tx", "text"}, {"vc", "var"},
		{"d", pgtype.Date{Time: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), Valid: true}},
		{"ts", pgtype.Timestamp{Time: ts, Valid: true}}, {"tz", ts},
		{"u", [16]byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11}},
		{"by", []byte{0xde, 0xad, 0xbe, 0xef}},
		{"iv", pgtype.Interval{Days: 1, Microseconds: 2 * 3600 * 1e6, Valid: true}},
	} {
		sql := "SELECT count(*) FROM pp.ty WHERE " + c.col + " = $1"
		for range 3 {
			var n int64
			if err := conn.QueryRow(ctx, sql, c.arg).Scan(&n); err != nil || n != 1 {
				t.Errorf("%s with %v: %d rows, %v; want 1", sql, c.arg, n, err)
			}
		}
		var n int64
		if err := conn.QueryRow(ctx, sql, nil).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s with NULL: %d rows, %v; want 0", sql, n, err)
		}
	}

	count := func(sql string, arg any) (int64, error) {
		var n int64
		err := conn.QueryRow(ctx, sql, arg).Scan(&n)
		return n, err
	}
	if n, err := count("SELECT count(*) FROM pp.ty WHERE i8 >= $1", int64(0)); err != nil || n != 1 {
		t.Fatalf("before INSERT: %d, %v", n, err)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO pp.ty (i8) VALUES (9)"); err != nil {
		t.Fatal(err)
	}
	if n, err := count("SELECT count(*) FROM pp.ty WHERE i8 >= $1", int64(0)); err != nil || n != 2 {
		t.Errorf("after INSERT: %d, %v; want 2", n, err)
	}

	star := "SELECT * FROM pp.ty WHERE i8 = $1"
	if _, err := conn.Prepare(ctx, "star", star); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(ctx, "star", int64(9))
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if _, err := conn.Exec(ctx, "ALTER TABLE pp.ty ADD COLUMN extra int"); err != nil {
		t.Fatal(err)
	}
	rows, err = conn.Query(ctx, "star", int64(9))
	if err == nil {
		rows.Close()
		err = rows.Err()
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "0A000" || pe.Message != "cached plan must not change result type" {
		t.Errorf("SELECT * after ADD COLUMN: %v, want 0A000 cached plan must not change result type", err)
	}
}
