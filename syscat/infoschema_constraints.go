package syscat

import (
	"context"
	"fmt"
)

// The relations of information_schema about constraints. A table's Iceberg
// identifier fields are its primary key (PrimaryKeyName); a required field
// is a NOT NULL column, which PostgreSQL lists as a CHECK constraint named
// <schema OID>_<table OID>_<attnum>_not_null. Iceberg has no foreign keys,
// unique or check constraints, so referential_constraints has no rows.

// notNullName is the name PostgreSQL gives the CHECK constraint that stands
// for column attnum's NOT NULL.
func notNullName(s *Snapshot, r *Relation, attnum int) string {
	var nsOID uint32
	if ns := s.Namespace(r.Namespace); ns != nil {
		nsOID = ns.OID
	}
	return fmt.Sprintf("%d_%d_%d_not_null", nsOID, r.OID, attnum)
}

// constrainedTables yields the tables that can carry constraints.
func constrainedTables(s *Snapshot) []*Relation {
	var out []*Relation
	for _, r := range s.Relations {
		if r.Kind == 'r' {
			out = append(out, r)
		}
	}
	return out
}

func tableConstraintRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range constrainedTables(s) {
		if err := ctx.Err(); err != nil {
			return err
		}
		common := []any{"constraint_catalog", s.Database, "constraint_schema", r.Namespace,
			"table_catalog", s.Database, "table_schema", r.Namespace, "table_name", r.Name,
			"is_deferrable", "NO", "initially_deferred", "NO", "enforced", "YES"}
		if len(r.PrimaryKey) > 0 {
			rb.add(append(common, "constraint_name", PrimaryKeyName(r), "constraint_type", "PRIMARY KEY")...)
		}
		for i, a := range r.Columns {
			if a.NotNull {
				rb.add(append(common, "constraint_name", notNullName(s, r, i+1), "constraint_type", "CHECK")...)
			}
		}
	}
	return nil
}

func keyColumnUsageRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range constrainedTables(s) {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i, attnum := range r.PrimaryKey {
			if int(attnum) < 1 || int(attnum) > len(r.Columns) {
				return fmt.Errorf("%s.%s: primary key column %d out of range", r.Namespace, r.Name, attnum)
			}
			rb.add("constraint_catalog", s.Database, "constraint_schema", r.Namespace,
				"constraint_name", PrimaryKeyName(r), "table_catalog", s.Database,
				"table_schema", r.Namespace, "table_name", r.Name,
				"column_name", r.Columns[attnum-1].Name, "ordinal_position", card(i+1))
		}
	}
	return nil
}

func constraintColumnUsageRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range constrainedTables(s) {
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, attnum := range r.PrimaryKey {
			if int(attnum) < 1 || int(attnum) > len(r.Columns) {
				return fmt.Errorf("%s.%s: primary key column %d out of range", r.Namespace, r.Name, attnum)
			}
			rb.add("table_catalog", s.Database, "table_schema", r.Namespace, "table_name", r.Name,
				"column_name", r.Columns[attnum-1].Name, "constraint_catalog", s.Database,
				"constraint_schema", r.Namespace, "constraint_name", PrimaryKeyName(r))
		}
	}
	return nil
}

func constraintTableUsageRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range constrainedTables(s) {
		if len(r.PrimaryKey) == 0 {
			continue
		}
		rb.add("table_catalog", s.Database, "table_schema", r.Namespace, "table_name", r.Name,
			"constraint_catalog", s.Database, "constraint_schema", r.Namespace,
			"constraint_name", PrimaryKeyName(r))
	}
	return ctx.Err()
}

func checkConstraintRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, r := range constrainedTables(s) {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i, a := range r.Columns {
			if a.NotNull {
				rb.add("constraint_catalog", s.Database, "constraint_schema", r.Namespace,
					"constraint_name", notNullName(s, r, i+1), "check_clause", a.Name+" IS NOT NULL")
			}
		}
	}
	return nil
}
