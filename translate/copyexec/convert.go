package copyexec

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
)

// SameColumns reports whether the table's columns cols still are, at the
// bound targets, the columns a COPY FROM was prepared with.
func SameColumns(cols []bind.Column, targets []int, bound []pgtypes.Column) bool {
	for k, i := range targets {
		if i >= len(cols) || cols[i].Name != bound[k].Name || cols[i].Type.OID != bound[k].TypeOID {
			return false
		}
	}
	return true
}

// Converter turns chunks of text rows into batches of the table's
// columns.
type Converter struct {
	table   string // its name, for messages
	targets []int  // the table column of each copied column
	cols    []bind.Column
	in      *arrow.Schema // one text column per copied column
	out     *arrow.Schema // the table's columns
	progs   []expr.Program
	copied  map[int]int // table column -> copied column
	fields  []catalog.NestedField
	// filled computes the defaults kept in the table's properties of the
	// columns the COPY does not name (BindDefaults).
	filled map[int]expr.Program
}

// NewConverter is the converter of the copied columns targets of table
// (named so in messages) into all its columns cols, of fields; enums has
// the labels and name of each enum type a column has.
func NewConverter(table string, targets []int, cols []bind.Column, fields []catalog.NestedField, enums map[string][2]string, opts expr.CompileOptions) (*Converter, error) {
	c := &Converter{table: table, targets: targets, cols: cols, fields: fields, copied: map[int]int{}}
	inFields := make([]arrow.Field, len(targets))
	for k, i := range targets {
		inFields[k] = arrow.Field{Name: cols[i].Name, Type: expr.Text, Nullable: true}
		c.copied[i] = k
	}
	c.in = arrow.NewSchema(inFields, nil)
	outFields := make([]arrow.Field, len(cols))
	for i, col := range cols {
		outFields[i] = arrow.Field{Name: col.Name, Type: col.Arrow, Nullable: true}
	}
	c.out = arrow.NewSchema(outFields, nil)
	for k, i := range targets {
		col := cols[i]
		if !expr.CanCast(expr.Text, col.Arrow) {
			return nil, pgerr.NotYet(fmt.Sprintf("COPY into column \"%s\" of type %s", col.Name, col.Type))
		}
		e := bind.RecordedText(col, bind.CastIfNeeded(&expr.Col{Idx: k, Name: col.Name, T: expr.Text}, col.Arrow))
		if en, ok := enums[col.Enum]; ok {
			e = bind.EnumCheck(e, en[0], en[1])
		}
		p, err := expr.Compile(e, c.in, opts)
		if err != nil {
			return nil, err
		}
		c.progs = append(c.progs, p)
	}
	return c, nil
}

// Lines says which line of the COPY data a row of a chunk came from.
type Lines interface {
	LineOf(row int) int
}

// Convert builds one batch of the table's columns from rows.
func (c *Converter) Convert(ctx context.Context, rows [][]*string, src Lines) (arrow.RecordBatch, error) {
	ncopied := len(c.targets)
	for r, row := range rows {
		if len(row) != ncopied {
			msg := "extra data after last expected column"
			if len(row) < ncopied {
				msg = fmt.Sprintf("missing data for column \"%s\"", c.cols[c.targets[len(row)]].Name)
			}
			return nil, pgerr.New(pgerr.BadCopyFileFormat, "%s", msg).
				WithDetail("COPY %s, line %d", c.table, src.LineOf(r))
		}
	}
	texts := make([]arrow.Array, ncopied)
	for k := range texts {
		texts[k] = textColumn(rows, k)
		defer texts[k].Release()
	}
	in := array.NewRecordBatch(c.in, texts, int64(len(rows)))
	defer in.Release()
	out := make([]arrow.Array, len(c.cols))
	release := func() {
		for _, a := range out {
			if a != nil {
				a.Release()
			}
		}
	}
	for i := range c.cols {
		k, ok := c.copied[i]
		if !ok {
			a, err := c.fill(ctx, i, in)
			if err != nil {
				release()
				return nil, err
			}
			out[i] = a
			continue
		}
		a, err := c.progs[k].Eval(ctx, in)
		if err != nil {
			release()
			return nil, c.locate(ctx, in, k, err, rows, src)
		}
		out[i] = a
	}
	b := array.NewRecordBatch(c.out, out, int64(len(rows)))
	release()
	if err := c.checkNotNull(b, rows, src); err != nil {
		b.Release()
		return nil, err
	}
	return b, nil
}

// fill is the column of table column i, which the COPY does not name: its
// write default or NULL.
func (c *Converter) fill(ctx context.Context, i int, in arrow.RecordBatch) (arrow.Array, error) {
	if p, ok := c.filled[i]; ok {
		return p.Eval(ctx, in)
	}
	f := c.fields[i]
	if f.WriteDefault == nil || catalog.Primitive(f.Type) == nil {
		return array.MakeArrayOfNull(expr.Allocator(ctx), c.cols[i].Arrow, int(in.NumRows())), nil
	}
	p, err := expr.Compile(bind.WriteDefault(f, c.cols[i].Arrow), c.in)
	if err != nil {
		return nil, err
	}
	return p.Eval(ctx, in)
}

// checkNotNull reports a NULL in a NOT NULL column with the line it came
// from.
func (c *Converter) checkNotNull(b arrow.RecordBatch, rows [][]*string, src Lines) error {
	for i, f := range c.fields {
		if !f.Required || b.Column(i).NullN() == 0 {
			continue
		}
		col := b.Column(i)
		for r := 0; r < col.Len(); r++ {
			if col.IsNull(r) {
				return pgerr.New(pgerr.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint", f.Name, c.table).
					WithDetail("COPY %s, line %d", c.table, src.LineOf(r))
			}
		}
	}
	return nil
}

// locate finds the row whose value of copied column k failed to convert
// and returns the error with PostgreSQL's context: the line and the value.
func (c *Converter) locate(ctx context.Context, in arrow.RecordBatch, k int, err error, rows [][]*string, src Lines) error {
	pe := pgerr.As(err)
	if pe == nil {
		return err
	}
	col := c.cols[c.targets[k]].Name
	for r := range rows {
		one := in.NewSlice(int64(r), int64(r+1))
		a, rerr := c.progs[k].Eval(ctx, one)
		one.Release()
		if rerr == nil {
			a.Release()
			continue
		}
		out := pgerr.New(pgerr.Code(rerr), "%s", rerr.Error())
		if rp := pgerr.As(rerr); rp != nil {
			out.Hint = rp.Hint
		}
		v := ""
		if rows[r][k] != nil {
			v = *rows[r][k]
		}
		return out.WithDetail("COPY %s, line %d, column %s: \"%s\"", c.table, src.LineOf(r), col, v)
	}
	return err
}

// BindDefaults compiles the defaults kept in t's properties (now(),
// nextval(...): bind/defaults.go) of the columns COPY FROM does not name;
// each batch of rows evaluates them per row.
func (c *Converter) BindDefaults(ctx context.Context, env bind.Env, ps parse.Stmt, t *catalog.Table, opts expr.CompileOptions) error {
	var b *bind.Binder
	for i, f := range c.fields {
		if _, copied := c.copied[i]; copied {
			continue
		}
		text := bind.DefaultText(t.Metadata.Properties, f.ID)
		if text == "" {
			continue
		}
		if b == nil {
			b = bind.New(ctx, env, ps, &bind.ParamSet{}, time.Now())
		}
		e, err := b.DefaultExpr(text, c.cols[i])
		if err != nil {
			return err
		}
		p, err := expr.Compile(e, c.in, opts)
		if err != nil {
			return err
		}
		if c.filled == nil {
			c.filled = map[int]expr.Program{}
		}
		c.filled[i] = p
	}
	return nil
}

// textColumn is column k of rows as a text array, built in one pass over
// its values (one data buffer sized up front, offsets and validity set
// directly).
func textColumn(rows [][]*string, k int) arrow.Array {
	n := len(rows)
	size, nulls := 0, 0
	for _, row := range rows {
		if v := row[k]; v != nil {
			size += len(*v)
		} else {
			nulls++
		}
	}
	data := make([]byte, 0, size)
	offs := make([]int32, n+1)
	var valid []byte
	if nulls > 0 {
		valid = make([]byte, bitutil.BytesForBits(int64(n)))
	}
	for r, row := range rows {
		if v := row[k]; v != nil {
			data = append(data, *v...)
			if valid != nil {
				bitutil.SetBit(valid, r)
			}
		}
		offs[r+1] = int32(len(data))
	}
	var vb *memory.Buffer
	if valid != nil {
		vb = memory.NewBufferBytes(valid)
	}
	d := array.NewData(expr.Text, n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)), memory.NewBufferBytes(data)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}
