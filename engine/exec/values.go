package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// valuesOp emits constant rows, evaluated once at Open.
type valuesOp struct {
	schema *arrow.Schema
	progs  [][]expr.Program
	out    arrow.RecordBatch
	done   bool
	ctx    context.Context
}

var emptySchema = arrow.NewSchema(nil, nil)

// NewValues returns an operator emitting rows of constant expressions
// (SELECT 1, VALUES (...), ...). Each expression must have its column's
// type in schema. opts are the session's compile options.
func NewValues(schema *arrow.Schema, rows [][]expr.Expr, opts ...expr.CompileOptions) (engine.Operator, error) {
	progs := make([][]expr.Program, len(rows))
	for r, row := range rows {
		if len(row) != schema.NumFields() {
			return nil, fmt.Errorf("values: row %d has %d expressions for %d columns", r, len(row), schema.NumFields())
		}
		progs[r] = make([]expr.Program, len(row))
		for c, e := range row {
			if !arrow.TypeEqual(e.Type(), schema.Field(c).Type) && e.Type().ID() != arrow.NULL {
				return nil, fmt.Errorf("values: row %d column %d has type %s, want %s", r, c, e.Type(), schema.Field(c).Type)
			}
			p, err := expr.Compile(e, emptySchema, opts...)
			if err != nil {
				return nil, err
			}
			progs[r][c] = p
		}
	}
	return &valuesOp{schema: schema, progs: progs}, nil
}

func (o *valuesOp) Open(ctx context.Context) error {
	o.ctx = ctx
	return nil
}

func (o *valuesOp) Next() (arrow.RecordBatch, error) {
	if o.done || len(o.progs) == 0 {
		return nil, nil
	}
	o.done = true
	if err := o.ctx.Err(); err != nil {
		return nil, err
	}
	one := array.NewRecordBatch(emptySchema, nil, 1)
	defer one.Release()
	mem := expr.Allocator(o.ctx)
	ncol := o.schema.NumFields()
	cols := make([]arrow.Array, ncol)
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for c := 0; c < ncol; c++ {
		parts := make([]arrow.Array, 0, len(o.progs))
		release := func() {
			for _, p := range parts {
				p.Release()
			}
		}
		for r := range o.progs {
			a, err := o.progs[r][c].Eval(o.ctx, one)
			if err != nil {
				release()
				return nil, err
			}
			if a.DataType().ID() == arrow.NULL {
				a.Release()
				a = nullArray(mem, o.schema.Field(c).Type, 1)
			}
			parts = append(parts, a)
		}
		col, err := concatArrays(mem, parts)
		release()
		if err != nil {
			return nil, err
		}
		cols[c] = col
	}
	o.out = array.NewRecordBatch(o.schema, cols, int64(len(o.progs)))
	return o.out, nil
}

func (o *valuesOp) Close() error {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	return nil
}

func (o *valuesOp) Schema() *arrow.Schema { return o.schema }
