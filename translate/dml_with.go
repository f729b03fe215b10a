package translate

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// Data-modifying statements in WITH.
//
// WITH d AS (DELETE ... RETURNING ...) SELECT ... FROM d, and the same
// with UPDATE, INSERT or MERGE in WITH under SELECT, INSERT, UPDATE,
// DELETE or MERGE, runs as PostgreSQL does: every data-modifying WITH
// query runs exactly once and to completion, in the order written,
// whether the outer statement reads its rows or not; all of them and the
// outer statement read the same snapshots (bound before any runs, so none
// sees another's change); the RETURNING rows are the WITH query's rows;
// and the whole statement is atomic. Each change is staged in a block
// (tx_writes.go): outside a transaction a block of the statement's own,
// committed when the statement ends and rolled back on any error; inside
// one, the open block, where an error drops the statement's writes.

// dmlWithStatement is a prepared statement whose WITH holds
// data-modifying queries.
type dmlWithStatement struct {
	sess *session
	ps   parse.Stmt
	with *pg.WithClause
	what string
	// outer binds an outer DELETE, UPDATE, MERGE or INSERT; nil for a
	// SELECT.
	outer    func(b *bind.Binder) (*bind.DMLPlan, error)
	declared []uint32
	params   []uint32
	cols     []pgtypes.Column
}

// dmlWithBound is one binding of the statement.
type dmlWithBound struct {
	state *bind.DMLWithState
	// track checks the rows the statements change (nil: one change,
	// nothing to track; dml_with_track.go).
	track *dmlWithTracker
	sel   *plan.Select  // the outer SELECT, or
	dml   *bind.DMLPlan // the outer change
	cols  []pgtypes.Column
}

// prepareDMLWith prepares a statement with data-modifying WITH queries;
// ok is false for any other statement.
func (s *session) prepareDMLWith(ctx context.Context, ps parse.Stmt, paramTypes []uint32, eager bool) (Statement, bool, error) {
	w := bind.DMLWithClause(ps.Node)
	if w == nil {
		return nil, false, nil
	}
	st := &dmlWithStatement{sess: s, ps: ps, with: w, what: bind.DMLWithWhat(w), declared: append([]uint32(nil), paramTypes...)}
	_, st.outer, _ = dmlBinder(ps.Node) // nil for a SELECT
	if eager {
		if _, err := st.bind(ctx, nil); err != nil {
			return nil, true, err
		}
	}
	return st, true, nil
}

// bind binds the outer statement and, as its WITH is pushed, every
// data-modifying query; values are the parameters at Execute (nil at
// Prepare).
func (st *dmlWithStatement) bind(ctx context.Context, values []*string) (*dmlWithBound, error) {
	ps := bind.NewParamSet(st.declared, st.params, values)
	state := &bind.DMLWithState{Top: st.with}
	b := bind.New(ctx, st.sess, st.ps, ps, time.Now()).DMLWith(state)
	bound := &dmlWithBound{state: state}
	if st.outer == nil {
		sel, err := b.BindSelect(st.ps.Node.GetSelectStmt())
		if err != nil {
			return nil, err
		}
		bound.sel, bound.cols = sel, sel.Cols
	} else {
		p, err := st.outer(b)
		if err != nil {
			return nil, err
		}
		bound.dml, bound.cols = p, p.Returning
	}
	if changes := len(state.Subs); changes > 1 || changes == 1 && bound.dml != nil {
		bound.track = &dmlWithTracker{}
	}
	ps.ResolveUntyped()
	if st.params == nil {
		st.params = ps.Types
		st.cols = bound.cols
	}
	return bound, nil
}

func (st *dmlWithStatement) ParamTypes() []uint32 {
	if st.params == nil {
		if _, err := st.bind(context.Background(), nil); err != nil {
			return st.declared
		}
	}
	return st.params
}

func (st *dmlWithStatement) Columns() []pgtypes.Column {
	if st.params == nil {
		if _, err := st.bind(context.Background(), nil); err != nil {
			return nil
		}
	}
	return st.cols
}

func (st *dmlWithStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	if err := st.sess.checkNotFailed(); err != nil {
		return nil, err
	}
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
	known := st.params != nil
	bound, err := st.bind(ctx, params)
	if err != nil {
		return nil, err
	}
	if known && !sameColumns(bound.cols, st.cols) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cached plan must not change result type")
	}
	ctx, cancel := st.sess.withStatementTimeout(ctx)
	defer cancel()
	res, err := st.sess.runDMLWith(ctx, mc, bound)
	if err != nil {
		return nil, statementErr(ctx, err)
	}
	st.sess.markQueried()
	return res, nil
}

// runDMLWith runs a bound statement atomically: in a block of its own
// outside a transaction, else in the open block, whose writes by this
// statement are dropped on error.
func (s *session) runDMLWith(ctx context.Context, mc catalog.MutableCatalog, w *dmlWithBound) (Rows, error) {
	if s.tx == nil && !s.implicit {
		s.BeginImplicit()
		rows, err := s.runDMLWithSteps(ctx, mc, w)
		if err != nil {
			if s.tx != nil {
				s.tx.failed = true
			}
			_ = s.EndImplicit(context.WithoutCancel(ctx))
			return nil, err
		}
		if err := s.EndImplicit(ctx); err != nil {
			rows.Close()
			return nil, err
		}
		return rows, nil
	}
	marks := s.writeMarks()
	rows, err := s.runDMLWithSteps(ctx, mc, w)
	if err != nil {
		s.rollbackWritesTo(marks)
		return nil, err
	}
	return rows, nil
}

// runDMLWithSteps runs the data-modifying WITH queries in order, then the
// outer statement, and returns the outer statement's rows.
func (s *session) runDMLWithSteps(ctx context.Context, mc catalog.MutableCatalog, w *dmlWithBound) (Rows, error) {
	track := w.track
	for i, dc := range w.state.Subs {
		if track != nil {
			track.Stmt = i + 1
		}
		rows, err := s.runDML(ctx, mc, dc.Plan, writeOptions{track: track})
		if err != nil {
			return nil, err
		}
		err = fillDMLCTE(ctx, dc, rows)
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	if track != nil {
		track.Stmt = len(w.state.Subs) + 1
	}
	if w.dml != nil {
		return s.runDML(ctx, mc, w.dml, writeOptions{track: track})
	}
	op, err := lowerQuery(ctx, s, w.sel)
	if err != nil {
		return nil, err
	}
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return nil, err
	}
	res := &batchRows{}
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			res.Close()
			return nil, err
		}
		b, err := op.Next()
		if err != nil {
			res.Close()
			return nil, err
		}
		if b == nil {
			break
		}
		b.Retain()
		res.batches = append(res.batches, b)
		n += b.NumRows()
	}
	res.tag = fmt.Sprintf("SELECT %d", n)
	return res, nil
}

// fillDMLCTE gives every reference to the query the RETURNING rows of its run.
func fillDMLCTE(ctx context.Context, dc *bind.DMLCTE, rows Rows) error {
	br, ok := rows.(*batchRows)
	if len(dc.Refs) == 0 || !ok {
		return nil
	}
	first := bind.DmlColValues + len(dc.Plan.Cols)
	types := make([]arrow.DataType, len(dc.Plan.Returning))
	for j := range types {
		types[j] = dc.Q.Meta(dc.Plan.Sel.Out[first+j]).ArrowType
	}
	var out [][]expr.Expr
	for _, batch := range br.batches {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i := 0; i < int(batch.NumRows()); i++ {
			row := make([]expr.Expr, len(types))
			for j := range row {
				lit, err := expr.ValueLit(batch.Column(j), i)
				if err != nil {
					return err
				}
				row[j] = bind.CastIfNeeded(lit, types[j])
			}
			out = append(out, row)
		}
	}
	// The rows are constants: every reference can share them.
	for _, vr := range dc.Refs {
		vr.Rows = out
	}
	return nil
}
