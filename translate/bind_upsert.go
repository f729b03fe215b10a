package translate

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
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
		return nil, notYet("OVERRIDING in INSERT")
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
	proposed rel
	pv       []colID
	tg       *dmlTarget
	key      []int // the conflict key's column indexes
}

// proposedRel is the rows an INSERT proposes as a relation: one column
// per table column, typed as the column.
func (b *binder) proposedRel(ip *insertPlan) (rel, []colID) {
	origins := tableOrigins(ip.table, ip.cols)
	ids := make([]colID, len(ip.cols))
	for i, c := range ip.cols {
		ids[i] = b.q.add(colMeta{name: c.Name, t: c.Type, at: c.Arrow, origin: origins[i]})
	}
	if ip.sel == nil {
		return &valuesRel{rows: ip.values, cols: ids}, ids
	}
	// project refers to the query's result by position; the tree by id.
	exprs := make([]expr.Expr, len(ip.project))
	for i, e := range ip.project {
		exprs[i], _ = rewriteExpr(e, func(x expr.Expr) (expr.Expr, error) {
			if c, ok := x.(*expr.Col); ok {
				return b.ref(ip.sel.out[c.Idx]).e, nil
			}
			return x, nil
		})
	}
	return &projectRel{in: ip.sel.root, exprs: exprs, cols: ids}, ids
}

// plainReturning is the plan of an INSERT whose rows are all inserted:
// INSERT ... RETURNING, or an ON CONFLICT nothing can trigger. Its target
// is nil: it reads no table rows.
func (b *binder) plainReturning(u *upsert) (*dmlPlan, error) {
	ip := u.ip
	file := b.newCol("_file", tText, expr.Text)
	pos := b.newCol("_pos", tInt8, expr.Int8)
	cur := rel(&projectRel{in: u.proposed,
		exprs: append(refsTo(b, u.pv), &expr.Lit{V: nil, T: expr.Text}, &expr.Lit{V: nil, T: expr.Int8}),
		cols:  append(append([]colID(nil), u.pv...), file, pos)})
	tn := tableNameOf(u.ins.Relation)
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
func (b *binder) newRowItem(u *upsert, tn tableName, ids []colID) *rangeItem {
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
	cur rel
	// rn numbers the proposed rows of one key in order; cnt counts them.
	rn, cnt colID
	// keyNotNull: the proposed key has no NULL; matched: a table row
	// joined.
	keyNotNull, matched expr.Expr
}

// joinConflicts builds a conflictJoin.
func (b *binder) joinConflicts(u *upsert) (*conflictJoin, error) {
	tg := u.tg
	ord := b.newCol("ordinality", tInt8, expr.Int8)
	numbered := &windowRel{in: u.proposed, cols: []colID{ord},
		calls: []windowCall{{fn: "row_number", frame: exec.DefaultFrame(), t: expr.Int8}}}
	j := &conflictJoin{rn: b.newCol("row_number", tInt8, expr.Int8), cnt: b.newCol("count", tInt8, expr.Int8)}
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
	perKey := &windowRel{in: numbered, partition: part, order: []sortKey{{E: b.ref(ord).e}}, cols: []colID{j.rn, j.cnt},
		calls: []windowCall{
			{fn: "row_number", frame: exec.DefaultFrame(), t: expr.Int8},
			{fn: "count", frame: whole, t: expr.Int8},
		}}
	var table rel = tg.scan
	if filter := b.keyFilter(u); filter != nil {
		table = &filterRel{in: tg.scan, pred: filter}
	}
	j.cur = &joinRel{typ: joinLeft, left: perKey, right: table, cond: andOf(eqs)}
	matched, err := b.call("isnotnull", []bound{b.ref(tg.file)}, -1)
	if err != nil {
		return nil, err
	}
	j.matched, j.keyNotNull = matched.e, andOf(notNull)
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
	aid := b.newCol("action", tInt4, expr.Int4)
	nv := make([]colID, len(values))
	origins := tableOrigins(tg.table, tg.cols)
	proj := &projectRel{in: cur, exprs: []expr.Expr{b.ref(tg.file).e, b.ref(tg.pos).e, action}, cols: []colID{tg.file, tg.pos, aid}}
	if tg.hasRowID {
		proj.exprs = append(proj.exprs, b.ref(tg.rowID).e)
		proj.cols = append(proj.cols, tg.rowID)
	}
	for i, c := range tg.cols {
		nv[i] = b.q.add(colMeta{name: c.Name, t: c.Type, at: c.Arrow, origin: origins[i]})
		proj.exprs = append(proj.exprs, values[i])
		proj.cols = append(proj.cols, nv[i])
	}
	cur = &filterRel{in: proj, pred: cmp("<>", b.ref(aid).e, actionLit(dmlNone))}

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
