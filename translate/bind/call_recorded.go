package bind

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// character(n) values are stored blank-padded and shown so; as operands
// of comparisons, || and the length functions their trailing blanks
// are insignificant, as PostgreSQL's bpchar operators and its bpchar to
// text cast make them. bpcharArgs trims such operands (and untyped
// literals compared with them) before fn binds.

// bpcharTrims are the functions and operators whose character(n) operands
// lose their trailing blanks (not LIKE: bpchar LIKE sees the blanks).
var bpcharTrims = map[string]bool{
	"=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true,
	"is_distinct_from": true, "is_not_distinct_from": true, "in": true,
	"||": true, "length": true, "char_length": true, "character_length": true,
}

// bpcharCompares are the comparisons, where an untyped literal compared
// with a character value is a character value too.
var bpcharCompares = map[string]bool{
	"=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true,
	"is_distinct_from": true, "is_not_distinct_from": true, "in": true,
}

// recordedArgs adjusts the operands of fn that are values of columns with
// recorded types (plan.PGTypesProperty): character(n) ones as above, and
// smallint ones, read as the Iceberg int they are stored as, as int2 again
// so that arithmetic and functions type them as PostgreSQL does.
func (b *Binder) recordedArgs(fn string, args []Bound) []Bound {
	args = int2Args(args)
	if !bpcharTrims[fn] {
		return args
	}
	any := false
	for _, a := range args {
		if isBPChar(a) {
			any = true
		}
	}
	if !any {
		return args
	}
	out := make([]Bound, len(args))
	for i, a := range args {
		switch {
		case isBPChar(a):
			a.E = &expr.Call{Fn: "bpchar_trim", Args: []expr.Expr{a.E}, T: expr.Text}
		case a.Unknown() && !a.null && bpcharCompares[fn]:
			if a.param > 0 {
				b.params.setType(a.param, pgtypes.BPChar) // "c = $1" is character
			}
			a = Bound{E: &expr.Call{Fn: "bpchar_trim", Args: []expr.Expr{b.Coerce(a, expr.Text)}, T: expr.Text}, T: a.T, Name: a.Name}
			a.T.OID, a.T.Typmod = pgtypes.BPChar, -1
		}
		out[i] = a
	}
	return out
}

// int2Args casts smallint operands carried as int32 to int16.
func int2Args(args []Bound) []Bound {
	var out []Bound
	for i, a := range args {
		if a.Unknown() || a.T.OID != pgtypes.Int2 || a.E == nil || a.E.Type().ID() != arrow.INT32 {
			continue
		}
		if out == nil {
			out = append([]Bound(nil), args...)
		}
		out[i].E = &expr.Cast{Arg: a.E, T: arrow.PrimitiveTypes.Int16}
	}
	if out == nil {
		return args
	}
	return out
}

// bpcharCast is a character value cast to text or character varying: its
// trailing blanks go. ok is false for other casts.
func bpcharCast(arg Bound, t plan.Type) (Bound, bool) {
	if !isBPChar(arg) || t.OID != pgtypes.Text && t.OID != pgtypes.Varchar {
		return Bound{}, false
	}
	arg.E = &expr.Call{Fn: "bpchar_trim", Args: []expr.Expr{arg.E}, T: expr.Text}
	arg.T = plan.TText
	return arg, true
}

func isBPChar(a Bound) bool {
	return !a.Unknown() && a.T.OID == pgtypes.BPChar && a.E != nil && a.E.Type().ID() == expr.Text.ID()
}
