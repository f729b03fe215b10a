package sysfunc

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/regtype"
)

// The has_*_privilege functions. icegate's users may do everything, so the
// answer is true; but the privilege names are checked (22023) and the
// object must exist, as PostgreSQL requires: a name that finds nothing is
// PostgreSQL's error (42P01, 3F000, 3D000, 42703, 42883), an OID that
// finds nothing gives NULL. The user argument of the three-argument forms
// may name any role (icegate does not list its users to sessions).

// privKind describes one has_*_privilege function.
type privKind struct {
	privs []string // the privilege names it accepts
	// column: the function takes a column after the table.
	column bool
	// find checks the object given by name (byName) or OID; found is false
	// for an OID that names nothing.
	find func(snap *syscat.Snapshot, sc privScope, v any, byName bool) (found bool, err error)
}

// privScope is what finding an object needs besides the catalog snapshot:
// the database the session is in and the functions it may call.
type privScope struct {
	db    string
	funcs bind.SysFuncs
}

var privKinds = map[string]privKind{
	"has_table_privilege": {privs: []string{"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"},
		find: findTable},
	"has_any_column_privilege": {privs: []string{"SELECT", "INSERT", "UPDATE", "REFERENCES"}, find: findTable},
	"has_column_privilege": {privs: []string{"SELECT", "INSERT", "UPDATE", "REFERENCES"}, column: true,
		find: findTable},
	"has_sequence_privilege": {privs: []string{"USAGE", "SELECT", "UPDATE"}, find: findSequence},
	"has_schema_privilege":   {privs: []string{"CREATE", "USAGE"}, find: findSchema},
	"has_database_privilege": {privs: []string{"CREATE", "CONNECT", "TEMPORARY", "TEMP"}, find: findDatabase},
	"has_function_privilege": {privs: []string{"EXECUTE"}, find: findFunction},
}

func addPrivFuncs(m map[string]bind.SysFuncDef) {
	for name := range privKinds {
		m[name] = bind.SysFuncDef{Bind: bindHasPrivilege}
	}
	m["pg_has_role"] = bind.SysFuncDef{Bind: bindHasRole}
}

func bindHasPrivilege(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	k := privKinds[c.Name]
	n := 2
	if k.column {
		n = 3
	}
	if err := b.SysArity(c, n, n+1); err != nil {
		return bind.Bound{}, err
	}
	// [user,] object, [column,] privilege
	var args []expr.Expr
	first := 0
	if len(c.Args) == n+1 {
		if isTextArg(c.Args[0]) {
			args = append(args, b.SysArg(c, 0, plan.TText))
		} else {
			args = append(args, b.SysArg(c, 0, tOIDArg))
		}
		first = 1
	}
	objByName := isTextArg(c.Args[first])
	if objByName {
		args = append(args, b.SysArg(c, first, plan.TText))
	} else {
		args = append(args, b.SysArg(c, first, tOIDArg))
	}
	colByName := false
	if k.column {
		colByName = isTextArg(c.Args[first+1])
		if colByName {
			args = append(args, b.SysArg(c, first+1, plan.TText))
		} else {
			args = append(args, b.SysArg(c, first+1, plan.TInt2))
		}
	}
	args = append(args, b.SysArg(c, len(c.Args)-1, plan.TText))
	sc := privScope{db: b.Env().DatabaseName(), funcs: b.Env().SysFuncs()}
	current := b.Env().CurrentUser()
	return b.SysCall(c, plan.TBool, args, bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		role := current
		if first == 1 {
			r, ok, err := roleArg(snap, v[0], isTextArg(c.Args[0]))
			if err != nil || !ok {
				return nil, err
			}
			role = r
		}
		v = v[first:]
		privList := bind.TextValue(v[len(v)-1])
		if err := checkPrivileges(privList, k.privs); err != nil {
			return nil, err
		}
		if !k.column {
			found, err := k.find(snap, sc, v[0], objByName)
			if err != nil || !found {
				return nil, err
			}
			return accessHas(snap, c.Name, role, v[0], objByName, privList), nil
		}
		r, err := regclassValue(snap, v[0], objByName)
		if err != nil || r == nil {
			return nil, err
		}
		if colByName {
			name := bind.TextValue(v[1])
			if columnIndex(r, name) < 0 {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, r.Name)
			}
			return accessHasColumn(snap, role, r, name, privList), nil // priv_column.go
		}
		attnum, _ := bind.ToInt64(v[1])
		if attnum < 1 || int(attnum) > len(r.Columns) {
			return nil, nil
		}
		return accessHasColumn(snap, role, r, r.Columns[attnum-1].Name, privList), nil
	})
}

// checkPrivileges checks a comma-separated privilege list ("SELECT,
// insert WITH GRANT OPTION").
func checkPrivileges(list string, valid []string) error {
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		word := item
		if len(word) > len(" with grant option") && strings.EqualFold(word[len(word)-len(" with grant option"):], " with grant option") {
			word = strings.TrimSpace(word[:len(word)-len(" with grant option")])
		}
		ok := false
		for _, p := range valid {
			ok = ok || strings.EqualFold(word, p)
		}
		if !ok {
			return invalidParameter("unrecognized privilege type: \"%s\"", item)
		}
	}
	return nil
}

func findTable(snap *syscat.Snapshot, _ privScope, v any, byName bool) (bool, error) {
	r, err := regclassValue(snap, v, byName)
	if err != nil {
		return false, err
	}
	if r == nil && !byName {
		oid, _ := oidValue(v)
		return regtype.RelationOfIndex(snap, oid) != nil, nil
	}
	return r != nil, nil
}

// findSequence: icegate has no sequences, so any relation found is the
// wrong kind.
func findSequence(snap *syscat.Snapshot, _ privScope, v any, byName bool) (bool, error) {
	r, err := regclassValue(snap, v, byName)
	if err != nil || r == nil {
		return false, err
	}
	name := r.Name
	if byName {
		name = bind.TextValue(v)
	}
	return false, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", name)
}

func findSchema(snap *syscat.Snapshot, _ privScope, v any, byName bool) (bool, error) {
	if byName {
		name := bind.TextValue(v)
		if snap.Namespace(name) == nil {
			return false, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", name)
		}
		return true, nil
	}
	oid, err := oidValue(v)
	if err != nil {
		return false, err
	}
	return snap.NamespaceByOID(oid) != nil, nil
}

func findDatabase(_ *syscat.Snapshot, sc privScope, v any, byName bool) (bool, error) {
	if byName {
		name := bind.TextValue(v)
		if name != sc.db {
			return false, pgerr.New(pgerr.InvalidCatalogName, "database \"%s\" does not exist", name)
		}
		return true, nil
	}
	oid, err := oidValue(v)
	if err != nil {
		return false, err
	}
	return oid == syscat.DatabaseOID, nil
}

// findFunction accepts a function signature ("lower(text)") whose name
// icegate or PostgreSQL's built-in catalog knows, or the OID of a
// built-in function.
func findFunction(_ *syscat.Snapshot, sc privScope, v any, byName bool) (bool, error) {
	if !byName {
		oid, err := oidValue(v)
		if err != nil {
			return false, err
		}
		return syscat.ProcByOID(oid) != nil, nil
	}
	sig := strings.TrimSpace(bind.TextValue(v))
	open := strings.IndexByte(sig, '(')
	if open < 0 || !strings.HasSuffix(sig, ")") {
		return false, pgerr.New(pgerr.InvalidTextRepresentation, "expected a left parenthesis")
	}
	parts, err := ParseIdent(sig[:open], true)
	if err != nil || len(parts) > 2 || len(parts) == 2 && parts[0] != "pg_catalog" || !knownFunction(sc.funcs, parts[len(parts)-1]) {
		return false, pgerr.New(pgerr.UndefinedFunction, "function \"%s\" does not exist", sig)
	}
	return true, nil
}

// knownFunction reports whether icegate has a function called name.
func knownFunction(funcs bind.SysFuncs, name string) bool {
	if _, ok := funcs[name]; ok || len(syscat.ProcsByName(name)) > 0 {
		return true
	}
	if bind.AggregateNames[name] || bind.SetReturningFuncs[name] {
		return true
	}
	for _, f := range expr.FunctionNames() {
		if f == name {
			return true
		}
	}
	// The families beyond the core: known when some common argument list
	// resolves.
	for _, args := range [][]arrow.DataType{nil, {expr.Text}, {expr.Int4}, {expr.Float8}, {expr.Text, expr.Text},
		{expr.Text, expr.Int4}, {expr.Timestamptz}, {arrow.ListOf(expr.Int4)}} {
		if _, err := expr.Resolve(name, args); err == nil {
			return true
		}
	}
	return false
}

// roleArg is the role a has_*_privilege call names: by name (42704 when
// none) or OID (ok false: NULL). Without a roles store any name is taken.
func roleArg(snap *syscat.Snapshot, v any, byName bool) (string, bool, error) {
	if byName {
		name := bind.TextValue(v)
		if snap.Access != nil && !strings.EqualFold(name, "public") && snap.Access.RoleByName(name) == nil {
			return "", false, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
		}
		return name, true, nil
	}
	oid, err := oidValue(v)
	if err != nil {
		return "", false, err
	}
	if snap.Access == nil {
		return snap.User, true, nil
	}
	r := snap.Access.RoleByOID(oid)
	if r == nil {
		return "", false, nil
	}
	return r.Name, true, nil
}

// accessHas answers has_table_privilege, has_schema_privilege and
// has_database_privilege (of the session's database) from the roles store: true when role holds any privilege of the list. The
// other functions, and a server without a store, answer true.
func accessHas(snap *syscat.Snapshot, fn, role string, obj any, byName bool, list string) bool {
	a := snap.Access
	if a == nil {
		return true
	}
	var has func(priv string) bool
	switch fn {
	case "has_table_privilege", "has_any_column_privilege":
		r, err := regclassValue(snap, obj, byName)
		if err != nil || r == nil || r.System || a.HasTable == nil {
			return true
		}
		has = func(p string) bool { return a.HasTable(role, r, p) }
		if fn == "has_any_column_privilege" && a.HasAnyColumn != nil {
			has = func(p string) bool { return a.HasAnyColumn(role, r, p) }
		}
	case "has_schema_privilege":
		var ns *syscat.Namespace
		if byName {
			ns = snap.Namespace(bind.TextValue(obj))
		} else if oid, err := oidValue(obj); err == nil {
			ns = snap.NamespaceByOID(oid)
		}
		if ns == nil || ns.System || a.HasSchema == nil {
			return true
		}
		has = func(p string) bool { return a.HasSchema(role, ns.Name, p) }
	case "has_database_privilege":
		if a.HasDatabase == nil {
			return true
		}
		has = func(p string) bool { return a.HasDatabase(role, p) }
	default:
		return true
	}
	for _, item := range strings.Split(list, ",") {
		word := strings.TrimSpace(item)
		if i := strings.Index(strings.ToLower(word), " with grant option"); i >= 0 {
			word = strings.TrimSpace(word[:i])
		}
		if has(strings.ToUpper(word)) {
			return true
		}
	}
	return false
}

// bindHasRole binds pg_has_role([user,] role, mode): MEMBER (or SET)
// asks for membership, USAGE for the role's privileges (inherited
// membership). Without a roles store a role has only itself and is a
// superuser, so the answer is true.
func bindHasRole(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 2, 3); err != nil {
		return bind.Bound{}, err
	}
	var args []expr.Expr
	for i := range c.Args[:len(c.Args)-1] {
		if isTextArg(c.Args[i]) {
			args = append(args, b.SysArg(c, i, plan.TText))
		} else {
			args = append(args, b.SysArg(c, i, tOIDArg))
		}
	}
	args = append(args, b.SysArg(c, len(c.Args)-1, plan.TText))
	current := b.Env().CurrentUser()
	return b.SysCall(c, plan.TBool, args, bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		user := current
		roleAt := 0
		if len(v) == 3 {
			u, ok, err := roleArg(snap, v[0], isTextArg(c.Args[0]))
			if err != nil || !ok {
				return nil, err
			}
			user, roleAt = u, 1
		}
		role, ok, err := roleArg(snap, v[roleAt], isTextArg(c.Args[roleAt]))
		if err != nil || !ok {
			return nil, err
		}
		mode := strings.TrimSpace(bind.TextValue(v[len(v)-1]))
		for _, m := range strings.Split(mode, ",") {
			m = strings.TrimSpace(m)
			if i := strings.Index(strings.ToLower(m), " with"); i >= 0 {
				m = strings.TrimSpace(m[:i])
			}
			switch strings.ToUpper(m) {
			case "MEMBER", "USAGE", "SET":
			default:
				return nil, invalidParameter("unrecognized privilege type: \"%s\"", m)
			}
		}
		if snap.Access == nil || snap.Access.HasRole == nil {
			return true, nil
		}
		for _, m := range strings.Split(mode, ",") {
			if snap.Access.HasRole(user, role, strings.Fields(strings.TrimSpace(m))[0]) {
				return true, nil
			}
		}
		return false, nil
	})
}
