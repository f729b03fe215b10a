package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
)

// A residual that is a conjunction of comparisons between two integer-like
// columns of the same type (TPC-H Q21's l2.l_suppkey <> l1.l_suppkey) is
// checked straight on the candidate pairs: the two values of each pair are
// read where they lie, with no columns gathered for the pairs and no
// boolean array evaluated. Any other residual goes through the expression
// engine (join_residual.go).

// pairCmp is one such comparison: column l of the pair schema op column r.
type pairCmp struct {
	op   cmpOp
	l, r int
}

type cmpOp uint8

const (
	cmpEq cmpOp = iota
	cmpNe
	cmpLt
	cmpLe
	cmpGt
	cmpGe
)

var cmpOps = map[string]cmpOp{"=": cmpEq, "<>": cmpNe, "<": cmpLt, "<=": cmpLe, ">": cmpGt, ">=": cmpGe}

// pairComparisons returns e as comparisons of two columns each, when it is
// a conjunction of nothing else and every compared pair has the same
// integer-like type; nil otherwise.
func pairComparisons(e expr.Expr, width int) []pairCmp {
	c, ok := e.(*expr.Call)
	if !ok || c.Go != nil {
		return nil
	}
	if c.Fn == "and" {
		var out []pairCmp
		for _, a := range c.Args {
			p := pairComparisons(a, width)
			if p == nil {
				return nil
			}
			out = append(out, p...)
		}
		return out
	}
	op, ok := cmpOps[c.Fn]
	if !ok || len(c.Args) != 2 {
		return nil
	}
	l, ok1 := c.Args[0].(*expr.Col)
	r, ok2 := c.Args[1].(*expr.Col)
	if !ok1 || !ok2 || l.Idx < 0 || r.Idx < 0 || l.Idx >= width || r.Idx >= width {
		return nil
	}
	if !arrow.TypeEqual(l.T, r.T) || !pairComparable(l.T) {
		return nil
	}
	return []pairCmp{{op: op, l: l.Idx, r: r.Idx}}
}

// pairComparable reports whether the values of type t compare as the
// signed integers they are stored as.
func pairComparable(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT16, arrow.INT32, arrow.DATE32, arrow.INT64, arrow.TIME64, arrow.TIMESTAMP:
		return true
	}
	return false
}

// pairSide is where column j of the pair schema lies for the chunk: its
// array and the pair positions (li or ri) indexing it.
func (o *joinOp) pairSide(j int, lcols, rcols []arrow.Array, li, ri []int32) (arrow.Array, []int32) {
	if nl := len(lcols); j < nl {
		return lcols[j], li
	}
	return rcols[j-len(lcols)], ri
}

// comparePairs keeps the chunk's pairs (p.li rows of lcols beside p.ri
// rows of rcols) for which every comparison of o.pairCmps is TRUE. It
// reports false, having changed nothing, when a column is not stored as
// the plain array its type says (a dictionary, say).
func (o *joinOp) comparePairs(lcols, rcols []arrow.Array) bool {
	p := &o.probe
	for _, c := range o.pairCmps {
		for _, j := range [2]int{c.l, c.r} {
			a, _ := o.pairSide(j, lcols, rcols, p.li, p.ri)
			if !arrow.TypeEqual(a.DataType(), o.pairSchema.Field(j).Type) || len(a.Data().Buffers()) < 2 || a.Data().Buffers()[1] == nil {
				return false
			}
		}
	}
	keep := p.keep[:0]
	for k := range p.li {
		keep = append(keep, int32(k))
	}
	for _, c := range o.pairCmps {
		la, lidx := o.pairSide(c.l, lcols, rcols, p.li, p.ri)
		ra, ridx := o.pairSide(c.r, lcols, rcols, p.li, p.ri)
		switch la.DataType().ID() {
		case arrow.INT16:
			keep = keepCompared(c.op, valuesOf[int16](la), valuesOf[int16](ra), la, ra, lidx, ridx, keep)
		case arrow.INT32, arrow.DATE32:
			keep = keepCompared(c.op, valuesOf[int32](la), valuesOf[int32](ra), la, ra, lidx, ridx, keep)
		default:
			keep = keepCompared(c.op, valuesOf[int64](la), valuesOf[int64](ra), la, ra, lidx, ridx, keep)
		}
	}
	for j, k := range keep {
		p.li[j], p.ri[j], p.isNull[j] = p.li[k], p.ri[k], p.isNull[k]
	}
	p.li, p.ri, p.isNull = p.li[:len(keep)], p.ri[:len(keep)], p.isNull[:len(keep)]
	p.keep = keep[:0]
	return true
}

// valuesOf is the values of a fixed-width array of Go type T, from its
// offset.
func valuesOf[T int16 | int32 | int64](a arrow.Array) []T {
	d := a.Data()
	var vals []T
	switch any(vals).(type) {
	case []int16:
		vals = any(arrow.Int16Traits.CastFromBytes(d.Buffers()[1].Bytes())).([]T)
	case []int32:
		vals = any(arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())).([]T)
	default:
		vals = any(arrow.Int64Traits.CastFromBytes(d.Buffers()[1].Bytes())).([]T)
	}
	return vals[d.Offset() : d.Offset()+d.Len()]
}

// keepCompared narrows keep (positions of pairs) to those whose values
// lv[lidx[k]] op rv[ridx[k]] compare TRUE: both values present and the
// comparison holding. Each loop writes every position and advances past
// the kept ones, without a branch on the outcome.
func keepCompared[T int16 | int32 | int64](op cmpOp, lv, rv []T, la, ra arrow.Array, lidx, ridx, keep []int32) []int32 {
	n := 0
	switch op {
	case cmpEq:
		for _, k := range keep {
			keep[n] = k
			n += b2i(lv[lidx[k]] == rv[ridx[k]])
		}
	case cmpNe:
		for _, k := range keep {
			keep[n] = k
			n += b2i(lv[lidx[k]] != rv[ridx[k]])
		}
	case cmpLt:
		for _, k := range keep {
			keep[n] = k
			n += b2i(lv[lidx[k]] < rv[ridx[k]])
		}
	case cmpLe:
		for _, k := range keep {
			keep[n] = k
			n += b2i(lv[lidx[k]] <= rv[ridx[k]])
		}
	case cmpGt:
		for _, k := range keep {
			keep[n] = k
			n += b2i(lv[lidx[k]] > rv[ridx[k]])
		}
	default:
		for _, k := range keep {
			keep[n] = k
			n += b2i(lv[lidx[k]] >= rv[ridx[k]])
		}
	}
	keep = keep[:n]
	if la.NullN() == 0 && ra.NullN() == 0 {
		return keep
	}
	// A NULL on either side compares as NULL, which is not TRUE.
	lval := validity{la.NullBitmapBytes(), la.Data().Offset(), la.NullN() > 0}
	rval := validity{ra.NullBitmapBytes(), ra.Data().Offset(), ra.NullN() > 0}
	out := keep[:0]
	for _, k := range keep {
		if lval.at(int(lidx[k])) && rval.at(int(ridx[k])) {
			out = append(out, k)
		}
	}
	return out
}

// b2i is 1 for true, 0 for false (compiled to a flag move, not a branch).
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}
