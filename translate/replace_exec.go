package translate

import (
	"context"
	"errors"
	"fmt"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// Spark's REPLACE TABLE and CREATE OR REPLACE TABLE [AS SELECT]
// (parse/dialect_replace.go). An existing table is replaced as Iceberg's
// replace-table transaction does (catalog.ReplaceTable): same uuid and
// location, its snapshots and refs other than main kept, the new schema,
// partition spec, sort order and properties current, and main pointing at
// a new snapshot without parent holding the query's rows (no snapshot
// without a query). Schema, rows and refs change in one commit, after the
// query has run: a query that fails leaves the table as it was.

// replaceOrCreate replaces the table ct names when it exists. rows makes
// the operator of the rows to write into the replaced table (nil: none).
// done is false when the table does not exist and form allows creating
// it: the caller creates it as CREATE TABLE does.
func (s *session) replaceOrCreate(ctx context.Context, mc catalog.MutableCatalog, ct *createTable, form string,
	rows func(t *catalog.Table) (engine.Operator, error)) (done bool, n int64, err error) {
	if ct.ifNotExists {
		return false, 0, pgerr.New(pgerr.SyntaxError, "IF NOT EXISTS cannot go with REPLACE")
	}
	old, err := mc.LoadTable(ctx, ct.id)
	if errors.Is(err, catalog.ErrNotFound) {
		if form == parse.CreateOrReplace {
			return false, 0, nil
		}
		return false, 0, pgerr.Wrap(err, pgerr.UndefinedTable, "relation \"%s\" does not exist", ct.name).
			WithHint("REPLACE TABLE replaces an existing table; CREATE OR REPLACE TABLE also creates one.")
	}
	if err != nil {
		return false, 0, catalogError(err, kindTable, ct.name)
	}
	if loc := ct.spec.Location; loc != "" && loc != old.Metadata.Location {
		return false, 0, pgerr.Unsupported("LOCATION in REPLACE TABLE other than the table's (\"%s\")", old.Metadata.Location)
	}
	if v := ct.spec.FormatVersion; v != 0 && v < old.Metadata.FormatVersion {
		return false, 0, pgerr.New(pgerr.InvalidParameterValue, "cannot downgrade format-version from %d to %d", old.Metadata.FormatVersion, v)
	}
	reqs, updates, err := catalog.ReplaceTable(old.Metadata, ct.spec)
	if err != nil {
		if errors.Is(err, catalog.ErrDataInvalid) {
			return false, 0, pgerr.Wrap(err, pgerr.InvalidParameterValue, "cannot replace table \"%s\": %v", ct.name, err)
		}
		return false, 0, catalogError(err, kindTable, ct.name)
	}
	b := catalog.NewMetadataBuilderFrom(old.Metadata, old.MetadataLocation)
	if err := b.Apply(updates...); err != nil {
		return false, 0, catalogError(fmt.Errorf("replace table %s: %w", ct.name, err), kindTable, ct.name)
	}
	m, err := b.Build()
	if err != nil {
		return false, 0, catalogError(fmt.Errorf("replace table %s: %w", ct.name, err), kindTable, ct.name)
	}
	// The table as the replacement makes it, for writing its rows.
	t := &catalog.Table{Ident: old.Ident, MetadataLocation: old.MetadataLocation, Metadata: m, IO: old.IO}
	var staged *catalog.StagedChange
	abort := func() {}
	if rows != nil {
		op, err := rows(t)
		if err != nil {
			return false, 0, err
		}
		files, tw, err := s.writeFiles(ctx, mc, t, op)
		if err != nil {
			return false, 0, err
		}
		n, abort = tw.rows, tw.abort
		if len(files) > 0 {
			out, err := mc.NewOutput(t)
			if err != nil {
				abort()
				return false, 0, catalogError(err, kindTable, ct.name)
			}
			if staged, err = catalog.StageChange(ctx, out, t, &catalog.Change{AddedDataFiles: files}); err != nil {
				abort()
				return false, 0, catalogError(err, kindTable, ct.name)
			}
			updates = append(updates, staged.Updates...)
		}
	}
	if _, err := mc.CommitTable(ctx, old.Ident, reqs, updates); err != nil {
		if staged != nil {
			staged.Discard(ctx)
		}
		abort()
		return false, 0, catalogError(err, kindTable, ct.name)
	}
	return true, n, nil
}

// writeFiles writes every row of op into data files of t (closed, not
// committed); tw removes them (abort) when the caller's commit fails.
func (s *session) writeFiles(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, op engine.Operator) (files []*catalog.DataFile, tw *tableWrite, err error) {
	defer func() {
		if cerr := op.Close(); cerr != nil && err == nil {
			err = cerr
			if tw != nil {
				tw.abort()
			}
		}
	}()
	tw, err = s.newTableWrite(ctx, mc, t, t.Metadata.CurrentSchema(), writeOptions{})
	if err != nil {
		return nil, nil, err
	}
	if err := op.Open(ctx); err != nil {
		tw.abort()
		return nil, nil, statementErr(ctx, err)
	}
	for {
		b, err := op.Next()
		if err != nil {
			tw.abort()
			return nil, nil, statementErr(ctx, err)
		}
		if b == nil {
			break
		}
		if err := tw.write(b); err != nil {
			return nil, nil, err
		}
	}
	if files, err = tw.w.Close(); err != nil {
		return nil, nil, writeError(err, t)
	}
	return files, tw, nil
}
