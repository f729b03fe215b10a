package translate

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

// Constraints and indexes as pg_dump writes them after a table's data:
// ALTER TABLE ONLY t ADD CONSTRAINT k PRIMARY KEY (id) makes id the
// table's identifier fields (what icegate shows as its primary key);
// UNIQUE, FOREIGN KEY, CHECK and EXCLUDE constraints and CREATE INDEX have
// nothing to hold them in an Iceberg table: they are accepted with a
// WARNING saying they are not kept, so a dump of a PostgreSQL database
// loads, and nobody is led to think they are enforced.

// addConstraint applies ALTER TABLE ... ADD CONSTRAINT.
func (s *session) addConstraint(e *ddl.SchemaEdit, cmd *pg.AlterTableCmd) ([]Notice, error) {
	c := cmd.GetDef().GetConstraint()
	if c == nil {
		return nil, pgerr.NotYet("this ADD CONSTRAINT form")
	}
	switch c.Contype {
	case pg.ConstrType_CONSTR_PRIMARY:
		if c.Indexname != "" {
			return nil, pgerr.NotYet("ADD PRIMARY KEY USING INDEX")
		}
		var names []string
		for _, k := range c.Keys {
			names = append(names, k.GetString_().GetSval())
		}
		return nil, ddl.SetIdentifierFields(e, names)
	}
	if n, ok := constraintNotKept(c); ok {
		return []Notice{n}, nil
	}
	return nil, pgerr.NotYet("ADD CONSTRAINT of type " + strings.ToLower(strings.TrimPrefix(c.Contype.String(), "CONSTR_")))
}

// dropConstraint applies ALTER TABLE ... DROP CONSTRAINT [IF EXISTS] name.
// The primary key (<table>_pkey, as the system catalog names it) is the
// table's identifier fields: they go. Any other name is a constraint
// icegate did not keep: with IF EXISTS it does not exist (PostgreSQL's
// NOTICE), without it a WARNING says there is nothing to drop, so that a
// migration dropping the foreign key it added runs.
func dropConstraint(e *ddl.SchemaEdit, cmd *pg.AlterTableCmd) ([]Notice, error) {
	if cmd.Name == e.Table+"_pkey" && ddl.ClearIdentifierFields(e) {
		return nil, nil
	}
	if cmd.MissingOk {
		return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
			Message: "constraint \"" + cmd.Name + "\" of relation \"" + e.Table + "\" does not exist, skipping"}}, nil
	}
	return []Notice{notKept("constraint \""+cmd.Name+"\" of relation \""+e.Table+"\"",
		"icegate keeps only primary keys, as Iceberg identifier fields: there is nothing to drop.")}, nil
}

// validateConstraint applies ALTER TABLE ... VALIDATE CONSTRAINT name
// (pg_dump's NOT VALID constraints): the primary key holds; any other
// constraint was not kept, and a WARNING says there is nothing to
// validate.
func validateConstraint(e *ddl.SchemaEdit, cmd *pg.AlterTableCmd) []Notice {
	if cmd.Name == e.Table+"_pkey" && e.HasIdentifierFields() {
		return nil
	}
	return []Notice{notKept("constraint \""+cmd.Name+"\" of relation \""+e.Table+"\"",
		"icegate keeps only primary keys, as Iceberg identifier fields: there is nothing to validate.")}
}

// primaryKeyRenamed is the 0A000 for renaming a primary key (constraint or
// index): icegate names it after its table.
func primaryKeyRenamed(name, table string) error {
	return pgerr.Unsupported("renaming primary key \"%s\"", name).
		WithHint("The primary key of a table is named %s_pkey: rename the table to rename it.", table)
}

// prepareRenameConstraint prepares ALTER TABLE [IF EXISTS] t RENAME
// CONSTRAINT a TO b: the primary key's name follows its table's (0A000);
// any other constraint was not kept, and a WARNING says there is nothing
// to rename.
func (s *session) prepareRenameConstraint(rs *pg.RenameStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER TABLE", run: func(ctx context.Context) ([]Notice, error) {
		t, notices, err := s.alterTarget(ctx, rs.Relation, rs.MissingOk)
		if t == nil || err != nil {
			return notices, err
		}
		if rs.Subname == t.Ident.Name+"_pkey" && len(t.Metadata.CurrentSchema().IdentifierFieldIDs) > 0 {
			return nil, primaryKeyRenamed(rs.Subname, t.Ident.Name)
		}
		return []Notice{notKept("constraint \""+rs.Subname+"\" of relation \""+t.Ident.Name+"\"",
			"icegate keeps only primary keys, as Iceberg identifier fields: there is nothing to rename.")}, nil
	}}, nil
}

// prepareRenameIndex prepares ALTER INDEX [IF EXISTS] a RENAME TO b: a
// kept index (index_kept.go) takes the new name; a primary key's index is
// named after its table (0A000); any other index was not kept (with IF
// EXISTS it does not exist).
func (s *session) prepareRenameIndex(rs *pg.RenameStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER INDEX", run: func(ctx context.Context) ([]Notice, error) {
		tn := parse.TableNameOf(rs.Relation)
		parts := []string{tn.Name}
		if tn.Schema != "" {
			parts = []string{tn.Schema, tn.Name}
		}
		if r, ix, err := s.findIndex(ctx, parts); err != nil {
			return nil, err
		} else if r != nil && !ix.Primary {
			return nil, s.renameKeptIndex(ctx, r, ix, rs.Newname) // index_kept.go
		}
		if table, ok := strings.CutSuffix(tn.Name, "_pkey"); ok {
			owner := tn
			owner.Name = table
			if t, err := s.ResolveTable(ctx, owner); err == nil && len(t.Metadata.CurrentSchema().IdentifierFieldIDs) > 0 {
				return nil, primaryKeyRenamed(tn.Name, table)
			}
		}
		if rs.MissingOk {
			return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
				Message: "relation \"" + tn.Name + "\" does not exist, skipping"}}, nil
		}
		return []Notice{notKept("index \""+tn.Name+"\"", "Iceberg tables have no indexes: there is nothing to rename.")}, nil
	}}, nil
}

// constraintNotKept is the WARNING for a UNIQUE, FOREIGN KEY, CHECK or
// EXCLUDE constraint, of a table or a column (in CREATE TABLE, ADD COLUMN
// and ADD CONSTRAINT alike); false for the other kinds of constraint.
func constraintNotKept(c *pg.Constraint) (Notice, bool) {
	kind, ok := map[pg.ConstrType]string{pg.ConstrType_CONSTR_UNIQUE: "UNIQUE", pg.ConstrType_CONSTR_FOREIGN: "FOREIGN KEY",
		pg.ConstrType_CONSTR_CHECK: "CHECK", pg.ConstrType_CONSTR_EXCLUSION: "EXCLUDE"}[c.GetContype()]
	if !ok {
		return Notice{}, false
	}
	what := kind + " constraint"
	if c.Conname != "" {
		what += " \"" + c.Conname + "\""
	}
	return notKept(what, "icegate keeps only primary keys, as Iceberg identifier fields."), true
}

// constraintAttribute is true for the DEFERRABLE / INITIALLY ... clauses
// that follow a column's constraint: they go with a constraint icegate
// does not keep.
func constraintAttribute(c *pg.Constraint) bool {
	switch c.GetContype() {
	case pg.ConstrType_CONSTR_ATTR_DEFERRABLE, pg.ConstrType_CONSTR_ATTR_NOT_DEFERRABLE,
		pg.ConstrType_CONSTR_ATTR_DEFERRED, pg.ConstrType_CONSTR_ATTR_IMMEDIATE:
		return true
	}
	return false
}

// notKept is the WARNING for a definition icegate accepts and drops.
func notKept(what, detail string) Notice {
	return Notice{Severity: "WARNING", Code: pgerr.Warning, Message: what + " is not kept", Detail: detail}
}

// prepareDropIndex prepares DROP INDEX: a kept index (index_kept.go) is
// dropped; a name that is a table or a view is refused, as in PostgreSQL;
// any other name may be one of the indexes CREATE INDEX accepted without
// keeping them, so there is nothing to drop (a WARNING says so).
func (s *session) prepareDropIndex(ds *pg.DropStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "DROP INDEX", run: func(ctx context.Context) ([]Notice, error) {
		var notices []Notice
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
				notices = append(notices, Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
					Message: "index \"" + name + "\" does not exist, skipping"})
				continue
			}
			notices = append(notices, Notice{Severity: "WARNING", Code: pgerr.Warning,
				Message: "index \"" + name + "\" is not kept: nothing to drop",
				Detail:  "Iceberg tables have no indexes: an index over expressions, a partial index or one with INCLUDE is accepted and not kept."})
		}
		return notices, nil
	}}, nil
}

// prepareCreateIndex prepares CREATE INDEX: the table must exist; an
// index over plain columns is kept in the table's properties
// (index_kept.go), others are not (a WARNING says so).
func (s *session) prepareCreateIndex(st *pg.IndexStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "CREATE INDEX", run: func(ctx context.Context) ([]Notice, error) {
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
		return []Notice{notKept(what+" on table \""+tn.Name+"\"", "icegate keeps indexes over plain columns only (not over expressions, partial, or with INCLUDE).")}, nil
	}}, nil
}
