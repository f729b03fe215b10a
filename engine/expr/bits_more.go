package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Integer bit operators: & | # (xor) << >> and prefix ~ (not), over int2,
// int4 and int8 (both sides of & | # take the wider type; the shift count
// is int4, the result the left side's type). Prefix @ is abs (the
// binder's).

func resolveBits(fn string, args []arrow.DataType) (Resolved, bool, error) {
	n := len(args)
	switch fn {
	case "&", "|", "#":
		if n == 2 && kindOf(args[0]).isInt() && kindOf(args[1]).isInt() {
			t := args[0]
			if kindOf(args[1]) > kindOf(args[0]) {
				t = args[1]
			}
			return Resolved{Args: []arrow.DataType{t, t}, Result: t}, true, nil
		}
	case "<<", ">>":
		if n == 2 && kindOf(args[0]).isInt() && castsImplicitly(args[1], Int4) {
			return Resolved{Args: []arrow.DataType{args[0], Int4}, Result: args[0]}, true, nil
		}
	case "~":
		if n == 1 && kindOf(args[0]).isInt() {
			return Resolved{Args: []arrow.DataType{args[0]}, Result: args[0]}, true, nil
		}
	}
	return Resolved{}, false, nil
}

func kernelBits(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	switch fn {
	case "&", "|", "#", "<<", ">>":
		if len(ts) != 2 || !kindOf(ts[0]).isInt() {
			return nil, false, nil
		}
		switch kindOf(ts[0]) {
		case kInt2:
			return bitKernel[int16](fn, ts[0]), true, nil
		case kInt4:
			return bitKernel[int32](fn, ts[0]), true, nil
		}
		return bitKernel[int64](fn, ts[0]), true, nil
	case "~":
		if len(ts) != 1 || !kindOf(ts[0]).isInt() {
			return nil, false, nil
		}
		switch kindOf(ts[0]) {
		case kInt2:
			return bitKernel[int16](fn, ts[0]), true, nil
		case kInt4:
			return bitKernel[int32](fn, ts[0]), true, nil
		}
		return bitKernel[int64](fn, ts[0]), true, nil
	}
	return nil, false, nil
}

// bitKernel applies one bit operator row by row.
func bitKernel[T int16 | int32 | int64](fn string, t arrow.DataType) kernelFn {
	var zero T
	bits := uint(8 * unsafeSizeof(zero))
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, t, args), nil
		}
		n, c := outLen(ev, args)
		a, ma := values[T](args[0].arr), args[0].idx()
		valid, nulls := andValidity(ev.mem, n, args)
		buf, out := outBuf[T](ev.mem, n)
		if fn == "~" {
			for i := 0; i < n; i++ {
				out[i] = ^a[i&ma]
			}
			return vec{arr: makeFixed(t, n, valid, nulls, buf), c: c}, nil
		}
		mb := args[1].idx()
		switch fn {
		case "<<", ">>":
			s := values[int32](args[1].arr)
			for i := 0; i < n; i++ {
				// PostgreSQL shifts by the count modulo the width (the C
				// shift of its platforms).
				k := uint(s[i&mb]) % bits
				if fn == "<<" {
					out[i] = a[i&ma] << k
				} else {
					out[i] = a[i&ma] >> k
				}
			}
		default:
			b := values[T](args[1].arr)
			for i := 0; i < n; i++ {
				x, y := a[i&ma], b[i&mb]
				switch fn {
				case "&":
					out[i] = x & y
				case "|":
					out[i] = x | y
				default:
					out[i] = x ^ y
				}
			}
		}
		return vec{arr: makeFixed(t, n, valid, nulls, buf), c: c}, nil
	}
}

func unsafeSizeof[T int16 | int32 | int64](v T) int {
	switch any(v).(type) {
	case int16:
		return 2
	case int32:
		return 4
	}
	return 8
}
