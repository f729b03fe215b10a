package bind

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/regtype"
)

// Casts into and out of the object identifier types (oid, regclass,
// regtype, regnamespace, regrole, regproc, xid...). Their values are
// numbers (Arrow Int64); the reg* types read and print them as object
// names. A constant name is resolved while binding, as PostgreSQL does
// while planning; a computed one by a row function over the statement's
// catalog snapshot.

// regCast converts arg to t when either is an object identifier type; ok
// is false when neither is.
func (b *Binder) regCast(arg Bound, t plan.Type, loc int32) (out Bound, ok bool, err error) {
	toOID, fromOID := pgtypes.IsOIDType(t.OID), !arg.Unknown() && pgtypes.IsOIDType(arg.T.OID)
	switch {
	case toOID:
		out, err = b.castToOIDType(arg, t, loc)
		return out, true, err
	case fromOID:
		out, err = b.castFromOIDType(arg, t, loc)
		return out, true, err
	}
	return Bound{}, false, nil
}

func (b *Binder) castToOIDType(arg Bound, t plan.Type, loc int32) (Bound, error) {
	i64 := expr.Int8
	if arg.null {
		return Bound{E: &expr.Lit{V: nil, T: i64}, T: t}, nil
	}
	if arg.lit != nil {
		pos := loc
		if arg.loc > 0 {
			pos = arg.loc
		}
		if arg.param > 0 && !b.params.Bound {
			// $n::regclass: the value comes at Execute, as text.
			b.params.setType(arg.param, pgtypes.Text)
			return b.regInCall(&expr.Lit{V: *arg.lit, T: expr.Text}, t)
		}
		return b.regInConst(*arg.lit, t, pos)
	}
	from := arg.T.OID
	switch {
	case pgtypes.IsOIDType(from):
		return Bound{E: arg.E, T: t}, nil
	case from == pgtypes.Int2 || from == pgtypes.Int4 || from == pgtypes.Int8:
		return Bound{E: regIntToOID(arg.E), T: t}, nil
	case regTextual(from) && arrow.TypeEqual(arg.E.Type(), expr.Text):
		if lit, ok := arg.E.(*expr.Lit); ok {
			if s, ok := lit.V.(string); ok {
				r, err := b.regInConst(s, t, loc)
				if err == nil || b.params.Bound || len(b.params.Types) == 0 {
					return r, err
				}
				// A placeholder at Prepare: resolve when it runs.
			}
		}
		return b.regInCall(arg.E, t)
	}
	return Bound{}, b.ErrAt(cannotCast(arg.T, t), loc)
}

func (b *Binder) castFromOIDType(arg Bound, t plan.Type, loc int32) (Bound, error) {
	from := arg.T.OID
	switch t.OID {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name:
		e, err := b.regText(arg.E, from)
		if err != nil {
			return Bound{}, err
		}
		if t.OID != pgtypes.Name {
			t = plan.Type{OID: t.OID, Typmod: -1}
		}
		return Bound{E: e, T: t}, nil
	case pgtypes.Int8:
		if from == pgtypes.XID || from == pgtypes.CID {
			break
		}
		return Bound{E: arg.E, T: t}, nil
	case pgtypes.Int4:
		if from == pgtypes.XID || from == pgtypes.CID {
			break
		}
		// The 32 bits as a signed number: 4294967295::oid::int4 is -1.
		return Bound{E: &expr.Call{Fn: "int4", Args: []expr.Expr{arg.E}, T: expr.Int4, Go: func(_ context.Context, a []any) (any, error) {
			n, ok := regtype.Int64(a[0])
			if !ok {
				return nil, nil
			}
			return int32(uint32(n)), nil
		}}, T: t}, nil
	}
	return Bound{}, b.ErrAt(cannotCast(arg.T, t), loc)
}

// regArrayCast converts arrays into and out of the reg* array types
// (proargtypes::regtype[], then ::text[], as pgcli reads pg_proc): their
// values are lists of OIDs, printed as the objects' names. ok is false when
// neither side is such an array.
func (b *Binder) regArrayCast(arg Bound, t plan.Type, loc int32) (out Bound, ok bool, err error) {
	toReg := isRegArray(t.OID)
	if arg.Unknown() {
		if toReg && !arg.null {
			return Bound{}, true, b.ErrAt(pgerr.NotYet("reading a "+pgtypes.TypeName(t.OID)+" literal"), loc)
		}
		return Bound{}, false, nil
	}
	from := arg.T.OID
	switch {
	case toReg:
		switch {
		case from == pgtypes.OIDArray || from == pgtypes.OIDVector || isRegArray(from):
		case from == pgtypes.Int2Array || from == pgtypes.Int4Array || from == pgtypes.Int8Array:
			// An integer is an OID (int4 keeps its 32 bits, as regIntToOID).
			e, err := b.regArrayIn(arg.E, from)
			return Bound{E: e, T: t}, true, err
		default:
			return Bound{}, true, b.ErrAt(cannotCast(arg.T, t), loc)
		}
		e := arg.E
		if at := plan.ArrowOf(t); !arrow.TypeEqual(e.Type(), at) {
			if !expr.CanCast(e.Type(), at) {
				return Bound{}, true, b.ErrAt(cannotCast(arg.T, t), loc)
			}
			e = &expr.Cast{Arg: e, T: at}
		}
		return Bound{E: e, T: t}, true, nil
	case isRegArray(from):
		switch t.OID {
		case pgtypes.TextArray:
			e, err := b.regArrayText(arg.E, pgtypes.ElemOf(from))
			return Bound{E: e, T: t}, true, err
		case pgtypes.Text, pgtypes.Varchar:
			// The array's text, of the names: {integer,"double precision"}.
			e, err := b.regArrayText(arg.E, pgtypes.ElemOf(from))
			return Bound{E: &expr.Cast{Arg: e, T: expr.Text}, T: plan.Type{OID: t.OID, Typmod: -1}}, true, err
		case pgtypes.OIDArray:
			return Bound{E: arg.E, T: t}, true, nil
		}
		return Bound{}, true, b.ErrAt(cannotCast(arg.T, t), loc)
	}
	return Bound{}, false, nil
}

// regArrayIn converts a list of integers of array type from to a list of
// OIDs, element by element as regIntToOID does.
func (b *Binder) regArrayIn(e expr.Expr, from uint32) (expr.Expr, error) {
	wide := from == pgtypes.Int8Array
	return &expr.Call{Fn: "oid", Args: []expr.Expr{e}, T: arrow.ListOf(expr.Int8), Go: func(_ context.Context, a []any) (any, error) {
		l, ok := a[0].([]any)
		if !ok {
			return nil, nil
		}
		out := make([]any, len(l))
		for i, v := range l {
			n, ok := regtype.Int64(v)
			switch {
			case !ok:
			case !wide:
				out[i] = int64(uint32(int32(n)))
			case n < 0 || n > math.MaxUint32:
				return nil, pgerr.New(pgerr.NumericValueOutOfRange, "OID out of range")
			default:
				out[i] = n
			}
		}
		return out, nil
	}}, nil
}

// isRegArray reports whether oid is the array type of a reg* type.
func isRegArray(oid uint32) bool {
	return pgtypes.IsRegType(pgtypes.ElemOf(oid))
}

// regArrayText prints each OID of a list as the name of its object (elem
// is the reg* element type): a list of text.
func (b *Binder) regArrayText(e expr.Expr, elem uint32) (expr.Expr, error) {
	snap, err := b.regSnap(elem)
	if err != nil {
		return nil, err
	}
	return &expr.Call{Fn: regtype.FuncName(elem, "out"), Args: []expr.Expr{e}, T: arrow.ListOf(expr.Text), Go: func(_ context.Context, a []any) (any, error) {
		l, ok := a[0].([]any)
		if !ok {
			return nil, nil
		}
		out := make([]any, len(l))
		for i, v := range l {
			if n, ok := regtype.Int64(v); ok {
				out[i] = regtype.Out(snap, elem, uint32(n))
			}
		}
		return out, nil
	}}, nil
}

// regTextual reports whether values of oid are text (the sources a name
// is read from).
func regTextual(oid uint32) bool {
	switch oid {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.Unknown:
		return true
	}
	return false
}

// regIntToOID converts an integer to an OID: int4 and int2 keep their 32
// bits (-1 is 4294967295), int8 must fit (22003 OID out of range).
func regIntToOID(e expr.Expr) expr.Expr {
	wide := e.Type().ID() == arrow.INT64
	return &expr.Call{Fn: "oid", Args: []expr.Expr{e}, T: expr.Int8, Go: func(_ context.Context, a []any) (any, error) {
		n, ok := regtype.Int64(a[0])
		if !ok {
			return nil, nil
		}
		if !wide {
			return int64(uint32(int32(n))), nil
		}
		if n < 0 || n > math.MaxUint32 {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "OID out of range")
		}
		return n, nil
	}}
}

// sysSnap returns the catalog snapshot the statement's object names are
// resolved against.
func (b *Binder) sysSnap() (*syscat.Snapshot, error) {
	snap, err := b.env.SysSnapshot(b.ctx)
	if err != nil {
		return nil, fmt.Errorf("read the system catalog: %w", err)
	}
	return snap, nil
}

// regSnap is sysSnap for reading or printing values of typ: nil for the
// types whose names do not depend on the warehouse (oid, regtype,
// regproc: built-in objects only), which then need no snapshot built.
func (b *Binder) regSnap(typ uint32) (*syscat.Snapshot, error) {
	switch typ {
	case pgtypes.Regclass, pgtypes.Regnamespace, pgtypes.Regrole, pgtypes.Regproc, pgtypes.Regprocedure:
		return b.sysSnap()
	}
	return nil, nil
}

// regInConst resolves a constant name to an OID of type t.
func (b *Binder) regInConst(s string, t plan.Type, loc int32) (Bound, error) {
	snap, err := b.regSnap(t.OID)
	if err != nil {
		return Bound{}, err
	}
	oid, err := regtype.In(snap, t.OID, s)
	if err != nil {
		return Bound{}, b.ErrAt(err, loc)
	}
	return Bound{E: &expr.Lit{V: int64(oid), T: expr.Int8}, T: t}, nil
}

// regInCall resolves names computed per row.
func (b *Binder) regInCall(e expr.Expr, t plan.Type) (Bound, error) {
	snap, err := b.regSnap(t.OID)
	if err != nil {
		return Bound{}, err
	}
	typ := t.OID
	return Bound{E: &expr.Call{Fn: regtype.FuncName(typ, "in"), Args: []expr.Expr{e}, T: expr.Int8, Go: func(_ context.Context, a []any) (any, error) {
		s, ok := a[0].(string)
		if !ok {
			return nil, nil
		}
		oid, err := regtype.In(snap, typ, s)
		if err != nil {
			return nil, err
		}
		return int64(oid), nil
	}}, T: t}, nil
}

// regText prints values of the object identifier type typ as text: the
// objects' names for the reg* types, the numbers for oid and xid.
func (b *Binder) regText(e expr.Expr, typ uint32) (expr.Expr, error) {
	if !pgtypes.IsRegType(typ) {
		return &expr.Cast{Arg: e, T: expr.Text}, nil
	}
	snap, err := b.regSnap(typ)
	if err != nil {
		return nil, err
	}
	return &expr.Call{Fn: regtype.FuncName(typ, "out"), Args: []expr.Expr{e}, T: expr.Text, Go: func(_ context.Context, a []any) (any, error) {
		n, ok := regtype.Int64(a[0])
		if !ok {
			return nil, nil
		}
		return regtype.Out(snap, typ, uint32(n)), nil
	}}, nil
}

// oidOperands prepares the operands of a binary operator when one is of
// an object identifier type: an untyped literal facing it is read as an
// oid ('1259'; a name is 22P02, as in PostgreSQL, which compares these
// types as oid), and arithmetic on them does not exist (oid + integer is
// 42883 in PostgreSQL; cast to int8 first).
func (b *Binder) oidOperands(op string, l, r Bound, loc int32) (Bound, Bound, error) {
	lo := !l.Unknown() && pgtypes.IsOIDType(l.T.OID)
	ro := !r.Unknown() && pgtypes.IsOIDType(r.T.OID)
	if !lo && !ro {
		return l, r, nil
	}
	switch op {
	case "+", "-", "*", "/", "%", "^", "||":
		if op == "||" && (l.Unknown() || r.Unknown() || regTextual(l.T.OID) || regTextual(r.T.OID)) {
			// 'x' || c.oid::regclass concatenates the text forms.
			return b.oidAsText(l), b.oidAsText(r), nil
		}
		return l, r, b.ErrAt(undefinedOperator(op, []Bound{l, r}), loc)
	}
	// PostgreSQL compares the reg* types as oid: the literal is a number.
	oid := plan.Type{OID: pgtypes.OID, Typmod: -1}
	var err error
	// An untyped parameter takes the other side's type ("oid = $1").
	if lo && r.param > 0 && r.Unknown() {
		b.params.setType(r.param, l.T.OID)
	} else if ro && l.param > 0 && l.Unknown() {
		b.params.setType(l.param, r.T.OID)
	}
	if lo && r.lit != nil {
		r, err = b.castTo(r, oid, loc)
	} else if ro && l.lit != nil {
		l, err = b.castTo(l, oid, loc)
	}
	return l, r, err
}

// keepsCatalogType reports whether an expression that returns its
// arguments' common type t (CASE, COALESCE, GREATEST) stays of type t when
// the engine computes it in def's Arrow type: the oid family (computed as
// int8) and name / "char" (computed as text) keep their types.
func keepsCatalogType(t, def plan.Type) bool {
	switch {
	case t.OID == def.OID:
		return true
	case pgtypes.IsOIDType(t.OID):
		return def.OID == pgtypes.Int8
	case t.OID == pgtypes.Name || t.OID == pgtypes.Char || t.OID == pgtypes.JSONB || t.OID == pgtypes.JSON:
		return def.OID == pgtypes.Text
	case t.OID == pgtypes.OIDArray || t.OID == pgtypes.OIDVector || isRegArray(t.OID):
		return def.OID == pgtypes.Int8Array
	}
	return false
}

// oidAsText is x as text when it is of an object identifier type.
func (b *Binder) oidAsText(x Bound) Bound {
	if x.Unknown() || !pgtypes.IsOIDType(x.T.OID) {
		return x
	}
	e, err := b.regText(x.E, x.T.OID)
	if err != nil {
		return x
	}
	return Bound{E: e, T: plan.TText, Name: x.Name, strong: x.strong}
}

// oidListItem prepares an item of x IN (...) when x is of an object
// identifier type: an untyped literal item is read as x's type (regclass
// IN ('pg_class', 'pg_type') names relations), as PostgreSQL reads the
// list in its common type.
func (b *Binder) oidListItem(x, item Bound, loc int32) (Bound, error) {
	if x.Unknown() || !pgtypes.IsOIDType(x.T.OID) || item.lit == nil {
		return item, nil
	}
	return b.castTo(item, x.T, loc)
}

// oidOverInteger is the common type of an object identifier type and an
// integer (coalesce(c.oid, 0)): the identifier type, which integers
// convert to implicitly and not the other way.
func oidOverInteger(a, b plan.Type) (plan.Type, bool) {
	integer := func(t plan.Type) bool { return t.OID == pgtypes.Int2 || t.OID == pgtypes.Int4 }
	switch {
	case pgtypes.IsOIDType(a.OID) && integer(b):
		return a, true
	case pgtypes.IsOIDType(b.OID) && integer(a):
		return b, true
	}
	return plan.Type{}, false
}
