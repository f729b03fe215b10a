package scan

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// exactCall binds fn over args as translate does (casts to the resolved
// argument types); nil when fn does not take them.
func exactCall(fn string, args ...expr.Expr) expr.Expr {
	ts := make([]arrow.DataType, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	r, err := expr.Resolve(fn, ts)
	if err != nil {
		return nil
	}
	out := make([]expr.Expr, len(args))
	for i, a := range args {
		out[i] = a
		if !arrow.TypeEqual(a.Type(), r.Args[i]) {
			out[i] = &expr.Cast{Arg: a, T: r.Args[i]}
		}
	}
	return &expr.Call{Fn: fn, Args: out, T: r.Result}
}

type exactCase struct {
	name string
	conj []expr.Expr
}

// exactCases are predicates over column j of batches recs (of schema s):
// NULL tests, comparisons with a value of the column (NULL rows are not
// kept), two conjuncts, none matching, and a division by zero on the rows
// holding the value v of del (one of the rows deletes remove), which
// must not fail when only deleted rows hold it.
func exactCases(s *arrow.Schema, recs []arrow.RecordBatch, j int, del *expr.Lit) []exactCase {
	f := s.Field(j)
	c := &expr.Col{Idx: j, Name: f.Name, T: f.Type}
	var v *expr.Lit
	for _, r := range recs {
		col := r.Column(j)
		for i := col.Len() / 2; i < col.Len() && v == nil; i++ {
			if col.IsValid(i) {
				v, _ = expr.ValueLit(col, i)
			}
		}
	}
	var out []exactCase
	add := func(name string, es ...expr.Expr) {
		for _, e := range es {
			if e == nil {
				return
			}
			if _, err := expr.Compile(e, s); err != nil {
				return // no such operator for the type
			}
		}
		out = append(out, exactCase{name: name, conj: es})
	}
	add("isnull", exactCall("isnull", c))
	add("isnotnull", exactCall("isnotnull", c))
	if v == nil {
		return out
	}
	k := (j + 1) % s.NumFields()
	other := &expr.Col{Idx: k, Name: s.Field(k).Name, T: s.Field(k).Type}
	add("eq", exactCall("=", c, v))
	add("lt", exactCall("<", c, v))
	add("ge and other not null", exactCall(">=", c, v), exactCall("isnotnull", other))
	add("none", exactCall("<>", c, c))
	one := &expr.Lit{V: int64(1), T: expr.Int8}
	for _, z := range []*expr.Lit{v, del} {
		if z == nil || !expr.IsNumericType(f.Type) || f.Type.ID() == arrow.FLOAT32 || f.Type.ID() == arrow.FLOAT64 {
			continue
		}
		div := exactCall(">", exactCall("/", one, exactCall("-", c, z)), &expr.Lit{V: int64(-5), T: expr.Int8})
		add(fmt.Sprintf("1/(c-%v)", z.V), div)
		add(fmt.Sprintf("c<>%v and 1/(c-%v)", z.V, z.V), exactCall("<>", c, z), div)
	}
	return out
}

// filterAbove is what a Filter over the scan gives for conj: the rows of
// recs it keeps, or its error.
func filterAbove(t *testing.T, s *arrow.Schema, recs []arrow.RecordBatch, conj []expr.Expr) ([]string, error) {
	rf, err := exec.NewRowFilter(s, exactPred(conj))
	if err != nil {
		t.Fatal(err)
	}
	var kept []arrow.RecordBatch
	defer func() { releaseRecs(kept) }()
	for _, r := range recs {
		k, err := rf.Apply(context.Background(), r)
		if err != nil {
			return nil, err
		}
		if k == nil {
			continue
		}
		if k == r {
			k.Retain()
		}
		kept = append(kept, k)
	}
	return renderRows(kept), nil
}

// deletedValue is a value of column j in a row the deletes of tasks
// remove (nil when none or no deletes).
func deletedValue(t *testing.T, spec engine.ScanSpec, j int, live []arrow.RecordBatch) *expr.Lit {
	raw := spec
	raw.Tasks = nil
	for _, task := range spec.Tasks {
		task.Deletes = nil
		raw.Tasks = append(raw.Tasks, task)
	}
	all, err := scanAll(t, raw, Options{})
	if err != nil {
		return nil
	}
	defer releaseRecs(all)
	seen := map[string]bool{}
	for _, r := range live {
		for i := range int(r.NumRows()) {
			seen[r.Column(j).ValueStr(i)] = true
		}
	}
	for _, r := range all {
		col := r.Column(j)
		for i := range col.Len() {
			if col.IsValid(i) && !seen[col.ValueStr(i)] {
				v, _ := expr.ValueLit(col, i)
				return v
			}
		}
	}
	return nil
}

// TestExactConjunctsMatchFilter checks on every fixture table (position
// and equality deletes, deletion vectors, evolution, Avro, ORC, nested
// columns) that a scan applying ScanSpec.Exact returns what a Filter
// above a plain scan keeps, or fails with its error, whatever the batch
// size, recycling, sharding or reading path.
func TestExactConjunctsMatchFilter(t *testing.T) {
	forEachFixture(t, func(t *testing.T, spec engine.ScanSpec) {
		tasks := spec.Tasks
		plain, err := scanAll(t, spec, Options{})
		if err != nil {
			t.Skipf("the scan fails (%v): covered by the fixture tests", err)
		}
		defer releaseRecs(plain)
		if countRows(plain) > 3000 {
			t.Skip("large: the scan tests cover its reading paths")
		}
		out := New(spec, Options{}).Schema()
		hasDeletes := slices.ContainsFunc(tasks, func(task catalog.FileScanTask) bool { return len(task.Deletes) > 0 })
		for j := range min(out.NumFields(), 6) {
			var del *expr.Lit
			if hasDeletes {
				del = deletedValue(t, spec, j, plain)
			}
			for _, c := range exactCases(out, plain, j, del) {
				want, wantErr := filterAbove(t, out, plain, c.conj)
				for _, o := range []struct {
					name string
					opts Options
				}{
					{"batches of 3", Options{BatchSize: 3, Parallelism: 2}},
					{"recycled", Options{RecycleBuffers: true}},
					{"builders", Options{builders: true}},
					{"every conjunct by code", Options{dictEveryCost: true}},
				} {
					what := fmt.Sprintf("%s %s (%s)", out.Field(j).Name, c.name, o.name)
					mem := newChecked(t)
					o.opts.Alloc = mem
					exact := spec
					exact.Exact = c.conj
					recs, err := scanAll(t, exact, o.opts)
					if wantErr != nil || err != nil {
						if pgerr.Code(err) != pgerr.Code(wantErr) {
							t.Fatalf("%s: error %v, the filter's %v", what, err, wantErr)
						}
						mem.AssertSize(t, 0)
						continue
					}
					got := renderRows(recs)
					releaseRecs(recs)
					mem.AssertSize(t, 0)
					if !slices.Equal(got, want) {
						t.Fatalf("%s: %d rows\n%q\nthe filter keeps %d\n%q", what, len(got), head(got, 5), len(want), head(want, 5))
					}
				}
			}
		}
	})
}
