package bind

import (
	"context"
	"fmt"
	"math"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// count(DISTINCT (a, b)) counts the distinct rows: a row constructor is
// never NULL, and two rows are the same when their elements are (NULLs
// equal). icegate has no row values, so the row becomes a text key that
// encodes each element with its type, and count(DISTINCT key) counts the
// keys. The parser never names a RowExpr's columns; a row marked with
// rowKeyMark as its only column name is one to bind as a key.

const rowKeyMark = "\x00row key"

// rowKeyCount returns count(DISTINCT row) with the row marked as a key;
// ok is false for any other call.
func rowKeyCount(fc *pg.FuncCall) (*pg.FuncCall, bool) {
	if funcName(fc) != "count" || !fc.AggDistinct || fc.Over != nil || len(fc.Args) != 1 || !isRowNode(fc.Args[0]) || isRowKey(fc.Args[0].GetRowExpr()) {
		return nil, false
	}
	c := proto.Clone(fc).(*pg.FuncCall)
	c.Args[0].GetRowExpr().Colnames = []*pg.Node{{Node: &pg.Node_String_{String_: &pg.String{Sval: rowKeyMark}}}}
	return c, true
}

func isRowKey(r *pg.RowExpr) bool {
	return len(r.Colnames) == 1 && r.Colnames[0].GetString_().GetSval() == rowKeyMark
}

// rowKey binds a marked row as its text key.
func (b *Binder) rowKey(r *pg.RowExpr) (Bound, error) {
	elems, err := b.exprs(r.Args)
	if err != nil {
		return Bound{}, err
	}
	args := make([]expr.Expr, len(elems))
	for i, x := range elems {
		if x.Unknown() {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "could not identify a comparison function for type unknown"), r.Location)
		}
		args[i] = x.E
	}
	key := func(_ context.Context, vals []any) (any, error) {
		var sb strings.Builder
		for _, v := range vals {
			switch x := v.(type) {
			case nil:
				sb.WriteString("N")
			case float64:
				if x == 0 {
					x = 0 // -0 = 0
				}
				if math.IsNaN(x) {
					x = math.NaN()
				}
				fmt.Fprintf(&sb, "f%v", x)
			case float32:
				if x == 0 {
					x = 0
				}
				fmt.Fprintf(&sb, "f%v", x)
			default:
				fmt.Fprintf(&sb, "%T:%v", v, v)
			}
			sb.WriteByte(0)
		}
		return sb.String(), nil
	}
	return Bound{E: &expr.Call{Fn: "row", Args: args, T: expr.Text, Go: key}, T: plan.TText}, nil
}
