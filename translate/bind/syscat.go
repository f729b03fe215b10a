package bind

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// sysRel reads one relation of the system catalog (package syscat): its
// rows are computed when the statement runs, from a snapshot of the
// warehouse.
type sysRel struct {
	table *syscat.Table
	// snapshot is the session's view of the catalogs.
	snapshot func(context.Context) (*syscat.Snapshot, error)
	// cols are the relation's columns, then the system column tableoid
	// (hidden from *).
	cols []plan.ColID
}

func (r *sysRel) OutCols() []plan.ColID { return r.cols }

// SystemCatalog marks the node as a plan.CatalogSource.
func (r *sysRel) SystemCatalog() {}

// Describe is the node's line in a plan.
func (r *sysRel) Describe(q *plan.ColTable) string {
	return fmt.Sprintf("system catalog %s.%s [%s]", r.table.Schema, r.table.Name, plan.FmtCols(q, r.cols))
}

// ExplainTarget names the relation for EXPLAIN, which shows it as a
// Seq Scan on it (explain.ExplainTarget).
func (r *sysRel) ExplainTarget() (relation, schema string) { return r.table.Name, r.table.Schema }

// sysTable finds the catalog relation a table name refers to: a name
// qualified by pg_catalog or information_schema, or an unqualified name of
// pg_catalog (which PostgreSQL searches first). It returns nil for any
// other name.
func sysTable(tn parse.TableName, catalogName string) *syscat.Table {
	if tn.Catalog != "" && tn.Catalog != catalogName {
		return nil
	}
	if tn.Schema == "" {
		return syscat.Lookup("pg_catalog", tn.Name)
	}
	return syscat.Lookup(tn.Schema, tn.Name)
}

// searchPathSysTable finds an unqualified name in information_schema when
// the session's search_path names that schema (and no table of the
// warehouse took the name first).
func (b *Binder) searchPathSysTable(tn parse.TableName) *syscat.Table {
	if tn.Schema != "" || tn.Catalog != "" {
		return nil
	}
	for _, p := range b.env.SearchPath() {
		if p == "information_schema" {
			return syscat.Lookup(p, tn.Name)
		}
	}
	return nil
}

// bindSysTable binds a catalog relation as a FROM item.
func (b *Binder) bindSysTable(loc int32, tn parse.TableName, t *syscat.Table, alias string, colAliases []string) (plan.Rel, error) {
	if len(colAliases) > len(t.Columns) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			tn.Name, len(t.Columns), len(colAliases)), loc)
	}
	r := &sysRel{table: t, snapshot: b.env.SysSnapshot}
	it := &rangeItem{tn: tn, alias: alias, sys: t}
	for i, c := range t.Columns {
		name := c.Name
		if i < len(colAliases) {
			name = colAliases[i]
		}
		id := b.q.Add(plan.ColMeta{Name: name, T: plan.Type{OID: c.Type, Typmod: -1}, ArrowType: syscat.ArrowOf(c.Type),
			Origin: plan.ColOrigin{Table: t.OID, Att: int16(i + 1)}})
		r.cols = append(r.cols, id)
		it.cols = append(it.cols, itemCol{name: name, id: id})
	}
	// tableoid is system column -6 in pg_attribute.
	toid := b.q.Add(plan.ColMeta{Name: "tableoid", T: plan.Type{OID: pgtypes.OID, Typmod: -1}, ArrowType: syscat.ArrowOf(pgtypes.OID),
		Origin: plan.ColOrigin{Table: t.OID, Att: -6}})
	r.cols = append(r.cols, toid)
	it.cols = append(it.cols, itemCol{name: "tableoid", id: toid, hidden: true})
	b.scope.items = append(b.scope.items, it)
	return r, nil
}

// Lower computes a catalog relation's rows.
func (x *sysRel) Lower(ctx context.Context, _ plan.ColSet) (engine.Operator, []plan.ColID, error) {
	snap, err := x.snapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	mem := expr.Allocator(ctx)
	batch, err := x.table.Batch(ctx, mem, snap)
	if err != nil {
		if pgerr.As(err) != nil {
			return nil, nil, err // a relation's own refusal (pg_authid's 42501)
		}
		return nil, nil, pgerr.Wrap(err, pgerr.InternalError, "compute %s.%s: %v", x.table.Schema, x.table.Name, err)
	}
	defer batch.Release()
	// The system column tableoid: the relation's own OID on every row.
	ob := array.NewInt64Builder(mem)
	defer ob.Release()
	for i := int64(0); i < batch.NumRows(); i++ {
		ob.Append(int64(x.table.OID))
	}
	oids := ob.NewArray()
	defer oids.Release()
	fields := append(x.table.ArrowSchema().Fields(), arrow.Field{Name: "tableoid", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	schema := arrow.NewSchema(fields, nil)
	out := array.NewRecordBatch(schema, append(append([]arrow.Array(nil), batch.Columns()...), oids), batch.NumRows())
	return exec.NewBatches(schema, []arrow.RecordBatch{out}), x.cols, nil
}

// Estimate is a guess: counting the rows would cost as much as reading them.
func (r *sysRel) Estimate() (rows, base float64) { return plan.SourceGuess() }
