package syscat

import (
	"context"
	"strconv"
)

// The relations of information_schema about roles and privileges. icegate
// has one role that matters: the session's user, which owns every object
// (ownerName) and so holds every privilege on it, grantable. The catalog
// relations are also readable by PUBLIC, as PostgreSQL's default ACLs make
// them. There are no role memberships (applicable_roles and
// administrable_role_authorizations have no rows) and no predefined roles.

// tablePrivilegeTypes are the privileges an owner holds on a relation, in
// PostgreSQL's ACL order.
var tablePrivilegeTypes = []string{"INSERT", "SELECT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"}

// columnPrivilegeTypes are the privileges that apply to columns.
var columnPrivilegeTypes = []string{"INSERT", "SELECT", "UPDATE", "REFERENCES"}

// publicPrivileges returns what PUBLIC may do with a relation: read the
// catalogs, except those PostgreSQL keeps from PUBLIC; change pg_settings.
func publicPrivileges(r *Relation) []string {
	if !r.System {
		return nil
	}
	switch r.Namespace + "." + r.Name {
	case "pg_catalog.pg_settings":
		return []string{"SELECT", "UPDATE"}
	case "pg_catalog.pg_authid", "pg_catalog.pg_backend_memory_contexts", "pg_catalog.pg_config",
		"pg_catalog.pg_file_settings", "pg_catalog.pg_hba_file_rules", "pg_catalog.pg_ident_file_mappings",
		"pg_catalog.pg_largeobject", "pg_catalog.pg_replication_origin_status", "pg_catalog.pg_shadow",
		"pg_catalog.pg_shmem_allocations", "pg_catalog.pg_statistic", "pg_catalog.pg_statistic_ext_data",
		"pg_catalog.pg_subscription", "pg_catalog.pg_user_mapping",
		"information_schema.sql_parts", "information_schema.transforms":
		return nil
	}
	return []string{"SELECT"}
}

func enabledRoleRows(_ context.Context, s *Snapshot, rb *rowBuilder) error {
	rb.add("role_name", ownerName(s))
	return nil
}

// tablePrivilegeRows computes table_privileges and role_table_grants. The
// two differ only for grants that neither come from nor go to an enabled
// role, which icegate does not have.
func tablePrivilegeRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	owner := ownerName(s)
	for _, r := range s.Relations {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !tableLike(r) {
			continue
		}
		if s.Access != nil && !r.System && s.Access.Relation != nil {
			accessTablePrivileges(s, r, rb) // access.go
			continue
		}
		rel := []any{"grantor", owner, "table_catalog", s.Database, "table_schema", r.Namespace, "table_name", r.Name}
		for _, p := range publicPrivileges(r) {
			rb.add(append(rel, "grantee", "PUBLIC", "privilege_type", p, "is_grantable", "NO",
				"with_hierarchy", yesNo(p == "SELECT"))...)
		}
		for _, p := range tablePrivilegeTypes {
			rb.add(append(rel, "grantee", owner, "privilege_type", p, "is_grantable", "YES",
				"with_hierarchy", yesNo(p == "SELECT"))...)
		}
	}
	return nil
}

// columnPrivilegeRows computes column_privileges and role_column_grants
// (the same rows, as for tables).
func columnPrivilegeRows(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
	owner := ownerName(s)
	for _, r := range s.Relations {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !tableLike(r) {
			continue
		}
		if s.Access != nil && !r.System && s.Access.Relation != nil {
			accessColumnPrivileges(s, r, rb) // access_column.go
			continue
		}
		public := publicPrivileges(r)
		for _, a := range r.Columns {
			col := []any{"grantor", owner, "table_catalog", s.Database, "table_schema", r.Namespace,
				"table_name", r.Name, "column_name", a.Name}
			for _, p := range public {
				rb.add(append(col, "grantee", "PUBLIC", "privilege_type", p, "is_grantable", "NO")...)
			}
			for _, p := range columnPrivilegeTypes {
				rb.add(append(col, "grantee", owner, "privilege_type", p, "is_grantable", "YES")...)
			}
		}
	}
	return nil
}

// builtinCollations are the collations icegate has: PostgreSQL's built-in
// ones (no ICU or libc locales).
var builtinCollations = []string{"default", "C", "POSIX", "ucs_basic"}

// usagePrivilegeRows computes usage_privileges and role_usage_grants: the
// collations, which PUBLIC may use. icegate has no domains, sequences,
// foreign data wrappers or foreign servers.
func usagePrivilegeRows(_ context.Context, s *Snapshot, rb *rowBuilder) error {
	for _, c := range builtinCollations {
		rb.add("grantor", ownerName(s), "grantee", "PUBLIC", "object_catalog", s.Database,
			"object_schema", "pg_catalog", "object_name", c, "object_type", "COLLATION",
			"privilege_type", "USAGE", "is_grantable", "NO")
	}
	return nil
}

// routinePrivilegeRows computes routine_privileges and role_routine_grants:
// every built-in function may be run by PUBLIC and by its owner. (The
// functions PostgreSQL keeps from PUBLIC, such as pg_read_file, are not
// among those icegate lists.)
func routinePrivilegeRows(procs func() []*ProcInfo) infoRowsFunc {
	return func(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
		owner := ownerName(s)
		for i, p := range procs() {
			if i%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			routine := []any{"grantor", owner, "specific_catalog", s.Database, "specific_schema", "pg_catalog",
				"specific_name", specificName(p), "routine_catalog", s.Database, "routine_schema", "pg_catalog",
				"routine_name", p.Name, "privilege_type", "EXECUTE"}
			rb.add(append(routine, "grantee", "PUBLIC", "is_grantable", "NO")...)
			rb.add(append(routine, "grantee", owner, "is_grantable", "YES")...)
		}
		return nil
	}
}

// dataTypePrivilegeRows computes data_type_privileges: one row per type
// descriptor (dtd_identifier) of the columns, routine results and
// parameters, as the other relations number them.
func dataTypePrivilegeRows(procs func() []*ProcInfo) infoRowsFunc {
	return func(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
		for _, r := range s.Relations {
			if err := ctx.Err(); err != nil {
				return err
			}
			if !tableLike(r) {
				continue
			}
			for i := range r.Columns {
				rb.add("object_catalog", s.Database, "object_schema", r.Namespace, "object_name", r.Name,
					"object_type", "TABLE", "dtd_identifier", strconv.Itoa(i+1))
			}
		}
		for _, p := range procs() {
			name := specificName(p)
			var dtd any
			if p.Kind != 'p' {
				dtd = "0"
			}
			rb.add("object_catalog", s.Database, "object_schema", "pg_catalog", "object_name", name,
				"object_type", "ROUTINE", "dtd_identifier", dtd)
			for n := range procArgTypes(p) {
				rb.add("object_catalog", s.Database, "object_schema", "pg_catalog", "object_name", name,
					"object_type", "ROUTINE", "dtd_identifier", strconv.Itoa(n+1))
			}
		}
		return ctx.Err()
	}
}
