package translate

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// typeCast binds CAST(x AS t) and x::t.
func (b *binder) typeCast(tc *pg.TypeCast) (bound, error) {
	t, typName, err := b.typeName(tc.TypeName)
	if err != nil {
		return bound{}, err
	}
	if a := tc.Arg.GetAArrayExpr(); a != nil && len(a.Elements) == 0 && pgtypes.ElemOf(t.OID) != 0 {
		// ARRAY[]::T[]: an empty array of the cast's type.
		return bound{e: &expr.Call{Fn: "array", T: arrowOf(t)}, t: t, name: "array", strong: true}, nil
	}
	arg, err := b.expr(tc.Arg)
	if err != nil {
		return bound{}, err
	}
	out, err := b.castTo(arg, t, tc.Location)
	if err != nil {
		return bound{}, err
	}
	// A cast keeps the name of what it casts when that has one, else it is
	// named after the type.
	if arg.strong {
		out.name, out.strong = arg.name, true
	} else {
		out.name, out.strong = typName, false
	}
	return out, nil
}

// castTo converts a bound expression to PostgreSQL type t with explicit-cast
// semantics.
func (b *binder) castTo(arg bound, t pgType, loc int32) (bound, error) {
	if r, ok, err := b.regCast(arg, t, loc); ok {
		return r, err
	}
	if r, ok, err := b.vectorCast(arg, t, loc); ok {
		return r, err
	}
	at := arrowOf(t)
	if t.OID == pgtypes.Varchar || t.OID == pgtypes.BPChar {
		// varchar and char values are text; an explicit cast to
		// varchar(n)/char(n) truncates to n characters.
		if !arg.unknown() && !expr.CanCast(arg.e.Type(), expr.Text) {
			return bound{}, b.errAt(cannotCast(arg.t, t), loc)
		}
		e := b.coerce(arg, expr.Text)
		if n := b.lastTypmod; n > 0 {
			e = &expr.Call{Fn: "substr", Args: []expr.Expr{e, &expr.Lit{V: int32(1), T: expr.Int4}, &expr.Lit{V: int32(n), T: expr.Int4}}, T: expr.Text}
		}
		return bound{e: e, t: tText}, nil
	}
	if arg.unknown() {
		return bound{e: b.coerce(arg, at), t: t}, nil
	}
	from := arg.e.Type()
	if arrow.TypeEqual(from, at) && (arg.t == t || t.Typmod < 0) {
		return bound{e: arg.e, t: t}, nil
	}
	if t.OID == pgtypes.Text && arg.t.OID == pgtypes.JSONB {
		return bound{}, b.errAt(notYet("casting "+arg.t.String()+" to text"), loc)
	}
	if !expr.CanCast(from, at) {
		return bound{}, b.errAt(cannotCast(arg.t, t), loc)
	}
	return bound{e: &expr.Cast{Arg: arg.e, T: at}, t: t}, nil
}

func cannotCast(from, to pgType) *pgerr.Error {
	return pgerr.New("42846", "cannot cast type %s to %s", from, to)
}

// typeName resolves a type name as written (int, integer, numeric(10,2),
// varchar(5), double precision, timestamptz, uuid, int[]...). It returns the
// type and the name a cast column is given (PostgreSQL's internal name:
// int4, float8, varchar, timestamptz).
func (b *binder) typeName(tn *pg.TypeName) (pgType, string, error) {
	b.lastTypmod = 0
	if tn.PctType || tn.Setof {
		return pgType{}, "", b.errAt(notYet("this type name"), tn.Location)
	}
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().GetSval())
	}
	if len(names) == 0 {
		return pgType{}, "", b.errAt(pgerr.New(pgerr.SyntaxError, "empty type name"), tn.Location)
	}
	if len(names) > 1 && names[0] != "pg_catalog" {
		return pgType{}, "", b.errAt(pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", strings.Join(names, ".")), tn.Location)
	}
	name := names[len(names)-1]
	var mods []int
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			return pgType{}, "", b.errAt(pgerr.New(pgerr.SyntaxError, "type modifiers must be simple constants or identifiers"), tn.Location)
		}
		mods = append(mods, int(c.GetIval().Ival))
	}
	var t pgType
	canon := name
	switch name {
	case "bool", "boolean":
		t, canon = tBool, "bool"
	case "int2", "smallint":
		t, canon = tInt2, "int2"
	case "int4", "int", "integer":
		t, canon = tInt4, "int4"
	case "int8", "bigint":
		t, canon = tInt8, "int8"
	case "float4", "real":
		t, canon = tFloat4, "float4"
	case "float8":
		t = tFloat8
	case "float":
		t, canon = tFloat8, "float8"
		if len(mods) == 1 && mods[0] <= 24 {
			t, canon = tFloat4, "float4"
		}
	case "numeric", "decimal":
		canon = "numeric"
		switch len(mods) {
		case 0:
			t = tNumeric
		case 1, 2:
			p, s := mods[0], 0
			if len(mods) == 2 {
				s = mods[1]
			}
			if p < 1 || p > 1000 {
				return pgType{}, "", b.errAt(pgerr.New(pgerr.InvalidParameterValue, "NUMERIC precision %d must be between 1 and 1000", p), tn.Location)
			}
			if s < 0 || s > p {
				return pgType{}, "", b.errAt(pgerr.New(pgerr.InvalidParameterValue, "NUMERIC scale %d must be between 0 and precision %d", s, p), tn.Location)
			}
			if p > 38 {
				return pgType{}, "", b.errAt(notYet("numeric precision above 38"), tn.Location)
			}
			t = numericType(p, s)
		default:
			return pgType{}, "", b.errAt(pgerr.New(pgerr.SyntaxError, "invalid NUMERIC type modifier"), tn.Location)
		}
	case "text":
		t = tText
	case "varchar", "character varying":
		t, canon = pgType{pgtypes.Varchar, -1}, "varchar"
		if len(mods) == 1 {
			b.lastTypmod = mods[0]
		}
	case "char":
		if len(names) == 1 && len(mods) == 0 {
			// Written "char" (quoted): PostgreSQL's one-byte internal type;
			// unquoted char arrives as pg_catalog.bpchar.
			t = pgType{pgtypes.Char, -1}
			break
		}
		t, canon = pgType{pgtypes.BPChar, -1}, "bpchar"
		if len(mods) == 1 {
			b.lastTypmod = mods[0]
		}
	case "bpchar", "character":
		t, canon = pgType{pgtypes.BPChar, -1}, "bpchar"
		if len(mods) == 1 {
			b.lastTypmod = mods[0]
		}
	case "name":
		t = pgType{pgtypes.Name, -1}
	case "oid":
		t = pgType{pgtypes.OID, -1}
	case "regclass":
		t = pgType{pgtypes.Regclass, -1}
	case "regtype":
		t = pgType{pgtypes.Regtype, -1}
	case "regproc":
		t = pgType{pgtypes.Regproc, -1}
	case "regprocedure":
		t = pgType{pgtypes.Regprocedure, -1}
	case "regoper":
		t = pgType{pgtypes.Regoper, -1}
	case "regnamespace":
		t = pgType{pgtypes.Regnamespace, -1}
	case "regrole":
		t = pgType{pgtypes.Regrole, -1}
	case "xid":
		t = pgType{pgtypes.XID, -1}
	case "cid":
		t = pgType{pgtypes.CID, -1}
	case "int2vector":
		t = pgType{pgtypes.Int2Vector, -1}
	case "oidvector":
		t = pgType{pgtypes.OIDVector, -1}
	case "pg_node_tree":
		t = pgType{pgtypes.PgNodeTree, -1}
	case "bytea":
		t = tBytea
	case "uuid":
		t = tUUID
	case "date":
		t = tDate
	case "time":
		t = tTime
	case "timestamp":
		t = tTimestamp
	case "timestamptz":
		t = tTimestamptz
	case "jsonb", "json":
		return pgType{}, "", b.errAt(notYet("casting to "+name), tn.Location)
	case "interval":
		if len(mods) > 0 {
			return pgType{}, "", b.errAt(notYet("interval field restrictions and precision"), tn.Location)
		}
		t = tInterval
	case "timetz", "money", "inet", "cidr", "macaddr", "bit", "varbit", "xml":
		return pgType{}, "", b.errAt(pgerr.Unsupported("type %s", name), tn.Location)
	default:
		return pgType{}, "", b.errAt(pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name), tn.Location)
	}
	if len(tn.ArrayBounds) > 0 {
		arr := pgtypes.ArrayOf(t.OID)
		if arr == 0 || len(tn.ArrayBounds) > 1 {
			return pgType{}, "", b.errAt(notYet("casting to array type "+name+"[]"), tn.Location)
		}
		return pgType{arr, -1}, canon, nil
	}
	return t, canon, nil
}
