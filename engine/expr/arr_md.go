package expr

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
)

// PostgreSQL's multi-dimensional arrays are nested Arrow lists, one list
// level per dimension: int[] of two dimensions is list<list<int32>>. The
// number of dimensions is thus the type's, fixed per expression; an empty
// array (no dimensions in PostgreSQL) is an empty outer list at any depth.
// A value is rectangular: every sub-list of one level has the same length
// and none is NULL (the kernels refuse others, which only files written by
// other engines can hold). The kernels read a row as its dimension
// lengths and the run of its elements in the innermost values array,
// which the row-major order of nested lists keeps contiguous.

// listDepth is the number of list levels of t (0 for other types) and the
// type of its innermost elements.
func listDepth(t arrow.DataType) (int, arrow.DataType) {
	d := 0
	for {
		lt, ok := t.(*arrow.ListType)
		if !ok {
			return d, t
		}
		d++
		t = lt.Elem()
	}
}

// IsMultiDimList reports whether t is a list of lists of a scalar type:
// the Arrow type of an array of two or more dimensions.
func IsMultiDimList(t arrow.DataType) bool {
	d, leaf := listDepth(t)
	return d >= 2 && !isNestedType(leaf)
}

// MultiDimList is the Arrow type of arrays of ndims dimensions of elem.
func MultiDimList(elem arrow.DataType, ndims int) arrow.DataType {
	t := elem
	for range ndims {
		t = arrow.ListOf(t)
	}
	return t
}

// mdVec reads a vector of (possibly nested) lists by row.
type mdVec struct {
	levels []*array.List // levels[0] the vector's own lists
	leaf   arrow.Array
	valid  bitmap
	m      int
	depth  int
}

func readMDVec(v vec) mdVec {
	mv := mdVec{valid: nullableValidity(v), m: v.idx()}
	l, ok := v.arr.(*array.List)
	for ok {
		mv.levels = append(mv.levels, l)
		mv.leaf = l.ListValues()
		l, ok = mv.leaf.(*array.List)
	}
	mv.depth = len(mv.levels)
	return mv
}

func (mv mdVec) null(i int) bool { return mv.levels == nil || !mv.valid.valid(i) }

func raggedArray() *pgerr.Error {
	return pgerr.New(pgerr.ArraySubscriptError, "multidimensional arrays must have sub-arrays with matching dimensions").
		WithDetail("The stored value has sub-arrays of different lengths or NULL sub-arrays, which a PostgreSQL array cannot hold.")
}

// row reads row i (not NULL): its dimension lengths, appended to dims[:0]
// (none for an empty array), and its elements' run [ls, le) in leaf.
func (mv mdVec) row(i int, dims []int32) ([]int32, int, int, error) {
	dims = dims[:0]
	s64, e64 := mv.levels[0].ValueOffsets(i & mv.m)
	s, e := int(s64), int(e64)
	if s == e {
		return dims, 0, 0, nil
	}
	dims = append(dims, int32(e-s))
	for k := 1; k < mv.depth; k++ {
		l := mv.levels[k]
		fs, fe := l.ValueOffsets(s)
		n := fe - fs
		for j := s; j < e; j++ {
			if l.IsNull(j) {
				return dims, 0, 0, raggedArray()
			}
			js, je := l.ValueOffsets(j)
			if je-js != n {
				return dims, 0, 0, raggedArray()
			}
		}
		if n == 0 {
			// Empty sub-lists: PostgreSQL's only empty array is {}.
			return dims[:0], 0, 0, nil
		}
		_, le := l.ValueOffsets(e - 1)
		s, e = int(fs), int(le)
		dims = append(dims, int32(n))
	}
	return dims, s, e, nil
}

// mdOut builds a result of nested lists: per row NULL, or dimension
// lengths and the row-major run of element positions into a source array
// (-1 for a NULL element).
type mdOut struct {
	depth int
	n     int
	rows  int
	valid []byte
	nulls int
	dims  [][]int32 // per row; nil for NULL and empty rows
	idx   *array.Int32Builder
}

func newMDOut(mem memory.Allocator, n, depth int) *mdOut {
	return &mdOut{depth: depth, n: n, valid: make([]byte, bitutil.BytesForBits(int64(n))), dims: make([][]int32, 0, n),
		idx: array.NewInt32Builder(mem)}
}

func (o *mdOut) elem(j int) {
	if j < 0 {
		o.idx.AppendNull()
		return
	}
	o.idx.Append(int32(j))
}

// endRow closes the current row: NULL, or an array of dims (empty when
// dims is empty or holds a 0) of the elements appended since the last
// endRow, whose count must be the product of dims.
func (o *mdOut) endRow(null bool, dims []int32) {
	if null {
		o.nulls++
		o.dims = append(o.dims, nil)
		o.rows++
		return
	}
	bitutil.SetBit(o.valid, o.rows)
	o.rows++
	for _, d := range dims {
		if d == 0 {
			dims = nil
			break
		}
	}
	if len(dims) == 0 {
		o.dims = append(o.dims, nil)
		return
	}
	o.dims = append(o.dims, append([]int32(nil), dims...))
}

func (o *mdOut) release() { o.idx.Release() }

// finish gathers the elements from src (nil when none was appended) into
// an array of type t, a list type of o.depth levels.
func (o *mdOut) finish(ev *evalCtx, t arrow.DataType, src arrow.Array) (arrow.Array, error) {
	defer o.idx.Release()
	types := make([]arrow.DataType, o.depth+1)
	types[0] = t
	for k := 1; k <= o.depth; k++ {
		lt, ok := types[k-1].(*arrow.ListType)
		if !ok {
			return nil, fmt.Errorf("array result type %s has fewer than %d list levels", t, o.depth)
		}
		types[k] = lt.Elem()
	}
	idx := o.idx.NewArray()
	defer idx.Release()
	var child arrow.ArrayData
	if src == nil || idx.Len() == 0 {
		nulls := makeNulls(ev.mem, types[o.depth], 0)
		defer nulls.Release()
		child = nulls.Data()
	} else {
		taken, err := takeArray(ev.ctx, ev.mem, src, idx)
		if err != nil {
			return nil, fmt.Errorf("gather array elements: %w", err)
		}
		defer taken.Release()
		child = taken.Data()
	}
	child.Retain()
	for k := o.depth - 1; k >= 0; k-- {
		// Level k holds, per row, prod(dims[:k]) lists of dims[k] items
		// (level 0: one list per row, NULL and empty rows included).
		offs := []int32{0}
		count := 0
		for _, dims := range o.dims {
			if k == 0 {
				n := int32(0)
				if dims != nil {
					n = dims[0]
				}
				offs = append(offs, offs[len(offs)-1]+n)
				count++
				continue
			}
			if dims == nil {
				continue
			}
			lists := int32(1)
			for _, d := range dims[:k] {
				lists *= d
			}
			for range lists {
				offs = append(offs, offs[len(offs)-1]+dims[k])
				count++
			}
		}
		offBuf, ob := outBuf[int32](ev.mem, len(offs))
		copy(ob, offs)
		var validBuf *memory.Buffer
		nulls := 0
		if k == 0 && o.nulls > 0 {
			validBuf = memory.NewResizableBuffer(ev.mem)
			validBuf.Resize(len(o.valid))
			copy(validBuf.Bytes(), o.valid)
			nulls = o.nulls
		}
		d := array.NewData(types[k], count, []*memory.Buffer{validBuf, offBuf}, []arrow.ArrayData{child}, nulls, 0)
		offBuf.Release()
		if validBuf != nil {
			validBuf.Release()
		}
		child.Release()
		child = d
	}
	defer child.Release()
	return array.MakeFromData(child), nil
}

// dimsMismatch is a value of got dimensions where the type holds arrays of
// want: PostgreSQL's arrays carry their dimensions per value, icegate's per
// type (and per table column).
func dimsMismatch(got, want int) *pgerr.Error {
	return pgerr.New(pgerr.FeatureNotSupported, "array of %d %s where arrays of %d %s are held is not supported",
		got, plural(got, "dimension", "dimensions"), want, plural(want, "dimension", "dimensions")).
		WithHint("icegate keeps one number of dimensions per column and per expression: a table column the number it is declared with (integer[][] for two), an expression that of the arrays it computes, a cast of text that is not a constant one.")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// mdFlatten is array_flatten: the elements of a nested list in row-major
// order as a one-dimensional list (what unnest, array_to_string and the
// containment operators see of a multi-dimensional array).
func mdFlatten(t *arrow.ListType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		mv := readMDVec(args[0])
		o := newListOut(ev.mem, n)
		var dims []int32
		for i := 0; i < n; i++ {
			if mv.null(i) {
				o.endRow(true)
				continue
			}
			var s, e int
			var err error
			dims, s, e, err = mv.row(i, dims)
			if err != nil {
				o.idx.Release()
				return vec{}, err
			}
			for j := s; j < e; j++ {
				if mv.leaf.IsNull(j) {
					o.elem(-1)
				} else {
					o.elem(j)
				}
			}
			o.endRow(false)
		}
		var src arrow.Array
		if mv.levels != nil {
			src = mv.leaf
		}
		out, err := o.finish(ev, t, src)
		return vec{arr: out, c: c}, err
	}
}

// flatteningFns are the array functions that see a multi-dimensional
// array as its elements in row-major order, as PostgreSQL's do.
var flatteningFns = map[string]bool{"array_to_string": true, "@>": true, "<@": true, "&&": true}

// flatType is t with its list levels folded into one.
func flatType(t arrow.DataType) arrow.DataType {
	if !IsMultiDimList(t) {
		return t
	}
	_, leaf := listDepth(t)
	return arrow.ListOf(leaf)
}

// resolveMultiDim types the array functions whose arguments include an
// array of several dimensions (nested lists); ok is false when none does
// (and for functions that take one-dimensional arrays only).
func resolveMultiDim(fn string, args []arrow.DataType) (Resolved, bool, error) {
	md := -1
	for j, a := range args {
		if _, isList := listElem(a); IsMultiDimList(a) || (fn == "array" && isList) {
			md = j
			break
		}
	}
	n := len(args)
	isInt := func(j int) bool { k := kindOf(args[j]); return k.isInt() || k == kNull }
	switch {
	case fn == "array_flatten":
		if n != 1 || !isListOrNull(args[0]) {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		return Resolved{Args: args, Result: flatType(args[0])}, true, nil
	case fn == "array_subscript" && n > 2, fn == "array_slice" && n > 3:
		// Several subscripts: a[i][j], a[lo:hi][lo:hi].
		if _, ok := listElem(args[0]); !ok || (fn == "array_slice" && n%2 == 0) {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		out := make([]arrow.DataType, n)
		out[0] = args[0]
		for j := 1; j < n; j++ {
			if !isInt(j) {
				return Resolved{}, true, noArrayFunction(fn, args)
			}
			out[j] = Int4
		}
		res := args[0]
		if fn == "array_subscript" {
			_, res = listDepth(args[0])
		}
		return Resolved{Args: out, Result: res}, true, nil
	case md < 0, strings.HasPrefix(fn, "any:"), strings.HasPrefix(fn, "all:"):
		return Resolved{}, false, nil // resolveQuantified flattens
	}
	switch fn {
	case "array":
		// ARRAY[a, b] of arrays: one dimension more; the elements take
		// their common type, every argument the same number of
		// dimensions.
		depth, _ := listDepth(args[md])
		leaves := make([]arrow.DataType, 0, n)
		for _, a := range args {
			if kindOf(a) == kNull {
				continue
			}
			d, leaf := listDepth(a)
			if d == 0 {
				return Resolved{}, true, pgerr.New(pgerr.DatatypeMismatch, "ARRAY types %s and %s cannot be matched", arrTypeName(args[md]), arrTypeName(a))
			}
			if d != depth {
				return Resolved{}, true, pgerr.New(pgerr.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
			}
			leaves = append(leaves, leaf)
		}
		leaf, err := CommonType("ARRAY", leaves)
		if err != nil {
			return Resolved{}, true, err
		}
		t := MultiDimList(leaf, depth)
		out := make([]arrow.DataType, n)
		for j := range out {
			out[j] = t
		}
		return Resolved{Args: out, Result: arrow.ListOf(t)}, true, nil
	case "array_subscript":
		if md != 0 || n != 2 || !isInt(1) {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		_, leaf := listDepth(args[0])
		return Resolved{Args: []arrow.DataType{args[0], Int4}, Result: leaf}, true, nil
	case "array_slice", "array_length", "array_lower", "array_upper", "cardinality", "array_ndims", "array_dims", "array_out":
		if md != 0 {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		return Resolved{}, false, nil // as for one dimension
	case "array_eq", "array_ne", "array_lt", "array_le", "array_gt", "array_ge":
		// anyarray operators: both sides arrays of one element type, of
		// any numbers of dimensions.
		op := arrayCompareOps[fn]
		if n != 2 || !isListOrNull(args[0]) || !isListOrNull(args[1]) {
			return Resolved{}, true, noArrayOperator(op, args[0], args[1])
		}
		out := []arrow.DataType{args[0], args[1]}
		for j := range out {
			if kindOf(out[j]) == kNull {
				out[j] = args[md]
			}
		}
		_, l0 := listDepth(out[0])
		_, l1 := listDepth(out[1])
		if PGTypeName(l0) != PGTypeName(l1) || comparableElem(l0) != nil {
			return Resolved{}, true, noArrayOperator(op, args[0], args[1])
		}
		return Resolved{Args: out, Result: Bool}, true, nil
	}
	if fn == "array_cat" {
		// array || array of several dimensions: one of the same
		// dimensions appended along the first, or one of a dimension
		// less appended as its last element (mdCat).
		if n != 2 || !isListOrNull(args[0]) || !isListOrNull(args[1]) {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		depth := 0
		var leaves []arrow.DataType
		for _, a := range args {
			if d, leaf := listDepth(a); d > 0 {
				depth = max(depth, d)
				leaves = append(leaves, leaf)
			}
		}
		leaf, err := CommonType("array_cat", leaves)
		if err != nil {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		res := MultiDimList(leaf, depth)
		out := make([]arrow.DataType, n)
		for j, a := range args {
			out[j] = res
			if d, _ := listDepth(a); d > 0 {
				out[j] = MultiDimList(leaf, d)
			}
		}
		return Resolved{Args: out, Result: res}, true, nil
	}
	if flatteningFns[fn] {
		flat := make([]arrow.DataType, n)
		for j, a := range args {
			flat[j] = flatType(a)
		}
		r, _, err := resolveArrayFn(fn, flat)
		if err != nil {
			return Resolved{}, true, err
		}
		for j, a := range args {
			if IsMultiDimList(a) {
				r.Args[j] = a // the kernel flattens it
			}
		}
		return r, true, nil
	}
	if fn == "array_position" || fn == "array_positions" {
		return Resolved{}, true, pgerr.New(pgerr.FeatureNotSupported, "searching for elements in multidimensional arrays is not supported")
	}
	switch fn {
	case "array_append", "array_prepend":
		return Resolved{}, true, pgerr.New(pgerr.DataException, "argument must be empty or one-dimensional array")
	case "array_remove":
		return Resolved{}, true, pgerr.New(pgerr.FeatureNotSupported, "removing elements from multidimensional arrays is not supported")
	case "array_replace":
		return Resolved{}, true, pgerr.NotYet(fn + " of multidimensional arrays")
	}
	return Resolved{}, false, nil // JSON and the other functions read nested lists as they are
}

// multiDimKernel picks the kernel of an array function over arrays of
// several dimensions (resolveMultiDim typed it); ok is false for calls
// the one-dimensional kernels serve.
func (c *compiler) multiDimKernel(fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	md := false
	for _, t := range ts {
		if _, isList := listElem(t); IsMultiDimList(t) || (fn == "array" && isList) {
			md = true
		}
	}
	resList, _ := res.(*arrow.ListType)
	switch {
	case fn == "array_flatten":
		if resList == nil {
			return nil, true, noArrayFunction(fn, ts)
		}
		return mdFlatten(resList), true, nil
	case fn == "array_subscript" && (md || len(ts) > 2):
		return mdSubscript, true, nil
	case fn == "array_slice" && (md || len(ts) > 3):
		if resList == nil {
			return nil, true, noArrayFunction(fn, ts)
		}
		return mdSlice(resList), true, nil
	case !md:
		return nil, false, nil
	case fn == "array":
		if resList == nil {
			return nil, true, noArrayFunction(fn, ts)
		}
		return mdCtor(resList), true, nil
	case flatteningFns[fn]:
		flat := make([]arrow.DataType, len(ts))
		var at []int
		for j, t := range ts {
			flat[j] = flatType(t)
			if IsMultiDimList(t) {
				at = append(at, j)
			}
		}
		k, _, err := c.arrayKernel(fn, flat, res)
		if err != nil {
			return nil, true, err
		}
		return flattenFirst(flat, at, k), true, nil
	}
	if _, ok := arrayCompareOps[fn]; ok {
		return mdCmpKernel(cmpOpOf(arrayCompareOps[fn])), true, nil
	}
	if fn == "array_cat" && resList != nil && len(ts) == 2 {
		return mdCat(resList), true, nil
	}
	return nil, false, nil
}

// flattenFirst flattens the arguments at positions at (to the list types
// of flat) before k runs.
func flattenFirst(flat []arrow.DataType, at []int, k kernelFn) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		conv := append([]vec(nil), args...)
		var done []int
		defer func() {
			for _, j := range done {
				conv[j].arr.Release()
			}
		}()
		for _, j := range at {
			v, err := mdFlatten(flat[j].(*arrow.ListType))(arrSubEval(ev, args[j].arr.Len()), args[j:j+1])
			if err != nil {
				return vec{}, err
			}
			v.c = args[j].c
			conv[j] = v
			done = append(done, j)
		}
		return k(ev, conv)
	}
}

// mdCtor is ARRAY[a, b, ...] over arrays: an array of one dimension more
// whose sub-arrays are the arguments. NULL and empty arguments make an
// empty array when all are; else every argument must have the same
// dimensions (2202E).
func mdCtor(t *arrow.ListType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		mvs := make([]mdVec, len(args))
		leaves := make([]arrow.Array, len(args))
		for j, a := range args {
			mvs[j] = readMDVec(a)
			if mvs[j].levels != nil {
				leaves[j] = mvs[j].leaf
			}
		}
		src, base, err := arrConcat(ev.mem, leaves...)
		if err != nil {
			return vec{}, err
		}
		if src != nil {
			defer src.Release()
		}
		depth, _ := listDepth(t)
		o := newMDOut(ev.mem, n, depth)
		var first, dims, out []int32
		type run struct{ s, e, base int }
		runs := make([]run, len(args))
		for i := 0; i < n; i++ {
			empty, full := 0, 0
			for j := range args {
				if mvs[j].null(i) {
					empty++
					continue
				}
				var s, e int
				dims, s, e, err = mvs[j].row(i, dims)
				if err != nil {
					o.release()
					return vec{}, err
				}
				if len(dims) == 0 {
					empty++
					continue
				}
				if full == 0 {
					first = append(first[:0], dims...)
				} else if !equalInt32s(first, dims) {
					o.release()
					return vec{}, pgerr.New(pgerr.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
				}
				full++
				runs[j] = run{s, e, base[j]}
			}
			if full == 0 {
				o.endRow(false, nil)
				continue
			}
			if empty > 0 {
				o.release()
				return vec{}, pgerr.New(pgerr.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
			}
			for _, r := range runs {
				for p := r.s; p < r.e; p++ {
					o.elem(r.base + p)
				}
			}
			out = append(append(out[:0], int32(len(args))), first...)
			o.endRow(false, out)
		}
		res, err := o.finish(ev, t, src)
		return vec{arr: res, c: c}, err
	}
}

func equalInt32s(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// mdSubscript is a[i][j]...: the element at those subscripts, NULL when
// their number is not the array's number of dimensions or one is outside
// its dimension.
func mdSubscript(ev *evalCtx, args []vec) (vec, error) {
	n, c := outLen(ev, args)
	mv := readMDVec(args[0])
	subs := make([]arrInt4, len(args)-1)
	for j := range subs {
		subs[j] = readArrInt4(args[j+1])
	}
	_, leafT := listDepth(args[0].arr.DataType())
	ib := array.NewInt32Builder(ev.mem)
	defer ib.Release()
	ib.Reserve(n)
	var dims []int32
	for i := 0; i < n; i++ {
		if mv.null(i) {
			ib.UnsafeAppendBoolToBitmap(false)
			continue
		}
		var s int
		var err error
		dims, s, _, err = mv.row(i, dims)
		if err != nil {
			return vec{}, err
		}
		pos, ok := -1, len(dims) == len(subs)
		if ok {
			pos = 0
			for k, sub := range subs {
				v, valid := sub.get(i)
				if !valid || v < 1 || v > dims[k] {
					ok = false
					break
				}
				pos = pos*int(dims[k]) + int(v-1)
			}
		}
		if !ok || mv.leaf.IsNull(s+pos) {
			ib.UnsafeAppendBoolToBitmap(false)
			continue
		}
		ib.UnsafeAppend(int32(s + pos))
	}
	idx := ib.NewArray()
	defer idx.Release()
	if mv.levels == nil {
		return vec{arr: makeNulls(ev.mem, leafT, n), c: c}, nil
	}
	out, err := takeArray(ev.ctx, ev.mem, mv.leaf, idx)
	if err != nil {
		return vec{}, fmt.Errorf("array subscript: %w", err)
	}
	return vec{arr: out, c: c}, nil
}

// mdSlice is a[lo:hi][lo:hi]...: per dimension the subscripts from lo to
// hi clamped to it (a NULL bound open), dimensions without bounds whole;
// an empty array when one range is empty or there are more ranges than
// dimensions.
func mdSlice(t *arrow.ListType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		mv := readMDVec(args[0])
		k := (len(args) - 1) / 2
		bounds := make([]arrInt4, 2*k)
		for j := range bounds {
			bounds[j] = readArrInt4(args[j+1])
		}
		depth, _ := listDepth(t)
		o := newMDOut(ev.mem, n, depth)
		var dims, from, to, out []int32
		for i := 0; i < n; i++ {
			if mv.null(i) {
				o.endRow(true, nil)
				continue
			}
			var s int
			var err error
			dims, s, _, err = mv.row(i, dims)
			if err != nil {
				o.release()
				return vec{}, err
			}
			if len(dims) == 0 || k > len(dims) {
				o.endRow(false, nil)
				continue
			}
			from, to, out = from[:0], to[:0], out[:0]
			for d := range dims {
				lo, hi := int32(1), dims[d]
				if d < k {
					if v, ok := bounds[2*d].get(i); ok {
						lo = max(lo, v)
					}
					if v, ok := bounds[2*d+1].get(i); ok {
						hi = min(hi, v)
					}
				}
				from, to, out = append(from, lo), append(to, hi), append(out, max(0, hi-lo+1))
			}
			// Walk the kept subscripts in row-major order.
			cnt := int32(1)
			for _, x := range out {
				cnt *= x
			}
			if cnt > 0 {
				cur := append([]int32(nil), from...)
				for {
					pos := 0
					for d := range dims {
						pos = pos*int(dims[d]) + int(cur[d]-1)
					}
					o.elem(s + pos)
					d := len(cur) - 1
					for d >= 0 {
						cur[d]++
						if cur[d] <= to[d] {
							break
						}
						cur[d] = from[d]
						d--
					}
					if d < 0 {
						break
					}
				}
			}
			o.endRow(false, out)
		}
		var src arrow.Array
		if mv.levels != nil {
			src = mv.leaf
		}
		res, err := o.finish(ev, t, src)
		return vec{arr: res, c: c}, err
	}
}

// mdCmpKernel orders arrays of any numbers of dimensions as PostgreSQL's
// array_cmp: element by element in row-major order (NULL equal to NULL
// and above any value), then the one with fewer elements first, then
// fewer dimensions, then smaller dimension lengths.
func mdCmpKernel(op cmpOp) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		a, b := readMDVec(args[0]), readMDVec(args[1])
		if a.levels == nil || b.levels == nil {
			return nullResult(ev, Bool, args), nil
		}
		cmp, err := elemComparer(a.leaf, b.leaf)
		if err != nil {
			return vec{}, err
		}
		var da, db []int32
		var rowErr error
		res := arrBoolRows(ev, n, c, func(i int) (bool, bool) {
			if a.null(i) || b.null(i) || rowErr != nil {
				return false, false
			}
			var as, ae, bs, be int
			da, as, ae, rowErr = a.row(i, da)
			if rowErr != nil {
				return false, false
			}
			db, bs, be, rowErr = b.row(i, db)
			if rowErr != nil {
				return false, false
			}
			r := arrayCmp(as, ae, bs, be, a.leaf.IsNull, b.leaf.IsNull, cmp, da, db)
			return op.test(r), true
		})
		if rowErr != nil {
			res.arr.Release()
			return vec{}, rowErr
		}
		return res, nil
	}
}

// arrayCmp is array_cmp's order of two arrays: their elements x[xs:xe]
// and y[ys:ye] in turn (NULL after every value), then the fewer elements
// first, then the fewer dimensions, then the smaller dimensions (dx, dy;
// nil for one-dimensional arrays).
func arrayCmp(xs, xe, ys, ye int, xNull, yNull func(int) bool, cmp func(i, j int) int, dx, dy []int32) int {
	r := 0
	for k := 0; r == 0 && xs+k < xe && ys+k < ye; k++ {
		xn, yn := xNull(xs+k), yNull(ys+k)
		switch {
		case xn && yn:
		case xn:
			r = 1
		case yn:
			r = -1
		default:
			r = cmp(xs+k, ys+k)
		}
	}
	if r == 0 {
		r = cmpOrd(int64(xe-xs), int64(ye-ys))
	}
	if r == 0 {
		r = cmpOrd(int64(len(dx)), int64(len(dy)))
	}
	for k := 0; r == 0 && k < len(dx) && k < len(dy); k++ {
		r = cmpOrd(int64(dx[k]), int64(dy[k]))
	}
	return r
}

// ArrayLeaf is the number of list levels of t and its innermost element
// type (t itself and 0 for types that are not lists).
func ArrayLeaf(t arrow.DataType) (int, arrow.DataType) { return listDepth(t) }

// listComparator orders rows of list (array) vectors of one element type
// as array_cmp does (mdCmpKernel), for sorts: neither row may be NULL. A
// ragged value, which only other writers can store, compares by its
// elements alone.
func listComparator(a, b arrow.Array) (func(i, j int) int, error) {
	_, isList := b.(*array.List)
	if !isList {
		return nil, fmt.Errorf("compare %s with %s", a.DataType(), b.DataType())
	}
	x, y := readMDVec(vec{arr: a}), readMDVec(vec{arr: b})
	_, lx := listDepth(a.DataType())
	_, ly := listDepth(b.DataType())
	if PGTypeName(lx) != PGTypeName(ly) {
		return nil, fmt.Errorf("compare %s with %s", a.DataType(), b.DataType())
	}
	cmp, err := elemComparer(x.leaf, y.leaf)
	if err != nil {
		return nil, err
	}
	var dx, dy []int32
	return func(i, j int) int {
		var xs, xe, ys, ye int
		dx, xs, xe, _ = x.row(i, dx)
		dy, ys, ye, _ = y.row(j, dy)
		r := arrayCmp(xs, xe, ys, ye, x.leaf.IsNull, y.leaf.IsNull, cmp, dx, dy)
		return r
	}, nil
}

func incompatibleArrays(detail string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.ArraySubscriptError, "cannot concatenate incompatible arrays").WithDetail(detail, args...)
}

// mdCat is array_cat (array || array) over arrays of several dimensions,
// as PostgreSQL's: a NULL or empty side gives the other; two arrays of
// the same dimensions but the first are joined along the first; an array
// of one dimension less is appended (or prepended) as one more element of
// the first dimension. Other shapes are 2202E.
func mdCat(t *arrow.ListType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		x, y := readMDVec(args[0]), readMDVec(args[1])
		var lx, ly arrow.Array
		if x.levels != nil {
			lx = x.leaf
		}
		if y.levels != nil {
			ly = y.leaf
		}
		src, base, err := arrConcat(ev.mem, lx, ly)
		if err != nil {
			return vec{}, err
		}
		if src != nil {
			defer src.Release()
		}
		depth, _ := listDepth(t)
		o := newMDOut(ev.mem, n, depth)
		var dx, dy, out []int32
		fail := func(err error) (vec, error) {
			o.release()
			return vec{}, err
		}
		for i := 0; i < n; i++ {
			nx, ny := x.null(i), y.null(i)
			if nx && ny {
				o.endRow(true, nil)
				continue
			}
			var xs, xe, ys, ye int
			dx, dy = dx[:0], dy[:0]
			if !nx {
				if dx, xs, xe, err = x.row(i, dx); err != nil {
					return fail(err)
				}
			}
			if !ny {
				if dy, ys, ye, err = y.row(i, dy); err != nil {
					return fail(err)
				}
			}
			switch {
			case len(dx) == 0 && len(dy) == 0:
				out = out[:0]
			case len(dx) == 0:
				out = append(out[:0], dy...)
			case len(dy) == 0:
				out = append(out[:0], dx...)
			case len(dx) == len(dy):
				if !equalInt32s(dx[1:], dy[1:]) {
					return fail(incompatibleArrays("Arrays with differing element dimensions are not compatible for concatenation."))
				}
				out = append(append(out[:0], dx[0]+dy[0]), dx[1:]...)
			case len(dx)+1 == len(dy):
				if !equalInt32s(dx, dy[1:]) {
					return fail(incompatibleArrays("Arrays with differing dimensions are not compatible for concatenation."))
				}
				out = append(append(out[:0], dy[0]+1), dy[1:]...)
			case len(dx) == len(dy)+1:
				if !equalInt32s(dx[1:], dy) {
					return fail(incompatibleArrays("Arrays with differing dimensions are not compatible for concatenation."))
				}
				out = append(append(out[:0], dx[0]+1), dx[1:]...)
			default:
				return fail(incompatibleArrays("Arrays of %d and %d dimensions are not compatible for concatenation.", len(dx), len(dy)))
			}
			if len(out) > 0 && len(out) != depth {
				return fail(dimsMismatch(len(out), depth))
			}
			if len(dx) > 0 {
				for p := xs; p < xe; p++ {
					o.elem(base[0] + p)
				}
			}
			if len(dy) > 0 {
				for p := ys; p < ye; p++ {
					o.elem(base[1] + p)
				}
			}
			o.endRow(false, out)
		}
		res, err := o.finish(ev, t, src)
		return vec{arr: res, c: c}, err
	}
}

// CheckAccumulated checks the result of array_agg over arrays (a list of
// arrays per group) as PostgreSQL's accumArrayResultArr does: no NULL
// (22004) or empty (2202E) array, all of one shape (2202E).
func CheckAccumulated(a arrow.Array) error {
	l, ok := a.(*array.List)
	if !ok {
		return nil
	}
	sub := readMDVec(vec{arr: l.ListValues()})
	if sub.levels == nil {
		return nil
	}
	var first, dims []int32
	for i := 0; i < l.Len(); i++ {
		if l.IsNull(i) {
			continue
		}
		s, e := l.ValueOffsets(i)
		for j := int(s); j < int(e); j++ {
			if sub.null(j) {
				return pgerr.New(pgerr.NullValueNotAllowed, "cannot accumulate null arrays")
			}
			var err error
			if dims, _, _, err = sub.row(j, dims); err != nil {
				return err
			}
			if len(dims) == 0 && j == int(s) {
				return pgerr.New(pgerr.ArraySubscriptError, "cannot accumulate empty arrays")
			}
			if j == int(s) {
				first = append(first[:0], dims...)
			} else if !equalInt32s(first, dims) {
				return pgerr.New(pgerr.ArraySubscriptError, "cannot accumulate arrays of different dimensionality")
			}
		}
	}
	return nil
}
