package translate

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// upsertCardinality is PostgreSQL's error for an ON CONFLICT DO UPDATE
// that would change one row twice.
var upsertCardinality = cardinalityError{
	message: "ON CONFLICT DO UPDATE command cannot affect row a second time",
	hint:    "Ensure that no rows proposed for insertion within the same command have duplicate constrained values.",
}

// bindUpsert binds INSERT ... ON CONFLICT and INSERT ... RETURNING into a
// dmlPlan (dml.go).
//
// The proposed rows (VALUES, SELECT or DEFAULT VALUES, as plain INSERT
// binds them) are numbered in order and joined (left) with the table on
// the conflict key; a window over the key numbers and counts the proposed
// rows that share one. Each joined row's action is then:
//
//	DO NOTHING: none when it matches a table row or an earlier proposed
//	row, else insert.
//	DO UPDATE: 21000 when its key is proposed again and the first of the
//	two changes the row (it inserts it, or updates it because the WHERE
//	holds); else insert without a match, update when the WHERE holds,
//	none otherwise.
//
// NULL keys never match. Without ON CONFLICT (or DO NOTHING on a table
// without identifier fields) every row is an insert and the plan reads no
// table rows.
func (b *binder) bindUpsert(ins *pg.InsertStmt) (*dmlPlan, error) {
	if ins.Override != pg.OverridingKind_OVERRIDING_NOT_SET {
		return nil, pgerr.NotYet("OVERRIDING in INSERT")
	}
	if ins.WithClause != nil {
		// The WITH queries are visible to the proposed rows, SET, WHERE
		// and RETURNING.
		pop, err := b.pushWith(ins.WithClause)
		if err != nil {
			return nil, err
		}
		defer pop()
	}
	// The proposed rows are bound outside the statement's scope: a SELECT
	// does not see the target or EXCLUDED.
	ip, err := b.bindInsertRows(ins)
	if err != nil {
		return nil, err
	}
	saved := b.enterQuery()
	defer b.leaveQuery(saved)

	u := &upsert{ins: ins, oc: ins.OnConflictClause, ip: ip}
	u.proposed, u.pv = b.proposedRel(ip)
	if u.oc == nil {
		return b.plainReturning(u)
	}
	tg, err := b.bindDMLTarget(ins.Relation, "INSERT")
	if err != nil {
		return nil, err
	}
	u.tg = tg
	if u.key, err = b.conflictKey(u); err != nil {
		return nil, err
	}
	if len(u.key) == 0 {
		// DO NOTHING with no target on a table without identifier fields:
		// nothing can conflict (PostgreSQL: a table without constraints).
		b.scope.items = nil
		return b.plainReturning(u)
	}
	return b.bindConflict(u)
}

// upsert is the state of binding one INSERT ... ON CONFLICT.
type upsert struct {
	ins *pg.InsertStmt
	oc  *pg.OnConflictClause
	ip  *insertPlan
	// proposed produces the proposed rows: pv[i] is table column i.
	proposed plan.Rel
	pv       []plan.ColID
	tg       *dmlTarget
	key      []int // the conflict key's column indexes
}

// proposedRel is the rows an INSERT proposes as a relation: one column
// per table column, typed as the column.
func (b *binder) proposedRel(ip *insertPlan) (plan.Rel, []plan.ColID) {
	origins := tableOrigins(ip.table, ip.cols)
	ids := make([]plan.ColID, len(ip.cols))
	for i, c := range ip.cols {
		ids[i] = b.q.Add(plan.ColMeta{Name: c.Name, T: c.Type, ArrowType: c.Arrow, Origin: origins[i]})
	}
	if ip.sel == nil {
		return &plan.Values{Rows: ip.values, Cols: ids}, ids
	}
	// project refers to the query's result by position; the tree by id.
	exprs := make([]expr.Expr, len(ip.project))
	for i, e := range ip.project {
		exprs[i], _ = plan.RewriteExpr(e, func(x expr.Expr) (expr.Expr, error) {
			if c, ok := x.(*expr.Col); ok {
				return b.ref(ip.sel.Out[c.Idx]).e, nil
			}
			return x, nil
		})
	}
	return &plan.Project{In: ip.sel.Root, Exprs: exprs, Cols: ids}, ids
}

// plainReturning is the plan of an INSERT whose rows are all inserted:
// INSERT ... RETURNING, or an ON CONFLICT nothing can trigger. Its target
// is nil: it reads no table rows.
func (b *binder) plainReturning(u *upsert) (*dmlPlan, error) {
	ip := u.ip
	file := b.newCol("_file", plan.TText, expr.Text)
	pos := b.newCol("_pos", plan.TInt8, expr.Int8)
	cur := plan.Rel(&plan.Project{In: u.proposed,
		Exprs: append(refsTo(b, u.pv), &expr.Lit{V: nil, T: expr.Text}, &expr.Lit{V: nil, T: expr.Int8}),
		Cols:  append(append([]plan.ColID(nil), u.pv...), file, pos)})
	tn := parse.TableNameOf(u.ins.Relation)
	b.scope.items = append(b.scope.items, b.newRowItem(u, tn, u.pv))
	cur, ret, retCols, err := b.bindReturning(cur, u.ins.ReturningList)
	if err != nil {
		return nil, err
	}
	tg := &dmlTarget{tn: tn, table: ip.table, schema: ip.schema, cols: ip.cols, file: file, pos: pos}
	p := b.finishDML(dmlKindInsert, tg, cur, actionLit(dmlInsert), refsTo(b, u.pv), ret, retCols)
	p.target = nil
	p.dup, p.cardinality = dupError, upsertCardinality
	return p, nil
}

// newRowItem is the FROM item RETURNING names: the table (by its name or
// alias) whose columns are the new row ids.
func (b *binder) newRowItem(u *upsert, tn parse.TableName, ids []plan.ColID) *rangeItem {
	alias := ""
	if u.ins.Relation.Alias != nil {
		alias = u.ins.Relation.Alias.Aliasname
	}
	it := &rangeItem{table: u.ip.table, tn: tn, alias: alias}
	for i, c := range u.ip.cols {
		it.cols = append(it.cols, itemCol{name: c.Name, id: ids[i]})
	}
	return it
}

// conflictJoin is the proposed rows, numbered per key, joined (left)
// with the table rows they conflict with.
type conflictJoin struct {
	cur plan.Rel
	// rn numbers the proposed rows of one key in order; cnt counts them.
	rn, cnt plan.ColID
	// keyNotNull: the proposed key has no NULL; matched: a table row
	// joined.
	keyNotNull, matched expr.Expr
}

// joinConflicts builds a conflictJoin.
func (b *binder) joinConflicts(u *upsert) (*conflictJoin, error) {
	tg := u.tg
	ord := b.newCol("ordinality", plan.TInt8, expr.Int8)
	numbered := &plan.Window{In: u.proposed, Cols: []plan.ColID{ord},
		Calls: []plan.WindowCall{{Fn: "row_number", Frame: exec.DefaultFrame(), T: expr.Int8}}}
	j := &conflictJoin{rn: b.newCol("row_number", plan.TInt8, expr.Int8), cnt: b.newCol("count", plan.TInt8, expr.Int8)}
	whole := exec.WindowFrame{Mode: exec.FrameRows, Start: exec.FrameBound{Kind: exec.UnboundedPreceding},
		End: exec.FrameBound{Kind: exec.UnboundedFollowing}}
	var part, eqs, notNull []expr.Expr
	for _, k := range u.key {
		part = append(part, b.ref(u.pv[k]).e)
		eq, err := b.binaryOp("=", b.ref(u.pv[k]), b.ref(tg.ids[k]), -1)
		if err != nil {
			return nil, err
		}
		eqs = append(eqs, eq.e)
		nn, err := b.call("isnotnull", []bound{b.ref(u.pv[k])}, -1)
		if err != nil {
			return nil, err
		}
		notNull = append(notNull, nn.e)
	}
	perKey := &plan.Window{In: numbered, Partition: part, Order: []plan.SortKey{{E: b.ref(ord).e}}, Cols: []plan.ColID{j.rn, j.cnt},
		Calls: []plan.WindowCall{
			{Fn: "row_number", Frame: exec.DefaultFrame(), T: expr.Int8},
			{Fn: "count", Frame: whole, T: expr.Int8},
		}}
	var table plan.Rel = tg.scan
	if filter := b.keyFilter(u); filter != nil {
		table = &plan.Filter{In: tg.scan, Pred: filter}
	}
	j.cur = &plan.Join{Typ: plan.JoinLeft, Left: perKey, Right: table, Cond: plan.AndOf(eqs)}
	matched, err := b.call("isnotnull", []bound{b.ref(tg.file)}, -1)
	if err != nil {
		return nil, err
	}
	j.matched, j.keyNotNull = matched.e, plan.AndOf(notNull)
	return j, nil
}

// bindConflict binds the ON CONFLICT action over the proposed rows joined
// with the target on the conflict key.
func (b *binder) bindConflict(u *upsert) (*dmlPlan, error) {
	tg := u.tg
	j, err := b.joinConflicts(u)
	if err != nil {
		return nil, err
	}
	cur, rn, cnt, matched, keyNotNull := j.cur, j.rn, j.cnt, j.matched, j.keyNotNull
	i8 := func(v int64) expr.Expr { return &expr.Lit{V: v, T: expr.Int8} }
	cmp := func(op string, l expr.Expr, r expr.Expr) expr.Expr {
		return &expr.Call{Fn: op, Args: []expr.Expr{l, r}, T: expr.Bool}
	}
	and := func(es ...expr.Expr) expr.Expr { return &expr.Call{Fn: "and", Args: es, T: expr.Bool} }
	not := func(e expr.Expr) expr.Expr { return &expr.Call{Fn: "not", Args: []expr.Expr{e}, T: expr.Bool} }

	values := refsTo(b, u.pv)
	var action expr.Expr
	if u.oc.Action == pg.OnConflictAction_ONCONFLICT_NOTHING {
		// A later proposed row with the key of an earlier one conflicts
		// with it, whether the earlier one was inserted or skipped.
		action = &expr.Case{T: expr.Int4, Else: actionLit(dmlInsert), Whens: []expr.When{
			{Cond: matched, Then: actionLit(dmlNone)},
			{Cond: and(keyNotNull, cmp(">", b.ref(rn).e, i8(1))), Then: actionLit(dmlNone)},
		}}
	} else {
		b.scope.items = append(b.scope.items, b.excludedItem(u))
		set, where, err := b.bindConflictUpdate(u)
		if err != nil {
			return nil, err
		}
		cur = b.applyPending(cur)
		// CASE evaluates the WHERE only for the rows that reach it: those
		// with a table row, as PostgreSQL does.
		dup := and(keyNotNull, cmp(">", b.ref(cnt).e, i8(1)))
		action = &expr.Case{T: expr.Int4, Else: actionLit(dmlNone), Whens: []expr.When{
			{Cond: not(matched), Then: &expr.Case{T: expr.Int4, Else: actionLit(dmlInsert),
				Whens: []expr.When{{Cond: dup, Then: actionLit(dmlCardinality)}}}},
			{Cond: where, Then: &expr.Case{T: expr.Int4, Else: actionLit(dmlUpdate),
				Whens: []expr.When{{Cond: and(dup, cmp("<", b.ref(rn).e, b.ref(cnt).e)), Then: actionLit(dmlCardinality)}}}},
		}}
		for i := range values {
			values[i] = &expr.Case{T: u.ip.cols[i].Arrow, Else: values[i], Whens: []expr.When{{Cond: matched, Then: set[i]}}}
		}
	}

	// The new row and the action, then only the rows that change the table.
	aid := b.newCol("action", plan.TInt4, expr.Int4)
	nv := make([]plan.ColID, len(values))
	origins := tableOrigins(tg.table, tg.cols)
	proj := &plan.Project{In: cur, Exprs: []expr.Expr{b.ref(tg.file).e, b.ref(tg.pos).e, action}, Cols: []plan.ColID{tg.file, tg.pos, aid}}
	if tg.hasRowID {
		proj.Exprs = append(proj.Exprs, b.ref(tg.rowID).e)
		proj.Cols = append(proj.Cols, tg.rowID)
	}
	for i, c := range tg.cols {
		nv[i] = b.q.Add(plan.ColMeta{Name: c.Name, T: c.Type, ArrowType: c.Arrow, Origin: origins[i]})
		proj.Exprs = append(proj.Exprs, values[i])
		proj.Cols = append(proj.Cols, nv[i])
	}
	cur = &plan.Filter{In: proj, Pred: cmp("<>", b.ref(aid).e, actionLit(dmlNone))}

	b.scope.items = []*rangeItem{b.newRowItem(u, tg.tn, nv)}
	cur, ret, retCols, err := b.bindReturning(cur, u.ins.ReturningList)
	if err != nil {
		return nil, err
	}
	p := b.finishDML(dmlKindInsert, tg, cur, b.ref(aid).e, refsTo(b, nv), ret, retCols)
	p.dup, p.cardinality = dupError, upsertCardinality
	return p, nil
}

// excludedItem is the FROM item EXCLUDED: the proposed row.
func (b *binder) excludedItem(u *upsert) *rangeItem {
	it := &rangeItem{name: "excluded"}
	for i, c := range u.ip.cols {
		it.cols = append(it.cols, itemCol{name: c.Name, id: u.pv[i]})
	}
	return it
}
