package exec

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
)

// Aggregate arguments in recycled buffers. An argument such as
// l_extendedprice * (1 - l_discount) is a fresh array every batch; an
// aggregate whose state copies what it reads (a sum, a count) is done
// with it once update returns, so the argument is evaluated with
// EvalTransient and its release hands the buffers back to the program
// for the next batch. The aggregates that may keep values of their
// argument past update keep plain Eval: min and max of variable-width
// types, string_agg (it reads the text in place), array_agg, the
// ordered-set aggregates and any aggregate with ORDER BY, DISTINCT or
// further arguments. Group keys and FILTER masks are read and dropped
// within the batch (the group table and the key columns copy the keys),
// so they always use EvalTransient.

// argTransient reports whether aggregate a's state keeps nothing of its
// argument after update.
func (o *hashAggOp) argTransient(a int) bool {
	c := o.aggs[a]
	if c.Distinct || len(c.OrderBy) > 0 || len(o.extras[a]) > 0 || o.args[a] == nil {
		return false
	}
	switch strings.ToLower(c.Fn) {
	case "count", "sum", "avg", "bool_and", "every", "bool_or",
		"stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		return true
	case "min", "max":
		return fixedWidth(o.argTypes[a])
	}
	return false
}

// fixedWidth reports whether t's values are fixed-width (the numeric
// extension type's storage included).
func fixedWidth(t arrow.DataType) bool {
	if e, ok := t.(arrow.ExtensionType); ok {
		t = e.StorageType()
	}
	_, ok := t.(arrow.FixedWidthDataType)
	return ok && t.ID() != arrow.NULL
}

// evalArg evaluates an aggregate argument over b, with EvalTransient when
// transient.
func (o *hashAggOp) evalArg(p *expr.Program, transient bool, b arrow.RecordBatch) (arrow.Array, error) {
	if transient {
		return p.EvalTransient(o.ctx, b)
	}
	return p.Eval(o.ctx, b)
}
