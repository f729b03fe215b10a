package expr

import (
	"bytes"
)

// Typed comparison of text and bytea vectors: bytes order (the C
// collation), read straight from the offsets and data buffers.

// cmpBytes is the kernel of op over two text (or two bytea) vectors.
func cmpBytes(op cmpOp) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Bool, args), nil
		}
		n, c := outLen(ev, args)
		a, b := binaryOf(args[0]), binaryOf(args[1])
		valid, nulls := andValidity(ev.mem, n, args)
		vbuf, w := newWords(ev.mem, n)
		switch {
		case c:
			w[0] = b2u(op.test(bytes.Compare(a.get(0), b.get(0))))
		case args[1].c:
			cmpBytesConst(w, n, a, b.get(0), op)
		case args[0].c:
			cmpBytesConst(w, n, b, a.get(0), op.flip())
		default:
			cmpBytesCols(w, n, a, b, op)
		}
		return vec{arr: finishWords(vbuf, w, n, valid, nulls), c: c}, nil
	}
}

// cmpBytesConst sets bit i of w when row i of a op x.
func cmpBytesConst(w []uint64, n int, a bytesOf, x []byte, op cmpOp) {
	offs, data := a.offs[:n+1], a.data
	var ss strSet
	if op == opEq || op == opNe {
		ss = newStrSet([]string{string(x)})
	}
	for k := range w {
		base := k << 6
		end := min(base+64, n)
		var m uint64
		switch op {
		case opEq, opNe:
			m = ss.match(offs, data, base, end)
			if op == opNe {
				m = ^m
			}
		default:
			for i := base; i < end; i++ {
				m |= b2u(op.test(bytes.Compare(data[offs[i]:offs[i+1]], x))) << (i - base)
			}
		}
		w[k] = m
	}
}

// cmpBytesCols sets bit i of w when row i of a op row i of b.
func cmpBytesCols(w []uint64, n int, a, b bytesOf, op cmpOp) {
	ao, bo := a.offs[:n+1], b.offs[:n+1]
	for k := range w {
		base := k << 6
		end := min(base+64, n)
		var m uint64
		switch op {
		case opEq, opNe:
			for i := base; i < end; i++ {
				as, ae, bs, be := ao[i], ao[i+1], bo[i], bo[i+1]
				m |= b2u(ae-as == be-bs && string(a.data[as:ae]) == string(b.data[bs:be])) << (i - base)
			}
			if op == opNe {
				m = ^m
			}
		default:
			for i := base; i < end; i++ {
				m |= b2u(op.test(bytes.Compare(a.data[ao[i]:ao[i+1]], b.data[bo[i]:bo[i+1]]))) << (i - base)
			}
		}
		w[k] = m
	}
}
