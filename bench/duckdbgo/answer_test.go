package duckdbgo

import (
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5/pgtype"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name       string
		ice, duck  [][]any
		wantPrefix string
	}{
		{"equal", [][]any{{1.0, "A", "1998-09-02"}}, [][]any{{1.0, "A", "1998-09-02"}}, "ok"},
		{"money within a cent", [][]any{{100.004}}, [][]any{{100.0}}, "ok"},
		{"money off by a cent", [][]any{{100.01}}, [][]any{{100.0}}, "row 0 column c0: icegate 100.01, DuckDB 100"},
		{"large within 1e-9", [][]any{{1e12 + 500}}, [][]any{{1e12}}, "ok"},
		{"large beyond 1e-9", [][]any{{1e12 + 2000}}, [][]any{{1e12}}, "row 0 column c0"},
		{"number against numeric text", [][]any{{"12.5"}}, [][]any{{12.5}}, "ok"},
		{"number against text", [][]any{{"x"}}, [][]any{{12.5}}, "row 0 column c0"},
		{"text differs", [][]any{{"AIR"}}, [][]any{{"RAIL"}}, "row 0 column c0: icegate AIR, DuckDB RAIL"},
		{"null against null", [][]any{{nil}}, [][]any{{nil}}, "ok"},
		{"null against zero", [][]any{{nil}}, [][]any{{0.0}}, "row 0 column c0"},
		{"row counts", [][]any{{1.0}, {2.0}}, [][]any{{1.0}}, "icegate 2 rows, DuckDB 1"},
		{"column counts", [][]any{{1.0, 2.0}}, [][]any{{1.0}}, "row 0: icegate 2 columns, DuckDB 1"},
		{"order matters", [][]any{{1.0}, {2.0}}, [][]any{{2.0}, {1.0}}, "row 0 column c0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ice := Answer{Columns: []string{"c0", "c1", "c2"}, Rows: tt.ice}
			got := Compare(ice, Answer{Rows: tt.duck})
			if !strings.HasPrefix(got, tt.wantPrefix) {
				t.Errorf("Compare = %q, want it to start with %q", got, tt.wantPrefix)
			}
			pg := CompareWith(ice, Answer{Rows: tt.duck}, "PostgreSQL")
			if want := strings.ReplaceAll(tt.wantPrefix, "DuckDB", "PostgreSQL"); !strings.HasPrefix(pg, want) {
				t.Errorf("CompareWith = %q, want it to start with %q", pg, want)
			}
		})
	}
}

func TestValues(t *testing.T) {
	date := time.Date(1995, 3, 15, 0, 0, 0, 0, time.UTC)
	var num pgtype.Numeric
	if err := num.Scan("1234.56"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		conv  func(any) (any, error)
		in    any
		want  any
		fails bool
	}{
		{"pg numeric", pgValue, num, 1234.56, false},
		{"pg null numeric", pgValue, pgtype.Numeric{}, nil, false},
		{"pg date", pgValue, date, "1995-03-15", false},
		{"pg bigint", pgValue, int64(7), 7.0, false},
		{"pg text", pgValue, "BUILDING", "BUILDING", false},
		{"duck decimal", duckValue, duckdb.Decimal{Width: 15, Scale: 2, Value: big.NewInt(123456)}, 1234.56, false},
		{"duck hugeint", duckValue, big.NewInt(1 << 40), float64(1 << 40), false},
		{"duck date", duckValue, date, "1995-03-15", false},
		{"duck integer", duckValue, int32(-3), -3.0, false},
		{"duck double", duckValue, 0.5, 0.5, false},
		{"duck null", duckValue, nil, nil, false},
		{"unknown type", duckValue, struct{}{}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.conv(tt.in)
			if tt.fails {
				if err == nil {
					t.Fatalf("converted %v to %v, want an error", tt.in, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f, ok := got.(float64); ok {
				if w, ok := tt.want.(float64); !ok || math.Abs(f-w) > 1e-9 {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
				return
			}
			if got != tt.want {
				t.Fatalf("got %v (%T), want %v (%T)", got, got, tt.want, tt.want)
			}
		})
	}
}

func TestMedianAndGeoMean(t *testing.T) {
	ms := time.Millisecond
	medians := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{5 * ms}, 5 * ms},
		{[]time.Duration{9 * ms, 1 * ms, 5 * ms}, 5 * ms},
		{[]time.Duration{4 * ms, 1 * ms, 2 * ms, 8 * ms}, 3 * ms},
	}
	for _, m := range medians {
		if got := Median(m.in); got != m.want {
			t.Errorf("Median(%v) = %v, want %v", m.in, got, m.want)
		}
	}
	g, n := GeoMean([]float64{1, 4, math.NaN(), 16})
	if n != 3 || math.Abs(g-4) > 1e-12 {
		t.Errorf("GeoMean = %v over %d, want 4 over 3", g, n)
	}
	if g, n := GeoMean(nil); n != 0 || !math.IsNaN(g) {
		t.Errorf("GeoMean(nil) = %v over %d, want NaN over 0", g, n)
	}
}
