package translate

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// A prepared query is bound once for all its executions: its template is
// the bound plan with a placeholder where each parameter is used
// (bind.ParamSet.Template). Each Execute replays the catalog lookups the
// binding made (the tables and views its names resolved to, under the
// search_path of now) and, when they still give the same objects with the
// same schema, partition spec and properties, copies the template with the
// parameters' values and the tables' current snapshots in place, and
// optimizes and lowers that; file planning and pruning then see the
// values. Anything else makes the statement bind again as before: a
// lookup that gives another answer (a table dropped and created, a view
// replaced, ALTER TABLE, another search_path), or a binding that used what
// an Execute may see differently (the clock, a setting, the current user,
// the system catalogs, reg* types, LIMIT $1, time travel, metadata
// tables, sequences), or a parameter of a type templates do not take.

// queryTemplate is a prepared query's plan bound once.
type queryTemplate struct {
	plan    *plan.Select
	phs     []bind.Placeholder
	lookups []envLookup
	loc     string // the TimeZone binding used
	// opt is the plan optimized with the parameters opaque, for the
	// snapshots and settings it records (statement_template_opt.go).
	opt *optimizedTemplate
	// noOpt: the optimized plan does not hold every parameter where
	// instantiation reaches it; each Execute optimizes its own copy.
	noOpt bool
}

// templateParamTypes are the parameter types a template takes: values
// whose binding depends only on their type.
var templateParamTypes = map[uint32]bool{
	pgtypes.Bool: true, pgtypes.Int2: true, pgtypes.Int4: true, pgtypes.Int8: true,
	pgtypes.Float4: true, pgtypes.Float8: true, pgtypes.Numeric: true,
	pgtypes.Text: true, pgtypes.Varchar: true,
	pgtypes.Date: true, pgtypes.Time: true, pgtypes.Timestamp: true, pgtypes.Timestamptz: true,
	pgtypes.UUID: true, pgtypes.Bytea: true, pgtypes.Interval: true,
}

func templateTypesOK(types []uint32) bool {
	for _, t := range types {
		if !templateParamTypes[t] {
			return false
		}
	}
	return true
}

// lookupKind says which bind.Env method an envLookup records.
type lookupKind uint8

const (
	lookTable lookupKind = iota
	lookView
	lookViewText
	lookTempView
)

// envLookup is one catalog lookup of a binding and what it gave.
type envLookup struct {
	kind  lookupKind
	tn    parse.TableName
	name  string // lookTempView
	table *catalog.Table
	view  *bind.ViewDef
	sql   string
	ns    []string
	found bool
	code  string // the error's SQLSTATE; "" when none
	msg   string
}

// recordingEnv is the session as a template's binding sees it: the
// catalog lookups are recorded, and what may differ at the next Execute
// marks the binding unstable. After binding (done), functions a plan
// keeps call the session as they would.
type recordingEnv struct {
	s        *session
	lookups  []envLookup
	loc      string
	unstable bool
	done     bool
}

func (r *recordingEnv) volatile() {
	if !r.done {
		r.unstable = true
	}
}

func errOutcome(err error) (code, msg string) {
	if err == nil {
		return "", ""
	}
	if pe := pgerr.As(err); pe != nil {
		return pe.Code, pe.Message
	}
	return pgerr.InternalError, err.Error()
}

func (r *recordingEnv) ResolveTable(ctx context.Context, tn parse.TableName) (*catalog.Table, error) {
	t, err := r.s.ResolveTable(ctx, tn)
	if !r.done {
		code, msg := errOutcome(err)
		r.lookups = append(r.lookups, envLookup{kind: lookTable, tn: tn, table: t, code: code, msg: msg})
	}
	return t, err
}

func (r *recordingEnv) ResolveView(ctx context.Context, tn parse.TableName) (*bind.ViewDef, error) {
	v, err := r.s.ResolveView(ctx, tn)
	if !r.done {
		code, msg := errOutcome(err)
		r.lookups = append(r.lookups, envLookup{kind: lookView, tn: tn, view: v, code: code, msg: msg})
	}
	return v, err
}

func (r *recordingEnv) LookupView(ctx context.Context, tn parse.TableName) (string, []string, bool, error) {
	sql, ns, found, err := r.s.LookupView(ctx, tn)
	if !r.done {
		code, msg := errOutcome(err)
		r.lookups = append(r.lookups, envLookup{kind: lookViewText, tn: tn, sql: sql, ns: ns, found: found, code: code, msg: msg})
	}
	return sql, ns, found, err
}

func (r *recordingEnv) IsTempView(name string) bool {
	ok := r.s.IsTempView(name)
	if !r.done {
		r.lookups = append(r.lookups, envLookup{kind: lookTempView, name: name, found: ok})
	}
	return ok
}

// ReadSnapshot is taken again at each Execute (rebindScans).
func (r *recordingEnv) ReadSnapshot(t *catalog.Table) *catalog.Snapshot { return r.s.ReadSnapshot(t) }

func (r *recordingEnv) Location() *time.Location {
	loc := r.s.Location()
	if !r.done {
		r.loc = loc.String()
	}
	return loc
}

// The session's identity for its whole life.
func (r *recordingEnv) DatabaseName() string      { return r.s.DatabaseName() }
func (r *recordingEnv) CatalogName() string       { return r.s.CatalogName() }
func (r *recordingEnv) BackendPID() int32         { return r.s.BackendPID() }
func (r *recordingEnv) BackendStarted() time.Time { return r.s.BackendStarted() }

// The function registries are the backend's, the same for every
// statement; their definitions bind over the binder, whose Env is this
// one, so what they ask of the session is recorded or marks the binding
// unstable here.
func (r *recordingEnv) SysFuncs() bind.SysFuncs   { return r.s.SysFuncs() }
func (r *recordingEnv) SparkFuncs() bind.FuncDefs { return r.s.SparkFuncs() }
func (r *recordingEnv) JSONFuncs() bind.JSONFuncs { return r.s.JSONFuncs() }

// What a later Execute may see differently: the names of catalog objects
// (reg* types), Iceberg's own FROM items (time travel, metadata tables),
// settings, users, the system catalogs.
func (r *recordingEnv) RegTypes() bind.RegTypes       { r.volatile(); return r.s.RegTypes() }
func (r *recordingEnv) IcebergFrom() bind.IcebergFrom { r.volatile(); return r.s.IcebergFrom() }
func (r *recordingEnv) SysSnapshot(ctx context.Context) (*syscat.Snapshot, error) {
	r.volatile()
	return r.s.SysSnapshot(ctx)
}
func (r *recordingEnv) EffectiveOption(o *conf.IcebergOption, stmt, props map[string]string) bind.OptionValue {
	r.volatile()
	return r.s.EffectiveOption(o, stmt, props)
}
func (r *recordingEnv) CurrentUser() string { r.volatile(); return r.s.CurrentUser() }
func (r *recordingEnv) SessionUser() string { r.volatile(); return r.s.SessionUser() }
func (r *recordingEnv) CurrentSchema(ctx context.Context) string {
	r.volatile()
	return r.s.CurrentSchema(ctx)
}
func (r *recordingEnv) SearchPath() []string { r.volatile(); return r.s.SearchPath() }
func (r *recordingEnv) SettingValue(name string) (string, bool) {
	r.volatile()
	return r.s.SettingValue(name)
}
func (r *recordingEnv) CurrentSetting(args []any) (any, error) {
	r.volatile()
	return r.s.CurrentSetting(args)
}
func (r *recordingEnv) SetConfig(args []any) (any, error) { r.volatile(); return r.s.SetConfig(args) }
func (r *recordingEnv) Backends() bind.Backends           { r.volatile(); return r.s.Backends() }
func (r *recordingEnv) Txid() int64                       { r.volatile(); return r.s.Txid() }
func (r *recordingEnv) OptionRows(opts []conf.IcebergOption, stmt, props map[string]string) [][]any {
	r.volatile()
	return r.s.OptionRows(opts, stmt, props)
}

var _ bind.Env = (*recordingEnv)(nil)

// sameTableShape reports whether a plan bound over table a serves table
// b: the same table (not one dropped and created again under the name)
// with the same schema, partition spec and properties (recorded
// PostgreSQL types, enum columns...). Its snapshot may differ.
func sameTableShape(a, b *catalog.Table) bool {
	if a == nil || b == nil || a.Metadata == nil || b.Metadata == nil {
		return a == b
	}
	ma, mb := a.Metadata, b.Metadata
	return a.Ident.Name == b.Ident.Name && slices.Equal(a.Ident.Namespace, b.Ident.Namespace) &&
		ma.TableUUID == mb.TableUUID && ma.FormatVersion == mb.FormatVersion &&
		ma.CurrentSchemaID == mb.CurrentSchemaID && ma.DefaultSpecID == mb.DefaultSpecID &&
		ma.Location == mb.Location && maps.Equal(ma.Properties, mb.Properties)
}

func sameView(a, b *bind.ViewDef) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Ident.Name == b.Ident.Name && slices.Equal(a.Ident.Namespace, b.Ident.Namespace) &&
		a.Temp == b.Temp && a.SQL == b.SQL && a.Dialect == b.Dialect &&
		slices.Equal(a.DefaultNS, b.DefaultNS) && slices.Equal(a.Columns, b.Columns)
}

// replay makes the template's lookups again. ok is false when one gives
// another answer; tables maps each table the template holds to the one
// this Execute reads.
func (tp *queryTemplate) replay(ctx context.Context, s *session) (tables map[*catalog.Table]*catalog.Table, ok bool) {
	if tp.loc != "" && s.Location().String() != tp.loc {
		return nil, false
	}
	for _, l := range tp.lookups {
		switch l.kind {
		case lookTable:
			t, err := s.ResolveTable(ctx, l.tn)
			code, msg := errOutcome(err)
			if code != l.code || msg != l.msg || !sameTableShape(l.table, t) {
				return nil, false
			}
			if t != nil && t != l.table {
				if tables == nil {
					tables = map[*catalog.Table]*catalog.Table{}
				}
				tables[l.table] = t
			}
		case lookView:
			v, err := s.ResolveView(ctx, l.tn)
			code, msg := errOutcome(err)
			if code != l.code || msg != l.msg || !sameView(l.view, v) {
				return nil, false
			}
		case lookViewText:
			sql, ns, found, err := s.LookupView(ctx, l.tn)
			code, msg := errOutcome(err)
			if code != l.code || msg != l.msg || found != l.found || sql != l.sql || !slices.Equal(ns, l.ns) {
				return nil, false
			}
		case lookTempView:
			if s.IsTempView(l.name) != l.found {
				return nil, false
			}
		}
	}
	return tables, true
}

// bindTemplate binds st's query as a template. It returns nil (and no
// error) when the query cannot have one; an error is a binding error the
// query would have at any Execute.
func (st *selectStatement) bindTemplate(ctx context.Context) (*queryTemplate, error) {
	rec := &recordingEnv{s: st.sess}
	ps := &bind.ParamSet{Types: append([]uint32(nil), st.params...), Template: true}
	b := bind.New(ctx, rec, st.ps, ps, time.Now())
	p, err := b.BindSelect(st.ps.Node.GetSelectStmt())
	rec.done = true
	if err != nil || ps.Unstable || rec.unstable || len(ps.Types) != len(st.params) {
		return nil, err
	}
	tp := &queryTemplate{plan: p, phs: ps.Placeholders, lookups: rec.lookups, loc: rec.loc}
	if !tp.check(st.sess) {
		return nil, nil
	}
	return tp, nil
}

// check reports whether the template's plan can be copied with values:
// it reads only catalog tables at the snapshot a statement reads them at
// (no time travel, no metadata tables or other sources) and every
// placeholder is in the tree where the copy reaches it.
func (tp *queryTemplate) check(s *session) bool {
	seen := map[expr.Expr]bool{}
	ok := true
	visitExpr := func(e expr.Expr) {
		plan.WalkExpr(e, func(e expr.Expr) { seen[e] = true })
	}
	var visitPlan func(p *plan.Select)
	var visit func(r plan.Rel)
	visitedCTE := map[*plan.CTE]bool{}
	visit = func(r plan.Rel) {
		switch x := r.(type) {
		case *plan.Scan:
			if x.Table == nil || s.ReadSnapshot(x.Table) != x.Snapshot {
				ok = false
			}
		case *plan.CTEScan:
			if !visitedCTE[x.CTE] {
				visitedCTE[x.CTE] = true
				visit(x.CTE.Body)
			}
		case *plan.OneRow, *plan.Values, *plan.Filter, *plan.Project, *plan.Agg, *plan.Join,
			*plan.Sort, *plan.Limit, *plan.Window, *plan.SetOp, *plan.TableFunc,
			*plan.Recursive, *plan.WorkTable:
		default:
			ok = false
		}
		for _, e := range plan.Exprs(r) {
			visitExpr(e)
			plan.WalkExpr(e, func(e expr.Expr) {
				if sq, isSub := e.(*plan.Subquery); isSub {
					visitPlan(sq.Plan)
				}
			})
		}
		for _, c := range plan.Children(r) {
			visit(c)
		}
	}
	visitPlan = func(p *plan.Select) {
		visit(p.Root)
		for _, e := range p.Output {
			visitExpr(e)
		}
	}
	visitPlan(tp.plan)
	for _, ph := range tp.phs {
		if !seen[ph.E] {
			return false
		}
	}
	return ok
}

// paramValues converts the text values of an Execute to the constants
// that replace the placeholders, by the parameters' types, raising the
// errors binding them would (22P02 for bad input...).
func paramValues(ctx context.Context, s *session, types []uint32, params []*string, typed []any) ([]*expr.Lit, error) {
	out := make([]*expr.Lit, len(types))
	opts := expr.CompileOptions{TimeZone: s.Location()}
	for i, oid := range types {
		at := plan.ArrowOf(plan.Type{OID: oid, Typmod: -1})
		if i < len(typed) && typed[i] != nil {
			v := typed[i]
			if n, ok := v.(Numeric); ok {
				v = catalog.Decimal{Unscaled: n.Unscaled, Scale: n.Scale}
			}
			out[i] = &expr.Lit{V: v, T: at}
			continue
		}
		if params[i] == nil {
			out[i] = &expr.Lit{V: nil, T: at}
			continue
		}
		if at.ID() == expr.Text.ID() {
			out[i] = &expr.Lit{V: *params[i], T: expr.Text}
			continue
		}
		if v, ok := plainInteger(oid, *params[i]); ok {
			out[i] = &expr.Lit{V: v, T: at}
			continue
		}
		lit, err := evalConst(ctx, &expr.Cast{Arg: &expr.Lit{V: *params[i], T: expr.Text}, T: at}, opts)
		if err != nil {
			return nil, err
		}
		out[i] = lit
	}
	return out, nil
}

// plainInteger reads the text of an integer parameter that is only an
// optional sign and decimal digits, in range, as the integer input
// function would; anything else (spaces, out of range, bad input) is
// left to the cast, which says what PostgreSQL says.
func plainInteger(oid uint32, s string) (any, bool) {
	bits := 0
	switch oid {
	case pgtypes.Int2:
		bits = 16
	case pgtypes.Int4:
		bits = 32
	case pgtypes.Int8:
		bits = 64
	default:
		return nil, false
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		return nil, false
	}
	switch bits {
	case 16:
		return int16(n), true
	case 32:
		return int32(n), true
	}
	return n, true
}

// evalConst evaluates an expression without columns to a constant.
func evalConst(ctx context.Context, e expr.Expr, opts expr.CompileOptions) (*expr.Lit, error) {
	prog, err := expr.Compile(e, bind.EmptySchema, opts)
	if err != nil {
		return nil, err
	}
	one := array.NewRecordBatch(bind.EmptySchema, nil, 1)
	defer one.Release()
	arr, err := prog.Eval(ctx, one)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	return expr.ValueLit(arr, 0)
}

// instantiate copies the template's plan with each placeholder replaced
// by its parameter's value and each table by the one this Execute reads,
// at the snapshot the statement reads it at.
func (tp *queryTemplate) instantiate(s *session, vals []*expr.Lit, tables map[*catalog.Table]*catalog.Table) *plan.Select {
	subst := make(map[expr.Expr]expr.Expr, len(tp.phs))
	for _, ph := range tp.phs {
		subst[ph.E] = vals[ph.N-1]
	}
	in := &instantiation{s: s, subst: subst, tables: tables,
		ctes: map[*plan.CTE]*plan.CTE{}, subs: map[*plan.Subquery]*plan.Subquery{}}
	return in.plan(tp.plan)
}

type instantiation struct {
	s      *session
	subst  map[expr.Expr]expr.Expr
	tables map[*catalog.Table]*catalog.Table
	ctes   map[*plan.CTE]*plan.CTE
	subs   map[*plan.Subquery]*plan.Subquery
	// keepTables keeps the template's tables in the copy's scans (with
	// the snapshots of the tables this Execute reads), so that the copy
	// is instantiated again through the same table map.
	keepTables bool
	// post, when set, rewrites each expression a substitution changed.
	post func(expr.Expr) expr.Expr
}

func (in *instantiation) plan(p *plan.Select) *plan.Select {
	n := *p
	n.Root = in.rel(p.Root)
	if len(p.Output) > 0 {
		n.Output = make([]expr.Expr, len(p.Output))
		for i, e := range p.Output {
			n.Output[i] = in.expr(e)
		}
	}
	return &n
}

func (in *instantiation) rel(r plan.Rel) plan.Rel {
	switch x := r.(type) {
	case *plan.Scan:
		t := x.Table
		if nt, ok := in.tables[t]; ok {
			t = nt
		}
		n := *x
		if !in.keepTables {
			n.Table = t
		}
		n.Snapshot = in.s.ReadSnapshot(t)
		return &n
	case *plan.CTEScan:
		n := *x
		n.CTE = in.cte(x.CTE)
		return &n
	}
	return plan.Map(r, in.rel, in.expr)
}

func (in *instantiation) cte(c *plan.CTE) *plan.CTE {
	if n, ok := in.ctes[c]; ok {
		return n
	}
	n := &plan.CTE{Name: c.Name, Out: c.Out, Cols: c.Cols}
	in.ctes[c] = n
	n.Body = in.rel(c.Body)
	return n
}

func (in *instantiation) expr(e expr.Expr) expr.Expr {
	substituted := false
	out, _ := plan.RewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
		if v, ok := in.subst[e]; ok {
			substituted = true
			return v, nil
		}
		sq, ok := e.(*plan.Subquery)
		if !ok {
			return e, nil
		}
		if n, ok := in.subs[sq]; ok {
			return n, nil
		}
		n := *sq
		in.subs[sq] = &n
		n.Plan = in.plan(sq.Plan)
		return &n, nil
	})
	if substituted && in.post != nil {
		out = in.post(out)
	}
	return out
}
