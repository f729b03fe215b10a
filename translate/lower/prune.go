package lower

import (
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// Pruning. The conditions of a filter right above a table scan that
// compare a column with a constant become catalog predicates: planning
// skips manifests and files that cannot hold a matching row, and the
// scan skips row groups. The filter still runs on what is read, so a
// predicate only has to be inclusive; a condition that cannot be turned
// into one exactly is simply not used for pruning.

// collectScanPredicates records the predicates of every filter directly
// above a scan in the tree.
func (l *Lowerer) collectScanPredicates(root plan.Rel) {
	plan.Visit(root, func(r plan.Rel) {
		f, ok := r.(*plan.Filter)
		if !ok {
			return
		}
		sr, ok := f.In.(*plan.Scan)
		if !ok {
			return
		}
		var preds []catalog.Predicate
		for _, c := range plan.Conjuncts(f.Pred) {
			if p, ok := l.scanPredicate(sr, c); ok {
				preds = append(preds, p)
			}
		}
		if len(preds) > 0 {
			if l.ScanPreds == nil {
				l.ScanPreds = map[*plan.Scan][]catalog.Predicate{}
			}
			l.ScanPreds[sr] = preds
		}
	})
}

// flipped is the comparison with its operands exchanged.
var flipped = map[string]string{"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// scanPredicate converts one condition, when it is column op constant,
// constant op column, column IN (constants) or a null test.
func (l *Lowerer) scanPredicate(sr *plan.Scan, e expr.Expr) (catalog.Predicate, bool) {
	call, ok := e.(*expr.Call)
	if !ok || len(call.Args) == 0 {
		return catalog.Predicate{}, false
	}
	switch call.Fn {
	case "isnull", "isnotnull":
		if f, t, ok := l.scanColumn(sr, call.Args[0]); ok && t != nil {
			return catalog.Predicate{FieldID: f, Op: call.Fn}, true
		}
	case "=", "<>", "<", "<=", ">", ">=":
		if len(call.Args) != 2 {
			break
		}
		op, col, c := call.Fn, call.Args[0], call.Args[1]
		if plan.UsesColumns(col) && !plan.UsesColumns(c) {
		} else if plan.UsesColumns(c) && !plan.UsesColumns(col) {
			op, col, c = flipped[op], c, col
		} else {
			break
		}
		f, t, ok := l.scanColumn(sr, col)
		if !ok {
			break
		}
		v, ok := l.icebergConst(c, t)
		if !ok {
			break
		}
		return catalog.Predicate{FieldID: f, Op: op, Values: []any{v}}, true
	case "in":
		f, t, ok := l.scanColumn(sr, call.Args[0])
		if !ok {
			break
		}
		p := catalog.Predicate{FieldID: f, Op: catalog.OpIn}
		for _, a := range call.Args[1:] {
			if plan.UsesColumns(a) {
				return catalog.Predicate{}, false
			}
			v, ok := l.icebergConst(a, t)
			if !ok {
				return catalog.Predicate{}, false
			}
			p.Values = append(p.Values, v)
		}
		return p, true
	}
	return catalog.Predicate{}, false
}

// scanColumn recognizes a column of the scan, possibly under a widening
// integer cast, and returns its field id and Iceberg type.
func (l *Lowerer) scanColumn(sr *plan.Scan, e expr.Expr) (int, *catalog.PrimitiveType, bool) {
	if c, ok := e.(*expr.Cast); ok {
		inner, ok := c.Arg.(*expr.Col)
		if !ok || !plan.WidensInt(inner.T, c.T) {
			return 0, nil, false
		}
		e = inner
	}
	c, ok := e.(*expr.Col)
	if !ok {
		return 0, nil, false
	}
	i := plan.IndexOf(sr.Cols, plan.ColID(c.Idx))
	if i < 0 {
		return 0, nil, false
	}
	f := sr.Schema.FindField(sr.FieldIDs[i])
	if f == nil {
		return 0, nil, false
	}
	t, ok := f.Type.(*catalog.PrimitiveType)
	return sr.FieldIDs[i], t, ok
}

// icebergConst evaluates a constant expression and converts it exactly to
// the Go form of Iceberg type t (false when it is NULL or does not
// convert exactly).
func (l *Lowerer) icebergConst(e expr.Expr, t *catalog.PrimitiveType) (any, bool) {
	lit, ok := l.constant(e)
	if !ok || lit.V == nil {
		return nil, false
	}
	v := lit.V
	asInt := func() (int64, bool) {
		switch x := v.(type) {
		case int16:
			return int64(x), true
		case int32:
			return int64(x), true
		case int64:
			return x, true
		}
		return 0, false
	}
	switch t.ID {
	case catalog.TBoolean:
		b, ok := v.(bool)
		return b, ok
	case catalog.TInt:
		if i, ok := asInt(); ok && i >= math.MinInt32 && i <= math.MaxInt32 && lit.T.ID() != arrow.DATE32 {
			return int32(i), true
		}
	case catalog.TLong:
		if i, ok := asInt(); ok && lit.T.ID() != arrow.TIMESTAMP {
			return i, true
		}
	case catalog.TFloat:
		switch x := v.(type) {
		case float32:
			return x, true
		case float64:
			if float64(float32(x)) == x {
				return float32(x), true
			}
		}
	case catalog.TDouble:
		switch x := v.(type) {
		case float32:
			return float64(x), true
		case float64:
			return x, true
		}
	case catalog.TDecimal:
		d, ok := v.(catalog.Decimal)
		if !ok {
			i, isInt := asInt()
			if !isInt {
				return nil, false
			}
			d = catalog.Decimal{Unscaled: big.NewInt(i)}
		}
		return rescaleExact(d, t.Scale)
	case catalog.TDate:
		if x, ok := v.(int32); ok && lit.T.ID() == arrow.DATE32 {
			return x, true
		}
	case catalog.TTime:
		if x, ok := v.(int64); ok && lit.T.ID() == arrow.TIME64 {
			return x, true
		}
	case catalog.TTimestamp, catalog.TTimestamptz:
		ts, ok := lit.T.(*arrow.TimestampType)
		wantTZ := t.ID == catalog.TTimestamptz
		if x, isInt := v.(int64); isInt && ok && ts.Unit == arrow.Microsecond && (ts.TimeZone != "") == wantTZ {
			return x, true
		}
	case catalog.TString:
		s, ok := v.(string)
		return s, ok
	case catalog.TUUID:
		if b, ok := v.([]byte); ok && len(b) == 16 {
			var u [16]byte
			copy(u[:], b)
			return u, true
		}
	case catalog.TBinary, catalog.TFixed:
		b, ok := v.([]byte)
		return b, ok
	}
	return nil, false
}

// rescaleExact gives d the scale s when no digit is lost.
func rescaleExact(d catalog.Decimal, s int) (any, bool) {
	if d.Unscaled == nil {
		return nil, false
	}
	u := new(big.Int).Set(d.Unscaled)
	switch {
	case d.Scale < s:
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s-d.Scale)), nil))
	case d.Scale > s:
		q, r := new(big.Int).QuoRem(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale-s)), nil), new(big.Int))
		if r.Sign() != 0 {
			return nil, false
		}
		u = q
	}
	return catalog.Decimal{Unscaled: u, Scale: s}, true
}

// constant evaluates an expression without column references to a
// constant (uncorrelated subqueries included).
func (l *Lowerer) constant(e expr.Expr) (*expr.Lit, bool) {
	if lit, ok := e.(*expr.Lit); ok {
		return lit, true
	}
	r, err := l.remap(e, nil)
	if err != nil {
		return nil, false
	}
	if lit, ok := r.(*expr.Lit); ok {
		return lit, true
	}
	prog, err := expr.Compile(r, noColumns, l.opts)
	if err != nil {
		return nil, false
	}
	one := array.NewRecordBatch(noColumns, nil, 1)
	defer one.Release()
	a, err := prog.Eval(l.ctx, one)
	if err != nil {
		return nil, false
	}
	defer a.Release()
	lit, err := expr.ValueLit(a, 0)
	if err != nil {
		return nil, false
	}
	return lit, true
}
