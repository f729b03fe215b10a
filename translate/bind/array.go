package bind

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// arrayExpr binds ARRAY[a, b, ...]: the elements take their common type.
func (b *Binder) arrayExpr(a *pg.A_ArrayExpr) (Bound, error) {
	if len(a.Elements) == 0 {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.IndeterminateDatatype, "cannot determine type of empty array").
			WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[]."), a.Location)
	}
	elems, err := b.exprs(a.Elements)
	if err != nil {
		return Bound{}, err
	}
	for _, e := range elems {
		if !e.Unknown() && pgtypes.ElemOf(e.T.OID) != 0 {
			// ARRAY[[1, 2], [3, 4]], ARRAY[ARRAY[1], ARRAY[2]]: arrays of
			// arrays are PostgreSQL's multidimensional arrays.
			return b.arrayOfArrays(elems, e, a.Elements, a.Location)
		}
	}
	types := make([]arrow.DataType, len(elems))
	for i, e := range elems {
		types[i] = e.arrowType()
	}
	t, err := expr.CommonType("ARRAY", types)
	if err != nil {
		return Bound{}, b.ErrAt(err, a.Location)
	}
	if t.ID() == arrow.NULL {
		t = expr.Text
	}
	elemType := commonPG(elems, pgTypeOfArrow(t))
	elems0 := append([]Bound(nil), elems...)
	for i := range elems {
		elems[i] = Bound{E: b.Coerce(elems[i], t), T: pgTypeOfArrow(t)}
	}
	r, err := b.call("array", elems, a.Location)
	if err != nil {
		return Bound{}, err
	}
	if arr := pgtypes.ArrayOf(elemType.OID); arr != 0 {
		r.T = plan.Type{OID: arr, Typmod: -1}
	}
	if ct, ok := charElems(elems0); ok && elemType.OID == pgtypes.Text {
		r.T = ct // ARRAY['a'::varchar(3)] is varchar(3)[]
	}
	r.Name, r.strong = "array", true
	return r, nil
}

// charElems is the array type of ARRAY[...] whose typed elements are all
// varchar or char (text values): the array of the first one's type
// (varchar[] or bpchar[]), with the elements' length when they agree on
// one.
func charElems(elems []Bound) (plan.Type, bool) {
	var t *plan.Type
	for _, e := range elems {
		switch {
		case e.Unknown():
		case e.T.OID != pgtypes.Varchar && e.T.OID != pgtypes.BPChar:
			return plan.Type{}, false
		case t == nil:
			et := e.T
			t = &et
		case t.OID != e.T.OID:
			t.Typmod = -1 // varchar and char mixed: the first's type
		case t.Typmod != e.T.Typmod:
			t.Typmod = -1
		}
	}
	if t == nil {
		return plan.Type{}, false
	}
	return plan.Type{OID: pgtypes.ArrayOf(t.OID), Typmod: t.Typmod}, true
}

// arrayOfArrays binds ARRAY[a, b, ...] whose elements are arrays (like
// is one): an array of one dimension more (nested lists one level
// deeper), its sub-arrays checked to match when it is built. Untyped
// elements take like's type.
func (b *Binder) arrayOfArrays(elems []Bound, like Bound, nodes []*pg.Node, loc int32) (Bound, error) {
	for i, e := range elems {
		switch {
		case e.null:
			elems[i] = Bound{E: b.Coerce(e, like.E.Type()), T: like.T}
		case e.Unknown():
			elems[i] = Bound{E: b.Coerce(e, like.E.Type()), T: like.T}
		case pgtypes.ElemOf(e.T.OID) == 0:
			return Bound{}, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "ARRAY types %s and %s cannot be matched", like.T, e.T), NodeLocation(nodes[i]))
		}
	}
	r, err := b.call("array", elems, loc)
	if err != nil {
		return Bound{}, err
	}
	_, leaf := expr.ArrayLeaf(r.E.Type())
	if arr := pgtypes.ArrayOf(pgTypeOfArrow(leaf).OID); arr != 0 {
		r.T = plan.Type{OID: arr, Typmod: -1}
	}
	if elem := pgtypes.ElemOf(like.T.OID); elem != 0 && pgtypes.ElemOf(r.T.OID) == pgTypeOfArrow(leaf).OID {
		// ARRAY[ARRAY['a']::varchar[]] stays varchar[].
		if commonPG(elems, like.T) == like.T {
			r.T = like.T
		}
	}
	r.Name, r.strong = "array", true
	return r, nil
}

// arrayLiteralType is the Arrow type of an array type's value read from
// the text s: nested lists as deep as the literal's dimensions (one when
// it has none or is malformed, which its input then reports).
func arrayLiteralType(t arrow.DataType, s string) arrow.DataType {
	a, err := pgtext.ParseArray([]byte(s))
	if err != nil || len(a.Dims) < 2 {
		return t
	}
	_, leaf := expr.ArrayLeaf(t)
	return expr.MultiDimList(leaf, len(a.Dims))
}

// nameSubscript binds name[i]: PostgreSQL stores a name as a fixed array
// of 64 bytes, so name[i] is the "char" at byte i counting from 0 (pg_dump
// tests typname[0] = '_'): empty past the name's end, NULL outside the 64.
func (b *Binder) nameSubscript(x Bound, index *pg.Node, loc int32) (Bound, error) {
	i, err := b.Expr(index)
	if err != nil {
		return Bound{}, err
	}
	fn := func(_ context.Context, a []any) (any, error) {
		n, ok := ToInt64(a[1])
		if a[0] == nil || !ok || n < 0 || n >= 64 {
			return nil, nil
		}
		name := TextValue(a[0])
		if int(n) >= len(name) {
			return "", nil
		}
		return charText(name[n]), nil
	}
	t := plan.Type{OID: pgtypes.Char, Typmod: -1}
	return Bound{E: &expr.Call{Fn: "name_subscript", Args: []expr.Expr{b.Coerce(x, expr.Text), b.Coerce(i, expr.Int4)}, T: plan.ArrowOf(t), Go: fn}, T: t}, nil
}

// charText is a "char" byte as PostgreSQL writes it: itself when ASCII,
// else a backslash and three octal digits.
func charText(c byte) string {
	if c < 0x80 {
		return string(rune(c))
	}
	return fmt.Sprintf("\\%03o", c)
}

// indirection binds x[i], x[lo:hi] (arrays) on any expression.
func (b *Binder) indirection(ind *pg.A_Indirection) (Bound, error) {
	x, err := b.Expr(ind.Arg)
	if err != nil {
		return Bound{}, err
	}
	loc := NodeLocation(ind.Arg)
	skip := 0
	for k, n := range ind.Indirection {
		if skip > 0 {
			skip--
			continue
		}
		idx := n.GetAIndices()
		if idx == nil {
			if f := n.GetString_(); f != nil {
				// (composite).field
				if x, err = b.FieldSelection(x, f.GetSval(), loc); err != nil {
					return Bound{}, err
				}
				continue
			}
			return Bound{}, b.ErrAt(pgerr.NotYet("this kind of indirection"), loc)
		}
		if x.T.OID == pgtypes.Name && !idx.IsSlice && idx.Uidx != nil {
			if x, err = b.nameSubscript(x, idx.Uidx, loc); err != nil {
				return Bound{}, err
			}
			continue
		}
		if pgtypes.ElemOf(x.T.OID) == 0 && x.T.OID != plan.TJSONB.OID {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch,
				"cannot subscript type %s because it does not support subscripting", x.T), loc)
		}
		// int2vector and oidvector (pg_index.indkey, proargtypes) count
		// from 0: indkey[0] is the first key.
		vector := isVectorType(x.T.OID)
		bound1 := func(n *pg.Node) (Bound, error) {
			if n == nil {
				return Bound{E: &expr.Lit{V: nil, T: expr.Int4}, T: plan.TInt4}, nil
			}
			v, err := b.Expr(n)
			if err != nil {
				return Bound{}, err
			}
			e := b.Coerce(v, expr.Int4)
			if vector {
				e = &expr.Call{Fn: "+", Args: []expr.Expr{e, &expr.Lit{V: int32(1), T: expr.Int4}}, T: expr.Int4}
			}
			return Bound{E: e, T: plan.TInt4}, nil
		}
		elemType := plan.Type{OID: pgtypes.ElemOf(x.T.OID), Typmod: -1}
		if run := subscriptRun(ind.Indirection, k); !vector && len(run) > 1 {
			// a[i][j], a[lo:hi][lo:hi]: one subscript per dimension.
			r, err := b.subscripts(x, run, loc)
			if err != nil {
				return Bound{}, err
			}
			x, skip = r, len(run)-1
			continue
		}
		if idx.IsSlice {
			lo, err := bound1(idx.Lidx)
			if err != nil {
				return Bound{}, err
			}
			hi, err := bound1(idx.Uidx)
			if err != nil {
				return Bound{}, err
			}
			r, err := b.call("array_slice", []Bound{x, lo, hi}, loc)
			if err != nil {
				return Bound{}, err
			}
			r.T, r.Name, r.strong = x.T, x.Name, x.strong
			if vector {
				r.T = plan.Type{OID: pgtypes.ArrayOf(elemType.OID), Typmod: -1}
			}
			x = r
			continue
		}
		i, err := bound1(idx.Uidx)
		if err != nil {
			return Bound{}, err
		}
		r, err := b.call("array_subscript", []Bound{x, i}, loc)
		if err != nil {
			return Bound{}, err
		}
		if elemType.OID != 0 {
			r.T = elemType
		}
		r.Name, r.strong = x.Name, x.strong // a subscript keeps its array's name
		x = r
	}
	return x, nil
}

// subscriptRun is the run of subscripts (A_Indices) of ind from i on.
func subscriptRun(ind []*pg.Node, i int) []*pg.A_Indices {
	var run []*pg.A_Indices
	for ; i < len(ind); i++ {
		idx := ind[i].GetAIndices()
		if idx == nil {
			break
		}
		run = append(run, idx)
	}
	return run
}

// subscripts binds several subscripts of array x at once, as PostgreSQL
// applies them: all single subscripts pick one element (NULL unless there
// is one per dimension); when any is a slice all are, a single subscript
// i meaning 1:i.
func (b *Binder) subscripts(x Bound, run []*pg.A_Indices, loc int32) (Bound, error) {
	bound1 := func(n *pg.Node) (Bound, error) {
		if n == nil {
			return Bound{E: &expr.Lit{V: nil, T: expr.Int4}, T: plan.TInt4}, nil
		}
		v, err := b.Expr(n)
		if err != nil {
			return Bound{}, err
		}
		return Bound{E: b.Coerce(v, expr.Int4), T: plan.TInt4}, nil
	}
	slice := false
	for _, idx := range run {
		slice = slice || idx.IsSlice
	}
	args := []Bound{x}
	for _, idx := range run {
		switch {
		case slice && !idx.IsSlice:
			hi, err := bound1(idx.Uidx)
			if err != nil {
				return Bound{}, err
			}
			args = append(args, Bound{E: &expr.Lit{V: int32(1), T: expr.Int4}, T: plan.TInt4}, hi)
		case slice:
			lo, err := bound1(idx.Lidx)
			if err != nil {
				return Bound{}, err
			}
			hi, err := bound1(idx.Uidx)
			if err != nil {
				return Bound{}, err
			}
			args = append(args, lo, hi)
		default:
			i, err := bound1(idx.Uidx)
			if err != nil {
				return Bound{}, err
			}
			args = append(args, i)
		}
	}
	fn := "array_subscript"
	if slice {
		fn = "array_slice"
	}
	r, err := b.call(fn, args, loc)
	if err != nil {
		return Bound{}, err
	}
	if slice {
		r.T = x.T
	} else {
		r.T = plan.Type{OID: pgtypes.ElemOf(x.T.OID), Typmod: -1}
	}
	r.Name, r.strong = x.Name, x.strong
	return r, nil
}

// isVectorType reports whether oid is int2vector or oidvector: arrays
// whose subscripts start at 0, printed as numbers separated by spaces.
func isVectorType(oid uint32) bool {
	return oid == pgtypes.Int2Vector || oid == pgtypes.OIDVector
}

// vectorCast converts to and from int2vector and oidvector: their text
// form is the numbers separated by blanks ("1 3"); they convert to the
// arrays of their elements (int2[], oid[]) but not back. ok is false when
// neither side is a vector.
func (b *Binder) vectorCast(arg Bound, t plan.Type, loc int32) (out Bound, ok bool, err error) {
	from := uint32(0)
	if !arg.Unknown() {
		from = arg.T.OID
	}
	switch {
	case isVectorType(from) && (t.OID == pgtypes.Text || t.OID == pgtypes.Varchar):
		sep := Bound{E: &expr.Lit{V: " ", T: expr.Text}, T: plan.TText}
		r, err := b.call("array_to_string", []Bound{arg, sep}, loc)
		r.T = plan.Type{OID: t.OID, Typmod: -1}
		return r, true, err
	case isVectorType(from) && (t.OID == from || t.OID == pgtypes.ArrayOf(pgtypes.ElemOf(from))):
		return Bound{E: arg.E, T: t}, true, nil
	case isVectorType(t.OID) && (arg.Unknown() || regTextual(from)):
		in := arg
		if arg.Unknown() {
			in = arg.resolveUnknownIn(b)
		}
		return Bound{E: vectorIn(in.E, t.OID), T: t}, true, nil
	case isVectorType(t.OID) || isVectorType(from):
		return Bound{}, true, b.ErrAt(cannotCast(arg.T, t), loc)
	}
	return Bound{}, false, nil
}

// vectorIn reads the text form of an int2vector or oidvector.
func vectorIn(e expr.Expr, typ uint32) expr.Expr {
	elem := pgtypes.ElemOf(typ)
	return &expr.Call{Fn: pgtypes.TypeName(typ) + "in", Args: []expr.Expr{e}, T: plan.ArrowOf(plan.Type{OID: typ, Typmod: -1}), Go: func(_ context.Context, a []any) (any, error) {
		s, ok := a[0].(string)
		if !ok {
			return nil, nil
		}
		out := []any{}
		for _, f := range strings.Fields(s) {
			n, err := strconv.ParseInt(f, 10, 64)
			switch {
			case err != nil:
				return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", pgtypes.TypeName(elem), f)
			case elem == pgtypes.Int2 && (n < math.MinInt16 || n > math.MaxInt16):
				return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type smallint", f)
			case elem == pgtypes.OID && (n < math.MinInt32 || n > math.MaxUint32):
				return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type oid", f)
			}
			if elem == pgtypes.OID {
				n = int64(uint32(n))
			}
			out = append(out, n)
		}
		return out, nil
	}}
}

// vectorBounds is array_lower and array_upper of an int2vector or
// oidvector, whose subscripts start at 0; ok is false for other calls.
func (b *Binder) vectorBounds(fn string, args []Bound, loc int32) (Bound, bool, error) {
	if fn != "array_lower" && fn != "array_upper" || len(args) != 2 || args[0].Unknown() || !isVectorType(args[0].T.OID) {
		return Bound{}, false, nil
	}
	arr := args[0]
	arr.T = plan.Type{OID: pgtypes.ArrayOf(pgtypes.ElemOf(arr.T.OID)), Typmod: -1}
	r, err := b.call(fn, []Bound{arr, args[1]}, loc)
	if err != nil {
		return Bound{}, true, err
	}
	one := Bound{E: &expr.Lit{V: int32(1), T: expr.Int4}, T: plan.TInt4}
	out, err := b.call("-", []Bound{r, one}, loc)
	out.Name, out.strong = fn, true
	return out, true, err
}

// vectorSubscripts rewrites generate_subscripts(v, dim [, reverse]) over
// an int2vector or oidvector column, whose subscripts start at 0, into
// generate_series(array_lower(v, dim), array_upper(v, dim) [, -1]); other
// calls come back as they are. The column a FROM item without an alias
// gets is then named generate_series.
func (b *Binder) vectorSubscripts(fc *pg.FuncCall, name string) (*pg.FuncCall, string) {
	if name != "generate_subscripts" || len(fc.Args) < 2 || len(fc.Args) > 3 || fc.Args[0].GetColumnRef() == nil {
		return fc, name
	}
	agg := b.agg
	b.agg = nil
	v, err := b.Expr(fc.Args[0])
	b.agg = agg
	if err != nil || v.Unknown() || !isVectorType(v.T.OID) {
		return fc, name
	}
	bound := func(fn string) *pg.Node {
		return pg.MakeFuncCallNode([]*pg.Node{pg.MakeStrNode(fn)}, []*pg.Node{fc.Args[0], fc.Args[1]}, fc.Location)
	}
	args := []*pg.Node{bound("array_lower"), bound("array_upper")}
	if len(fc.Args) == 3 {
		c := fc.Args[2].GetAConst()
		if c == nil || c.GetBoolval() == nil {
			return fc, name
		}
		if c.GetBoolval().Boolval {
			args = []*pg.Node{args[1], args[0], pg.MakeAConstIntNode(-1, fc.Location)}
		}
	}
	return &pg.FuncCall{Funcname: []*pg.Node{pg.MakeStrNode("generate_series")}, Args: args, Location: fc.Location}, "generate_series"
}

// arrayEquality binds a = b, a <> b and a IS [NOT] DISTINCT FROM b over
// two arrays of one type
// (pol.polroles = '{0}', an untyped literal being read as the other
// side's array type): equal when they have the same elements in the same
// order, NULL elements equal to each other, as PostgreSQL's array_eq.
// ok is false when neither side is an array.
func (b *Binder) arrayEquality(op string, l, r Bound, loc int32) (Bound, bool, error) {
	distinct := op == "is_distinct_from" || op == "is_not_distinct_from"
	if op == "!=" {
		op = "<>"
	}
	ordering := op == "<" || op == "<=" || op == ">" || op == ">="
	if op != "=" && op != "<>" && !distinct && !ordering {
		return Bound{}, false, nil
	}
	isArr := func(x Bound) bool { return !x.Unknown() && pgtypes.ElemOf(x.T.OID) != 0 }
	switch {
	case isArr(l) && r.Unknown():
		r = Bound{E: b.Coerce(r, l.E.Type()), T: l.T}
	case isArr(r) && l.Unknown():
		l = Bound{E: b.Coerce(l, r.E.Type()), T: r.T}
	case !isArr(l) || !isArr(r):
		return Bound{}, false, nil
	}
	if ordering || (!distinct && (expr.IsMultiDimList(l.E.Type()) || expr.IsMultiDimList(r.E.Type()))) {
		// The engine's array_cmp order, for arrays of any dimensions.
		if l.T.OID != r.T.OID {
			return Bound{}, true, b.ErrAt(undefinedOperator(op, []Bound{l, r}), loc)
		}
		fn := map[string]string{"=": "array_eq", "<>": "array_ne", "<": "array_lt", "<=": "array_le", ">": "array_gt", ">=": "array_ge"}[op]
		res, err := b.call(fn, []Bound{l, r}, loc)
		res.Name, res.strong = "", false
		return res, true, err
	}
	if distinct && l.T.OID == r.T.OID && (expr.IsMultiDimList(l.E.Type()) || expr.IsMultiDimList(r.E.Type())) {
		// Arrays of several dimensions: two NULLs are not distinct, a
		// NULL and an array are, two arrays as array_ne says.
		ne, err := b.call("array_ne", []Bound{l, r}, loc)
		if err != nil {
			return Bound{}, true, err
		}
		isNull := func(x Bound) expr.Expr { return &expr.Call{Fn: "isnull", Args: []expr.Expr{x.E}, T: expr.Bool} }
		yes := op == "is_distinct_from"
		var res expr.Expr = &expr.Case{T: expr.Bool, Whens: []expr.When{
			{Cond: &expr.Call{Fn: "and", Args: []expr.Expr{isNull(l), isNull(r)}, T: expr.Bool}, Then: &expr.Lit{V: !yes, T: expr.Bool}},
			{Cond: &expr.Call{Fn: "or", Args: []expr.Expr{isNull(l), isNull(r)}, T: expr.Bool}, Then: &expr.Lit{V: yes, T: expr.Bool}},
		}, Else: ne.E}
		if !yes {
			res.(*expr.Case).Else = &expr.Call{Fn: "not", Args: []expr.Expr{ne.E}, T: expr.Bool}
		}
		return Bound{E: res, T: plan.TBool}, true, nil
	}
	if !arrow.TypeEqual(l.E.Type(), r.E.Type()) {
		name := op
		if distinct {
			name = "="
		}
		return Bound{}, true, b.ErrAt(undefinedOperator(name, []Bound{l, r}), loc)
	}
	want := op == "=" || op == "is_not_distinct_from"
	fn := func(_ context.Context, a []any) (any, error) {
		x, okx := a[0].([]any)
		y, oky := a[1].([]any)
		if !okx || !oky {
			if !distinct {
				return nil, nil
			}
			// IS [NOT] DISTINCT FROM: two NULLs are not distinct, a NULL
			// and an array are.
			return (a[0] == nil && a[1] == nil) == want, nil
		}
		return equalValues(x, y) == want, nil
	}
	name := map[string]string{"=": "array_eq", "<>": "array_ne", "is_distinct_from": "array_distinct", "is_not_distinct_from": "array_not_distinct"}[op]
	return Bound{E: &expr.Call{Fn: name, Args: []expr.Expr{l.E, r.E}, T: expr.Bool, Go: fn}, T: plan.TBool}, true, nil
}

// equalValues compares two arrays as Go values, sub-arrays element by
// element.
func equalValues(x, y []any) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		xs, xok := x[i].([]any)
		ys, yok := y[i].([]any)
		switch {
		case xok && yok:
			if !equalValues(xs, ys) {
				return false
			}
		case xok || yok:
			return false
		case !reflect.DeepEqual(x[i], y[i]):
			return false
		}
	}
	return true
}

// arraySubLink binds ARRAY(subquery): the values of the subquery's one
// column in its order, an empty array when it has no rows. The subquery is
// aggregated with array_agg (ordered by the subquery's ORDER BY); an
// uncorrelated one runs once, a correlated one once per outer row.
func (b *Binder) arraySubLink(p *plan.Select, free plan.ColSet, loc int32) (Bound, error) {
	if len(p.Out) != 1 {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "subquery must return only one column"), loc)
	}
	elem := b.typeOfOutput(p, 0)
	arrOID := pgtypes.ArrayOf(elem.OID)
	if pgtypes.ElemOf(elem.OID) != 0 && !isVectorType(elem.OID) {
		arrOID = elem.OID // ARRAY(SELECT an array): one dimension more
	}
	if arrOID == 0 {
		return Bound{}, b.ErrAt(pgerr.NotYet("ARRAY(subquery) of type "+elem.String()), loc)
	}
	in := p.Root
	arg := b.ref(p.Out[0]).E
	if pr, ok := in.(*plan.Project); ok {
		// A projection above the ORDER BY (which sorted on columns it
		// drops): aggregate its expression over the sorted rows.
		_, sorted := pr.In.(*plan.Sort)
		if l, isLimit := pr.In.(*plan.Limit); isLimit {
			_, sorted = l.In.(*plan.Sort)
		}
		if i := plan.IndexOf(pr.Cols, p.Out[0]); i >= 0 && sorted {
			in, arg = pr.In, pr.Exprs[i]
		}
	}
	var order []plan.SortKey
	switch x := in.(type) {
	case *plan.Sort:
		in, order = x.In, x.Keys
	case *plan.Limit:
		if s, ok := x.In.(*plan.Sort); ok {
			order = s.Keys
		}
	}
	t, err := exec.AggResultTypeN("array_agg", []arrow.DataType{arg.Type()})
	if err != nil {
		return Bound{}, b.ErrAt(pgerr.NotYet("ARRAY(subquery) of type "+elem.String()), loc)
	}
	arrPG := plan.Type{OID: arrOID, Typmod: -1}
	aggCol := b.newCol("array_agg", arrPG, t)
	agg := &plan.Agg{In: in, Aggs: []plan.AggCall{{Fn: "array_agg", Arg: arg, OrderBy: order, Name: "array_agg", T: t, PGType: arrPG}},
		AggCols: []plan.ColID{aggCol}}
	value := &expr.Case{T: t, Whens: []expr.When{{
		Cond: &expr.Call{Fn: "isnotnull", Args: []expr.Expr{b.ref(aggCol).E}, T: expr.Bool}, Then: b.ref(aggCol).E}},
		Else: &expr.Call{Fn: "array", T: t}}
	v := b.newCol("array", arrPG, t)
	proj := &plan.Project{In: agg, Exprs: []expr.Expr{value}, Cols: []plan.ColID{v}}
	if len(free) == 0 {
		sel := &plan.Select{Root: proj, Out: []plan.ColID{v}, Cols: []pgtypes.Column{{Name: "array", TypeOID: arrOID, Typmod: -1}}}
		b.finish(sel)
		return Bound{E: &plan.Subquery{Plan: sel, T: t}, T: arrPG, Name: "array", strong: true}, nil
	}
	b.addPending(pendingJoin{typ: plan.JoinLeft, right: proj, single: true, apply: true})
	r := b.ref(v)
	r.T, r.Name, r.strong = arrPG, "array", true
	return r, nil
}
