package expr

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Arrays (Arrow lists, PostgreSQL's one-dimensional arrays) and JSON access.
// list<T> is T[]; "elem" is the common type of the list's element type and
// the other argument (the list's elements are converted by the kernel when
// it differs, so Resolve never asks for a cast of a list).
//
//	name                      arguments                          result
//	array                     v1, v2, ... (common type T)        list<T> (ARRAY[...]; no arguments:
//	                                                             an empty list of Call.T)
//	array_subscript           list<T>, int4                      T (1-based; NULL outside)
//	array_slice               list<T>, int4 lo, int4 hi          list<T> (a[lo:hi]; NULL bound = open)
//	array_length              list, int4 dim                     int4 (NULL when empty or dim <> 1)
//	array_lower array_upper   list, int4 dim                     int4
//	cardinality array_ndims   list                               int4
//	array_dims                list                               text ([1:n])
//	array_position            list, elem [, int4 start]          int4
//	array_positions           list, elem                         list<int4>
//	array_append              list, elem                         list<elem>
//	array_prepend             elem, list                         list<elem>
//	array_cat                 list, list                         list<elem>
//	array_remove              list, elem                         list<elem>
//	array_replace             list, elem, elem                   list<elem>
//	array_to_string           list, text [, text null]           text
//	array_in                  text                               list<T> (T from Call.T; Resolve
//	                                                             answers text[]): '{1,"a b",NULL}'
//	array_out                 list                               text (the array's text form)
//	string_to_array           text, text [, text null]           list<text>
//	@> <@ &&                  list, list                         bool
//	array_eq array_ne array_lt array_le array_gt array_ge
//	                          list, list                         bool (= <> < <= > >= on arrays)
//	any:OP all:OP             x, list (OP one of = <> < <= > >=) bool (x OP ANY/ALL (list))
//
// JSON values are struct, map and list-of-non-scalar columns or text holding
// JSON (what the binder types json/jsonb); results typed json are text
// holding jsonb's canonical text (json_funcs.go lists them).
func resolveArrays(fn string, args []arrow.DataType) (Resolved, bool, error) {
	if r, ok, err := resolveArrayFn(fn, args); ok {
		return r, true, err
	}
	if strings.HasPrefix(fn, "any:") || strings.HasPrefix(fn, "all:") {
		r, err := resolveQuantified(fn, args)
		return r, true, err
	}
	if r, ok, err := resolveJSONBuild(fn, args); ok { // json_build.go
		return r, true, err
	}
	if r, ok, err := resolveJSONPath(fn, args); ok { // json_path.go
		return r, true, err
	}
	return resolveJSON(fn, args)
}

func kernelArrays(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	if k, ok, err := c.arrayKernel(fn, ts, res); ok {
		return k, true, err
	}
	if strings.HasPrefix(fn, "any:") || strings.HasPrefix(fn, "all:") {
		k, err := c.quantifiedKernel(fn, ts)
		return k, true, err
	}
	if k, ok, err := c.jsonBuildKernel(fn, ts); ok { // json_build.go
		return k, true, err
	}
	if k, ok := c.jsonPathKernel(fn); ok { // json_path.go
		return k, true, nil
	}
	return c.jsonKernel(fn, ts, res)
}
