package translate

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
)

// SQL-level prepared statements: PREPARE name [(types)] AS statement,
// EXECUTE name [(args)] and DEALLOCATE [PREPARE] name | ALL, as pg_dump,
// psql scripts and drivers use them. The protocol's prepared statements (Parse/Bind) are wire's; these
// live in the session, by name, until DEALLOCATE ALL or DISCARD ALL.

// sqlPrepared is one PREPAREd statement: its text and parameter types
// (declared, then inferred from their uses as PostgreSQL does), and the
// statement prepared from them, which every EXECUTE reuses: a Statement
// binds with a fresh snapshot at each Execute and binds again when a table
// or view it read changed.
type sqlPrepared struct {
	text  string
	types []uint32
	// stmt is the prepared statement (nil for the protocol's statements,
	// which wire keeps itself).
	stmt Statement
	// at is when it was prepared (pg_prepared_statements.prepare_time).
	at time.Time
	// full is the whole PREPARE statement (pg_prepared_statements shows
	// it).
	full string
}

// preparePrepare is PREPARE name [(types)] AS statement. The statement is
// checked when PREPARE runs, as in PostgreSQL.
func (s *session) preparePrepare(ctx context.Context, ps parse.Stmt, p *pg.PrepareStmt) (Statement, error) {
	text, ok := preparedBody(ps.Text)
	if !ok {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error in PREPARE: no AS before the statement")
	}
	b := bind.New(ctx, s, ps, &bind.ParamSet{}, time.Now())
	types := make([]uint32, len(p.Argtypes))
	for i, n := range p.Argtypes {
		tn := n.GetTypeName()
		if tn == nil {
			return nil, pgerr.NotYet("this PREPARE parameter type")
		}
		t, _, err := b.TypeName(tn)
		if err != nil {
			return nil, err
		}
		types[i] = t.OID
	}
	run := func(ctx context.Context) error {
		_, proto := s.protoStmts[p.Name]
		if _, dup := s.prepared[p.Name]; dup || proto {
			return pgerr.New(pgerr.DuplicatePreparedStatement, "prepared statement \"%s\" already exists", p.Name)
		}
		st, err := s.prepareStored(ctx, p.Name, text, types)
		if err != nil {
			return err
		}
		if q, ok := st.(interface{ bindAtExecute() }); ok {
			// EXECUTE may come much later: it must see the tables as
			// they are then, not the snapshot PREPARE bound.
			q.bindAtExecute()
		}
		if inferred := st.ParamTypes(); len(inferred) > len(types) {
			types = append(types, inferred[len(types):]...)
		}
		if s.prepared == nil {
			s.prepared = make(map[string]*sqlPrepared)
		}
		s.prepared[p.Name] = &sqlPrepared{text: text, types: types, stmt: st, at: time.Now(), full: preparedSource(ps)}
		return nil
	}
	return &ctxUtilityStatement{tag: "PREPARE", sess: s, run: run}, nil
}

// preparedSource is what pg_prepared_statements shows for a PREPARE: the
// whole query string the client sent, as PostgreSQL shows it.
func preparedSource(ps parse.Stmt) string {
	if ps.SQL != "" {
		return ps.SQL
	}
	return ps.Text
}

// preparedBody returns the statement after the AS of PREPARE name
// [(types)] AS statement: the first AS outside parentheses.
func preparedBody(sql string) (string, bool) {
	res, err := pg.Scan(sql)
	if err != nil {
		return "", false
	}
	depth := 0
	for _, t := range res.Tokens {
		if int(t.End) > len(sql) || t.Start < 0 {
			continue
		}
		switch txt := sql[t.Start:t.End]; {
		case txt == "(":
			depth++
		case txt == ")":
			depth--
		case depth == 0 && strings.EqualFold(txt, "as"):
			return strings.TrimSpace(sql[t.End:]), true
		}
	}
	return "", false
}

// prepareStored prepares the text of the prepared statement name: one
// statement, with its declared parameter types.
func (s *session) prepareStored(ctx context.Context, name, text string, types []uint32) (Statement, error) {
	stmts, err := hints.ParseChecked(text)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, pgerr.New(pgerr.SyntaxError, "prepared statement \"%s\" must be one statement", name)
	}
	switch stmts[0].Node.GetNode().(type) {
	case *pg.Node_PrepareStmt, *pg.Node_ExecuteStmt, *pg.Node_TransactionStmt:
		return nil, pgerr.New(pgerr.SyntaxError, "PREPARE of this statement is not possible")
	}
	return s.prepare(ctx, stmts[0], types, true)
}

// prepareExecute is EXECUTE name [(args)]: the prepared statement with the
// arguments as its parameters. The arguments are constants (literals,
// casts of literals, NULL); it is prepared when described or run.
func (s *session) prepareExecute(ctx context.Context, e *pg.ExecuteStmt) (Statement, error) {
	args := make([]*string, len(e.Params))
	for i, n := range e.Params {
		v, ok := constantText(n)
		if !ok {
			return nil, pgerr.NotYet("EXECUTE with an argument that is not a constant")
		}
		args[i] = v
	}
	return &executeStatement{sess: s, name: e.Name, args: args, ctx: context.WithoutCancel(ctx)}, nil
}

// constantText is the text of a constant argument: a literal, NULL, or a
// literal with casts (the parameter's declared type applies anyway).
func constantText(n *pg.Node) (*string, bool) {
	for {
		tc := n.GetTypeCast()
		if tc == nil {
			break
		}
		n = tc.Arg
	}
	c := n.GetAConst()
	if c == nil {
		return nil, false
	}
	if c.Isnull {
		return nil, true
	}
	var v string
	switch {
	case c.GetSval() != nil:
		v = c.GetSval().Sval
	case c.GetIval() != nil:
		v = strconv.FormatInt(int64(c.GetIval().Ival), 10)
	case c.GetFval() != nil:
		v = c.GetFval().Fval
	case c.GetBoolval() != nil:
		v = strconv.FormatBool(c.GetBoolval().Boolval)
	case c.GetBsval() != nil:
		v = c.GetBsval().Bsval
	default:
		return nil, false
	}
	return &v, true
}

// executeStatement is EXECUTE name (args).
type executeStatement struct {
	sess  *session
	name  string
	args  []*string
	ctx   context.Context
	inner Statement
}

// lookup finds the named statement and checks the arguments' number.
func (x *executeStatement) lookup() (*sqlPrepared, error) {
	p, ok := x.sess.prepared[x.name]
	if !ok {
		// The protocol's named statements share the namespace.
		p, ok = x.sess.protoStmts[x.name]
	}
	if !ok {
		return nil, pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", x.name)
	}
	if len(x.args) != len(p.types) {
		return nil, pgerr.New(pgerr.SyntaxError, "wrong number of parameters for prepared statement \"%s\"", x.name).
			WithDetail("Expected %d parameters but got %d.", len(p.types), len(x.args))
	}
	return p, nil
}

// resolve prepares the named statement, once.
func (x *executeStatement) resolve(ctx context.Context) (Statement, error) {
	if x.inner != nil {
		return x.inner, nil
	}
	p, err := x.lookup()
	if err != nil {
		return nil, err
	}
	if p.stmt != nil {
		x.inner = p.stmt
		return p.stmt, nil
	}
	st, err := x.sess.prepareStored(ctx, x.name, p.text, p.types)
	if err != nil {
		return nil, err
	}
	x.inner = st
	return st, nil
}

func (x *executeStatement) ParamTypes() []uint32 { return nil }

// Columns are the prepared statement's; nil while it cannot be prepared
// (Execute then reports why).
func (x *executeStatement) Columns() []pgtypes.Column {
	st, err := x.resolve(x.ctx)
	if err != nil {
		return nil
	}
	return st.Columns()
}

func (x *executeStatement) Execute(ctx context.Context, _ []*string) (Rows, error) {
	if err := x.sess.checkNotFailed(); err != nil {
		return nil, err
	}
	st, err := x.resolve(ctx)
	if err != nil {
		return nil, err
	}
	return st.Execute(ctx, x.args)
}

// ctxUtilityStatement is a statement without rows whose work needs the
// context.
type ctxUtilityStatement struct {
	tag  string
	sess *session
	run  func(context.Context) error
}

func (u *ctxUtilityStatement) ParamTypes() []uint32      { return nil }
func (u *ctxUtilityStatement) Columns() []pgtypes.Column { return nil }
func (u *ctxUtilityStatement) Execute(ctx context.Context, _ []*string) (Rows, error) {
	if err := u.sess.checkNotFailed(); err != nil {
		return nil, err
	}
	if err := u.run(ctx); err != nil {
		return nil, err
	}
	return &emptyRows{tag: u.tag}, nil
}

// NoteProtocolStatement records a named statement of the protocol's Parse:
// in PostgreSQL the protocol's prepared statements and SQL PREPARE's share
// one namespace, so DEALLOCATE name frees either (PHP PDO and Perl DBI free
// their protocol statements so) and pg_prepared_statements lists both.
// wire calls it after a successful Parse of a named statement.
func (s *session) NoteProtocolStatement(name, sql string, types []uint32) {
	if s.protoStmts == nil {
		s.protoStmts = make(map[string]*sqlPrepared)
	}
	s.protoStmts[name] = &sqlPrepared{text: sql, types: slices.Clone(types), at: time.Now()}
}

// ForgetProtocolStatement records that wire closed a named statement.
func (s *session) ForgetProtocolStatement(name string) { delete(s.protoStmts, name) }

// prepareDeallocate is DEALLOCATE [PREPARE] name | ALL. ALL drops the
// statements of SQL PREPARE and tells wire to drop the protocol's; a name
// drops the one statement of either kind (unknown: 26000).
func (s *session) prepareDeallocate(d *pg.DeallocateStmt) (Statement, error) {
	if d.Isall {
		return &discardStatement{tag: "DEALLOCATE ALL", run: func() error {
			if err := s.checkNotFailed(); err != nil {
				return err
			}
			s.prepared = nil
			s.protoStmts = nil
			return nil
		}}, nil
	}
	name := d.Name
	return &deallocateStatement{sess: s, name: name}, nil
}

// deallocateStatement is DEALLOCATE name.
type deallocateStatement struct {
	sess *session
	name string
}

func (d *deallocateStatement) ParamTypes() []uint32      { return nil }
func (d *deallocateStatement) Columns() []pgtypes.Column { return nil }
func (d *deallocateStatement) Execute(ctx context.Context, _ []*string) (Rows, error) {
	s := d.sess
	if err := s.checkNotFailed(); err != nil {
		return nil, err
	}
	if _, ok := s.prepared[d.name]; ok {
		delete(s.prepared, d.name)
		return &emptyRows{tag: "DEALLOCATE"}, nil
	}
	if _, ok := s.protoStmts[d.name]; ok {
		delete(s.protoStmts, d.name)
		return &deallocateRows{emptyRows: emptyRows{tag: "DEALLOCATE"}, name: d.name}, nil
	}
	return nil, pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", d.name)
}

// deallocateRows is the result of DEALLOCATE of a protocol statement: wire
// drops it.
type deallocateRows struct {
	emptyRows
	name string
}

// DeallocatedStatement names the protocol statement wire drops.
func (d *deallocateRows) DeallocatedStatement() string { return d.name }

// preparedStatements lists the session's prepared statements by name, for
// pg_prepared_statements: for SQL PREPARE the query string that held it,
// for the protocol's the statement's text.
func (s *session) preparedStatements() []syscat.PreparedStatement {
	var out []syscat.PreparedStatement
	for _, src := range []struct {
		m       map[string]*sqlPrepared
		fromSQL bool
	}{{s.prepared, true}, {s.protoStmts, false}} {
		for name, p := range src.m {
			text := p.text
			if src.fromSQL && p.full != "" {
				text = p.full
			}
			out = append(out, syscat.PreparedStatement{Name: name, Statement: text, Prepared: p.at, ParamTypes: p.types, FromSQL: src.fromSQL})
		}
	}
	slices.SortFunc(out, func(a, b syscat.PreparedStatement) int { return strings.Compare(a.Name, b.Name) })
	return out
}
