package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// JoinType is the kind of a join: which rows it keeps and what it outputs.
type JoinType int

const (
	JoinInner JoinType = iota
	JoinLeft           // all left rows; right columns NULL when unmatched
	JoinRight          // all right rows
	JoinFull
	JoinSemi // left rows with at least one match; output = left columns only
	JoinAnti // left rows with no match; output = left columns only
	JoinMark // every left row once, plus one trailing bool column (see JoinSpec.NullAware)
)

var joinTypeNames = [...]string{"inner", "left", "right", "full", "semi", "anti", "mark"}

func (t JoinType) String() string {
	if t >= 0 && int(t) < len(joinTypeNames) {
		return joinTypeNames[t]
	}
	return fmt.Sprintf("JoinType(%d)", int(t))
}

// JoinSpec says how two inputs join.
type JoinSpec struct {
	Type JoinType
	// Equi keys: LeftKeys[i] (over left's schema) = RightKeys[i] (over
	// right's schema). Same Arrow type on both sides (the planner casts). A
	// NULL key never matches unless NullSafe[i] (IS NOT DISTINCT FROM).
	LeftKeys, RightKeys []expr.Expr
	NullSafe            []bool // nil = all false
	// Residual: extra condition over the concatenated row (left columns
	// then right columns); a pair matches only when it is true (NULL = no
	// match). nil = none.
	Residual expr.Expr
	// NullAware: NOT IN / IN semantics for Anti and Mark with one key. For
	// Anti, if the right side has a row whose key is NULL, or the left key
	// is NULL and the right side is non-empty, the left row is not emitted.
	// For Mark: mark = true if a match; else NULL if (right has a NULL key)
	// or (left key NULL and right non-empty); else false. Without
	// NullAware, Mark is EXISTS: true/false only. With a residual, only the
	// right rows the residual accepts count.
	NullAware bool
	// Single: a left row that matches more than one right row is an error,
	// SQLSTATE 21000 (scalar subqueries; with JoinLeft).
	Single   bool
	MarkName string // name of the mark column ("mark" if empty)
	// BuildLeft: hold the left input in memory (the hash table on its
	// keys) and stream the right one, for a left input much smaller than
	// the right. Only Semi, Anti, Mark and Single Left joins take it
	// (join_build_left.go); the output is the same as without it.
	BuildLeft bool
	// Unused, when set, has a flag for every input column, left then
	// right: a flagged column is read by nothing above the join, which
	// may then emit it as all NULL instead of gathering its rows (only
	// where the output column is nullable). The residual still reads it.
	Unused []bool
}

// NewHashJoin joins left and right on equi keys: it builds a hash table
// on the right input (the planner puts the smaller side there) and streams
// the left; with spec.BuildLeft, the other way round. It needs at least one key. Right and Full joins emit the
// unmatched right rows at the end. The right side is held in memory
// whole. Rows come out in no particular order. opts are the session's
// compile options.
func NewHashJoin(left, right engine.Operator, spec JoinSpec, opts ...expr.CompileOptions) (engine.Operator, error) {
	if len(spec.LeftKeys) == 0 {
		return nil, fmt.Errorf("hash join: no equi keys")
	}
	return newJoin(left, right, spec, opts)
}

// NewNestedLoopJoin joins left and right on any condition (also none: a
// cross join). It buffers the right input and evaluates the residual over
// batches pairing a left row with a run of right rows. Keys, if given, are
// part of the condition (they are matched through a hash table on the
// buffered right side). opts are the session's compile options.
func NewNestedLoopJoin(left, right engine.Operator, spec JoinSpec, opts ...expr.CompileOptions) (engine.Operator, error) {
	return newJoin(left, right, spec, opts)
}

// joinOp runs both kinds of join: with keys, candidates come from a hash
// table on the right side; without, every right row is a candidate.
type joinOp struct {
	left, right engine.Operator
	spec        JoinSpec
	lkeys       []expr.Program
	rkeys       []expr.Program
	nullSafe    []bool
	residual    *expr.Program
	resCols     []bool        // the pair columns the residual reads; nil = all
	pairCmps    []pairCmp     // the residual as comparisons of two columns; nil = not one
	standIns    []arrow.Array // all-NULL columns standing in for the others, by pair column
	skipL       []bool        // left columns emitted all NULL (JoinSpec.Unused); nil = none
	skipR       []bool        // right columns emitted all NULL; nil = none
	nullAware   bool

	// The roles of the inputs: the build side is held in memory and
	// indexed by its keys, the probe side streams. Normally build = right.
	buildIn, probeIn engine.Operator
	buildKeys        []expr.Program
	probeKeys        []expr.Program
	probeKeyExprs    []expr.Expr   // the probe keys as written
	buildSchema      *arrow.Schema // the build input's columns, decoded

	schema      *arrow.Schema // output
	pairSchema  *arrow.Schema // left then right columns, decoded, nullable
	rightSchema *arrow.Schema // right columns, decoded

	ctx   context.Context
	build joinBuild
	probe joinProbe
	out   arrow.RecordBatch

	pending     []arrow.RecordBatch // small results waiting to be emitted together
	pendingRows int

	rightMatched []bool // Right/Full: build rows that found a partner
	leftDone     bool
	tailPos      int // next build row the unmatched-right tail looks at

	bl buildLeftState // BuildLeft only

	// shared, when set, is the build side this join shares with the
	// other parts of a parallel pipeline (join_shared.go); right is then
	// its input, which the join neither opens nor closes.
	shared *SharedBuild
	// partMem accounts what a part keeps per shared build row; tail is
	// whether this part emits the build rows' tail (1), another part does
	// (-1), or its probe has not ended (0).
	partMem memAccount
	tail    int8

	// Spilling (join_spill.go): the compile options a partition's join
	// is made with, how many spilled joins this one is under, the
	// partitions, and the bytes written by earlier opens.
	opts    []expr.CompileOptions
	depth   int
	grace   *graceJoin
	spilled int64
}

func newJoin(left, right engine.Operator, spec JoinSpec, opts []expr.CompileOptions) (*joinOp, error) {
	if spec.Type < JoinInner || spec.Type > JoinMark {
		return nil, fmt.Errorf("join: unknown join type %d", int(spec.Type))
	}
	if len(spec.LeftKeys) != len(spec.RightKeys) {
		return nil, fmt.Errorf("join: %d left keys but %d right keys", len(spec.LeftKeys), len(spec.RightKeys))
	}
	if spec.NullSafe != nil && len(spec.NullSafe) != len(spec.LeftKeys) {
		return nil, fmt.Errorf("join: %d NullSafe flags for %d keys", len(spec.NullSafe), len(spec.LeftKeys))
	}
	o := &joinOp{left: left, right: right, spec: spec, opts: opts}
	o.nullAware = spec.NullAware && (spec.Type == JoinAnti || spec.Type == JoinMark)
	if o.nullAware && len(spec.LeftKeys) != 1 {
		return nil, fmt.Errorf("join: null-aware %s join needs exactly one key, not %d", spec.Type, len(spec.LeftKeys))
	}
	o.nullSafe = make([]bool, len(spec.LeftKeys))
	copy(o.nullSafe, spec.NullSafe)
	if o.nullAware && o.nullSafe[0] {
		return nil, fmt.Errorf("join: a null-aware %s join cannot have a null-safe key", spec.Type)
	}
	for i := range spec.LeftKeys {
		lt, rt := valueType(spec.LeftKeys[i].Type()), valueType(spec.RightKeys[i].Type())
		if !arrow.TypeEqual(lt, rt) {
			return nil, fmt.Errorf("join key %d: left type %s differs from right type %s", i+1, lt, rt)
		}
		if err := checkJoinKeyType(lt); err != nil {
			return nil, err
		}
		lp, err := expr.Compile(spec.LeftKeys[i], left.Schema(), opts...)
		if err != nil {
			return nil, fmt.Errorf("join left key %d: %w", i+1, err)
		}
		rp, err := expr.Compile(spec.RightKeys[i], right.Schema(), opts...)
		if err != nil {
			return nil, fmt.Errorf("join right key %d: %w", i+1, err)
		}
		o.lkeys = append(o.lkeys, lp)
		o.rkeys = append(o.rkeys, rp)
	}
	lf := decodedFields(left.Schema(), false)
	rf := decodedFields(right.Schema(), false)
	o.rightSchema = arrow.NewSchema(rf, nil)
	o.buildIn, o.probeIn = right, left
	o.buildKeys, o.probeKeys, o.probeKeyExprs = o.rkeys, o.lkeys, spec.LeftKeys
	o.buildSchema = o.rightSchema
	if spec.BuildLeft {
		if !buildsLeft(spec) {
			return nil, fmt.Errorf("join: a %s join cannot build on its left input", spec.Type)
		}
		o.buildIn, o.probeIn = left, right
		o.buildKeys, o.probeKeys, o.probeKeyExprs = o.lkeys, o.rkeys, spec.RightKeys
		o.buildSchema = arrow.NewSchema(lf, nil)
	}
	pair := append(decodedFields(left.Schema(), true), decodedFields(right.Schema(), true)...)
	o.pairSchema = arrow.NewSchema(pair, nil)
	if spec.Residual != nil {
		if id := spec.Residual.Type().ID(); id != arrow.BOOL && id != arrow.NULL {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of JOIN/ON must be type boolean, not type %s", expr.PGTypeName(spec.Residual.Type()))
		}
		raw := append(append([]arrow.Field(nil), left.Schema().Fields()...), right.Schema().Fields()...)
		p, err := expr.Compile(spec.Residual, arrow.NewSchema(raw, nil), opts...)
		if err != nil {
			return nil, fmt.Errorf("join condition: %w", err)
		}
		o.residual = &p
		o.resCols = residualColumns(spec.Residual, len(raw))
		o.pairCmps = pairComparisons(spec.Residual, len(raw))
	}
	switch spec.Type {
	case JoinSemi, JoinAnti:
		o.schema = arrow.NewSchema(lf, nil)
	case JoinMark:
		name := spec.MarkName
		if name == "" {
			name = "mark"
		}
		o.schema = arrow.NewSchema(append(lf, arrow.Field{Name: name, Type: arrow.FixedWidthTypes.Boolean, Nullable: o.nullAware}), nil)
	default:
		o.schema = o.pairSchema
	}
	if spec.Unused != nil {
		if len(spec.Unused) != len(lf)+len(rf) {
			return nil, fmt.Errorf("join: %d unused flags for %d columns", len(spec.Unused), len(lf)+len(rf))
		}
		o.skipL, o.skipR = o.skipped(spec.Unused[:len(lf)], 0), o.skipped(spec.Unused[len(lf):], len(lf))
	}
	return o, nil
}

// valueType is t with a dictionary replaced by its value type (evaluation
// decodes dictionaries).
func valueType(t arrow.DataType) arrow.DataType {
	if dt, ok := t.(*arrow.DictionaryType); ok {
		return dt.ValueType
	}
	return t
}

// decodedFields are the fields of s with dictionaries decoded; nullable
// forces every field nullable.
func decodedFields(s *arrow.Schema, nullable bool) []arrow.Field {
	out := make([]arrow.Field, s.NumFields())
	for i, f := range s.Fields() {
		f.Type = valueType(f.Type)
		if nullable {
			f.Nullable = true
		}
		out[i] = f
	}
	return out
}

func (o *joinOp) Open(ctx context.Context) error {
	o.closeGrace()
	o.ctx = ctx
	if o.shared != nil {
		o.tail = 0
		if err := o.openShared(); err != nil {
			return err
		}
		if o.spec.BuildLeft {
			return o.openSharedBuildLeft()
		}
		return o.openProbe()
	}
	o.build.mem.release()
	o.build.mem = newMemAccount(ctx, "hash join build side")
	if o.spec.BuildLeft {
		return o.openBuildLeft()
	}
	if err := o.right.Open(ctx); err != nil {
		return err
	}
	if err := o.buildSide(); err != nil {
		return err
	}
	if o.grace != nil {
		// The build side spilled: so does the probe side, and Next joins
		// the partitions.
		if err := o.left.Open(ctx); err != nil {
			return err
		}
		return o.spillProbe()
	}
	return o.openProbe()
}

// openProbe readies the probe of the built side and opens the left input.
func (o *joinOp) openProbe() error {
	switch o.spec.Type {
	case JoinRight, JoinFull:
		o.rightMatched = make([]bool, o.build.rows)
	}
	switch o.spec.Type {
	case JoinInner, JoinRight, JoinSemi:
		// Nothing can match an empty right side: skip reading the left.
		o.leftDone = o.build.rows == 0
	}
	return o.left.Open(o.ctx)
}

func (o *joinOp) Close() error {
	o.closeGrace()
	o.release()
	o.releasePending()
	releaseAll(o.standIns)
	o.standIns = nil
	o.probe.release()
	var errB error
	if o.shared != nil {
		// The shared input is closed by the last part (and replaced by
		// a stand-in here).
		errB = o.leaveShared()
	} else {
		o.build.release()
	}
	errL := o.left.Close()
	errR := o.right.Close()
	for _, err := range []error{errB, errL, errR} {
		if err != nil {
			return err
		}
	}
	return nil
}

func (o *joinOp) release() {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
}

func (o *joinOp) Schema() *arrow.Schema { return o.schema }

// skipped is which of the columns flagged in unused (output columns from
// first on) the join emits all NULL: the nullable ones; nil when none.
func (o *joinOp) skipped(unused []bool, first int) []bool {
	var skip []bool
	for j, u := range unused {
		if !u || first+j >= o.schema.NumFields() || !o.schema.Field(first+j).Nullable {
			continue
		}
		if skip == nil {
			skip = make([]bool, len(unused))
		}
		skip[j] = true
	}
	return skip
}
