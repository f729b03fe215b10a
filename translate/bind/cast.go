package bind

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// typeCast binds CAST(x AS t) and x::t.
func (b *Binder) typeCast(tc *pg.TypeCast) (Bound, error) {
	t, typName, err := b.TypeName(tc.TypeName)
	if err != nil {
		return Bound{}, err
	}
	if a := tc.Arg.GetAArrayExpr(); a != nil && len(a.Elements) == 0 && pgtypes.ElemOf(t.OID) != 0 {
		// ARRAY[]::T[]: an empty array of the cast's type.
		return Bound{E: &expr.Call{Fn: "array", T: plan.ArrowOf(t)}, T: t, Name: "array", strong: true}, nil
	}
	arg, err := b.Expr(tc.Arg)
	if err != nil {
		return Bound{}, err
	}
	out, err := b.castTo(arg, t, tc.Location)
	if err != nil {
		return Bound{}, err
	}
	if arg.enum != "" {
		if out, err = b.enumCastOut(arg, out, t, tc.Location); err != nil { // enum.go
			return Bound{}, err
		}
	}
	// A cast keeps the name of what it casts when that has one, else it is
	// named after the type.
	if arg.strong {
		out.Name, out.strong = arg.Name, true
	} else {
		out.Name, out.strong = typName, false
	}
	return out, nil
}

// castTo converts a bound expression to PostgreSQL type t with explicit-cast
// semantics.
func (b *Binder) castTo(arg Bound, t plan.Type, loc int32) (Bound, error) {
	if r, ok, err := b.jsonTextCast(arg, t, loc); ok { // cast_json.go
		return r, err
	}
	if t.OID == pgtypes.Interval && t.Typmod > 0 {
		return b.intervalFieldsCast(arg, t, loc) // interval_fields.go
	}
	if r, ok := bpcharCast(arg, t); ok { // call_recorded.go
		arg = r
	}
	if t.OID == pgtypes.JSONB && t.Typmod < 0 {
		return b.jsonbCast(arg, loc) // jsonb_ops.go
	}
	if r, ok, err := b.regArrayCast(arg, t, loc); ok { // regtype.go
		return r, err
	}
	if r, ok, err := b.regCast(arg, t, loc); ok {
		return r, err
	}
	if r, ok, err := b.vectorCast(arg, t, loc); ok {
		return r, err
	}
	if r, ok, err := b.charArrayCast(arg, t, loc); ok { // cast_arrays.go
		return r, err
	}
	at := plan.ArrowOf(t)
	if t.OID == pgtypes.Varchar || t.OID == pgtypes.BPChar {
		// varchar and char values are text; an explicit cast to
		// varchar(n)/char(n) truncates to n characters.
		if !arg.Unknown() && !expr.CanCast(arg.E.Type(), expr.Text) {
			return Bound{}, b.ErrAt(cannotCast(arg.T, t), loc)
		}
		e := b.Coerce(arg, expr.Text)
		out := plan.Type{OID: t.OID, Typmod: -1}
		if n := b.lastTypmod; n > 0 {
			out.Typmod = int32(n) + 4
			if t.OID == pgtypes.BPChar {
				// char(n) is blank-padded to n characters.
				e = &expr.Call{Fn: "rpad", Args: []expr.Expr{e, &expr.Lit{V: int32(n), T: expr.Int4}}, T: expr.Text}
			} else {
				e = &expr.Call{Fn: "substr", Args: []expr.Expr{e, &expr.Lit{V: int32(1), T: expr.Int4}, &expr.Lit{V: int32(n), T: expr.Int4}}, T: expr.Text}
			}
		}
		return Bound{E: e, T: out}, nil
	}
	if pgtypes.ElemOf(t.OID) != 0 && !isVectorType(t.OID) {
		// An array keeps its number of dimensions: that of the literal,
		// or of the array converted.
		switch {
		case arg.lit != nil:
			at = arrayLiteralType(at, *arg.lit)
		case !arg.Unknown() && expr.IsMultiDimList(arg.E.Type()):
			d, _ := expr.ArrayLeaf(arg.E.Type())
			_, leaf := expr.ArrayLeaf(at)
			at = expr.MultiDimList(leaf, d)
		}
	}
	if arg.Unknown() {
		return Bound{E: b.Coerce(arg, at), T: t}, nil
	}
	from := arg.E.Type()
	if arrow.TypeEqual(from, at) && (arg.T == t || t.Typmod < 0) {
		return Bound{E: arg.E, T: t}, nil
	}
	if t.OID == pgtypes.Text && arg.T.OID == pgtypes.JSONB {
		return Bound{}, b.ErrAt(pgerr.NotYet("casting "+arg.T.String()+" to text"), loc)
	}
	if !expr.CanCast(from, at) {
		return Bound{}, b.ErrAt(cannotCast(arg.T, t), loc)
	}
	return Bound{E: &expr.Cast{Arg: arg.E, T: at}, T: t}, nil
}

func cannotCast(from, to plan.Type) *pgerr.Error {
	return pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from, to)
}

// TypeName resolves a type name as written (int, integer, numeric(10,2),
// varchar(5), double precision, timestamptz, uuid, int[]...). It returns the
// type and the name a cast column is given (PostgreSQL's internal name:
// int4, float8, varchar, timestamptz).
func (b *Binder) TypeName(tn *pg.TypeName) (plan.Type, string, error) {
	b.lastTypmod = 0
	if tn.PctType || tn.Setof {
		return plan.Type{}, "", b.ErrAt(pgerr.NotYet("this type name"), tn.Location)
	}
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().GetSval())
	}
	if len(names) == 0 {
		return plan.Type{}, "", b.ErrAt(pgerr.New(pgerr.SyntaxError, "empty type name"), tn.Location)
	}
	if len(names) > 1 && names[0] != "pg_catalog" {
		return plan.Type{}, "", b.ErrAt(pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", strings.Join(names, ".")), tn.Location)
	}
	name := names[len(names)-1]
	var mods []int
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			return plan.Type{}, "", b.ErrAt(pgerr.New(pgerr.SyntaxError, "type modifiers must be simple constants or identifiers"), tn.Location)
		}
		mods = append(mods, int(c.GetIval().Ival))
	}
	if err := charLength(name, len(names), mods); err != nil {
		return plan.Type{}, "", b.ErrAt(err, tn.Location)
	}
	var t plan.Type
	canon := name
	switch name {
	case "bool", "boolean":
		t, canon = plan.TBool, "bool"
	case "int2", "smallint":
		t, canon = plan.TInt2, "int2"
	case "int4", "int", "integer":
		t, canon = plan.TInt4, "int4"
	case "int8", "bigint":
		t, canon = plan.TInt8, "int8"
	case "float4", "real":
		t, canon = plan.TFloat4, "float4"
	case "float8":
		t = plan.TFloat8
	case "float":
		t, canon = plan.TFloat8, "float8"
		if len(mods) == 1 && mods[0] <= 24 {
			t, canon = plan.TFloat4, "float4"
		}
	case "numeric", "decimal":
		canon = "numeric"
		switch len(mods) {
		case 0:
			t = plan.TNumeric
		case 1, 2:
			p, s := mods[0], 0
			if len(mods) == 2 {
				s = mods[1]
			}
			if p < 1 || p > 1000 {
				return plan.Type{}, "", b.ErrAt(pgerr.New(pgerr.InvalidParameterValue, "NUMERIC precision %d must be between 1 and 1000", p), tn.Location)
			}
			if s < 0 || s > p {
				return plan.Type{}, "", b.ErrAt(pgerr.New(pgerr.InvalidParameterValue, "NUMERIC scale %d must be between 0 and precision %d", s, p), tn.Location)
			}
			if p > 38 {
				return plan.Type{}, "", b.ErrAt(pgerr.NotYet("numeric precision above 38"), tn.Location)
			}
			t = plan.NumericType(p, s)
		default:
			return plan.Type{}, "", b.ErrAt(pgerr.New(pgerr.SyntaxError, "invalid NUMERIC type modifier"), tn.Location)
		}
	case "text":
		t = plan.TText
	case "varchar", "character varying":
		t, canon = plan.Type{OID: pgtypes.Varchar, Typmod: -1}, "varchar"
		if len(mods) == 1 {
			b.lastTypmod = mods[0]
		}
	case "char":
		if len(names) == 1 && len(mods) == 0 {
			// Written "char" (quoted): PostgreSQL's one-byte internal type;
			// unquoted char arrives as pg_catalog.bpchar.
			t = plan.Type{OID: pgtypes.Char, Typmod: -1}
			break
		}
		t, canon = plan.Type{OID: pgtypes.BPChar, Typmod: -1}, "bpchar"
		if len(mods) == 1 {
			b.lastTypmod = mods[0]
		}
	case "bpchar", "character":
		t, canon = plan.Type{OID: pgtypes.BPChar, Typmod: -1}, "bpchar"
		if len(mods) == 1 {
			b.lastTypmod = mods[0]
		}
	case "name":
		t = plan.Type{OID: pgtypes.Name, Typmod: -1}
	case "oid":
		t = plan.Type{OID: pgtypes.OID, Typmod: -1}
	case "regclass":
		t = plan.Type{OID: pgtypes.Regclass, Typmod: -1}
	case "regtype":
		t = plan.Type{OID: pgtypes.Regtype, Typmod: -1}
	case "regproc":
		t = plan.Type{OID: pgtypes.Regproc, Typmod: -1}
	case "regprocedure":
		t = plan.Type{OID: pgtypes.Regprocedure, Typmod: -1}
	case "regoper":
		t = plan.Type{OID: pgtypes.Regoper, Typmod: -1}
	case "regnamespace":
		t = plan.Type{OID: pgtypes.Regnamespace, Typmod: -1}
	case "regrole":
		t = plan.Type{OID: pgtypes.Regrole, Typmod: -1}
	case "xid":
		t = plan.Type{OID: pgtypes.XID, Typmod: -1}
	case "cid":
		t = plan.Type{OID: pgtypes.CID, Typmod: -1}
	case "int2vector":
		t = plan.Type{OID: pgtypes.Int2Vector, Typmod: -1}
	case "oidvector":
		t = plan.Type{OID: pgtypes.OIDVector, Typmod: -1}
	case "pg_node_tree":
		t = plan.Type{OID: pgtypes.PgNodeTree, Typmod: -1}
	case "bytea":
		t = plan.TBytea
	case "uuid":
		t = plan.TUUID
	case "date":
		t = plan.TDate
	case "time":
		t = plan.TTime
	case "timestamp":
		t = plan.TTimestamp
	case "timestamptz":
		t = plan.TTimestamptz
	case "jsonb":
		t = plan.TJSONB
	case "json":
		t = plan.Type{OID: pgtypes.JSON, Typmod: -1}
	case "interval":
		t = plan.TInterval
		if len(mods) > 0 {
			ft, err := intervalFieldsType(mods) // interval_fields.go
			if err != nil {
				return plan.Type{}, "", b.ErrAt(err, tn.Location)
			}
			t = ft
		}
	case "timetz", "money", "inet", "cidr", "macaddr", "bit", "varbit", "xml":
		return plan.Type{}, "", b.ErrAt(pgerr.Unsupported("type %s", name), tn.Location)
	default:
		return plan.Type{}, "", b.ErrAt(pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name), tn.Location)
	}
	if len(tn.ArrayBounds) > 0 {
		arr := pgtypes.ArrayOf(t.OID)
		// int[][] is int[]: PostgreSQL's array types have no fixed
		// number of dimensions (a table column keeps it, ddl).
		if arr == 0 {
			return plan.Type{}, "", b.ErrAt(pgerr.NotYet("casting to array type "+name+"[]"), tn.Location)
		}
		at := plan.Type{OID: arr, Typmod: -1}
		if n := b.lastTypmod; n > 0 {
			// varchar(n)[], char(n)[]: the length applies to each
			// element and is the array's typmod, as in PostgreSQL.
			at.Typmod, b.lastTypmod = int32(n)+4, 0
		}
		return at, canon, nil
	}
	return t, canon, nil
}
