package bind

import (
	"fmt"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
)

// The object identifier types (oid, regclass, regtype, regnamespace,
// regrole, regproc, xid...) in operators and expressions. Their values
// are numbers (Arrow Int64); casts into and out of them, which read and
// print the reg* types as object names, are package translate/regtype's
// (cast.go), found through Env.RegTypes.

// sysSnap returns the catalog snapshot the statement's object names are
// resolved against.
func (b *Binder) sysSnap() (*syscat.Snapshot, error) {
	snap, err := b.env.SysSnapshot(b.ctx)
	if err != nil {
		return nil, fmt.Errorf("read the system catalog: %w", err)
	}
	return snap, nil
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
// int8), name / "char" (computed as text) and varchar[], bpchar[] and
// json[] (computed as text[]) keep their types.
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
	case t.OID == pgtypes.VarcharArray || t.OID == pgtypes.BPCharArray || t.OID == pgtypes.JSONArray:
		return def.OID == pgtypes.TextArray // lists of strings
	}
	return false
}

// oidAsText is x as text when it is of an object identifier type.
func (b *Binder) oidAsText(x Bound) Bound {
	if x.Unknown() || !pgtypes.IsOIDType(x.T.OID) {
		return x
	}
	f := b.env.RegTypes()
	if f == nil {
		return x
	}
	e, err := f.Text(b, x.E, x.T.OID)
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

// regTextual reports whether values of oid are text (the sources a name
// is read from).
func regTextual(oid uint32) bool {
	switch oid {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.Unknown:
		return true
	}
	return false
}

// isRegArray reports whether oid is the array type of a reg* type.
func isRegArray(oid uint32) bool {
	return pgtypes.IsRegType(pgtypes.ElemOf(oid))
}

// RegTypes binds the casts of the object identifier types and prints
// their values (package translate/regtype).
type RegTypes interface {
	// Cast converts arg to t when either is an object identifier type;
	// ok is false when neither is.
	Cast(b *Binder, arg Bound, t plan.Type, loc int32) (r Bound, ok bool, err error)
	// ArrayCast converts arrays into and out of the reg* array types; ok
	// is false when neither side is such an array.
	ArrayCast(b *Binder, arg Bound, t plan.Type, loc int32) (r Bound, ok bool, err error)
	// Text prints values of type typ, a reg* type or array, as text.
	Text(b *Binder, e expr.Expr, typ uint32) (expr.Expr, error)
}

func (b *Binder) regCast(arg Bound, t plan.Type, loc int32) (Bound, bool, error) {
	if f := b.env.RegTypes(); f != nil {
		return f.Cast(b, arg, t, loc)
	}
	return Bound{}, false, nil
}

func (b *Binder) regArrayCast(arg Bound, t plan.Type, loc int32) (Bound, bool, error) {
	if f := b.env.RegTypes(); f != nil {
		return f.ArrayCast(b, arg, t, loc)
	}
	return Bound{}, false, nil
}

// SysSnapshot is the catalog snapshot the statement's object names are
// resolved against.
func (b *Binder) SysSnapshot() (*syscat.Snapshot, error) { return b.sysSnap() }

// Params are the statement's parameters.
func (b *Binder) Params() *ParamSet { return b.params }

// SetType gives parameter $n the type oid unless it has one.
func (p *ParamSet) SetType(n int, oid uint32) { p.setType(n, oid) }

// Param is the $n an untyped value came from, 0 if none.
func (x Bound) Param() int { return x.param }

// Loc is the byte offset of a string literal (0 if unknown).
func (x Bound) Loc() int32 { return x.loc }

// CannotCast is PostgreSQL's error for a cast that does not exist.
func CannotCast(from, to plan.Type) *pgerr.Error { return cannotCast(from, to) }

// RegTextual reports whether values of oid are text (the sources a name
// is read from).
func RegTextual(oid uint32) bool { return regTextual(oid) }
