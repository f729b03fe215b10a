package indexexec

import (
	"context"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/sequence"
)

// RenameConstraint prepares ALTER TABLE [IF EXISTS] t RENAME
// CONSTRAINT a TO b: the primary key's name follows its table's (0A000);
// any other constraint was not kept, and a WARNING says there is nothing
// to rename.
func (s Exec) RenameConstraint(rs *pg.RenameStmt) Run {
	return func(ctx context.Context) ([]pgerr.Notice, error) {
		t, notices, err := s.AlterTarget(ctx, rs.Relation, rs.MissingOk)
		if t == nil || err != nil {
			return notices, err
		}
		if rs.Subname == t.Ident.Name+"_pkey" && len(t.Metadata.CurrentSchema().IdentifierFieldIDs) > 0 {
			return nil, ddl.PrimaryKeyRenamed(rs.Subname, t.Ident.Name)
		}
		return []pgerr.Notice{ddl.NotKept("constraint \""+rs.Subname+"\" of relation \""+t.Ident.Name+"\"",
			"icegate keeps only primary keys, as Iceberg identifier fields: there is nothing to rename.")}, nil
	}
}

// Rename prepares ALTER INDEX [IF EXISTS] a RENAME TO b: a
// kept index (kept.go) takes the new name; a primary key's index is
// named after its table (0A000); any other index was not kept (with IF
// EXISTS it does not exist).
func (s Exec) Rename(rs *pg.RenameStmt) Run {
	return func(ctx context.Context) ([]pgerr.Notice, error) {
		tn := parse.TableNameOf(rs.Relation)
		parts := []string{tn.Name}
		if tn.Schema != "" {
			parts = []string{tn.Schema, tn.Name}
		}
		if r, ix, err := s.findIndex(ctx, parts); err != nil {
			return nil, err
		} else if r != nil && !ix.Primary {
			return nil, s.renameKeptIndex(ctx, r, ix, rs.Newname)
		}
		if table, ok := strings.CutSuffix(tn.Name, "_pkey"); ok {
			owner := tn
			owner.Name = table
			if t, err := s.ResolveTable(ctx, owner); err == nil && len(t.Metadata.CurrentSchema().IdentifierFieldIDs) > 0 {
				return nil, ddl.PrimaryKeyRenamed(tn.Name, table)
			}
		}
		if rs.MissingOk {
			return []pgerr.Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
				Message: "relation \"" + tn.Name + "\" does not exist, skipping"}}, nil
		}
		return []pgerr.Notice{ddl.NotKept("index \""+tn.Name+"\"", "Iceberg tables have no indexes: there is nothing to rename.")}, nil
	}
}

// Drop prepares DROP INDEX: a kept index (kept.go) is
// dropped; a name that is a table or a view is refused, as in PostgreSQL;
// any other name may be one of the indexes CREATE INDEX accepted without
// keeping them, so there is nothing to drop (a WARNING says so).
func (s Exec) Drop(ds *pg.DropStmt) Run {
	return func(ctx context.Context) ([]pgerr.Notice, error) {
		var notices []pgerr.Notice
		for _, obj := range ds.Objects {
			var parts []string
			for _, n := range obj.GetList().GetItems() {
				parts = append(parts, n.GetString_().GetSval())
			}
			name := strings.Join(parts, ".")
			r, ix, err := s.findIndex(ctx, parts)
			if err != nil {
				return nil, err
			}
			if r != nil {
				if err := s.dropKeptIndex(ctx, r, ix); err != nil {
					return nil, err
				}
				continue
			}
			tn := parse.TableName{Name: parts[len(parts)-1], Written: name}
			if len(parts) > 1 {
				tn.Schema = parts[len(parts)-2]
			}
			if _, err := s.ResolveTable(ctx, tn); err == nil {
				return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not an index", tn.Name).
					WithHint("Use DROP TABLE to remove a table.")
			}
			// A primary key's index (<table>_pkey) goes with its constraint
			// only, as in PostgreSQL.
			if table, ok := strings.CutSuffix(tn.Name, "_pkey"); ok {
				owner := tn
				owner.Name = table
				if t, err := s.ResolveTable(ctx, owner); err == nil && len(t.Metadata.CurrentSchema().IdentifierFieldIDs) > 0 {
					return nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop index %s because constraint %s on table %s requires it",
						syscat.QuoteIdent(tn.Name), syscat.QuoteIdent(tn.Name), syscat.QuoteIdent(table)).
						WithHint("You can drop constraint %s on table %s instead.", syscat.QuoteIdent(tn.Name), syscat.QuoteIdent(table))
				}
			}
			if ds.MissingOk {
				notices = append(notices, pgerr.Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
					Message: "index \"" + name + "\" does not exist, skipping"})
				continue
			}
			notices = append(notices, pgerr.Notice{Severity: "WARNING", Code: pgerr.Warning,
				Message: "index \"" + name + "\" is not kept: nothing to drop",
				Detail:  "Iceberg tables have no indexes: an index over expressions, a partial index or one with INCLUDE is accepted and not kept."})
		}
		return notices, nil
	}
}

// Create prepares CREATE INDEX: the table must exist; an
// index over plain columns is kept in the table's properties
// (kept.go), others are not (a WARNING says so).
func (s Exec) Create(st *pg.IndexStmt) Run {
	return func(ctx context.Context) ([]pgerr.Notice, error) {
		tn := parse.TableNameOf(st.Relation)
		t, err := s.ResolveTable(ctx, tn)
		if err != nil {
			return nil, err
		}
		if keepableIndex(st) && t.Metadata != nil && !sequence.Is(t) {
			return s.keepIndex(ctx, st, t)
		}
		what := "index"
		if st.Idxname != "" {
			what += " \"" + st.Idxname + "\""
		}
		return []pgerr.Notice{ddl.NotKept(what+" on table \""+tn.Name+"\"", "icegate keeps indexes over plain columns only (not over expressions, partial, or with INCLUDE).")}, nil
	}
}
