package oracle

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5"
)

// namespace is the warehouse directory the tables are written under; it is
// the schema icegate shows them in.
const namespace = "oracle"

// TestIcebergGoWritesIcegateReads writes every oracleTable with iceberg-go,
// serves the warehouse with icegate and checks that SELECT * over the wire
// returns exactly the rows iceberg-go's own scan returns.
func TestIcebergGoWritesIcegateReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	cat, err := hadoop.NewCatalog("oracle", warehouse, nil)
	if err != nil {
		t.Fatalf("open warehouse: %v", err)
	}
	defer cat.Close()
	if err := cat.CreateNamespace(ctx, table.Identifier{namespace}, nil); err != nil {
		t.Fatalf("create namespace: %v", err)
	}

	tables := oracleTables()
	written := make([]oracleTable, 0, len(tables))
	for _, ot := range tables {
		if err := writeTable(ctx, cat, table.Identifier{namespace, ot.name}, ot); err != nil {
			t.Errorf("iceberg-go writing %s: %v", ot.name, err)
			continue
		}
		written = append(written, ot)
	}

	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	for _, ot := range written {
		t.Run(ot.name, func(t *testing.T) {
			ident := table.Identifier{namespace, ot.name}
			wantCols, want, err := readTable(ctx, warehouse, ident)
			if err != nil {
				t.Fatalf("iceberg-go scan: %v", err)
			}
			sql := fmt.Sprintf("SELECT * FROM %s.%s", namespace, ot.name)
			gotCols, got, err := queryText(ctx, conn, sql)
			if err != nil {
				t.Fatalf("icegate %s: %v", sql, err)
			}
			if !slices.Equal(gotCols, wantCols) {
				t.Fatalf("table %s: icegate columns %v, iceberg-go columns %v", ot.name, gotCols, wantCols)
			}
			if len(want) == 0 {
				t.Fatalf("table %s: iceberg-go scan returned no rows; the table checks nothing", ot.name)
			}
			for _, d := range diffRows(wantCols, got, want) {
				t.Errorf("table %s: %s", ot.name, d)
			}
			for _, f := range ot.filters {
				checkFilter(ctx, t, conn, warehouse, ot.name, f)
			}
		})
	}
}

// checkFilter compares SELECT * ... WHERE f.where with iceberg-go's scan
// filtered by f.expr.
func checkFilter(ctx context.Context, t *testing.T, conn *pgx.Conn, warehouse, name string, f filterCase) {
	t.Helper()
	_, want, err := readTable(ctx, warehouse, table.Identifier{namespace, name}, table.WithRowFilter(f.expr))
	if err != nil {
		t.Errorf("iceberg-go scan of %s where %s: %v", name, f.where, err)
		return
	}
	if len(want) == 0 {
		t.Errorf("table %s where %s: iceberg-go returned no rows; the filter checks nothing", name, f.where)
		return
	}
	sql := fmt.Sprintf("SELECT * FROM %s.%s WHERE %s", namespace, name, f.where)
	cols, got, err := queryText(ctx, conn, sql)
	if err != nil {
		t.Errorf("icegate %s: %v", sql, err)
		return
	}
	for _, d := range diffRows(cols, got, want) {
		t.Errorf("table %s where %s: %s", name, f.where, d)
	}
}

// writeTable creates ot as ident in cat and fills it.
func writeTable(ctx context.Context, cat catalog.Catalog, ident table.Identifier, ot oracleTable) error {
	opts := []catalog.CreateTableOpt{catalog.WithProperties(ot.props)}
	if len(ot.spec) > 0 {
		var popts []iceberg.PartitionOption
		for _, pf := range ot.spec {
			popts = append(popts, iceberg.AddPartitionFieldByName(pf.source, pf.name, pf.transform, ot.schema, nil))
		}
		spec, err := iceberg.NewPartitionSpecOpts(popts...)
		if err != nil {
			return fmt.Errorf("partition spec: %w", err)
		}
		opts = append(opts, catalog.WithPartitionSpec(&spec))
	}
	tbl, err := cat.CreateTable(ctx, ident, ot.schema, opts...)
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	if tbl, err = ot.fill(ctx, tbl); err != nil {
		return err
	}
	return checkEvidence(tbl, ot.evidence)
}

// checkEvidence fails when the table lacks what it is meant to test: a
// summary counter (no '.') that no snapshot has non-zero, or a file name
// suffix (starting with '.') that no file under the table has.
func checkEvidence(tbl *table.Table, evidence []string) error {
	for _, e := range evidence {
		if strings.HasPrefix(e, ".") {
			found := false
			root := strings.TrimPrefix(tbl.Location(), "file://")
			err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, e) {
					found = true
				}
				return err
			})
			if err != nil {
				return fmt.Errorf("list %s: %w", root, err)
			}
			if !found {
				return fmt.Errorf("iceberg-go wrote no %s file", e)
			}
			continue
		}
		found := false
		for _, s := range tbl.Metadata().Snapshots() {
			if s.Summary != nil && s.Summary.Properties[e] != "" && s.Summary.Properties[e] != "0" {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("no snapshot has a non-zero %q", e)
		}
	}
	return nil
}

// diffRows compares two multisets of rows and describes the differences.
// Rows left over on both sides are paired by their first column when it is
// a unique key, and each differing column is reported once with its count
// of differing rows and a few examples showing both values; unpaired rows
// are reported as missing from or only in icegate's result.
func diffRows(cols []string, got, want [][]cell) []string {
	const examples = 3
	var out []string
	if len(got) != len(want) {
		out = append(out, fmt.Sprintf("icegate returned %d rows, iceberg-go %d", len(got), len(want)))
	}
	missing, extra := leftovers(got, want)
	gotByKey := uniqueByFirst(extra)
	wantByKey := uniqueByFirst(missing)
	type columnDiff struct {
		rows     int
		examples []string
	}
	diffs := make([]columnDiff, len(cols))
	var unpairedWant, unpairedGot [][]cell
	for _, w := range missing {
		g, ok := gotByKey[w[0]]
		if !ok || wantByKey[w[0]] == nil || len(g) != len(w) {
			unpairedWant = append(unpairedWant, w)
			continue
		}
		for c := range w {
			if g[c] == w[c] {
				continue
			}
			d := &diffs[c]
			d.rows++
			if len(d.examples) < examples {
				d.examples = append(d.examples, fmt.Sprintf("  row %s=%s:\n    icegate:    %s\n    iceberg-go: %s", cols[0], w[0].display(), g[c].display(), w[c].display()))
			}
		}
	}
	for _, g := range extra {
		if _, ok := gotByKey[g[0]]; !ok || wantByKey[g[0]] == nil {
			unpairedGot = append(unpairedGot, g)
		}
	}
	for c, d := range diffs {
		if d.rows > 0 {
			out = append(out, fmt.Sprintf("column %s differs in %d rows, e.g.\n%s", cols[c], d.rows, strings.Join(d.examples, "\n")))
		}
	}
	for k, r := range unpairedWant {
		if k == 2*examples {
			out = append(out, fmt.Sprintf("... %d more rows missing from icegate", len(unpairedWant)-k))
			break
		}
		out = append(out, "row missing from icegate: "+rowKey(r))
	}
	for k, r := range unpairedGot {
		if k == 2*examples {
			out = append(out, fmt.Sprintf("... %d more rows only in icegate", len(unpairedGot)-k))
			break
		}
		out = append(out, "row only in icegate: "+rowKey(r))
	}
	return out
}

// leftovers returns the rows of want not matched in got and the rows of
// got not matched in want, counting duplicates.
func leftovers(got, want [][]cell) (missing, extra [][]cell) {
	count := map[string]int{}
	for _, r := range got {
		count[rowKey(r)]++
	}
	for _, r := range want {
		k := rowKey(r)
		if count[k] > 0 {
			count[k]--
			continue
		}
		missing = append(missing, r)
	}
	for _, r := range got {
		k := rowKey(r)
		if count[k] > 0 {
			count[k]--
			extra = append(extra, r)
		}
	}
	return missing, extra
}

// uniqueByFirst indexes rows by their first cell, keeping only keys that
// occur once.
func uniqueByFirst(rows [][]cell) map[cell][]cell {
	seen := map[cell]int{}
	for _, r := range rows {
		if len(r) > 0 {
			seen[r[0]]++
		}
	}
	out := map[cell][]cell{}
	for _, r := range rows {
		if len(r) > 0 && seen[r[0]] == 1 {
			out[r[0]] = r
		}
	}
	return out
}
