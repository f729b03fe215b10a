package expr

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Test fixture: one batch with a column of each type. Rows:
//
//	a int4       1, -2, NULL, 2147483647
//	b int4       3, 0, 5, 1
//	t text       'abc', 'ÀbC', NULL, 'a%b'
//	f float8     1.5, NaN, NULL, -0
//	d num(10,2)  1.50, -2.25, NULL, 99999999.99
//	l int8       10, -9223372036854775808, NULL, 7
//	p bool       true, false, NULL, true
//	dt date      2024-02-29, 1999-12-31, NULL, 0001-01-01 BC
//	ts timestamp 2024-02-29 13:45:30.5, 1970-01-01 00:00, NULL, 2000-01-01 23:59:59.999999
//	tz timestamptz same instants (UTC)
//	s int2       1, -32768, NULL, 300
//	g float4     1.5, 3.25, NULL, 1e30
const (
	cA = iota
	cB
	cT
	cF
	cD
	cL
	cP
	cDT
	cTS
	cTZ
	cS
	cG
)

var numeric10_2 = &arrow.Decimal128Type{Precision: 10, Scale: 2}

func fixtureSchema() *arrow.Schema {
	f := func(n string, t arrow.DataType) arrow.Field { return arrow.Field{Name: n, Type: t, Nullable: true} }
	return arrow.NewSchema([]arrow.Field{
		f("a", Int4), f("b", Int4), f("t", Text), f("f", Float8), f("d", numeric10_2),
		f("l", Int8), f("p", Bool), f("dt", Date), f("ts", Timestamp), f("tz", Timestamptz),
		f("s", Int2), f("g", Float4),
	}, nil)
}

func ts(s string) int64 {
	v, err := parseTimestamp(s, false, time.UTC)
	if err != nil {
		panic(err)
	}
	return v
}

func fixtureBatch(mem memory.Allocator) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, fixtureSchema())
	defer b.Release()
	valid := []bool{true, true, false, true}
	b.Field(cA).(*array.Int32Builder).AppendValues([]int32{1, -2, 0, math.MaxInt32}, valid)
	b.Field(cB).(*array.Int32Builder).AppendValues([]int32{3, 0, 5, 1}, nil)
	b.Field(cT).(*array.StringBuilder).AppendValues([]string{"abc", "ÀbC", "", "a%b"}, valid)
	b.Field(cF).(*array.Float64Builder).AppendValues([]float64{1.5, math.NaN(), 0, math.Copysign(0, -1)}, valid)
	b.Field(cD).(*array.Decimal128Builder).AppendValues(decs(150, -225, 0, 9999999999), valid)
	b.Field(cL).(*array.Int64Builder).AppendValues([]int64{10, math.MinInt64, 0, 7}, valid)
	b.Field(cP).(*array.BooleanBuilder).AppendValues([]bool{true, false, false, true}, valid)
	d1, _ := parseDate("2024-02-29")
	d2, _ := parseDate("1999-12-31")
	d4, _ := parseDate("0001-01-01 BC")
	b.Field(cDT).(*array.Date32Builder).AppendValues([]arrow.Date32{arrow.Date32(d1), arrow.Date32(d2), 0, arrow.Date32(d4)}, valid)
	tss := []arrow.Timestamp{arrow.Timestamp(ts("2024-02-29 13:45:30.5")), 0, 0, arrow.Timestamp(ts("2000-01-01 23:59:59.999999"))}
	b.Field(cTS).(*array.TimestampBuilder).AppendValues(tss, valid)
	b.Field(cTZ).(*array.TimestampBuilder).AppendValues(tss, valid)
	b.Field(cS).(*array.Int16Builder).AppendValues([]int16{1, math.MinInt16, 0, 300}, valid)
	b.Field(cG).(*array.Float32Builder).AppendValues([]float32{1.5, 3.25, 0, 1e30}, valid)
	return b.NewRecordBatch()
}

func decs(v ...int64) []decimal128.Num {
	out := make([]decimal128.Num, len(v))
	for i, x := range v {
		out[i] = decimal128.FromI64(x)
	}
	return out
}

// Expression builders.
func col(i int) *Col {
	s := fixtureSchema()
	return &Col{Idx: i, Name: s.Field(i).Name, T: s.Field(i).Type}
}
func lit(v any, t arrow.DataType) *Lit { return &Lit{V: v, T: t} }
func i4(v int32) *Lit                  { return lit(v, Int4) }
func i8(v int64) *Lit                  { return lit(v, Int8) }
func txt(s string) *Lit                { return lit(s, Text) }
func null(t arrow.DataType) *Lit       { return lit(nil, t) }
func num(s string) *Lit {
	u, sc, ok := parseDecimal(s)
	if !ok {
		panic(s)
	}
	return lit(catalog.Decimal{Unscaled: u.BigInt(), Scale: int(sc)}, &arrow.Decimal128Type{Precision: 38, Scale: sc})
}
func cast(e Expr, t arrow.DataType) *Cast { return &Cast{Arg: e, T: t} }

// call resolves fn over args like the binder: casts where Resolve says.
func call(fn string, args ...Expr) Expr {
	ts := make([]arrow.DataType, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	r, err := Resolve(fn, ts)
	if err != nil {
		return &badExpr{err: err}
	}
	out := make([]Expr, len(args))
	for i, a := range args {
		out[i] = a
		if !arrow.TypeEqual(a.Type(), r.Args[i]) {
			out[i] = &Cast{Arg: a, T: r.Args[i]}
		}
	}
	return &Call{Fn: fn, Args: out, T: r.Result}
}

// badExpr carries a Resolve error into a test case.
type badExpr struct{ err error }

func (b *badExpr) Type() arrow.DataType { return Bool }
func (b *badExpr) String() string       { return "bad" }

// render evaluates e over the fixture and renders each row as text.
func render(t *testing.T, mem memory.Allocator, e Expr, loc *time.Location) ([]string, error) {
	t.Helper()
	if b, ok := e.(*badExpr); ok {
		return nil, b.err
	}
	batch := fixtureBatch(mem)
	defer batch.Release()
	p, err := Compile(e, batch.Schema(), CompileOptions{TimeZone: loc})
	if err != nil {
		return nil, err
	}
	ctx := WithAllocator(context.Background(), mem)
	out, err := p.Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	if out.Len() != int(batch.NumRows()) {
		t.Fatalf("%s: %d rows, want %d", e, out.Len(), batch.NumRows())
	}
	rows := make([]string, out.Len())
	for i := range rows {
		if out.IsNull(i) {
			rows[i] = "NULL"
			continue
		}
		rows[i] = string(AppendText(nil, out, i, loc))
	}
	return rows, nil
}

// sqlstate is the SQLSTATE of err ("" when it has none).
func sqlstate(err error) string {
	var pe *pgerr.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func joinRows(r []string) string { return strings.Join(r, "|") }
