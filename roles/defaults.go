package roles

import (
	"slices"
)

// Default privileges: ALTER DEFAULT PRIVILEGES [FOR ROLE r] [IN SCHEMA s]
// GRANT | REVOKE ... ON TABLES keeps entries as PostgreSQL's
// pg_default_acl does. An entry of no schema holds the whole ACL a new
// table of its role starts with (it replaces the built-in default, the
// owner's every privilege); an entry of a schema holds privileges added
// to that. An entry equal to what it changes is dropped. Views get the
// entries of tables, as in PostgreSQL.

// DefaultACL is one entry of default privileges.
type DefaultACL struct {
	Role   string    `json:"role"`             // whose new objects it applies to
	Schema string    `json:"schema,omitempty"` // "" every schema
	Kind   Kind      `json:"kind"`             // KindTable
	ACL    []ACLItem `json:"acl"`
}

func cloneDefaults(d []DefaultACL) []DefaultACL {
	out := slices.Clone(d)
	for i := range out {
		out[i].ACL = slices.Clone(out[i].ACL)
	}
	return out
}

func (s *State) dropDefaultsOf(name string) {
	s.Defaults = slices.DeleteFunc(s.Defaults, func(d DefaultACL) bool { return d.Role == name })
	for i := range s.Defaults {
		s.Defaults[i].ACL = slices.DeleteFunc(s.Defaults[i].ACL, func(a ACLItem) bool { return a.Grantee == name })
	}
	s.Defaults = slices.DeleteFunc(s.Defaults, func(d DefaultACL) bool { return d.redundant() })
}

// redundant reports whether an entry changes nothing: a schema's that
// adds nothing, or a global one equal to the built-in default.
func (d *DefaultACL) redundant() bool {
	if d.Schema != "" {
		return len(d.ACL) == 0
	}
	return equalACL(d.ACL, builtinDefault(d.Kind, d.Role))
}

// DefaultEntry returns the entry of role, schema and kind (nil: none).
func (s *State) DefaultEntry(role, schema string, kind Kind) *DefaultACL {
	for i := range s.Defaults {
		d := &s.Defaults[i]
		if d.Role == role && d.Schema == schema && d.Kind == kind {
			return d
		}
	}
	return nil
}

// builtinDefault is the ACL an object of kind has with no entry: its
// owner's every privilege.
func builtinDefault(kind Kind, owner string) []ACLItem {
	return []ACLItem{{Grantee: owner, Privs: AllPrivileges(kind), Grantor: owner}}
}

// AlterDefault grants (or revokes) privs to (from) grantees in role's
// entry for schema ("" every schema) and kind, as ALTER DEFAULT
// PRIVILEGES does; grantable is WITH GRANT OPTION, or on REVOKE GRANT
// OPTION FOR.
func (s *State) AlterDefault(role, schema string, kind Kind, grant bool, grantees []string, privs string, grantable bool) {
	var acl []ACLItem
	if d := s.DefaultEntry(role, schema, kind); d != nil {
		acl = slices.Clone(d.ACL)
	} else if schema == "" {
		acl = builtinDefault(kind, role)
	}
	for _, g := range grantees {
		if grant {
			acl = Grant(acl, g, role, privs, grantable)
		} else {
			acl = Revoke(acl, g, privs, grantable)
		}
	}
	s.Defaults = slices.DeleteFunc(s.Defaults, func(d DefaultACL) bool {
		return d.Role == role && d.Schema == schema && d.Kind == kind
	})
	if acl == nil {
		acl = []ACLItem{}
	}
	if d := (DefaultACL{Role: role, Schema: schema, Kind: kind, ACL: acl}); !d.redundant() {
		s.Defaults = append(s.Defaults, d)
	}
}

// DefaultObjectACL is the ACL a new object of kind owned by owner in
// schema starts with: nil when the entries leave the built-in default.
func (s *State) DefaultObjectACL(owner, schema string, kind Kind) []ACLItem {
	g, sc := s.DefaultEntry(owner, "", kind), s.DefaultEntry(owner, schema, kind)
	if g == nil && sc == nil {
		return nil
	}
	acl := builtinDefault(kind, owner)
	if g != nil {
		acl = slices.Clone(g.ACL)
	}
	if sc != nil {
		for _, a := range sc.ACL {
			acl = Grant(acl, a.Grantee, a.Grantor, a.Privs, false)
			if a.Grantable != "" {
				acl = Grant(acl, a.Grantee, a.Grantor, a.Grantable, true)
			}
		}
	}
	if equalACL(acl, builtinDefault(kind, owner)) {
		return nil
	}
	if acl == nil {
		acl = []ACLItem{}
	}
	return acl
}

func equalACL(a, b []ACLItem) bool {
	return slices.Equal(a, b)
}

// SortACL orders acl as PostgreSQL sorts a new object's ACL made from
// default privileges: by grantee, then grantor, by OID (PUBLIC first).
func (s *Store) SortACL(st *State, acl []ACLItem) {
	slices.SortStableFunc(acl, func(a, b ACLItem) int {
		if c := cmpOID(s.oidOf(st, a.Grantee), s.oidOf(st, b.Grantee)); c != 0 {
			return c
		}
		return cmpOID(s.oidOf(st, a.Grantor), s.oidOf(st, b.Grantor))
	})
}

func cmpOID(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// oidOf is the OID of a role as the catalogs show it: PUBLIC 0, the first
// configured superuser PostgreSQL's bootstrap superuser's 10, the other
// configured users just below the first OID a stored role gets.
func (s *Store) oidOf(st *State, name string) uint32 {
	if name == "" {
		return 0
	}
	if r := st.Role(name); r != nil {
		return r.OID
	}
	if oid, ok := Predefined[name]; ok {
		return oid
	}
	for i, b := range s.bootstrap {
		if b == name {
			if i == 0 {
				return 10
			}
			return uint32(16000 + i)
		}
	}
	return 15999
}

// defaultsDeps describes, as PostgreSQL's DROP ROLE does, the default
// privileges that depend on role name: entries of its own and entries
// granting it something.
func (s *State) defaultsDeps(name string) []string {
	var owner, grantee []string
	for _, d := range s.Defaults {
		what := "default privileges on new relations belonging to role " + d.Role
		if d.Schema != "" {
			what += " in schema " + d.Schema
		}
		if d.Role == name {
			owner = append(owner, "owner of "+what)
		}
		if slices.ContainsFunc(d.ACL, func(a ACLItem) bool { return a.Grantee == name && d.Role != name }) {
			grantee = append(grantee, "privileges for "+what)
		}
	}
	return append(owner, grantee...)
}
