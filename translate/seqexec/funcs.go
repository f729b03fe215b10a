package seqexec

import (
	"context"
	"crypto/rand"
	"maps"
	"strings"
	"sync"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/regtype"
	"github.com/icegate/icegate/translate/sequence"
	"github.com/icegate/icegate/translate/sysfunc"
)

// The sequence functions: nextval, currval, setval, lastval and
// pg_get_serial_sequence. They need the session (its Env), so they are
// defined here and added to the system functions of package sysfunc.

// WithFuncs adds the sequence functions to m.
func WithFuncs(m bind.SysFuncs) bind.SysFuncs {
	maps.Copy(m, bind.SysFuncs{
		"nextval":                {Bind: bindNextval},
		"currval":                {Bind: bindCurrval},
		"setval":                 {Bind: bindSetval},
		"lastval":                {Bind: bindLastval},
		"pg_get_serial_sequence": {Bind: bindSerialSequence},
		"gen_random_uuid":        {Bind: bindGenRandomUUID},
	})
	return m
}

// seqCallSession is the session a sequence function runs in.
func seqCallSession(b *bind.Binder, c *bind.SysCallSite) (Exec, error) {
	env, ok := b.Env().(Env)
	if !ok {
		return Exec{}, b.ErrAt(pgerr.Unsupported("%s outside a session", c.Name), c.Loc())
	}
	return Exec{env}, nil
}

// seqArg binds a sequence argument: a regclass (or oid) names it by OID,
// anything else as text, resolved through search_path. The returned
// function finds the sequence table of a row's value, remembering the
// names it resolved for the statement.
func seqArg(b *bind.Binder, c *bind.SysCallSite, s Exec) (expr.Expr, func(ctx context.Context, v any) (*catalog.Table, error)) {
	byOID := c.Args[0].T.OID == pgtypes.Regclass || c.Args[0].T.OID == pgtypes.OID
	var arg expr.Expr
	if byOID {
		arg = b.SysArg(c, 0, plan.Type{OID: pgtypes.OID, Typmod: -1})
	} else {
		arg = b.SysArg(c, 0, plan.TText)
	}
	var mu sync.Mutex
	memo := map[any]*catalog.Table{}
	return arg, func(ctx context.Context, v any) (*catalog.Table, error) {
		mu.Lock()
		defer mu.Unlock()
		if t := memo[v]; t != nil {
			return t, nil
		}
		var t *catalog.Table
		var err error
		if byOID {
			t, err = s.sequenceByOID(ctx, v)
		} else {
			t, err = s.ByName(ctx, bind.TextValue(v))
		}
		if err != nil {
			return nil, err
		}
		memo[v] = t
		return t, nil
	}
}

// ByName resolves a sequence's name as text ("s", "public.s").
func (s Exec) ByName(ctx context.Context, name string) (*catalog.Table, error) {
	parts, err := sysfunc.ParseIdent(name, false)
	if err != nil {
		return nil, err
	}
	tn := parse.TableName{Name: parts[len(parts)-1], Written: name}
	switch len(parts) {
	case 1:
	case 2:
		tn.Schema = parts[0]
	case 3:
		tn.Catalog, tn.Schema = parts[0], parts[1]
	default:
		return nil, pgerr.New(pgerr.SyntaxError, "improper relation name (too many dotted names): %s", name)
	}
	tn.Written = strings.Join(parts, ".")
	t, err := s.LookupTable(ctx, tn)
	if err != nil {
		return nil, err
	}
	if !sequence.Is(t) {
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", t.Ident.Name)
	}
	return t, nil
}

// sequenceByOID resolves a sequence's regclass.
func (s Exec) sequenceByOID(ctx context.Context, v any) (*catalog.Table, error) {
	oid, _ := v.(int64)
	snap, err := s.SysSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	r := snap.RelationByOID(uint32(oid))
	if r == nil || r.System {
		return nil, pgerr.New(pgerr.UndefinedTable, "could not open relation with OID %d", oid)
	}
	if r.Kind != 'S' {
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", r.Name)
	}
	return s.ByName(ctx, syscat.QuoteIdent(r.Namespace)+"."+syscat.QuoteIdent(r.Name))
}

var tInt8 = plan.Type{OID: pgtypes.Int8, Typmod: -1}

// bindNextval is nextval(regclass): per row, so a default of many rows
// takes a value for each.
func bindNextval(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	s, err := seqCallSession(b, c)
	if err != nil {
		return bind.Bound{}, err
	}
	arg, resolve := seqArg(b, c, s)
	return b.SysCall(c, tInt8, []expr.Expr{arg}, bind.SysCallOpts{Volatile: true}, func(ctx context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		t, err := resolve(ctx, v[0])
		if err != nil {
			return nil, err
		}
		return s.nextval(ctx, t, int64(expr.RowsLeft(ctx)))
	})
}

// bindCurrval is currval(regclass).
func bindCurrval(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	s, err := seqCallSession(b, c)
	if err != nil {
		return bind.Bound{}, err
	}
	arg, resolve := seqArg(b, c, s)
	return b.SysCall(c, tInt8, []expr.Expr{arg}, bind.SysCallOpts{Volatile: true}, func(ctx context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		t, err := resolve(ctx, v[0])
		if err != nil {
			return nil, err
		}
		return s.currval(t)
	})
}

// bindLastval is lastval().
func bindLastval(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 0); err != nil {
		return bind.Bound{}, err
	}
	s, err := seqCallSession(b, c)
	if err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, tInt8, nil, bind.SysCallOpts{Volatile: true}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		return s.lastval()
	})
}

// bindSetval is setval(regclass, bigint [, is_called boolean]).
func bindSetval(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 2, 3); err != nil {
		return bind.Bound{}, err
	}
	s, err := seqCallSession(b, c)
	if err != nil {
		return bind.Bound{}, err
	}
	arg, resolve := seqArg(b, c, s)
	args := []expr.Expr{arg, b.SysArg(c, 1, tInt8)}
	if len(c.Args) == 3 {
		args = append(args, b.SysArg(c, 2, plan.TBool))
	}
	return b.SysCall(c, tInt8, args, bind.SysCallOpts{Volatile: true}, func(ctx context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		t, err := resolve(ctx, v[0])
		if err != nil {
			return nil, err
		}
		n, _ := v[1].(int64)
		called := true
		if len(v) == 3 {
			called, _ = v[2].(bool)
		}
		if err := s.setval(ctx, t, n, called); err != nil {
			return nil, err
		}
		return n, nil
	})
}

// bindSerialSequence is pg_get_serial_sequence(table text, column text):
// the qualified name of the sequence a serial or identity column takes its
// values from, NULL for other columns.
func bindSerialSequence(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 2); err != nil {
		return bind.Bound{}, err
	}
	s, err := seqCallSession(b, c)
	if err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TText, b.SysArgs(c, plan.TText, plan.TText), bind.SysCallOpts{Volatile: true, Snapshot: true}, func(ctx context.Context, snap *syscat.Snapshot, v []any) (any, error) {
		name := bind.TextValue(v[0])
		parts, err := sysfunc.ParseIdent(name, false)
		if err != nil {
			return nil, err
		}
		tn := parse.TableName{Name: parts[len(parts)-1], Written: strings.Join(parts, ".")}
		if len(parts) > 1 {
			tn.Schema = parts[len(parts)-2]
		}
		col := bind.TextValue(v[1])
		if p, err := sysfunc.ParseIdent(col, true); err == nil && len(p) == 1 {
			col = p[0]
		}
		t, err := s.LookupTable(ctx, tn)
		if pgerr.Code(err) == pgerr.UndefinedTable {
			// Another kind of relation (a view): its columns have no
			// sequence, as in PostgreSQL.
			return otherRelationSequence(snap, name, col, err)
		}
		if err != nil {
			return nil, err
		}
		for _, f := range t.Metadata.CurrentSchema().Fields {
			if f.Name != col {
				continue
			}
			seq, ok := DefaultSequence(t.Metadata.Properties, f.ID)
			if !ok {
				return nil, nil
			}
			sp, err := sysfunc.ParseIdent(seq, false)
			if err != nil {
				return nil, nil
			}
			if len(sp) == 1 {
				sp = []string{strings.Join(t.Ident.Namespace, "."), sp[0]}
			}
			return syscat.QuoteIdent(sp[len(sp)-2]) + "." + syscat.QuoteIdent(sp[len(sp)-1]), nil
		}
		return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", col, t.Ident.Name)
	})
}

// otherRelationSequence is pg_get_serial_sequence of a relation that is
// not a table: NULL for its columns, 42703 for a column it lacks, and
// notFound when no relation has that name either.
func otherRelationSequence(snap *syscat.Snapshot, name, col string, notFound error) (any, error) {
	oid, err := regtype.In(snap, pgtypes.Regclass, name)
	if err != nil {
		return nil, notFound
	}
	r := snap.RelationByOID(oid)
	if r == nil {
		return nil, notFound
	}
	for _, a := range r.Columns {
		if a.Name == col {
			return nil, nil
		}
	}
	return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", col, r.Name)
}

// bindGenRandomUUID is gen_random_uuid(): a version 4 UUID per row.
func bindGenRandomUUID(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 0); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TUUID, nil, bind.SysCallOpts{Volatile: true}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		var u [16]byte
		if _, err := rand.Read(u[:]); err != nil {
			return nil, pgerr.Wrap(err, pgerr.InternalError, "could not generate random values: %v", err)
		}
		u[6] = u[6]&0x0f | 0x40
		u[8] = u[8]&0x3f | 0x80
		return u, nil
	})
}

// DefaultSequence is the sequence name (as written in the default) a
// column's default takes nextval of.
func DefaultSequence(props map[string]string, id int) (string, bool) {
	text := bind.DefaultText(props, id)
	rest, ok := strings.CutPrefix(text, "nextval('")
	if !ok {
		return "", false
	}
	name, _, ok := strings.Cut(rest, "'::regclass)")
	if !ok {
		return "", false
	}
	return strings.ReplaceAll(name, "''", "'"), true
}
