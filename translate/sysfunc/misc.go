package sysfunc

import (
	"context"
	"maps"
	"strconv"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/regtype"
)

// Catalog functions about names, visibility, owners, comments and the
// server: current_schemas, pg_get_userbyid, pg_*_is_visible,
// obj_description / col_description / shobj_description,
// pg_tablespace_location, pg_is_in_recovery, txid_current,
// inet_server_addr...

func addMiscFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"current_schemas":            {Bind: bindCurrentSchemas},
		"pg_get_userbyid":            {Bind: bindGetUserByID},
		"pg_table_is_visible":        {Bind: bindTableIsVisible},
		"pg_type_is_visible":         {Bind: bindTypeIsVisible},
		"pg_function_is_visible":     {Bind: bindFunctionIsVisible},
		"obj_description":            {Bind: bindObjDescription},
		"col_description":            {Bind: bindColDescription},
		"shobj_description":          {Bind: bindShobjDescription},
		"pg_tablespace_location":     {Bind: bindTablespaceLocation},
		"pg_is_in_recovery":          {Bind: bindIsInRecovery},
		"txid_current":               {Bind: bindTxidCurrent},
		"pg_current_xact_id":         {Bind: bindTxidCurrent},
		"inet_server_addr":           {Bind: bindInetAddr},
		"inet_client_addr":           {Bind: bindInetAddr},
		"pg_relation_is_publishable": {Bind: bindRelationIsPublishable},
		"pg_opclass_is_visible":      {Bind: bindBuiltinIsVisible},
		"pg_opfamily_is_visible":     {Bind: bindBuiltinIsVisible},
		"pg_operator_is_visible":     {Bind: bindBuiltinIsVisible},
		"pg_collation_is_visible":    {Bind: bindBuiltinIsVisible},
		"pg_conversion_is_visible":   {Bind: bindBuiltinIsVisible},
		"pg_stat_get_numscans":       {Bind: bindStatCounter},
	})
}

var tNameArray = plan.Type{OID: pgtypes.NameArray, Typmod: -1}

// bindCurrentSchemas is current_schemas(include_implicit bool): the
// schemas of the search path that exist, pg_catalog first when implicit
// ones are included.
func bindCurrentSchemas(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, tNameArray, b.SysArgs(c, plan.TBool), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		path := snap.EffectiveSearchPath(boolValue(v[0]))
		out := make([]any, len(path))
		for i, p := range path {
			out[i] = p
		}
		return out, nil
	})
}

// bindGetUserByID is pg_get_userbyid(role oid): every object icegate lists
// is owned by the bootstrap role (OID 10), which is named after the
// session's user, except the public schema, pg_database_owner's (as in
// PostgreSQL 15); another OID is "unknown (OID=n)".
func bindGetUserByID(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	user := b.Env().CurrentUser()
	return b.SysCall(c, tNameArg, b.SysArgs(c, tOIDArg), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		if name, ok := syscat.RoleName(oid, user); ok {
			return name, nil
		}
		return "unknown (OID=" + strconv.FormatUint(uint64(oid), 10) + ")", nil
	})
}

// bindTableIsVisible is pg_table_is_visible(relation oid): whether the
// search path finds the relation by its unqualified name; NULL for an
// OID that names no relation.
func bindTableIsVisible(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TBool, b.SysArgs(c, tOIDArg), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		if r := snap.RelationByOID(oid); r != nil {
			return snap.Visible(r), nil
		}
		if r, ix := snap.IndexByOID(oid); r != nil {
			// The index lives in its table's schema under its own name.
			return regtype.VisibleAs(snap, r.Namespace, ix.Name), nil
		}
		return nil, nil
	})
}

// bindTypeIsVisible is pg_type_is_visible(type oid): the built-in types
// live in pg_catalog, always searched; an enum type when its schema is on
// the search path first; NULL for an unknown OID.
func bindTypeIsVisible(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TBool, b.SysArgs(c, tOIDArg), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		if _, _, _, ok := typeFacts(oid); ok && oid != 0 {
			return true, nil
		}
		if e := snap.EnumByOID(oid); e != nil {
			// Visible when no type of its name comes earlier on the
			// search path.
			for _, ns := range snap.SearchPath {
				if ns == e.Namespace {
					return true, nil
				}
				for _, o := range snap.Enums {
					if o.Namespace == ns && o.Name == e.Name {
						return false, nil
					}
				}
			}
			return false, nil
		}
		return nil, nil
	})
}

// bindFunctionIsVisible is pg_function_is_visible(function oid): every
// function icegate has is a built-in one of pg_catalog, always searched;
// NULL for an OID that names no function.
func bindFunctionIsVisible(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TBool, b.SysArgs(c, tOIDArg), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		if syscat.ProcByOID(oid) != nil {
			return true, nil
		}
		return nil, nil
	})
}

// bindObjDescription is obj_description(oid [, catalog name]): the comment
// of a table or view (pg_class) or schema (pg_namespace); without the
// catalog, of whichever has the OID. NULL when there is none.
func bindObjDescription(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1, 2); err != nil {
		return bind.Bound{}, err
	}
	ts := []plan.Type{tOIDArg, tNameArg}[:len(c.Args)]
	return b.SysCall(c, plan.TText, b.SysArgs(c, ts...), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		cat := ""
		if len(v) == 2 {
			cat = bind.TextValue(v[1])
		}
		comment := ""
		if r := snap.RelationByOID(oid); r != nil && (cat == "" || cat == "pg_class") {
			comment = r.Comment
		} else if n := snap.NamespaceByOID(oid); n != nil && (cat == "" || cat == "pg_namespace") {
			comment = n.Comment
		}
		if comment == "" {
			return nil, nil
		}
		return comment, nil
	})
}

// bindColDescription is col_description(table oid, column int4): the
// column's comment, NULL when it has none.
func bindColDescription(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 2); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TText, b.SysArgs(c, tOIDArg, plan.TInt4), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		n, _ := bind.ToInt64(v[1])
		r := snap.RelationByOID(oid)
		if r == nil || n < 1 || int(n) > len(r.Columns) || r.Columns[n-1].Comment == "" {
			return nil, nil
		}
		return r.Columns[n-1].Comment, nil
	})
}

// bindShobjDescription is shobj_description(oid, catalog name): shared
// objects (the database, roles) carry no comments in icegate: NULL.
func bindShobjDescription(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 2); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TText, b.SysArgs(c, tOIDArg, tNameArg), bind.SysCallOpts{}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		return nil, nil
	})
}

// bindTablespaceLocation is pg_tablespace_location(tablespace oid): the
// default tablespaces have no location of their own: "".
func bindTablespaceLocation(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TText, b.SysArgs(c, tOIDArg), bind.SysCallOpts{}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		return "", nil
	})
}

// bindIsInRecovery is pg_is_in_recovery(): icegate is never a standby.
func bindIsInRecovery(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 0); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TBool, nil, bind.SysCallOpts{}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		return false, nil
	})
}

// bindTxidCurrent is txid_current() / pg_current_xact_id(): icegate has no
// transaction ids; each execution of a statement gets the next number of
// the session, so a statement sees one id and later statements higher
// ones. (pg_current_xact_id's type, xid8, is served as bigint.)
func bindTxidCurrent(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 0); err != nil {
		return bind.Bound{}, err
	}
	s := b.Env()
	return b.SysCall(c, plan.TInt8, nil, bind.SysCallOpts{Volatile: true}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		return s.Txid(), nil
	})
}

// bindInetAddr is inet_server_addr() / inet_client_addr(): the session
// does not know the connection's addresses, so NULL, as PostgreSQL answers
// on a Unix-domain socket.
func bindInetAddr(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 0); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.Type{OID: pgtypes.Inet, Typmod: -1}, nil, bind.SysCallOpts{}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		return nil, nil
	})
}

// bindRelationIsPublishable is pg_relation_is_publishable(regclass): true
// for the warehouse's tables, false for views and the system catalog, NULL
// for an OID that names nothing.
func bindRelationIsPublishable(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	arg, byName := regclassArg(b, c, 0)
	return b.SysCall(c, plan.TBool, []expr.Expr{arg}, bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		r, err := regclassValue(snap, v[0], byName)
		if r == nil || err != nil {
			return nil, err
		}
		return r.Kind == 'r' && !r.System, nil
	})
}

// regclassArg binds a regclass argument: a string (a literal such as
// 'ns.t') is kept as a name, resolved when the call runs; anything else is
// an OID.
func regclassArg(b *bind.Binder, c *bind.SysCallSite, i int) (e expr.Expr, byName bool) {
	if isTextArg(c.Args[i]) {
		return b.SysArg(c, i, plan.TText), true
	}
	return b.SysArg(c, i, tOIDArg), false
}

// regclassValue finds the relation of a regclass argument value: by name
// (42P01 when missing) or by OID (nil when missing).
func regclassValue(snap *syscat.Snapshot, v any, byName bool) (*syscat.Relation, error) {
	if byName {
		return relationByText(snap, bind.TextValue(v))
	}
	oid, err := oidValue(v)
	if err != nil {
		return nil, err
	}
	return snap.RelationByOID(oid), nil
}

// bindBuiltinIsVisible is pg_opclass_is_visible, pg_opfamily_is_visible,
// pg_operator_is_visible, pg_collation_is_visible and
// pg_conversion_is_visible(oid): icegate's operator classes, families,
// operators, collations and conversions are PostgreSQL's built-in ones of
// pg_catalog (OIDs below FirstNormalObjectId), always searched, so true;
// NULL for a user OID. (A low OID that names no object also gives true.)
func bindBuiltinIsVisible(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TBool, b.SysArgs(c, tOIDArg), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		if oid != 0 && oid < syscat.FirstUserOID {
			return true, nil
		}
		return nil, nil
	})
}

// bindStatCounter is pg_stat_get_numscans(oid): icegate keeps no access
// statistics, so 0, as PostgreSQL reports for a relation never scanned.
func bindStatCounter(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TInt8, b.SysArgs(c, tOIDArg), bind.SysCallOpts{}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		return int64(0), nil
	})
}
