package translate

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/copyexec"
	"github.com/icegate/icegate/translate/parse"
)

// prepareCopy prepares COPY ... FROM STDIN and COPY ... TO STDOUT.
func (s *session) prepareCopy(ctx context.Context, ps parse.Stmt, cs *pg.CopyStmt, eager bool) (Statement, error) {
	if cs.Filename != "" || cs.IsProgram {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY to or from a file is not supported").
			WithHint("Use COPY ... FROM STDIN or COPY ... TO STDOUT (psql's \\copy).")
	}
	if cs.WhereClause != nil {
		return nil, pgerr.NotYet("COPY FROM ... WHERE")
	}
	var attnames []string
	for _, n := range cs.Attlist {
		attnames = append(attnames, n.GetString_().GetSval())
	}
	if cs.IsFrom {
		return s.prepareCopyFrom(ctx, ps, cs, attnames, eager)
	}
	return s.prepareCopyTo(ctx, ps, cs, attnames, eager)
}

// copyFromStatement is COPY t [(cols)] FROM STDIN.
type copyFromStatement struct {
	sess    *session
	tn      parse.TableName
	attlist []string
	opts    CopyOptions
	table   *catalog.Table
	targets []int // table column of each copied column
	cols    []pgtypes.Column
	ps      parse.Stmt
	cs      *pg.CopyStmt
	// ctx is set while binding is deferred (see prepareCopyFrom); bindErr
	// is the error of a deferred binding.
	ctx     context.Context
	bindErr error
}

var _ CopyFromStatement = (*copyFromStatement)(nil)

func (s *session) prepareCopyFrom(ctx context.Context, ps parse.Stmt, cs *pg.CopyStmt, attnames []string, eager bool) (Statement, error) {
	st := &copyFromStatement{sess: s, tn: parse.TableNameOf(cs.Relation), attlist: attnames, ps: ps, cs: cs}
	if !eager {
		// Bound when first described or run: it may copy into a table an
		// earlier statement of the same query string creates.
		st.ctx = context.WithoutCancel(ctx)
		return st, nil
	}
	if err := st.bindAll(ctx); err != nil {
		return nil, err
	}
	return st, nil
}

// bindAll binds the table, the columns and the options.
func (st *copyFromStatement) bindAll(ctx context.Context) error {
	st.ctx = nil
	if err := st.bind(ctx, st.cs.Relation.Location, st.ps); err != nil {
		return err
	}
	names := make([]string, len(st.cols))
	for i, c := range st.cols {
		names[i] = c.Name
	}
	var err error
	st.opts, err = copyexec.ParseOptions(st.cs.Options, names, true)
	return err
}

// ensureBound binds a deferred statement; the error is kept for CopyIn.
func (st *copyFromStatement) ensureBound() {
	if st.ctx != nil {
		st.bindErr = st.bindAll(st.ctx)
	}
}

// bind resolves the table and the copied columns.
func (st *copyFromStatement) bind(ctx context.Context, loc int32, ps parse.Stmt) error {
	t, err := st.sess.ResolveTable(ctx, st.tn)
	if err != nil {
		if pe := pgerr.As(err); pe != nil && pe.Position == 0 {
			pe.Position = parse.CharPos(ps.SQL, loc)
		}
		return err
	}
	tableErr := st.sess.CheckTablePrivilege(ctx, "", t, roles.Insert) // privilege.go
	if pe := pgerr.As(tableErr); tableErr != nil && (pe == nil || pe.Code != pgerr.InsufficientPrivilege) {
		return tableErr
	}
	all := bind.ColumnsOfTable(t, t.Metadata.CurrentSchema())
	targets, copied, err := copyexec.Targets(all, st.attlist, st.tn.Name)
	if err != nil {
		return err
	}
	if tableErr != nil {
		var names []string
		for _, i := range targets {
			names = append(names, all[i].Name)
		}
		if err := st.sess.checkCopyColumns(ctx, t, names, tableErr); err != nil { // privilege_column.go
			return err
		}
	}
	st.table, st.targets, st.cols = t, targets, copied
	return nil
}

func (st *copyFromStatement) ParamTypes() []uint32      { return nil }
func (st *copyFromStatement) Columns() []pgtypes.Column { st.ensureBound(); return st.cols }
func (st *copyFromStatement) Options() CopyOptions      { st.ensureBound(); return st.opts }

// Execute without a CopySource is a protocol error: wire calls CopyIn.
func (st *copyFromStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	return nil, pgerr.New(pgerr.ProtocolViolation, "COPY FROM STDIN must be run through the COPY sub-protocol")
}

// CopyIn converts every chunk's text fields with PostgreSQL's input rules
// of each column's type, writes them through one Writer and commits once
// at the end. On any error nothing is committed and the files written are
// removed.
func (st *copyFromStatement) CopyIn(ctx context.Context, src CopySource) (string, error) {
	s := st.sess
	if st.ensureBound(); st.bindErr != nil {
		return "", st.bindErr
	}
	mc, err := s.mutableCatalog("COPY FROM")
	if err != nil {
		return "", err
	}
	// The table's current metadata, and its columns as bound.
	t, err := s.cat.LoadTable(ctx, st.table.Ident)
	if err != nil {
		return "", catalogError(err, kindTable, st.tn.Written)
	}
	schema := t.Metadata.CurrentSchema()
	cols := bind.ColumnsOfTable(t, schema)
	if !copyexec.SameColumns(cols, st.targets, st.cols) {
		return "", pgerr.New(pgerr.FeatureNotSupported, "the columns of \"%s\" changed since the COPY was prepared", st.tn.Written)
	}
	enums := map[string][2]string{} // enum type -> its labels and name
	for _, c := range cols {
		if c.Enum != "" {
			l, n, err := s.enumLabels(ctx, c.Enum) // enum_ddl.go
			if err != nil {
				return "", err
			}
			enums[c.Enum] = [2]string{l, n}
		}
	}
	conv, err := copyexec.NewConverter(st.tn.Name, st.targets, cols, schema.Fields, enums, s.CompileOptions())
	if err == nil {
		err = conv.BindDefaults(ctx, s, st.ps, t, s.CompileOptions())
	}
	if err != nil {
		return "", err
	}
	tw, err := s.newTableWrite(ctx, mc, t, schema, writeOptions{})
	if err != nil {
		return "", err
	}
	counter, _ := src.(CopyByteCounter)
	prog := s.backend.copies.start(s, "COPY FROM", s.copyTable(ctx, st.table.Ident.Namespace, st.table.Ident.Name), counter)
	defer prog.end()
	for {
		if err := ctx.Err(); err != nil {
			tw.abort()
			return "", statementErr(ctx, err)
		}
		rows, err := src.Next(ctx)
		if err != nil {
			tw.abort()
			return "", err
		}
		if rows == nil {
			break
		}
		if len(rows) == 0 {
			continue
		}
		prog.tuples.Add(int64(len(rows)))
		b, err := conv.Convert(ctx, rows, src)
		if err != nil {
			tw.abort()
			return "", err
		}
		err = tw.write(b)
		b.Release()
		if err != nil {
			return "", err
		}
	}
	if err := tw.commit(ctx, s); err != nil {
		return "", err
	}
	s.markQueried()
	return fmt.Sprintf("COPY %d", tw.rows), nil
}

// copyToStatement is COPY t [(cols)] TO STDOUT or COPY (query) TO STDOUT:
// a query whose rows wire sends as COPY data.
type copyToStatement struct {
	sel  *selectStatement
	opts CopyOptions
	rel  *catalog.Identifier // the table of COPY t TO; nil for a query
}

var _ CopyToStatement = (*copyToStatement)(nil)

func (s *session) prepareCopyTo(ctx context.Context, ps parse.Stmt, cs *pg.CopyStmt, attnames []string, eager bool) (Statement, error) {
	var sel *pg.SelectStmt
	if cs.Query != nil {
		sel = cs.Query.GetSelectStmt()
		if sel == nil {
			return nil, pgerr.NotYet("COPY (statement) TO of a statement other than SELECT")
		}
		if len(attnames) > 0 {
			return nil, pgerr.New(pgerr.SyntaxError, "column list not allowed with a query in COPY")
		}
	} else {
		sel = copyexec.TableQuery(cs.Relation, attnames)
	}
	inner := ps
	inner.Node = &pg.Node{Node: &pg.Node_SelectStmt{SelectStmt: sel}}
	st := &selectStatement{sess: s, ps: inner}
	if !eager {
		st.ctx = context.WithoutCancel(ctx)
	} else if err := st.bind(ctx); err != nil {
		return nil, err
	}
	names := attnames
	if len(names) == 0 && st.cols != nil {
		for _, c := range st.cols {
			names = append(names, c.Name)
		}
	}
	opts, err := copyexec.ParseOptions(cs.Options, names, false)
	if err != nil {
		return nil, err
	}
	cp := &copyToStatement{sel: st, opts: opts}
	if cs.Relation != nil {
		cp.rel = &catalog.Identifier{Name: cs.Relation.Relname}
		if cs.Relation.Schemaname != "" {
			cp.rel.Namespace = []string{cs.Relation.Schemaname}
		}
	}
	return cp, nil
}

func (c *copyToStatement) ParamTypes() []uint32      { return c.sel.ParamTypes() }
func (c *copyToStatement) Columns() []pgtypes.Column { return c.sel.Columns() }
func (c *copyToStatement) Options() CopyOptions      { return c.opts }

// Execute runs the query; the tag counts the rows sent ("COPY n").
func (c *copyToStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	rows, err := c.sel.Execute(ctx, params)
	if err != nil {
		return nil, err
	}
	var table [2]string
	if c.rel != nil {
		table = c.sel.sess.copyTable(ctx, c.rel.Namespace, c.rel.Name)
	}
	return &copyRows{Rows: rows, prog: c.sel.sess.backend.copies.start(c.sel.sess, "COPY TO", table, nil)}, nil
}

// copyRows is a query's rows tagged as COPY, counted in
// pg_stat_progress_copy until closed.
type copyRows struct {
	Rows
	prog *copyProgress
}

func (r *copyRows) Tag(n int64) string { return "COPY " + strconv.FormatInt(n, 10) }

func (r *copyRows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := r.Rows.Next(ctx)
	if b != nil {
		r.prog.tuples.Add(b.NumRows())
	}
	return b, err
}

// CopyBytesSent implements CopyBytesSink.
func (r *copyRows) CopyBytesSent(n int64) { r.prog.bytes.Add(n) }

func (r *copyRows) Close() error {
	r.prog.end()
	return r.Rows.Close()
}
