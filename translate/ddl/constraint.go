package ddl

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// Constraints and indexes as pg_dump writes them after a table's data:
// ALTER TABLE ONLY t ADD CONSTRAINT k PRIMARY KEY (id) makes id the
// table's identifier fields (what icegate shows as its primary key);
// UNIQUE, FOREIGN KEY, CHECK and EXCLUDE constraints and CREATE INDEX have
// nothing to hold them in an Iceberg table: they are accepted with a
// WARNING saying they are not kept, so a dump of a PostgreSQL database
// loads, and nobody is led to think they are enforced.

// AddConstraint applies ALTER TABLE ... ADD CONSTRAINT.
func AddConstraint(e *SchemaEdit, cmd *pg.AlterTableCmd) ([]pgerr.Notice, error) {
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
		return nil, SetIdentifierFields(e, names)
	}
	if n, ok := ConstraintNotKept(c); ok {
		return []pgerr.Notice{n}, nil
	}
	return nil, pgerr.NotYet("ADD CONSTRAINT of type " + strings.ToLower(strings.TrimPrefix(c.Contype.String(), "CONSTR_")))
}

// DropConstraint applies ALTER TABLE ... DROP CONSTRAINT [IF EXISTS] name.
// The primary key (<table>_pkey, as the system catalog names it) is the
// table's identifier fields: they go. Any other name is a constraint
// icegate did not keep: with IF EXISTS it does not exist (PostgreSQL's
// NOTICE), without it a WARNING says there is nothing to drop, so that a
// migration dropping the foreign key it added runs.
func DropConstraint(e *SchemaEdit, cmd *pg.AlterTableCmd) ([]pgerr.Notice, error) {
	if cmd.Name == e.Table+"_pkey" && ClearIdentifierFields(e) {
		return nil, nil
	}
	if cmd.MissingOk {
		return []pgerr.Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
			Message: "constraint \"" + cmd.Name + "\" of relation \"" + e.Table + "\" does not exist, skipping"}}, nil
	}
	return []pgerr.Notice{NotKept("constraint \""+cmd.Name+"\" of relation \""+e.Table+"\"",
		"icegate keeps only primary keys, as Iceberg identifier fields: there is nothing to drop.")}, nil
}

// ValidateConstraint applies ALTER TABLE ... VALIDATE CONSTRAINT name
// (pg_dump's NOT VALID constraints): the primary key holds; any other
// constraint was not kept, and a WARNING says there is nothing to
// validate.
func ValidateConstraint(e *SchemaEdit, cmd *pg.AlterTableCmd) []pgerr.Notice {
	if cmd.Name == e.Table+"_pkey" && e.HasIdentifierFields() {
		return nil
	}
	return []pgerr.Notice{NotKept("constraint \""+cmd.Name+"\" of relation \""+e.Table+"\"",
		"icegate keeps only primary keys, as Iceberg identifier fields: there is nothing to validate.")}
}

// PrimaryKeyRenamed is the 0A000 for renaming a primary key (constraint or
// index): icegate names it after its table.
func PrimaryKeyRenamed(name, table string) error {
	return pgerr.Unsupported("renaming primary key \"%s\"", name).
		WithHint("The primary key of a table is named %s_pkey: rename the table to rename it.", table)
}

// ConstraintNotKept is the WARNING for a UNIQUE, FOREIGN KEY, CHECK or
// EXCLUDE constraint, of a table or a column (in CREATE TABLE, ADD COLUMN
// and ADD CONSTRAINT alike); false for the other kinds of constraint.
func ConstraintNotKept(c *pg.Constraint) (pgerr.Notice, bool) {
	kind, ok := map[pg.ConstrType]string{pg.ConstrType_CONSTR_UNIQUE: "UNIQUE", pg.ConstrType_CONSTR_FOREIGN: "FOREIGN KEY",
		pg.ConstrType_CONSTR_CHECK: "CHECK", pg.ConstrType_CONSTR_EXCLUSION: "EXCLUDE"}[c.GetContype()]
	if !ok {
		return pgerr.Notice{}, false
	}
	what := kind + " constraint"
	if c.Conname != "" {
		what += " \"" + c.Conname + "\""
	}
	return NotKept(what, "icegate keeps only primary keys, as Iceberg identifier fields."), true
}

// ConstraintAttribute is true for the DEFERRABLE / INITIALLY ... clauses
// that follow a column's constraint: they go with a constraint icegate
// does not keep.
func ConstraintAttribute(c *pg.Constraint) bool {
	switch c.GetContype() {
	case pg.ConstrType_CONSTR_ATTR_DEFERRABLE, pg.ConstrType_CONSTR_ATTR_NOT_DEFERRABLE,
		pg.ConstrType_CONSTR_ATTR_DEFERRED, pg.ConstrType_CONSTR_ATTR_IMMEDIATE:
		return true
	}
	return false
}

// NotKept is the WARNING for a definition icegate accepts and drops.
func NotKept(what, detail string) pgerr.Notice {
	return pgerr.Notice{Severity: "WARNING", Code: pgerr.Warning, Message: what + " is not kept", Detail: detail}
}
