package regtype

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// Casts into and out of the object identifier types (oid, regclass,
// regtype, regnamespace, regrole, regproc, xid...), for the binder
// (bind.Env.RegTypes). Their values are numbers (Arrow Int64); the reg*
// types read and print them as object names (text.go). A constant name is
// resolved while binding, as PostgreSQL does while planning; a computed
// one by a row function over the statement's catalog snapshot.

// Casts binds the casts of the object identifier types for the binder.
type Casts struct{}

var _ bind.RegTypes = Casts{}

// Cast converts arg to t when either is an object identifier type; ok is
// false when neither is.
func (Casts) Cast(b *bind.Binder, arg bind.Bound, t plan.Type, loc int32) (bind.Bound, bool, error) {
	return regCast(b, arg, t, loc)
}

// ArrayCast converts arrays into and out of the reg* array types; ok is
// false when neither side is such an array.
func (Casts) ArrayCast(b *bind.Binder, arg bind.Bound, t plan.Type, loc int32) (bind.Bound, bool, error) {
	return regArrayCast(b, arg, t, loc)
}

// Text prints values of the object identifier type typ (or a reg* array
// type) as text: the objects' names.
func (Casts) Text(b *bind.Binder, e expr.Expr, typ uint32) (expr.Expr, error) {
	if isRegArray(typ) {
		return regArrayText(b, e, pgtypes.ElemOf(typ))
	}
	return regText(b, e, typ)
}

// regCast converts arg to t when either is an object identifier type; ok
// is false when neither is.
func regCast(b *bind.Binder, arg bind.Bound, t plan.Type, loc int32) (out bind.Bound, ok bool, err error) {
	toOID, fromOID := pgtypes.IsOIDType(t.OID), !arg.Unknown() && pgtypes.IsOIDType(arg.T.OID)
	switch {
	case toOID:
		out, err = castToOIDType(b, arg, t, loc)
		return out, true, err
	case fromOID:
		out, err = castFromOIDType(b, arg, t, loc)
		return out, true, err
	}
	return bind.Bound{}, false, nil
}

func castToOIDType(b *bind.Binder, arg bind.Bound, t plan.Type, loc int32) (bind.Bound, error) {
	i64 := expr.Int8
	if arg.IsNull() {
		return bind.Bound{E: &expr.Lit{V: nil, T: i64}, T: t}, nil
	}
	if lit, ok := arg.Literal(); ok {
		pos := loc
		if arg.Loc() > 0 {
			pos = arg.Loc()
		}
		if arg.Param() > 0 && !b.Params().Bound {
			// $n::regclass: the value comes at Execute, as text.
			b.Params().SetType(arg.Param(), pgtypes.Text)
			return regInCall(b, &expr.Lit{V: lit, T: expr.Text}, t)
		}
		return regInConst(b, lit, t, pos)
	}
	from := arg.T.OID
	switch {
	case pgtypes.IsOIDType(from):
		return bind.Bound{E: arg.E, T: t}, nil
	case from == pgtypes.Int2 || from == pgtypes.Int4 || from == pgtypes.Int8:
		return bind.Bound{E: regIntToOID(arg.E), T: t}, nil
	case bind.RegTextual(from) && arrow.TypeEqual(arg.E.Type(), expr.Text):
		if lit, ok := arg.E.(*expr.Lit); ok {
			if s, ok := lit.V.(string); ok {
				r, err := regInConst(b, s, t, loc)
				if err == nil || b.Params().Bound || len(b.Params().Types) == 0 {
					return r, err
				}
				// A placeholder at Prepare: resolve when it runs.
			}
		}
		return regInCall(b, arg.E, t)
	}
	return bind.Bound{}, b.ErrAt(bind.CannotCast(arg.T, t), loc)
}

func castFromOIDType(b *bind.Binder, arg bind.Bound, t plan.Type, loc int32) (bind.Bound, error) {
	from := arg.T.OID
	switch t.OID {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name:
		e, err := regText(b, arg.E, from)
		if err != nil {
			return bind.Bound{}, err
		}
		if t.OID != pgtypes.Name {
			t = plan.Type{OID: t.OID, Typmod: -1}
		}
		return bind.Bound{E: e, T: t}, nil
	case pgtypes.Int8:
		if from == pgtypes.XID || from == pgtypes.CID {
			break
		}
		return bind.Bound{E: arg.E, T: t}, nil
	case pgtypes.Int4:
		if from == pgtypes.XID || from == pgtypes.CID {
			break
		}
		// The 32 bits as a signed number: 4294967295::oid::int4 is -1.
		return bind.Bound{E: &expr.Call{Fn: "int4", Args: []expr.Expr{arg.E}, T: expr.Int4, Go: func(_ context.Context, a []any) (any, error) {
			n, ok := Int64(a[0])
			if !ok {
				return nil, nil
			}
			return int32(uint32(n)), nil
		}}, T: t}, nil
	}
	return bind.Bound{}, b.ErrAt(bind.CannotCast(arg.T, t), loc)
}

// regArrayCast converts arrays into and out of the reg* array types
// (proargtypes::regtype[], then ::text[], as pgcli reads pg_proc): their
// values are lists of OIDs, printed as the objects' names. ok is false when
// neither side is such an array.
func regArrayCast(b *bind.Binder, arg bind.Bound, t plan.Type, loc int32) (out bind.Bound, ok bool, err error) {
	toReg := isRegArray(t.OID)
	if arg.Unknown() {
		if toReg && !arg.IsNull() {
			return bind.Bound{}, true, b.ErrAt(pgerr.NotYet("reading a "+pgtypes.TypeName(t.OID)+" literal"), loc)
		}
		return bind.Bound{}, false, nil
	}
	from := arg.T.OID
	switch {
	case toReg:
		switch {
		case from == pgtypes.OIDArray || from == pgtypes.OIDVector || isRegArray(from):
		case from == pgtypes.Int2Array || from == pgtypes.Int4Array || from == pgtypes.Int8Array:
			// An integer is an OID (int4 keeps its 32 bits, as regIntToOID).
			e, err := regArrayIn(b, arg.E, from)
			return bind.Bound{E: e, T: t}, true, err
		default:
			return bind.Bound{}, true, b.ErrAt(bind.CannotCast(arg.T, t), loc)
		}
		e := arg.E
		if at := plan.ArrowOf(t); !arrow.TypeEqual(e.Type(), at) {
			if !expr.CanCast(e.Type(), at) {
				return bind.Bound{}, true, b.ErrAt(bind.CannotCast(arg.T, t), loc)
			}
			e = &expr.Cast{Arg: e, T: at}
		}
		return bind.Bound{E: e, T: t}, true, nil
	case isRegArray(from):
		switch t.OID {
		case pgtypes.TextArray:
			e, err := regArrayText(b, arg.E, pgtypes.ElemOf(from))
			return bind.Bound{E: e, T: t}, true, err
		case pgtypes.Text, pgtypes.Varchar:
			// The array's text, of the names: {integer,"double precision"}.
			e, err := regArrayText(b, arg.E, pgtypes.ElemOf(from))
			return bind.Bound{E: &expr.Cast{Arg: e, T: expr.Text}, T: plan.Type{OID: t.OID, Typmod: -1}}, true, err
		case pgtypes.OIDArray:
			return bind.Bound{E: arg.E, T: t}, true, nil
		}
		return bind.Bound{}, true, b.ErrAt(bind.CannotCast(arg.T, t), loc)
	}
	return bind.Bound{}, false, nil
}

// regArrayIn converts a list of integers of array type from to a list of
// OIDs, element by element as regIntToOID does.
func regArrayIn(b *bind.Binder, e expr.Expr, from uint32) (expr.Expr, error) {
	wide := from == pgtypes.Int8Array
	return &expr.Call{Fn: "oid", Args: []expr.Expr{e}, T: arrow.ListOf(expr.Int8), Go: func(_ context.Context, a []any) (any, error) {
		l, ok := a[0].([]any)
		if !ok {
			return nil, nil
		}
		out := make([]any, len(l))
		for i, v := range l {
			n, ok := Int64(v)
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
func regArrayText(b *bind.Binder, e expr.Expr, elem uint32) (expr.Expr, error) {
	snap, err := regSnap(b, elem)
	if err != nil {
		return nil, err
	}
	return &expr.Call{Fn: FuncName(elem, "out"), Args: []expr.Expr{e}, T: arrow.ListOf(expr.Text), Go: func(_ context.Context, a []any) (any, error) {
		l, ok := a[0].([]any)
		if !ok {
			return nil, nil
		}
		out := make([]any, len(l))
		for i, v := range l {
			if n, ok := Int64(v); ok {
				out[i] = Out(snap, elem, uint32(n))
			}
		}
		return out, nil
	}}, nil
}

// regIntToOID converts an integer to an OID: int4 and int2 keep their 32
// bits (-1 is 4294967295), int8 must fit (22003 OID out of range).
func regIntToOID(e expr.Expr) expr.Expr {
	wide := e.Type().ID() == arrow.INT64
	return &expr.Call{Fn: "oid", Args: []expr.Expr{e}, T: expr.Int8, Go: func(_ context.Context, a []any) (any, error) {
		n, ok := Int64(a[0])
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

// regSnap is sysSnap for reading or printing values of typ: nil for the
// types whose names do not depend on the warehouse (oid, regtype,
// regproc: built-in objects only), which then need no snapshot built.
func regSnap(b *bind.Binder, typ uint32) (*syscat.Snapshot, error) {
	switch typ {
	case pgtypes.Regclass, pgtypes.Regnamespace, pgtypes.Regrole, pgtypes.Regproc, pgtypes.Regprocedure:
		return b.SysSnapshot()
	}
	return nil, nil
}

// regInConst resolves a constant name to an OID of type t.
func regInConst(b *bind.Binder, s string, t plan.Type, loc int32) (bind.Bound, error) {
	snap, err := regSnap(b, t.OID)
	if err != nil {
		return bind.Bound{}, err
	}
	oid, err := In(snap, t.OID, s)
	if err != nil {
		return bind.Bound{}, b.ErrAt(err, loc)
	}
	return bind.Bound{E: &expr.Lit{V: int64(oid), T: expr.Int8}, T: t}, nil
}

// regInCall resolves names computed per row.
func regInCall(b *bind.Binder, e expr.Expr, t plan.Type) (bind.Bound, error) {
	snap, err := regSnap(b, t.OID)
	if err != nil {
		return bind.Bound{}, err
	}
	typ := t.OID
	return bind.Bound{E: &expr.Call{Fn: FuncName(typ, "in"), Args: []expr.Expr{e}, T: expr.Int8, Go: func(_ context.Context, a []any) (any, error) {
		s, ok := a[0].(string)
		if !ok {
			return nil, nil
		}
		oid, err := In(snap, typ, s)
		if err != nil {
			return nil, err
		}
		return int64(oid), nil
	}}, T: t}, nil
}

// regText prints values of the object identifier type typ as text: the
// objects' names for the reg* types, the numbers for oid and xid.
func regText(b *bind.Binder, e expr.Expr, typ uint32) (expr.Expr, error) {
	if !pgtypes.IsRegType(typ) {
		return &expr.Cast{Arg: e, T: expr.Text}, nil
	}
	snap, err := regSnap(b, typ)
	if err != nil {
		return nil, err
	}
	return &expr.Call{Fn: FuncName(typ, "out"), Args: []expr.Expr{e}, T: expr.Text, Go: func(_ context.Context, a []any) (any, error) {
		n, ok := Int64(a[0])
		if !ok {
			return nil, nil
		}
		return Out(snap, typ, uint32(n)), nil
	}}, nil
}
