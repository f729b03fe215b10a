package bind

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// SetReturningFuncs are the set-returning functions icegate evaluates
// (engine/exec's table functions).
var SetReturningFuncs = map[string]bool{"generate_series": true, "unnest": true, "generate_subscripts": true}

// bindTableFuncArgs binds the arguments of a set-returning function and
// the columns it returns.
func (b *Binder) bindTableFuncArgs(fc *pg.FuncCall, name string) ([]expr.Expr, []arrow.Field, error) {
	args, err := b.exprs(fc.Args)
	if err != nil {
		return nil, nil, err
	}
	types := make([]arrow.DataType, len(args))
	for i := range args {
		types[i] = args[i].arrowType()
	}
	if name == "generate_series" && len(types) >= 2 {
		// start and stop share one type; so does a numeric step, while a
		// timestamp series steps by an interval.
		t, err := expr.CommonType("generate_series", types[:2])
		if err != nil {
			return nil, nil, b.ErrAt(err, fc.Location)
		}
		if t.ID() == arrow.NULL {
			t = expr.Int4
		}
		types[0], types[1] = t, t
		if len(types) == 3 {
			if t.ID() == arrow.TIMESTAMP {
				types[2] = plan.ArrowOf(plan.TInterval)
			} else {
				types[2] = t
			}
		}
	}
	out := make([]expr.Expr, len(args))
	for i, a := range args {
		if a.Unknown() && name != "generate_series" {
			a = a.resolveUnknownIn(b)
			types[i] = a.E.Type()
		}
		out[i] = b.Coerce(a, types[i])
		if name == "unnest" && expr.IsMultiDimList(types[i]) {
			// unnest reads an array of several dimensions in row-major
			// order, as PostgreSQL does.
			r, err := expr.Resolve("array_flatten", types[i:i+1])
			if err != nil {
				return nil, nil, b.ErrAt(err, fc.Location)
			}
			out[i] = &expr.Call{Fn: "array_flatten", Args: []expr.Expr{out[i]}, T: r.Result}
			types[i] = r.Result
		}
	}
	fields, err := exec.TableFuncColumns(name, types)
	if err != nil {
		return nil, nil, b.ErrAt(withFunctionHint(err), fc.Location)
	}
	if name == "unnest" && len(args) == 1 && len(fields) == 1 {
		fields[0] = withElemPGType(fields[0], args[0].T)
	}
	return out, fields, nil
}

// bindRangeFunction binds a function in FROM (implicitly LATERAL: its
// arguments may use the columns of the items before it) and joins it to
// left.
func (b *Binder) bindRangeFunction(rf *pg.RangeFunction, left plan.Rel) (plan.Rel, error) {
	// The Iceberg table functions (iceberg.snapshot, as_of, table_changes)
	// on the right of a join.
	if r, ok, err := b.bindSnapshotFunction(rf); ok {
		if err != nil || left == nil {
			return r, err
		}
		return &plan.Join{Typ: plan.JoinInner, Left: left, Right: r}, nil
	}
	if len(rf.Functions) != 1 {
		return b.bindRowsFrom(rf, left)
	}
	items := rf.Functions[0].GetList().GetItems()
	if len(items) > 1 && items[1] != nil && items[1].GetList() != nil && len(items[1].GetList().GetItems()) > 0 {
		return nil, pgerr.NotYet("a column definition list for a function")
	}
	fc := items[0].GetFuncCall()
	if fc == nil {
		return nil, b.ErrAt(pgerr.NotYet("this function in FROM"), NodeLocation(items[0]))
	}
	name := funcName(fc)
	fc, name = b.vectorSubscripts(fc, name)
	if name == "pg_get_keywords" {
		return b.bindKeywords(rf, fc, left)
	}
	if name == "pg_options_to_table" {
		return b.bindOptionsToTable(rf, fc, left)
	}
	if name == "_pg_expandarray" {
		return nil, b.ErrAt(pgerr.NotYet("information_schema._pg_expandarray in FROM"), fc.Location)
	}
	if jsonRecordFuncs[name] {
		return b.bindJSONRecord(rf, fc, name, left)
	}
	if jsonPopulateFuncs[name] {
		return b.bindJSONPopulate(rf, fc, name, left)
	}
	if !SetReturningFuncs[name] {
		return b.bindScalarFromFunction(rf, fc, name, left)
	}
	if jsonSRFs[name] {
		saved := b.where
		b.where = "functions in FROM"
		fn, args, fields, err := b.jsonTableFunc(fc, name)
		b.where = saved
		if err != nil {
			return nil, err
		}
		if len(b.pending) > 0 {
			return nil, b.ErrAt(pgerr.NotYetPlural("subqueries in function arguments in FROM"), fc.Location)
		}
		return b.rangeFuncRel(rf, name, fn, args, fields, left, fc.Location)
	}
	saved := b.where
	b.where = "functions in FROM"
	args, fields, err := b.bindTableFuncArgs(fc, name)
	b.where = saved
	if err != nil {
		return nil, err
	}
	if len(b.pending) > 0 {
		return nil, b.ErrAt(pgerr.NotYetPlural("subqueries in function arguments in FROM"), fc.Location)
	}
	return b.rangeFuncRel(rf, name, name, args, fields, left, fc.Location)
}

// rangeFuncRel makes the FROM item of a set-returning function call fn
// (args) with columns fields, named name, joined to left.
func (b *Binder) rangeFuncRel(rf *pg.RangeFunction, name, fn string, args []expr.Expr, fields []arrow.Field, left plan.Rel, loc int32) (plan.Rel, error) {
	alias, colAliases := aliasOf(rf.Alias)
	ncols := len(fields)
	if rf.Ordinality {
		ncols++
	}
	if len(colAliases) > ncols {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified", alias, ncols, len(colAliases)), loc)
	}
	tf := &plan.TableFunc{Fn: fn, Args: args, Ordinality: rf.Ordinality}
	it := &rangeItem{alias: alias, name: name}
	for i, f := range fields {
		cname := f.Name
		if len(fields) == 1 && alias != "" && !strings.Contains(name, "_array_elements") {
			// A function's column takes the alias, unless it is its
			// named output parameter (jsonb_array_elements' value).
			cname = alias
		}
		if i < len(colAliases) {
			cname = colAliases[i]
		}
		id := b.newCol(cname, fieldPGType(f), f.Type)
		tf.Cols = append(tf.Cols, id)
		it.cols = append(it.cols, itemCol{name: cname, id: id})
	}
	if len(fields) == 1 && !rf.Ordinality && alias != "" && len(colAliases) == 0 && it.cols[0].name != alias {
		// The alias of a function of one column that keeps its own name
		// (jsonb_array_elements(...) AS x) still means the value.
		it.cols = append(it.cols, itemCol{name: alias, id: tf.Cols[0], hidden: true})
	}
	if rf.Ordinality {
		cname := "ordinality"
		if len(fields) < len(colAliases) {
			cname = colAliases[len(fields)]
		}
		id := b.newCol(cname, plan.TInt8, expr.Int8)
		tf.Cols = append(tf.Cols, id)
		it.cols = append(it.cols, itemCol{name: cname, id: id})
	}
	b.scope.items = append(b.scope.items, it)
	lateral := false
	if left != nil {
		produced := plan.SetOf(plan.ProducedCols(left))
		for _, a := range args {
			lateral = lateral || plan.RefsOf(a).Intersects(produced)
		}
	}
	if lateral {
		tf.In = left
		return tf, nil
	}
	tf.In = &plan.OneRow{}
	if left == nil {
		return tf, nil
	}
	return &plan.Join{Typ: plan.JoinInner, Left: left, Right: tf}, nil
}

// selectListSRF binds a set-returning function in a select list: the
// rows of the query are repeated for each value it returns.
func (b *Binder) selectListSRF(fc *pg.FuncCall, name string) (Bound, error) {
	fc, name = b.vectorSubscripts(fc, name)
	if b.win == nil || b.where != "" || b.inAgg {
		where := b.where
		if where == "" {
			where = "this context"
		}
		return Bound{}, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in %s", where), fc.Location)
	}
	var args []expr.Expr
	var fields []arrow.Field
	var err error
	fn := name
	if jsonSRFs[name] {
		fn, args, fields, err = b.jsonTableFunc(fc, name)
		if err == nil && strings.HasPrefix(fn, "zip(") {
			// jsonb_each(j) in a select list: one column of records.
			fn, args = name+"_records", args[:1]
			fields = []arrow.Field{{Name: name, Type: expr.Text, Nullable: true,
				Metadata: arrow.NewMetadata([]string{elemPGTypeKey}, []string{strconv.FormatUint(uint64(pgtypes.Record), 10)})}}
		}
	} else {
		args, fields, err = b.bindTableFuncArgs(fc, name)
	}
	if err != nil {
		return Bound{}, err
	}
	if len(fields) != 1 {
		return Bound{}, b.ErrAt(pgerr.NotYet("a set-returning function with several columns in a select list"), fc.Location)
	}
	id := b.newCol(name, fieldPGType(fields[0]), fields[0].Type)
	r := b.ref(id)
	r.Name, r.strong = name, true
	for k, p := range b.pending {
		if p.srf != nil {
			// Another one in the same select list: evaluated in step.
			if err := zipInto(p.srf, fn, args, id); err != nil {
				return Bound{}, b.ErrAt(err, fc.Location)
			}
			if err := b.sinkSRFAfterInputs(k); err != nil {
				return Bound{}, b.ErrAt(err, fc.Location)
			}
			return r, nil
		}
	}
	b.pending = append(b.pending, pendingJoin{srf: &plan.TableFunc{Fn: fn, Args: args, Cols: []plan.ColID{id}}})
	return r, nil
}

// setReturningSysFuncs are the set-returning catalog functions:
// pg_get_keywords(), pg_options_to_table(text[]) and
// information_schema._pg_expandarray(anyarray).
var setReturningSysFuncs = map[string]bool{"pg_get_keywords": true, "pg_options_to_table": true, "_pg_expandarray": true}

// optionsToTable is pg_options_to_table(options) as a query over the
// options array ("name=value" items, as reloptions and the FDW catalogs
// hold them); the NULL::text[] stands for the argument.
const optionsToTable = `SELECT split_part(o, '=', 1) AS option_name,
	CASE WHEN strpos(o, '=') > 0 THEN substr(o, strpos(o, '=') + 1) END AS option_value
	FROM unnest(NULL::text[]) AS o`

// bindOptionsToTable binds pg_options_to_table(text[]) in FROM: a row
// (option_name, option_value) per "name=value" item, split at the first
// '=', as a LATERAL subquery over unnest of the argument.
func (b *Binder) bindOptionsToTable(rf *pg.RangeFunction, fc *pg.FuncCall, left plan.Rel) (plan.Rel, error) {
	if len(fc.Args) != 1 {
		return nil, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function pg_options_to_table(...) does not exist").
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
	}
	if rf.Ordinality {
		return nil, b.ErrAt(pgerr.NotYet("WITH ORDINALITY on pg_options_to_table"), fc.Location)
	}
	tree, err := pg.Parse(optionsToTable)
	if err != nil {
		return nil, err
	}
	query := tree.Stmts[0].Stmt
	unnest := query.GetSelectStmt().FromClause[0].GetRangeFunction().Functions[0].GetList().Items[0].GetFuncCall()
	unnest.Args[0].GetTypeCast().Arg = fc.Args[0]
	alias := rf.Alias
	if alias == nil {
		alias = &pg.Alias{Aliasname: "pg_options_to_table"}
	}
	return b.bindRangeSubselect(&pg.RangeSubselect{Lateral: true, Subquery: query, Alias: alias}, left)
}

// bindKeywords binds pg_get_keywords() in FROM: PostgreSQL 15's keywords
// (word, catcode, barelabel, catdesc, baredesc) as constant rows.
func (b *Binder) bindKeywords(rf *pg.RangeFunction, fc *pg.FuncCall, left plan.Rel) (plan.Rel, error) {
	if len(fc.Args) != 0 {
		return nil, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function pg_get_keywords(...) does not exist").
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
	}
	if rf.Ordinality {
		return nil, b.ErrAt(pgerr.NotYet("WITH ORDINALITY on pg_get_keywords"), fc.Location)
	}
	alias, colAliases := aliasOf(rf.Alias)
	if alias == "" {
		alias = "pg_get_keywords"
	}
	names := []string{"word", "catcode", "barelabel", "catdesc", "baredesc"}
	types := []plan.Type{plan.TText, {OID: pgtypes.Char, Typmod: -1}, plan.TBool, plan.TText, plan.TText}
	if len(colAliases) > len(names) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified", alias, len(names), len(colAliases)), fc.Location)
	}
	catdesc := map[string]string{"U": "unreserved", "C": "unreserved (cannot be function or type name)",
		"T": "reserved (can be function or type name)", "R": "reserved"}
	vr := &plan.Values{}
	for _, k := range syscat.Keywords() {
		baredesc := "requires AS"
		if k.BareLabel {
			baredesc = "can be bare label"
		}
		cat := string(k.Category)
		vr.Rows = append(vr.Rows, []expr.Expr{&expr.Lit{V: k.Word, T: expr.Text}, &expr.Lit{V: cat, T: expr.Text},
			&expr.Lit{V: k.BareLabel, T: expr.Bool}, &expr.Lit{V: catdesc[cat], T: expr.Text}, &expr.Lit{V: baredesc, T: expr.Text}})
	}
	it := &rangeItem{alias: alias, name: "pg_get_keywords"}
	for i, n := range names {
		if i < len(colAliases) {
			n = colAliases[i]
		}
		id := b.newCol(n, types[i], plan.ArrowOf(types[i]))
		vr.Cols = append(vr.Cols, id)
		it.cols = append(it.cols, itemCol{name: n, id: id})
	}
	b.scope.items = append(b.scope.items, it)
	if left == nil {
		return vr, nil
	}
	return &plan.Join{Typ: plan.JoinInner, Left: left, Right: vr}, nil
}

// sinkSRFAfterInputs moves the select list's set-returning function, the
// pending entry k, after the pending joins bound since it that compute
// its arguments: a second function's argument may be a correlated
// subquery (unnest((SELECT array_agg(...) WHERE ... = t.x))), whose join
// came after the first function's entry.
func (b *Binder) sinkSRFAfterInputs(k int) error {
	srf := b.pending[k]
	needs := plan.ColSet{}
	for _, a := range srf.srf.Args {
		needs.AddRefs(a)
	}
	last := k
	for i := k + 1; i < len(b.pending); i++ {
		if plan.SetOf(pendingOutCols(b.pending[i])).Intersects(needs) {
			last = i
		}
	}
	if last == k {
		return nil
	}
	own := plan.SetOf(srf.srf.Cols)
	for i := k + 1; i <= last; i++ {
		if pendingReads(b.pending[i]).Intersects(own) {
			return pgerr.NotYet("this combination of set-returning functions and subqueries in one select list")
		}
	}
	copy(b.pending[k:last], b.pending[k+1:last+1])
	b.pending[last] = srf
	return nil
}

// pendingOutCols are the columns a pending join adds to its input.
func pendingOutCols(p pendingJoin) []plan.ColID {
	if p.srf != nil {
		return p.srf.Cols
	}
	switch p.typ {
	case plan.JoinSemi, plan.JoinAnti:
		return nil
	case plan.JoinMark:
		return []plan.ColID{p.mark}
	}
	return p.right.OutCols()
}

// zipInto adds the set-returning function fn(args) with result column id
// to the select list's set-returning function tf: the functions are
// evaluated in step (engine/exec's zipped calls).
func zipInto(tf *plan.TableFunc, fn string, args []expr.Expr, id plan.ColID) error {
	if tf.Ordinality || tf.Outer || len(tf.Cols) == 0 {
		return pgerr.NotYet("several set-returning functions in one select list")
	}
	if strings.HasPrefix(tf.Fn, "zip(") {
		// zip(f:1,g:2) + h(x) = zip(f:1,g:2,h:1)
		tf.Fn = strings.TrimSuffix(tf.Fn, ")") + "," + strings.TrimPrefix(exec.ZipFuncName([]string{fn}, []int{len(args)}), "zip(")
	} else {
		tf.Fn = exec.ZipFuncName([]string{tf.Fn, fn}, []int{len(tf.Args), len(args)})
	}
	tf.Args = append(append([]expr.Expr(nil), tf.Args...), args...)
	tf.Cols = append(tf.Cols, id)
	return nil
}

// bindScalarFromFunction binds a function that returns one value used as
// a FROM item (string_to_array(...) AS s): a table of one row and one
// column, named after the alias or else the function. Its arguments may
// use the columns of the items before it.
func (b *Binder) bindScalarFromFunction(rf *pg.RangeFunction, fc *pg.FuncCall, name string, left plan.Rel) (plan.Rel, error) {
	if AggregateNames[name] || fc.Over != nil {
		return nil, b.ErrAt(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in functions in FROM"), fc.Location)
	}
	saved := b.where
	b.where = "functions in FROM"
	v, err := b.Expr(&pg.Node{Node: &pg.Node_FuncCall{FuncCall: fc}})
	b.where = saved
	if err != nil {
		return nil, err
	}
	if len(b.pending) > 0 {
		return nil, b.ErrAt(pgerr.NotYetPlural("subqueries in function arguments in FROM"), fc.Location)
	}
	v = v.resolveUnknownIn(b)
	alias, colAliases := aliasOf(rf.Alias)
	ncols := 1
	if rf.Ordinality {
		ncols++
	}
	if len(colAliases) > ncols {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified", alias, ncols, len(colAliases)), fc.Location)
	}
	cname := name
	if alias != "" {
		cname = alias
	}
	if len(colAliases) > 0 {
		cname = colAliases[0]
	}
	it := &rangeItem{alias: alias, name: name}
	id := b.newCol(cname, v.T, v.E.Type())
	it.cols = append(it.cols, itemCol{name: cname, id: id})
	var in plan.Rel = &plan.OneRow{}
	var exprs []expr.Expr
	var cols []plan.ColID
	if left != nil {
		in = left
		for _, c := range left.OutCols() {
			exprs = append(exprs, b.ref(c).E)
			cols = append(cols, c)
		}
	}
	exprs, cols = append(exprs, v.E), append(cols, id)
	if rf.Ordinality {
		oname := "ordinality"
		if len(colAliases) > 1 {
			oname = colAliases[1]
		}
		oid := b.newCol(oname, plan.TInt8, expr.Int8)
		it.cols = append(it.cols, itemCol{name: oname, id: oid})
		exprs, cols = append(exprs, &expr.Lit{V: int64(1), T: expr.Int8}), append(cols, oid)
	}
	b.scope.items = append(b.scope.items, it)
	return &plan.Project{In: in, Exprs: exprs, Cols: cols}, nil
}

// bindRowsFrom binds ROWS FROM (f(...), g(...)): the set-returning
// functions evaluated in step, one column each.
func (b *Binder) bindRowsFrom(rf *pg.RangeFunction, left plan.Rel) (plan.Rel, error) {
	var fns []string
	var nargs []int
	var args []expr.Expr
	var fields []arrow.Field
	loc := int32(-1)
	for _, f := range rf.Functions {
		items := f.GetList().GetItems()
		if len(items) > 1 && items[1] != nil && items[1].GetList() != nil && len(items[1].GetList().GetItems()) > 0 {
			return nil, pgerr.NotYet("a column definition list for a function")
		}
		fc := items[0].GetFuncCall()
		if fc == nil {
			return nil, b.ErrAt(pgerr.NotYet("this function in FROM"), NodeLocation(items[0]))
		}
		if loc < 0 {
			loc = fc.Location
		}
		name := funcName(fc)
		fc, name = b.vectorSubscripts(fc, name)
		if !SetReturningFuncs[name] {
			return nil, b.ErrAt(pgerr.NotYet("function "+name+" in ROWS FROM"), fc.Location)
		}
		saved := b.where
		b.where = "functions in FROM"
		var a []expr.Expr
		var fs []arrow.Field
		var err error
		fn := name
		if jsonSRFs[name] {
			fn, a, fs, err = b.jsonTableFunc(fc, name)
		} else {
			a, fs, err = b.bindTableFuncArgs(fc, name)
		}
		b.where = saved
		if err != nil {
			return nil, err
		}
		if len(fs) != 1 {
			return nil, b.ErrAt(pgerr.NotYet("a function of several columns in ROWS FROM"), fc.Location)
		}
		if strings.HasPrefix(fn, "zip(") {
			return nil, b.ErrAt(pgerr.NotYet("a function of several columns in ROWS FROM"), fc.Location)
		}
		fns, nargs = append(fns, fn), append(nargs, len(a))
		args, fields = append(args, a...), append(fields, fs...)
	}
	if len(b.pending) > 0 {
		return nil, b.ErrAt(pgerr.NotYetPlural("subqueries in function arguments in FROM"), loc)
	}
	return b.rangeFuncRel(rf, fns[0], exec.ZipFuncName(fns, nargs), args, fields, left, loc)
}

// jsonSRFs are the set-returning functions of json and jsonb values
// (engine/exec/srf_json.go); jsonb_each and jsonb_each_text, and their
// json twins, run as two of them zipped: keys and values.
var jsonSRFs = map[string]bool{}

func init() {
	jsonSRFs["jsonb_path_query"], SetReturningFuncs["jsonb_path_query"] = true, true
	for _, p := range []string{"json", "jsonb"} {
		for _, f := range []string{"_array_elements", "_array_elements_text", "_object_keys", "_each", "_each_text",
			"_to_record_input", "_to_recordset_input", "_populate_record_input", "_populate_recordset_input"} {
			jsonSRFs[p+f] = true
			SetReturningFuncs[p+f] = true
		}
	}
}

// jsonTableFunc binds json/jsonb set-returning function name: the
// engine's function, its arguments and columns (typed by elemPGTypeKey).
func (b *Binder) jsonTableFunc(fc *pg.FuncCall, name string) (string, []expr.Expr, []arrow.Field, error) {
	args, err := b.exprs(fc.Args)
	if err != nil {
		return "", nil, nil, err
	}
	var path []expr.Expr // jsonb_path_query's path [, vars [, silent]]
	if name == "jsonb_path_query" && len(args) >= 2 && len(args) <= 4 {
		p := args[1]
		if !p.Unknown() && p.T.OID != pgtypes.Text && p.T.OID != pgtypes.Varchar {
			return "", nil, nil, b.ErrAt(UndefinedCall(name, args), fc.Location)
		}
		path = append(path, b.Coerce(p, expr.Text))
		if len(args) > 2 {
			vars, ok := b.jsonbText(args[2])
			if !ok {
				return "", nil, nil, b.ErrAt(UndefinedCall(name, args), fc.Location)
			}
			path = append(path, vars.E)
		}
		if len(args) > 3 {
			if !args[3].Unknown() && args[3].T.OID != pgtypes.Bool {
				return "", nil, nil, b.ErrAt(UndefinedCall(name, args), fc.Location)
			}
			path = append(path, b.Coerce(args[3], expr.Bool))
		}
		args = args[:1]
	}
	if len(args) != 1 || fc.AggStar || fc.FuncVariadic || name == "jsonb_path_query" && path == nil {
		return "", nil, nil, b.ErrAt(UndefinedCall(name, args), fc.Location)
	}
	jsonb := strings.HasPrefix(name, "jsonb_")
	x := args[0]
	var arg expr.Expr
	switch {
	case jsonb && isJSONB(x):
		arg = x.E
	case jsonb && x.Unknown():
		j, _ := b.jsonbText(x)
		arg = j.E
	case !jsonb && !x.Unknown() && x.T.OID == pgtypes.JSON:
		arg = x.E
	case !jsonb && x.null:
		arg = &expr.Lit{V: nil, T: expr.Text}
	case !jsonb && x.Unknown():
		if x.param > 0 {
			b.params.setType(x.param, pgtypes.JSON)
		}
		arg = &expr.Call{Fn: "json_in", Args: []expr.Expr{b.Coerce(x, expr.Text)}, T: expr.Text}
		if x.lit != nil && (x.param == 0 || b.params.Bound) && b.LitErr == nil {
			if err := b.checkConst(arg); err != nil {
				return "", nil, nil, b.ErrAt(err, x.loc)
			}
		}
	default:
		return "", nil, nil, b.ErrAt(UndefinedCall(name, args), fc.Location)
	}
	valueType := pgtypes.JSON
	if jsonb {
		valueType = pgtypes.JSONB
	}
	col := func(n string, oid uint32) arrow.Field {
		return arrow.Field{Name: n, Type: expr.Text, Nullable: true,
			Metadata: arrow.NewMetadata([]string{elemPGTypeKey}, []string{strconv.FormatUint(uint64(oid), 10)})}
	}
	switch {
	case name == "jsonb_path_query":
		return name, append([]expr.Expr{arg}, path...), []arrow.Field{col(name, pgtypes.JSONB)}, nil
	case strings.HasSuffix(name, "_each"), strings.HasSuffix(name, "_each_text"):
		if strings.HasSuffix(name, "_text") {
			valueType = pgtypes.Text
		}
		fn := exec.ZipFuncName([]string{name + "_keys", name + "_values"}, []int{1, 1})
		return fn, []expr.Expr{arg, arg}, []arrow.Field{col("key", pgtypes.Text), col("value", valueType)}, nil
	case strings.HasSuffix(name, "_input"):
		return name, []expr.Expr{arg}, []arrow.Field{col("value", valueType)}, nil
	case strings.HasSuffix(name, "_object_keys"):
		return name, []expr.Expr{arg}, []arrow.Field{col(name, pgtypes.Text)}, nil
	case strings.HasSuffix(name, "_text"):
		valueType = pgtypes.Text
	}
	return name, []expr.Expr{arg}, []arrow.Field{col("value", valueType)}, nil
}

// jsonRecordFuncs are the functions that read JSON objects into rows of
// the columns a column definition list gives.
var jsonRecordFuncs = map[string]bool{"jsonb_to_record": true, "jsonb_to_recordset": true, "json_to_record": true, "json_to_recordset": true}

// bindJSONRecord binds jsonb_to_record(j) AS x(a int, b text) and its
// kin in FROM as the LATERAL subquery
//
//	SELECT (r.v ->> 'a')::int AS a, (r.v ->> 'b')::text AS b
//	FROM jsonb_to_record_input(j) AS r(v)
//
// (a json or jsonb column takes r.v -> 'a'): the input function checks
// the argument is an object (an array of objects) and yields it (each).
func (b *Binder) bindJSONRecord(rf *pg.RangeFunction, fc *pg.FuncCall, name string, left plan.Rel) (plan.Rel, error) {
	if len(rf.Coldeflist) == 0 {
		return nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "a column definition list is required for functions returning \"record\""), fc.Location)
	}
	if rf.Ordinality {
		return nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "WITH ORDINALITY cannot be used with a column definition list").
			WithHint("Put the column definition list inside ROWS FROM()."), fc.Location)
	}
	if len(fc.Args) != 1 {
		args, err := b.exprs(fc.Args)
		if err != nil {
			return nil, err
		}
		return nil, b.ErrAt(UndefinedCall(name, args), fc.Location)
	}
	str := func(s string) *pg.Node { return &pg.Node{Node: &pg.Node_String_{String_: &pg.String{Sval: s}}} }
	v := &pg.Node{Node: &pg.Node_ColumnRef{ColumnRef: &pg.ColumnRef{Fields: []*pg.Node{str("r"), str("v")}, Location: -1}}}
	if strings.HasPrefix(name, "json_") {
		v = &pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{Arg: v, TypeName: &pg.TypeName{Names: []*pg.Node{str("pg_catalog"), str("jsonb")}, Typemod: -1}, Location: -1}}}
	}
	sel := &pg.SelectStmt{Op: pg.SetOperation_SETOP_NONE, LimitOption: pg.LimitOption_LIMIT_OPTION_DEFAULT}
	for _, n := range rf.Coldeflist {
		cd := n.GetColumnDef()
		if cd == nil || cd.TypeName == nil {
			return nil, b.ErrAt(pgerr.NotYet("this column definition list"), fc.Location)
		}
		op := "->>"
		if t, _, err := b.TypeName(cd.TypeName); err == nil && (t.OID == pgtypes.JSON || t.OID == pgtypes.JSONB) {
			op = "->"
		}
		get := &pg.Node{Node: &pg.Node_AExpr{AExpr: &pg.A_Expr{Kind: pg.A_Expr_Kind_AEXPR_OP, Name: []*pg.Node{str(op)}, Lexpr: v,
			Rexpr: &pg.Node{Node: &pg.Node_AConst{AConst: &pg.A_Const{Val: &pg.A_Const_Sval{Sval: &pg.String{Sval: cd.Colname}}, Location: -1}}}, Location: -1}}}
		val := &pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{Arg: get, TypeName: cd.TypeName, Location: cd.Location}}}
		sel.TargetList = append(sel.TargetList, &pg.Node{Node: &pg.Node_ResTarget{ResTarget: &pg.ResTarget{Name: cd.Colname, Val: val, Location: -1}}})
	}
	input := &pg.FuncCall{Funcname: []*pg.Node{str(name + "_input")}, Args: fc.Args, Location: fc.Location, Funcformat: fc.Funcformat}
	sel.FromClause = []*pg.Node{{Node: &pg.Node_RangeFunction{RangeFunction: &pg.RangeFunction{
		Functions: []*pg.Node{{Node: &pg.Node_List{List: &pg.List{Items: []*pg.Node{{Node: &pg.Node_FuncCall{FuncCall: input}}, nil}}}}},
		Alias:     &pg.Alias{Aliasname: "r", Colnames: []*pg.Node{str("v")}},
	}}}}
	alias := &pg.Alias{Aliasname: name}
	if rf.Alias != nil {
		alias = &pg.Alias{Aliasname: rf.Alias.Aliasname}
	}
	return b.bindRangeSubselect(&pg.RangeSubselect{Lateral: true, Subquery: &pg.Node{Node: &pg.Node_SelectStmt{SelectStmt: sel}}, Alias: alias}, left)
}

// jsonPopulateFuncs read JSON objects into rows of a table's row type.
var jsonPopulateFuncs = map[string]bool{"jsonb_populate_record": true, "jsonb_populate_recordset": true, "json_populate_record": true, "json_populate_recordset": true}

// bindJSONPopulate binds jsonb_populate_record(NULL::t, j) and its kin in
// FROM as jsonb_to_record(j) AS (the columns of table t): a base record
// other than NULL (whose values fill the keys j lacks) is 0A000.
func (b *Binder) bindJSONPopulate(rf *pg.RangeFunction, fc *pg.FuncCall, name string, left plan.Rel) (plan.Rel, error) {
	if len(fc.Args) != 2 {
		args, err := b.exprs(fc.Args)
		if err != nil {
			return nil, err
		}
		return nil, b.ErrAt(UndefinedCall(name, args), fc.Location)
	}
	tc := fc.Args[0].GetTypeCast()
	if tc == nil || tc.Arg.GetAConst() == nil || !tc.Arg.GetAConst().Isnull || tc.TypeName == nil || len(tc.TypeName.ArrayBounds) > 0 {
		return nil, b.ErrAt(pgerr.NotYet(name+" of a base record other than NULL::table"), fc.Location)
	}
	var parts []string
	for _, n := range tc.TypeName.Names {
		parts = append(parts, n.GetString_().GetSval())
	}
	tn := parse.TableName{Name: parts[len(parts)-1], Written: strings.Join(parts, ".")}
	if len(parts) == 2 {
		tn.Schema = parts[0]
	}
	t, err := b.env.ResolveTable(b.ctx, tn)
	if err != nil || t.Metadata == nil || t.Metadata.CurrentSchema() == nil {
		return nil, b.ErrAt(pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", tn.Written), NodeLocation(fc.Args[0]))
	}
	var defs []*pg.Node
	for _, c := range ColumnsOfTable(t, t.Metadata.CurrentSchema()) {
		var tn *pg.TypeName
		if c.Enum != "" {
			i := strings.LastIndexByte(c.Enum, '.')
			tn = &pg.TypeName{Names: []*pg.Node{
				{Node: &pg.Node_String_{String_: &pg.String{Sval: c.Enum[:max(i, 0)]}}},
				{Node: &pg.Node_String_{String_: &pg.String{Sval: c.Enum[i+1:]}}}}, Typemod: -1}
		} else {
			tree, err := pg.Parse("SELECT NULL::" + c.Type.String())
			if err != nil {
				return nil, b.ErrAt(pgerr.NotYet(name+" of a column of type "+c.Type.String()), fc.Location)
			}
			tn = tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val.GetTypeCast().TypeName
		}
		defs = append(defs, &pg.Node{Node: &pg.Node_ColumnDef{ColumnDef: &pg.ColumnDef{Colname: c.Name, TypeName: tn, Location: -1}}})
	}
	nrf := &pg.RangeFunction{Lateral: rf.Lateral, Ordinality: rf.Ordinality, Functions: rf.Functions, Alias: rf.Alias, Coldeflist: defs}
	nfc := &pg.FuncCall{Funcname: fc.Funcname, Args: fc.Args[1:], Location: fc.Location, Funcformat: fc.Funcformat}
	if nrf.Alias == nil {
		nrf.Alias = &pg.Alias{Aliasname: name}
	}
	return b.bindJSONRecord(nrf, nfc, name, left)
}
