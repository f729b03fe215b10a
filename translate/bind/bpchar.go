package bind

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
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

func (b *Binder) bpcharArgs(fn string, args []Bound) []Bound {
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
			a = Bound{E: &expr.Call{Fn: "bpchar_trim", Args: []expr.Expr{b.Coerce(a, expr.Text)}, T: expr.Text}, T: a.T, Name: a.Name}
			a.T.OID, a.T.Typmod = pgtypes.BPChar, -1
		}
		out[i] = a
	}
	return out
}

func isBPChar(a Bound) bool {
	return !a.Unknown() && a.T.OID == pgtypes.BPChar && a.E != nil && a.E.Type().ID() == expr.Text.ID()
}
