package exec

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

func nan() float64 { return math.NaN() }

// selectWhere is SELECT cols FROM src WHERE cond (cond nil: all rows).
func selectWhere(src engine.Operator, cond expr.Expr, cols ...expr.Expr) (engine.Operator, error) {
	in := src
	if cond != nil {
		f, err := NewFilter(src, cond)
		if err != nil {
			return nil, err
		}
		in = f
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = strings.ReplaceAll(c.String(), " ", "")
	}
	return NewProject(in, cols, names)
}

// setOpOf builds left and right as SELECT cols ... WHERE cond.
func setOpOf(kind SetOpKind, all bool, src func() engine.Operator, lcond, rcond expr.Expr, lcols, rcols []expr.Expr) (engine.Operator, error) {
	l, err := selectWhere(src(), lcond, lcols...)
	if err != nil {
		return nil, err
	}
	r, err := selectWhere(src(), rcond, rcols...)
	if err != nil {
		l.Close()
		return nil, err
	}
	return NewSetOp(kind, all, l, r)
}

var setOpCases = []srcCase{
	{
		name: "setop_intersect",
		sql:  "SELECT g, b FROM t WHERE id < 200 INTERSECT SELECT g, b FROM t WHERE id >= 100",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			c := []expr.Expr{col(tG), col(tB)}
			return setOpOf(SetIntersect, false, src, call("<", col(tID), i4(200)), call(">=", col(tID), i4(100)), c, c)
		},
	},
	{
		name: "setop_intersect_all",
		sql:  "SELECT g, b FROM t WHERE id < 200 INTERSECT ALL SELECT g, b FROM t WHERE id >= 150",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			c := []expr.Expr{col(tG), col(tB)}
			return setOpOf(SetIntersect, true, src, call("<", col(tID), i4(200)), call(">=", col(tID), i4(150)), c, c)
		},
	},
	{
		name: "setop_except",
		sql:  "SELECT s, g FROM t EXCEPT SELECT s, g FROM t WHERE b",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			c := []expr.Expr{col(tS), col(tG)}
			return setOpOf(SetExcept, false, src, nil, col(tB), c, c)
		},
	},
	{
		name: "setop_except_all",
		sql:  "SELECT s, b FROM t EXCEPT ALL SELECT s, b FROM t WHERE id % 3 = 0",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			c := []expr.Expr{col(tS), col(tB)}
			return setOpOf(SetExcept, true, src, nil, call("=", call("%", col(tID), i4(3)), i4(0)), c, c)
		},
	},
	{
		name: "setop_floats",
		sql:  "SELECT x FROM t WHERE id % 2 = 0 INTERSECT SELECT -x FROM t",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			return setOpOf(SetIntersect, false, src, call("=", call("%", col(tID), i4(2)), i4(0)), nil,
				[]expr.Expr{col(tX)}, []expr.Expr{call("neg", col(tX))})
		},
	},
	{
		name: "setop_numeric_scales",
		sql:  "SELECT d / 100 FROM t WHERE id < 150 EXCEPT ALL SELECT d / 100 FROM t WHERE id > 100",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			c := []expr.Expr{call("/", col(tD), i4(100))}
			return setOpOf(SetExcept, true, src, call("<", col(tID), i4(150)), call(">", col(tID), i4(100)), c, c)
		},
	},
	{
		name: "union_all", ordered: true,
		sql: "SELECT id, s FROM t WHERE g = 1 UNION ALL SELECT id, s FROM t WHERE g = 2 UNION ALL SELECT id, s FROM t WHERE g IS NULL",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			var ins []engine.Operator
			for _, cond := range []expr.Expr{call("=", col(tG), i4(1)), call("=", col(tG), i4(2)), call("isnull", col(tG))} {
				op, err := selectWhere(src(), cond, col(tID), col(tS))
				if err != nil {
					return nil, err
				}
				ins = append(ins, op)
			}
			return NewUnionAll(ins...)
		},
	},
	{
		name: "union_distinct",
		sql:  "SELECT g, b FROM t WHERE id < 100 UNION SELECT g, b FROM t WHERE id > 250",
		build: func(src func() engine.Operator) (engine.Operator, error) {
			l, err := selectWhere(src(), call("<", col(tID), i4(100)), col(tG), col(tB))
			if err != nil {
				return nil, err
			}
			r, err := selectWhere(src(), call(">", col(tID), i4(250)), col(tG), col(tB))
			if err != nil {
				return nil, err
			}
			u, err := NewUnionAll(l, r)
			if err != nil {
				return nil, err
			}
			s := u.Schema()
			return NewHashAggregate(u, []expr.Expr{
				&expr.Col{Idx: 0, Name: "g", T: s.Field(0).Type}, &expr.Col{Idx: 1, Name: "b", T: s.Field(1).Type}}, nil)
		},
	},
}

// Mismatched inputs are the errors PostgreSQL gives for such queries.
func TestSetOpMismatch(t *testing.T) {
	mk := func(types ...arrow.DataType) engine.Operator {
		fs := make([]arrow.Field, len(types))
		for i, ty := range types {
			fs[i] = arrow.Field{Name: "c", Type: ty, Nullable: true}
		}
		return NewBatches(arrow.NewSchema(fs, nil), nil)
	}
	cases := []struct {
		name string
		l, r []arrow.DataType
		code string
	}{
		{"columns", []arrow.DataType{expr.Int4}, []arrow.DataType{expr.Int4, expr.Text}, "42601"},
		{"types", []arrow.DataType{expr.Int4, expr.Text}, []arrow.DataType{expr.Int4, expr.Int8}, "42804"},
		{"same", []arrow.DataType{expr.Int4}, []arrow.DataType{expr.Int4}, ""},
		{"dictionary text is text", []arrow.DataType{expr.Text},
			[]arrow.DataType{&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewUnionAll(mk(c.l...), mk(c.r...))
			if sqlstate(err) != c.code || c.code == "" && err != nil {
				t.Errorf("union all: %v, want SQLSTATE %q", err, c.code)
			}
			_, err = NewSetOp(SetExcept, true, mk(c.l...), mk(c.r...))
			if sqlstate(err) != c.code || c.code == "" && err != nil {
				t.Errorf("except all: %v, want SQLSTATE %q", err, c.code)
			}
		})
	}
}

// Dictionary-encoded text meets plain text in UNION ALL and INTERSECT.
func TestSetOpDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	dictSrc := func() engine.Operator {
		schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: dt, Nullable: true}}, nil)
		db := array.NewDictionaryBuilder(mem, dt).(*array.BinaryDictionaryBuilder)
		defer db.Release()
		for _, v := range []string{"b", "a", "-", "b"} {
			if v == "-" {
				db.AppendNull()
			} else if err := db.AppendString(v); err != nil {
				t.Fatal(err)
			}
		}
		a := db.NewArray()
		defer a.Release()
		return NewBatches(schema, []arrow.RecordBatch{array.NewRecordBatch(schema, []arrow.Array{a}, 4)})
	}
	plainSrc := func() engine.Operator {
		schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: expr.Text, Nullable: true}}, nil)
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.AppendValues([]string{"b", "c", ""}, []bool{true, true, false})
		a := b.NewArray()
		defer a.Release()
		return NewBatches(schema, []arrow.RecordBatch{array.NewRecordBatch(schema, []arrow.Array{a}, 3)})
	}
	cases := []struct {
		name  string
		build func() (engine.Operator, error)
		want  string
	}{
		{"union all", func() (engine.Operator, error) { return NewUnionAll(dictSrc(), plainSrc()) }, "b;a;NULL;b;b;c;NULL"},
		{"intersect all", func() (engine.Operator, error) { return NewSetOp(SetIntersect, true, dictSrc(), plainSrc()) }, "b;NULL"},
		{"except", func() (engine.Operator, error) { return NewSetOp(SetExcept, false, plainSrc(), dictSrc()) }, "c"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			op, err := c.build()
			if err != nil {
				t.Fatal(err)
			}
			got, err := drain(ctx, t, op)
			if err != nil || strings.Join(got, ";") != c.want {
				t.Errorf("got %q, %v; want %s", strings.Join(got, ";"), err, c.want)
			}
		})
	}
}
