package icebergfrom

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/metatable"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// Iceberg metadata tables. A table name followed by $kind (ns.t$snapshots,
// "t$files") or by .kind (ns.t.snapshots, t.files) names one of the
// relations of metatable.All, whose rows are computed when the statement
// runs from the table's metadata at one snapshot (the current one, or the
// one a time-travel clause picks).

// metaRel reads one metadata table of an Iceberg table.
type metaRel struct {
	table *catalog.Table
	def   *metatable.Def
	// snapshot is the snapshot the snapshot-scoped tables read (nil: the
	// table has none).
	snapshot *catalog.Snapshot
	name     string // as written, for EXPLAIN
	columns  []metatable.Column
	cols     []plan.ColID
}

func (r *metaRel) OutCols() []plan.ColID { return r.cols }

// SplitMetaName splits a name into the table it qualifies and the
// metadata table kind: t$kind in the last part, else the last part of a
// name of two or three parts.
func SplitMetaName(tn parse.TableName) (base parse.TableName, kind string, ok bool) {
	if i := strings.LastIndexByte(tn.Name, '$'); i > 0 && i < len(tn.Name)-1 {
		base = parse.TableName{Catalog: tn.Catalog, Schema: tn.Schema, Name: tn.Name[:i]}
		kind = tn.Name[i+1:]
	} else if tn.Schema != "" {
		base = parse.TableName{Schema: tn.Catalog, Name: tn.Schema}
		kind = tn.Name
	} else {
		return parse.TableName{}, "", false
	}
	var parts []string
	for _, p := range []string{base.Catalog, base.Schema, base.Name} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	base.Written = strings.Join(parts, ".")
	return base, strings.ToLower(kind), true
}

// bindMetadataTable binds an Iceberg metadata table (ns.t$snapshots,
// "t$files", ns.t.snapshots...) as a FROM item; ok is false when tn names
// no metadata table. A time-travel clause after the name
// (b.Stmt().asOf[rv.Location]) reads the metadata of that snapshot.
func bindMetadataTable(b *bind.Binder, rv *pg.RangeVar, tn parse.TableName, alias string, colAliases []string) (r plan.Rel, ok bool, err error) {
	b.UntruncateTable(rv, &tn)
	base, kind, ok := SplitMetaName(tn)
	if !ok {
		return nil, false, nil
	}
	clause := b.Stmt().AsOf[rv.Location]
	if clause != nil {
		// A table read at a version: the name may well be the table's own.
		if _, err := b.Env().ResolveTable(b.Context(), tn); err == nil {
			return nil, false, nil
		}
	}
	t, err := b.Env().ResolveTable(b.Context(), base)
	if err != nil || t.Metadata == nil {
		return nil, false, nil
	}
	if err := b.CheckTablePrivilege(t, 'r'); err != nil {
		return nil, true, err
	}
	def := metatable.ByName(kind)
	if def == nil {
		return nil, true, b.ErrAt(pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", tn.Written).
			WithDetail("Table \"%s\" has no metadata table \"%s\".", base.Written, kind).
			WithHint("The metadata tables are %s.", strings.Join(metatable.Names(), ", ")), rv.Location)
	}
	snap := t.Metadata.CurrentSnapshot()
	if clause != nil {
		if !def.PerSnapshot {
			return nil, true, b.ErrAt(pgerr.Unsupported("time travel on metadata table \"%s\" (it lists every snapshot)", kind), clause.Loc)
		}
		s, _, err := timeTravel(b, t, base.Written, clause)
		if err != nil {
			return nil, true, b.ErrAt(err, clause.Loc)
		}
		snap = s
	}
	columns := def.Columns(t.Metadata)
	if len(colAliases) > len(columns) {
		return nil, true, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			tn.Name, len(columns), len(colAliases)), rv.Location)
	}
	mr := &metaRel{table: t, def: def, snapshot: snap, name: base.Written + "$" + kind, columns: columns}
	mr.cols = b.AddItem(tn, alias, tn.Name, itemCols(columns, colAliases))
	return mr, true, nil
}

// Lower computes a metadata table's rows.
func (x *metaRel) Lower(ctx context.Context, _ plan.ColSet) (engine.Operator, []plan.ColID, error) {
	rows, err := x.def.Rows(ctx, &metatable.Source{Table: x.table, Meta: x.table.Metadata, Snapshot: x.snapshot, Columns: x.columns})
	if err != nil {
		if pgerr.As(err) != nil {
			return nil, nil, err
		}
		return nil, nil, pgerr.Wrap(err, pgerr.IOError, "compute %s: %v", x.name, err)
	}
	batch, err := metatable.Batch(expr.Allocator(ctx), x.columns, rows)
	if err != nil {
		return nil, nil, pgerr.Wrap(err, pgerr.InternalError, "compute %s: %v", x.name, err)
	}
	return exec.NewBatches(batch.Schema(), []arrow.RecordBatch{batch}), x.cols, nil
}

// Describe is the metadata table's line in a plan.
func (x *metaRel) Describe(q *plan.ColTable) string {
	at := ""
	if x.def.PerSnapshot && x.snapshot != nil {
		at = fmt.Sprintf(" at snapshot %d", x.snapshot.SnapshotID)
	}
	return fmt.Sprintf("metadata table %s%s [%s]", x.name, at, plan.FmtCols(q, x.cols))
}

// Estimate is a guess: counting the rows would cost as much as reading them.
func (r *metaRel) Estimate() (rows, base float64) { return plan.SourceGuess() }

// itemCols are a metadata table's columns as a FROM item's, renamed by
// the column aliases.
func itemCols(columns []metatable.Column, colAliases []string) []bind.ItemCol {
	out := make([]bind.ItemCol, len(columns))
	for i, c := range columns {
		out[i] = bind.ItemCol{Name: c.Name, T: c.Typ, Arrow: plan.ArrowOf(c.Typ)}
		if i < len(colAliases) {
			out[i].Name = colAliases[i]
		}
	}
	return out
}
