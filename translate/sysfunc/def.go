package sysfunc

import (
	"context"
	"maps"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// The pg_get_*def functions: an object's definition as SQL text, from the
// catalog snapshot. icegate's objects are Iceberg tables and views, the
// primary key that stands for a table's identifier fields (its index and
// constraint), and column defaults; an OID that names nothing gives NULL,
// as in PostgreSQL.

func addDefFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"pg_get_expr":                     {Bind: bindGetExpr},
		"pg_get_indexdef":                 {Bind: bindGetIndexdef},
		"pg_get_constraintdef":            {Bind: bindGetConstraintdef},
		"pg_get_viewdef":                  {Bind: bindGetViewdef},
		"pg_get_partkeydef":               {Bind: bindGetPartkeydef},
		"pg_get_statisticsobjdef_columns": {Bind: bindNullOfOID},
		"pg_get_ruledef":                  {Bind: bindNullOfOID},
		"pg_get_triggerdef":               {Bind: bindNullOfOID},
		"pg_get_serial_sequence":          {Bind: bindGetSerialSequence},
	})
}

// bindGetExpr is pg_get_expr(pg_node_tree, relation oid [, pretty bool]):
// icegate's expression columns (adbin, relpartbound...) hold the SQL text
// already, so it is the text itself.
func bindGetExpr(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 2, 3); err != nil {
		return bind.Bound{}, err
	}
	ts := []plan.Type{plan.TText, tOIDArg, plan.TBool}[:len(c.Args)]
	return b.SysCall(c, plan.TText, b.SysArgs(c, ts...), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		return bind.TextValue(v[0]), nil
	})
}

// relationOfConstraint finds the table whose primary-key constraint has
// OID oid.
func relationOfConstraint(snap *syscat.Snapshot, oid uint32) *syscat.Relation {
	for _, r := range snap.Relations {
		if len(r.PrimaryKey) > 0 && syscat.PrimaryKeyConstraintOID(r) == oid {
			return r
		}
	}
	return nil
}

// keyColumns is the primary key's column list: "id, b".
func keyColumns(r *syscat.Relation) string {
	names := make([]string, 0, len(r.PrimaryKey))
	for _, n := range r.PrimaryKey {
		if int(n) >= 1 && int(n) <= len(r.Columns) {
			names = append(names, syscat.QuoteIdent(r.Columns[n-1].Name))
		}
	}
	return strings.Join(names, ", ")
}

// relationName is a relation's name as the definitions print it: always
// qualified, or (pretty) only when the search path does not find it.
func relationName(snap *syscat.Snapshot, r *syscat.Relation, pretty bool) string {
	if pretty && snap.Visible(r) {
		return syscat.QuoteIdent(r.Name)
	}
	return syscat.QuoteIdent(r.Namespace) + "." + syscat.QuoteIdent(r.Name)
}

// bindGetIndexdef is pg_get_indexdef(index oid [, column int4, pretty
// bool]): "CREATE UNIQUE INDEX t_pkey ON ns.t USING btree (id)" (or a
// kept index's definition), or with a column number above 0 that key
// column's name.
func bindGetIndexdef(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1, 3); err != nil {
		return bind.Bound{}, err
	}
	ts := []plan.Type{tOIDArg, plan.TInt4, plan.TBool}[:len(c.Args)]
	return b.SysCall(c, plan.TText, b.SysArgs(c, ts...), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		r, ix := snap.IndexByOID(oid)
		if r == nil {
			return nil, nil
		}
		col, pretty := int64(0), false
		if len(v) == 3 {
			col, _ = bind.ToInt64(v[1])
			pretty = boolValue(v[2])
		}
		if col > 0 {
			if int(col) > len(ix.Columns) {
				return "", nil
			}
			return syscat.QuoteIdent(r.Columns[ix.Columns[col-1]-1].Name), nil
		}
		return syscat.IndexDefOf(r, *ix, relationName(snap, r, pretty)), nil
	})
}

// bindGetConstraintdef is pg_get_constraintdef(constraint oid [, pretty
// bool]): "PRIMARY KEY (id)".
func bindGetConstraintdef(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1, 2); err != nil {
		return bind.Bound{}, err
	}
	ts := []plan.Type{tOIDArg, plan.TBool}[:len(c.Args)]
	return b.SysCall(c, plan.TText, b.SysArgs(c, ts...), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		r := relationOfConstraint(snap, oid)
		if r == nil {
			return nil, nil
		}
		return "PRIMARY KEY (" + keyColumns(r) + ")", nil
	})
}

// bindGetViewdef is pg_get_viewdef(view oid | name text [, pretty bool |
// wrap int4]): the view's stored query, as PostgreSQL frames it (a leading
// space, a closing semicolon). icegate prints the text the view was
// created with rather than a deparsed query. NULL for a relation that is
// not a view; a name that does not exist is 42P01.
func bindGetViewdef(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1, 2); err != nil {
		return bind.Bound{}, err
	}
	byName := isTextArg(c.Args[0])
	ts := []plan.Type{tOIDArg}
	if byName {
		ts[0] = plan.TText
	}
	if len(c.Args) == 2 {
		if c.Args[1].T.OID == pgtypes.Int4 || c.Args[1].T.OID == pgtypes.Int2 || c.Args[1].T.OID == pgtypes.Int8 {
			ts = append(ts, plan.TInt4)
		} else {
			ts = append(ts, plan.TBool)
		}
	}
	return b.SysCall(c, plan.TText, b.SysArgs(c, ts...), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		var r *syscat.Relation
		if byName {
			var err error
			if r, err = relationByText(snap, bind.TextValue(v[0])); err != nil {
				return nil, err
			}
		} else {
			oid, err := oidValue(v[0])
			if err != nil {
				return nil, err
			}
			r = snap.RelationByOID(oid)
		}
		if r == nil || r.Kind != 'v' {
			return nil, nil
		}
		return viewDefinition(r.ViewDef), nil
	})
}

// viewDefinition frames a view's query text as pg_get_viewdef does.
func viewDefinition(sql string) string {
	sql = strings.TrimRight(strings.TrimSpace(sql), ";")
	return " " + strings.TrimSpace(sql) + ";"
}

// bindGetPartkeydef is pg_get_partkeydef(table oid). PostgreSQL answers for
// declaratively partitioned tables ("RANGE (d)"); icegate answers for
// Iceberg tables with a partition spec, with the spec as text
// ("bucket(16, id), day(ts)"), and NULL for unpartitioned tables and
// anything else. (Iceberg tables are relkind 'r', so psql does not ask.)
func bindGetPartkeydef(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TText, b.SysArgs(c, tOIDArg), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		r := snap.RelationByOID(oid)
		if r == nil || r.PartitionKey == "" {
			return nil, nil
		}
		return r.PartitionKey, nil
	})
}

// bindNullOfOID binds the definitions of objects icegate does not have
// (extended statistics, rules, triggers): NULL for every OID, as
// PostgreSQL answers for an OID that names none.
func bindNullOfOID(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1, 2); err != nil {
		return bind.Bound{}, err
	}
	ts := []plan.Type{tOIDArg, plan.TBool}[:len(c.Args)]
	return b.SysCall(c, plan.TText, b.SysArgs(c, ts...), bind.SysCallOpts{}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		return nil, nil
	})
}

// bindGetSerialSequence is pg_get_serial_sequence(table text, column
// text): icegate has no sequences, so NULL; a table or column that does
// not exist is an error, as in PostgreSQL.
func bindGetSerialSequence(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 2); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TText, b.SysArgs(c, plan.TText, plan.TText), bind.SysCallOpts{Snapshot: true}, func(_ context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		r, err := relationByText(snap, bind.TextValue(v[0]))
		if err != nil {
			return nil, err
		}
		col := bind.TextValue(v[1])
		if parts, err := ParseIdent(col, true); err == nil && len(parts) == 1 {
			col = parts[0]
		}
		if columnIndex(r, col) < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", col, r.Name)
		}
		return nil, nil
	})
}

// columnIndex is the 0-based position of column name in r, or -1.
func columnIndex(r *syscat.Relation, name string) int {
	for i, a := range r.Columns {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// relationByText finds the relation a (possibly qualified, possibly
// quoted) name denotes, through the search path: 42P01 when there is
// none.
func relationByText(snap *syscat.Snapshot, text string) (*syscat.Relation, error) {
	parts, err := ParseIdent(text, true)
	if err != nil {
		return nil, err
	}
	notFound := pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", text)
	switch len(parts) {
	case 1:
		for _, ns := range snap.EffectiveSearchPath(true) {
			if r := snap.Relation(ns, parts[0]); r != nil {
				return r, nil
			}
		}
		return nil, notFound
	case 2:
		if r := snap.Relation(parts[0], parts[1]); r != nil {
			return r, nil
		}
		return nil, notFound
	}
	// database.schema.table, or a nested Iceberg namespace.
	if parts[0] == snap.Database {
		if r := snap.Relation(strings.Join(parts[1:len(parts)-1], "."), parts[len(parts)-1]); r != nil {
			return r, nil
		}
	}
	if r := snap.Relation(strings.Join(parts[:len(parts)-1], "."), parts[len(parts)-1]); r != nil {
		return r, nil
	}
	if parts[0] != snap.Database && len(parts) == 3 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", text)
	}
	return nil, notFound
}

// bindFunctionSignature is pg_get_function_result /
// pg_get_function_arguments / pg_get_function_identity_arguments(function
// oid), from syscat's built-in functions (icegate has no user-defined
// ones): "SETOF integer", "integer, integer", "VARIADIC \"any\"". NULL for
// an OID that names no function. Argument defaults are not printed (syscat
// does not hold their expressions).
func bindFunctionSignature(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	name := c.Name
	return b.SysCall(c, plan.TText, b.SysArgs(c, tOIDArg), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		p := syscat.ProcByOID(oid)
		if p == nil {
			return nil, nil
		}
		switch name {
		case "pg_get_function_result":
			return functionResult(p)
		case "pg_get_function_arguments":
			return functionArguments(p, false)
		}
		return functionArguments(p, true)
	})
}

// procArgs lists a function's arguments with their modes ('i' when the
// function lists none).
func procArgs(p *syscat.ProcInfo) (types []uint32, modes []string) {
	types = p.ArgTypes
	if len(p.AllArgTypes) > 0 {
		types = p.AllArgTypes
	}
	modes = make([]string, len(types))
	for i := range types {
		modes[i] = "i"
		if i < len(p.ArgModes) {
			modes[i] = p.ArgModes[i]
		}
	}
	return types, modes
}

// functionResult is pg_get_function_result: the return type, SETOF for a
// set-returning function, TABLE(...) for one with table columns.
func functionResult(p *syscat.ProcInfo) (string, error) {
	if p.Kind == 'p' {
		return "", nil
	}
	types, modes := procArgs(p)
	var cols []string
	for i, m := range modes {
		if m == "t" {
			t, err := FormatType(types[i], -1, false)
			if err != nil {
				return "", err
			}
			if i < len(p.ArgNames) && p.ArgNames[i] != "" {
				t = syscat.QuoteIdent(p.ArgNames[i]) + " " + t
			}
			cols = append(cols, t)
		}
	}
	if len(cols) > 0 {
		return "TABLE(" + strings.Join(cols, ", ") + ")", nil
	}
	t, err := FormatType(p.RetType, -1, false)
	if err != nil {
		return "", err
	}
	if p.RetSet {
		t = "SETOF " + t
	}
	return t, nil
}

// functionArguments is pg_get_function_arguments (identity false) or
// pg_get_function_identity_arguments (identity true: no OUT arguments).
func functionArguments(p *syscat.ProcInfo, identity bool) (string, error) {
	types, modes := procArgs(p)
	var out []string
	for i, m := range modes {
		prefix := ""
		switch m {
		case "t":
			continue
		case "o":
			if identity {
				continue
			}
			prefix = "OUT "
		case "b":
			prefix = "INOUT "
		case "v":
			prefix = "VARIADIC "
		}
		t, err := FormatType(types[i], -1, false)
		if err != nil {
			return "", err
		}
		if i < len(p.ArgNames) && p.ArgNames[i] != "" {
			t = syscat.QuoteIdent(p.ArgNames[i]) + " " + t
		}
		out = append(out, prefix+t)
	}
	return strings.Join(out, ", "), nil
}

func addSignatureFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"pg_get_function_result":             {Bind: bindFunctionSignature},
		"pg_get_function_arguments":          {Bind: bindFunctionSignature},
		"pg_get_function_identity_arguments": {Bind: bindFunctionSignature},
	})
}
