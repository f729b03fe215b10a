package expr

import (
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// The element-wise forms of the checks of pg_assign.go, for arrays of the
// types Iceberg lacks (varchar(n)[], char(n)[], json[]), their elements
// stored as Iceberg strings. The array keeps its shape (any number of
// dimensions); n is a constant.
//
//	varchar_assign_elems(text[], int4 n)  text[]  each element as varchar_assign (22001)
//	bpchar_assign_elems(text[], int4 n)   text[]  each element as bpchar_assign (22001)
//	varchar_cast_elems(text[], int4 n)    text[]  each element cut to n characters (explicit cast)
//	bpchar_cast_elems(text[], int4 n)     text[]  each element cut to n characters, blank-padded to n
//	json_in_elems(text[])                 text[]  each element's JSON syntax checked (22P02)
//	bpchar_trim_elems(text[])             text[]  each element's trailing blanks removed (char(n)[] to text[])

func resolvePGAssignElems(fn string, args []arrow.DataType) (Resolved, bool, error) {
	var withLen bool
	switch fn {
	case "varchar_assign_elems", "bpchar_assign_elems", "varchar_cast_elems", "bpchar_cast_elems":
		withLen = true
	case "json_in_elems", "bpchar_trim_elems":
	default:
		return Resolved{}, false, nil
	}
	bad := func() (Resolved, bool, error) {
		return Resolved{}, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args))
	}
	if len(args) == 0 || withLen && (len(args) != 2 || !castsImplicitly(args[1], Int4)) || !withLen && len(args) != 1 {
		return bad()
	}
	list := args[0]
	switch d, leaf := listDepth(list); {
	case kindOf(list) == kNull:
		list = arrow.ListOf(Text)
	case d == 0 || kindOf(leaf) != kText:
		return bad()
	}
	out := []arrow.DataType{list}
	if withLen {
		out = append(out, Int4)
	}
	return Resolved{Args: out, Result: list}, true, nil
}

func kernelPGAssignElems(fn string) (kernelFn, bool) {
	var each func(dst, v []byte, n int) ([]byte, error)
	switch fn {
	case "varchar_assign_elems", "bpchar_assign_elems":
		pad := fn == "bpchar_assign_elems"
		each = func(dst, v []byte, n int) ([]byte, error) { return appendCharN(dst, v, n, pad) }
	case "varchar_cast_elems", "bpchar_cast_elems":
		pad := fn == "bpchar_cast_elems"
		each = func(dst, v []byte, n int) ([]byte, error) { return appendCutN(dst, v, n, pad), nil }
	case "bpchar_trim_elems":
		each = func(dst, v []byte, _ int) ([]byte, error) {
			n := len(v)
			for n > 0 && v[n-1] == ' ' {
				n--
			}
			return append(dst, v[:n]...), nil
		}
	case "json_in_elems":
		each = func(dst, v []byte, _ int) ([]byte, error) {
			if err := pgtext.ValidateJSON(v); err != nil {
				return nil, err
			}
			return append(dst, v...), nil
		}
	default:
		return nil, false
	}
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, args[0].arr.DataType(), args), nil
		}
		n := 0
		if len(args) == 2 {
			if !args[1].c {
				return vec{}, pgerr.New(pgerr.InternalError, "%s: the length is not a constant", fn)
			}
			n = int(values[int32](args[1].arr)[0])
		}
		leafK := dtTextRows(func(a []vec) func(dst []byte, i int) ([]byte, error) {
			s := binaryOf(a[0])
			return func(dst []byte, i int) ([]byte, error) { return each(dst, s.get(i), n) }
		})
		out, err := mapListLeaves(ev, args[0].arr, func(ev *evalCtx, leaf arrow.Array) (arrow.Array, error) {
			r, err := leafK(ev, []vec{{arr: leaf}})
			return r.arr, err
		})
		if err != nil {
			return vec{}, err
		}
		return vec{arr: out, c: args[0].c}, nil
	}, true
}

// mapListLeaves is a with f applied to the values of its innermost lists,
// its offsets and validity kept.
func mapListLeaves(ev *evalCtx, a arrow.Array, f func(ev *evalCtx, leaf arrow.Array) (arrow.Array, error)) (arrow.Array, error) {
	l, ok := a.(*array.List)
	if !ok {
		return f(ev, a)
	}
	vals := l.ListValues()
	cv, err := mapListLeaves(arrSubEval(ev, vals.Len()), vals, f)
	if err != nil {
		return nil, err
	}
	defer cv.Release()
	ld := l.Data()
	d := array.NewData(arrow.ListOf(cv.DataType()), ld.Len(), ld.Buffers(), []arrow.ArrayData{cv.Data()}, ld.NullN(), ld.Offset())
	defer d.Release()
	return array.MakeFromData(d), nil
}

// appendCutN appends v cut to n characters, as an explicit cast to
// character varying(n) does, and for character(n) (pad) blank-padded to n.
func appendCutN(dst, v []byte, n int, pad bool) []byte {
	seen := 0
	for i := range string(v) {
		if seen == n {
			v = v[:i]
			break
		}
		seen++
	}
	dst = append(dst, v...)
	if pad {
		for chars := utf8.RuneCount(v); chars < n; chars++ {
			dst = append(dst, ' ')
		}
	}
	return dst
}
