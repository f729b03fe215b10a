package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// UpsertCardinality is PostgreSQL's error for an ON CONFLICT DO UPDATE
// that would change one row twice.
var UpsertCardinality = cardinalityError{
	Message: "ON CONFLICT DO UPDATE command cannot affect row a second time",
	Hint:    "Ensure that no rows proposed for insertion within the same command have duplicate constrained values.",
}

// BindUpsert binds INSERT ... ON CONFLICT and INSERT ... RETURNING into a
// DMLPlan (dml.go).
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
func (b *Binder) BindUpsert(ins *pg.InsertStmt) (*DMLPlan, error) {
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
	if ip.Branch != "" {
		return nil, b.ErrAt(pgerr.NotYet("INSERT ... ON CONFLICT or RETURNING on branch \""+ip.Branch+"\" of a table"), ins.Relation.Location)
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
	ip  *InsertPlan
	// proposed produces the proposed rows: pv[i] is table column i.
	proposed plan.Rel
	pv       []plan.ColID
	tg       *dmlTarget
	key      []int // the conflict key's column indexes
}

// proposedRel is the rows an INSERT proposes as a relation: one column
// per table column, typed as the column.
func (b *Binder) proposedRel(ip *InsertPlan) (plan.Rel, []plan.ColID) {
	origins := tableOrigins(ip.Table, ip.Cols)
	ids := make([]plan.ColID, len(ip.Cols))
	for i, c := range ip.Cols {
		ids[i] = b.q.Add(plan.ColMeta{Name: c.Name, T: c.Type, ArrowType: c.Arrow, Origin: origins[i]})
	}
	if ip.Sel == nil {
		return &plan.Values{Rows: ip.Values, Cols: ids}, ids
	}
	// project refers to the query's result by position; the tree by id.
	exprs := make([]expr.Expr, len(ip.Project))
	for i, e := range ip.Project {
		exprs[i], _ = plan.RewriteExpr(e, func(x expr.Expr) (expr.Expr, error) {
			if c, ok := x.(*expr.Col); ok {
				return b.ref(ip.Sel.Out[c.Idx]).E, nil
			}
			return x, nil
		})
	}
	return &plan.Project{In: ip.Sel.Root, Exprs: exprs, Cols: ids}, ids
}

// plainReturning is the plan of an INSERT whose rows are all inserted:
// INSERT ... RETURNING, or an ON CONFLICT nothing can trigger. Its target
// is nil: it reads no table rows.
func (b *Binder) plainReturning(u *upsert) (*DMLPlan, error) {
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
	tg := &dmlTarget{tn: tn, table: ip.Table, schema: ip.Schema, cols: ip.Cols, file: file, pos: pos}
	p := b.finishDML(DMLKindInsert, tg, cur, actionLit(DMLInsert), refsTo(b, u.pv), ret, retCols)
	p.Target = nil
	p.Dup, p.Cardinality = DupError, UpsertCardinality
	return p, nil
}

// newRowItem is the FROM item RETURNING names: the table (by its name or
// alias) whose columns are the new row ids.
func (b *Binder) newRowItem(u *upsert, tn parse.TableName, ids []plan.ColID) *rangeItem {
	alias := ""
	if u.ins.Relation.Alias != nil {
		alias = u.ins.Relation.Alias.Aliasname
	}
	it := &rangeItem{table: u.ip.Table, tn: tn, alias: alias}
	for i, c := range u.ip.Cols {
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
func (b *Binder) joinConflicts(u *upsert) (*conflictJoin, error) {
	tg := u.tg
	ord := b.newCol("ordinality", plan.TInt8, expr.Int8)
	numbered := &plan.Window{In: u.proposed, Cols: []plan.ColID{ord},
		Calls: []plan.WindowCall{{Fn: "row_number", Frame: exec.DefaultFrame(), T: expr.Int8}}}
	j := &conflictJoin{rn: b.newCol("row_number", plan.TInt8, expr.Int8), cnt: b.newCol("count", plan.TInt8, expr.Int8)}
	whole := exec.WindowFrame{Mode: exec.FrameRows, Start: exec.FrameBound{Kind: exec.UnboundedPreceding},
		End: exec.FrameBound{Kind: exec.UnboundedFollowing}}
	var part, eqs, notNull []expr.Expr
	for _, k := range u.key {
		part = append(part, b.ref(u.pv[k]).E)
		eq, err := b.binaryOp("=", b.ref(u.pv[k]), b.ref(tg.ids[k]), -1)
		if err != nil {
			return nil, err
		}
		eqs = append(eqs, eq.E)
		nn, err := b.call("isnotnull", []Bound{b.ref(u.pv[k])}, -1)
		if err != nil {
			return nil, err
		}
		notNull = append(notNull, nn.E)
	}
	perKey := &plan.Window{In: numbered, Partition: part, Order: []plan.SortKey{{E: b.ref(ord).E}}, Cols: []plan.ColID{j.rn, j.cnt},
		Calls: []plan.WindowCall{
			{Fn: "row_number", Frame: exec.DefaultFrame(), T: expr.Int8},
			{Fn: "count", Frame: whole, T: expr.Int8},
		}}
	var table plan.Rel = tg.scan
	if filter := b.keyFilter(u); filter != nil {
		table = &plan.Filter{In: tg.scan, Pred: filter}
	}
	j.cur = &plan.Join{Typ: plan.JoinLeft, Left: perKey, Right: table, Cond: plan.AndOf(eqs)}
	matched, err := b.call("isnotnull", []Bound{b.ref(tg.file)}, -1)
	if err != nil {
		return nil, err
	}
	j.matched, j.keyNotNull = matched.E, plan.AndOf(notNull)
	return j, nil
}

// bindConflict binds the ON CONFLICT action over the proposed rows joined
// with the target on the conflict key.
func (b *Binder) bindConflict(u *upsert) (*DMLPlan, error) {
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
		action = &expr.Case{T: expr.Int4, Else: actionLit(DMLInsert), Whens: []expr.When{
			{Cond: matched, Then: actionLit(DMLNone)},
			{Cond: and(keyNotNull, cmp(">", b.ref(rn).E, i8(1))), Then: actionLit(DMLNone)},
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
		dup := and(keyNotNull, cmp(">", b.ref(cnt).E, i8(1)))
		action = &expr.Case{T: expr.Int4, Else: actionLit(DMLNone), Whens: []expr.When{
			{Cond: not(matched), Then: &expr.Case{T: expr.Int4, Else: actionLit(DMLInsert),
				Whens: []expr.When{{Cond: dup, Then: actionLit(DMLCardinality)}}}},
			{Cond: where, Then: &expr.Case{T: expr.Int4, Else: actionLit(DMLUpdate),
				Whens: []expr.When{{Cond: and(dup, cmp("<", b.ref(rn).E, b.ref(cnt).E)), Then: actionLit(DMLCardinality)}}}},
		}}
		for i := range values {
			values[i] = &expr.Case{T: u.ip.Cols[i].Arrow, Else: values[i], Whens: []expr.When{{Cond: matched, Then: set[i]}}}
		}
	}

	// The new row and the action, then only the rows that change the table.
	aid := b.newCol("action", plan.TInt4, expr.Int4)
	nv := make([]plan.ColID, len(values))
	origins := tableOrigins(tg.table, tg.cols)
	proj := &plan.Project{In: cur, Exprs: []expr.Expr{b.ref(tg.file).E, b.ref(tg.pos).E, action}, Cols: []plan.ColID{tg.file, tg.pos, aid}}
	if tg.hasRowID {
		proj.Exprs = append(proj.Exprs, b.ref(tg.rowID).E)
		proj.Cols = append(proj.Cols, tg.rowID)
	}
	for i, c := range tg.cols {
		nv[i] = b.q.Add(plan.ColMeta{Name: c.Name, T: c.Type, ArrowType: c.Arrow, Origin: origins[i]})
		proj.Exprs = append(proj.Exprs, values[i])
		proj.Cols = append(proj.Cols, nv[i])
	}
	cur = &plan.Filter{In: proj, Pred: cmp("<>", b.ref(aid).E, actionLit(DMLNone))}

	b.scope.items = []*rangeItem{b.newRowItem(u, tg.tn, nv)}
	cur, ret, retCols, err := b.bindReturning(cur, u.ins.ReturningList)
	if err != nil {
		return nil, err
	}
	p := b.finishDML(DMLKindInsert, tg, cur, b.ref(aid).E, refsTo(b, nv), ret, retCols)
	p.Dup, p.Cardinality = DupError, UpsertCardinality
	return p, nil
}

// excludedItem is the FROM item EXCLUDED: the proposed row.
func (b *Binder) excludedItem(u *upsert) *rangeItem {
	it := &rangeItem{name: "excluded"}
	for i, c := range u.ip.Cols {
		it.cols = append(it.cols, itemCol{name: c.Name, id: u.pv[i]})
	}
	return it
}
