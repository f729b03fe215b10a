package translate

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
)

// insertStatement is a prepared INSERT. Like a SELECT it binds at Prepare
// (to infer its parameters' types from the target columns) and again at
// Execute with the parameter values and the table's current snapshot.
type insertStatement struct {
	sess     *session
	ps       parse.Stmt
	ins      *pg.InsertStmt
	declared []uint32
	params   []uint32
	// hint is the OPTIONS hint on the target table (nil: none): its write
	// options apply and its NOTICEs join the result.
	hint *parse.Hint
}

func (s *session) prepareInsert(ctx context.Context, ps parse.Stmt, ins *pg.InsertStmt, paramTypes []uint32, eager bool) (Statement, error) {
	st := &insertStatement{sess: s, ps: ps, ins: ins, declared: append([]uint32(nil), paramTypes...), hint: dmlTargetHint(ps)}
	if st.hint != nil {
		if k := hints.TimeTravelKey(st.hint); k != "" {
			return nil, pgerr.Unsupported("INSERT into a table read at another snapshot (option %s)", k)
		}
	}
	if eager {
		if _, err := st.bind(ctx, nil); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// bind binds the statement; values are the parameters at Execute (nil at
// Prepare).
func (st *insertStatement) bind(ctx context.Context, values []*string) (*bind.InsertPlan, error) {
	ps := bind.NewParamSet(st.declared, st.params, values)
	b := bind.New(ctx, st.sess, st.ps, ps, time.Now())
	p, err := b.BindInsert(st.ins)
	if err != nil {
		return nil, err
	}
	ps.ResolveUntyped()
	if st.params == nil {
		st.params = ps.Types
	}
	return p, nil
}

func (st *insertStatement) ParamTypes() []uint32      { return st.params }
func (st *insertStatement) Columns() []pgtypes.Column { return nil }

func (st *insertStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	mc, err := st.sess.mutableCatalog("INSERT")
	if err != nil {
		return nil, err
	}
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
	ctx, cancel := st.sess.withStatementTimeout(ctx)
	defer cancel()
	x := sparkInsertOf(st.ps) // insert_overwrite.go
	if x != nil && x.HasPartition {
		if err := checkPartitionClause(st.ps, p, x); err != nil {
			return nil, err
		}
	}
	op, err := st.sess.insertOperator(ctx, p)
	if err != nil {
		return nil, err
	}
	wo := hintWriteOptions(st.hint) // options_write.go
	var n int64
	if x != nil && x.Overwrite {
		n, err = st.sess.overwriteRows(ctx, mc, st.ps, p, op, x, wo)
	} else {
		n, err = st.sess.writeRowsTo(ctx, mc, p.Table, p.Schema, op, false, p.Branch, wo)
	}
	if err != nil {
		return nil, err
	}
	st.sess.markQueried()
	res := Rows(&emptyRows{tag: fmt.Sprintf("INSERT 0 %d", n)})
	if st.hint != nil {
		res = addNotices(res, hintNoticesOf(st.hint)) // hints_notice.go
	}
	return res, nil
}

// insertOperator is the operator yielding the rows an INSERT writes, with
// the table's columns.
func (s *session) insertOperator(ctx context.Context, p *bind.InsertPlan) (engine.Operator, error) {
	opts := s.CompileOptions()
	fields := make([]arrow.Field, len(p.Cols))
	names := make([]string, len(p.Cols))
	for i, c := range p.Cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Arrow, Nullable: true}
		names[i] = c.Name
	}
	if p.Values != nil {
		return exec.NewValues(arrow.NewSchema(fields, nil), p.Values, opts)
	}
	in, err := lowerQuery(ctx, s, p.Sel)
	if err != nil {
		return nil, err
	}
	op, err := exec.NewProject(in, p.Project, names, opts)
	if err != nil {
		in.Close()
		return nil, err
	}
	return op, nil
}

// tableWrite is one statement's write into a table: a Writer over the
// table's data location, committed with one append.
type tableWrite struct {
	mc    catalog.MutableCatalog
	table *catalog.Table
	w     *write.Writer
	rows  int64
	// immediate commits even inside a transaction block (CREATE TABLE
	// AS, whose table exists as soon as it is created).
	immediate bool
	// branch is the branch committed to ("": main, or the session's WAP
	// branch).
	branch string
	// opts are the statement's write options (snapshot properties).
	opts writeOptions
}

// newTableWrite starts writing rows of schema (the table's current one)
// into t, with the statement's write options wo.
func (s *session) newTableWrite(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, schema *catalog.Schema, wo writeOptions) (*tableWrite, error) {
	format, err := s.writeFormat(wo) // options_write.go
	if err != nil {
		return nil, err
	}
	out, err := mc.NewOutput(t)
	if err != nil {
		return nil, catalogError(err, kindTable, t.Ident.Name)
	}
	m := t.Metadata
	w, err := write.NewWriter(ctx, write.WriterSpec{
		// Files are removed after the statement ends too (a rolled-back
		// block), so their IO outlives its cancellation.
		IO:            write.TableOutput(context.WithoutCancel(ctx), out),
		DataDir:       write.DataDir(m),
		Schema:        schema,
		Spec:          m.SpecByID(m.DefaultSpecID),
		Properties:    m.Properties,
		FormatVersion: m.FormatVersion,
		SortOrder:     defaultSortOrder(m),
		Format:        format,
	})
	if err != nil {
		return nil, writeError(err, t)
	}
	return &tableWrite{mc: mc, table: t, w: w, opts: wo}, nil
}

// defaultSortOrder is the table's default sort order (nil when there is
// none); the Writer writes each data file in it when it has fields.
func defaultSortOrder(m *catalog.TableMetadata) *catalog.SortOrder {
	for _, o := range m.SortOrders {
		if o.ID == m.DefaultSortOrderID {
			return o
		}
	}
	return nil
}

// write writes one batch of the table's columns.
func (tw *tableWrite) write(b arrow.RecordBatch) error {
	if err := tw.w.Write(b); err != nil {
		return writeError(err, tw.table)
	}
	tw.rows += b.NumRows()
	return nil
}

// commit closes the files and appends them: in one snapshot now, or
// staged until COMMIT inside a transaction block (tx_writes.go). On
// failure every file written is removed.
func (tw *tableWrite) commit(ctx context.Context, s *session) error {
	files, err := tw.w.Close()
	if err != nil {
		return writeError(err, tw.table)
	}
	if len(files) == 0 {
		return nil
	}
	ch := &catalog.Change{AddedDataFiles: files, Branch: tw.branch}
	tw.opts.addTo(ch)
	if tw.immediate {
		if err := commitNow(ctx, tw.mc, tw.table.Ident, ch); err != nil {
			tw.abort()
			return catalogError(err, kindTable, tw.table.Ident.Name)
		}
		return nil
	}
	return s.commitChange(ctx, tw.mc, tw.table, ch, tw.abort)
}

// abort removes the files written.
func (tw *tableWrite) abort() {
	if err := tw.w.Abort(); err != nil {
		slog.Warn("remove data files of a failed write", "table", tw.table.Ident.Name, "error", err)
	}
}

func writeError(err error, t *catalog.Table) error {
	if pgerr.As(err) != nil {
		return err
	}
	return catalogError(fmt.Errorf("write %s: %w", strings.Join(append(append([]string(nil), t.Ident.Namespace...), t.Ident.Name), "."), err), kindTable, t.Ident.Name)
}

// writeRows writes every row of op into t and commits them; it returns the
// number of rows.
func (s *session) writeRows(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, schema *catalog.Schema, op engine.Operator, immediate bool) (n int64, err error) {
	return s.writeRowsTo(ctx, mc, t, schema, op, immediate, "", writeOptions{})
}

// writeRowsTo is writeRows committing to branch ("": main, or the
// session's WAP branch), with the statement's write options wo.
func (s *session) writeRowsTo(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, schema *catalog.Schema, op engine.Operator, immediate bool, branch string, wo writeOptions) (n int64, err error) {
	defer func() {
		if cerr := op.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	tw, err := s.newTableWrite(ctx, mc, t, schema, wo)
	if err != nil {
		return 0, err
	}
	tw.immediate, tw.branch = immediate, branch
	if err := op.Open(ctx); err != nil {
		tw.abort()
		return 0, statementErr(ctx, err)
	}
	for {
		b, err := op.Next()
		if err != nil {
			tw.abort()
			return 0, statementErr(ctx, err)
		}
		if b == nil {
			break
		}
		if err := tw.write(b); err != nil {
			return 0, err
		}
	}
	if err := tw.commit(ctx, s); err != nil {
		return 0, err
	}
	return tw.rows, nil
}

// CompileOptions are the session settings compiled expressions depend on.
func (s *session) CompileOptions() expr.CompileOptions {
	return expr.CompileOptions{TimeZone: s.settings.Location()}
}
