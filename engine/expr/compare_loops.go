package expr

// The inner loops of the typed comparison kernels: one loop per operator,
// each filling 64 result bits per word without per-row calls. > and >=
// are < and <= with the operands exchanged, <> is = inverted.

// cmpOrderedConst sets bit i of w when a[i] op x, for the n rows of a.
func cmpOrderedConst[T ordered](w []uint64, n int, a []T, x T, op cmpOp) {
	a = a[:n]
	for k := range w {
		base := k << 6
		blk := a[base:min(base+64, n)]
		var m uint64
		switch op {
		case opEq, opNe:
			for j, v := range blk {
				m |= b2u(v == x) << j
			}
			if op == opNe {
				m = ^m
			}
		case opLt:
			for j, v := range blk {
				m |= b2u(v < x) << j
			}
		case opLe:
			for j, v := range blk {
				m |= b2u(v <= x) << j
			}
		case opGt:
			for j, v := range blk {
				m |= b2u(x < v) << j
			}
		case opGe:
			for j, v := range blk {
				m |= b2u(x <= v) << j
			}
		}
		w[k] = m
	}
}

// cmpOrderedCols sets bit i of w when a[i] op b[i].
func cmpOrderedCols[T ordered](w []uint64, n int, a, b []T, op cmpOp) {
	a, b = a[:n], b[:n]
	if op == opGt || op == opGe {
		a, b, op = b, a, op.flip()
	}
	for k := range w {
		base := k << 6
		end := min(base+64, n)
		x, y := a[base:end], b[base:end]
		y = y[:len(x)]
		var m uint64
		switch op {
		case opEq, opNe:
			for j, v := range x {
				m |= b2u(v == y[j]) << j
			}
			if op == opNe {
				m = ^m
			}
		case opLt:
			for j, v := range x {
				m |= b2u(v < y[j]) << j
			}
		case opLe:
			for j, v := range x {
				m |= b2u(v <= y[j]) << j
			}
		}
		w[k] = m
	}
}
