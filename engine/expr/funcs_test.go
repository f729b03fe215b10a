package expr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestResolve(t *testing.T) {
	dec := func(p, s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: p, Scale: s} }
	tsNs := &arrow.TimestampType{Unit: arrow.Nanosecond}
	cases := []struct {
		fn   string
		args []arrow.DataType
		want string // "arg, arg -> result" in PostgreSQL names, or SQLSTATE
	}{
		{"+", []arrow.DataType{Int4, Int4}, "integer, integer -> integer"},
		{"+", []arrow.DataType{Int2, Int8}, "bigint, bigint -> bigint"},
		{"*", []arrow.DataType{Int4, Float4}, "double precision, double precision -> double precision"},
		{"-", []arrow.DataType{Float4, Float4}, "real, real -> real"},
		{"+", []arrow.DataType{dec(10, 2), Int4}, "numeric(10,2), numeric(10,0) -> numeric(38,2)"},
		{"*", []arrow.DataType{dec(10, 2), dec(5, 3)}, "numeric(10,2), numeric(5,3) -> numeric(38,5)"},
		{"/", []arrow.DataType{dec(10, 2), Int8}, "numeric(10,2), numeric(19,0) -> numeric"},
		{"%", []arrow.DataType{Float8, Float8}, "42883"},
		{"+", []arrow.DataType{Text, Int4}, "42883"},
		{"neg", []arrow.DataType{Text}, "42883"},
		{"=", []arrow.DataType{Int4, Int8}, "bigint, bigint -> boolean"},
		{"=", []arrow.DataType{dec(10, 2), dec(12, 4)}, "numeric(10,2), numeric(12,4) -> boolean"},
		{"<", []arrow.DataType{Date, Timestamptz}, "timestamp with time zone, timestamp with time zone -> boolean"},
		{"<", []arrow.DataType{tsNs, Timestamp}, "timestamp without time zone, timestamp without time zone -> boolean"},
		{"=", []arrow.DataType{Text, Int4}, "42883"},
		{"and", []arrow.DataType{Bool, Bool, Bool}, "boolean, boolean, boolean -> boolean"},
		{"like", []arrow.DataType{Text, Text, Text}, "text, text, text -> boolean"},
		{"||", []arrow.DataType{Text, Int4}, "text, text -> text"},
		{"in", []arrow.DataType{Int4, Int8, Int2}, "bigint, bigint, bigint -> boolean"},
		{"coalesce", []arrow.DataType{Int4, arrow.Null, Float8}, "double precision, double precision, double precision -> double precision"},
		{"coalesce", []arrow.DataType{dec(10, 2), dec(10, 3)}, "numeric, numeric -> numeric"},
		{"coalesce", []arrow.DataType{Int4, Text}, "42804"},
		{"nullif", []arrow.DataType{Int4, Int8}, "integer, bigint -> integer"},
		{"nullif", []arrow.DataType{dec(10, 2), Int4}, "numeric(10,2), numeric(10,0) -> numeric(10,2)"},
		{"length", []arrow.DataType{Bytea}, "bytea -> integer"},
		{"substr", []arrow.DataType{Text, Int2}, "text, integer -> text"},
		{"substr", []arrow.DataType{Text, Int8}, "42883"},
		{"round", []arrow.DataType{Int4}, "double precision -> double precision"},
		{"round", []arrow.DataType{dec(10, 2)}, "numeric(10,2) -> numeric(38,0)"},
		{"round", []arrow.DataType{dec(10, 2), Int4}, "numeric(10,2), integer -> numeric"},
		{"sqrt", []arrow.DataType{dec(10, 2)}, "numeric(10,2) -> numeric"},
		{"power", []arrow.DataType{Int4, Int4}, "double precision, double precision -> double precision"},
		{"date_trunc", []arrow.DataType{Text, Timestamptz}, "text, timestamp with time zone -> timestamp with time zone"},
		{"date_part", []arrow.DataType{Text, Date}, "text, timestamp without time zone -> double precision"},
		{"extract", []arrow.DataType{Text, Time}, "text, time without time zone -> numeric"},
		{"nosuch", []arrow.DataType{Int4}, "42883"},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s%v", c.fn, c.args)
		r, err := Resolve(c.fn, c.args)
		got := ""
		if err != nil {
			got = sqlstate(err)
		} else {
			names := make([]string, len(r.Args))
			for i, a := range r.Args {
				names[i] = typeDesc(a)
			}
			got = strings.Join(names, ", ") + " -> " + typeDesc(r.Result)
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", name, got, c.want)
		}
	}
}

func typeDesc(t arrow.DataType) string {
	if d, ok := t.(*arrow.Decimal128Type); ok {
		return fmt.Sprintf("numeric(%d,%d)", d.Precision, d.Scale)
	}
	return PGTypeName(t)
}

func TestCanCast(t *testing.T) {
	yes := [][2]arrow.DataType{{Int4, Text}, {Text, Timestamptz}, {Float8, Int2}, {Bool, Int4}, {Int4, Bool},
		{Date, Timestamptz}, {Timestamptz, Time}, {Bytea, UUID}, {arrow.Null, Date}, {NumericType(), Float4}}
	no := [][2]arrow.DataType{{Bool, Float8}, {Date, Int4}, {Time, Date}, {Int4, Date}, {Float8, Bool}}
	for _, p := range yes {
		if !CanCast(p[0], p[1]) {
			t.Errorf("CanCast(%s, %s) = false", PGTypeName(p[0]), PGTypeName(p[1]))
		}
	}
	for _, p := range no {
		if CanCast(p[0], p[1]) {
			t.Errorf("CanCast(%s, %s) = true", PGTypeName(p[0]), PGTypeName(p[1]))
		}
		if _, err := castKernel(p[0], p[1], nil); sqlstate(err) != "42883" {
			t.Errorf("castKernel(%s, %s): %v, want 42883", PGTypeName(p[0]), PGTypeName(p[1]), err)
		}
	}
}
