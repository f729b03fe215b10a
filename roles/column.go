package roles

import (
	"maps"
	"slices"
)

// Column privileges: GRANT SELECT (a, b), INSERT (a), UPDATE (c),
// REFERENCES (d) ON t keep an ACL per column in the table's Object, by
// column name (PostgreSQL's pg_attribute.attacl). A column's ACL never
// holds the owner's privileges: they come from the table's ACL, and a
// column privilege is granted either by the table's ACL (every column) or
// by the column's own.

// ColumnPrivileges are the letters a column ACL may hold.
const ColumnPrivileges = "arwx"

func cloneColumns(c map[string][]ACLItem) map[string][]ACLItem {
	if c == nil {
		return nil
	}
	out := make(map[string][]ACLItem, len(c))
	for k, v := range c {
		out[k] = slices.Clone(v)
	}
	return out
}

// ColumnACL is the ACL of column col of the object of key (nil: none).
func (s *State) ColumnACL(key, col string) []ACLItem {
	if o := s.Object(key); o != nil {
		return o.Columns[col]
	}
	return nil
}

// ColumnNames are the columns of the object of key with an ACL, sorted.
func (s *State) ColumnNames(key string) []string {
	o := s.Object(key)
	if o == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(o.Columns))
}

// SetColumnACL stores the ACL of a column (an empty one is forgotten).
func (o *Object) SetColumnACL(col string, acl []ACLItem) {
	if len(acl) == 0 {
		delete(o.Columns, col)
		if len(o.Columns) == 0 {
			o.Columns = nil
		}
		return
	}
	if o.Columns == nil {
		o.Columns = map[string][]ACLItem{}
	}
	o.Columns[col] = acl
}

func (o *Object) dropColumnGrantee(name string) {
	for col, acl := range o.Columns {
		o.SetColumnACL(col, slices.DeleteFunc(acl, func(a ACLItem) bool { return a.Grantee == name }))
	}
}

// RenameColumn moves the ACL of a renamed column of the object of key.
func (s *State) RenameColumn(key, from, to string) {
	o := s.Object(key)
	if o == nil || o.Columns[from] == nil {
		return
	}
	acl := o.Columns[from]
	delete(o.Columns, from)
	o.Columns[to] = acl
}

// DropColumn forgets the ACL of a dropped column of the object of key.
func (s *State) DropColumn(key, col string) {
	if o := s.Object(key); o != nil && o.Columns[col] != nil {
		o.SetColumnACL(col, nil)
	}
}

// HasColumn reports whether role has privilege p on a column: through
// the table (owner and ACL) or through the column's own ACL, as
// PostgreSQL's pg_attribute_aclcheck.
func (s *Store) HasColumn(st *State, role string, p byte, owner string, tableACL, colACL []ACLItem) bool {
	return s.Has(st, role, p, owner, tableACL) || s.granted(st, role, p, colACL)
}

// HasAnyColumn reports whether role has privilege p on the table or on
// at least one of the columns cols (whose ACLs colACL gives), as
// has_any_column_privilege.
func (s *Store) HasAnyColumn(st *State, role string, p byte, owner string, tableACL []ACLItem, colACLs map[string][]ACLItem) bool {
	if s.Has(st, role, p, owner, tableACL) {
		return true
	}
	for _, acl := range colACLs {
		if s.granted(st, role, p, acl) {
			return true
		}
	}
	return false
}

// granted reports whether acl grants p to role, to a role whose
// privileges it has, or to PUBLIC.
func (s *Store) granted(st *State, role string, p byte, acl []ACLItem) bool {
	for _, a := range acl {
		if !containsByte(a.Privs, p) {
			continue
		}
		if a.Grantee == "" || s.HasPrivsOf(st, role, a.Grantee) {
			return true
		}
	}
	return false
}

func containsByte(s string, p byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == p {
			return true
		}
	}
	return false
}
