package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// projectOp computes one output column per expression.
type projectOp struct {
	in    engine.Operator
	progs []expr.Program
	// pass[i] >= 0: output column i is input column pass[i] as it is (a
	// bare column, not dictionary-encoded), taken without a program.
	pass []int
	// same: the output is the input batch itself (every input column in
	// order, under its own field): Next hands the input's batches on.
	same   bool
	schema *arrow.Schema
	ctx    context.Context
	out    arrow.RecordBatch
}

// NewProject returns the select list exprs over in, naming the output
// columns names. opts are the session's compile options.
func NewProject(in engine.Operator, exprs []expr.Expr, names []string, opts ...expr.CompileOptions) (engine.Operator, error) {
	if len(exprs) != len(names) {
		return nil, fmt.Errorf("project: %d expressions but %d names", len(exprs), len(names))
	}
	inSchema := in.Schema()
	if identityProjection(inSchema, exprs, names) {
		return &projectOp{in: in, same: true, schema: inSchema}, nil
	}
	progs := make([]expr.Program, len(exprs))
	pass := make([]int, len(exprs))
	fields := make([]arrow.Field, len(exprs))
	for i, e := range exprs {
		pass[i] = -1
		if c, ok := e.(*expr.Col); ok && c.Idx >= 0 && c.Idx < inSchema.NumFields() && inSchema.Field(c.Idx).Type.ID() != arrow.DICTIONARY {
			pass[i] = c.Idx
		} else {
			p, err := expr.Compile(e, inSchema, opts...)
			if err != nil {
				return nil, err
			}
			progs[i] = p
		}
		t := e.Type()
		if dt, ok := t.(*arrow.DictionaryType); ok {
			t = dt.ValueType
		}
		fields[i] = arrow.Field{Name: names[i], Type: t, Nullable: true}
		// A bare column keeps its field (metadata such as the field id).
		if c, ok := e.(*expr.Col); ok && c.Idx < in.Schema().NumFields() {
			f := in.Schema().Field(c.Idx)
			t := f.Type
			if dt, ok := t.(*arrow.DictionaryType); ok {
				t = dt.ValueType // evaluation decodes dictionaries
			}
			fields[i] = arrow.Field{Name: names[i], Type: t, Nullable: f.Nullable, Metadata: f.Metadata}
		}
	}
	return &projectOp{in: in, progs: progs, pass: pass, schema: arrow.NewSchema(fields, nil)}, nil
}

// identityProjection reports whether exprs are the columns of in, in
// order and under their own names, none dictionary-encoded: the output
// fields are then in's (a bare column keeps its field), and the batches
// are the input's.
func identityProjection(in *arrow.Schema, exprs []expr.Expr, names []string) bool {
	if len(exprs) != in.NumFields() {
		return false
	}
	for i, e := range exprs {
		c, ok := e.(*expr.Col)
		if !ok || c.Idx != i || names[i] != in.Field(i).Name || in.Field(i).Type.ID() == arrow.DICTIONARY {
			return false
		}
	}
	return true
}

func (o *projectOp) Open(ctx context.Context) error {
	o.ctx = ctx
	return o.in.Open(ctx)
}

func (o *projectOp) Next() (arrow.RecordBatch, error) {
	o.release()
	if err := o.ctx.Err(); err != nil {
		return nil, err
	}
	b, err := o.in.Next()
	if err != nil || b == nil {
		return nil, err
	}
	if o.same {
		b.Retain()
		o.out = b
		return b, nil
	}
	cols := make([]arrow.Array, len(o.progs))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, p := range o.progs {
		if j := o.pass[i]; j >= 0 {
			c := b.Column(j)
			c.Retain()
			cols[i] = c
			continue
		}
		c, err := p.Eval(o.ctx, b)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	o.out = array.NewRecordBatch(o.schema, cols, b.NumRows())
	return o.out, nil
}

func (o *projectOp) release() {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
}

func (o *projectOp) Close() error {
	o.release()
	return o.in.Close()
}

func (o *projectOp) Schema() *arrow.Schema { return o.schema }
