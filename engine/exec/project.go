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
	in     engine.Operator
	progs  []expr.Program
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
	progs := make([]expr.Program, len(exprs))
	fields := make([]arrow.Field, len(exprs))
	for i, e := range exprs {
		p, err := expr.Compile(e, in.Schema(), opts...)
		if err != nil {
			return nil, err
		}
		progs[i] = p
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
	return &projectOp{in: in, progs: progs, schema: arrow.NewSchema(fields, nil)}, nil
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
	cols := make([]arrow.Array, len(o.progs))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, p := range o.progs {
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
