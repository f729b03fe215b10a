package scan

import (
	"bytes"
	"context"
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgerr"
)

// prunableOps are the operators the pruning tests try on every column.
var prunableOps = []string{catalog.OpEq, catalog.OpNotEq, catalog.OpLt, catalog.OpLtEq, catalog.OpGt, catalog.OpGtEq,
	catalog.OpIn, catalog.OpIsNull, catalog.OpIsNotNull}

// TestFixturePruning plans every fixture table with predicates built from
// its own values (minimum, median, maximum of each primitive column, and
// conjunctions) and checks that pruning changes no answer: every data file
// holding a matching row is planned, and a scan with the predicates as
// filters (row groups skipped by statistics) returns every matching row.
func TestFixturePruning(t *testing.T) {
	facts := loadFacts(t)
	names := make([]string, 0, len(facts))
	for n := range facts {
		names = append(names, n)
	}
	sort.Strings(names)
	var totalFiles, skippedFiles, skippedManifests int
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if n := facts[name].ExpectedRowsCurrent; n != nil && *n > 20000 {
				t.Skip("large table: the pruning test reads every file per predicate")
			}
			tbl, tasks := loadTable(t, name)
			schema := tbl.Metadata.CurrentSchema()
			cols := testColumns(schema)
			if len(cols) == 0 || len(tasks) == 0 {
				t.Skip("no primitive columns or no files")
			}
			files, err := readFileValues(t, tbl, schema, tasks, cols)
			if err != nil {
				if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.FeatureNotSupported {
					t.Skipf("not readable yet: %v", err)
				}
				t.Fatal(err)
			}
			rows := 0
			for _, f := range files {
				rows += len(f.rows)
			}
			var cases [][]catalog.Predicate
			for c, col := range cols {
				for _, p := range samplePredicates(col.id, files, c, rows > 2000) {
					cases = append(cases, []catalog.Predicate{p})
				}
			}
			// Conjunctions across two columns.
			for i := 0; i+1 < len(cases) && i < 60; i += 7 {
				j := (i*5 + 3) % len(cases)
				cases = append(cases, []catalog.Predicate{cases[i][0], cases[j][0]})
			}
			ctx := context.Background()
			for ci, preds := range cases {
				kept, stats, err := catalog.PlanFilesFiltered(ctx, tbl, tbl.Metadata.CurrentSnapshot(), preds)
				if err != nil {
					t.Fatalf("%v: %v", preds, err)
				}
				totalFiles += stats.Files
				skippedFiles += stats.FilesSkipped
				skippedManifests += stats.ManifestsSkipped
				keptPaths := map[string]bool{}
				for _, k := range kept {
					keptPaths[k.File.Path] = true
				}
				want := 0
				for _, f := range files {
					m := f.matching(preds, cols)
					want += m
					if m > 0 && !keptPaths[f.path] {
						t.Errorf("%v: file %s holds %d matching rows but was pruned", preds, f.path, m)
					}
				}
				checkPartitionPruned(t, tasks, files, cols, preds, keptPaths)
				if rows > 2000 && ci%3 != 0 {
					continue // large tables: a third of the filtered scans
				}
				got, err := countMatching(t, tbl, schema, kept, cols, preds)
				if err != nil {
					t.Fatalf("%v: filtered scan: %v", preds, err)
				}
				if got != want {
					t.Errorf("%v: filtered scan found %d matching rows, want %d", preds, got, want)
				}
			}
		})
	}
	t.Logf("planned %d files, skipped %d; skipped %d manifests", totalFiles, skippedFiles, skippedManifests)
}

// checkPartitionPruned checks that partition pruning does its job: for an
// equality on the source of a partition field (identity, bucket, or a time
// transform), a file whose value of that field differs from those of every
// file holding a matching row (same spec) is skipped. Negative time
// partitions are left out: their projection keeps the partition above too.
func checkPartitionPruned(t *testing.T, tasks []catalog.FileScanTask, files []fileValues, cols []testColumn,
	preds []catalog.Predicate, kept map[string]bool) {
	t.Helper()
	if len(preds) != 1 || preds[0].Op != catalog.OpEq {
		return
	}
	p := preds[0]
	for _, spec := range distinctSpecs(tasks) {
		for pos, pf := range spec.Fields {
			if pf.SourceID != p.FieldID || pf.Transform.Name == "void" || pf.Transform.Name == "truncate" {
				continue
			}
			var matched []any
			for i, task := range tasks {
				if task.Spec == spec && len(task.File.Partition) == len(spec.Fields) && files[i].matching(preds, cols) > 0 {
					matched = append(matched, task.File.Partition[pos])
				}
			}
			if len(matched) == 0 {
				continue
			}
			for _, task := range tasks {
				if task.Spec != spec || len(task.File.Partition) != len(spec.Fields) {
					continue
				}
				v := task.File.Partition[pos]
				if n, ok := v.(int32); v == nil || (ok && n <= 0 && pf.Transform.Name != "identity" && pf.Transform.Name != "bucket") {
					continue
				}
				if !slices.ContainsFunc(matched, func(m any) bool { return catalog.ValuesEqual(m, v) }) && kept[task.File.Path] {
					t.Errorf("%v: file %s in partition %s=%v was not pruned (matching rows sit in %v)", preds, task.File.Path, pf.Name, v, matched)
				}
			}
		}
	}
}

func distinctSpecs(tasks []catalog.FileScanTask) []*catalog.PartitionSpec {
	var out []*catalog.PartitionSpec
	for _, task := range tasks {
		if task.Spec != nil && !slices.Contains(out, task.Spec) {
			out = append(out, task.Spec)
		}
	}
	return out
}

// testColumn is a primitive column the pruning test filters on: a
// top-level field or a field inside structs.
type testColumn struct {
	id   int
	typ  *catalog.PrimitiveType
	top  int   // the top-level field id holding it
	path []int // child positions from the top-level struct down
}

// testColumns lists the primitive columns of schema outside lists and maps.
func testColumns(schema *catalog.Schema) []testColumn {
	var out []testColumn
	var walk func(f catalog.NestedField, top int, path []int)
	walk = func(f catalog.NestedField, top int, path []int) {
		if p := catalog.Primitive(f.Type); p != nil {
			if testComparable(p) {
				out = append(out, testColumn{id: f.ID, typ: p, top: top, path: path})
			}
			return
		}
		if st, ok := f.Type.(*catalog.StructType); ok {
			for i, c := range st.Fields {
				walk(c, top, append(slices.Clone(path), i))
			}
		}
	}
	for _, f := range schema.Fields {
		walk(f, f.ID, nil)
	}
	return out
}

// topIDs are the distinct top-level fields holding cols.
func topIDs(cols []testColumn) []int {
	var ids []int
	for _, c := range cols {
		if !slices.Contains(ids, c.top) {
			ids = append(ids, c.top)
		}
	}
	return ids
}

// value extracts column c of row r from a batch of the fields ids.
func (c *testColumn) value(rec arrow.RecordBatch, ids []int, r int) any {
	a := rec.Column(slices.Index(ids, c.top))
	for _, k := range c.path {
		if a.IsNull(r) {
			return nil
		}
		a = a.(*array.Struct).Field(k)
	}
	return goValue(a, r, c.typ)
}

// testComparable: the types the test evaluates predicates on.
func testComparable(p *catalog.PrimitiveType) bool {
	switch p.ID {
	case catalog.TVariant, catalog.TGeometry, catalog.TGeography, catalog.TUnknown:
		return false
	}
	return true
}

// fileValues are one data file's rows (after deletes), column by column.
type fileValues struct {
	path string
	rows [][]any
}

// matching counts the rows of f satisfying every predicate.
func (f *fileValues) matching(preds []catalog.Predicate, cols []testColumn) int {
	n := 0
	for _, row := range f.rows {
		ok := true
		for _, p := range preds {
			if !predicateHolds(p, row[columnIndex(cols, p.FieldID)]) {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

func columnIndex(cols []testColumn, id int) int {
	for i, c := range cols {
		if c.id == id {
			return i
		}
	}
	return -1
}

// readFileValues scans each task alone and keeps its values.
func readFileValues(t *testing.T, tbl *catalog.Table, schema *catalog.Schema, tasks []catalog.FileScanTask, cols []testColumn) ([]fileValues, error) {
	ids := topIDs(cols)
	var out []fileValues
	for i := range tasks {
		recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks[i : i+1], Schema: schema, FieldIDs: ids}, Options{Parallelism: 1})
		if err != nil {
			return nil, err
		}
		fv := fileValues{path: tasks[i].File.Path}
		for _, rec := range recs {
			for r := 0; r < int(rec.NumRows()); r++ {
				row := make([]any, len(cols))
				for c := range cols {
					row[c] = cols[c].value(rec, ids, r)
				}
				fv.rows = append(fv.rows, row)
			}
		}
		releaseRecs(recs)
		out = append(out, fv)
	}
	return out, nil
}

// countMatching scans tasks with preds as filters, reading only the
// predicates' columns, and counts the rows that satisfy them.
func countMatching(t *testing.T, tbl *catalog.Table, schema *catalog.Schema, tasks []catalog.FileScanTask, cols []testColumn, preds []catalog.Predicate) (int, error) {
	var used []testColumn
	for _, p := range preds {
		used = append(used, cols[columnIndex(cols, p.FieldID)])
	}
	ids := topIDs(used)
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: ids, Filters: preds}, Options{Parallelism: 2})
	if err != nil {
		return 0, err
	}
	defer releaseRecs(recs)
	n := 0
	for _, rec := range recs {
		for r := 0; r < int(rec.NumRows()); r++ {
			ok := true
			for i, p := range preds {
				if !predicateHolds(p, used[i].value(rec, ids, r)) {
					ok = false
					break
				}
			}
			if ok {
				n++
			}
		}
	}
	return n, nil
}

// samplePredicates builds predicates on column c from its values: each
// operator against the minimum, median and maximum, and "in" with two.
// On large tables (few) only the median, with fewer operators.
func samplePredicates(id int, files []fileValues, c int, few bool) []catalog.Predicate {
	var vals []any
	for _, f := range files {
		for _, row := range f.rows {
			if row[c] != nil {
				vals = append(vals, row[c])
			}
		}
	}
	out := []catalog.Predicate{{FieldID: id, Op: catalog.OpIsNull}, {FieldID: id, Op: catalog.OpIsNotNull}}
	if len(vals) == 0 {
		return out
	}
	sort.SliceStable(vals, func(i, j int) bool { return testCompare(vals[i], vals[j]) < 0 })
	samples := []any{vals[0], vals[len(vals)/2], vals[len(vals)-1]}
	if few {
		samples = samples[1:2]
	}
	ops := prunableOps
	if few {
		ops = []string{catalog.OpEq, catalog.OpLt, catalog.OpGtEq}
	}
	for _, v := range samples {
		for _, op := range ops {
			switch op {
			case catalog.OpIsNull, catalog.OpIsNotNull:
				continue
			case catalog.OpIn:
				out = append(out, catalog.Predicate{FieldID: id, Op: op, Values: []any{v, vals[len(vals)/3]}})
			default:
				out = append(out, catalog.Predicate{FieldID: id, Op: op, Values: []any{v}})
			}
		}
	}
	return out
}

// predicateHolds evaluates p on one value as PostgreSQL would.
func predicateHolds(p catalog.Predicate, v any) bool {
	switch p.Op {
	case catalog.OpIsNull:
		return v == nil
	case catalog.OpIsNotNull:
		return v != nil
	}
	if v == nil {
		return false
	}
	for _, c := range p.Values {
		if c == nil {
			continue
		}
		r := testCompare(v, c)
		switch p.Op {
		case catalog.OpEq, catalog.OpIn:
			if r == 0 {
				return true
			}
		case catalog.OpNotEq:
			return r != 0
		case catalog.OpLt:
			return r < 0
		case catalog.OpLtEq:
			return r <= 0
		case catalog.OpGt:
			return r > 0
		case catalog.OpGtEq:
			return r >= 0
		}
	}
	return false
}

// testCompare orders two values of one column as PostgreSQL does (NaN
// above every number and equal to itself; text by bytes).
func testCompare(a, b any) int {
	cmp := func(x, y float64) int {
		switch {
		case math.IsNaN(x) && math.IsNaN(y):
			return 0
		case math.IsNaN(x):
			return 1
		case math.IsNaN(y):
			return -1
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		if x == y {
			return 0
		}
		if !x {
			return -1
		}
		return 1
	case int32:
		return cmp(float64(x), float64(b.(int32)))
	case int64:
		y := b.(int64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case float32:
		return cmp(float64(x), float64(b.(float32)))
	case float64:
		return cmp(x, b.(float64))
	case string:
		return bytes.Compare([]byte(x), []byte(b.(string)))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	case [16]byte:
		y := b.([16]byte)
		return bytes.Compare(x[:], y[:])
	case catalog.Decimal:
		return x.Unscaled.Cmp(b.(catalog.Decimal).Unscaled)
	}
	panic("testCompare: unexpected value")
}

// goValue converts row i of an Arrow column of Iceberg type t into the
// catalog's Go form (value.go).
func goValue(a arrow.Array, i int, t *catalog.PrimitiveType) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Float32:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.Binary:
		return append([]byte(nil), a.Value(i)...)
	case *array.FixedSizeBinary:
		if t.ID == catalog.TUUID {
			var u [16]byte
			copy(u[:], a.Value(i))
			return u
		}
		return append([]byte(nil), a.Value(i)...)
	case *array.Date32:
		return int32(a.Value(i))
	case *array.Time64:
		return int64(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Decimal128:
		return catalog.Decimal{Unscaled: a.Value(i).BigInt(), Scale: t.Scale}
	case array.ExtensionArray:
		return goValue(a.Storage(), i, t)
	}
	panic("goValue: unexpected Arrow array " + a.DataType().String())
}
