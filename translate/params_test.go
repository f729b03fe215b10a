package translate

import (
	"context"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// TestParams prepares statements with $n parameters (extended protocol),
// checks the inferred parameter types and executes them with text values.
func TestParams(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	str := func(v string) *string { return &v }
	tests := []struct {
		sql      string
		declared []uint32
		types    []uint32
		params   []*string
		rows     int64
		code     string
	}{
		{sql: "SELECT c1 FROM iceberg.lithium__no_partitioning WHERE c1 = $1", types: []uint32{pgtypes.Int4},
			params: []*string{str("2")}, rows: 2},
		{sql: "SELECT c1 FROM iceberg.lithium__no_partitioning WHERE c2 = $1 AND c3 > $2", types: []uint32{pgtypes.Date, pgtypes.Float8},
			params: []*string{str("2025-03-04"), str("2")}, rows: 1},
		{sql: "SELECT c1 FROM iceberg.lithium__no_partitioning WHERE c1 = $1", types: []uint32{pgtypes.Int4},
			params: []*string{nil}, rows: 0},
		{sql: "SELECT c1 FROM iceberg.lithium__no_partitioning LIMIT $1", types: []uint32{pgtypes.Int8},
			params: []*string{str("4")}, rows: 4},
		{sql: "SELECT $1::int + 1", types: []uint32{pgtypes.Int4}, params: []*string{str("41")}, rows: 1},
		{sql: "SELECT $1", declared: []uint32{pgtypes.Int8}, types: []uint32{pgtypes.Int8}, params: []*string{str("7")}, rows: 1},
		{sql: "SELECT $1", types: []uint32{pgtypes.Text}, params: []*string{str("x")}, rows: 1},
		{sql: "SELECT c1 FROM iceberg.lithium__no_partitioning WHERE c1 = $1", types: []uint32{pgtypes.Int4},
			params: []*string{str("x")}, code: pgerr.InvalidTextRepresentation},
		{sql: "SELECT c1 FROM iceberg.lithium__no_partitioning WHERE c1 = $1", types: []uint32{pgtypes.Int4},
			params: nil, code: pgerr.ProtocolViolation},
	}
	for _, tc := range tests {
		stmts, err := s.Prepare(ctx, tc.sql, tc.declared)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		st := stmts[0]
		got := st.ParamTypes()
		if len(got) != len(tc.types) {
			t.Fatalf("%s: param types %v, want %v", tc.sql, got, tc.types)
		}
		for i := range got {
			if got[i] != tc.types[i] {
				t.Errorf("%s: param types %v, want %v", tc.sql, got, tc.types)
			}
		}
		rows, err := st.Execute(ctx, tc.params)
		var n int64
		if err == nil {
			for {
				b, berr := rows.Next(ctx)
				if berr != nil {
					err = berr
					break
				}
				if b == nil {
					break
				}
				n += b.NumRows()
			}
			rows.Close()
		}
		if tc.code != "" {
			if pgerr.Code(err) != tc.code {
				t.Errorf("%s %v: error %v (%s), want %s", tc.sql, tc.params, err, pgerr.Code(err), tc.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		if n != tc.rows {
			t.Errorf("%s %v: %d rows, want %d", tc.sql, tc.params, n, tc.rows)
		}
	}
}

// TestCancel checks that a cancelled context stops a statement with 57014.
func TestCancel(t *testing.T) {
	s := newTestSession(t)
	stmts, err := s.Prepare(context.Background(), "SELECT * FROM iceberg.duckdb__lineitem_iceberg ORDER BY l_orderkey", nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := stmts[0].Execute(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := rows.Next(ctx); pgerr.Code(err) != pgerr.QueryCanceled {
		t.Errorf("cancelled Next: %v (%s), want 57014", err, pgerr.Code(err))
	}
}

// TestRowsLifecycle closes rows before reading them, reads a multi-batch
// result to the end, and closes twice.
func TestRowsLifecycle(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, "SELECT l_orderkey FROM iceberg.duckdb__lineitem_iceberg", nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("close before next: %v", err)
	}
	r, err = stmts[0].Execute(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	batches := 0
	for {
		b, err := r.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		batches++
		n += b.NumRows()
	}
	if n != 51793 || batches < 2 {
		t.Errorf("%d rows in %d batches, want 51793 in several", n, batches)
	}
	if got := r.Tag(n); got != "SELECT 51793" {
		t.Errorf("tag %q", got)
	}
	if b, err := r.Next(ctx); b != nil || err != nil {
		t.Errorf("Next after the end: %v %v", b, err)
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
}
