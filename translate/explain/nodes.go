package explain

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// The PostgreSQL node of each kind of plan node, its estimates and costs.
func (b *builder) build(r plan.Rel) *Node {
	rows := math.Max(1, math.Round(plan.EstimateRows(r)))
	switch x := r.(type) {
	case *plan.Scan:
		return b.scan(x, rows)
	case *plan.CTEScan:
		alias := b.unique(x.CTE.Name)
		for _, id := range x.Cols {
			b.name(id, alias)
		}
		n := &Node{Type: "CTE Scan", Target: &Target{Kind: "CTE Name", Object: x.CTE.Name, Alias: alias}}
		b.leaf(n, x, x.Cols, rows)
		return n
	case plan.Leaf:
		return b.otherLeaf(x, rows)
	case *plan.OneRow:
		n := &Node{Type: "Result", Rows: 1, Total: 0.01, shape: nodeShape{quals: true, statRel: x}}
		return n
	case *plan.Values:
		alias := b.unique("*VALUES*")
		for _, id := range x.Cols {
			b.name(id, alias)
		}
		n := &Node{Type: "Values Scan", Target: &Target{Alias: alias}}
		b.leaf(n, x, x.Cols, rows)
		return n
	case *plan.WorkTable:
		alias := b.unique(x.WT.Name)
		for _, id := range x.Cols {
			b.name(id, alias)
		}
		n := &Node{Type: "WorkTable Scan", Target: &Target{Kind: "CTE Name", Object: x.WT.Name, Alias: alias}}
		b.leaf(n, x, x.Cols, rows)
		return n
	case *plan.Filter:
		return b.filter(x)
	case *plan.Project:
		return b.project(x)
	case *plan.Agg:
		return b.agg(x, rows)
	case *plan.Join:
		n := b.join(x, x.Typ, rows)
		if k := b.in.ParallelJoins[x]; k > 0 {
			return b.gatherJoin(x, n, k)
		}
		return n
	case *plan.Sort:
		in := b.rel(x.In)
		n := b.over("Sort", x, in, rows)
		n.Startup = in.Total + 2*cpuOperator*rows*math.Log2(math.Max(rows, 2))
		n.Total = n.Startup + cpuOperator*rows
		n.Props = append(n.Props, listP("Sort Key", b.withList(b.rels > 1 || b.in.Opts.Verbose, func() []string { return b.sortKeys(x.Keys) })))
		if st, ok := b.in.Stats[x]; ok && st.Disk > 0 {
			// A sort that spilled, as PostgreSQL shows an external merge.
			kb := strconv.FormatInt((st.Disk+1023)>>10, 10)
			n.Props = append(n.Props,
				Prop{Key: "Sort Method", Value: "external merge  Disk: " + kb + "kB", Where: textOnly},
				Prop{Key: "Sort Method", Value: "external merge", Where: structuredOnly},
				numP("Sort Space Used", kb, structuredOnly),
				Prop{Key: "Sort Space Type", Value: "Disk", Where: structuredOnly})
		}
		return n
	case *plan.Limit:
		in := b.rel(x.In)
		// A sort under a limit runs as one top-N operator, the limit's.
		if _, ok := x.In.(*plan.Sort); ok {
			if _, ran := b.in.Stats[x.In]; !ran {
				in.shape.statRel = x
			}
		}
		n := b.over("Limit", x, in, rows)
		n.Startup = in.Startup
		frac := 1.0
		if x.Limit >= 0 && in.Rows > 0 {
			frac = math.Min(1, float64(x.Limit+x.Offset)/in.Rows)
		}
		n.Total = in.Startup + (in.Total-in.Startup)*frac
		return n
	case *plan.Window:
		in := b.rel(x.In)
		if len(x.Partition)+len(x.Order) > 0 {
			// The window operator sorts its input by the partition and
			// the order, as PostgreSQL's Sort below its WindowAgg.
			keys := make([]plan.SortKey, 0, len(x.Partition)+len(x.Order))
			for _, p := range x.Partition {
				keys = append(keys, plan.SortKey{E: p})
			}
			keys = append(keys, x.Order...)
			sort := b.over("Sort", x.In, in, in.Rows)
			sort.shape.statRel = in.shape.statRel
			sort.Startup = in.Total + 2*cpuOperator*in.Rows*math.Log2(math.Max(in.Rows, 2))
			sort.Total = sort.Startup + cpuOperator*in.Rows
			sort.Props = append(sort.Props, listP("Sort Key", b.withList(b.rels > 1 || b.in.Opts.Verbose, func() []string { return b.sortKeys(keys) })))
			sort.shape.out, sort.shape.own = in.shape.out, nil
			in = sort
		}
		n := b.over("WindowAgg", x, in, rows)
		n.shape.own = plan.SetOf(x.Cols)
		b.diskUsage(n, x) // a window that spilled its rows to partitions
		for i, c := range x.Calls {
			b.define(x.Cols[i], nil, func() string { return b.windowCall(x, c) })
		}
		n.Total = n.Startup + rows*cpuOperator*float64(len(x.Calls)+1)
		n.Width = in.Width + 8*len(x.Calls)
		return n
	case *plan.SetOp:
		return b.setOp(x, rows)
	case *plan.TableFunc:
		return b.tableFunc(x, rows)
	case *plan.Recursive:
		// The reference first: the work table's alias is the second.
		alias := b.unique(x.WT.Name)
		for _, id := range x.Cols {
			b.name(id, alias)
		}
		anchor, rec := b.rel(x.Anchor), b.rel(x.Recursive)
		anchor.Relationship, rec.Relationship = "Outer", "Inner"
		u := &Node{Type: "Recursive Union", Kids: []*Node{anchor, rec}, Rows: rows, Relationship: "InitPlan",
			SubplanName: "CTE " + x.WT.Name, shape: nodeShape{statRel: x, out: x.Cols}}
		u.Startup, u.Total = anchor.Startup, anchor.Total+10*rec.Total
		u.Width = b.width(x.Cols)
		// As PostgreSQL: the recursive query is a WITH query its
		// reference scans.
		n := &Node{Type: "CTE Scan", Target: &Target{Kind: "CTE Name", Object: x.WT.Name, Alias: alias}}
		b.leaf(n, x, x.Cols, rows)
		n.Startup, n.Total = u.Startup, u.Total+rows*cpuTuple
		n.Kids = []*Node{u}
		return n
	}
	// A node kind this file does not know: say what it is.
	n := &Node{Type: "Custom Scan", Provider: fmt.Sprintf("%T", r), Rows: rows, shape: nodeShape{statRel: r}}
	for _, c := range plan.Children(r) {
		k := b.rel(c)
		k.Relationship = "Outer"
		n.Kids = append(n.Kids, k)
	}
	return n
}

// Cost units, PostgreSQL's defaults: reading a page in sequence, handling
// a row, evaluating an operator.
const (
	seqPage     = 1.0
	cpuTuple    = 0.01
	cpuOperator = 0.0025
)

// leaf fills a scan-like node that reads cols.
func (b *builder) leaf(n *Node, r plan.Rel, cols []plan.ColID, rows float64) {
	n.Rows = rows
	n.Total = rows * cpuTuple
	out := b.neededOf(r, cols)
	n.Width = b.width(out)
	n.shape = nodeShape{quals: true, filterAt: len(n.Props), statRel: r, out: out}
}

// over makes a node with one input, which produces its input's columns.
func (b *builder) over(typ string, r plan.Rel, in *Node, rows float64) *Node {
	in.Relationship = "Outer"
	n := &Node{Type: typ, Kids: []*Node{in}, Rows: rows, Width: in.Width, Startup: in.Startup, Total: in.Total,
		shape: nodeShape{statRel: r, out: b.neededOf(r, r.OutCols())}}
	return n
}

func (b *builder) scan(x *plan.Scan, rows float64) *Node {
	alias := x.Alias
	if alias == "" {
		alias = x.Table.Ident.Name
	}
	alias = b.unique(alias)
	for _, id := range x.Cols {
		b.name(id, alias)
	}
	t := &Target{Kind: "Relation Name", Object: x.Table.Ident.Name, Alias: alias}
	if b.in.Opts.Verbose {
		t.Schema = strings.Join(x.Table.Ident.Namespace, ".")
	}
	n := &Node{Type: "Seq Scan", Target: t}
	b.leaf(n, x, x.Cols, rows)
	// Pages: the table's bytes in 8 kB, from the snapshot's summary.
	if x.Snapshot != nil {
		if size, ok := plan.SummaryInt(x.Snapshot.Summary, "total-files-size"); ok {
			n.Total += seqPage * math.Ceil(float64(size)/8192)
		}
		if b.in.Opts.Verbose {
			n.extra = append(n.extra, numP("Iceberg Snapshot", fmt.Sprint(x.Snapshot.SnapshotID), everywhere))
		}
	}
	if f, ok := b.in.Scans[x]; ok {
		n.extra = append(n.extra,
			Prop{Key: "Iceberg", Value: fmt.Sprintf("manifests %d skipped %d, files %d skipped %d, row groups %d skipped %d",
				f.Manifests, f.ManifestsSkipped, f.Files, f.FilesSkipped, f.RowGroups, f.RowGroupsSkipped), Where: textOnly},
			numP("Iceberg Manifests", fmt.Sprint(f.Manifests), structuredOnly),
			numP("Iceberg Manifests Skipped", fmt.Sprint(f.ManifestsSkipped), structuredOnly),
			numP("Iceberg Files", fmt.Sprint(f.Files), structuredOnly),
			numP("Iceberg Files Skipped", fmt.Sprint(f.FilesSkipped), structuredOnly),
			numP("Iceberg Row Groups", fmt.Sprint(f.RowGroups), structuredOnly),
			numP("Iceberg Row Groups Skipped", fmt.Sprint(f.RowGroupsSkipped), structuredOnly))
	}
	return n
}

// otherLeaf is a leaf defined outside package plan: a system catalog
// reads as a Seq Scan on it, the others (metadata tables, change logs)
// as a Custom Scan that says what it reads.
func (b *builder) otherLeaf(x plan.Leaf, rows float64) *Node {
	if t, ok := x.(ExplainTarget); ok {
		name, schema := t.ExplainTarget()
		for _, id := range x.OutCols() {
			b.name(id, name)
		}
		tg := &Target{Kind: "Relation Name", Object: name, Alias: name}
		if b.in.Opts.Verbose {
			tg.Schema = schema
		}
		n := &Node{Type: "Seq Scan", Target: tg}
		b.leaf(n, x, x.OutCols(), rows)
		return n
	}
	for _, id := range x.OutCols() {
		b.name(id, "")
	}
	n := &Node{Type: "Custom Scan", Provider: "icegate"}
	b.leaf(n, x, x.OutCols(), rows)
	// What it reads, without icegate's column ids.
	src := x.Describe(b.q)
	if i := strings.LastIndex(src, " ["); i > 0 && strings.HasSuffix(src, "]") {
		src = src[:i]
	}
	n.extra = append(n.extra, textP("Source", src))
	return n
}

// filter puts a condition on the node it applies to, as PostgreSQL's
// quals: a scan's, a join's or an aggregate's (HAVING) Filter. Above a
// node that has no quals it is a Result with a Filter.
func (b *builder) filter(x *plan.Filter) *Node {
	// As lowering does, a filter on a mark join's mark makes it a semi
	// or anti join.
	if j, ok := x.In.(*plan.Join); ok && j.Typ == plan.JoinMark {
		if typ, rest, ok := plan.MarkFilter(j, plan.Conjuncts(x.Pred)); ok {
			nj := *j
			nj.Typ = typ
			n := b.join(&nj, typ, math.Max(1, math.Round(plan.EstimateRows(&nj))))
			n.shape.statRel = x
			if len(n.Kids) == 2 && n.Kids[1].Type == "Hash" {
				b.diskUsage(n.Kids[1], x) // the join's statistics are the filter's
			}
			if len(rest) > 0 {
				b.attach(n, x, plan.AndOf(rest), nil)
			}
			return n
		}
	}
	in := b.rel(x.In)
	if in.shape.quals && !in.shape.filtered {
		b.attach(in, x, x.Pred, in.shape.statRel)
		return in
	}
	// Above a node without conditions (a sort, a limit, a window) the
	// filter comes from a subquery in FROM: PostgreSQL's Subquery Scan.
	in.Relationship = "Subquery"
	n := &Node{Type: "Subquery Scan", Target: &Target{Alias: b.unique("unnamed_subquery")}, Kids: []*Node{in}, Width: in.Width,
		Startup: in.Startup, Rows: in.Rows, Total: in.Total, shape: nodeShape{quals: true, statRel: in.shape.statRel, out: in.shape.out}}
	b.attach(n, x, x.Pred, in.shape.statRel)
	return n
}

// attach gives n the Filter pred of f; before is the node whose rows
// the filter sees (for ANALYZE's Rows Removed by Filter).
func (b *builder) attach(n *Node, f *plan.Filter, pred expr.Expr, before plan.Rel) {
	saved := b.ownNow
	b.ownNow = n.shape.own
	cond := b.upperExpr(pred)
	if n.Target != nil {
		b.scanAlias = n.Target.Alias
		cond = b.scanExpr(pred)
		b.scanAlias = ""
	}
	b.ownNow = saved
	props := []Prop{textP("Filter", cond)}
	removed := []Prop(nil)
	if st, ok := b.in.Stats[f]; ok && before != nil {
		if in, ok := b.in.Stats[before]; ok {
			k := in.Rows - st.Rows
			if in.Loops > 0 {
				k /= in.Loops
			}
			w := everywhere
			if k == 0 {
				w = structuredOnly
			}
			removed = []Prop{numP("Rows Removed by Filter", fmt.Sprint(k), w)}
		}
	}
	at := n.shape.filterAt
	if at > len(n.Props) {
		at = len(n.Props)
	}
	if !n.shape.atEnd {
		props = append(props, removed...)
	}
	n.Props = append(n.Props[:at], append(props, n.Props[at:]...)...)
	if n.shape.atEnd {
		n.Props = append(n.Props, removed...)
	}
	n.shape.filtered = true
	n.shape.statRel = f
	in := n.Rows
	n.Rows = math.Max(1, math.Round(plan.EstimateRows(f)))
	n.Total += in * cpuOperator * float64(len(plan.Conjuncts(pred)))
}

func (b *builder) project(x *plan.Project) *Node {
	in := b.rel(x.In)
	computed := 0
	own := plan.ColSet{}
	for i, id := range x.Cols {
		e := x.Exprs[i]
		if c, ok := e.(*expr.Col); ok && plan.ColID(c.Idx) == id {
			continue
		}
		computed++
		own.Add(id)
		b.define(id, e, func() string { return b.expr(e) })
	}
	in.Total += in.Rows * cpuOperator * float64(computed)
	in.Width = b.width(x.Cols)
	if st, ok := b.in.Stats[x]; ok && st.Loops > 0 {
		in.shape.statRel = x
	}
	for id := range in.shape.own {
		own.Add(id) // computed by the node the projection folds into
	}
	in.shape.out, in.shape.own = b.neededOf(x, x.Cols), own
	return in
}

func (b *builder) agg(x *plan.Agg, rows float64) *Node {
	in := b.rel(x.In)
	in.Relationship = "Outer"
	n := &Node{Type: "Aggregate", PartialMode: "Simple", Kids: []*Node{in}, Rows: rows}
	keys := make([]string, len(x.Groups))
	own := plan.ColSet{}
	for i, g := range x.Groups {
		keys[i] = b.upperExpr(g)
		if c, ok := g.(*expr.Col); !ok || plan.ColID(c.Idx) != x.GroupCols[i] {
			b.define(x.GroupCols[i], g, func() string { return b.expr(g) })
			own.Add(x.GroupCols[i])
		}
	}
	for i, a := range x.Aggs {
		b.define(x.AggCols[i], nil, func() string { return b.aggCall(a) })
		own.Add(x.AggCols[i])
	}
	work := in.Rows * cpuOperator * float64(len(x.Groups)+len(x.Aggs))
	if len(x.Groups) == 0 {
		n.Strategy = "Plain"
		n.Startup = in.Total + work
		n.Total = n.Startup + cpuTuple
	} else {
		n.Strategy = "Hashed"
		n.Startup = in.Total + work
		n.Total = n.Startup + rows*cpuTuple
		n.Props = append(n.Props, listP("Group Key", keys))
	}
	n.shape = nodeShape{quals: true, filterAt: len(n.Props), atEnd: true, statRel: x, out: b.neededOf(x, x.OutCols()), own: own}
	if len(x.Groups) > 0 && b.in.Opts.Costs {
		n.Props = append(n.Props, numP("Planned Partitions", "0", structuredOnly))
	}
	if st, ok := b.in.Stats[x]; ok && st.Disk > 0 {
		// A hash aggregation that spilled its groups to partitions.
		kb := strconv.FormatInt((st.Disk+1023)>>10, 10)
		n.Props = append(n.Props, Prop{Key: "Disk Usage", Value: kb + "kB", Where: textOnly},
			numP("Disk Usage", kb, structuredOnly))
	}
	n.Width = b.width(n.shape.out)
	if k := b.in.Parallel[x]; k > 0 {
		b.parallel(x, n, k, work)
	}
	return n
}

// parallel makes aggregation n run in k parts, as the engine runs it: a
// Partial aggregation per part over its share of the scan (a Parallel Seq
// Scan), gathered, and a Finalize aggregation merging their states.
func (b *builder) parallel(x *plan.Agg, n *Node, k int, work float64) {
	in := n.Kids[0]
	b.parallelScan(x.In)
	parts := float64(k)
	aggs := plan.SetOf(x.AggCols)
	partial := &Node{Type: "Aggregate", Strategy: n.Strategy, PartialMode: "Partial", Relationship: "Outer", Kids: []*Node{in},
		Rows: n.Rows, Width: n.Width, Startup: (in.Total + work) / parts,
		shape: nodeShape{statRel: nil, out: n.shape.out, own: n.shape.own, partial: aggs}}
	partial.Total = partial.Startup + n.Rows*cpuTuple
	for _, p := range n.Props {
		if p.Key == "Group Key" || p.Key == "Planned Partitions" {
			partial.Props = append(partial.Props, p)
		}
	}
	gather := &Node{Type: "Gather", Relationship: "Outer", Kids: []*Node{partial}, Rows: n.Rows * parts, Width: n.Width,
		Startup: partial.Startup, Props: []Prop{numP("Workers Planned", fmt.Sprint(k), everywhere), boolP("Single Copy", false, structuredOnly)},
		shape: nodeShape{out: n.shape.out, partial: aggs}}
	gather.Total = partial.Total + gather.Rows*cpuTuple
	n.PartialMode = "Finalize"
	n.Kids = []*Node{gather}
	n.Startup = gather.Total + gather.Rows*cpuOperator*float64(len(x.Aggs))
	n.Total = n.Startup + n.Rows*cpuTuple
}

// gatherJoin makes join n run in k parts, as the engine runs it: each
// part joins its share of the probe side's scan (a Parallel Seq Scan)
// with the build sides all parts share, under a Gather.
func (b *builder) gatherJoin(x *plan.Join, n *Node, k int) *Node {
	b.parallelScan(x)
	n.Relationship = "Outer"
	g := &Node{Type: "Gather", Kids: []*Node{n}, Rows: n.Rows, Width: n.Width,
		Startup: n.Startup / float64(k), Total: n.Total / float64(k), shape: n.shape,
		Props: []Prop{numP("Workers Planned", fmt.Sprint(k), everywhere), boolP("Single Copy", false, structuredOnly)}}
	g.Total += n.Rows * cpuTuple
	return g
}

// parallelScan marks the scan at the bottom of pipeline r, the one
// parallel parts share out (Input.PipelineScan finds it).
func (b *builder) parallelScan(r plan.Rel) {
	if b.in.PipelineScan == nil {
		return
	}
	if sc := b.in.PipelineScan(r); sc != nil {
		if n, ok := b.nodes[sc]; ok {
			n.Parallel = true
		}
	}
}

var joinTypeNames = map[plan.JoinType]string{
	plan.JoinInner: "Inner", plan.JoinLeft: "Left", plan.JoinRight: "Right", plan.JoinFull: "Full",
	plan.JoinSemi: "Semi", plan.JoinAnti: "Anti", plan.JoinMark: "Mark",
}

// join is a Hash Join (when the condition has equality keys: the engine
// builds a hash table of one input, shown as a Hash node, the Inner,
// and probes it with the other, the Outer) or a Nested Loop.
func (b *builder) join(x *plan.Join, typ plan.JoinType, rows float64) *Node {
	left, right := b.rel(x.Left), b.rel(x.Right)
	n := &Node{Rows: rows, shape: nodeShape{statRel: x}}
	var outer, inner *Node
	var hashCond, joinFilter expr.Expr
	jt := joinTypeNames[typ]
	if x.Apply {
		n.Type, outer, inner, joinFilter = "Nested Loop", left, right, x.Cond
		n.Startup = left.Startup + right.Startup
		n.Total = left.Total + left.Rows*right.Total
	} else {
		swap, buildLeft := plan.JoinBuildSide(x)
		l, r := x.Left, x.Right
		if swap {
			typ, _ = plan.SwapJoinType(typ)
			jt = joinTypeNames[typ]
			l, r = r, l
			left, right = right, left
		}
		lk, rk, nullSafe, residual := plan.SplitJoinCond(x, l, r)
		joinFilter = plan.AndOf(residual)
		if len(lk) == 0 {
			// The engine holds the inner input in memory.
			right.Relationship = "Outer"
			mat := &Node{Type: "Materialize", Kids: []*Node{right}, Rows: right.Rows, Width: right.Width, Startup: right.Startup,
				Total: right.Total + right.Rows*cpuOperator, shape: nodeShape{statRel: right.shape.statRel, out: right.shape.out}}
			n.Type, outer, inner = "Nested Loop", left, mat
			n.Startup = left.Startup + right.Startup
			n.Total = left.Total + right.Total + left.Rows*right.Rows*cpuOperator + rows*cpuTuple
		} else {
			n.Type = "Hash Join"
			probe, build, pk, bk := left, right, lk, rk
			if buildLeft {
				probe, build, pk, bk = right, left, rk, lk
				jt = "Right " + jt
			}
			conds := make([]expr.Expr, len(pk))
			for i := range pk {
				fn := "="
				if nullSafe[i] {
					fn = "is_not_distinct_from"
				}
				conds[i] = &expr.Call{Fn: fn, Args: []expr.Expr{pk[i], bk[i]}, T: expr.Bool}
			}
			hashCond = plan.AndOf(conds)
			build.Relationship = "Outer"
			hash := &Node{Type: "Hash", Kids: []*Node{build}, Rows: build.Rows, Width: build.Width,
				Startup: build.Total, Total: build.Total, shape: nodeShape{statRel: build.shape.statRel, out: build.shape.out}}
			b.diskUsage(hash, x) // a build side that spilled to partitions
			outer, inner = probe, hash
			n.Startup = hash.Total
			n.Total = probe.Total + hash.Total + probe.Rows*cpuOperator*float64(len(pk)) + rows*cpuTuple
		}
	}
	outer.Relationship, inner.Relationship = "Outer", "Inner"
	n.Kids = []*Node{outer, inner}
	n.JoinType = jt
	n.Props = append(n.Props, boolP("Inner Unique", false, structuredOnly))
	if hashCond != nil {
		n.Props = append(n.Props, textP("Hash Cond", b.upperExpr(hashCond)))
	}
	if joinFilter != nil {
		n.Props = append(n.Props, textP("Join Filter", b.upperExpr(joinFilter)))
	}
	n.shape.quals, n.shape.filterAt = true, len(n.Props)
	n.shape.out = b.neededOf(x, x.OutCols())
	n.Width = b.width(n.shape.out)
	return n
}

// setOp is UNION ALL's Append of its inputs (Members), or INTERSECT's and
// EXCEPT's HashSetOp over them.
func (b *builder) setOp(x *plan.SetOp, rows float64) *Node {
	for _, id := range x.Cols {
		b.name(id, "")
	}
	app := &Node{Type: "Append", Props: []Prop{numP("Subplans Removed", "0", structuredOnly)}, shape: nodeShape{statRel: x}}
	for i, in := range x.Ins {
		k := b.rel(in)
		if x.Op != "union" {
			// As PostgreSQL: each input of INTERSECT and EXCEPT is a
			// subquery.
			k.Relationship = "Subquery"
			k = &Node{Type: "Subquery Scan", Target: &Target{Alias: fmt.Sprintf("*SELECT* %d", i+1)}, Kids: []*Node{k},
				Rows: k.Rows, Width: k.Width, Startup: k.Startup, Total: k.Total, shape: nodeShape{statRel: k.shape.statRel, out: x.InCols[i]}}
		}
		k.Relationship = "Member"
		app.Kids = append(app.Kids, k)
		app.Rows += k.Rows
		app.Total += k.Total
		if i == 0 {
			app.Startup = k.Startup
		}
	}
	app.Width = b.width(x.Cols)
	app.shape.out = x.Cols
	if x.Op == "union" {
		return app
	}
	app.Relationship = "Outer"
	app.shape.statRel, app.shape.sumKids = nil, true
	cmd := strings.ToUpper(x.Op[:1]) + x.Op[1:]
	if x.All {
		cmd += " All"
	}
	n := &Node{Type: "SetOp", Strategy: "Hashed", Command: cmd, Kids: []*Node{app}, Rows: rows, Width: app.Width,
		Startup: app.Total + app.Rows*cpuOperator, shape: nodeShape{statRel: x}}
	n.Total = n.Startup + rows*cpuTuple
	n.shape.out = x.Cols
	return n
}

// tableFunc is a set-returning function: a Function Scan, below a Nested
// Loop that runs it for each row of its input (LATERAL) when it has one.
func (b *builder) tableFunc(x *plan.TableFunc, rows float64) *Node {
	// The input first: its relations are named before the function's.
	var in *Node
	if _, ok := x.In.(*plan.OneRow); !ok {
		in = b.rel(x.In)
	}
	alias := b.unique(x.Fn)
	for _, id := range x.Cols {
		b.name(id, alias)
	}
	var args []string
	for _, a := range x.Args {
		args = append(args, b.scanExpr(a))
	}
	fs := &Node{Type: "Function Scan", Target: &Target{Kind: "Function Name", Object: x.Fn, Alias: alias}}
	if b.in.Opts.Verbose {
		fs.Target.Schema = "pg_catalog"
	}
	b.leaf(fs, x, x.Cols, rows)
	if b.in.Opts.Verbose {
		fs.Props = append(fs.Props, textP("Function Call", x.Fn+"("+strings.Join(args, ", ")+")"))
		fs.shape.filterAt = len(fs.Props)
	}
	if in == nil {
		return fs
	}
	fs.shape.quals = false
	in.Relationship, fs.Relationship = "Outer", "Inner"
	jt := "Inner"
	if x.Outer {
		jt = "Left"
	}
	n := &Node{Type: "Nested Loop", JoinType: jt, Kids: []*Node{in, fs}, Rows: rows,
		Props: []Prop{boolP("Inner Unique", false, structuredOnly)}, shape: nodeShape{quals: true, filterAt: 1, statRel: x}}
	n.Startup = in.Startup
	n.Total = in.Total + in.Rows*fs.Total
	n.shape.out = b.neededOf(x, x.OutCols())
	n.Width = b.width(n.shape.out)
	return n
}

func (b *builder) windowCall(x *plan.Window, c plan.WindowCall) string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = b.expr(a)
	}
	s := c.Fn + "(" + strings.Join(args, ", ") + ")"
	if c.Filter != nil {
		s += " FILTER (WHERE " + b.expr(c.Filter) + ")"
	}
	var over []string
	if len(x.Partition) > 0 {
		parts := make([]string, len(x.Partition))
		for i, p := range x.Partition {
			parts[i] = b.expr(p)
		}
		over = append(over, "PARTITION BY "+strings.Join(parts, ", "))
	}
	if len(x.Order) > 0 {
		over = append(over, "ORDER BY "+strings.Join(b.sortKeys(x.Order), ", "))
	}
	return s + " OVER (" + strings.Join(over, " ") + ")"
}

// width is the estimated bytes of a row of cols: a fixed-size type's
// size, 32 for the others (PostgreSQL's guess without statistics).
func (b *builder) width(cols []plan.ColID) int {
	w := 0
	for _, id := range cols {
		t := b.q.Meta(id).ArrowType
		switch {
		case t == nil:
			w += 32
		case t.ID() == arrow.BOOL:
			w++
		default:
			if fw, ok := t.(arrow.FixedWidthDataType); ok && !expr.IsNumericType(t) && fw.BitWidth() >= 8 {
				w += fw.BitWidth() / 8
			} else {
				w += 32
			}
		}
	}
	return w
}

// diskUsage shows, under ANALYZE, what x's operator wrote to temporary
// files on n (as PostgreSQL shows a hash aggregation's Disk Usage).
func (b *builder) diskUsage(n *Node, x plan.Rel) {
	if st, ok := b.in.Stats[x]; ok && st.Disk > 0 {
		kb := strconv.FormatInt((st.Disk+1023)>>10, 10)
		n.Props = append(n.Props, Prop{Key: "Disk Usage", Value: kb + "kB", Where: textOnly},
			numP("Disk Usage", kb, structuredOnly))
	}
}
