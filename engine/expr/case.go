package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// CASE evaluates each arm's result only on the rows that reach it, as
// PostgreSQL does: CASE WHEN x = 0 THEN 0 ELSE 1 / x END never divides by
// zero.

type caseNode struct {
	conds []node
	thens []node
	els   node // nil: NULL
	t     arrow.DataType
}

func (c *compiler) compileCase(e *Case) (node, error) {
	cn := &caseNode{t: e.T}
	for _, w := range e.Whens {
		cond, err := c.compile(w.Cond)
		if err != nil {
			return nil, err
		}
		then, err := c.compile(w.Then)
		if err != nil {
			return nil, err
		}
		cn.conds = append(cn.conds, cond)
		cn.thens = append(cn.thens, then)
	}
	if e.Else != nil {
		els, err := c.compile(e.Else)
		if err != nil {
			return nil, err
		}
		cn.els = els
	}
	return cn, nil
}

// subset evaluates nd over the given rows of the batch (nil rows: all).
func subset(ev *evalCtx, rows []int32, nd node) (vec, error) {
	if rows == nil {
		return nd.eval(ev)
	}
	sub := subEval(ev, rows)
	defer sub.release()
	return nd.eval(sub)
}

func (cn *caseNode) eval(ev *evalCtx) (vec, error) {
	n := ev.n
	arm := make([]int32, n) // arm per row; len(thens) = ELSE
	pos := make([]int32, n) // row's position within its arm's rows
	var remaining []int32   // nil = all rows
	armRows := make([][]int32, len(cn.thens)+1)
	allDone := false
	for k, cond := range cn.conds {
		cv, err := subset(ev, remaining, cond)
		if err != nil {
			return vec{}, err
		}
		m := len(remaining)
		if remaining == nil {
			m = n
		}
		var next []int32
		isNullType := cv.arr.DataType().ID() == arrow.NULL
		var bits boolBits
		if !isNullType {
			bits = boolsOf(cv)
		}
		valid := nullableValidity(cv)
		for p := 0; p < m; p++ {
			row := int32(p)
			if remaining != nil {
				row = remaining[p]
			}
			if !isNullType && valid.valid(p) && bits.get(p) {
				arm[row] = int32(k)
				pos[row] = int32(len(armRows[k]))
				armRows[k] = append(armRows[k], row)
			} else {
				next = append(next, row)
			}
		}
		cv.arr.Release()
		remaining = next
		if remaining == nil {
			remaining = []int32{}
		}
		if len(remaining) == 0 {
			allDone = true
			break
		}
	}
	elseArm := len(cn.thens)
	if !allDone {
		rows := remaining
		if rows == nil {
			rows = make([]int32, n)
			for i := range rows {
				rows[i] = int32(i)
			}
		}
		for p, row := range rows {
			arm[row] = int32(elseArm)
			pos[row] = int32(p)
		}
		armRows[elseArm] = rows
	}
	// Evaluate each arm on its rows.
	results := make([]vec, len(armRows))
	defer func() {
		for _, r := range results {
			if r.arr != nil {
				r.arr.Release()
			}
		}
	}()
	for k, rows := range armRows {
		if len(rows) == 0 {
			continue
		}
		var nd node
		if k < len(cn.thens) {
			nd = cn.thens[k]
		} else if cn.els != nil {
			nd = cn.els
		} else {
			continue
		}
		sel := rows
		if len(rows) == n && k == 0 {
			sel = nil // the first arm took every row: no need to copy
		}
		v, err := subset(ev, sel, nd)
		if err != nil {
			return vec{}, err
		}
		results[k] = v
	}
	// Assemble: row i is results[arm[i]] at pos[i].
	var parts []arrow.Array
	base := make([]int, len(results))
	off := 0
	for k, r := range results {
		base[k] = -1
		if r.arr == nil || r.arr.DataType().ID() == arrow.NULL {
			continue
		}
		base[k] = off
		parts = append(parts, r.arr)
		off += r.arr.Len()
	}
	if len(parts) == 0 {
		return vec{arr: makeNulls(ev.mem, cn.t, n)}, nil
	}
	ib := array.NewInt32Builder(ev.mem)
	defer ib.Release()
	ib.Reserve(n)
	for i := 0; i < n; i++ {
		k := arm[i]
		if base[k] < 0 {
			ib.UnsafeAppendBoolToBitmap(false)
			continue
		}
		ib.UnsafeAppend(int32(base[k]) + pos[i]&int32(results[k].idx()))
	}
	idx := ib.NewArray()
	defer idx.Release()
	var all arrow.Array
	if len(parts) == 1 {
		all = parts[0]
		all.Retain()
	} else {
		var err error
		if all, err = concat(ev.mem, parts); err != nil {
			return vec{}, err
		}
	}
	defer all.Release()
	out, err := takeArray(ev.ctx, ev.mem, all, idx)
	if err != nil {
		return vec{}, err
	}
	return vec{arr: out}, nil
}
