package roles

import (
	"strings"
)

// Privilege letters, as aclitem writes them.
const (
	Select     = 'r'
	Insert     = 'a'
	Update     = 'w'
	Delete     = 'd'
	Truncate   = 'D'
	References = 'x'
	Trigger    = 't'
	Usage      = 'U'
	Create     = 'C'
	Temporary  = 'T'
	Connect    = 'c'
)

// aclOrder is the order aclitem writes its letters in.
const aclOrder = "arwdDxtUCTc"

// AllPrivileges are the letters ALL PRIVILEGES grants on a kind.
func AllPrivileges(k Kind) string {
	switch k {
	case KindSchema:
		return "UC"
	case KindDatabase:
		return "CTc"
	}
	return "arwdDxt"
}

// PrivilegeName is the SQL name of a privilege letter.
func PrivilegeName(p byte) string {
	switch p {
	case Select:
		return "SELECT"
	case Insert:
		return "INSERT"
	case Update:
		return "UPDATE"
	case Delete:
		return "DELETE"
	case Truncate:
		return "TRUNCATE"
	case References:
		return "REFERENCES"
	case Trigger:
		return "TRIGGER"
	case Usage:
		return "USAGE"
	case Create:
		return "CREATE"
	case Temporary:
		return "TEMPORARY"
	case Connect:
		return "CONNECT"
	}
	return ""
}

// PrivilegeLetter is the letter of a privilege's SQL name (0: unknown).
func PrivilegeLetter(name string) byte {
	if strings.EqualFold(name, "TEMP") {
		return Temporary
	}
	for _, p := range []byte(aclOrder) {
		if strings.EqualFold(PrivilegeName(p), name) {
			return p
		}
	}
	return 0
}

// Predefined are PostgreSQL's predefined roles icegate gives meaning to,
// with their OIDs: members of pg_signal_backend may cancel and terminate
// the backends of roles that are not superusers.
var Predefined = map[string]uint32{"pg_signal_backend": 4200}

// Exists reports whether a role of the name exists: stored, a configured
// superuser, or predefined.
func (s *Store) Exists(st *State, name string) bool {
	_, pre := Predefined[name]
	return pre || st.Role(name) != nil || s.IsBootstrap(name)
}

// Superuser reports whether name is a superuser: a stored role with the
// attribute, or a name the store does not hold (a user the
// configuration authenticated).
func (s *Store) Superuser(st *State, name string) bool {
	if r := st.Role(name); r != nil {
		return r.Superuser
	}
	_, pre := Predefined[name]
	return !pre && name != ""
}

// HasPrivsOf reports whether member has the privileges of role: it is the
// role, a superuser, or a member of it through a chain of memberships
// each inherited (PostgreSQL's has_privs_of_role).
func (s *Store) HasPrivsOf(st *State, member, role string) bool {
	if member == role || s.Superuser(st, member) {
		return true
	}
	return s.reaches(st, member, role, true)
}

// IsMemberOf reports whether member is a member of role, directly or
// not, inheriting or not (PostgreSQL's is_member_of_role, for SET ROLE
// and pg_has_role's MEMBER).
func (s *Store) IsMemberOf(st *State, member, role string) bool {
	if member == role || s.Superuser(st, member) {
		return true
	}
	return s.reaches(st, member, role, false)
}

func (s *Store) reaches(st *State, member, role string, inherit bool) bool {
	seen := map[string]bool{member: true}
	queue := []string{member}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if inherit {
			if r := st.Role(m); r != nil && !r.Inherit {
				continue
			}
		}
		for _, ms := range st.MemberOf(m) {
			if ms.Role == role {
				return true
			}
			if !seen[ms.Role] {
				seen[ms.Role] = true
				queue = append(queue, ms.Role)
			}
		}
	}
	return false
}

// HasAdminOf reports whether member may grant membership in role: a
// superuser, or a direct member WITH ADMIN OPTION (or through roles it
// inherits that have it). A role with CREATEROLE may too (PostgreSQL 15).
func (s *Store) HasAdminOf(st *State, member, role string) bool {
	if s.Superuser(st, member) {
		return true
	}
	if r := st.Role(member); r != nil && r.CreateRole {
		return !s.Superuser(st, role)
	}
	for _, ms := range st.Members {
		if ms.Role == role && ms.Admin && s.HasPrivsOf(st, member, ms.Member) {
			return true
		}
	}
	return false
}

// Owner is the owner of an object: prop (a table's owner property, which
// ALTER TABLE ... OWNER TO sets) when it names a role, else the store's
// record, else the first configured superuser.
func (s *Store) Owner(st *State, key, prop string) string {
	if prop != "" && s.Exists(st, prop) {
		return prop
	}
	if o := st.Object(key); o != nil && o.Owner != "" {
		return o.Owner
	}
	if len(s.bootstrap) > 0 {
		return s.bootstrap[0]
	}
	return "icegate"
}

// ACL is an object's ACL: the stored one, or the default for its kind
// (the owner's every privilege; the public schema's also USAGE for
// PUBLIC, a database's CONNECT and TEMPORARY, as PostgreSQL 15 makes
// them).
func (s *Store) ACL(st *State, kind Kind, key, name, owner string) []ACLItem {
	if o := st.Object(key); o != nil && o.ACL != nil {
		return o.ACL
	}
	acl := []ACLItem{{Grantee: owner, Privs: AllPrivileges(kind), Grantor: owner}}
	if kind == KindSchema && name == "public" {
		acl = append(acl, ACLItem{Grantee: "", Privs: "U", Grantor: owner})
	}
	if kind == KindDatabase { // PostgreSQL's default, PUBLIC's item first: connect and make temporary tables
		acl = append([]ACLItem{{Grantee: "", Privs: "Tc", Grantor: owner}}, acl...)
	}
	return acl
}

// Has reports whether role has privilege p on an object of the given
// owner and ACL.
func (s *Store) Has(st *State, role string, p byte, owner string, acl []ACLItem) bool {
	if s.Superuser(st, role) || s.HasPrivsOf(st, role, owner) {
		return true
	}
	for _, a := range acl {
		if strings.IndexByte(a.Privs, p) < 0 {
			continue
		}
		if a.Grantee == "" || s.HasPrivsOf(st, role, a.Grantee) {
			return true
		}
	}
	return false
}

// FormatACL writes an ACL as aclitem[]'s text elements
// (grantee=privs/grantor; PUBLIC's grantee empty; * after a grantable
// privilege).
func FormatACL(acl []ACLItem, quote func(string) string) []string {
	out := make([]string, 0, len(acl))
	for _, a := range acl {
		var b strings.Builder
		if a.Grantee != "" {
			b.WriteString(quote(a.Grantee))
		}
		b.WriteByte('=')
		for i := 0; i < len(a.Privs); i++ {
			b.WriteByte(a.Privs[i])
			if strings.IndexByte(a.Grantable, a.Privs[i]) >= 0 {
				b.WriteByte('*')
			}
		}
		b.WriteByte('/')
		b.WriteString(quote(a.Grantor))
		out = append(out, b.String())
	}
	return out
}

// Grant adds privileges to grantee's item of acl (grantor's).
func Grant(acl []ACLItem, grantee, grantor, privs string, grantable bool) []ACLItem {
	for i := range acl {
		if acl[i].Grantee == grantee && acl[i].Grantor == grantor {
			acl[i].Privs = union(acl[i].Privs, privs)
			if grantable {
				acl[i].Grantable = union(acl[i].Grantable, privs)
			}
			return acl
		}
	}
	it := ACLItem{Grantee: grantee, Privs: union("", privs), Grantor: grantor}
	if grantable {
		it.Grantable = it.Privs
	}
	return append(acl, it)
}

// Revoke takes privileges from grantee's items of acl (or only the grant
// option of them, when optionOnly).
func Revoke(acl []ACLItem, grantee, privs string, optionOnly bool) []ACLItem {
	out := acl[:0:0]
	for _, a := range acl {
		if a.Grantee == grantee {
			a.Grantable = minus(a.Grantable, privs)
			if !optionOnly {
				a.Privs = minus(a.Privs, privs)
			}
			if a.Privs == "" {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// union keeps aclitem's order of letters.
func union(a, b string) string {
	var out []byte
	for _, p := range []byte(aclOrder) {
		if strings.IndexByte(a, p) >= 0 || strings.IndexByte(b, p) >= 0 {
			out = append(out, p)
		}
	}
	return string(out)
}

func minus(a, b string) string {
	var out []byte
	for i := 0; i < len(a); i++ {
		if strings.IndexByte(b, a[i]) < 0 {
			out = append(out, a[i])
		}
	}
	return string(out)
}
