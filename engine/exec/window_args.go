package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
)

// A window call's arguments that compute values (lag(md5(x::text)), not
// a column or a constant) are evaluated batch by batch as the input is
// buffered and kept beside it as extra columns, sorted with the rows: so
// the window counts them with its rows and spills (or spills again one
// level deeper) before they pass statement_mem, instead of building them
// over a whole partition file at the end without counting.

// planComputedArgs chooses the arguments evaluated with the input: for
// each call, per argument, the extra column that holds it, or -1.
func (o *windowOp) planComputedArgs() {
	n := o.in.Schema().NumFields()
	fields := append([]arrow.Field(nil), o.in.Schema().Fields()...)
	o.argCols = make([][]int, len(o.calls))
	for i, c := range o.calls {
		o.argCols[i] = make([]int, len(c.args))
		for j, p := range c.args {
			o.argCols[i][j] = -1
			switch o.callDefs[i].Args[j].(type) {
			case *expr.Col, *expr.Lit:
				continue
			}
			o.argCols[i][j] = n + len(o.argProgs)
			o.argProgs = append(o.argProgs, p)
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("arg%d_%d", i+1, j+1), Type: valueType(p.Type()), Nullable: true})
		}
	}
	if len(o.argProgs) > 0 {
		o.withArgs = arrow.NewSchema(fields, nil)
	}
}

// addComputedArgs returns b with the computed arguments appended.
func (o *windowOp) addComputedArgs(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := append([]arrow.Array(nil), b.Columns()...)
	var added []arrow.Array
	defer func() { releaseAll(added) }()
	for _, p := range o.argProgs {
		a, err := p.Eval(o.ctx, b)
		if err != nil {
			return nil, err
		}
		if d, ok := a.(*array.Dictionary); ok {
			v, err := expr.TakeArray(o.ctx, d.Dictionary(), d.Indices())
			a.Release()
			if err != nil {
				return nil, err
			}
			a = v
		}
		added = append(added, a)
		if t := o.withArgs.Field(len(cols)).Type; !arrow.TypeEqual(a.DataType(), t) {
			return nil, fmt.Errorf("window argument: %s, not %s", a.DataType(), t)
		}
		cols = append(cols, a)
	}
	return array.NewRecordBatch(o.withArgs, cols, b.NumRows()), nil
}

// inputColumns is b without the computed arguments.
func (o *windowOp) inputColumns(b arrow.RecordBatch) arrow.RecordBatch {
	n := o.in.Schema().NumFields()
	if int(b.NumCols()) == n {
		b.Retain()
		return b
	}
	return array.NewRecordBatch(o.in.Schema(), b.Columns()[:n], b.NumRows())
}

// callArgs evaluates call i's arguments over the sorted rows, taking the
// computed ones from their columns.
func (o *windowOp) callArgs(sorted arrow.RecordBatch, i int) ([]arrow.Array, error) {
	c := &o.calls[i]
	args := make([]arrow.Array, len(c.args))
	for j, p := range c.args {
		if k := o.argCols[i][j]; k >= 0 && k < int(sorted.NumCols()) {
			a := sorted.Column(k)
			a.Retain()
			args[j] = a
			continue
		}
		a, err := p.Eval(o.ctx, sorted)
		if err != nil {
			releaseAll(args)
			return nil, err
		}
		args[j] = a
	}
	return args, nil
}
