package translate

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
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
	st.opts, err = copyOptions(st.cs.Options, names, true)
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
	cols := bind.ColumnsOfTable(t, t.Metadata.CurrentSchema())
	st.table, st.targets, st.cols = t, nil, nil
	if len(st.attlist) == 0 {
		for i := range cols {
			st.targets = append(st.targets, i)
		}
	} else {
		seen := map[int]bool{}
		for _, name := range st.attlist {
			i := bind.FindColumn(cols, name, false)
			if i < 0 {
				return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, st.tn.Name)
			}
			if seen[i] {
				return pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", name)
			}
			seen[i] = true
			st.targets = append(st.targets, i)
		}
	}
	for _, i := range st.targets {
		c := cols[i]
		st.cols = append(st.cols, pgtypes.Column{Name: c.Name, TypeOID: c.Type.OID, Typmod: c.Type.Typmod})
	}
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
	if !sameCopyColumns(cols, st.targets, st.cols) {
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
	conv, err := newCopyConverter(st, cols, enums, s.CompileOptions())
	if conv != nil {
		conv.fields = schema.Fields
	}
	if err == nil {
		err = conv.bindDefaults(ctx, s, st.ps, t) // defaults_copy.go
	}
	if err != nil {
		return "", err
	}
	tw, err := s.newTableWrite(ctx, mc, t, schema, writeOptions{})
	if err != nil {
		return "", err
	}
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
		b, err := conv.convert(ctx, rows, src)
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

func sameCopyColumns(cols []bind.Column, targets []int, bound []pgtypes.Column) bool {
	for k, i := range targets {
		if i >= len(cols) || cols[i].Name != bound[k].Name || cols[i].Type.OID != bound[k].TypeOID {
			return false
		}
	}
	return true
}

// copyConverter turns chunks of text rows into batches of the table's
// columns.
type copyConverter struct {
	st     *copyFromStatement
	cols   []bind.Column
	in     *arrow.Schema // one text column per copied column
	out    *arrow.Schema // the table's columns
	progs  []expr.Program
	copied map[int]int // table column -> copied column
	fields []catalog.NestedField
	// filled computes the defaults kept in the table's properties of the
	// columns the COPY does not name (defaults_copy.go).
	filled map[int]expr.Program
}

func newCopyConverter(st *copyFromStatement, cols []bind.Column, enums map[string][2]string, opts expr.CompileOptions) (*copyConverter, error) {
	c := &copyConverter{st: st, cols: cols, copied: map[int]int{}}
	inFields := make([]arrow.Field, len(st.targets))
	for k, i := range st.targets {
		inFields[k] = arrow.Field{Name: cols[i].Name, Type: expr.Text, Nullable: true}
		c.copied[i] = k
	}
	c.in = arrow.NewSchema(inFields, nil)
	outFields := make([]arrow.Field, len(cols))
	for i, col := range cols {
		outFields[i] = arrow.Field{Name: col.Name, Type: col.Arrow, Nullable: true}
	}
	c.out = arrow.NewSchema(outFields, nil)
	for k, i := range st.targets {
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

// convert builds one batch of the table's columns from rows.
func (c *copyConverter) convert(ctx context.Context, rows [][]*string, src CopySource) (arrow.RecordBatch, error) {
	mem := expr.Allocator(ctx)
	ncopied := len(c.st.targets)
	builders := make([]*array.StringBuilder, ncopied)
	for k := range builders {
		builders[k] = array.NewStringBuilder(mem)
		defer builders[k].Release()
	}
	for r, row := range rows {
		if len(row) != ncopied {
			msg := "extra data after last expected column"
			if len(row) < ncopied {
				msg = fmt.Sprintf("missing data for column \"%s\"", c.cols[c.st.targets[len(row)]].Name)
			}
			return nil, pgerr.New(pgerr.BadCopyFileFormat, "%s", msg).
				WithDetail("COPY %s, line %d", c.st.tn.Name, src.LineOf(r))
		}
		for k, v := range row {
			if v == nil {
				builders[k].AppendNull()
			} else {
				builders[k].Append(*v)
			}
		}
	}
	texts := make([]arrow.Array, ncopied)
	for k, b := range builders {
		texts[k] = b.NewArray()
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
func (c *copyConverter) fill(ctx context.Context, i int, in arrow.RecordBatch) (arrow.Array, error) {
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
func (c *copyConverter) checkNotNull(b arrow.RecordBatch, rows [][]*string, src CopySource) error {
	for i, f := range c.fields {
		if !f.Required || b.Column(i).NullN() == 0 {
			continue
		}
		col := b.Column(i)
		for r := 0; r < col.Len(); r++ {
			if col.IsNull(r) {
				return pgerr.New(pgerr.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint", f.Name, c.st.tn.Name).
					WithDetail("COPY %s, line %d", c.st.tn.Name, src.LineOf(r))
			}
		}
	}
	return nil
}

// locate finds the row whose value of copied column k failed to convert
// and returns the error with PostgreSQL's context: the line and the value.
func (c *copyConverter) locate(ctx context.Context, in arrow.RecordBatch, k int, err error, rows [][]*string, src CopySource) error {
	pe := pgerr.As(err)
	if pe == nil {
		return err
	}
	col := c.cols[c.st.targets[k]].Name
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
		return out.WithDetail("COPY %s, line %d, column %s: \"%s\"", c.st.tn.Name, src.LineOf(r), col, v)
	}
	return err
}

// copyToStatement is COPY t [(cols)] TO STDOUT or COPY (query) TO STDOUT:
// a query whose rows wire sends as COPY data.
type copyToStatement struct {
	sel  *selectStatement
	opts CopyOptions
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
		sel = copyTableQuery(cs.Relation, attnames)
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
	opts, err := copyOptions(cs.Options, names, false)
	if err != nil {
		return nil, err
	}
	return &copyToStatement{sel: st, opts: opts}, nil
}

// copyTableQuery is SELECT cols FROM t for COPY t [(cols)] TO STDOUT.
func copyTableQuery(rel *pg.RangeVar, cols []string) *pg.SelectStmt {
	sel := &pg.SelectStmt{FromClause: []*pg.Node{{Node: &pg.Node_RangeVar{RangeVar: rel}}}, LimitOption: pg.LimitOption_LIMIT_OPTION_DEFAULT, Op: pg.SetOperation_SETOP_NONE}
	if len(cols) == 0 {
		star := &pg.Node{Node: &pg.Node_AStar{AStar: &pg.A_Star{}}}
		sel.TargetList = []*pg.Node{{Node: &pg.Node_ResTarget{ResTarget: &pg.ResTarget{
			Val: &pg.Node{Node: &pg.Node_ColumnRef{ColumnRef: &pg.ColumnRef{Fields: []*pg.Node{star}, Location: rel.Location}}}, Location: rel.Location}}}}
		return sel
	}
	for _, c := range cols {
		name := &pg.Node{Node: &pg.Node_String_{String_: &pg.String{Sval: c}}}
		sel.TargetList = append(sel.TargetList, &pg.Node{Node: &pg.Node_ResTarget{ResTarget: &pg.ResTarget{
			Val: &pg.Node{Node: &pg.Node_ColumnRef{ColumnRef: &pg.ColumnRef{Fields: []*pg.Node{name}, Location: -1}}}, Location: -1}}})
	}
	return sel
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
	return &copyRows{Rows: rows}, nil
}

// copyRows is a query's rows tagged as COPY.
type copyRows struct{ Rows }

func (r *copyRows) Tag(n int64) string { return "COPY " + strconv.FormatInt(n, 10) }
