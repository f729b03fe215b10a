package exec

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

var (
	_ engine.Operator = (*tableFuncOp)(nil)
	_ srfGen          = (*intSeries)(nil)
	_ srfGen          = (*numericSeries)(nil)
	_ srfGen          = (*unnestGen)(nil)
	_ srfGen          = (*subscriptsGen)(nil)
)

// srfBatchRows bounds the batches of a table function, however many rows
// one input row makes.
const srfBatchRows = 4096

// TableFuncColumns is the output columns of the set-returning function fn
// over arguments of the given types (dictionary-encoded text counts as
// text). Unknown functions and argument types are 42883.
// generate_series over timestamps takes (timestamp, timestamp, interval)
// of one timestamp type, the interval as Arrow's month-day-nano interval.
func TableFuncColumns(fn string, args []arrow.DataType) ([]arrow.Field, error) {
	fn = strings.ToLower(fn)
	if parts, ok, err := zipParts(fn, len(args)); ok {
		if err != nil {
			return nil, err
		}
		return zipColumns(parts, args)
	}
	t, err := srfResultType(fn, args)
	if err != nil {
		return nil, err
	}
	return []arrow.Field{{Name: fn, Type: t, Nullable: true}}, nil
}

func srfUndefined(fn string, args []arrow.DataType) error {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = expr.PGTypeName(a)
	}
	return pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", fn, strings.Join(names, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

func srfResultType(fn string, args []arrow.DataType) (arrow.DataType, error) {
	plain := make([]arrow.DataType, len(args))
	for i, a := range args {
		plain[i] = plainType(a)
	}
	switch fn {
	case "generate_series":
		if len(args) == 3 && plain[0].ID() == arrow.TIMESTAMP && arrow.TypeEqual(plain[0], plain[1]) &&
			plain[2].ID() == arrow.INTERVAL_MONTH_DAY_NANO {
			return plain[0], nil
		}
		if len(args) != 2 && len(args) != 3 {
			break
		}
		return seriesType(plain)
	case "unnest":
		if len(args) == 1 {
			if et := listElem(plain[0]); et != nil {
				return et, nil
			}
		}
	default:
		if jsonSRFs[fn] { // srf_json.go
			if t, ok := jsonSRFType(fn, args); ok {
				return t, nil
			}
		}
	case "generate_subscripts":
		if (len(args) == 2 || len(args) == 3 && isBoolOrNull(plain[2])) && listElem(plain[0]) != nil && isIntOrNull(plain[1]) {
			return expr.Int4, nil
		}
	}
	return nil, srfUndefined(fn, args)
}

// seriesType is the type generate_series works in over these arguments.
func seriesType(args []arrow.DataType) (arrow.DataType, error) {
	res := arrow.DataType(nil)
	rank := 0 // 1 int4, 2 int8, 3 numeric
	for _, a := range args {
		switch a.ID() {
		case arrow.NULL:
		case arrow.INT16, arrow.INT32:
			rank = max(rank, 1)
		case arrow.INT64:
			rank = max(rank, 2)
		case arrow.DECIMAL128:
			rank = max(rank, 3)
		case arrow.EXTENSION:
			if !expr.IsNumericType(a) {
				return nil, srfUndefined("generate_series", args)
			}
			rank = max(rank, 3)
		case arrow.TIMESTAMP, arrow.DATE32, arrow.INTERVAL_MONTH_DAY_NANO:
			// The time series takes (timestamp, timestamp, interval) of
			// one timestamp type; dates are cast to timestamptz first.
			return nil, srfUndefined("generate_series", args)
		default:
			return nil, srfUndefined("generate_series", args)
		}
	}
	switch rank {
	case 0, 1:
		res = expr.Int4
	case 2:
		res = expr.Int8
	default:
		res = expr.NumericType()
	}
	return res, nil
}

func listElem(t arrow.DataType) arrow.DataType {
	switch t := t.(type) {
	case *arrow.ListType:
		return t.Elem()
	case *arrow.LargeListType:
		return t.Elem()
	case *arrow.FixedSizeListType:
		return t.Elem()
	}
	return nil
}

func isIntOrNull(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.NULL, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

func isBoolOrNull(t arrow.DataType) bool { return t.ID() == arrow.NULL || t.ID() == arrow.BOOL }

// srfGen produces the rows of a set-returning function for one input row
// at a time.
type srfGen interface {
	// begin starts input row i of the evaluated arguments.
	begin(args []arrow.Array, i int) error
	// fill appends up to n values and returns how many (0: row done).
	fill(n int) (int, error)
	appendNull()
	// finish returns the values appended since the last finish.
	finish(ctx context.Context) (arrow.Array, error)
	release()
}

// tableFuncOp evaluates a set-returning function per input row (SELECT
// srf(...), FROM t, LATERAL srf(...)).
type tableFuncOp struct {
	in          engine.Operator
	fn          string
	args        []expr.Program
	ordinality  bool
	outer       bool
	schema      *arrow.Schema
	resT        arrow.DataType
	cols        []arrow.Field  // the function's columns
	tz          *time.Location // session time zone (timestamptz series)
	ctx         context.Context
	gen         srfGen
	batch       arrow.RecordBatch // current input batch (retained)
	argVals     []arrow.Array
	row         int   // current input row of batch
	inRow       bool  // begin was called for row and it may have more
	producedRow int64 // rows made so far by the current input row
	out         arrow.RecordBatch
	done        bool
}

// NewTableFunc evaluates a set-returning function once per input row:
// output = the input columns, then the function's columns, then (with
// ordinality) a bigint "ordinality" column counting each input row's
// rows from 1. An input row producing no rows is dropped unless outer
// (then one row with NULL function columns and NULL ordinality). Output
// batches have at most 4096 rows even when one input row makes millions.
func NewTableFunc(in engine.Operator, fn string, args []expr.Expr, ordinality, outer bool, opts ...expr.CompileOptions) (engine.Operator, error) {
	fn = strings.ToLower(fn)
	types := make([]arrow.DataType, len(args))
	for i, a := range args {
		types[i] = a.Type()
	}
	cols, err := TableFuncColumns(fn, types)
	if err != nil {
		return nil, err
	}
	o := &tableFuncOp{in: in, fn: fn, ordinality: ordinality, outer: outer, resT: cols[0].Type, cols: cols, tz: time.UTC}
	if len(opts) > 0 && opts[0].TimeZone != nil {
		o.tz = opts[0].TimeZone
	}
	for _, a := range args {
		p, err := expr.Compile(a, in.Schema(), opts...)
		if err != nil {
			return nil, err
		}
		o.args = append(o.args, p)
	}
	fields := append([]arrow.Field(nil), in.Schema().Fields()...)
	fields = append(fields, cols...)
	if ordinality {
		fields = append(fields, arrow.Field{Name: "ordinality", Type: expr.Int8, Nullable: true})
	}
	o.schema = arrow.NewSchema(fields, nil)
	return o, nil
}

func (o *tableFuncOp) newGen(mem memory.Allocator) srfGen {
	if parts, ok, _ := zipParts(o.fn, len(o.args)); ok {
		return newZipGen(o, mem, parts)
	}
	return newGenFor(o.fn, o.resT, mem, o.tz)
}

// newGenFor is the generator of one function with result type resT.
func newGenFor(fn string, resT arrow.DataType, mem memory.Allocator, tz *time.Location) srfGen {
	switch fn {
	case "generate_series":
		if resT.ID() == arrow.TIMESTAMP {
			return newTimeSeries(mem, resT, tz)
		}
		if expr.IsNumericType(resT) {
			return newNumericSeries(mem)
		}
		return newIntSeries(mem, resT)
	case "unnest":
		return &unnestGen{}
	case "generate_subscripts":
		return newSubscripts(mem)
	default: // srf_json.go
		return newJSONSRFGen(fn, mem)
	}
}

func (o *tableFuncOp) Open(ctx context.Context) error {
	o.ctx = ctx
	o.gen = o.newGen(expr.Allocator(ctx))
	return o.in.Open(ctx)
}

// nextBatch moves to the next input batch; false at the end.
func (o *tableFuncOp) nextBatch() (bool, error) {
	o.dropBatch()
	for {
		if err := o.ctx.Err(); err != nil {
			return false, err
		}
		b, err := o.in.Next()
		if err != nil || b == nil {
			return false, err
		}
		vals := make([]arrow.Array, len(o.args))
		for i, p := range o.args {
			v, err := p.Eval(o.ctx, b)
			if err != nil {
				releaseAll(vals)
				return false, err
			}
			vals[i] = v
		}
		b.Retain()
		o.batch, o.argVals, o.row, o.inRow = b, vals, 0, false
		return true, nil
	}
}

func (o *tableFuncOp) dropBatch() {
	if o.batch != nil {
		o.batch.Release()
		o.batch = nil
	}
	releaseAll(o.argVals)
	o.argVals = nil
}

func (o *tableFuncOp) Next() (arrow.RecordBatch, error) {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	for !o.done {
		if o.batch == nil {
			ok, err := o.nextBatch()
			if err != nil {
				return nil, err
			}
			if !ok {
				o.done = true
				break
			}
		}
		out, err := o.chunk()
		if err != nil {
			return nil, err
		}
		if out != nil {
			o.out = out
			return out, nil
		}
	}
	return nil, nil
}

// chunk makes up to srfBatchRows rows from the current input batch; nil
// when the batch made none (it is then released).
func (o *tableFuncOp) chunk() (arrow.RecordBatch, error) {
	var inIdx []int32
	var ords []int64
	var ordValid []bool
	n := int(o.batch.NumRows())
	for len(inIdx) < srfBatchRows && o.row < n {
		if len(inIdx)&1023 == 1023 {
			if err := o.ctx.Err(); err != nil {
				return nil, err
			}
		}
		if !o.inRow {
			if err := o.gen.begin(o.argVals, o.row); err != nil {
				return nil, err
			}
			o.inRow, o.producedRow = true, 0
		}
		k, err := o.gen.fill(srfBatchRows - len(inIdx))
		if err != nil {
			return nil, err
		}
		for j := 0; j < k; j++ {
			inIdx = append(inIdx, int32(o.row))
			o.producedRow++
			ords = append(ords, o.producedRow)
			ordValid = append(ordValid, true)
		}
		if k > 0 {
			continue
		}
		// This input row is done.
		if o.producedRow == 0 && o.outer {
			o.gen.appendNull()
			inIdx = append(inIdx, int32(o.row))
			ords = append(ords, 0)
			ordValid = append(ordValid, false)
		}
		o.row++
		o.inRow = false
	}
	if len(inIdx) == 0 {
		o.dropBatch()
		return nil, nil
	}
	mem := expr.Allocator(o.ctx)
	var fnCols []arrow.Array
	if mg, ok := o.gen.(multiGen); ok {
		all, err := mg.finishAll(o.ctx)
		if err != nil {
			return nil, err
		}
		fnCols = all
	} else {
		fnCol, err := o.gen.finish(o.ctx)
		if err != nil {
			return nil, err
		}
		fnCols = []arrow.Array{fnCol}
	}
	cols := make([]arrow.Array, 0, o.schema.NumFields())
	defer func() { releaseAll(cols) }()
	ia := int32Array(mem, inIdx)
	defer ia.Release()
	for j := 0; j < int(o.batch.NumCols()); j++ {
		c, err := takeColumn(o.ctx, o.batch.Column(j), ia, inIdx)
		if err != nil {
			releaseAll(fnCols)
			return nil, err
		}
		cols = append(cols, c)
	}
	cols = append(cols, fnCols...)
	if o.ordinality {
		b := array.NewInt64Builder(mem)
		b.AppendValues(ords, ordValid)
		cols = append(cols, b.NewArray())
		b.Release()
	}
	if o.row >= n {
		o.dropBatch()
	}
	return array.NewRecordBatch(o.schema, cols, int64(len(inIdx))), nil
}

func (o *tableFuncOp) Close() error {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	o.dropBatch()
	if o.gen != nil {
		o.gen.release()
		o.gen = nil
	}
	return o.in.Close()
}

func (o *tableFuncOp) Schema() *arrow.Schema { return o.schema }

// anyNull reports whether any argument is NULL at row i (strict functions
// make no rows then).
func anyNull(args []arrow.Array, i int) bool {
	for _, a := range args {
		if a.IsNull(i) {
			return true
		}
	}
	return false
}

// intAt reads an integer argument.
func intAt(a arrow.Array, i int) int64 {
	switch a := a.(type) {
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	}
	panic(fmt.Sprintf("intAt: %s", a.DataType()))
}

var errZeroStep = pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")

func errNotList(a arrow.Array) error {
	return fmt.Errorf("set-returning function over %s, not a list", a.DataType())
}

// takeColumn gathers rows idx of a (ia holds the same indexes), also for
// the month-day-nano intervals Arrow's take does not handle.
func takeColumn(ctx context.Context, a, ia arrow.Array, idx []int32) (arrow.Array, error) {
	iv, ok := a.(*array.MonthDayNanoInterval)
	if !ok {
		return expr.TakeArray(ctx, a, ia)
	}
	b := array.NewMonthDayNanoIntervalBuilder(expr.Allocator(ctx))
	defer b.Release()
	for _, i := range idx {
		if iv.IsNull(int(i)) {
			b.AppendNull()
		} else {
			b.Append(iv.Value(int(i)))
		}
	}
	return b.NewArray(), nil
}
