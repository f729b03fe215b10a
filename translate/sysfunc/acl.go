package sysfunc

import (
	"context"
	"maps"
	"strconv"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// acldefault(objtype "char", owner oid): the privileges an object of the
// type has when its ACL is NULL (the owner's, and PUBLIC's for some), as
// PostgreSQL 15 computes them. pg_dump compares each object's ACL with it
// to decide which GRANTs to write.

func addACLFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"acldefault": {Bind: bindACLDefault},
	})
}

// defaultPrivileges are, by object type letter, the default privileges of
// PUBLIC and of the owner, in aclitem's letters.
var defaultPrivileges = map[string][2]string{
	"c": {"", ""},        // column
	"r": {"", "arwdDxt"}, // table
	"s": {"", "rwU"},     // sequence
	"d": {"Tc", "CTc"},   // database
	"f": {"X", "X"},      // function
	"l": {"U", "U"},      // language
	"L": {"", "rw"},      // large object
	"n": {"", "UC"},      // schema
	"t": {"", "C"},       // tablespace
	"F": {"", "U"},       // foreign-data wrapper
	"S": {"", "U"},       // foreign server
	"T": {"U", "U"},      // type
	"p": {"", "sA"},      // parameter
}

var tACLArray = plan.Type{OID: pgtypes.AclitemArray, Typmod: -1}

func bindACLDefault(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 2); err != nil {
		return bind.Bound{}, err
	}
	user := b.Env().CurrentUser()
	return b.SysCall(c, tACLArray, b.SysArgs(c, plan.Type{OID: pgtypes.Char, Typmod: -1}, tOIDArg), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		kind := bind.TextValue(v[0])
		privs, ok := defaultPrivileges[kind]
		if !ok {
			return nil, pgerr.New(pgerr.InternalError, "unrecognized objtype abbreviation: %s", kind)
		}
		owner, err := oidValue(v[1])
		if err != nil {
			return nil, err
		}
		name := strconv.FormatUint(uint64(owner), 10)
		if n, ok := syscat.RoleName(owner, user); ok {
			name = syscat.ACLRoleName(n)
		}
		out := []any{}
		if privs[0] != "" {
			out = append(out, "="+privs[0]+"/"+name)
		}
		if privs[1] != "" {
			out = append(out, name+"="+privs[1]+"/"+name)
		}
		return out, nil
	})
}
