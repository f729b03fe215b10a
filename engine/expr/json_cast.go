package expr

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgtext"
)

// Casts of JSON text (text or jsonb) to struct, map and list types, the
// way nested column values are written: '{"a": 5, "b": "x"}' into
// struct<a:int,b:string>, '{"k1": 1}' into map<string,int>, '[{"x": 1}]'
// into list<struct<x:int>>, nested to any depth. Objects fill structs by
// field name (a missing key or JSON null is NULL; a key the struct does
// not have is refused) and maps by key (the key text cast to the key
// type); arrays fill lists; scalars take their type's text input, as in
// jsonb_populate_record. A list of scalars also takes PostgreSQL's array
// syntax ('{1,2}'), row by row: text that parses as a JSON array is JSON.

// isNestedType reports struct, map and list types.
func isNestedType(t arrow.DataType) bool {
	switch t.(type) {
	case *arrow.StructType, *arrow.MapType, *arrow.ListType:
		return true
	}
	return false
}

// jsonCastKernel is the kernel of a cast from text to a struct or map, or
// to a list; ok is false for other casts.
func jsonCastKernel(from, to arrow.DataType, loc *time.Location) (k kernelFn, ok bool, err error) {
	if kindOf(from) != kText || !isNestedType(to) {
		return nil, false, nil
	}
	if _, err := newJSONColumn(to, "", loc); err != nil {
		if _, isList := to.(*arrow.ListType); isList {
			return nil, true, cannotCastList(from, to)
		}
		return nil, true, cannotCast(from, to)
	}
	fromJSON := jsonToNested(to, loc)
	tl, isList := to.(*arrow.ListType)
	if !isList || (isNestedType(tl.Elem()) && !IsMultiDimList(to)) {
		return fromJSON, true, nil
	}
	arrayIn, err := (&compiler{tz: loc}).arrayIn(tl)
	if err != nil {
		return fromJSON, true, nil
	}
	return listFromText(fromJSON, arrayIn), true, nil
}

// canCastJSON reports whether text casts to a struct, map or list whose
// element is nested; ok is false for other casts.
func canCastJSON(from, to arrow.DataType) (can, ok bool) {
	kf := kindOf(from)
	if kf != kText && kf != kNull {
		return false, false
	}
	if tl, isList := to.(*arrow.ListType); isList && !isNestedType(tl.Elem()) {
		return false, false
	}
	if !isNestedType(to) {
		return false, false
	}
	return jsonLeavesCast(to), true
}

// jsonLeavesCast reports whether every scalar inside t has a text input.
func jsonLeavesCast(t arrow.DataType) bool {
	switch tt := t.(type) {
	case *arrow.StructType:
		for _, f := range tt.Fields() {
			if !jsonLeavesCast(f.Type) {
				return false
			}
		}
		return true
	case *arrow.MapType:
		return jsonLeavesCast(tt.KeyType()) && jsonLeavesCast(tt.ItemType())
	case *arrow.ListType:
		return jsonLeavesCast(tt.Elem())
	}
	return CanCast(Text, t)
}

// jsonToNested parses each row as JSON into type to.
func jsonToNested(to arrow.DataType, loc *time.Location) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		col, err := newJSONColumn(to, "", loc)
		if err != nil {
			return vec{}, err
		}
		n, c := outLen(ev, args)
		src := readArrText(args[0])
		for i := 0; i < n; i++ {
			if i%1024 == 0 && ev.ctx != nil {
				if err := ev.ctx.Err(); err != nil {
					return vec{}, err
				}
			}
			s, ok := src.get(i)
			if !ok {
				col.addNull()
				continue
			}
			v, err := pgtext.ParseJSONB(s)
			if err != nil {
				return vec{}, err
			}
			if err := col.add(v); err != nil {
				return vec{}, err
			}
		}
		d, err := col.finish(ev)
		if err != nil {
			return vec{}, err
		}
		defer d.Release()
		return vec{arr: array.MakeFromData(d), c: c}, nil
	}
}

// listFromText reads rows holding a JSON array as JSON and the others in
// PostgreSQL's array syntax.
func listFromText(fromJSON, arrayIn kernelFn) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		src := readArrText(args[0])
		isJSON := make([]bool, n)
		some, all := false, true
		for i := 0; i < n; i++ {
			s, ok := src.get(i)
			if ok && looksLikeJSONArray(s) {
				isJSON[i], some = true, true
			} else if ok {
				all = false
			}
		}
		switch {
		case !some:
			return arrayIn(ev, args)
		case all:
			return fromJSON(ev, args)
		}
		// Mixed rows: convert each run of one syntax and join the runs.
		var parts []arrow.Array
		defer func() {
			for _, p := range parts {
				p.Release()
			}
		}()
		for lo := 0; lo < n; {
			hi := lo + 1
			for hi < n && isJSON[hi] == isJSON[lo] {
				hi++
			}
			in := array.NewSlice(args[0].arr, int64(lo), int64(hi))
			k := arrayIn
			if isJSON[lo] {
				k = fromJSON
			}
			out, err := k(arrSubEval(ev, hi-lo), []vec{{arr: in}})
			in.Release()
			if err != nil {
				return vec{}, err
			}
			parts = append(parts, out.arr)
			lo = hi
		}
		joined, err := array.Concatenate(parts, ev.mem)
		if err != nil {
			return vec{}, err
		}
		return vec{arr: joined, c: c}, nil
	}
}

// looksLikeJSONArray reports text whose first non-blank byte is '[' and
// that parses as JSON ('[1:2]={1,2}' is array syntax, not JSON).
func looksLikeJSONArray(s []byte) bool {
	for _, ch := range s {
		switch ch {
		case ' ', '\t', '\n', '\r':
			continue
		case '[':
			_, err := pgtext.ParseJSONB(s)
			return err == nil
		}
		return false
	}
	return false
}
