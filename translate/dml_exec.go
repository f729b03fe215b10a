package translate

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/dml"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/lower"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/parse"
)

// dmlStatement is a prepared DELETE, UPDATE, MERGE or INSERT ... ON
// CONFLICT / RETURNING. Like INSERT it binds at Prepare (to infer its
// parameters and describe RETURNING) and again at Execute, with the
// parameter values and the table as it is then.
type dmlStatement struct {
	sess     *session
	ps       parse.Stmt
	what     string // the statement's name in errors: "DELETE", "UPDATE"...
	bindFn   func(b *bind.Binder) (*bind.DMLPlan, error)
	declared []uint32
	params   []uint32
	cols     []pgtypes.Column
}

// prepareDML prepares a row-level change whose binder is bindFn.
func (s *session) prepareDML(ctx context.Context, ps parse.Stmt, what string, paramTypes []uint32, eager bool, bindFn func(b *bind.Binder) (*bind.DMLPlan, error)) (Statement, error) {
	st := &dmlStatement{sess: s, ps: ps, what: what, bindFn: bindFn, declared: append([]uint32(nil), paramTypes...)}
	if eager {
		if _, err := st.bind(ctx, nil); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// dmlPrepare routes the row-level change statements to their binders; ok
// is false for any other statement.
func (s *session) dmlPrepare(ctx context.Context, ps parse.Stmt, paramTypes []uint32, eager bool) (Statement, bool, error) {
	if ins := ps.Node.GetInsertStmt(); ins != nil && ins.OnConflictClause == nil && len(ins.ReturningList) == 0 {
		if dmlTargetHint(ps) != nil { // options_dml.go
			st, err := s.prepareInsert(ctx, ps, ins, paramTypes, eager)
			return st, true, err
		}
		return nil, false, nil
	}
	what, bindFn, ok := dmlBinder(ps.Node)
	if !ok {
		return nil, false, nil
	}
	st, err := s.prepareDML(ctx, ps, what, paramTypes, eager, bindFn)
	return st, true, err
}

// dmlBinder is the binder of a row-level change statement (INSERT as an
// upsert or with RETURNING) and the statement's name; ok is false for
// other statements.
func dmlBinder(n *pg.Node) (what string, bindFn func(b *bind.Binder) (*bind.DMLPlan, error), ok bool) {
	switch x := n.Node.(type) {
	case *pg.Node_DeleteStmt:
		return "DELETE", func(b *bind.Binder) (*bind.DMLPlan, error) { return b.BindDelete(x.DeleteStmt) }, true
	case *pg.Node_UpdateStmt:
		return "UPDATE", func(b *bind.Binder) (*bind.DMLPlan, error) { return b.BindUpdate(x.UpdateStmt) }, true
	case *pg.Node_MergeStmt:
		return "MERGE", func(b *bind.Binder) (*bind.DMLPlan, error) { return b.BindMerge(x.MergeStmt) }, true
	case *pg.Node_InsertStmt:
		return "INSERT", func(b *bind.Binder) (*bind.DMLPlan, error) { return b.BindUpsert(x.InsertStmt) }, true
	}
	return "", nil, false
}

// bind binds the statement; values are the parameters at Execute (nil at
// Prepare).
func (st *dmlStatement) bind(ctx context.Context, values []*string) (*bind.DMLPlan, error) {
	ps := bind.NewParamSet(st.declared, st.params, values)
	b := bind.New(ctx, st.sess, st.ps, ps, time.Now())
	p, err := st.bindFn(b)
	if err != nil {
		return nil, err
	}
	ps.ResolveUntyped()
	if st.params == nil {
		st.params = ps.Types
		st.cols = p.Returning
	}
	return p, nil
}

func (st *dmlStatement) ParamTypes() []uint32      { return st.params }
func (st *dmlStatement) Columns() []pgtypes.Column { return st.cols }

func (st *dmlStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	mc, err := st.sess.mutableCatalog(st.what)
	if err != nil {
		return nil, err
	}
	st.sess.newStatementSnapshot()
	if params == nil {
		params = []*string{}
	}
	if st.params != nil && len(params) != len(st.params) {
		return nil, pgerr.New(pgerr.ProtocolViolation,
			"bind message supplies %d parameters, but prepared statement requires %d", len(params), len(st.params))
	}
	p, err := st.bind(ctx, params)
	if err != nil {
		return nil, err
	}
	if st.cols != nil && !sameColumns(p.Returning, st.cols) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cached plan must not change result type")
	}
	ctx, cancel := st.sess.withStatementTimeout(ctx)
	defer cancel()
	hint := dmlTargetHint(st.ps) // options_dml.go
	res, err := st.sess.runDML(ctx, mc, p, hintWriteOptions(hint))
	if err != nil {
		return nil, statementErr(ctx, err)
	}
	st.sess.markQueried()
	if hint != nil {
		res = addNotices(res, hintNoticesOf(hint))
	}
	return res, nil
}

// runDML runs a bound change: it lowers the plan, feeds its rows to a
// dml.Writer, commits the change (or stages it in a block) and returns the
// RETURNING rows with the tag. The statement is atomic: on any error the
// files it wrote are removed and the table is as it was.
func (s *session) runDML(ctx context.Context, mc catalog.MutableCatalog, p *bind.DMLPlan, wo writeOptions) (Rows, error) {
	props := p.Table.Metadata.Properties
	op := p.Kind.Operation()
	mode, err := dml.ModeOf(props, op)
	if err != nil {
		return nil, err
	}
	iso, err := s.isolationLevel(props, op, wo.stmt)
	if err != nil {
		return nil, err
	}
	format, err := s.writeFormat(wo) // options_write.go
	if err != nil {
		return nil, err
	}
	src, preds, err := lowerDML(ctx, s, p)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	out, err := mc.NewOutput(p.Table)
	if err != nil {
		return nil, catalogError(err, kindTable, p.Table.Ident.Name)
	}
	var snap *catalog.Snapshot
	if p.Target != nil {
		snap = p.Target.Snapshot
	}
	w, err := dml.New(ctx, dml.Spec{Table: p.Table, Snapshot: snap, Schema: p.Schema, Out: out, Mode: mode,
		Format: format})
	if err != nil {
		return nil, writeError(err, p.Table)
	}
	run := &dmlRun{plan: p, w: w, ctx: ctx, with: wo.track.Run(p, mode)}
	if err := run.consume(src); err != nil {
		w.Abort()
		run.release()
		return nil, err
	}
	ch, err := w.Finish(ctx)
	if err != nil {
		w.Abort()
		run.release()
		return nil, writeError(err, p.Table)
	}
	if run.with != nil {
		if err := run.with.Finished(dataFilePaths(ch.RemovedDataFiles)); err != nil {
			w.Abort()
			run.release()
			return nil, err
		}
	}
	if !emptyChange(ch) {
		ch.Isolation = iso
		ch.ConflictFilter = preds
		if err := s.validateFrom(ch, wo.stmt); err != nil {
			w.Abort()
			run.release()
			return nil, err
		}
		wo.addTo(ch)
		if err := s.commitChange(ctx, mc, p.Table, ch, w.Abort); err != nil {
			run.release()
			return nil, err
		}
	}
	tag := p.Kind.Tag(run.count)
	if p.Returning == nil {
		run.release()
		return &emptyRows{tag: tag}, nil
	}
	return &batchRows{batches: run.returned, tag: tag}, nil
}

func emptyChange(ch *catalog.Change) bool {
	return len(ch.AddedDataFiles) == 0 && len(ch.AddedDeleteFiles) == 0 && len(ch.RemovedDataFiles) == 0 && len(ch.RemovedDeleteFiles) == 0
}

// lowerDML lowers a plan's query; it also returns the pruning predicates
// lowering found for the target's scan: the rows the change read, which
// serializable validation checks concurrent appends against.
func lowerDML(ctx context.Context, s *session, p *bind.DMLPlan) (engine.Operator, []catalog.Predicate, error) {
	l := lower.New(ctx, s, p.Sel.ColTable)
	op, err := l.Plan(opt.Statement(p.Sel, s.optConfig()))
	if err != nil {
		return nil, nil, err
	}
	var preds []catalog.Predicate
	if p.Target != nil {
		preds = l.ScanPreds[p.Target]
	}
	op = s.limitMemory(op)
	if err := op.Open(ctx); err != nil {
		op.Close()
		return nil, nil, err
	}
	return op, preds, nil
}

// dmlRun is one execution's bookkeeping: affected rows, RETURNING rows.
type dmlRun struct {
	ctx      context.Context
	plan     *bind.DMLPlan
	w        *dml.Writer
	count    int64
	returned []arrow.RecordBatch
	// with checks the rows a statement under a data-modifying WITH
	// changes (nil otherwise; dml_with_track.go).
	with *dmlWithRun
}

func (r *dmlRun) release() {
	for _, b := range r.returned {
		b.Release()
	}
	r.returned = nil
}

// consume reads every row of src and applies it.
func (r *dmlRun) consume(src engine.Operator) error {
	for {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		b, err := src.Next()
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		if err := r.Apply(b); err != nil {
			return err
		}
	}
}

// apply applies one batch of the plan's rows: removals go to the Writer
// row by row (it detects a target row reached twice), new rows and
// RETURNING rows are gathered and passed on per batch.
func (r *dmlRun) Apply(b arrow.RecordBatch) error {
	p := r.plan
	files := stringColumn(b.Column(bind.DmlColFile))
	pos, _ := b.Column(bind.DmlColPos).(*array.Int64)
	action, ok := b.Column(bind.DmlColAction).(*array.Int32)
	if !ok || pos == nil {
		return fmt.Errorf("dml plan: columns %s, %s, want int8 positions and int4 actions",
			b.Column(bind.DmlColPos).DataType(), b.Column(bind.DmlColAction).DataType())
	}
	rowIDs, _ := b.Column(bind.DmlColRowID).(*array.Int64)
	var inserts, updates, returned []int32
	for i := 0; i < int(b.NumRows()); i++ {
		if action.IsNull(i) {
			continue
		}
		a := action.Value(i)
		switch a {
		case bind.DMLNone:
			continue
		case bind.DMLCardinality:
			return p.Cardinality.Err()
		}
		if a != bind.DMLInsert && !files.isNull(i) {
			first, err := r.w.Delete(files.value(i), pos.Value(i))
			if err != nil {
				return writeError(err, p.Table)
			}
			if !first {
				if p.Dup == bind.DupError {
					return p.Cardinality.Err()
				}
				continue
			}
			if r.with != nil {
				if err := r.with.Touch(files.value(i), pos.Value(i)); err != nil {
					return err
				}
			}
		}
		switch {
		case a == bind.DMLUpdate && rowIDs != nil && !rowIDs.IsNull(i):
			updates = append(updates, int32(i)) // keeps its row id
		case a == bind.DMLUpdate || a == bind.DMLInsert:
			inserts = append(inserts, int32(i))
		}
		returned = append(returned, int32(i))
		r.count++
	}
	if len(inserts) > 0 {
		rows, err := r.slice(b, bind.DmlColValues, len(p.Cols), inserts, tableFields(p.Cols))
		if err != nil {
			return err
		}
		err = r.w.Insert(rows)
		rows.Release()
		if err != nil {
			return writeError(err, p.Table)
		}
	}
	if len(updates) > 0 {
		// The new rows with their row ids, as the lineage writer takes
		// them.
		fields := append(tableFields(p.Cols), arrow.Field{Name: "_row_id", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
		rows, err := r.sliceCols(b, append(seqInts(bind.DmlColValues, len(p.Cols)), bind.DmlColRowID), updates, fields)
		if err != nil {
			return err
		}
		err = r.w.Update(rows)
		rows.Release()
		if err != nil {
			return writeError(err, p.Table)
		}
	}
	if p.Returning != nil && len(returned) > 0 {
		first := bind.DmlColValues + len(p.Cols)
		fields := make([]arrow.Field, len(p.Returning))
		for j, c := range p.Returning {
			fields[j] = arrow.Field{Name: c.Name, Type: b.Column(first + j).DataType(), Nullable: true}
		}
		rows, err := r.slice(b, first, len(p.Returning), returned, fields)
		if err != nil {
			return err
		}
		r.returned = append(r.returned, rows)
	}
	return nil
}

// slice gathers rows idx of b's columns [first, first+n) into a batch with
// fields.
func (r *dmlRun) slice(b arrow.RecordBatch, first, n int, idx []int32, fields []arrow.Field) (arrow.RecordBatch, error) {
	return r.sliceCols(b, seqInts(first, n), idx, fields)
}

// seqInts is first, first+1, ..., first+n-1.
func seqInts(first, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = first + i
	}
	return out
}

// sliceCols gathers rows idx of b's columns cols into a batch with fields.
func (r *dmlRun) sliceCols(b arrow.RecordBatch, which []int, idx []int32, fields []arrow.Field) (arrow.RecordBatch, error) {
	n := len(which)
	mem := expr.Allocator(r.ctx)
	ib := array.NewInt32Builder(mem)
	ib.AppendValues(idx, nil)
	ia := ib.NewArray()
	ib.Release()
	defer ia.Release()
	cols := make([]arrow.Array, 0, n)
	for _, j := range which {
		c, err := expr.TakeArray(r.ctx, b.Column(j), ia)
		if err != nil {
			for _, c := range cols {
				c.Release()
			}
			return nil, err
		}
		cols = append(cols, c)
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(len(idx)))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// tableFields are the Arrow fields of a table's columns, as the Writer
// wants them.
func tableFields(cols []bind.Column) []arrow.Field {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Arrow, Nullable: true}
	}
	return fields
}

// stringCol reads a text column however it is encoded.
type stringCol struct {
	a    arrow.Array
	str  *array.String
	dict *array.Dictionary
	dv   *array.String
}

func stringColumn(a arrow.Array) stringCol {
	c := stringCol{a: a}
	switch x := a.(type) {
	case *array.String:
		c.str = x
	case *array.Dictionary:
		c.dict = x
		c.dv, _ = x.Dictionary().(*array.String)
	}
	return c
}

func (c stringCol) isNull(i int) bool { return c.a.IsNull(i) }

func (c stringCol) value(i int) string {
	switch {
	case c.str != nil:
		return c.str.Value(i)
	case c.dv != nil:
		return c.dv.Value(c.dict.GetValueIndex(i))
	}
	return c.a.ValueStr(i)
}

// Session settings of row-level changes (seed 000's write options).
const (
	settingIsolationLevel   = "iceberg.isolation_level"
	settingValidateFromSnap = "iceberg.validate_from_snapshot_id"
)

// isolationLevel is the statement's isolation-level option when given,
// else the session's iceberg.isolation_level when set, else the table's
// write.<op>.isolation-level.
func (s *session) isolationLevel(props map[string]string, op dml.Operation, stmt map[string]string) (catalog.IsolationLevel, error) {
	v, _ := s.settings.Get(settingIsolationLevel)
	if sv, ok := stmt["isolation-level"]; ok {
		v = sv
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "":
		return dml.IsolationOf(props, op)
	case "serializable":
		return catalog.Serializable, nil
	case "snapshot":
		return catalog.SnapshotIsolation, nil
	}
	return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", settingIsolationLevel, v).
		WithHint("Available values: serializable, snapshot.")
}

// validateFrom applies the statement's validate-from-snapshot-id option
// or else iceberg.validate_from_snapshot_id: the change is validated
// against every snapshot after that one instead of after the one the
// statement read.
func (s *session) validateFrom(ch *catalog.Change, stmt map[string]string) error {
	v, _ := s.settings.Get(settingValidateFromSnap)
	if sv, ok := stmt["validate-from-snapshot-id"]; ok {
		v = sv
	}
	if v = strings.TrimSpace(v); v == "" {
		return nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", settingValidateFromSnap, v)
	}
	ch.BaseSnapshotID = &id
	return nil
}
