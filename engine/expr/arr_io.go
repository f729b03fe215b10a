package expr

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// Array text input and output: array_in ('{1,2,NULL}'::int[]) and
// array_out (an array's text, as ::text and the wire print it).

func malformedArray(s []byte, detail string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "malformed array literal: \"%s\"", s).WithDetail("%s", detail)
}

// arrayInError is the error of an array literal ParseArray refused.
func arrayInError(s []byte, err error) error {
	var se *pgtext.ArraySyntaxError
	var deep *pgtext.ArrayTooDeepError
	switch {
	case errors.As(err, &se):
		return malformedArray(s, se.Detail)
	case errors.As(err, &deep):
		return pgerr.New(pgerr.ProgramLimitExceeded, "%s", deep.Error())
	case errors.Is(err, pgtext.ErrArrayBounds):
		return pgerr.Unsupported("array literals with dimensions")
	}
	return err
}

// arrayIn is array_in: text -> list<T> (nested lists for arrays of more
// dimensions), each element read by T's input. A value of another number
// of dimensions than the type's is refused (dimsMismatch); '{}' fits any.
func (c *compiler) arrayIn(t *arrow.ListType) (kernelFn, error) {
	depth, leaf := listDepth(t)
	conv, err := castKernel(Text, leaf, c.tz)
	if err != nil {
		return nil, err
	}
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		src := readArrText(args[0])
		sb := array.NewStringBuilder(ev.mem)
		defer sb.Release()
		o := newMDOut(ev.mem, n, depth)
		dims := make([]int32, 0, pgtext.MaxArrayDims)
		for i := 0; i < n; i++ {
			s, ok := src.get(i)
			if !ok {
				o.endRow(true, nil)
				continue
			}
			a, err := pgtext.ParseArray(s)
			if err != nil {
				o.release()
				return vec{}, arrayInError(s, err)
			}
			if len(a.Dims) > 0 && len(a.Dims) != depth {
				o.release()
				return vec{}, dimsMismatch(len(a.Dims), depth)
			}
			for k, el := range a.Elems {
				if a.Null[k] {
					o.elem(-1)
					continue
				}
				o.elem(sb.Len())
				sb.BinaryBuilder.Append(el)
			}
			dims = dims[:0]
			for _, d := range a.Dims {
				dims = append(dims, int32(d))
			}
			o.endRow(false, dims)
		}
		texts := sb.NewArray()
		defer texts.Release()
		vals, err := conv(arrSubEval(ev, texts.Len()), []vec{{arr: texts}})
		if err != nil {
			o.release()
			return vec{}, err
		}
		defer vals.arr.Release()
		out, err := o.finish(ev, t, vals.arr)
		if err != nil {
			return vec{}, fmt.Errorf("array input: %w", err)
		}
		return vec{arr: out, c: cst}, nil
	}, nil
}

// arrayOut is array_out: {a,b,NULL}, elements double-quoted when empty,
// NULL in any case, or holding braces, commas, quotes, backslashes or
// white space.
func (c *compiler) arrayOut() kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if IsMultiDimList(args[0].arr.DataType()) {
			return c.arrayOutMD(ev, args)
		}
		n, cst := outLen(ev, args)
		lv := readListVec(args[0])
		var scratch []byte
		return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
			if lv.null(i) {
				return dst, false, nil
			}
			s, e := lv.bounds(i)
			dst = append(dst, '{')
			for j := s; j < e; j++ {
				if j > s {
					dst = append(dst, ',')
				}
				if lv.elemNull(j) {
					dst = pgtext.AppendArrayNull(dst)
					continue
				}
				scratch = appendElemText(scratch[:0], lv.vals, j, c)
				dst = pgtext.AppendArrayElement(dst, scratch)
			}
			return append(dst, '}'), true, nil
		})
	}
}

// arrayOutMD is array_out of nested lists: {{1,2},{3,4}}.
func (c *compiler) arrayOutMD(ev *evalCtx, args []vec) (vec, error) {
	n, cst := outLen(ev, args)
	mv := readMDVec(args[0])
	var scratch []byte
	var w pgtext.ArrayWriter
	dims := make([]int32, 0, mv.depth)
	return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
		if mv.null(i) {
			return dst, false, nil
		}
		var s, e int
		var err error
		dims, s, e, err = mv.row(i, dims)
		if err != nil {
			return dst, false, err
		}
		dst = w.Begin(dst, dims, nil)
		for j := s; j < e; j++ {
			dst = w.Next(dst)
			if mv.leaf.IsNull(j) {
				dst = pgtext.AppendArrayNull(dst)
				continue
			}
			scratch = appendElemText(scratch[:0], mv.leaf, j, c)
			dst = pgtext.AppendArrayElement(dst, scratch)
		}
		return w.End(dst), true, nil
	})
}
