package translate

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// columnDefault evaluates the DEFAULT of a new column: a constant (a
// literal, possibly negated or cast), converted to the column's type as an
// INSERT would, in the Go form Iceberg defaults take (catalog/value.go).
func (s *session) columnDefault(ctx context.Context, ps parse.Stmt, f catalog.NestedField, raw *pg.Node) (any, error) {
	if catalog.Primitive(f.Type) == nil {
		return nil, pgerr.NotYetPlural("defaults of nested columns")
	}
	if !constantDefault(raw) {
		return nil, pgerr.Unsupported("DEFAULT expression other than a constant").
			WithHint("Iceberg defaults are constants, set when the table is created.")
	}
	b := bind.New(ctx, s, ps, &bind.ParamSet{}, time.Now())
	x, err := b.Expr(raw)
	if err != nil {
		return nil, err
	}
	col := bind.Column{Name: f.Name, Type: plan.TypeOfIceberg(f.Type), Arrow: engine.ArrowType(f.Type)}
	e, err := b.Assign(x, col, bind.NodeLocation(raw))
	if err != nil {
		return nil, err
	}
	if b.LitErr != nil {
		return nil, b.LitErr
	}
	prog, err := expr.Compile(e, bind.EmptySchema, b.CompileOptions())
	if err != nil {
		return nil, err
	}
	one := array.NewRecordBatch(bind.EmptySchema, nil, 1)
	defer one.Release()
	arr, err := prog.Eval(ctx, one)
	if err != nil {
		return nil, b.ErrAt(err, bind.NodeLocation(raw))
	}
	defer arr.Release()
	return goValue(arr, 0)
}

// constantDefault reports a literal, a negated literal or a cast of one.
func constantDefault(n *pg.Node) bool {
	switch x := n.Node.(type) {
	case *pg.Node_AConst:
		return true
	case *pg.Node_TypeCast:
		return constantDefault(x.TypeCast.Arg)
	case *pg.Node_AExpr:
		return x.AExpr.Lexpr == nil && x.AExpr.Rexpr != nil && constantDefault(x.AExpr.Rexpr)
	}
	return false
}

// goValue is row i of arr as the Go value of its Iceberg type.
func goValue(arr arrow.Array, i int) (any, error) {
	if arr.IsNull(i) {
		return nil, nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i), nil
	case *array.Int32:
		return a.Value(i), nil
	case *array.Int64:
		return a.Value(i), nil
	case *array.Float32:
		return a.Value(i), nil
	case *array.Float64:
		return a.Value(i), nil
	case *array.String:
		return a.Value(i), nil
	case *array.Binary:
		return append([]byte{}, a.Value(i)...), nil
	case *array.FixedSizeBinary:
		v := a.Value(i)
		if len(v) == 16 {
			var u [16]byte
			copy(u[:], v)
			return u, nil
		}
		return append([]byte{}, v...), nil
	case *array.Decimal128:
		t := a.DataType().(*arrow.Decimal128Type)
		return catalog.Decimal{Unscaled: a.Value(i).BigInt(), Scale: int(t.Scale)}, nil
	case *array.Date32:
		return int32(a.Value(i)), nil
	case *array.Time64:
		return int64(a.Value(i)), nil
	case *array.Timestamp:
		return int64(a.Value(i)), nil
	}
	return nil, pgerr.NotYet("a default of type " + arr.DataType().String())
}
