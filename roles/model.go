package roles

import (
	"maps"
	"slices"
	"strings"
	"time"
)

// Role is one role of the store.
type Role struct {
	Name       string     `json:"name"`
	OID        uint32     `json:"oid"`
	Superuser  bool       `json:"superuser,omitempty"`
	Inherit    bool       `json:"inherit"`
	CreateRole bool       `json:"createrole,omitempty"`
	CreateDB   bool       `json:"createdb,omitempty"`
	Login      bool       `json:"login,omitempty"`
	ConnLimit  int        `json:"connlimit"`          // -1: no limit
	Password   string     `json:"password,omitempty"` // SCRAM-SHA-256 verifier in pg_authid's format
	ValidUntil *time.Time `json:"valid_until,omitempty"`
}

// Member is one membership: Member is a member of Role.
type Member struct {
	Role    string `json:"role"`
	Member  string `json:"member"`
	Grantor string `json:"grantor"`
	Admin   bool   `json:"admin,omitempty"`
}

// ACLItem grants privileges (aclitem letters: r SELECT, a INSERT, w
// UPDATE, d DELETE, D TRUNCATE, U USAGE, C CREATE) to a grantee ("" is
// PUBLIC); Grantable are those it may grant on.
type ACLItem struct {
	Grantee   string `json:"grantee"`
	Privs     string `json:"privs"`
	Grantable string `json:"grantable,omitempty"`
	Grantor   string `json:"grantor"`
}

// Kind is the kind of an object with an owner and an ACL.
type Kind string

const (
	KindTable  Kind = "table"
	KindView   Kind = "view"
	KindSchema Kind = "schema"
	// KindDatabase is a catalog the server serves as a database (GRANT
	// CONNECT ON DATABASE).
	KindDatabase Kind = "database"
)

// Object is an object's owner and ACL. ACL nil is the default.
type Object struct {
	Owner string    `json:"owner,omitempty"`
	ACL   []ACLItem `json:"acl,omitempty"`
	// Columns are the ACLs of a table's columns by name (column.go).
	Columns map[string][]ACLItem `json:"columns,omitempty"`
}

// State is one version of the store.
type State struct {
	Version int64            `json:"version"`
	NextOID uint32           `json:"next_oid"`
	Roles   map[string]*Role `json:"roles"`
	Members []Member         `json:"members,omitempty"`
	// Objects are keyed by ObjectKey.
	Objects map[string]*Object `json:"objects,omitempty"`
	// Defaults are ALTER DEFAULT PRIVILEGES' entries (defaults.go).
	Defaults []DefaultACL `json:"defaults,omitempty"`
}

// firstOID is the first OID given to a role: PostgreSQL's
// FirstNormalObjectId.
const firstOID = 16384

// ObjectKey is the key of an object in State.Objects: its catalog, kind
// and dotted name (a schema's namespace; a table's or view's namespace
// and name).
func ObjectKey(catalog string, kind Kind, name string) string {
	if kind == KindView {
		kind = KindTable // tables and views share their names
	}
	return catalog + "/" + string(kind) + "/" + name
}

// clone copies s deeply enough for a change to edit the copy.
func (s *State) clone() *State {
	c := &State{Version: s.Version, NextOID: s.NextOID, Roles: make(map[string]*Role, len(s.Roles)),
		Members: slices.Clone(s.Members), Objects: make(map[string]*Object, len(s.Objects)), Defaults: cloneDefaults(s.Defaults)}
	for k, r := range s.Roles {
		rc := *r
		c.Roles[k] = &rc
	}
	for k, o := range s.Objects {
		oc := &Object{Owner: o.Owner, ACL: slices.Clone(o.ACL), Columns: cloneColumns(o.Columns)}
		c.Objects[k] = oc
	}
	return c
}

func emptyState() *State {
	return &State{NextOID: firstOID, Roles: map[string]*Role{}, Objects: map[string]*Object{}}
}

// Role returns the stored role of name (nil: none).
func (s *State) Role(name string) *Role {
	if s == nil {
		return nil
	}
	return s.Roles[name]
}

// RoleNames are the stored roles' names, sorted.
func (s *State) RoleNames() []string {
	return slices.Sorted(maps.Keys(s.Roles))
}

// Object returns the stored owner and ACL of an object (nil: none).
func (s *State) Object(key string) *Object {
	if s == nil {
		return nil
	}
	return s.Objects[key]
}

// AddRole adds r with a fresh OID.
func (s *State) AddRole(r *Role) {
	r.OID = s.NextOID
	s.NextOID++
	s.Roles[r.Name] = r
}

// DropRole removes a role and its memberships and grants.
func (s *State) DropRole(name string) {
	delete(s.Roles, name)
	s.Members = slices.DeleteFunc(s.Members, func(m Member) bool { return m.Role == name || m.Member == name })
	s.RevokeAllOf(name)
}

// Owns lists the objects name owns.
func (s *State) Owns(name string) []string {
	var out []string
	for k, o := range s.Objects {
		if o.Owner == name {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// EditObject returns the object of key for editing, creating it.
func (s *State) EditObject(key string) *Object {
	o := s.Objects[key]
	if o == nil {
		o = &Object{}
		s.Objects[key] = o
	}
	return o
}

// RenameObject moves the stored owner and ACL of an object to a new key.
func (s *State) RenameObject(from, to string) {
	if o, ok := s.Objects[from]; ok {
		delete(s.Objects, from)
		s.Objects[to] = o
	}
}

// DropObject forgets an object (and, for a schema, everything in it).
func (s *State) DropObject(key string) {
	delete(s.Objects, key)
	cat, rest, _ := strings.Cut(key, "/")
	if kind, name, ok := strings.Cut(rest, "/"); ok && kind == string(KindSchema) {
		prefix := ObjectKey(cat, KindTable, name+".")
		for k := range s.Objects {
			if strings.HasPrefix(k, prefix) {
				delete(s.Objects, k)
			}
		}
	}
}

// MemberOf lists the memberships of member.
func (s *State) MemberOf(member string) []Member {
	var out []Member
	for _, m := range s.Members {
		if m.Member == member {
			out = append(out, m)
		}
	}
	return out
}

// Membership returns the membership of member in role (nil: none).
func (s *State) Membership(role, member string) *Member {
	for i := range s.Members {
		if s.Members[i].Role == role && s.Members[i].Member == member {
			return &s.Members[i]
		}
	}
	return nil
}

// PrivilegeDeps describes, as PostgreSQL's DROP ROLE does, the privileges
// name holds and the default privileges that depend on it, given
// describe to name a stored object's key ("table s.t").
func (s *State) PrivilegeDeps(name string, describe func(key string) string) []string {
	var deps []string
	for _, k := range slices.Sorted(maps.Keys(s.Objects)) {
		o := s.Objects[k]
		if slices.ContainsFunc(o.ACL, func(a ACLItem) bool { return a.Grantee == name }) {
			deps = append(deps, "privileges for "+describe(k))
		}
		for _, col := range slices.Sorted(maps.Keys(o.Columns)) {
			if slices.ContainsFunc(o.Columns[col], func(a ACLItem) bool { return a.Grantee == name }) {
				deps = append(deps, "privileges for column "+col+" of "+describe(k))
			}
		}
	}
	return append(deps, s.defaultsDeps(name)...)
}

// RevokeAllOf removes what DROP OWNED revokes: name's privileges on
// objects and columns, and the default privileges of and for name.
func (s *State) RevokeAllOf(name string) {
	for _, o := range s.Objects {
		o.ACL = slices.DeleteFunc(o.ACL, func(a ACLItem) bool { return a.Grantee == name })
		o.dropColumnGrantee(name)
	}
	s.dropDefaultsOf(name)
}
