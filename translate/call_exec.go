package translate

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/procedure"
	"github.com/icegate/icegate/translate/regtype"
)

// CALL [catalog.]system.<procedure>(...): Spark's procedures, which live
// in translate/procedure. This file is the statement: it finds the
// procedure, binds the arguments (procedure.Bind; expressions among them
// are evaluated by a one-row SELECT in this session), runs it with a
// callEnv and returns its rows. Procedures commit on their own, so CALL
// is refused inside a transaction block.

// callStatement is a prepared CALL, or Trino's ALTER TABLE ... EXECUTE.
type callStatement struct {
	sess *session
	proc *procedure.Procedure
	qual string     // "system.<name>", for messages
	args []*pg.Node // as parsed
	// trino is set for ALTER TABLE <table> EXECUTE: the command whose
	// parameters args bind to; the statement returns no rows.
	trino *procedure.TrinoCommand
	table string
	// params are the types of the statement's parameters ($n written as
	// a whole argument takes its parameter's type).
	params []uint32
}

func (s *session) prepareCall(ps parse.Stmt, cs *pg.CallStmt) (Statement, error) {
	fc := cs.GetFunccall()
	if fc == nil {
		return nil, pgerr.NotYet("this form of CALL")
	}
	if ps.Call != nil {
		// Named arguments whose name is a keyword (table =>, to =>) reach
		// the parser under a placeholder name.
		for _, a := range fc.Args {
			if na := a.GetNamedArgExpr(); na != nil {
				if name, ok := ps.Call.ArgNames[na.Location]; ok {
					na.Name = name
				}
			}
		}
	}
	var parts []string
	for _, n := range fc.Funcname {
		parts = append(parts, strings.ToLower(n.GetString_().GetSval()))
	}
	if ps.Call != nil && ps.Call.ExecuteTable != "" {
		return s.prepareTableExecute(ps.Call.ExecuteTable, parts[len(parts)-1], fc.Args)
	}
	return s.prepareProcedure(parts, fc.Args)
}

// prepareTableExecute prepares Trino's ALTER TABLE table EXECUTE name(args):
// the procedure procedure.TrinoCommands maps name to.
func (s *session) prepareTableExecute(table, name string, args []*pg.Node) (Statement, error) {
	cmd, ok := procedure.LookupTrino(name)
	if !ok {
		var names []string
		for _, c := range procedure.TrinoCommands() {
			names = append(names, c.Name)
		}
		return nil, pgerr.New(pgerr.UndefinedFunction, "table procedure %s does not exist", name).
			WithHint("ALTER TABLE ... EXECUTE runs %s.", strings.Join(names, ", "))
	}
	p, ok := procedure.Lookup(cmd.Procedure)
	if !ok {
		return nil, pgerr.NotYet(fmt.Sprintf("ALTER TABLE ... EXECUTE %s (procedure system.%s)", name, cmd.Procedure))
	}
	return newCallStatement(&callStatement{sess: s, proc: p, qual: name, args: args, trino: cmd, table: table})
}

// prepareProcedure prepares the call of a procedure named by parts
// ([catalog.][system.]name) with the parsed arguments.
func (s *session) prepareProcedure(parts []string, args []*pg.Node) (Statement, error) {
	name := parts[len(parts)-1]
	written := strings.Join(parts, ".")
	ns := parts[:len(parts)-1]
	// The catalog part: icegate's catalog, the database, or Spark's name of
	// its session catalog, which Spark users write in CALL.
	if len(ns) == 2 && (ns[0] == s.cat.Name() || ns[0] == s.database || ns[0] == "spark_catalog") {
		ns = ns[1:]
	}
	p, ok := procedure.Lookup(name)
	if !ok || (len(ns) > 0 && (len(ns) > 1 || ns[0] != "system")) {
		return nil, pgerr.New(pgerr.UndefinedFunction, "procedure %s does not exist", written).
			WithHint("icegate's procedures: system.%s.", strings.Join(procedure.Names(), ", system."))
	}
	return newCallStatement(&callStatement{sess: s, proc: p, qual: "system." + name, args: args})
}

// callParamOIDs are the types of parameters standing for an argument.
var callParamOIDs = map[procedure.ArgType]uint32{
	procedure.String: pgtypes.Text, procedure.Long: pgtypes.Int8, procedure.Int: pgtypes.Int4,
	procedure.Bool: pgtypes.Bool, procedure.Timestamp: pgtypes.Timestamptz,
}

// newCallStatement finds the types of the call's parameters: $n as a
// whole argument has its parameter's type; elsewhere in an argument it is
// not supported.
func newCallStatement(c *callStatement) (Statement, error) {
	params := c.proc.Params
	if c.trino != nil {
		params = c.trino.Params
	}
	for i, a := range c.args {
		val, idx := a, i
		if na := a.GetNamedArgExpr(); na != nil {
			val, idx = na.Arg, -1
			for k, p := range params {
				if p.Name == strings.ToLower(na.Name) {
					idx = k
				}
			}
		}
		pr := val.GetParamRef()
		if pr == nil {
			if hasParamRef(val) {
				return nil, pgerr.NotYetPlural("parameters ($n) inside CALL argument expressions")
			}
			continue
		}
		n := int(pr.Number)
		for len(c.params) < n {
			c.params = append(c.params, pgtypes.Text)
		}
		if idx >= 0 && idx < len(params) {
			if oid, ok := callParamOIDs[params[idx].Type]; ok {
				c.params[n-1] = oid
			}
		}
	}
	return c, nil
}

// hasParamRef reports whether a parameter ($n) occurs anywhere in n: a
// ParamRef is a "ParamRef" key of n's JSON form (a string holding those
// characters has its quotes escaped there).
func hasParamRef(n *pg.Node) bool {
	b, err := protojson.Marshal(n)
	return err == nil && bytes.Contains(b, []byte(`"ParamRef":`))
}

func (c *callStatement) ParamTypes() []uint32 { return c.params }

// withParams is the call's arguments with each $n standing for a whole
// argument replaced by its value as a string literal (NULL for NULL),
// which Bind converts to the parameter's type.
func (c *callStatement) withParams(params []*string) ([]*pg.Node, error) {
	if len(params) != len(c.params) {
		return nil, pgerr.New(pgerr.ProtocolViolation,
			"bind message supplies %d parameters, but prepared statement requires %d", len(params), len(c.params))
	}
	if len(params) == 0 {
		return c.args, nil
	}
	value := func(pr *pg.ParamRef) *pg.Node {
		v := params[pr.Number-1]
		if v == nil {
			return &pg.Node{Node: &pg.Node_AConst{AConst: &pg.A_Const{Isnull: true, Location: pr.Location}}}
		}
		return &pg.Node{Node: &pg.Node_AConst{AConst: &pg.A_Const{Val: &pg.A_Const_Sval{Sval: &pg.String{Sval: *v}}, Location: pr.Location}}}
	}
	out := make([]*pg.Node, len(c.args))
	for i, a := range c.args {
		out[i] = a
		if pr := a.GetParamRef(); pr != nil {
			out[i] = value(pr)
		} else if na := a.GetNamedArgExpr(); na != nil && na.Arg.GetParamRef() != nil {
			out[i] = &pg.Node{Node: &pg.Node_NamedArgExpr{NamedArgExpr: &pg.NamedArgExpr{
				Xpr: na.Xpr, Arg: value(na.Arg.GetParamRef()), Name: na.Name, Argnumber: na.Argnumber, Location: na.Location}}}
		}
	}
	return out, nil
}

func (c *callStatement) Columns() []pgtypes.Column {
	if c.trino != nil {
		return nil
	}
	return c.proc.Columns
}

func (c *callStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := c.sess
	what := "CALL " + c.qual
	if c.trino != nil {
		what = "ALTER TABLE ... EXECUTE " + c.qual
	}
	if s.tx != nil && !s.tx.implicit {
		return nil, pgerr.New(pgerr.ActiveSQLTransaction, "%s cannot run inside a transaction block", what)
	}
	s.newStatementSnapshot() // argument subqueries see the catalog as it is now
	nodes, err := c.withParams(params)
	if err != nil {
		return nil, err
	}
	// statement_timeout and a cancel end a procedure as any statement.
	ctx, cancel := s.withStatementTimeout(ctx)
	defer cancel()
	env := &callEnv{sess: s, now: time.Now()}
	args, err := c.bind(ctx, env, nodes)
	if err != nil {
		return nil, statementErr(ctx, err)
	}
	var table []string
	if name, ok := args.String("table"); ok {
		table, _ = regtype.SplitQualifiedName(name)
	}
	env.progress = s.backend.procs.start(s.progressEntry(c.proc.Name, table, s.CurrentSchema(ctx), env.now))
	defer s.backend.procs.end(env.progress)
	rows, err := c.proc.Run(ctx, env, args)
	env.finished()
	if err != nil {
		table, _ := args.String("table")
		return nil, statementErr(ctx, catalogError(err, kindTable, table))
	}
	if c.trino != nil {
		return &emptyRows{tag: "ALTER TABLE", notices: env.notices}, nil
	}
	out, err := procedureRows(c.proc.Columns, rows, "CALL")
	if err != nil {
		return nil, err
	}
	out.notices = env.notices
	return out, nil
}

// bind binds the call's arguments to the procedure's parameters; for
// Trino's form, to the command's, converted to the procedure's.
func (c *callStatement) bind(ctx context.Context, env *callEnv, nodes []*pg.Node) (procedure.Args, error) {
	if c.trino == nil {
		return procedure.Bind(ctx, c.proc, c.qual, nodes, c.sess.evalCallArg)
	}
	ta, err := procedure.Bind(ctx, c.trino.Proc(), c.qual, nodes, c.sess.evalCallArg)
	if err != nil {
		return nil, err
	}
	args, err := c.trino.Args(env, ta)
	if err != nil {
		return nil, err
	}
	args["table"] = c.table
	return procedure.WithDefaults(c.proc, args), nil
}

// callEnv is what a procedure sees of the session (procedure.Env).
type callEnv struct {
	sess *session
	now  time.Time
	// progress is the call's key among the running procedures (0 before
	// it is registered).
	progress int64
	mu       sync.Mutex // orders Notice calls from the procedure's goroutines
	done     bool       // Run returned: notices no longer go out at once
	notices  []Notice   // the notices that go with the result
}

var _ procedure.Env = (*callEnv)(nil)

// Table resolves a table named as Spark writes it: 't', 'db.t' or
// 'catalog.db.t' (the catalog being icegate's catalog or the database).
func (e *callEnv) Table(ctx context.Context, name string) (*catalog.Table, catalog.MutableCatalog, error) {
	s := e.sess
	mc, err := s.mutableCatalog("CALL")
	if err != nil {
		return nil, nil, err
	}
	tn, err := s.callTableName(name)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.ResolveTable(ctx, tn)
	if err != nil {
		return nil, nil, catalogError(err, kindTable, tn.Written)
	}
	if err := s.checkTableOwner(ctx, t, "table"); err != nil { // privilege.go: owners and superusers
		return nil, nil, err
	}
	return t, mc, nil
}

// callTableName reads a table name as Spark writes it in a procedure's
// argument: 't', 'db.t' or 'catalog.db.t' (the catalog being icegate's
// catalog or the database), quoted parts as in SQL.
func (s *session) callTableName(name string) (parse.TableName, error) {
	parts, err := regtype.SplitQualifiedName(name)
	if err != nil {
		return parse.TableName{}, err
	}
	var tn parse.TableName
	switch len(parts) {
	case 1:
		tn = parse.TableName{Name: parts[0]}
	case 2:
		tn = parse.TableName{Schema: parts[0], Name: parts[1]}
	case 3:
		tn = parse.TableName{Catalog: parts[0], Schema: parts[1], Name: parts[2]}
		if tn.Catalog == s.database {
			tn.Catalog = s.cat.Name()
		}
	default:
		return parse.TableName{}, pgerr.New(pgerr.InvalidParameterValue, "invalid table name \"%s\"", name)
	}
	tn.Written = strings.Join(parts, ".")
	return tn, nil
}

// Notice queues a NOTICE; the client gets it with the result.
func (e *callEnv) Notice(ctx context.Context, msg string) {
	slog.DebugContext(ctx, "procedure notice", "msg", msg)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.progress != 0 {
		e.sess.backend.procs.phase(e.progress, msg)
	}
	n := Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion, Message: msg}
	if e.sess.notify != nil && !e.done {
		e.sess.notify(n) // at once: the client sees the progress while it runs
		return
	}
	e.notices = append(e.notices, n)
}

// finished ends the streaming of notices: a worker goroutine's late
// Notice joins the result's instead.
func (e *callEnv) finished() {
	e.mu.Lock()
	e.done = true
	e.mu.Unlock()
}

func (e *callEnv) Now() time.Time { return e.now }

// callArgTypes are the SQL types an argument expression is cast to.
var callArgTypes = map[procedure.ArgType]string{
	procedure.String: "text", procedure.Long: "bigint", procedure.Int: "integer",
	procedure.Bool: "boolean", procedure.Timestamp: "timestamptz",
}

// evalCallArg evaluates an argument expression (procedure.Evaluator) by
// running SELECT CAST((expr) AS type) in the session.
func (s *session) evalCallArg(ctx context.Context, expr string, t procedure.ArgType) (any, error) {
	typ, ok := callArgTypes[t]
	if !ok {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of type %s cannot be an expression", t)
	}
	sql := "SELECT CAST((" + expr + ") AS " + typ + ")"
	stmts, err := parse.ParseContext(ctx, sql, hints.ParseConfig)
	if err != nil || len(stmts) != 1 || stmts[0].Node.GetSelectStmt() == nil {
		if err == nil {
			err = pgerr.New(pgerr.SyntaxError, "argument is not an expression: %s", expr)
		}
		return nil, withoutPosition(err)
	}
	b := bind.New(ctx, s, stmts[0], &bind.ParamSet{}, time.Now())
	p, err := b.BindSelect(stmts[0].Node.GetSelectStmt())
	if err != nil {
		return nil, withoutPosition(err)
	}
	op, err := lowerQuery(ctx, s, p)
	if err != nil {
		return nil, withoutPosition(err)
	}
	rows := newOperatorRows(op, "SELECT")
	defer rows.Close()
	batch, err := rows.Next(ctx)
	if err != nil {
		return nil, withoutPosition(err)
	}
	if batch == nil || batch.NumRows() == 0 || batch.NumCols() != 1 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "argument %s has no value", expr)
	}
	col := batch.Column(0)
	if col.IsNull(0) {
		return nil, pgerr.New(pgerr.NullValueNotAllowed, "argument %s is null", expr)
	}
	switch a := col.(type) {
	case *array.Int64:
		return a.Value(0), nil
	case *array.Int32:
		return int64(a.Value(0)), nil
	case *array.Boolean:
		return a.Value(0), nil
	case *array.String:
		return a.Value(0), nil
	case *array.LargeString:
		return a.Value(0), nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return a.Value(0).ToTime(unit).UTC(), nil
	}
	return nil, pgerr.New(pgerr.InternalError, "argument %s evaluated to an unexpected %s", expr, col.DataType())
}

// evalBool runs a SELECT of one boolean in the session (statements that
// check rows, such as SET NOT NULL) and returns its value.
func (s *session) evalBool(ctx context.Context, sql string) (bool, error) {
	stmts, err := parse.ParseContext(ctx, sql, hints.ParseConfig)
	if err != nil || len(stmts) != 1 || stmts[0].Node.GetSelectStmt() == nil {
		if err == nil {
			err = pgerr.New(pgerr.InternalError, "not one SELECT: %s", sql)
		}
		return false, err
	}
	b := bind.New(ctx, s, stmts[0], &bind.ParamSet{}, time.Now())
	p, err := b.BindSelect(stmts[0].Node.GetSelectStmt())
	if err != nil {
		return false, withoutPosition(err)
	}
	op, err := lowerQuery(ctx, s, p)
	if err != nil {
		return false, withoutPosition(err)
	}
	rows := newOperatorRows(op, "SELECT")
	defer rows.Close()
	batch, err := rows.Next(ctx)
	if err != nil {
		return false, withoutPosition(err)
	}
	if batch == nil || batch.NumRows() != 1 || batch.NumCols() != 1 {
		return false, pgerr.New(pgerr.InternalError, "%s returned no value", sql)
	}
	v, ok := batch.Column(0).(*array.Boolean)
	if !ok || v.IsNull(0) {
		return false, pgerr.New(pgerr.InternalError, "%s returned no boolean", sql)
	}
	return v.Value(0), nil
}

// withoutPosition drops the position of an error about the SELECT an
// argument was evaluated in: it would point into text the client did not
// send.
func withoutPosition(err error) error {
	if pe := pgerr.As(err); pe != nil && pe.Position != 0 {
		c := *pe
		c.Position = 0
		return pgerr.Wrap(err, c.Code, "%s", c.Message).WithDetail("%s", c.Detail).WithHint("%s", c.Hint)
	}
	return err
}

// procedureRows is a procedure's result rows as one batch of its columns.
func procedureRows(cols []pgtypes.Column, rows [][]any, tag string) (*batchRows, error) {
	fields := make([]arrow.Field, len(cols))
	builders := make([]array.Builder, len(cols))
	for i, c := range cols {
		var dt arrow.DataType
		switch c.TypeOID {
		case pgtypes.Int8:
			dt = arrow.PrimitiveTypes.Int64
		case pgtypes.Int4:
			dt = arrow.PrimitiveTypes.Int32
		case pgtypes.Bool:
			dt = arrow.FixedWidthTypes.Boolean
		case pgtypes.Text, pgtypes.Varchar:
			dt = arrow.BinaryTypes.String
		case pgtypes.Timestamptz:
			dt = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
		default:
			return nil, pgerr.New(pgerr.InternalError, "procedure result column %s has an unsupported type %d", c.Name, c.TypeOID)
		}
		fields[i] = arrow.Field{Name: c.Name, Type: dt, Nullable: true}
		builders[i] = array.NewBuilder(memory.DefaultAllocator, dt)
	}
	defer func() {
		for _, b := range builders {
			b.Release()
		}
	}()
	for _, row := range rows {
		if len(row) != len(cols) {
			return nil, pgerr.New(pgerr.InternalError, "procedure returned a row of %d values for %d columns", len(row), len(cols))
		}
		for i, v := range row {
			if err := syscat.AppendValue(builders[i], v); err != nil {
				return nil, pgerr.New(pgerr.InternalError, "procedure result column %s: %v", cols[i].Name, err)
			}
		}
	}
	arrs := make([]arrow.Array, len(cols))
	for i, b := range builders {
		arrs[i] = b.NewArray()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(len(rows)))
	for _, a := range arrs {
		a.Release()
	}
	return &batchRows{batches: []arrow.RecordBatch{rec}, tag: tag}, nil
}
