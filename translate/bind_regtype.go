package translate

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
)

// Casts into and out of the object identifier types (oid, regclass,
// regtype, regnamespace, regrole, regproc, xid...). Their values are
// numbers (Arrow Int64); the reg* types read and print them as object
// names. A constant name is resolved while binding, as PostgreSQL does
// while planning; a computed one by a row function over the statement's
// catalog snapshot.

// regCast converts arg to t when either is an object identifier type; ok
// is false when neither is.
func (b *binder) regCast(arg bound, t plan.Type, loc int32) (out bound, ok bool, err error) {
	toOID, fromOID := pgtypes.IsOIDType(t.OID), !arg.unknown() && pgtypes.IsOIDType(arg.t.OID)
	switch {
	case toOID:
		out, err = b.castToOIDType(arg, t, loc)
		return out, true, err
	case fromOID:
		out, err = b.castFromOIDType(arg, t, loc)
		return out, true, err
	}
	return bound{}, false, nil
}

func (b *binder) castToOIDType(arg bound, t plan.Type, loc int32) (bound, error) {
	i64 := expr.Int8
	if arg.null {
		return bound{e: &expr.Lit{V: nil, T: i64}, t: t}, nil
	}
	if arg.lit != nil {
		pos := loc
		if arg.loc > 0 {
			pos = arg.loc
		}
		if arg.param > 0 && !b.params.bound {
			// $n::regclass: the value comes at Execute, as text.
			b.params.setType(arg.param, pgtypes.Text)
			return b.regInCall(&expr.Lit{V: *arg.lit, T: expr.Text}, t)
		}
		return b.regInConst(*arg.lit, t, pos)
	}
	from := arg.t.OID
	switch {
	case pgtypes.IsOIDType(from):
		return bound{e: arg.e, t: t}, nil
	case from == pgtypes.Int2 || from == pgtypes.Int4 || from == pgtypes.Int8:
		return bound{e: regIntToOID(arg.e), t: t}, nil
	case regTextual(from) && arrow.TypeEqual(arg.e.Type(), expr.Text):
		if lit, ok := arg.e.(*expr.Lit); ok {
			if s, ok := lit.V.(string); ok {
				r, err := b.regInConst(s, t, loc)
				if err == nil || b.params.bound || len(b.params.types) == 0 {
					return r, err
				}
				// A placeholder at Prepare: resolve when it runs.
			}
		}
		return b.regInCall(arg.e, t)
	}
	return bound{}, b.errAt(cannotCast(arg.t, t), loc)
}

func (b *binder) castFromOIDType(arg bound, t plan.Type, loc int32) (bound, error) {
	from := arg.t.OID
	switch t.OID {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name:
		e, err := b.regText(arg.e, from)
		if err != nil {
			return bound{}, err
		}
		if t.OID != pgtypes.Name {
			t = plan.Type{OID: t.OID, Typmod: -1}
		}
		return bound{e: e, t: t}, nil
	case pgtypes.Int8:
		if from == pgtypes.XID || from == pgtypes.CID {
			break
		}
		return bound{e: arg.e, t: t}, nil
	case pgtypes.Int4:
		if from == pgtypes.XID || from == pgtypes.CID {
			break
		}
		// The 32 bits as a signed number: 4294967295::oid::int4 is -1.
		return bound{e: &expr.Call{Fn: "int4", Args: []expr.Expr{arg.e}, T: expr.Int4, Go: func(_ context.Context, a []any) (any, error) {
			n, ok := regInt64(a[0])
			if !ok {
				return nil, nil
			}
			return int32(uint32(n)), nil
		}}, t: t}, nil
	}
	return bound{}, b.errAt(cannotCast(arg.t, t), loc)
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
		n, ok := regInt64(a[0])
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

// regInt64 reads an integer row value.
func regInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	case uint32:
		return int64(x), true
	}
	return 0, false
}

// sysSnap returns the catalog snapshot the statement's object names are
// resolved against.
func (b *binder) sysSnap() (*syscat.Snapshot, error) {
	snap, err := b.env.sysSnapshot(b.ctx)
	if err != nil {
		return nil, fmt.Errorf("read the system catalog: %w", err)
	}
	return snap, nil
}

// regSnap is sysSnap for reading or printing values of typ: nil for the
// types whose names do not depend on the warehouse (oid, regtype,
// regproc: built-in objects only), which then need no snapshot built.
func (b *binder) regSnap(typ uint32) (*syscat.Snapshot, error) {
	switch typ {
	case pgtypes.Regclass, pgtypes.Regnamespace, pgtypes.Regrole, pgtypes.Regproc, pgtypes.Regprocedure:
		return b.sysSnap()
	}
	return nil, nil
}

// regInConst resolves a constant name to an OID of type t.
func (b *binder) regInConst(s string, t plan.Type, loc int32) (bound, error) {
	snap, err := b.regSnap(t.OID)
	if err != nil {
		return bound{}, err
	}
	oid, err := regIn(snap, t.OID, s)
	if err != nil {
		return bound{}, b.errAt(err, loc)
	}
	return bound{e: &expr.Lit{V: int64(oid), T: expr.Int8}, t: t}, nil
}

// regInCall resolves names computed per row.
func (b *binder) regInCall(e expr.Expr, t plan.Type) (bound, error) {
	snap, err := b.regSnap(t.OID)
	if err != nil {
		return bound{}, err
	}
	typ := t.OID
	return bound{e: &expr.Call{Fn: regFuncName(typ, "in"), Args: []expr.Expr{e}, T: expr.Int8, Go: func(_ context.Context, a []any) (any, error) {
		s, ok := a[0].(string)
		if !ok {
			return nil, nil
		}
		oid, err := regIn(snap, typ, s)
		if err != nil {
			return nil, err
		}
		return int64(oid), nil
	}}, t: t}, nil
}

// regText prints values of the object identifier type typ as text: the
// objects' names for the reg* types, the numbers for oid and xid.
func (b *binder) regText(e expr.Expr, typ uint32) (expr.Expr, error) {
	if !pgtypes.IsRegType(typ) {
		return &expr.Cast{Arg: e, T: expr.Text}, nil
	}
	snap, err := b.regSnap(typ)
	if err != nil {
		return nil, err
	}
	return &expr.Call{Fn: regFuncName(typ, "out"), Args: []expr.Expr{e}, T: expr.Text, Go: func(_ context.Context, a []any) (any, error) {
		n, ok := regInt64(a[0])
		if !ok {
			return nil, nil
		}
		return regOut(snap, typ, uint32(n)), nil
	}}, nil
}

// regFuncName names the input or output function of typ as PostgreSQL
// does (regclassin, regtypeout...).
func regFuncName(typ uint32, dir string) string {
	name := pgtypes.TypeName(typ)
	if name == "" {
		name = "oid"
	}
	return name + dir
}

// regIn reads the text form of a value of the object identifier type typ.
func regIn(snap *syscat.Snapshot, typ uint32, s string) (uint32, error) {
	switch typ {
	case pgtypes.Regclass:
		return regclassIn(snap, s)
	case pgtypes.Regtype:
		return regtypeIn(s)
	case pgtypes.Regnamespace:
		return regnamespaceIn(snap, s)
	case pgtypes.Regrole:
		return regroleIn(snap, s)
	case pgtypes.Regproc, pgtypes.Regprocedure:
		return regprocIn(snap, typ, s)
	case pgtypes.Regoper:
		if n, ok := regNumber(s); ok {
			return n, nil
		}
		return 0, pgerr.Unsupported("regoper input of an operator name")
	}
	return oidIn(typ, s)
}

// oidIn reads an oid (or xid, cid) as oidin does: a decimal number, blanks
// around it allowed, negative numbers wrapping to 32 bits.
func oidIn(typ uint32, s string) (uint32, error) {
	t := strings.TrimSpace(s)
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, pgtypes.TypeName(typ))
		}
		return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", pgtypes.TypeName(typ), s)
	}
	if n < math.MinInt32 || n > math.MaxUint32 {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, pgtypes.TypeName(typ))
	}
	return uint32(n), nil
}

// regOut prints an OID of type typ.
func regOut(snap *syscat.Snapshot, typ, oid uint32) string {
	switch typ {
	case pgtypes.Regclass:
		return regclassOut(snap, oid)
	case pgtypes.Regtype:
		return regtypeOut(oid)
	case pgtypes.Regnamespace:
		return regnamespaceOut(snap, oid)
	case pgtypes.Regrole:
		return regroleOut(snap, oid)
	case pgtypes.Regproc, pgtypes.Regprocedure:
		return regprocOut(typ, oid)
	}
	return strconv.FormatUint(uint64(oid), 10)
}

// oidOperands prepares the operands of a binary operator when one is of
// an object identifier type: an untyped literal facing it is read as an
// oid ('1259'; a name is 22P02, as in PostgreSQL, which compares these
// types as oid), and arithmetic on them does not exist (oid + integer is
// 42883 in PostgreSQL; cast to int8 first).
func (b *binder) oidOperands(op string, l, r bound, loc int32) (bound, bound, error) {
	lo := !l.unknown() && pgtypes.IsOIDType(l.t.OID)
	ro := !r.unknown() && pgtypes.IsOIDType(r.t.OID)
	if !lo && !ro {
		return l, r, nil
	}
	switch op {
	case "+", "-", "*", "/", "%", "^", "||":
		if op == "||" && (l.unknown() || r.unknown() || regTextual(l.t.OID) || regTextual(r.t.OID)) {
			// 'x' || c.oid::regclass concatenates the text forms.
			return b.oidAsText(l), b.oidAsText(r), nil
		}
		return l, r, b.errAt(undefinedOperator(op, []bound{l, r}), loc)
	}
	// PostgreSQL compares the reg* types as oid: the literal is a number.
	oid := plan.Type{OID: pgtypes.OID, Typmod: -1}
	var err error
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
	case t.OID == pgtypes.Name || t.OID == pgtypes.Char:
		return def.OID == pgtypes.Text
	}
	return false
}

// oidAsText is x as text when it is of an object identifier type.
func (b *binder) oidAsText(x bound) bound {
	if x.unknown() || !pgtypes.IsOIDType(x.t.OID) {
		return x
	}
	e, err := b.regText(x.e, x.t.OID)
	if err != nil {
		return x
	}
	return bound{e: e, t: plan.TText, name: x.name, strong: x.strong}
}

// oidListItem prepares an item of x IN (...) when x is of an object
// identifier type: an untyped literal item is read as x's type (regclass
// IN ('pg_class', 'pg_type') names relations), as PostgreSQL reads the
// list in its common type.
func (b *binder) oidListItem(x, item bound, loc int32) (bound, error) {
	if x.unknown() || !pgtypes.IsOIDType(x.t.OID) || item.lit == nil {
		return item, nil
	}
	return b.castTo(item, x.t, loc)
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
