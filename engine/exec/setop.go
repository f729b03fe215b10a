package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

var (
	_ engine.Operator = (*unionAllOp)(nil)
	_ engine.Operator = (*setOp)(nil)
)

// plainType is t with dictionary encoding taken off: set operations see
// dictionary-encoded text as text.
func plainType(t arrow.DataType) arrow.DataType {
	if dt, ok := t.(*arrow.DictionaryType); ok {
		return dt.ValueType
	}
	return t
}

// setOpSchema checks that the inputs line up column by column and returns
// the output schema: the first input's names, plain types.
func setOpSchema(what string, inputs []engine.Operator) (*arrow.Schema, error) {
	first := inputs[0].Schema()
	fields := make([]arrow.Field, first.NumFields())
	for i, f := range first.Fields() {
		fields[i] = arrow.Field{Name: f.Name, Type: plainType(f.Type), Nullable: true}
	}
	for _, in := range inputs[1:] {
		s := in.Schema()
		if s.NumFields() != len(fields) {
			return nil, pgerr.New(pgerr.SyntaxError, "each %s query must have the same number of columns", what)
		}
		for i, f := range s.Fields() {
			if t := plainType(f.Type); !arrow.TypeEqual(t, fields[i].Type) {
				a, b := expr.PGTypeName(fields[i].Type), expr.PGTypeName(t)
				if a == b {
					// One PostgreSQL type, two Arrow types (numeric(p,s)
					// and numeric): the planner owes a cast.
					a, b = fields[i].Type.String(), t.String()
				}
				return nil, pgerr.New(pgerr.DatatypeMismatch, "%s types %s and %s cannot be matched", what, a, b)
			}
		}
	}
	return arrow.NewSchema(fields, nil), nil
}

// columnReader hands out the columns of an input's batches with
// dictionary-encoded columns decoded.
type columnReader struct {
	progs []*expr.Program // nil where the column is read as is
}

func newColumnReader(in *arrow.Schema) (columnReader, error) {
	r := columnReader{progs: make([]*expr.Program, in.NumFields())}
	for i, f := range in.Fields() {
		if _, ok := f.Type.(*arrow.DictionaryType); !ok {
			continue
		}
		p, err := expr.Compile(&expr.Col{Idx: i, Name: f.Name, T: f.Type}, in)
		if err != nil {
			return r, err
		}
		r.progs[i] = &p
	}
	return r, nil
}

// batch returns b under schema, decoded; the caller releases it.
func (r columnReader) batch(ctx context.Context, schema *arrow.Schema, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(r.progs))
	defer releaseAll(cols)
	for i, p := range r.progs {
		if p == nil {
			cols[i] = b.Column(i)
			cols[i].Retain()
			continue
		}
		c, err := p.Eval(ctx, b)
		if err != nil {
			return nil, err
		}
		cols[i] = c
	}
	return array.NewRecordBatch(schema, cols, b.NumRows()), nil
}

// unionAllOp is UNION ALL: its inputs one after the other.
type unionAllOp struct {
	inputs  []engine.Operator
	readers []columnReader
	schema  *arrow.Schema
	ctx     context.Context
	cur     int
	out     arrow.RecordBatch
}

// NewUnionAll concatenates inputs with identical column types (names from
// the first; dictionary-encoded text counts as text). Inputs are opened
// one at a time, as the previous one ends.
func NewUnionAll(inputs ...engine.Operator) (engine.Operator, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("union all: no inputs")
	}
	schema, err := setOpSchema("UNION", inputs)
	if err != nil {
		return nil, err
	}
	o := &unionAllOp{inputs: inputs, schema: schema}
	for _, in := range inputs {
		r, err := newColumnReader(in.Schema())
		if err != nil {
			return nil, err
		}
		o.readers = append(o.readers, r)
	}
	return o, nil
}

func (o *unionAllOp) Open(ctx context.Context) error {
	o.ctx = ctx
	return o.inputs[0].Open(ctx)
}

func (o *unionAllOp) Next() (arrow.RecordBatch, error) {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	for o.cur < len(o.inputs) {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.inputs[o.cur].Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			o.cur++
			if o.cur < len(o.inputs) {
				if err := o.inputs[o.cur].Open(o.ctx); err != nil {
					return nil, err
				}
			}
			continue
		}
		out, err := o.readers[o.cur].batch(o.ctx, o.schema, b)
		if err != nil {
			return nil, err
		}
		o.out = out
		return out, nil
	}
	return nil, nil
}

func (o *unionAllOp) Close() error {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	var first error
	// Inputs never opened are closed too: the contract allows Close after
	// a failed or missing Open, and it frees what their constructors hold.
	for _, in := range o.inputs {
		if err := in.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (o *unionAllOp) Schema() *arrow.Schema { return o.schema }

// SetOpKind is INTERSECT or EXCEPT.
type SetOpKind int

const (
	SetIntersect SetOpKind = iota // rows in both inputs
	SetExcept                     // rows of the left input not in the right
)

func (k SetOpKind) String() string {
	if k == SetExcept {
		return "EXCEPT"
	}
	return "INTERSECT"
}

// setOp is INTERSECT / EXCEPT [ALL]. It reads the right input into a
// hash table of row counts, then streams the left input, keeping each
// row as the table allows: memory follows the distinct rows of the right
// side (plus, without ALL, the distinct rows of the left side emitted).
type setOp struct {
	kind        SetOpKind
	all         bool
	left, right engine.Operator
	lr, rr      columnReader
	schema      *arrow.Schema
	ctx         context.Context

	counts  map[string]*int64 // right rows by key (pointers: updates cost no key copy)
	emitted map[string]struct{}
	built   bool
	out     arrow.RecordBatch
}

// NewSetOp is INTERSECT / EXCEPT [ALL] with PostgreSQL semantics: rows are
// compared column by column with NULLs equal (and 0 = -0, NaN = NaN, 1.5 =
// 1.50); INTERSECT ALL keeps min(m,n) copies of a row found m times on the
// left and n on the right, EXCEPT ALL max(m-n,0); without ALL each row at
// most once. Both sides must have the same column types. Output order is
// the left input's.
func NewSetOp(kind SetOpKind, all bool, left, right engine.Operator, opts ...expr.CompileOptions) (engine.Operator, error) {
	schema, err := setOpSchema(kind.String(), []engine.Operator{left, right})
	if err != nil {
		return nil, err
	}
	o := &setOp{kind: kind, all: all, left: left, right: right, schema: schema}
	if o.lr, err = newColumnReader(left.Schema()); err != nil {
		return nil, err
	}
	if o.rr, err = newColumnReader(right.Schema()); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *setOp) Open(ctx context.Context) error {
	o.ctx = ctx
	o.counts = map[string]*int64{}
	o.emitted = map[string]struct{}{}
	if err := o.right.Open(ctx); err != nil {
		return err
	}
	return o.left.Open(ctx)
}

// rowKeys calls fn with the key of every row of b.
func rowKeys(ctx context.Context, b arrow.RecordBatch, fn func(i int, key []byte)) error {
	ws := make([]keyWriter, b.NumCols())
	for j := range ws {
		w, err := newKeyWriter(b.Column(j))
		if err != nil {
			return pgerr.Unsupported("set operations over type %s", b.Column(j).DataType())
		}
		ws[j] = w
	}
	var buf []byte
	for i := 0; i < int(b.NumRows()); i++ {
		if i&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		buf = buf[:0]
		for _, w := range ws {
			buf = w(buf, i)
		}
		fn(i, buf)
	}
	return nil
}

// build counts the rows of the right input.
func (o *setOp) build() error {
	for {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		b, err := o.right.Next()
		if err != nil || b == nil {
			return err
		}
		d, err := o.rr.batch(o.ctx, o.schema, b)
		if err != nil {
			return err
		}
		err = rowKeys(o.ctx, d, func(_ int, key []byte) {
			if n := o.counts[string(key)]; n != nil {
				*n++
				return
			}
			one := int64(1)
			o.counts[string(key)] = &one
		})
		d.Release()
		if err != nil {
			return err
		}
	}
}

// keep decides for one left row whether it is output.
func (o *setOp) keep(key []byte) bool {
	n := o.counts[string(key)]
	if o.all {
		if n != nil && *n > 0 {
			*n-- // one right row is used up
			return o.kind == SetIntersect
		}
		return o.kind == SetExcept
	}
	if (n != nil) != (o.kind == SetIntersect) {
		return false
	}
	if _, done := o.emitted[string(key)]; done {
		return false
	}
	o.emitted[string(key)] = struct{}{}
	return true
}

func (o *setOp) Next() (arrow.RecordBatch, error) {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	if !o.built {
		if err := o.build(); err != nil {
			return nil, err
		}
		o.built = true
	}
	for {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.left.Next()
		if err != nil || b == nil {
			return nil, err
		}
		d, err := o.lr.batch(o.ctx, o.schema, b)
		if err != nil {
			return nil, err
		}
		var idx []int32
		err = rowKeys(o.ctx, d, func(i int, key []byte) {
			if o.keep(key) {
				idx = append(idx, int32(i))
			}
		})
		if err != nil || len(idx) == 0 {
			d.Release()
			if err != nil {
				return nil, err
			}
			continue
		}
		if len(idx) == int(d.NumRows()) {
			o.out = d
			return d, nil
		}
		out, err := takeBatch(o.ctx, d, idx)
		d.Release()
		if err != nil {
			return nil, err
		}
		o.out = out
		return out, nil
	}
}

func (o *setOp) Close() error {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	o.counts, o.emitted = nil, nil
	err := o.left.Close()
	if err2 := o.right.Close(); err == nil {
		err = err2
	}
	return err
}

func (o *setOp) Schema() *arrow.Schema { return o.schema }
