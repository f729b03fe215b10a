package expr

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
)

// arrTypeName is PGTypeName that spells lists as PostgreSQL's arrays.
func arrTypeName(t arrow.DataType) string {
	if IsMultiDimList(t) {
		_, leaf := listDepth(t)
		return PGTypeName(leaf) + "[]"
	}
	if e, ok := listElem(t); ok {
		if _, nested := listElem(e); nested || kindOf(e) == kInvalid {
			return "jsonb"
		}
		return PGTypeName(e) + "[]"
	}
	return PGTypeName(t)
}

func arrSignature(fn string, args []arrow.DataType) string {
	s := fn + "("
	for i, a := range args {
		if i > 0 {
			s += ", "
		}
		s += arrTypeName(a)
	}
	return s + ")"
}

func noArrayFunction(fn string, args []arrow.DataType) *pgerr.Error {
	return pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", arrSignature(fn, args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

func noArrayOperator(op string, l, r arrow.DataType) *pgerr.Error {
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", arrTypeName(l), op, arrTypeName(r)).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// isListOrNull reports whether t can stand where an array is expected.
func isListOrNull(t arrow.DataType) bool {
	_, ok := listElem(t)
	return ok || kindOf(t) == kNull
}

// arrayOperatorName maps array_eq... to the SQL operator for messages.
var arrayCompareOps = map[string]string{
	"array_eq": "=", "array_ne": "<>", "array_lt": "<", "array_le": "<=", "array_gt": ">", "array_ge": ">=",
}

// elemCommon is the common element type of the elements of the list
// arguments at lists and the scalar arguments at scalars (NULLs skipped);
// ok is false when the types do not match or no argument gives a type.
func elemCommon(args []arrow.DataType, lists, scalars []int) (arrow.DataType, bool) {
	var ts []arrow.DataType
	for _, j := range lists {
		if e, ok := listElem(args[j]); ok {
			ts = append(ts, e)
		} else if kindOf(args[j]) != kNull {
			return nil, false
		}
	}
	for _, j := range scalars {
		if _, ok := listElem(args[j]); ok {
			return nil, false
		}
		ts = append(ts, args[j])
	}
	known := false
	for _, t := range ts {
		if kindOf(t) != kNull {
			known = true
		}
	}
	if !known {
		return nil, false
	}
	t, err := CommonType("", ts)
	if err != nil {
		return nil, false
	}
	return t, true
}

// resolveArrayFn types the array functions and operators; ok is false
// for other names.
func resolveArrayFn(fn string, args []arrow.DataType) (Resolved, bool, error) {
	if r, ok, err := resolveMultiDim(fn, args); ok {
		return r, true, err
	}
	n := len(args)
	fail := func() (Resolved, bool, error) { return Resolved{}, true, noArrayFunction(fn, args) }
	// keep leaves list (and NULL) arguments as they are and casts the
	// others to t.
	keep := func(t arrow.DataType, res arrow.DataType, lists ...int) (Resolved, bool, error) {
		out := make([]arrow.DataType, n)
		for j := range out {
			out[j] = t
		}
		for _, j := range lists {
			out[j] = args[j]
			if kindOf(args[j]) == kNull {
				// A NULL (or untyped literal) array takes the
				// arrays' type.
				out[j] = nullListType(args, lists)
			}
		}
		return Resolved{Args: out, Result: res}, true, nil
	}
	// Subscripts take any integer (assignment-cast to int4); function
	// arguments only those that widen to int4.
	isInt := func(j int) bool { k := kindOf(args[j]); return k.isInt() || k == kNull }
	isInt4 := func(j int) bool { return castsImplicitly(args[j], Int4) }
	list0 := func() (arrow.DataType, bool) { return listElem(args[0]) }
	switch fn {
	case "array":
		if n == 0 {
			return Resolved{}, true, pgerr.New(pgerr.IndeterminateDatatype, "cannot determine type of empty array").
				WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[].")
		}
		for _, a := range args {
			if _, ok := listElem(a); ok {
				return Resolved{}, true, pgerr.Unsupported("multidimensional arrays")
			}
		}
		t, err := CommonType("ARRAY", args)
		if err != nil {
			return Resolved{}, true, err
		}
		return keep(t, arrow.ListOf(t))
	case "array_subscript":
		e, ok := list0()
		if n != 2 || !ok || !isInt(1) {
			return fail()
		}
		return Resolved{Args: []arrow.DataType{args[0], Int4}, Result: e}, true, nil
	case "array_slice":
		if _, ok := list0(); n != 3 || !ok || !isInt(1) || !isInt(2) {
			return fail()
		}
		return Resolved{Args: []arrow.DataType{args[0], Int4, Int4}, Result: args[0]}, true, nil
	case "array_length", "array_lower", "array_upper":
		if _, ok := list0(); n != 2 || !ok || !isInt4(1) {
			return fail()
		}
		return Resolved{Args: []arrow.DataType{args[0], Int4}, Result: Int4}, true, nil
	case "cardinality", "array_ndims", "array_dims":
		if _, ok := list0(); n != 1 || !ok {
			return fail()
		}
		if fn == "array_dims" {
			return keep(nil, Text, 0)
		}
		return keep(nil, Int4, 0)
	case "array_position", "array_positions":
		if (n != 2 && !(n == 3 && fn == "array_position")) || !isListOrNull(args[0]) {
			return fail()
		}
		e, ok := elemCommon(args, []int{0}, []int{1})
		if !ok || (n == 3 && !isInt4(2)) {
			return fail()
		}
		l := args[0]
		if kindOf(l) == kNull {
			l = arrow.ListOf(e)
		}
		r := Resolved{Args: []arrow.DataType{l, e, Int4}[:n], Result: Int4}
		if fn == "array_positions" {
			r.Result = arrow.ListOf(Int4)
		}
		return r, true, nil
	case "array_append", "array_remove":
		if n != 2 || !isListOrNull(args[0]) {
			return fail()
		}
		e, ok := elemCommon(args, []int{0}, []int{1})
		if !ok {
			return fail()
		}
		return keep(e, arrow.ListOf(e), 0)
	case "array_prepend":
		if n != 2 || !isListOrNull(args[1]) {
			return fail()
		}
		e, ok := elemCommon(args, []int{1}, []int{0})
		if !ok {
			return fail()
		}
		return keep(e, arrow.ListOf(e), 1)
	case "array_replace":
		if n != 3 || !isListOrNull(args[0]) {
			return fail()
		}
		e, ok := elemCommon(args, []int{0}, []int{1, 2})
		if !ok {
			return fail()
		}
		return keep(e, arrow.ListOf(e), 0)
	case "array_cat":
		if n != 2 || !isListOrNull(args[0]) || !isListOrNull(args[1]) {
			return fail()
		}
		e, ok := elemCommon(args, []int{0, 1}, nil)
		if !ok {
			return fail()
		}
		return keep(e, arrow.ListOf(e), 0, 1)
	case "array_to_string":
		if _, ok := list0(); (n != 2 && n != 3) || !ok || !allKinds(args[1:], kText) {
			return fail()
		}
		return keep(Text, Text, 0)
	case "array_in":
		if n != 1 || !allKinds(args, kText) {
			return fail()
		}
		return keep(Text, TextArray)
	case "array_out":
		if _, ok := list0(); n != 1 || !ok {
			return fail()
		}
		return keep(nil, Text, 0)
	case "string_to_array":
		if (n != 2 && n != 3) || !allKinds(args, kText) {
			return fail()
		}
		return keep(Text, TextArray)
	case "@>", "<@", "&&", "array_eq", "array_ne", "array_lt", "array_le", "array_gt", "array_ge":
		op := fn
		if o, ok := arrayCompareOps[fn]; ok {
			op = o
		}
		if n != 2 || !isListOrNull(args[0]) || !isListOrNull(args[1]) {
			if n == 2 {
				return Resolved{}, true, noArrayOperator(op, args[0], args[1])
			}
			return fail()
		}
		// anyarray operators: both arrays of the same type (unlike the
		// anycompatiblearray functions, no element is converted).
		_, null0 := args[0].(*arrow.NullType)
		_, null1 := args[1].(*arrow.NullType)
		if _, ok := elemCommon(args, []int{0, 1}, nil); !ok || (!null0 && !null1 && arrTypeName(args[0]) != arrTypeName(args[1])) {
			return Resolved{}, true, noArrayOperator(op, args[0], args[1])
		}
		return keep(nil, Bool, 0, 1)
	}
	return Resolved{}, false, nil
}

// nullListType is the type a NULL array argument takes: the list type of
// the common element of the other arguments (list<text> if none).
func nullListType(args []arrow.DataType, lists []int) arrow.DataType {
	var scalars []int
	for j := range args {
		if !slices.Contains(lists, j) {
			scalars = append(scalars, j)
		}
	}
	e, ok := elemCommon(args, lists, scalars)
	if !ok {
		return TextArray
	}
	return arrow.ListOf(e)
}

// resolveQuantified types x OP ANY (list) and x OP ALL (list): x is cast
// to the type it compares in; the list's elements are converted by the
// kernel.
func resolveQuantified(fn string, args []arrow.DataType) (Resolved, error) {
	op := fn[4:]
	switch op {
	case "=", "<>", "<", "<=", ">", ">=":
	default:
		return Resolved{}, noArrayFunction(fn, args)
	}
	if len(args) != 2 || !isListOrNull(args[1]) {
		if len(args) == 2 {
			return Resolved{}, noArrayOperator(op, args[0], args[1])
		}
		return Resolved{}, noArrayFunction(fn, args)
	}
	e, ok := listElem(flatType(args[1])) // several dimensions: all elements
	if !ok {
		e = args[0]
	}
	l, _, ok := compareTypes(args[0], e)
	if !ok {
		return Resolved{}, operatorError(op, []arrow.DataType{args[0], e})
	}
	lt := args[1]
	if kindOf(lt) == kNull {
		lt = arrow.ListOf(l)
	}
	return Resolved{Args: []arrow.DataType{l, lt}, Result: Bool}, nil
}
