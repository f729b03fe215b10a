package translate

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/parse"
)

// DECLARE's option bits (PostgreSQL's CURSOR_OPT_*).
const (
	cursorBinary   = 0x01
	cursorScroll   = 0x02
	cursorNoScroll = 0x04
	cursorHold     = 0x20
)

// declareStatement is DECLARE name CURSOR FOR query.
type declareStatement struct {
	s        *session
	name     string
	opts     int32
	sel      *selectStatement
	implicit bool // part of a query string of several statements
}

func (s *session) prepareDeclare(ctx context.Context, ps parse.Stmt, d *pg.DeclareCursorStmt, paramTypes []uint32, eager bool) (Statement, error) {
	if d.Query.GetSelectStmt() == nil {
		return nil, pgerr.NotYet("DECLARE CURSOR of this statement")
	}
	inner := ps
	inner.Node = d.Query
	sel, err := s.newSelect(ctx, inner, paramTypes, eager)
	if err != nil {
		return nil, err
	}
	return &declareStatement{s: s, name: d.Portalname, opts: d.Options, sel: sel, implicit: !eager}, nil
}

func (st *declareStatement) ParamTypes() []uint32      { return st.sel.ParamTypes() }
func (st *declareStatement) Columns() []pgtypes.Column { return nil }

func (st *declareStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := st.s
	if err := s.checkNotFailed(); err != nil {
		return nil, err
	}
	hold := st.opts&cursorHold != 0
	if s.tx == nil && !hold && !st.implicit {
		return nil, blockOnly("DECLARE CURSOR")
	}
	if _, dup := s.cursors[st.name]; dup {
		return nil, pgerr.New(pgerr.DuplicateCursor, "cursor \"%s\" already exists", st.name)
	}
	rows, err := st.sel.Execute(ctx, params)
	if err != nil {
		return nil, err
	}
	if or, ok := rows.(*operatorRows); ok {
		// statement_timeout applies to each FETCH, not to the cursor's life.
		or.timeout = 0
	}
	// PostgreSQL lets a cursor declared without SCROLL or NO SCROLL move
	// backward when its plan can; icegate's plans stream forward, so such
	// a cursor is forward-only, unless it is WITH HOLD: its rows are kept
	// for COMMIT anyway.
	scroll := st.opts&cursorScroll != 0 || (hold && st.opts&cursorNoScroll == 0)
	c := newCursor(st.name, st.sel.Columns(), rows, st.opts&cursorBinary != 0, scroll, hold)
	if s.tx != nil {
		c.depth = len(s.tx.savepoints)
	} else if hold {
		// Outside a block the implicit transaction commits at once.
		if err := c.materialize(ctx); err != nil {
			c.close()
			return nil, err
		}
	} else {
		c.implicit = true
	}
	if s.cursors == nil {
		s.cursors = map[string]*cursor{}
	}
	s.cursors[st.name] = c
	return &emptyRows{tag: "DECLARE CURSOR"}, nil
}

// fetchStatement is FETCH or MOVE.
type fetchStatement struct {
	s *session
	f *pg.FetchStmt
	c *cursor // the cursor of the last Execute
}

func (s *session) prepareFetch(f *pg.FetchStmt) Statement { return &fetchStatement{s: s, f: f} }

func (st *fetchStatement) ParamTypes() []uint32 { return nil }

// Columns are the cursor's: the one executed, else the one of that name
// now (a FETCH prepared before its DECLARE ran has none yet).
func (st *fetchStatement) Columns() []pgtypes.Column {
	if st.f.Ismove {
		return nil
	}
	if st.c != nil {
		return st.c.cols
	}
	if c := st.s.cursors[st.f.Portalname]; c != nil {
		return c.cols
	}
	return nil
}

// BinaryResults reports whether the rows go out in binary under the
// simple protocol: a FETCH from a BINARY cursor.
func (st *fetchStatement) BinaryResults() bool {
	if st.f.Ismove {
		return false
	}
	c := st.c
	if c == nil {
		c = st.s.cursors[st.f.Portalname]
	}
	return c != nil && c.binary
}

func (st *fetchStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := st.s
	if err := s.checkNotFailed(); err != nil {
		return nil, err
	}
	deadline := s.statementDeadline()
	rows, err := st.execute(ctx, deadline)
	if err != nil {
		s.StatementFailed(err)
	}
	return rows, err
}

func (st *fetchStatement) execute(ctx context.Context, deadline time.Time) (Rows, error) {
	c := st.s.cursors[st.f.Portalname]
	if c == nil {
		return nil, pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", st.f.Portalname)
	}
	st.c = c
	st.s.markQueried()
	dir := "forward"
	switch st.f.Direction {
	case pg.FetchDirection_FETCH_BACKWARD:
		dir = "backward"
	case pg.FetchDirection_FETCH_ABSOLUTE:
		dir = "absolute"
	case pg.FetchDirection_FETCH_RELATIVE:
		dir = "relative"
	}
	pctx, cancel := withDeadline(ctx, deadline)
	defer cancel()
	plan, err := c.position(pctx, dir, st.f.HowMany, st.f.Ismove)
	if err != nil {
		return nil, statementErr(pctx, err)
	}
	if st.f.Ismove {
		n := plan.result
		if n < 0 {
			if n, err = c.move(pctx, plan.fwd, plan.count); err != nil {
				return nil, statementErr(pctx, err)
			}
		}
		return &emptyRows{tag: fmt.Sprintf("MOVE %d", n)}, nil
	}
	moves, execCount, err := c.run(plan.fwd, plan.count)
	if err != nil {
		return nil, err
	}
	return &fetchRows{c: c, fwd: plan.fwd, moves: moves, execCount: execCount, deadline: deadline}, nil
}

// fetchRows streams the rows of one FETCH from its cursor.
type fetchRows struct {
	c         *cursor
	fwd       bool
	moves     bool
	execCount int64 // 0: all
	n         int64
	last      arrow.RecordBatch
	done      bool
	deadline  time.Time // statement_timeout's, zero for none
}

func (r *fetchRows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.last != nil {
		r.last.Release()
		r.last = nil
	}
	if r.done || !r.moves || (r.execCount > 0 && r.n >= r.execCount) {
		r.end()
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ctx, cancel := withDeadline(ctx, r.deadline)
	defer cancel()
	var b arrow.RecordBatch
	var err error
	if r.fwd {
		want := int64(fetchAll)
		if r.execCount > 0 {
			want = r.execCount - r.n
		}
		b, err = r.c.forward(ctx, want)
	} else {
		b, err = r.c.backward()
	}
	if err != nil {
		r.end()
		return nil, statementErr(ctx, err)
	}
	if b == nil {
		r.end()
		return nil, nil
	}
	r.n += b.NumRows()
	r.last = b
	return b, nil
}

// end does the portal's bookkeeping once.
func (r *fetchRows) end() {
	if r.done {
		return
	}
	r.done = true
	if r.moves {
		r.c.finish(r.fwd, r.execCount, r.n)
	}
}

func (r *fetchRows) Tag(rowsSent int64) string { return fmt.Sprintf("FETCH %d", rowsSent) }
func (r *fetchRows) Notices() []Notice         { return nil }
func (r *fetchRows) Close() error {
	if r.last != nil {
		r.last.Release()
		r.last = nil
	}
	r.end()
	return nil
}

// closeStatement is CLOSE name or CLOSE ALL.
type closeStatement struct {
	s    *session
	name string // "" for ALL
}

func (s *session) prepareClose(c *pg.ClosePortalStmt) Statement {
	return &closeStatement{s: s, name: c.Portalname}
}

func (st *closeStatement) ParamTypes() []uint32      { return nil }
func (st *closeStatement) Columns() []pgtypes.Column { return nil }
func (st *closeStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := st.s
	if err := s.checkNotFailed(); err != nil {
		return nil, err
	}
	if st.name == "" {
		for name, c := range s.cursors {
			c.close()
			delete(s.cursors, name)
		}
		return &emptyRows{tag: "CLOSE CURSOR ALL"}, nil
	}
	c := s.cursors[st.name]
	if c == nil {
		return nil, pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", st.name)
	}
	c.close()
	delete(s.cursors, st.name)
	return &emptyRows{tag: "CLOSE CURSOR"}, nil
}

// closeCursors closes the cursors keep rejects.
func (s *session) closeCursors(drop func(*cursor) bool) {
	for name, c := range s.cursors {
		if drop(c) {
			c.close()
			delete(s.cursors, name)
		}
	}
}

// closeImplicitCursors closes the cursors of the previous query string's
// implicit transaction.
func (s *session) closeImplicitCursors() {
	if len(s.cursors) == 0 {
		return
	}
	s.closeCursors(func(c *cursor) bool { return c.implicit })
}

// closeBlockCursors closes, at the end of a block, every cursor that is not
// a materialized WITH HOLD one.
func (s *session) closeBlockCursors() {
	s.closeCursors(func(c *cursor) bool { return !c.held })
}

// holdCursors materializes the block's WITH HOLD cursors at COMMIT.
func (s *session) holdCursors() error {
	var first error
	for name, c := range s.cursors {
		if !c.hold || c.held {
			continue
		}
		if err := c.materialize(context.Background()); err != nil {
			c.close()
			delete(s.cursors, name)
			if first == nil {
				first = err
			}
		}
	}
	return first
}

// rollbackCursors closes the cursors declared after savepoint i.
func (s *session) rollbackCursors(i int) {
	s.closeCursors(func(c *cursor) bool { return !c.held && c.depth > i })
}

// releaseCursors moves the cursors declared after savepoint i (now
// released) to the enclosing level.
func (s *session) releaseCursors(i int) {
	for _, c := range s.cursors {
		if c.depth > i {
			c.depth = i
		}
	}
}

// prepareDiscard is DISCARD ALL | PLANS | SEQUENCES | TEMP. DISCARD ALL
// closes every cursor, drops the temporary views and resets every setting;
// its result tells wire to drop the connection's prepared statements.
func (s *session) prepareDiscard(d *pg.DiscardStmt) Statement {
	switch d.Target {
	case pg.DiscardMode_DISCARD_ALL:
		return &discardStatement{tag: "DISCARD ALL", run: func() error {
			if err := s.checkNotFailed(); err != nil {
				return err
			}
			if s.tx != nil {
				return pgerr.New(pgerr.ActiveSQLTransaction, "DISCARD ALL cannot run inside a transaction block")
			}
			s.closeCursors(func(*cursor) bool { return true })
			s.temp = nil
			s.prepared = nil
			s.protoStmts = nil
			s.settings.ResetAll(s.user)
			s.settings.ResetIdentity(s.user) // SET SESSION AUTHORIZATION DEFAULT, RESET ROLE
			s.syncTxSettings()
			return nil
		}}
	case pg.DiscardMode_DISCARD_PLANS:
		return &utilityStatement{tag: "DISCARD PLANS"}
	case pg.DiscardMode_DISCARD_SEQUENCES:
		return &utilityStatement{tag: "DISCARD SEQUENCES"}
	}
	return &utilityStatement{tag: "DISCARD TEMP", sess: s, run: func() error {
		s.temp = nil
		return nil
	}}
}

// discardStatement is DISCARD ALL or DEALLOCATE ALL.
type discardStatement struct {
	tag string
	run func() error
}

func (d *discardStatement) ParamTypes() []uint32      { return nil }
func (d *discardStatement) Columns() []pgtypes.Column { return nil }
func (d *discardStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	if err := d.run(); err != nil {
		return nil, err
	}
	return &discardRows{emptyRows{tag: d.tag}}, nil
}

// discardRows is the result of DISCARD ALL and DEALLOCATE ALL.
type discardRows struct{ emptyRows }

// DiscardsPreparedStatements tells wire to drop the connection's prepared
// statements.
func (*discardRows) DiscardsPreparedStatements() bool { return true }
