package opt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// A small language for relational trees, to test the optimizer without a
// session, catalog files or data.
//
// A catalog case declares tables, one a line:
//
//	table orders (o_orderkey int8, o_custkey int8, o_totalprice float8) rows 1500000
//
// (types int2, int4/int, int8/bigint, float4, float8, text, bool; "rows N"
// is the row count of the table's current snapshot summary, which the
// estimates read; without it the snapshot has no count).
//
// A tree is one node a line, each node's inputs below it, indented two
// spaces more:
//
//	scan TABLE [[AS] ALIAS]
//	cte NAME [[AS] ALIAS]                    a shared WITH query
//	values (COL, ...) (EXPR, ...) ...        constant rows
//	filter EXPR
//	project EXPR [AS NAME], ...
//	agg groups (EXPR [AS NAME], ...) aggs (FN([DISTINCT] ARG|*) [AS NAME], ...)
//	distinct EXPR [AS NAME], ...             an agg without aggregates
//	join KIND [MARK] [null-aware] [single] [on EXPR]
//	                 KIND: inner left right full semi anti mark; a mark
//	                 join names its mark column MARK
//	sort EXPR [asc|desc] [nulls first|last], ...
//	limit N|all [offset M]
//
// Column ids are given in the order nodes are built: inputs first, left
// to right (so a scan's columns are numbered as the binder numbers the
// FROM clause's). A project item or group key that is a plain column
// without AS passes the column through with its id (the binder does so
// for DISTINCT and set operations); with AS or computed, it is a new
// column (GROUP BY keys are new columns in the binder's trees).
//
// Expressions: columns by name or ALIAS.name (a name must be unique among
// the node's input columns), integer literals (int4, int8 when larger),
// float literals (float8, where the binder types them numeric), 'text'
// (untyped, as in SQL), NULL, TRUE, FALSE, comparisons = <> != < <= > >=,
// + - * / % ||, AND OR NOT, IS [NOT] NULL, IS [NOT] DISTINCT FROM, [NOT]
// LIKE, EXPR::TYPE and function calls f(args). They are built as the
// binder builds them: the function catalogue (expr.Resolve) says which
// casts the arguments need, an untyped literal takes its context's type,
// a chain a AND b AND c is one call (PostgreSQL's grammar flattens it).
//
// (select NAME) is a scalar subquery and exists(NAME) an EXISTS, both
// uncorrelated: NAME's tree follows the main one after a line
// "subquery NAME". The uses of one name are one expression node. A
// shared WITH query's tree follows after a line "with NAME".
//
// The result of the statement is the root's output columns.

type testTable struct {
	table  *catalog.Table
	schema *catalog.Schema
	snap   *catalog.Snapshot
}

type testCatalog struct{ tables map[string]*testTable }

var typeNames = map[string]catalog.TypeID{
	"int4": catalog.TInt, "int": catalog.TInt, "integer": catalog.TInt,
	"int8": catalog.TLong, "bigint": catalog.TLong,
	"float4": catalog.TFloat, "float8": catalog.TDouble,
	"text": catalog.TString, "bool": catalog.TBoolean, "boolean": catalog.TBoolean,
	"date": catalog.TDate, "timestamp": catalog.TTimestamp, "timestamptz": catalog.TTimestamptz,
}

// castTypes are the types a cast may name besides the column types.
var castTypes = map[string]arrow.DataType{"interval": expr.Interval}

func parseCatalog(src string) (*testCatalog, error) {
	cat := &testCatalog{tables: map[string]*testTable{}}
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rest, ok := strings.CutPrefix(line, "table ")
		if !ok {
			return nil, fmt.Errorf("line %d: want table NAME (COLS) [rows N]", n+1)
		}
		open, close := strings.Index(rest, "("), strings.LastIndex(rest, ")")
		if open < 0 || close < open {
			return nil, fmt.Errorf("line %d: want table NAME (COLS) [rows N]", n+1)
		}
		name := strings.TrimSpace(rest[:open])
		schema := &catalog.Schema{ID: 0}
		for i, col := range strings.Split(rest[open+1:close], ",") {
			f := strings.Fields(col)
			if len(f) != 2 {
				return nil, fmt.Errorf("line %d: column %q: want NAME TYPE", n+1, col)
			}
			id, ok := typeNames[strings.ToLower(f[1])]
			if !ok {
				return nil, fmt.Errorf("line %d: unknown type %q", n+1, f[1])
			}
			schema.Fields = append(schema.Fields, catalog.NestedField{ID: i + 1, Name: f[0], Type: &catalog.PrimitiveType{ID: id}})
		}
		snap := &catalog.Snapshot{SnapshotID: 1, SequenceNumber: 1, Summary: map[string]string{"operation": "append"}}
		if tail := strings.Fields(rest[close+1:]); len(tail) > 0 {
			if len(tail) != 2 || tail[0] != "rows" {
				return nil, fmt.Errorf("line %d: after the columns, want rows N", n+1)
			}
			if _, err := atoiArg(tail[1]); err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			snap.Summary["total-records"] = tail[1]
		}
		cat.tables[name] = &testTable{
			table:  &catalog.Table{Ident: catalog.Identifier{Namespace: []string{"test"}, Name: name}},
			schema: schema,
			snap:   snap,
		}
	}
	return cat, nil
}

// treeNode is one line of a tree and the lines below it.
type treeNode struct {
	line     int
	text     string
	children []*treeNode
}

func parseLines(src string) (*treeNode, error) {
	type frame struct {
		indent int
		node   *treeNode
	}
	var root *treeNode
	var stack []frame
	for n, line := range strings.Split(src, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		node := &treeNode{line: n + 1, text: strings.TrimSpace(line)}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			if root != nil {
				return nil, fmt.Errorf("line %d: a second root", n+1)
			}
			root = node
		} else {
			if indent != stack[len(stack)-1].indent+2 {
				return nil, fmt.Errorf("line %d: indent by two spaces under the parent", n+1)
			}
			p := stack[len(stack)-1].node
			p.children = append(p.children, node)
		}
		stack = append(stack, frame{indent, node})
	}
	if root == nil {
		return nil, fmt.Errorf("no tree")
	}
	return root, nil
}

// colName is how expressions name a column id.
type colName struct{ qual, name string }

type treeBuilder struct {
	cat   *testCatalog
	cols  *plan.ColTable
	names map[plan.ColID]colName
	subs  map[string]*plan.Select // subqueries by name
	// subExprs are the expressions using them, one per name and kind.
	subExprs map[subKey]*plan.Subquery
	ctes     map[string]*plan.CTE // shared WITH queries by name
}

// buildTree builds the statement whose tree src writes. After the main
// tree, a line "subquery NAME" starts the tree of an uncorrelated
// subquery that expressions use as (select NAME) or exists(NAME); a
// subquery may use those declared after it.
func buildTree(cat *testCatalog, src string) (*plan.Select, error) {
	b := &treeBuilder{cat: cat, cols: &plan.ColTable{}, names: map[plan.ColID]colName{}, subs: map[string]*plan.Select{}, subExprs: map[subKey]*plan.Subquery{}, ctes: map[string]*plan.CTE{}}
	// Split into sections: the main tree, then the subqueries.
	type section struct {
		name  string
		lines []string
		first int
		with  bool // a shared WITH query, not a subquery
	}
	secs := []*section{{first: 1}}
	for n, line := range strings.Split(src, "\n") {
		if name, ok := strings.CutPrefix(line, "subquery "); ok {
			secs = append(secs, &section{name: strings.TrimSpace(name), first: n + 2})
			continue
		}
		if name, ok := strings.CutPrefix(line, "with "); ok {
			secs = append(secs, &section{name: strings.TrimSpace(name), first: n + 2, with: true})
			continue
		}
		cur := secs[len(secs)-1]
		cur.lines = append(cur.lines, line)
	}
	// The last declared first: a subquery may use the ones after it.
	var sel *plan.Select
	for i := len(secs) - 1; i >= 0; i-- {
		sec := secs[i]
		// Keep line numbers those of the case's input.
		text := strings.Repeat("\n", sec.first-1) + strings.Join(sec.lines, "\n")
		s, err := b.statement(text)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			sel = s
			break
		}
		_, dupSub := b.subs[sec.name]
		_, dupWith := b.ctes[sec.name]
		if dupSub || dupWith {
			return nil, fmt.Errorf("%s declared twice", sec.name)
		}
		if sec.with {
			b.ctes[sec.name] = &plan.CTE{Name: sec.name, Body: s.Root, Out: s.Out, Cols: s.Cols}
			continue
		}
		b.subs[sec.name] = s
	}
	return sel, nil
}

// statement builds one tree and its result columns (all the root's).
func (b *treeBuilder) statement(src string) (*plan.Select, error) {
	root, err := parseLines(src)
	if err != nil {
		return nil, err
	}
	r, err := b.node(root)
	if err != nil {
		return nil, err
	}
	sel := &plan.Select{Root: r, Out: r.OutCols(), ColTable: b.cols}
	for _, id := range sel.Out {
		m := b.cols.Meta(id)
		sel.Cols = append(sel.Cols, pgtypes.Column{Name: m.Name, TypeOID: m.T.OID, Typmod: m.T.Typmod})
		sel.Output = append(sel.Output, &expr.Col{Idx: int(id), Name: m.Name, T: m.ArrowType})
	}
	return sel, nil
}

func (b *treeBuilder) newCol(qual, name string, t arrow.DataType) plan.ColID {
	id := b.cols.Add(plan.ColMeta{Name: name, T: pgTypeOf(t), ArrowType: t})
	b.names[id] = colName{qual, name}
	return id
}

// pgTypeOf is the PostgreSQL type of a computed value of Arrow type t.
func pgTypeOf(t arrow.DataType) plan.Type {
	if expr.IsNumericType(t) {
		return plan.TNumeric
	}
	switch t.ID() {
	case arrow.BOOL:
		return plan.TBool
	case arrow.INT16:
		return plan.TInt2
	case arrow.INT32:
		return plan.TInt4
	case arrow.INT64:
		return plan.TInt8
	case arrow.FLOAT32:
		return plan.TFloat4
	case arrow.FLOAT64:
		return plan.TFloat8
	case arrow.DECIMAL128:
		return plan.TNumeric
	case arrow.DATE32:
		return plan.TDate
	case arrow.TIMESTAMP:
		if t.(*arrow.TimestampType).TimeZone != "" {
			return plan.TTimestamptz
		}
		return plan.TTimestamp
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return plan.TInterval
	}
	return plan.TText
}

func (b *treeBuilder) node(n *treeNode) (plan.Rel, error) {
	r, err := b.nodeOf(n)
	if err != nil && !strings.HasPrefix(err.Error(), "line ") {
		err = fmt.Errorf("line %d: %s: %w", n.line, n.text, err)
	}
	return r, err
}

func (b *treeBuilder) nodeOf(n *treeNode) (plan.Rel, error) {
	kind, rest, _ := strings.Cut(n.text, " ")
	rest = strings.TrimSpace(rest)
	want := 1
	switch kind {
	case "scan", "values", "cte":
		want = 0
	case "join":
		want = 2
	}
	if len(n.children) != want {
		return nil, fmt.Errorf("%s takes %d inputs, has %d", kind, want, len(n.children))
	}
	var ins []plan.Rel
	for _, c := range n.children {
		in, err := b.node(c)
		if err != nil {
			return nil, err
		}
		ins = append(ins, in)
	}
	switch kind {
	case "scan":
		return b.scan(rest)
	case "values":
		return b.values(rest)
	case "cte":
		return b.cteScan(rest)
	case "filter":
		p := b.parser(rest, ins[0].OutCols())
		e, err := p.whole()
		if err != nil {
			return nil, err
		}
		return &plan.Filter{In: ins[0], Pred: e}, nil
	case "project":
		p := b.parser(rest, ins[0].OutCols())
		items, err := p.namedList()
		if err != nil {
			return nil, err
		}
		if err := p.end(); err != nil {
			return nil, err
		}
		pr := &plan.Project{In: ins[0]}
		for _, it := range items {
			pr.Exprs = append(pr.Exprs, it.e)
			pr.Cols = append(pr.Cols, b.outCol(it))
		}
		return pr, nil
	case "agg", "distinct":
		return b.agg(kind, rest, ins[0])
	case "join":
		return b.join(rest, ins[0], ins[1])
	case "sort":
		return b.sort(rest, ins[0])
	case "limit":
		f := strings.Fields(rest)
		l := &plan.Limit{In: ins[0], Limit: -1}
		if len(f) != 1 && !(len(f) == 3 && f[1] == "offset") {
			return nil, fmt.Errorf("want limit N [offset M]")
		}
		var err error
		if f[0] != "all" {
			if l.Limit, err = atoiArg(f[0]); err != nil {
				return nil, err
			}
		}
		if len(f) == 3 {
			if l.Offset, err = atoiArg(f[2]); err != nil {
				return nil, err
			}
		}
		return l, nil
	}
	return nil, fmt.Errorf("unknown node %q", kind)
}

func (b *treeBuilder) scan(rest string) (plan.Rel, error) {
	f := strings.Fields(rest)
	if len(f) == 0 || len(f) > 3 || (len(f) == 3 && !strings.EqualFold(f[1], "as")) {
		return nil, fmt.Errorf("want scan TABLE [[AS] ALIAS]")
	}
	t, ok := b.cat.tables[f[0]]
	if !ok {
		return nil, fmt.Errorf("no table %q in the catalog", f[0])
	}
	alias := f[len(f)-1]
	// Name is the table as written, without the alias, as the binder
	// names it.
	s := &plan.Scan{Table: t.table, Schema: t.schema, Snapshot: t.snap, Name: f[0]}
	for _, fd := range t.schema.Fields {
		s.FieldIDs = append(s.FieldIDs, fd.ID)
		s.Cols = append(s.Cols, b.newCol(alias, fd.Name, engine.ArrowType(fd.Type)))
	}
	return s, nil
}

// cteScan reads a shared WITH query: its own column ids, one per
// column of the query's result, named as they are.
func (b *treeBuilder) cteScan(rest string) (plan.Rel, error) {
	f := strings.Fields(rest)
	if len(f) == 0 || len(f) > 3 || (len(f) == 3 && !strings.EqualFold(f[1], "as")) {
		return nil, fmt.Errorf("want cte NAME [[AS] ALIAS]")
	}
	c, ok := b.ctes[f[0]]
	if !ok {
		return nil, fmt.Errorf("no WITH query %q declared after the tree", f[0])
	}
	alias := f[len(f)-1]
	s := &plan.CTEScan{CTE: c}
	for _, id := range c.Out {
		m := b.cols.Meta(id)
		s.Cols = append(s.Cols, b.newCol(alias, m.Name, m.ArrowType))
	}
	return s, nil
}

func (b *treeBuilder) values(rest string) (plan.Rel, error) {
	p := b.parser(rest, nil)
	var names []string
	if err := p.expect("("); err != nil {
		return nil, err
	}
	for {
		tok := p.next()
		if tok.kind != tIdent {
			return nil, fmt.Errorf("want a column name, got %q", tok.text)
		}
		names = append(names, tok.text)
		if !p.accept(",") {
			break
		}
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	v := &plan.Values{}
	var types []arrow.DataType
	for !p.atEnd() {
		if err := p.expect("("); err != nil {
			return nil, err
		}
		var row []expr.Expr
		for {
			x, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			row = append(row, p.typed(x))
			if !p.accept(",") {
				break
			}
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		if len(row) != len(names) {
			return nil, fmt.Errorf("a row of %d values for %d columns", len(row), len(names))
		}
		if types == nil {
			for _, e := range row {
				types = append(types, e.Type())
			}
		}
		v.Rows = append(v.Rows, row)
	}
	if types == nil {
		return nil, fmt.Errorf("values without rows")
	}
	for i, n := range names {
		v.Cols = append(v.Cols, b.newCol("", n, types[i]))
	}
	return v, nil
}

// outCol is the column a named item produces: the column itself when
// the item is a column not renamed, else a new one.
func (b *treeBuilder) outCol(it namedExpr) plan.ColID {
	if c, ok := it.e.(*expr.Col); ok && (it.name == "" || it.name == c.Name) {
		return plan.ColID(c.Idx)
	}
	name := it.name
	if name == "" {
		name = "?column?"
	}
	return b.newCol("", name, it.e.Type())
}

func (b *treeBuilder) agg(kind, rest string, in plan.Rel) (plan.Rel, error) {
	p := b.parser(rest, in.OutCols())
	a := &plan.Agg{In: in}
	var groups []namedExpr
	var aggNames []string
	var err error
	if kind == "distinct" {
		if groups, err = p.namedList(); err != nil {
			return nil, err
		}
	} else {
		if p.acceptWord("groups") {
			if err := p.expect("("); err != nil {
				return nil, err
			}
			if !p.accept(")") {
				if groups, err = p.namedList(); err != nil {
					return nil, err
				}
				if err := p.expect(")"); err != nil {
					return nil, err
				}
			}
		}
		if !p.acceptWord("aggs") {
			return nil, fmt.Errorf("want agg groups (...) aggs (...)")
		}
		if err := p.expect("("); err != nil {
			return nil, err
		}
		for {
			call, name, err := p.aggCall()
			if err != nil {
				return nil, err
			}
			a.Aggs = append(a.Aggs, call)
			aggNames = append(aggNames, name)
			if !p.accept(",") {
				break
			}
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	// A key written as a plain column passes the column through with its
	// id (SELECT DISTINCT, set operations); a key with AS gets a new id
	// (GROUP BY: the binder's group columns are new ids).
	for _, g := range groups {
		a.Groups = append(a.Groups, g.e)
		if c, ok := g.e.(*expr.Col); ok && g.name == "" {
			a.GroupCols = append(a.GroupCols, plan.ColID(c.Idx))
			continue
		}
		name := g.name
		if name == "" {
			name = "?column?"
		}
		a.GroupCols = append(a.GroupCols, b.newCol("", name, g.e.Type()))
	}
	for i, call := range a.Aggs {
		a.AggCols = append(a.AggCols, b.newCol("", aggNames[i], call.T))
	}
	return a, nil
}

func (b *treeBuilder) join(rest string, left, right plan.Rel) (plan.Rel, error) {
	kinds := map[string]plan.JoinType{"inner": plan.JoinInner, "left": plan.JoinLeft, "right": plan.JoinRight,
		"full": plan.JoinFull, "semi": plan.JoinSemi, "anti": plan.JoinAnti, "mark": plan.JoinMark}
	scope := append(append([]plan.ColID(nil), left.OutCols()...), right.OutCols()...)
	p := b.parser(rest, scope)
	tok := p.next()
	typ, ok := kinds[tok.text]
	if tok.kind != tIdent || !ok {
		return nil, fmt.Errorf("want join inner|left|right|full|semi|anti|mark, got %q", tok.text)
	}
	j := &plan.Join{Typ: typ, Left: left, Right: right}
	markName := ""
	if typ == plan.JoinMark {
		tok := p.next()
		if tok.kind != tIdent {
			return nil, fmt.Errorf("want join mark NAME")
		}
		markName = tok.text
	}
	for !p.atEnd() {
		switch {
		case p.acceptWord("null-aware"):
			j.NullAware = true
		case p.acceptWord("single"):
			j.Single = true
		case p.acceptWord("on"):
			e, err := p.whole()
			if err != nil {
				return nil, err
			}
			j.Cond = e
		default:
			return nil, fmt.Errorf("unexpected %q in join", p.peek().text)
		}
	}
	if typ == plan.JoinMark {
		j.Mark = b.newCol("", markName, expr.Bool)
	}
	return j, nil
}

func (b *treeBuilder) sort(rest string, in plan.Rel) (plan.Rel, error) {
	p := b.parser(rest, in.OutCols())
	s := &plan.Sort{In: in}
	for {
		e, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		k := plan.SortKey{E: p.typed(e)}
		if p.acceptWord("desc") {
			k.Desc = true
		} else {
			p.acceptWord("asc")
		}
		k.NullsFirst = k.Desc // PostgreSQL's default
		if p.acceptWord("nulls") {
			switch {
			case p.acceptWord("first"):
				k.NullsFirst = true
			case p.acceptWord("last"):
				k.NullsFirst = false
			default:
				return nil, fmt.Errorf("want nulls first|last")
			}
		}
		s.Keys = append(s.Keys, k)
		if !p.accept(",") {
			break
		}
	}
	return s, p.end()
}

// --- expressions ---

type tokKind int

const (
	tEnd tokKind = iota
	tIdent
	tInt
	tFloat
	tString
	tOp
)

type token struct {
	kind tokKind
	text string
}

func tokenize(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\'':
			j := i + 1
			var sb strings.Builder
			for {
				if j >= len(s) {
					return nil, fmt.Errorf("unterminated string")
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						sb.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				sb.WriteByte(s[j])
				j++
			}
			out = append(out, token{tString, sb.String()})
			i = j + 1
		case c >= '0' && c <= '9':
			j := i
			kind := tInt
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				if s[j] == '.' {
					kind = tFloat
				}
				j++
			}
			out = append(out, token{kind, s[i:j]})
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '-' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, token{tIdent, s[i:j]})
			i = j
		default:
			op := string(c)
			if i+1 < len(s) {
				switch two := s[i : i+2]; two {
				case "<>", "!=", "<=", ">=", "::", "||":
					op = two
				}
			}
			if !strings.Contains("()=<>!,.+-*/%:|", op[:1]) {
				return nil, fmt.Errorf("unexpected character %q", c)
			}
			out = append(out, token{tOp, op})
			i += len(op)
		}
	}
	return out, nil
}

// val is a parsed expression: e, or an untyped literal (a 'string' or
// NULL) that takes its type from its context, as in SQL.
type val struct {
	e    expr.Expr
	lit  *string
	null bool
}

func (v val) arrowType() arrow.DataType {
	if v.lit != nil || v.null {
		return arrow.Null
	}
	return v.e.Type()
}

// coerce is v as type t: an untyped literal becomes a constant of t, an
// expression of another type gets a cast (the binder's coerce).
func coerce(v val, t arrow.DataType) expr.Expr {
	switch {
	case v.null:
		return &expr.Lit{V: nil, T: t}
	case v.lit != nil:
		if arrow.TypeEqual(t, expr.Text) {
			return &expr.Lit{V: *v.lit, T: expr.Text}
		}
		return &expr.Cast{Arg: &expr.Lit{V: *v.lit, T: expr.Text}, T: t}
	case arrow.TypeEqual(v.e.Type(), t):
		return v.e
	}
	return &expr.Cast{Arg: v.e, T: t}
}

type exprParser struct {
	b     *treeBuilder
	toks  []token
	pos   int
	scope []plan.ColID
	err   error
}

func (b *treeBuilder) parser(src string, scope []plan.ColID) *exprParser {
	toks, err := tokenize(src)
	return &exprParser{b: b, toks: toks, scope: scope, err: err}
}

func (p *exprParser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{kind: tEnd}
}

func (p *exprParser) next() token {
	t := p.peek()
	if p.pos < len(p.toks) {
		p.pos++
	}
	return t
}

func (p *exprParser) atEnd() bool { return p.pos >= len(p.toks) }

func (p *exprParser) accept(op string) bool {
	if t := p.peek(); t.kind == tOp && t.text == op {
		p.pos++
		return true
	}
	return false
}

func (p *exprParser) acceptWord(w string) bool {
	if t := p.peek(); t.kind == tIdent && strings.EqualFold(t.text, w) {
		p.pos++
		return true
	}
	return false
}

func (p *exprParser) expect(op string) error {
	if !p.accept(op) {
		return fmt.Errorf("want %q, got %q", op, p.peek().text)
	}
	return nil
}

func (p *exprParser) end() error {
	if !p.atEnd() {
		return fmt.Errorf("unexpected %q", p.peek().text)
	}
	return nil
}

// whole parses the rest as one boolean expression.
func (p *exprParser) whole() (expr.Expr, error) {
	if p.err != nil {
		return nil, p.err
	}
	v, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return coerce(v, expr.Bool), nil
}

// typed is v with an untyped literal made text, as the binder leaves it
// where nothing gives it a type.
func (p *exprParser) typed(v val) expr.Expr {
	if v.lit != nil || v.null {
		return coerce(v, expr.Text)
	}
	return v.e
}

type namedExpr struct {
	e    expr.Expr
	name string
}

// namedList parses EXPR [AS NAME], ... up to a ")" or the end.
func (p *exprParser) namedList() ([]namedExpr, error) {
	if p.err != nil {
		return nil, p.err
	}
	var out []namedExpr
	for {
		v, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		it := namedExpr{e: p.typed(v)}
		if p.acceptWord("as") {
			t := p.next()
			if t.kind != tIdent {
				return nil, fmt.Errorf("want a name after AS")
			}
			it.name = t.text
		}
		out = append(out, it)
		if !p.accept(",") {
			return out, nil
		}
	}
}

// aggCall parses FN(*) or FN([DISTINCT] EXPR) [AS NAME].
func (p *exprParser) aggCall() (plan.AggCall, string, error) {
	if p.err != nil {
		return plan.AggCall{}, "", p.err
	}
	t := p.next()
	if t.kind != tIdent {
		return plan.AggCall{}, "", fmt.Errorf("want an aggregate call, got %q", t.text)
	}
	call := plan.AggCall{Fn: strings.ToLower(t.text), Name: strings.ToLower(t.text)}
	if err := p.expect("("); err != nil {
		return call, "", err
	}
	var types []arrow.DataType
	if !p.accept("*") {
		call.Distinct = p.acceptWord("distinct")
		v, err := p.expr(0)
		if err != nil {
			return call, "", err
		}
		call.Arg = p.typed(v)
		types = append(types, call.Arg.Type())
	}
	if err := p.expect(")"); err != nil {
		return call, "", err
	}
	rt, err := exec.AggResultTypeN(call.Fn, types)
	if err != nil {
		return call, "", err
	}
	call.T = rt
	call.PGType = pgTypeOf(rt)
	name := call.Name
	if p.acceptWord("as") {
		t := p.next()
		if t.kind != tIdent {
			return call, "", fmt.Errorf("want a name after AS")
		}
		name = t.text
	}
	return call, name, nil
}

// Binding powers, loosest first.
const (
	bpOr = iota + 1
	bpAnd
	bpNot
	bpIs
	bpCmp
	bpLike
	bpAdd
	bpMul
	bpUnary
	bpCast
)

// expr parses an expression whose operators bind tighter than min.
func (p *exprParser) expr(min int) (val, error) {
	if p.err != nil {
		return val{}, p.err
	}
	left, err := p.prefix()
	if err != nil {
		return val{}, err
	}
	for {
		t := p.peek()
		word := ""
		if t.kind == tIdent {
			word = strings.ToLower(t.text)
		}
		switch {
		case word == "or" && min < bpOr, word == "and" && min < bpAnd:
			p.next()
			bp := bpOr
			if word == "and" {
				bp = bpAnd
			}
			right, err := p.expr(bp)
			if err != nil {
				return val{}, err
			}
			l, r := coerce(left, expr.Bool), coerce(right, expr.Bool)
			// a AND b AND c is one call, as PostgreSQL's grammar builds it
			// (it extends a left operand that is the same operator).
			if c, ok := l.(*expr.Call); ok && c.Fn == word && c.Go == nil {
				left = val{e: &expr.Call{Fn: word, Args: append(append([]expr.Expr(nil), c.Args...), r), T: expr.Bool}}
			} else {
				left = val{e: &expr.Call{Fn: word, Args: []expr.Expr{l, r}, T: expr.Bool}}
			}
		case word == "is" && min < bpIs:
			p.next()
			not := p.acceptWord("not")
			switch {
			case p.acceptWord("null"):
				fn := "isnull"
				if not {
					fn = "isnotnull"
				}
				if left, err = p.call(fn, []val{left}); err != nil {
					return val{}, err
				}
			case p.acceptWord("distinct"):
				if !p.acceptWord("from") {
					return val{}, fmt.Errorf("want IS [NOT] DISTINCT FROM")
				}
				right, err := p.expr(bpIs)
				if err != nil {
					return val{}, err
				}
				fn := "is_distinct_from"
				if not {
					fn = "is_not_distinct_from"
				}
				if left, err = p.call(fn, []val{left, right}); err != nil {
					return val{}, err
				}
			default:
				return val{}, fmt.Errorf("want IS [NOT] NULL or IS [NOT] DISTINCT FROM")
			}
		case (word == "like" || word == "not") && min < bpLike:
			p.next()
			fn := "like"
			if word == "not" {
				if !p.acceptWord("like") {
					return val{}, fmt.Errorf("want NOT LIKE")
				}
				fn = "not_like"
			}
			right, err := p.expr(bpLike)
			if err != nil {
				return val{}, err
			}
			if left, err = p.call(fn, []val{left, right}); err != nil {
				return val{}, err
			}
		case t.kind == tOp && isCmp(t.text) && min < bpCmp:
			p.next()
			right, err := p.expr(bpCmp)
			if err != nil {
				return val{}, err
			}
			op := t.text
			if op == "!=" {
				op = "<>"
			}
			if left, err = p.call(op, []val{left, right}); err != nil {
				return val{}, err
			}
		case t.kind == tOp && (t.text == "+" || t.text == "-" || t.text == "||") && min < bpAdd,
			t.kind == tOp && (t.text == "*" || t.text == "/" || t.text == "%") && min < bpMul:
			p.next()
			bp := bpAdd
			if t.text == "*" || t.text == "/" || t.text == "%" {
				bp = bpMul
			}
			right, err := p.expr(bp)
			if err != nil {
				return val{}, err
			}
			if left, err = p.call(t.text, []val{left, right}); err != nil {
				return val{}, err
			}
		case t.kind == tOp && t.text == "::" && min < bpCast:
			p.next()
			tt := p.next()
			id, ok := typeNames[strings.ToLower(tt.text)]
			to, other := castTypes[strings.ToLower(tt.text)]
			if tt.kind != tIdent || !ok && !other {
				return val{}, fmt.Errorf("unknown type %q", tt.text)
			}
			if !other {
				to = engine.ArrowType(&catalog.PrimitiveType{ID: id})
			}
			left = val{e: coerce(left, to)}
		default:
			return left, nil
		}
	}
}

func isCmp(op string) bool {
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func (p *exprParser) prefix() (val, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		n, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return val{}, fmt.Errorf("bad integer %q", t.text)
		}
		if n == int64(int32(n)) {
			return val{e: &expr.Lit{V: int32(n), T: expr.Int4}}, nil
		}
		return val{e: &expr.Lit{V: n, T: expr.Int8}}, nil
	case tFloat:
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return val{}, fmt.Errorf("bad number %q", t.text)
		}
		return val{e: &expr.Lit{V: f, T: expr.Float8}}, nil
	case tString:
		s := t.text
		return val{lit: &s}, nil
	case tOp:
		switch t.text {
		case "(":
			if p.acceptWord("select") {
				sq, err := p.subquery(false)
				if err != nil {
					return val{}, err
				}
				return val{e: sq}, p.expect(")")
			}
			v, err := p.expr(0)
			if err != nil {
				return val{}, err
			}
			return v, p.expect(")")
		case "-":
			v, err := p.expr(bpUnary)
			if err != nil {
				return val{}, err
			}
			if l, ok := v.e.(*expr.Lit); ok {
				switch x := l.V.(type) {
				case int32:
					return val{e: &expr.Lit{V: -x, T: l.T}}, nil
				case int64:
					return val{e: &expr.Lit{V: -x, T: l.T}}, nil
				case float64:
					return val{e: &expr.Lit{V: -x, T: l.T}}, nil
				}
			}
			return p.call("neg", []val{v})
		}
	case tIdent:
		word := strings.ToLower(t.text)
		switch word {
		case "null":
			return val{null: true}, nil
		case "true", "false":
			return val{e: &expr.Lit{V: word == "true", T: expr.Bool}}, nil
		case "exists":
			if err := p.expect("("); err != nil {
				return val{}, err
			}
			sq, err := p.subquery(true)
			if err != nil {
				return val{}, err
			}
			return val{e: sq}, p.expect(")")
		case "case":
			return p.caseExpr()
		case "not":
			v, err := p.expr(bpNot)
			if err != nil {
				return val{}, err
			}
			return val{e: &expr.Call{Fn: "not", Args: []expr.Expr{coerce(v, expr.Bool)}, T: expr.Bool}}, nil
		}
		if p.accept("(") {
			var args []val
			if !p.accept(")") {
				for {
					a, err := p.expr(0)
					if err != nil {
						return val{}, err
					}
					args = append(args, a)
					if !p.accept(",") {
						break
					}
				}
				if err := p.expect(")"); err != nil {
					return val{}, err
				}
			}
			return p.call(word, args)
		}
		qual, name := "", t.text
		if p.accept(".") {
			n := p.next()
			if n.kind != tIdent {
				return val{}, fmt.Errorf("want a column name after %s.", t.text)
			}
			qual, name = t.text, n.text
		}
		return p.column(qual, name)
	}
	return val{}, fmt.Errorf("unexpected %q", t.text)
}

// subquery reads the name of a declared subquery. Each use of a name
// (as a scalar, or in EXISTS) is the same expression node, as when the
// binder reuses an expression.
func (p *exprParser) subquery(exists bool) (*plan.Subquery, error) {
	t := p.next()
	sel, ok := p.b.subs[t.text]
	if t.kind != tIdent || !ok {
		return nil, fmt.Errorf("no subquery %q declared after the tree", t.text)
	}
	key := subKey{t.text, exists}
	if sq, ok := p.b.subExprs[key]; ok {
		return sq, nil
	}
	sq := &plan.Subquery{Plan: sel, Exists: exists, T: expr.Bool}
	if !exists {
		if len(sel.Output) != 1 {
			return nil, fmt.Errorf("a scalar subquery returns %d columns", len(sel.Output))
		}
		sq.T = sel.Output[0].Type()
	}
	p.b.subExprs[key] = sq
	return sq, nil
}

type subKey struct {
	name   string
	exists bool
}

// column resolves a column reference among the node's input columns.
func (p *exprParser) column(qual, name string) (val, error) {
	var found []plan.ColID
	for _, id := range p.scope {
		n := p.b.names[id]
		if n.name == name && (qual == "" || n.qual == qual) {
			found = append(found, id)
		}
	}
	ref := name
	if qual != "" {
		ref = qual + "." + name
	}
	switch len(found) {
	case 0:
		return val{}, fmt.Errorf("no column %s in the input", ref)
	case 1:
	default:
		return val{}, fmt.Errorf("column %s is ambiguous", ref)
	}
	m := p.b.cols.Meta(found[0])
	return val{e: &expr.Col{Idx: int(found[0]), Name: m.Name, T: m.ArrowType}}, nil
}

// call builds fn(args) as the binder does: the function catalogue says
// which type each argument must have and what the call returns.
func (p *exprParser) call(fn string, args []val) (val, error) {
	types := make([]arrow.DataType, len(args))
	for i, a := range args {
		types[i] = a.arrowType()
	}
	r, err := expr.Resolve(fn, types)
	if err != nil {
		retry := append([]arrow.DataType(nil), types...)
		changed := false
		for i, a := range args {
			if a.lit != nil || a.null {
				retry[i], changed = expr.Text, true
			}
		}
		if !changed {
			return val{}, err
		}
		if r, err = expr.Resolve(fn, retry); err != nil {
			return val{}, err
		}
	}
	ex := make([]expr.Expr, len(args))
	for i, a := range args {
		t := r.Args[i]
		if t.ID() == arrow.NULL {
			t = expr.Text
		}
		ex[i] = coerce(a, t)
	}
	return val{e: &expr.Call{Fn: fn, Args: ex, T: r.Result}}, nil
}

// caseExpr parses the rest of CASE WHEN COND THEN EXPR ... [ELSE EXPR] END,
// its results of the first typed one's type.
func (p *exprParser) caseExpr() (val, error) {
	var conds, thens []val
	for p.acceptWord("when") {
		c, err := p.expr(0)
		if err != nil {
			return val{}, err
		}
		if !p.acceptWord("then") {
			return val{}, fmt.Errorf("want THEN")
		}
		t, err := p.expr(0)
		if err != nil {
			return val{}, err
		}
		conds, thens = append(conds, c), append(thens, t)
	}
	if len(conds) == 0 {
		return val{}, fmt.Errorf("want WHEN after CASE")
	}
	var els *val
	if p.acceptWord("else") {
		e, err := p.expr(0)
		if err != nil {
			return val{}, err
		}
		els = &e
	}
	if !p.acceptWord("end") {
		return val{}, fmt.Errorf("want END")
	}
	var t arrow.DataType = expr.Text
	for _, v := range append(thens, func() []val {
		if els != nil {
			return []val{*els}
		}
		return nil
	}()...) {
		if v.lit == nil && !v.null {
			t = v.e.Type()
			break
		}
	}
	c := &expr.Case{T: t}
	for i := range conds {
		c.Whens = append(c.Whens, expr.When{Cond: coerce(conds[i], expr.Bool), Then: coerce(thens[i], t)})
	}
	if els != nil {
		c.Else = coerce(*els, t)
	}
	return val{e: c}, nil
}
