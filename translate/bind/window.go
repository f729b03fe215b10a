package bind

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// windowScope collects the window function calls of a query's select list
// and ORDER BY, grouped by window definition: each group becomes one
// plan.Window between the aggregation and the projection.
type windowScope struct {
	named  map[string]*pg.WindowDef
	groups []*windowGroup
}

// windowGroup is the calls over one window definition.
type windowGroup struct {
	key       string
	partition []expr.Expr
	order     []plan.SortKey
	calls     []plan.WindowCall
	cols      []plan.ColID
}

// wrap puts the window nodes over r.
func (w *windowScope) wrap(r plan.Rel) plan.Rel {
	if w == nil {
		return r
	}
	for _, g := range w.groups {
		r = &plan.Window{In: r, Partition: g.partition, Order: g.order, Calls: g.calls, Cols: g.cols}
	}
	return r
}

// PostgreSQL's frame option bits (parsenodes.h), as pg_query reports them.
const (
	frameRange              = 0x2
	frameRows               = 0x4
	frameGroups             = 0x8
	frameStartUnboundedPrec = 0x20
	frameEndUnboundedPrec   = 0x40
	frameStartUnboundedFoll = 0x80
	frameEndUnboundedFoll   = 0x100
	frameStartCurrentRow    = 0x200
	frameEndCurrentRow      = 0x400
	frameStartOffsetPrec    = 0x800
	frameEndOffsetPrec      = 0x1000
	frameStartOffsetFoll    = 0x2000
	frameEndOffsetFoll      = 0x4000
	frameExcludeCurrentRow  = 0x8000
	frameExcludeGroup       = 0x10000
	frameExcludeTies        = 0x20000
	frameNonDefault         = 0x1
)

// windowFunc binds fn(...) OVER (...).
func (b *Binder) windowFunc(fc *pg.FuncCall, name string) (Bound, error) {
	return b.windowFuncWith(fc, name, func() ([]Bound, error) { return b.exprs(fc.Args) })
}

// windowFuncWith binds window function name over fc's window, its
// arguments bound by bindArgs.
func (b *Binder) windowFuncWith(fc *pg.FuncCall, name string, bindArgs func() ([]Bound, error)) (Bound, error) {
	switch {
	case b.inAgg:
		return Bound{}, b.ErrAt(pgerr.New(pgerr.GroupingError, "aggregate function calls cannot contain window function calls"), fc.Location)
	case b.where != "":
		return Bound{}, b.ErrAt(pgerr.New(pgerr.WindowingError, "window functions are not allowed in %s", b.where), fc.Location)
	case b.win == nil:
		return Bound{}, b.ErrAt(pgerr.New(pgerr.WindowingError, "window functions are not allowed here"), fc.Location)
	case fc.AggDistinct:
		return Bound{}, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "DISTINCT is not implemented for window functions"), fc.Location)
	case len(fc.AggOrder) > 0:
		return Bound{}, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "aggregate ORDER BY is not implemented for window functions"), fc.Location)
	case fc.AggWithinGroup:
		return Bound{}, b.ErrAt(pgerr.NotYet("WITHIN GROUP over a window"), fc.Location)
	}
	wd, err := b.resolveWindow(fc.Over, fc.Location)
	if err != nil {
		return Bound{}, err
	}
	var partition []expr.Expr
	var pkeys []string
	for _, n := range wd.PartitionClause {
		x, err := b.Expr(n)
		if err != nil {
			return Bound{}, err
		}
		x = x.resolveUnknownIn(b)
		if isJSONB(x) {
			x = jsonbSortKey(x) // jsonb_ops.go: partitions of equal jsonb
		}
		if !scalarType(x.T) {
			return Bound{}, b.ErrAt(pgerr.NotYet("PARTITION BY on type "+x.T.String()), NodeLocation(n))
		}
		partition = append(partition, x.E)
		pkeys = append(pkeys, plan.FormatExpr(x.E))
	}
	var order []plan.SortKey
	for _, n := range wd.OrderClause {
		sb := n.GetSortBy()
		if sb == nil || sb.SortbyDir == pg.SortByDir_SORTBY_USING {
			return Bound{}, b.ErrAt(pgerr.NotYet("this window ORDER BY item"), NodeLocation(n))
		}
		x, err := b.Expr(sb.Node)
		if err != nil {
			return Bound{}, err
		}
		x = x.resolveUnknownIn(b)
		if isJSONB(x) {
			x = jsonbSortKey(x) // jsonb_ops.go: jsonb's order
		}
		if x, _, err = b.enumSortKey(x); err != nil { // enum.go: the labels' order
			return Bound{}, b.ErrAt(err, NodeLocation(sb.Node))
		}
		if !scalarType(x.T) {
			return Bound{}, b.ErrAt(pgerr.NotYet("ORDER BY on type "+x.T.String()), NodeLocation(sb.Node))
		}
		k := plan.SortKey{E: x.E, Desc: sb.SortbyDir == pg.SortByDir_SORTBY_DESC}
		switch sb.SortbyNulls {
		case pg.SortByNulls_SORTBY_NULLS_FIRST:
			k.NullsFirst = true
		case pg.SortByNulls_SORTBY_NULLS_LAST:
		default:
			k.NullsFirst = k.Desc
		}
		order = append(order, k)
	}
	var args []Bound
	if !fc.AggStar {
		if args, err = bindArgs(); err != nil {
			return Bound{}, err
		}
	}
	for i := range args {
		args[i] = args[i].resolveUnknownIn(b)
	}
	valueEnum := ""
	if len(args) > 0 {
		valueEnum = args[0].enum
	}
	args, enumLabel, err := b.enumMinMax(name, args) // enum.go: in the labels' order
	if err != nil {
		return Bound{}, b.ErrAt(err, fc.Location)
	}
	// lag/lead's default takes the value's type (PostgreSQL's anyelement:
	// numeric loses its typmod, so a default 0 stays 0).
	if (name == "lag" || name == "lead") && len(args) == 3 {
		if args[0].T.OID == plan.TNumeric.OID && args[0].T.Typmod >= 0 {
			args[0] = Bound{E: b.Coerce(args[0], expr.NumericType()), T: plan.TNumeric}
		}
		args[2] = Bound{E: b.Coerce(args[2], args[0].E.Type()), T: args[0].T}
	}
	call := plan.WindowCall{Fn: name}
	types := make([]arrow.DataType, len(args))
	for i, a := range args {
		call.Args = append(call.Args, a.E)
		types[i] = a.E.Type()
	}
	if fc.AggFilter != nil {
		f, err := b.Expr(fc.AggFilter)
		if err != nil {
			return Bound{}, err
		}
		if call.Filter, err = b.asBool(f, "FILTER", fc.Location); err != nil {
			return Bound{}, err
		}
	}
	t, err := exec.WindowResultType(name, types)
	if err != nil {
		return Bound{}, b.ErrAt(withFunctionHint(err), fc.Location)
	}
	call.T = t
	pt := pgTypeOfArrow(t)
	switch name {
	case "min", "max", "lag", "lead", "first_value", "last_value", "nth_value":
		pt = args[0].T
	}
	if call.Frame, err = b.windowFrame(wd, order); err != nil {
		return Bound{}, err
	}
	key := fmt.Sprintf("%v|%s", pkeys, plan.FormatKeys(order))
	var g *windowGroup
	for _, x := range b.win.groups {
		if x.key == key {
			g = x
		}
	}
	if g == nil {
		g = &windowGroup{key: key, partition: partition, order: order}
		b.win.groups = append(b.win.groups, g)
	}
	id := b.newCol(name, pt, t)
	g.calls = append(g.calls, call)
	g.cols = append(g.cols, id)
	r := b.ref(id)
	switch {
	case enumLabel != nil:
		r = enumLabel(r)
	case valueEnum != "" && pt == args[0].T:
		r.enum = valueEnum // lag, first_value...: a value of the argument's type
	}
	return r, nil
}

// resolveWindow merges OVER (w ...) / OVER w with the query's WINDOW
// clause.
func (b *Binder) resolveWindow(wd *pg.WindowDef, loc int32) (*pg.WindowDef, error) {
	ref := wd.Refname
	if wd.Name != "" && len(wd.PartitionClause) == 0 && len(wd.OrderClause) == 0 && wd.FrameOptions&frameNonDefault == 0 {
		ref = wd.Name // OVER w
	}
	if ref == "" {
		return wd, nil
	}
	base, ok := b.win.named[ref]
	if !ok {
		return nil, b.ErrAt(pgerr.New(pgerr.UndefinedObject, "window \"%s\" does not exist", ref), loc)
	}
	base, err := b.resolveWindow(base, loc)
	if err != nil {
		return nil, err
	}
	if ref == wd.Name {
		return base, nil
	}
	if len(wd.PartitionClause) > 0 {
		return nil, b.ErrAt(pgerr.New(pgerr.WindowingError, "cannot override PARTITION BY clause of window \"%s\"", ref), loc)
	}
	if len(base.OrderClause) > 0 && len(wd.OrderClause) > 0 {
		return nil, b.ErrAt(pgerr.New(pgerr.WindowingError, "cannot override ORDER BY clause of window \"%s\"", ref), loc)
	}
	if base.FrameOptions&frameNonDefault != 0 {
		return nil, b.ErrAt(pgerr.New(pgerr.WindowingError, "cannot copy window \"%s\" because it has a frame clause", ref), loc)
	}
	merged := &pg.WindowDef{PartitionClause: base.PartitionClause, OrderClause: base.OrderClause,
		FrameOptions: wd.FrameOptions, StartOffset: wd.StartOffset, EndOffset: wd.EndOffset}
	if len(wd.OrderClause) > 0 {
		merged.OrderClause = wd.OrderClause
	}
	return merged, nil
}

// windowFrame converts a window definition's frame options.
func (b *Binder) windowFrame(wd *pg.WindowDef, order []plan.SortKey) (exec.WindowFrame, error) {
	fo := wd.FrameOptions
	if fo&frameNonDefault == 0 {
		return exec.DefaultFrame(), nil
	}
	f := exec.WindowFrame{Mode: exec.FrameRange}
	switch {
	case fo&frameRows != 0:
		f.Mode = exec.FrameRows
	case fo&frameGroups != 0:
		f.Mode = exec.FrameGroups
		if len(order) == 0 {
			return f, pgerr.New(pgerr.WindowingError, "GROUPS mode requires an ORDER BY clause")
		}
	}
	offset := func(n *pg.Node) (expr.Expr, error) {
		x, err := b.Expr(n)
		if err != nil {
			return nil, err
		}
		if plan.UsesColumns(x.E) {
			return nil, b.ErrAt(pgerr.New(pgerr.WindowingError, "argument of %s must not contain variables", map[exec.FrameMode]string{exec.FrameRows: "ROWS", exec.FrameRange: "RANGE", exec.FrameGroups: "GROUPS"}[f.Mode]), NodeLocation(n))
		}
		if f.Mode != exec.FrameRange {
			return b.Coerce(x, expr.Int8), nil
		}
		if len(order) != 1 {
			return nil, b.ErrAt(pgerr.New(pgerr.WindowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column"), NodeLocation(n))
		}
		kt := order[0].E.Type()
		if x.T.OID == plan.TInterval.OID || (x.Unknown() && (kt.ID() == arrow.DATE32 || kt.ID() == arrow.TIMESTAMP)) {
			// Over a date or timestamp key the offset is an interval.
			return b.Coerce(x, arrow.FixedWidthTypes.MonthDayNanoInterval), nil
		}
		if kt.ID() == arrow.DATE32 {
			return b.Coerce(x, expr.Int8), nil
		}
		return b.Coerce(x, kt), nil
	}
	var err error
	switch {
	case fo&frameStartUnboundedPrec != 0:
		f.Start.Kind = exec.UnboundedPreceding
	case fo&frameStartCurrentRow != 0:
		f.Start.Kind = exec.CurrentRow
	case fo&frameStartOffsetPrec != 0:
		f.Start.Kind = exec.OffsetPreceding
		f.Start.Offset, err = offset(wd.StartOffset)
	case fo&frameStartOffsetFoll != 0:
		f.Start.Kind = exec.OffsetFollowing
		f.Start.Offset, err = offset(wd.StartOffset)
	case fo&frameStartUnboundedFoll != 0:
		return f, pgerr.New(pgerr.WindowingError, "frame start cannot be UNBOUNDED FOLLOWING")
	}
	if err != nil {
		return f, err
	}
	switch {
	case fo&frameEndUnboundedFoll != 0:
		f.End.Kind = exec.UnboundedFollowing
	case fo&frameEndCurrentRow != 0:
		f.End.Kind = exec.CurrentRow
	case fo&frameEndOffsetPrec != 0:
		f.End.Kind = exec.OffsetPreceding
		f.End.Offset, err = offset(wd.EndOffset)
	case fo&frameEndOffsetFoll != 0:
		f.End.Kind = exec.OffsetFollowing
		f.End.Offset, err = offset(wd.EndOffset)
	case fo&frameEndUnboundedPrec != 0:
		return f, pgerr.New(pgerr.WindowingError, "frame end cannot be UNBOUNDED PRECEDING")
	default:
		f.End.Kind = exec.CurrentRow // ROWS n PRECEDING means BETWEEN n PRECEDING AND CURRENT ROW
	}
	if err != nil {
		return f, err
	}
	switch {
	case fo&frameExcludeCurrentRow != 0:
		f.Exclude = exec.ExcludeCurrentRow
	case fo&frameExcludeGroup != 0:
		f.Exclude = exec.ExcludeGroup
	case fo&frameExcludeTies != 0:
		f.Exclude = exec.ExcludeTies
	}
	return f, nil
}
