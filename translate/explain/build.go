package explain

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// Stat is what the operator of one plan node did (EXPLAIN ANALYZE).
type Stat struct {
	Rows  int64
	Loops int64
	// First is the time to the first rows, Total the time in the
	// operator and below it, over all loops.
	First, Total time.Duration
	// Disk is the bytes the operator wrote to temporary files.
	Disk int64
}

// ScanFacts are what a table scan's planning and reading skipped: the
// manifests and data files Iceberg's metadata let it skip, the Parquet
// row groups their statistics did.
type ScanFacts struct {
	Manifests, ManifestsSkipped int
	Files, FilesSkipped         int
	RowGroups, RowGroupsSkipped int64
}

// Input is what Build renders.
type Input struct {
	Plan  *plan.Select // optimized
	Opts  Options
	Stats map[plan.Rel]Stat // ANALYZE: per node of Plan
	Scans map[*plan.Scan]ScanFacts
	// Parallel are the aggregations that run in parts (their number),
	// each part over its share of a table scan's files.
	Parallel map[*plan.Agg]int
	// ParallelJoins are the joins that run in parts of their own (their
	// number), gathered, each part over a share of the probe side's scan.
	ParallelJoins map[*plan.Join]int
	// PipelineScan finds the scan the parts of a parallel aggregation or
	// join over r split (lower.PipelineScan).
	PipelineScan func(r plan.Rel) *plan.Scan
	// Loc is the session's TimeZone: timestamptz constants print in it.
	Loc *time.Location
}

// ExplainTarget is implemented by the leaves that read a relation (the
// system catalogs): EXPLAIN shows them as a Seq Scan on it.
type ExplainTarget interface {
	ExplainTarget() (relation, schema string)
}

// nodeShape is what building a node's parent needs to know of it.
type nodeShape struct {
	quals    bool         // the node can take a Filter
	filtered bool         // it has one
	filterAt int          // where in Props a Filter goes
	atEnd    bool         // "Rows Removed by Filter" goes last (Aggregate)
	statRel  plan.Rel     // whose Stat is the node's
	sumKids  bool         // ANALYZE: its rows are its inputs' (an Append icegate has no operator for)
	partial  plan.ColSet  // aggregates it carries as partial states (PARTIAL count(*))
	out      []plan.ColID // the columns it produces
	own      plan.ColSet  // those it computes
}

// Build turns an optimized plan into PostgreSQL's shape: node types
// PostgreSQL has, a Hash under each hash join's build side, filters and
// projections folded into the nodes they apply to, estimates and costs.
func Build(in Input) *Node {
	b := &builder{in: in, q: in.Plan.ColTable, names: map[plan.ColID]colName{}, subs: map[*plan.Subquery]string{}, aliases: map[string]int{}, nodes: map[plan.Rel]*Node{}}
	b.prepare(in.Plan)
	var ctes []*Node
	for _, c := range sharedCTEs(in.Plan.Root) {
		n := b.rel(c.Body)
		n.Relationship, n.SubplanName = "InitPlan", "CTE "+c.Name
		ctes = append(ctes, n)
	}
	root := b.rel(in.Plan.Root)
	root.shape.out = in.Plan.Out
	root.Kids = append(ctes, root.Kids...)
	if in.Opts.Verbose {
		b.outputs(root)
	}
	if in.Opts.Analyze {
		b.actuals(root)
	}
	return root
}

type builder struct {
	in Input
	q  *plan.ColTable
	// rels is how many relations the statement reads; prefix says
	// whether the expression being printed qualifies column names.
	rels   int
	prefix bool
	// ownNow are the columns the node being printed computes: they print
	// as their expressions, not in parentheses as a reference from above.
	ownNow plan.ColSet
	// scanAlias is the relation of the scan whose condition is being
	// printed: a column of another one (a dependent join's outer row)
	// is qualified.
	scanAlias string
	// need holds, per node, the columns the nodes above it read.
	need map[plan.Rel]plan.ColSet
	// names holds how each column reads in an expression: alias.name
	// for a relation's, (expression) for one a node computes.
	names   map[plan.ColID]colName
	subs    map[*plan.Subquery]string // InitPlans numbered so far: their parameter
	aliases map[string]int            // how often each alias was given
	nodes   map[plan.Rel]*Node        // the node each plan node became
	pending []*Node                   // InitPlans of the node being built
}

// prepare works out the columns each node must produce for those above
// it (a node's Output shows them) and decides whether names are
// qualified, as PostgreSQL does when a statement reads more than one
// relation or with VERBOSE.
func (b *builder) prepare(p *plan.Select) {
	b.need = map[plan.Rel]plan.ColSet{}
	rels := 0
	var down func(r plan.Rel, need plan.ColSet)
	down = func(r plan.Rel, need plan.ColSet) {
		if have, ok := b.need[r]; ok {
			for id := range need {
				have.Add(id)
			}
		} else {
			b.need[r] = need
		}
		switch r.(type) {
		case *plan.Scan, plan.Leaf, *plan.TableFunc, *plan.WorkTable, *plan.Recursive:
			rels++
		case *plan.Values:
			rels += 2 // VALUES in FROM is a subquery over it
		}
		below := plan.ColSet{}
		for id := range need {
			below.Add(id)
		}
		for _, e := range plan.Exprs(r) {
			plan.WalkExpr(e, func(e expr.Expr) {
				switch e := e.(type) {
				case *expr.Col:
					below.Add(plan.ColID(e.Idx))
				case *plan.Subquery:
					down(e.Plan.Root, plan.SetOf(e.Plan.Out))
				}
			})
		}
		switch x := r.(type) {
		case *plan.SetOp:
			for i, in := range x.Ins {
				down(in, plan.SetOf(x.InCols[i]))
			}
			return
		case *plan.Recursive:
			down(x.Anchor, plan.SetOf(x.AnchorCols))
			down(x.Recursive, plan.SetOf(x.RecursCols))
			return
		}
		for _, c := range plan.Children(r) {
			cn := plan.ColSet{}
			for _, id := range c.OutCols() {
				if below.Has(id) {
					cn.Add(id)
				}
			}
			down(c, cn)
		}
	}
	down(p.Root, plan.SetOf(p.Out))
	for _, c := range sharedCTEs(p.Root) {
		down(c.Body, plan.SetOf(c.Out))
	}
	b.rels = rels
}

// unique makes an alias unique in the statement as PostgreSQL does: the
// second t is t_1.
func (b *builder) unique(alias string) string {
	k := b.aliases[alias]
	b.aliases[alias] = k + 1
	if k == 0 {
		return alias
	}
	return fmt.Sprintf("%s_%d", alias, k)
}

// colName is how a column reads: a relation's as [alias.]name, a computed
// one as its expression (in parentheses unless it renames a column).
type colName struct {
	alias, name string
	def         func() string
	rename      bool
}

// name registers a column of a relation.
func (b *builder) name(id plan.ColID, alias string) {
	b.names[id] = colName{alias: alias, name: b.q.Meta(id).Name}
}

// define registers a column a node computes, from e (nil: not an
// expression of the plan) printed by def.
func (b *builder) define(id plan.ColID, e expr.Expr, def func() string) {
	c, ok := e.(*expr.Col)
	b.names[id] = colName{def: def, rename: ok && plan.ColID(c.Idx) != id}
}

func (b *builder) colRef(id plan.ColID) string {
	n, ok := b.names[id]
	switch {
	case !ok:
		return quoteIdent(b.q.Meta(id).Name)
	case n.def != nil && (n.rename || b.ownNow.Has(id)):
		return n.def()
	case n.def != nil:
		return "(" + n.def() + ")"
	case n.alias != "" && (b.prefix || b.scanAlias != "" && n.alias != b.scanAlias):
		return quoteIdent(n.alias) + "." + quoteIdent(n.name)
	}
	return quoteIdent(n.name)
}

// Where PostgreSQL qualifies column names: in a scan's own conditions
// with VERBOSE, in Output when the statement reads more than one
// relation, elsewhere (join conditions, sort and group keys, an upper
// node's Filter) in either case.
func (b *builder) scanExpr(e expr.Expr) string {
	return b.with(b.in.Opts.Verbose, func() string { return b.expr(e) })
}

func (b *builder) upperExpr(e expr.Expr) string {
	return b.with(b.rels > 1 || b.in.Opts.Verbose, func() string { return b.expr(e) })
}

func (b *builder) with(prefix bool, f func() string) string {
	saved := b.prefix
	b.prefix = prefix
	defer func() { b.prefix = saved }()
	return f()
}

// outputOf is a node's Output: its columns, those it computes (own) as
// their expressions, the others as they read above.
func (b *builder) outputOf(ids []plan.ColID, own plan.ColSet) []string {
	saved := b.ownNow
	b.ownNow = own
	defer func() { b.ownNow = saved }()
	return b.withList(b.rels > 1, func() []string {
		out := make([]string, 0, len(ids))
		for _, id := range ids {
			if n := b.names[id]; n.def != nil && own.Has(id) {
				out = append(out, n.def())
				continue
			}
			out = append(out, b.colRef(id))
		}
		return out
	})
}

func (b *builder) withList(prefix bool, f func() []string) []string {
	saved := b.prefix
	b.prefix = prefix
	defer func() { b.prefix = saved }()
	return f()
}

// neededOf keeps the columns of r that the nodes above it read.
func (b *builder) neededOf(r plan.Rel, ids []plan.ColID) []plan.ColID {
	var out []plan.ColID
	need := b.need[r]
	for _, id := range ids {
		if need.Has(id) {
			out = append(out, id)
		}
	}
	return out
}

// initPlan numbers an uncorrelated subquery, builds its plan as an
// InitPlan of the node being built, and returns the parameter it sets.
func (b *builder) initPlan(sq *plan.Subquery) string {
	if p, ok := b.subs[sq]; ok {
		return p
	}
	k := len(b.subs) + 1
	param := fmt.Sprintf("$%d", k-1)
	b.subs[sq] = param
	saved, savedQ := b.pending, b.q
	b.pending = nil
	if sq.Plan.ColTable != nil {
		b.q = sq.Plan.ColTable
	}
	root := sq.Plan.Root
	if sq.Exists {
		root = &plan.Limit{In: root, Limit: 1}
	}
	n := b.rel(root)
	n.shape.out = sq.Plan.Out
	b.q = savedQ
	n.Relationship = "InitPlan"
	n.SubplanName = fmt.Sprintf("InitPlan %d (returns %s)", k, param)
	b.pending = append(saved, n)
	return param
}

// takeInitPlans adds the InitPlans met in n's expressions before its
// other inputs.
func (b *builder) takeInitPlans(n *Node) {
	if len(b.pending) > 0 {
		n.Kids = append(b.pending, n.Kids...)
		b.pending = nil
	}
}

// rel builds the node of r.
func (b *builder) rel(r plan.Rel) *Node {
	saved := b.pending
	b.pending = nil
	n := b.build(r)
	// Subqueries in r's expressions are InitPlans of r's node, however
	// (and whether) the expressions print.
	for _, e := range plan.Exprs(r) {
		plan.WalkExpr(e, func(e expr.Expr) {
			if sq, ok := e.(*plan.Subquery); ok {
				b.initPlan(sq)
			}
		})
	}
	b.takeInitPlans(n)
	b.pending = saved
	b.nodes[r] = n
	return n
}

// outputs sets each node's Output (VERBOSE).
func (b *builder) outputs(n *Node) {
	switch n.Type {
	case "Append", "Recursive Union":
		// As PostgreSQL: their columns are their inputs'.
	default:
		n.Output = b.outputOf(n.shape.out, n.shape.own)
	}
	// Partial states print as PARTIAL count(*), and above the node that
	// computes them as (PARTIAL count(*)).
	for i, id := range n.shape.out {
		if !n.shape.partial.Has(id) {
			continue
		}
		if n.shape.own.Has(id) {
			n.Output[i] = "PARTIAL " + n.Output[i]
		} else if strings.HasPrefix(n.Output[i], "(") {
			n.Output[i] = "(PARTIAL " + n.Output[i][1:]
		}
	}
	for _, k := range n.Kids {
		b.outputs(k)
	}
}

// actuals sets what each node did from the statistics of its plan node.
func (b *builder) actuals(n *Node) {
	n.Actual = &Actual{}
	if st, ok := b.in.Stats[n.shape.statRel]; ok && st.Loops > 0 {
		loops := float64(st.Loops)
		n.Actual = &Actual{
			Startup: float64(st.First.Microseconds()) / 1000 / loops,
			Total:   float64(st.Total.Microseconds()) / 1000 / loops,
			Rows:    math.Round(float64(st.Rows) / loops),
			Loops:   st.Loops,
		}
	}
	for _, k := range n.Kids {
		b.actuals(k)
	}
	if n.shape.sumKids {
		a := &Actual{}
		for i, k := range n.Kids {
			if k.Actual.Loops == 0 {
				continue
			}
			a.Rows += k.Actual.Rows * float64(k.Actual.Loops)
			a.Total = math.Max(a.Total, k.Actual.Total)
			if i == 0 || a.Loops == 0 {
				a.Startup = k.Actual.Startup
			}
			a.Loops = 1
		}
		n.Actual = a
	}
}

// sharedCTEs lists the shared WITH queries root reads, directly, in its
// subqueries or through other WITH queries, each once, in the order
// icegate's own tree shows them.
func sharedCTEs(root plan.Rel) []*plan.CTE {
	var out []*plan.CTE
	seen := map[*plan.CTE]bool{}
	var walk func(r plan.Rel)
	walk = func(r plan.Rel) {
		plan.Visit(r, func(n plan.Rel) {
			for _, e := range plan.Exprs(n) {
				plan.WalkExpr(e, func(e expr.Expr) {
					if sq, ok := e.(*plan.Subquery); ok {
						walk(sq.Plan.Root)
					}
				})
			}
			s, ok := n.(*plan.CTEScan)
			if !ok || seen[s.CTE] {
				return
			}
			seen[s.CTE] = true
			out = append(out, s.CTE)
			walk(s.CTE.Body)
		})
	}
	walk(root)
	return out
}

// Modify is a data-changing statement's plan: PostgreSQL's ModifyTable
// node ("Delete on t") above the plan of the rows it changes or adds. operation
// is "Insert", "Update", "Delete" or "Merge"; schema shows with VERBOSE.
func Modify(operation, relation, schema, alias string, source *Node, opts Options) *Node {
	if alias == "" {
		alias = relation
	}
	t := &Target{Kind: "Relation Name", Object: relation, Alias: alias}
	if opts.Verbose {
		t.Schema = schema
	}
	source.Relationship = "Outer"
	return &Node{Type: "ModifyTable", Operation: operation, Target: t, Kids: []*Node{source},
		Startup: source.Startup, Total: source.Total}
}

// InsertValues is the source of INSERT ... VALUES: a Result for one row,
// a Values Scan for more, as PostgreSQL shows them (with VERBOSE, the
// Result's values, the Values Scan's columns).
func InsertValues(rows [][]expr.Expr, opts Options) *Node {
	if len(rows) == 1 {
		n := &Node{Type: "Result", Rows: 1, Total: 0.01}
		if opts.Verbose {
			b := &builder{names: map[plan.ColID]colName{}, subs: map[*plan.Subquery]string{}, aliases: map[string]int{}, nodes: map[plan.Rel]*Node{}}
			for _, e := range rows[0] {
				// Constants and calls print; nothing here names a column
				// or holds a subquery, but print no such thing without
				// its plan.
				plain := true
				plan.WalkExpr(e, func(x expr.Expr) {
					switch x.(type) {
					case *expr.Col, *plan.Subquery:
						plain = false
					}
				})
				if !plain {
					n.Output = append(n.Output, "?")
					continue
				}
				n.Output = append(n.Output, b.expr(e))
			}
		}
		return n
	}
	n := &Node{Type: "Values Scan", Target: &Target{Alias: "*VALUES*"}, Rows: float64(len(rows)), Total: float64(len(rows)) * cpuTuple}
	if opts.Verbose && len(rows) > 0 {
		for i := range rows[0] {
			n.Output = append(n.Output, fmt.Sprintf(`"*VALUES*".column%d`, i+1))
		}
	}
	return n
}
