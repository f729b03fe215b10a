package bind

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// dmlTarget is the table a row-level statement changes, bound as the
// first FROM item of the statement's query: its scan, its FROM item (whose
// columns the statement's expressions name) and the ids of the scan's
// _file and _pos, which the plan reads even when a column of the table
// has one of those names.
type dmlTarget struct {
	tn     parse.TableName
	table  *catalog.Table
	schema *catalog.Schema
	cols   []Column // ColumnsOf(schema)
	scan   *plan.Scan
	item   *rangeItem
	// ids are the ids of the table's columns, in schema order.
	ids       []plan.ColID
	file, pos plan.ColID
	// rowID is the target's _row_id column when hasRowID (format 3).
	rowID    plan.ColID
	hasRowID bool
}

// rowIDExpr is the target row's _row_id, or NULL.
func (b *Binder) rowIDExpr(tg *dmlTarget) expr.Expr {
	if tg.hasRowID {
		return b.ref(tg.rowID).E
	}
	return &expr.Lit{V: nil, T: expr.Int8}
}

// bindDMLTarget binds the target table of verb (DELETE, UPDATE, MERGE,
// INSERT) as a FROM item of the current scope. It must be a table of the
// warehouse: views, system catalogs, metadata tables and a table read at
// another snapshot are not targets.
func (b *Binder) bindDMLTarget(rv *pg.RangeVar, verb string) (*dmlTarget, error) {
	tn := parse.TableNameOf(rv)
	b.UntruncateTable(rv, &tn)
	if b.stmt.AsOf[rv.Location] != nil {
		return nil, b.ErrAt(pgerr.NotYet(verb+" of a table read at another snapshot"), rv.Location)
	}
	sysCatalog := b.ErrAt(pgerr.NotYet(verb+" on a system catalog"), rv.Location)
	if sysTable(tn, b.env.CatalogName()) != nil {
		return nil, sysCatalog
	}
	t, err := b.env.ResolveTable(b.ctx, tn)
	if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.UndefinedTable {
		if v, verr := b.env.ResolveView(b.ctx, tn); verr == nil && v != nil {
			return nil, b.ErrAt(pgerr.NotYet(verb+" on a view"), rv.Location)
		}
		if b.searchPathSysTable(tn) != nil {
			return nil, sysCatalog
		}
	}
	if err != nil {
		if _, branch, ok, _ := b.branchTarget(tn, err); ok { // insert_spark.go
			return nil, b.ErrAt(pgerr.NotYet(verb+" on branch \""+branch+"\" of a table"), rv.Location)
		}
		return nil, b.ErrAt(err, rv.Location)
	}
	if t.Metadata == nil || t.Metadata.CurrentSchema() == nil {
		return nil, pgerr.New(pgerr.DataCorrupted, "table %s has no current schema", tn.Written)
	}
	for _, priv := range b.targetPrivileges(verb) {
		check := b.CheckTablePrivilege
		if verb == "UPDATE" || verb == "DELETE" {
			check = b.checkTableColumns // privilege_column.go
		}
		if err := check(t, priv); err != nil {
			return nil, err
		}
	}
	if verb == "UPDATE" {
		if err := b.checkReadIfUsed(t); err != nil { // privilege_column.go
			return nil, err
		}
	}
	alias := ""
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
	}
	first := len(b.scope.items)
	r, err := b.bindTable(rv, tn, t, alias, nil)
	if err != nil {
		return nil, err
	}
	sr, ok := r.(*plan.Scan)
	if !ok {
		return nil, b.ErrAt(pgerr.NotYet(verb+" on this table"), rv.Location)
	}
	tg := &dmlTarget{tn: tn, table: t, schema: sr.Schema, cols: ColumnsOfTable(t, sr.Schema), scan: sr, item: b.scope.items[first]}
	tg.ids = append([]plan.ColID(nil), sr.Cols[:len(tg.cols)]...)
	tg.file = b.metadataColumn(sr, scan.FieldIDFile)
	tg.pos = b.metadataColumn(sr, scan.FieldIDPos)
	if t.Metadata.FormatVersion >= 3 {
		tg.rowID, tg.hasRowID = b.metadataColumn(sr, scan.FieldIDRowID), true
	}
	return tg, nil
}

// metadataColumn is the id of the scan's metadata column with field id
// fid, added to the scan (but not to its FROM item, which names a column
// of the table that way) when a table column hides it.
func (b *Binder) metadataColumn(sr *plan.Scan, fid int) plan.ColID {
	for i, f := range sr.FieldIDs {
		if f == fid {
			return sr.Cols[i]
		}
	}
	for _, f := range scan.MetadataColumns(sr.Table.Metadata, sr.Schema) {
		if f.ID != fid {
			continue
		}
		id := b.q.AddHidden(plan.ColMeta{Name: f.Name, T: plan.TypeOfIceberg(f.Type), ArrowType: engine.ArrowType(f.Type)})
		sr.FieldIDs = append(sr.FieldIDs, f.ID)
		sr.Cols = append(sr.Cols, id)
		return id
	}
	panic("translate: no metadata column with field id " + strconv.Itoa(fid))
}

// bindDMLFrom binds the FROM items of UPDATE ... FROM and DELETE ...
// USING and joins them to the target (the WHERE condition becomes the join
// condition). An item with the target's name is an error, as in
// PostgreSQL.
func (b *Binder) bindDMLFrom(tg *dmlTarget, cur plan.Rel, from []*pg.Node) (plan.Rel, error) {
	first := len(b.scope.items)
	for _, n := range from {
		r, err := b.bindFromItem(n, cur)
		if err != nil {
			return nil, err
		}
		cur = r
	}
	name := tg.item.refName()
	for _, it := range b.scope.items[first:] {
		if it.refName() != name {
			continue
		}
		if tg.item.alias == "" && it.alias == "" && it.table != nil && it.table != tg.table &&
			strings.Join(it.table.Ident.Namespace, ".") != strings.Join(tg.table.Ident.Namespace, ".") {
			continue // two tables of the same name in different schemas
		}
		return nil, pgerr.New(pgerr.DuplicateAlias, "table name \"%s\" specified more than once", name)
	}
	return cur, nil
}

// bindDMLWhere puts the statement's WHERE condition over cur.
func (b *Binder) bindDMLWhere(cur plan.Rel, where *pg.Node) (plan.Rel, error) {
	if where == nil {
		return cur, nil
	}
	if c := where.GetCurrentOfExpr(); c != nil {
		return nil, pgerr.NotYet("WHERE CURRENT OF")
	}
	b.where = "WHERE"
	w, err := b.Expr(where)
	b.where = ""
	if err != nil {
		return nil, err
	}
	pred, err := b.asBool(w, "WHERE", NodeLocation(where))
	if err != nil {
		return nil, err
	}
	if b.LitErr != nil {
		return nil, b.LitErr
	}
	return &plan.Filter{In: b.applyPending(cur), Pred: pred}, nil
}

// bindReturning binds a RETURNING list over cur in the current scope (*
// and t.* expand as in a select list) and returns the relation with the
// joins its subqueries need, the expressions and their descriptions.
func (b *Binder) bindReturning(cur plan.Rel, list []*pg.Node) (plan.Rel, []expr.Expr, []pgtypes.Column, error) {
	if len(list) == 0 {
		return cur, nil, nil, nil
	}
	saved := b.where
	b.where = "RETURNING"
	targets, err := b.bindTargets(list)
	b.where = saved
	if err != nil {
		return nil, nil, nil, err
	}
	if b.LitErr != nil {
		return nil, nil, nil, b.LitErr
	}
	cols := make([]pgtypes.Column, len(targets))
	exprs := make([]expr.Expr, len(targets))
	for i, t := range targets {
		o := b.originOf(t.e.E)
		cols[i] = pgtypes.Column{Name: t.name, TypeOID: t.e.T.OID, Typmod: t.e.T.Typmod, TableOID: o.Table, AttNum: o.Att}
		exprs[i] = t.e.E
	}
	return b.applyPending(cur), exprs, cols, nil
}

// finishDML projects cur into a DMLPlan's layout (dml.go): the target's
// _file and _pos, action, the new row (values, typed as the table's
// columns) and the RETURNING values.
func (b *Binder) finishDML(kind dmlKind, tg *dmlTarget, cur plan.Rel, action expr.Expr, values []expr.Expr, ret []expr.Expr, retCols []pgtypes.Column) *DMLPlan {
	proj := &plan.Project{In: cur}
	var descs []pgtypes.Column
	add := func(e expr.Expr, name string, t plan.Type, d pgtypes.Column) {
		proj.Exprs = append(proj.Exprs, e)
		proj.Cols = append(proj.Cols, b.newColFrom(e, name, t, e.Type()))
		descs = append(descs, d)
	}
	desc := func(name string, t plan.Type) pgtypes.Column {
		return pgtypes.Column{Name: name, TypeOID: t.OID, Typmod: t.Typmod}
	}
	add(b.ref(tg.file).E, "_file", plan.TText, desc("_file", plan.TText))
	add(b.ref(tg.pos).E, "_pos", plan.TInt8, desc("_pos", plan.TInt8))
	add(action, "action", plan.TInt4, desc("action", plan.TInt4))
	add(b.rowIDExpr(tg), "_row_id", plan.TInt8, desc("_row_id", plan.TInt8))
	for i, c := range tg.cols {
		add(CastIfNeeded(values[i], c.Arrow), c.Name, c.Type, desc(c.Name, c.Type))
	}
	for i, e := range ret {
		add(e, retCols[i].Name, plan.Type{OID: retCols[i].TypeOID, Typmod: retCols[i].Typmod}, retCols[i])
	}
	sel := &plan.Select{Root: proj, Out: append([]plan.ColID(nil), proj.Cols...), Cols: descs}
	b.finish(sel)
	p := &DMLPlan{Kind: kind, Table: tg.table, Schema: tg.schema, Cols: tg.cols, Target: tg.scan, Sel: sel, Dup: DupFirst}
	if len(retCols) > 0 {
		p.Returning = retCols
	}
	return p
}

// actionLit is the constant action column of a statement whose every row
// does the same.
func actionLit(a int32) expr.Expr { return &expr.Lit{V: a, T: expr.Int4} }
