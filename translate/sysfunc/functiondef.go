package sysfunc

import (
	"context"
	"maps"
	"strconv"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// pg_get_functiondef(oid) and pg_get_function_sqlbody(oid), as psql's \sf
// and \df+ call them, over syscat's built-in functions (icegate has no
// user-defined ones): the CREATE OR REPLACE FUNCTION statement PostgreSQL
// prints, and NULL for the body, since no built-in function has a
// SQL-standard body. Both are NULL for an OID that names no function.

func addFunctionDefFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"pg_get_functiondef":      {Bind: bindFunctionDef},
		"pg_get_function_sqlbody": {Bind: bindFunctionSQLBody},
	})
}

func bindFunctionDef(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TText, b.SysArgs(c, tOIDArg), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		oid, err := oidValue(v[0])
		if err != nil {
			return nil, err
		}
		p := syscat.ProcByOID(oid)
		if p == nil {
			return nil, nil
		}
		return functionDef(p)
	})
}

func bindFunctionSQLBody(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TText, b.SysArgs(c, tOIDArg), bind.SysCallOpts{}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		return nil, nil
	})
}

// The languages of the built-in functions (pg_language).
const (
	langInternal = 12
	langC        = 13
	langSQL      = 14
)

// functionDef is pg_get_functiondef of a built-in function.
func functionDef(p *syscat.ProcInfo) (string, error) {
	if p.Kind == 'a' {
		return "", pgerr.New(pgerr.WrongObjectType, "\"%s\" is an aggregate function", p.Name)
	}
	args, err := functionArguments(p, false)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	kind := "FUNCTION"
	if p.Kind == 'p' {
		kind = "PROCEDURE"
	}
	ns := "pg_catalog"
	if p.Namespace == syscat.InformationSchemaOID {
		ns = "information_schema"
	}
	sb.WriteString("CREATE OR REPLACE " + kind + " " + syscat.QuoteIdent(ns) + "." + syscat.QuoteIdent(p.Name) + "(" + args + ")\n")
	if p.Kind != 'p' {
		res, err := functionResult(p)
		if err != nil {
			return "", err
		}
		sb.WriteString(" RETURNS " + res + "\n")
	}
	lang := map[uint32]string{langInternal: "internal", langC: "c", langSQL: "sql"}[p.Lang]
	sb.WriteString(" LANGUAGE " + lang + "\n")
	var opts strings.Builder
	if p.Kind == 'w' {
		opts.WriteString(" WINDOW")
	}
	switch p.Volatile {
	case 'i':
		opts.WriteString(" IMMUTABLE")
	case 's':
		opts.WriteString(" STABLE")
	}
	switch p.Parallel {
	case 's':
		opts.WriteString(" PARALLEL SAFE")
	case 'r':
		opts.WriteString(" PARALLEL RESTRICTED")
	}
	if p.Strict {
		opts.WriteString(" STRICT")
	}
	if p.SecDef {
		opts.WriteString(" SECURITY DEFINER")
	}
	if p.LeakProof {
		opts.WriteString(" LEAKPROOF")
	}
	defaultCost := float32(100)
	if p.Lang == langInternal || p.Lang == langC {
		defaultCost = 1
	}
	if p.Cost != defaultCost {
		opts.WriteString(" COST " + strconv.FormatFloat(float64(p.Cost), 'g', -1, 32))
	}
	if p.RetSet && p.Rows > 0 && p.Rows != 1000 {
		opts.WriteString(" ROWS " + strconv.FormatFloat(float64(p.Rows), 'g', -1, 32))
	}
	if p.Support != 0 {
		if s := syscat.ProcByOID(p.Support); s != nil {
			opts.WriteString(" SUPPORT " + syscat.QuoteIdent(s.Name))
		}
	}
	if opts.Len() > 0 {
		sb.WriteString(opts.String() + "\n")
	}
	if p.Lang == langC {
		sb.WriteString("AS '" + p.Bin + "', '" + p.Src + "'\n")
		return sb.String(), nil
	}
	tag := "$function$"
	for strings.Contains(p.Src, tag) {
		tag = "$" + tag[1:len(tag)-1] + "x$"
	}
	sb.WriteString("AS " + tag + p.Src + tag + "\n")
	return sb.String(), nil
}
